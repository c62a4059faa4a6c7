//! GET then SET: both workers see the lock free.

use crate::scenarios::prelude::*;

/// The definition.
pub static DEF: Definition = Definition {
    id: "check-then-set",
    group: Group::Taking,
    keys: &[Key::Atomic, Key::Fencing],
    extras: &[],
    en: Card {
        title: "Check, then set",
        blurb: "Both workers look, see the lock free, and both take it.",
        setup: "Without atomic set, each worker takes the lock as GET then SET: A reads at 0 s, B at 0.5 s (both see \
             it free), A sets at 1 s (token 33), B at 1.5 s (token 34); each writes 1 s after its set. With it, as \
             SET NX PX: a failed set retries every 0.5 s.",
        prompt: "The workers take the lock {atomic?with SET NX PX|with GET, then SET}, with fencing {fencing}. What happens?",
        choices: &[
            (Safe, "B's set fails; it gets the lock once A has written and released"),
            (DoubleGrant, "Both take the lock and both writes are accepted"),
        ],
    },
    ja: Card {
        title: "確かめてから取る",
        blurb: "二人ともロックが空いているのを見て、そろって取ってしまう。",
        setup: "「一つの命令で取る」がオフなら、どちらのワーカーも GET で確かめてから SET でロックを取ります。A は0秒、\
             B は0.5秒に読み（どちらも空いていると判断します）、A は1秒に（番号 33）、B は1.5秒に（番号 34）SET して、それぞれ\
             その1秒後に資源に書き込みます。オンなら SET NX PX で取り、失敗したら0.5秒ごとにやり直します。",
        prompt: "ワーカーは {atomic?SET NX PX|GET のあとの SET} でロックを取ります（フェンシングは{fencing}）。何が起きる？",
        choices: &[
            (Safe, "B の SET は失敗し、A が書き込んでロックを返したあとで取る"),
            (DoubleGrant, "二人ともロックを取り、両方の書き込みが受け付けられる"),
        ],
    },
};

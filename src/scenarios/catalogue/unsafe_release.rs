//! A releases with a plain DEL after its lease ran out.

use crate::scenarios::prelude::*;

/// The definition.
pub static DEF: Definition = Definition {
    id: "unsafe-release",
    group: Group::GivingBack,
    keys: &[Key::Work, Key::Release, Key::Fencing],
    extras: &[],
    en: Card {
        title: "Releasing someone else's lock",
        blurb: "A plain DEL after the lease ran out deletes the next holder's lock.",
        setup: "A writes at 2 s, then its job runs on until A releases, at the end of the band you drag (at the start, \
             past its 10 s lease). B asks at 1 s, gets the lock when it is free and works 6 s before writing; C asks \
             at 11 s and writes 1 s after it gets the lock.",
        prompt: "A's job ends at {work} s and it releases with {release?compare-and-delete|a plain DEL}, fencing {fencing}. What happens?",
        choices: &[
            (Safe, "Each worker gets the lock in turn: no two hold it at once"),
            (Fenced, "C gets the lock while B still works; B's late write is rejected"),
            (DoubleGrant, "C gets the lock while B still works, and both writes are accepted"),
            (Corrupted, "C gets the lock while B still works; B's late write overwrites C's"),
        ],
    },
    ja: Card {
        title: "他人のロックを消す",
        blurb: "期限切れのあとにただ DEL すると、次の持ち主のロックを消してしまう。",
        setup: "A は2秒に書き込み、そのあとも処理を続けて、ドラッグする帯の右端でロックを返します（最初は期限の10秒を\
             過ぎたところ）。B は1秒にロックを求め、空きしだい受け取って6秒働いてから書き込みます。C は11秒にロックを求め、\
             受け取ってから1秒後に書き込みます。",
        prompt: "A の処理は{work}秒に終わり、{release?比較してから削除する方法|ただの DEL }でロックを返します（フェンシングは{fencing}）。何が起きる？",
        choices: &[
            (Safe, "順番にロックが渡り、二人が同時に持つことはない"),
            (Fenced, "B がまだ働いている間に C がロックを取り、B の遅れた書き込みは拒否される"),
            (DoubleGrant, "B がまだ働いている間に C がロックを取り、両方の書き込みが受け付けられる"),
            (Corrupted, "B がまだ働いている間に C がロックを取り、B の遅れた書き込みが C の仕事を上書きする"),
        ],
    },
};

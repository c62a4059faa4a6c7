//! A's write spends a long time in the network.

use crate::scenarios::prelude::*;

/// The definition.
pub static DEF: Definition = Definition {
    id: "network-delay",
    group: Group::Losing,
    keys: &[Key::Delay, Key::Lease, Key::Fencing],
    extras: &[],
    en: Card {
        title: "Network delay",
        blurb: "A never stops, but its write is held up in the network.",
        setup: "A never pauses: it writes at {check} s, well inside its 10 s lease, but the message spends a while in \
                 the network. A waits for the reply, then releases. B asks at 1 s and writes 1 s after it gets the \
                 lock.",
        prompt: "A's write spends {delay} s in the network, with lease expiry {lease} and fencing {fencing}. What happens?",
        choices: &[
            (Safe, "A's write arrives in time; B gets the lock no later than a lease would let it"),
            (Stalled, "With no lease to free the lock, B waits until A's reply comes back and A lets go"),
            (Fenced, "A's late write is rejected by the storage"),
            (UnfencedGap, "A's late write is accepted before B's first write: both write"),
            (Corrupted, "A's late write is accepted after B's and overwrites it"),
        ],
    },
    ja: Card {
        title: "ネットワークの遅れ",
        blurb: "A は止まらないが、書き込みがネットワークで足止めされる。",
        setup: "A は止まらずに、期限（10秒）よりずっと早い{check}秒に書き込みます。ところが、そのメッセージがネットワークで\
                 しばらく足止めされます。A は返事を待ってからロックを返します。B は1秒にロックを求め、受け取ってから1秒後に\
                 書き込みます。",
        prompt: "A の書き込みはネットワークで{delay}秒かかります（リース期限は{lease}、フェンシングは{fencing}）。何が起きる？",
        choices: &[
            (Safe, "A の書き込みは間に合う。B は遅くとも、リースでロックが外れる時刻にはロックを取れる"),
            (Stalled, "ロックを外すリースがないので、B は A に返事が届いてロックを返すまで待たされる"),
            (Fenced, "遅れて届いた A の書き込みは、資源に拒否される"),
            (UnfencedGap, "遅れて届いた A の書き込みが B の最初の書き込みより先に受け付けられ、二人とも書き込む"),
            (Corrupted, "遅れて届いた A の書き込みが B の書き込みのあとに受け付けられ、B の仕事を上書きする"),
        ],
    },
};

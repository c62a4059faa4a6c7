//! The lock service keeps an expired lock unavailable for a while (Chubby's lock-delay).

use crate::scenarios::prelude::*;

/// The definition.
pub static DEF: Definition = Definition {
    id: "lock-delay",
    group: Group::Fencing,
    keys: &[Key::Pause, Key::LockDelay, Key::Fencing],
    extras: BASE_EXTRAS,
    en: Card {
        title: "Lock-delay",
        blurb: "After a lease runs out, nobody may take the lock for a while.",
        setup:
            "The GC pause again, but after a lease runs out without a release the lock service keeps the lock \
                 unavailable for {lock_delay} s (Chubby's lock-delay; Consul's default). {base}",
        prompt: "A {pause_start?pauses at # s and |}wakes after {pause} s, with lock-delay {lockdelay} and fencing {fencing}. What happens?",
        choices: &[
            (Safe, "A's late write lands while nobody else holds the lock, or A wakes in time: no harm"),
            (Fenced, "A's late write is rejected by the storage"),
            (UnfencedGap, "A's late write is accepted before B's first write: both write"),
            (Corrupted, "A's late write is accepted after B's and overwrites it"),
        ],
    },
    ja: Card {
        title: "ロック遅延（lock-delay）",
        blurb: "期限切れのあと、しばらくは誰もロックを取れない。",
        setup: "GC 停止と同じですが、ロックが返されないまま期限が切れると、ロックサービスはそのロックを{lock_delay}秒のあいだ誰にも\
                 渡しません（Chubby のロック遅延（lock-delay）です。{lock_delay}秒は Consul の既定値）。{base}",
        prompt: "A は{pause_start?#秒に止まり、|}{pause}秒後に目を覚まします（ロック遅延は{lockdelay}、フェンシングは{fencing}）。何が起きる？",
        choices: &[
            (Safe, "A の遅れた書き込みが、ほかに誰もロックを持っていない間に届くか、A が間に合う。害はない"),
            (Fenced, "A の遅れた書き込みは、資源に拒否される"),
            (UnfencedGap, "A の遅れた書き込みが B の最初の書き込みより先に受け付けられ、二人とも書き込む"),
            (Corrupted, "A の遅れた書き込みが B の書き込みのあとに受け付けられ、B の仕事を上書きする"),
        ],
    },
};

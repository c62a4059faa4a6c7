//! A crashes while holding the lock.

use crate::scenarios::prelude::*;

/// The definition.
pub static DEF: Definition = Definition {
    id: "crash",
    group: Group::Losing,
    keys: &[Key::Lease],
    extras: &[],
    en: Card {
        title: "Holder crashes",
        blurb: "The holder dies without releasing the lock.",
        setup: "A takes the lock at 0 s with a 10 s lease and crashes at once. B asks at 1 s.",
        prompt: "A crashes holding the lock, lease expiry {lease}. What happens to B?",
        choices: &[
            (Safe, "The lease runs out and B gets the lock"),
            (Orphaned, "Nothing ever frees the lock: B waits for ever"),
        ],
    },
    ja: Card {
        title: "持ち主のクラッシュ",
        blurb: "ロックを握ったまま持ち主が死ぬ。",
        setup: "A は0秒にロック（期限10秒）を取り、すぐにクラッシュします。B は1秒にロックを求めます。",
        prompt: "A はロックを握ったまま落ちます（リース期限は{lease}）。B はどうなる？",
        choices: &[
            (Safe, "期限が切れて、B がロックを取れる"),
            (Orphaned, "ロックは二度と外れず、B は永遠に待つ"),
        ],
    },
};

//! The new holder registers its token at the storage when it is granted the lock.

use crate::scenarios::prelude::*;

/// The definition.
pub static DEF: Definition = Definition {
    id: "register-token",
    group: Group::Fencing,
    keys: &[Key::Pause, Key::Register, Key::Fencing],
    extras: BASE_EXTRAS,
    en: Card {
        title: "Register the token",
        blurb: "The new holder's token reaches the storage the moment it gets the lock.",
        setup:
            "The GC pause again, but with registration on, every new holder's token reaches the storage at the \
                 grant itself, before anyone acts: this lab's remedy, nearest to BookKeeper fencing a ledger before a \
                 new writer goes on. {base}",
        prompt: "A {pause_start?pauses at # s and |}wakes after {pause} s, with registration {register} and fencing {fencing}. What happens?",
        choices: choices::ALWAYS_LEASED_EN,
    },
    ja: Card {
        title: "番号の登録",
        blurb: "新しい持ち主の番号が、ロックを受け取った瞬間に資源に届く。",
        setup: "GC 停止と同じですが、「番号の登録」がオンなら、新しい持ち主の番号はロックを渡されたその時点で、誰かが動くより\
                 先に資源に届きます。これはこのラボ独自の対策で、いちばん近いのは、新しい書き手が進む前に台帳をフェンスする \
                 BookKeeper のやり方です。{base}",
        prompt: "A は{pause_start?#秒に止まり、|}{pause}秒後に目を覚まします（番号の登録は{register}、フェンシングは{fencing}）。何が起きる？",
        choices: choices::ALWAYS_LEASED_JA,
    },
};

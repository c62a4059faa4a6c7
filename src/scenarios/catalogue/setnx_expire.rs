//! SETNX then EXPIRE, with a crash between them.

use crate::scenarios::prelude::*;

/// The definition.
pub static DEF: Definition = Definition {
    id: "setnx-expire",
    group: Group::Taking,
    keys: &[Key::Atomic],
    extras: &[],
    en: Card {
        title: "SETNX, then EXPIRE",
        blurb: "The lock and its expiry set in two commands, with a crash between them.",
        setup: "A takes the lock and crashes at once. Without atomic set, it takes it the old way, SETNX and then \
             EXPIRE, and crashes between the two; with it, as one SET NX PX. B asks at 1 s.",
        prompt: "A {atomic?takes the lock with one SET NX PX, then crashes|takes the lock with SETNX and crashes before its EXPIRE}. What happens to B?",
        choices: &[
            (Safe, "The lease runs out and B gets the lock"),
            (Orphaned, "Nothing ever frees the lock: B waits for ever"),
        ],
    },
    ja: Card {
        title: "SETNX のあとで EXPIRE",
        blurb: "ロックを取る命令と期限を付ける命令が別々で、その間で落ちる。",
        setup: "A はロックを取ってすぐにクラッシュします。「一つの命令で取る」がオフなら、古い書き方どおり SETNX と EXPIRE の\
             2段階で取り、その間で落ちます。オンなら SET NX PX の一つの命令で取ります。B は1秒にロックを求めます。",
        prompt: "A は {atomic?SET NX PX でロックを取ってから落ちます|SETNX でロックを取り、EXPIRE の前に落ちます}。B はどうなる？",
        choices: &[
            (Safe, "期限が切れて、B がロックを取れる"),
            (Orphaned, "ロックは二度と外れず、B は永遠に待つ"),
        ],
    },
};

//! A Redis primary crashes before replicating; the promoted replica grants the lock again.

use crate::scenarios::prelude::*;

/// The definition.
pub static DEF: Definition = Definition {
    id: "failover",
    group: Group::Replicated,
    keys: &[Key::Sync, Key::Fencing],
    extras: &[],
    en: Card {
        title: "Redis failover",
        blurb: "The primary dies before replicating; the promoted replica grants the lock again.",
        setup: "A Redis primary with one replica, replication asynchronous. A takes the lock at 0 s and token 33 (INCR){sync?, \
             then waits (WAIT 1) until the replica acknowledges its SET and INCR|}. The primary crashes at 0.5 s{sync?|, before \
             either reaches the replica}; the replica is promoted at 2 s. Promotion stays best-effort: Redis warns that even a \
             write WAIT reported as replicated can be lost in a failover{sync?; this run assumes the promoted replica kept what \
             it acknowledged|}. B asks at 1 s and writes 1 s after it gets the lock. A never pauses: it writes at 4 s and releases.",
        prompt: "WAIT {sync}, fencing {fencing}. What happens when the replica takes over?",
        choices: &[
            (Safe, "The promoted replica still has A's lock: B waits its turn"),
            (Corrupted, "The replica grants the lock again with the same token; A's write overwrites B's"),
        ],
    },
    ja: Card {
        title: "Redis のフェイルオーバー",
        blurb: "複製の前にプライマリが落ち、昇格したレプリカがロックをもう一度渡す。",
        setup: "Redis のプライマリ1台と、非同期で複製するレプリカ1台。A は0秒にロックと番号 33（INCR）を取り{sync?、レプリカが \
             SET と INCR を受け取ったと応答するまで WAIT 1 で待ちます|ます}。プライマリは{sync?|そのどちらもレプリカに届かないうちに、}\
             0.5秒に落ち、レプリカが2秒に昇格します。Redis は、フェイルオーバーはベストエフォートで、WAIT が複製済みと答えた書き込みでも\
             失われうると注意しています{sync?。この実行では、昇格したレプリカが応答した内容を保っていたと仮定します|}。\
             B は1秒にロックを求め、受け取ってから1秒後に書き込みます。A は止まらず、4秒に書き込んでロックを返します。",
        prompt: "WAIT は{sync}、フェンシングは{fencing}。レプリカが引き継ぐと何が起きる？",
        choices: &[
            (Safe, "昇格したレプリカにも A のロックがある。B は順番を待つ"),
            (Corrupted, "レプリカが同じ番号でロックをもう一度渡し、A の書き込みが B の仕事を上書きする"),
        ],
    },
};

//! A ZooKeeper ensemble: ephemeral sequential znodes, sessions, the lock znode's czxid as token.

use crate::scenarios::prelude::*;

/// The definition.
pub static DEF: Definition = Definition {
    id: "zookeeper",
    group: Group::Replicated,
    keys: &[Key::Pause, Key::Fencing],
    extras: BASE_EXTRAS,
    en: Card {
        title: "ZooKeeper lock recipe",
        blurb: "Ephemeral sequential znodes: the session's end frees the lock, the znode's czxid fences.",
        setup: "A ZooKeeper ensemble and its lock recipe: each worker creates an ephemeral sequential znode and \
                 watches the one just before its own. Its sequence number orders the waiters; its czxid, the zxid of the \
                 transaction that created it, is its token (the numbers stand for zxids). A \
                 running worker's heartbeats keep its session alive; after {ttl} s without one the session expires and \
                 its znode goes. {base}",
        prompt: "A {pause_start?pauses at # s and |}wakes after {pause} s, fencing {fencing}. What happens?",
        choices: choices::ALWAYS_LEASED_EN,
    },
    ja: Card {
        title: "ZooKeeper のロックレシピ",
        blurb: "一時的な連番 znode。セッションが切れるとロックが外れ、znode の czxid でフェンシングする。",
        setup: "ZooKeeper のアンサンブルと、ロックのレシピ。各ワーカーは一時的（ephemeral）な連番の znode を作り、\
                 自分のすぐ前の znode を見張ります。連番が待つ順番を決め、znode の czxid（その znode を作ったトランザクションの \
                 zxid）が番号です（図の番号は zxid の代わり）。動いている\
                 ワーカーのハートビートがセッションを保ち、{ttl}秒届かなければセッションが切れて znode も消えます。{base}",
        prompt: "A は{pause_start?#秒に止まり、|}{pause}秒後に目を覚まします（フェンシングは{fencing}）。何が起きる？",
        choices: choices::ALWAYS_LEASED_JA,
    },
};

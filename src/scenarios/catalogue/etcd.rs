//! An etcd cluster: leases kept alive, revisions as tokens, a leader that may crash.

use crate::scenarios::prelude::*;

/// The leader crash the page's switch sets (5 s).
pub const LEADER_CRASH: Ms = 5_000;

/// etcd's default election timeout (1 s): how long the group has no leader after a crash, and what the new
/// leader adds to every lease's full TTL when it restarts them.
pub const ELECTION: Ms = 1_000;

/// The definition.
pub static DEF: Definition = Definition {
    id: "etcd",
    group: Group::Replicated,
    keys: &[Key::Pause, Key::LeaderCrash, Key::Fencing],
    extras: BASE_EXTRAS,
    en: Card {
        title: "etcd: lease and revision",
        blurb: "Consensus keeps one truth; the lock key's revision is the fencing token.",
        setup: "A three-member etcd cluster. Each worker's lock key is tied to its lease, and the key's create revision \
                 is its token (the numbers stand for revisions); a running worker renews its lease every {ttl3} s, a \
                 paused one cannot.{leader_crash? The leader crashes at # s; a new one is ready 1 s later.|} {base}",
        prompt: "A {pause_start?pauses at # s and |}wakes after {pause} s, leader crash {leader_crash?at # s|off}, fencing {fencing}. What happens?",
        choices: choices::ALWAYS_LEASED_EN,
    },
    ja: Card {
        title: "etcd のリースとリビジョン",
        blurb: "合意で真実は一つ。ロックキーのリビジョンがフェンシングトークンになる。",
        setup: "3台構成の etcd クラスタ。各ワーカーのロックキーはそのリースに結び付き、キーの作成リビジョンが番号です\
                 （図の番号はリビジョンの代わり）。動いているワーカーは{ttl3}秒ごとにリースを延長しますが、止まっている間は\
                 できません。{leader_crash?リーダーは#秒に落ち、その1秒後に新しいリーダーが立ちます。|}{base}",
        prompt: "A は{pause_start?#秒に止まり、|}{pause}秒後に目を覚まします（{leader_crash?#秒にリーダーが故障|リーダーの故障なし}、フェンシングは{fencing}）。何が起きる？",
        choices: choices::ALWAYS_LEASED_JA,
    },
};

//! 日本語。元の記事（分散ロックの解説）の語り口に合わせる。
//!
//! 表記の決まり: ウィジェットの中では「ロック」で統一し（「鍵」は使わない）、秒は数字に続けて書く
//! （「10秒」）。番号は前後に空白を置く（「番号 34 を」）。

use super::{fill, s, ScenarioText, Text};
use crate::geom::SNAP;
use crate::params::Problem;
use crate::scenarios::{Group, Key, ScenarioId};
use crate::sim::OutcomeKind::{self, *};
use crate::story::Line;

const BASE_CHOICES: &[(OutcomeKind, &str)] = &[
    (Safe, "A は間に合って書き込み、ロックを返す。B は、リースならロックが外れる時刻までにはロックを取れる"),
    (Stalled, "B は、リースならロックが外れていた時刻を過ぎても、A が目覚めてロックを返すまで待たされる"),
    (Fenced, "A の遅れた書き込みは、資源に拒否される"),
    (UnfencedGap, "A の遅れた書き込みが B の最初の書き込みより先に受け付けられ、二人とも書き込む"),
    (Corrupted, "A の遅れた書き込みが B の書き込みのあとに受け付けられ、B の仕事を上書きする"),
];

static GC_PAUSE: ScenarioText = ScenarioText {
    title: "GC 停止",
    blurb: "持ち主が期限より長く止まる。",
    setup: "{base}",
    prompt: "A は{pause}秒後に目を覚まします（リース期限は{lease}、フェンシングは{fencing}）。何が起きる？",
    choices: BASE_CHOICES,
};

static CHECK_THEN_PAUSE: ScenarioText = ScenarioText {
    title: "確かめてから止まる",
    blurb: "A は書き込みの直前に期限を確かめ、その直後に止まる。",
    setup: "GC 停止と同じですが、A はまず{check}秒働いて自分の時計で期限を確かめ、まだ有効なら、そこで止まります。\
             目覚めると、確かめ直さずに書き込みます。期限は{ttl}秒で、B は{b_request}秒にロックを求め、受け取ってから{b_work}秒後に\
             書き込みます。",
    prompt: "A は{check}秒に期限を確かめ、{wake}秒に目覚めます（リース期限は{lease}、フェンシングは{fencing}）。何が起きる？",
    choices: BASE_CHOICES,
};

static NETWORK_DELAY: ScenarioText = ScenarioText {
    title: "ネットワークの遅れ",
    blurb: "A は止まらないが、書き込みがネットワークで足止めされる。",
    setup: "A は止まらずに、期限（10秒）よりずっと早い{check}秒に書き込みます。ところが、そのメッセージがネットワークで\
             しばらく足止めされます。A は返事を待ってからロックを返します。B は1秒にロックを求め、受け取ってから1秒後に\
             書き込みます。",
    prompt: "A の書き込みはネットワークで{delay}秒かかります（リース期限は{lease}、フェンシングは{fencing}）。何が起きる？",
    choices: &[
        (Safe, "A の書き込みは間に合う。B は、リースならロックが外れる時刻までにはロックを取れる"),
        (Stalled, "B は、リースならロックが外れていた時刻を過ぎても、A に返事が届くまで待たされる"),
        (Fenced, "遅れて届いた A の書き込みは、資源に拒否される"),
        (UnfencedGap, "遅れて届いた A の書き込みが B の最初の書き込みより先に受け付けられ、二人とも書き込む"),
        (Corrupted, "遅れて届いた A の書き込みが B の書き込みのあとに受け付けられ、B の仕事を上書きする"),
    ],
};

static SETNX_EXPIRE: ScenarioText = ScenarioText {
    title: "SETNX のあとで EXPIRE",
    blurb: "ロックを取る命令と期限を付ける命令が別々で、その間で落ちる。",
    setup: "A はロックを取ってすぐにクラッシュします。「一つの命令で取る」がオフなら、古い書き方どおり SETNX と EXPIRE の\
         2段階で取り、その間で落ちます。オンなら SET NX PX の一つの命令で取ります。B は1秒にロックを求めます。",
    prompt: "A は {atomic?SET NX PX でロックを取ってから落ちます|SETNX でロックを取り、EXPIRE の前に落ちます}。B はどうなる？",
    choices: &[
        (Safe, "期限が切れて、B がロックを取れる"),
        (Orphaned, "ロックは二度と外れず、B は永遠に待つ"),
    ],
};

static CHECK_THEN_SET: ScenarioText = ScenarioText {
    title: "確かめてから取る",
    blurb: "二人ともロックが空いているのを見て、そろって取ってしまう。",
    setup: "「一つの命令で取る」がオフなら、どちらのワーカーも GET で確かめてから SET でロックを取ります。A は0秒、\
         B は0.5秒に読み（どちらも空いていると見ます）、A は1秒に（番号 33）、B は1.5秒に（番号 34）SET して、それぞれ\
         その1秒後に資源に書き込みます。オンなら SET NX で取り、失敗したら0.5秒ごとにやり直します。",
    prompt: "ワーカーは {atomic?SET NX|GET のあとの SET} でロックを取ります（フェンシングは{fencing}）。何が起きる？",
    choices: &[
        (Safe, "B の SET は失敗し、A が書き込んでロックを返したあとで取る"),
        (DoubleGrant, "二人ともロックを取り、両方の書き込みが受け付けられる"),
    ],
};

static UNSAFE_RELEASE: ScenarioText = ScenarioText {
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
};

static CRASH: ScenarioText = ScenarioText {
    title: "持ち主のクラッシュ",
    blurb: "ロックを握ったまま持ち主が死ぬ。",
    setup: "A は0秒にロック（期限10秒）を取り、すぐにクラッシュします。B は1秒にロックを求めます。",
    prompt: "A はロックを握ったまま落ちます（リース期限は{lease}）。B はどうなる？",
    choices: &[
        (Safe, "期限が切れて、B がロックを取れる"),
        (Orphaned, "ロックは二度と外れず、B は永遠に待つ"),
    ],
};

static LOCK_DELAY_TEXT: ScenarioText = ScenarioText {
    title: "ロック遅延（lock-delay）",
    blurb: "期限切れのあと、しばらくは誰もロックを取れない。",
    setup: "GC 停止と同じですが、ロックが返されないまま期限が切れると、ロックサービスはそのロックを{lock_delay}秒のあいだ誰にも\
             渡しません（Chubby の lock-delay です。{lock_delay}秒は Consul の既定値）。{base}",
    prompt: "A は{pause}秒後に目を覚まします（ロック遅延は{lockdelay}、フェンシングは{fencing}）。何が起きる？",
    choices: &[
        (Safe, "A の遅れた書き込みが、ほかに誰もロックを持っていない間に届くか、A が間に合う。害はない"),
        (Fenced, "A の遅れた書き込みは、資源に拒否される"),
        (UnfencedGap, "A の遅れた書き込みが B の最初の書き込みより先に受け付けられ、二人とも書き込む"),
        (Corrupted, "A の遅れた書き込みが B の書き込みのあとに受け付けられ、B の仕事を上書きする"),
    ],
};

static REGISTER_TOKEN: ScenarioText = ScenarioText {
    title: "番号の登録",
    blurb: "新しい持ち主の番号が、ロックを受け取った瞬間に資源に届く。",
    setup: "GC 停止と同じですが、「番号の登録」がオンなら、新しい持ち主の番号はロックを渡されたその時点で、誰かが動くより\
             先に資源に届きます。{base}",
    prompt: "A は{pause}秒後に目を覚まします（番号の登録は{register}、フェンシングは{fencing}）。何が起きる？",
    choices: &[
        (Safe, "A は間に合って書き込み、ロックを返す。衝突はない"),
        (Fenced, "A の遅れた書き込みは、資源に拒否される"),
        (UnfencedGap, "A の遅れた書き込みが B の最初の書き込みより先に受け付けられ、二人とも書き込む"),
        (Corrupted, "A の遅れた書き込みが B の書き込みのあとに受け付けられ、B の仕事を上書きする"),
    ],
};

static FAILOVER: ScenarioText = ScenarioText {
    title: "Redis のフェイルオーバー",
    blurb: "複製の前にプライマリが落ち、昇格したレプリカがロックをもう一度渡す。",
    setup: "Redis のプライマリ1台と、非同期で複製するレプリカ1台。A は0秒にロックと番号 33（INCR）を取ります。\
         プライマリは{sync?WAIT で両方がレプリカに届いたのを確かめたあと|そのどちらもレプリカに届かないうちに}0.5秒に落ち、レプリカが2秒に昇格します。B は1秒にロックを\
         求め、受け取ってから1秒後に書き込みます。A は止まらず、4秒に書き込んでロックを返します。",
    prompt: "WAIT は{sync}、フェンシングは{fencing}。レプリカが引き継ぐと何が起きる？",
    choices: &[
        (Safe, "昇格したレプリカにも A のロックがある。B は順番を待つ"),
        (Corrupted, "レプリカが同じ番号でロックをもう一度渡し、A の書き込みが B の仕事を上書きする"),
    ],
};

static REDLOCK: ScenarioText = ScenarioText {
    title: "Redlock と時計の飛び",
    blurb: "1台の時計が飛んでキーが早く消え、別のクライアントが過半数を取る。",
    setup: "互いに独立した5台の Redis（N1〜N5）。クライアントは、期限10秒のキーを過半数（3台）で押さえている間だけ\
             ロックを持ちます。A は N1〜N3 にしか届かず、0秒にその3台を取り、5秒後に書き込んでロックを返します。2秒に N3 の\
             時計が、ドラッグした分だけ先に飛びます。B は3秒にロックを求め、1秒ごとにやり直し、過半数を取ってから1秒後に書き込みます。\
             Redlock の値は乱数なので、フェンシングに使える番号はありません。{pause?A はロックを取った直後に#秒止まります。|}",
    prompt: "N3 の時計が{jump}秒先に飛び{pause?、A は#秒止まり|}ます。何が起きる？",
    choices: &[
        (Safe, "B が過半数を取れるのは、A が書き込んだあと"),
        (UnfencedGap, "B がロックを取ったあと、B が書き込む前に A が遅れて書き込み、両方の書き込みが残る"),
        (DoubleGrant, "A がまだロックを持っているうちに B も過半数を取り、二人が同時に書き込む"),
        (Corrupted, "A の書き込みが B の書き込みのあとに届き、B の仕事を上書きする"),
    ],
};

const CONSENSUS_CHOICES: &[(OutcomeKind, &str)] = &[
    (Safe, "A は間に合って書き込み、ロックを返す。衝突はない"),
    (Fenced, "A の遅れた書き込みは、資源に拒否される"),
    (UnfencedGap, "A の遅れた書き込みが B の最初の書き込みより先に受け付けられ、二人とも書き込む"),
    (Corrupted, "A の遅れた書き込みが B の書き込みのあとに受け付けられ、B の仕事を上書きする"),
];

static ETCD: ScenarioText = ScenarioText {
    title: "etcd のリースとリビジョン",
    blurb: "合意で真実は一つ。ロックキーのリビジョンがフェンシングトークンになる。",
    setup: "3台構成の etcd クラスタ。各ワーカーのロックキーはそのリースに結び付き、キーの作成リビジョンが番号です\
             （図の番号はリビジョンの代わり）。動いているクライアントは{ttl3}秒ごとにリースを延長しますが、止まっている間は\
             できません。{leader_crash?リーダーは#秒に落ち、その1秒後に新しいリーダーが立ちます。|}{base}",
    prompt: "A は{pause}秒後に目を覚まします（{leader_crash?#秒にリーダーが故障|リーダーの故障なし}、フェンシングは{fencing}）。何が起きる？",
    choices: CONSENSUS_CHOICES,
};

static ZOOKEEPER: ScenarioText = ScenarioText {
    title: "ZooKeeper のロックレシピ",
    blurb: "一時的な連番 znode。セッションが切れるとロックが外れ、zxid でフェンシングする。",
    setup: "ZooKeeper のアンサンブルと、ロックのレシピ。各ワーカーは一時的（ephemeral）な連番の znode を作り、\
             自分のすぐ前の znode を見張ります。znode の zxid が番号です（図の番号は zxid の代わり）。動いている\
             クライアントのハートビートがセッションを保ち、{ttl}秒届かなければセッションが切れて znode も消えます。{base}",
    prompt: "A は{pause}秒後に目を覚まします（フェンシングは{fencing}）。何が起きる？",
    choices: CONSENSUS_CHOICES,
};

fn scenario(id: ScenarioId) -> &'static ScenarioText {
    match id {
        ScenarioId::GcPause => &GC_PAUSE,
        ScenarioId::CheckThenPause => &CHECK_THEN_PAUSE,
        ScenarioId::NetworkDelay => &NETWORK_DELAY,
        ScenarioId::SetnxExpire => &SETNX_EXPIRE,
        ScenarioId::CheckThenSet => &CHECK_THEN_SET,
        ScenarioId::UnsafeRelease => &UNSAFE_RELEASE,
        ScenarioId::Crash => &CRASH,
        ScenarioId::LockDelay => &LOCK_DELAY_TEXT,
        ScenarioId::RegisterToken => &REGISTER_TOKEN,
        ScenarioId::Failover => &FAILOVER,
        ScenarioId::Redlock => &REDLOCK,
        ScenarioId::Etcd => &ETCD,
        ScenarioId::Zookeeper => &ZOOKEEPER,
    }
}

fn line(l: Line) -> &'static str {
    match l {
        Line::CheckFailed => "A は{check}秒に自分の時計で期限を確かめましたが、期限は{expired}秒に切れていたので、書き込まずにあきらめました。B は{b_grant}秒に番号 {b} を取っていたので、衝突は起きません。",
        Line::CheckedThenPaused => "A は{check}秒に期限を確かめ（まだ有効でした）、そのあと止まりました。",
        Line::CheckedNoPause => "A は{check}秒に期限を確かめました（まだ有効でした）。",
        Line::ExpiredHarmless => "{expired}秒に、止まっている A の期限が切れ、ロックサービスはロックを取り戻しました。{wake}秒に目覚めた A は番号 {a} で書き込みましたが、そのときほかに誰もロックを持っていなかったので、害はありませんでした。B は{b_grant}秒に番号 {b} を取りました。",
        Line::ExpiredHarmlessDelay => "{expired}秒に、止まっている A の期限が切れ、ロックサービスはロックを取り戻しました。ロック遅延のため、{free}秒までは誰にもロックを渡しませんでした。{wake}秒に目覚めた A は番号 {a} で書き込みましたが、そのときほかに誰もロックを持っていなかったので、害はありませんでした。B は{b_grant}秒に番号 {b} を取りました。",
        Line::NoPause => "A は止まらずに{wake}秒に書き込み、ロックを返しました。B はその後で番号 {b} を取ったので、衝突は起きません。",
        Line::WokeInLease => "A は期限（{ttl}秒）の内に目覚めて書き込み、ロックを返しました。B はその後で番号 {b} を取ったので、衝突は起きません。A の「GC 停止」の帯の右端をドラッグして、長く伸ばしてみてください。",
        Line::WokeNoLease => "A は{wake}秒に目覚めました。リースなら期限が切れていた{ttl}秒より前です。A はそのまま書き込んでロックを返し、B はその後で番号 {b} を取ったので、衝突は起きません。",
        Line::StalledUntilWake => "期限がないので、B は{from}秒から、A が目覚めてロックを返す{until}秒まで待たされました。リースなら{would_free}秒にロックが外れていたはずです。A がロックを返さないままなら、B は永遠に待ち続けることになります。",
        Line::StalledUntilReply => "期限がないので、B は{from}秒から、A に返事が届いてロックを返す{until}秒まで待たされました。リースなら{would_free}秒にロックが外れていたはずです。",
        Line::NeverFreed => "ロックを外すものが何もないので、{from}秒から待っている B は、いつまでもロックを取れません。",
        Line::ExpiredBWrote => "{expired}秒に、止まっている A の期限が切れました。B は{b_grant}秒に番号 {b} を取り、{b_write}秒に書き込みました。",
        Line::ExpiredBRegistered => "{expired}秒に、止まっている A の期限が切れました。B は{b_grant}秒に番号 {b} を取り、その番号はすぐに資源に届きました。",
        Line::WokeWrote => "{wake}秒に目覚めた A は、まだ自分が持ち主だと思ったまま、番号 {a} で書き込みます。",
        Line::WokeWroteUnchecked => "{wake}秒に目覚めた A は、まだ自分が持ち主だと思ったまま、確かめ直さずに番号 {a} で書き込みます。",
        Line::Rejected => "資源はすでに {newer} を見ているので、この書き込みを拒否します（{a} < {newer}）。フェンシングがデータを守りました。",
        Line::OverwroteB => "フェンシングがないので、資源は {newer} のあとに {a} も受け付け、B の仕事は上書きされました。",
        Line::GapWoke => "A の期限は{expired}秒に切れ、B は{b_grant}秒に番号 {b} を取りました。ところが A は、B の最初の書き込み（{b_write}秒）と同時か、それより前の{wake}秒に目覚め、書き込みました。",
        Line::GapWokeUnchecked => "A の期限は{expired}秒に切れ、B は{b_grant}秒に番号 {b} を取りました。ところが A は、B の最初の書き込み（{b_write}秒）と同時か、それより前の{wake}秒に目覚め、確かめ直さずに書き込みました。",
        Line::GapFenced => "資源はまだ {b} を見ていなかったので {a} を受け付け、そのあと {b} も受け付けました。しばらくのあいだ、二人とも自分が持ち主だと思っていたことになります。最大の番号だけを覚えるフェンシングは、資源に届いた書き込みの順序しか守れません。新しい持ち主の番号を、ロックを渡した時点で資源に登録すれば、この隙間は閉じます（「番号の登録」）。",
        Line::GapUnfenced => "資源は番号を確かめないので、{a} を受け付け、そのあと {b} も受け付けました。しばらくのあいだ、二人とも自分が持ち主だと思っていたことになります。",
        Line::Sent => "A は{sent}秒、まだ期限内に書き込みましたが、そのメッセージはネットワークで{delay}秒かかりました。",
        Line::SentNoLease => "A は{sent}秒に書き込みましたが、そのメッセージはネットワークで{delay}秒かかりました。",
        Line::ArrivedInLease => "A は{sent}秒に書き込み、メッセージはネットワークで{delay}秒かかって{arrived}秒に届きました。期限が切れる{lease_end}秒より前です。A はそのあとロックを返し、B が番号 {b} を取ったので、衝突は起きません。",
        Line::ArrivedNoLease => "A は{sent}秒に書き込み、メッセージはネットワークで{delay}秒かかって{arrived}秒に届きました。リースなら期限が切れていた{ttl}秒より前です。A はそのあとロックを返し、B が番号 {b} を取ったので、衝突は起きません。",
        Line::DelayExpired => "{expired}秒に期限が切れ、B が番号 {b} を取って{b_write}秒に書き込みます。A の書き込みは{arrived}秒に番号 {a} で届きます。",
        Line::DelayRejected => "資源はすでに {b} を見ているので拒否します（{a} < {b}）。フェンシングがデータを守りました。",
        Line::DelayOverwrote => "フェンシングがないので、資源は {b} のあとにこれも受け付け、B の仕事は上書きされました。",
        Line::DelayGap => "{expired}秒に期限が切れ、B が番号 {b} を取りました。ところが A の書き込みは、B の最初の書き込み（{b_write}秒）より前の{arrived}秒に届きました。資源は {a} を受け付け、そのあと {b} も受け付けました。二人とも自分が持ち主だと思ったまま書き込んだことになります。",
        Line::SetnxOrphaned => "A は0秒に SETNX でロックを取り、EXPIRE の前に落ちました。このキーには期限がなく、消すものは何もありません。1秒から待っている B は、永遠にロックを取れません。ロックは SET NX PX の一つの命令で取りましょう。",
        Line::LeaseReturned => "A は0秒に期限付きでロックを取り、すぐに落ちました。期限は{b_grant}秒に切れ、1秒から待っていた B がそのとき番号 {b} を取りました。期限のおかげで、ロックが戻ってきたのです。",
        Line::CrashOrphaned => "A は0秒にロックを取り、すぐに落ちました。期限がないので、ロックを外すものは何もありません。1秒から待っている B は、いつまでもロックを取れません。期限が守っているのは、システムが止まらないことです。",
        Line::CheckSetDouble => "A は0秒に、B は0.5秒にロックを読み、どちらも空いていると見ました。A は1秒に SET し（番号 {a}）、B は1.5秒にその上から SET しました（番号 {b}）。二人とも自分が持ち主だと思ったまま、A は{a_write}秒、B は{b_write}秒に書き込み、資源は両方を受け付けました。",
        Line::CheckSetFencingNote => "小さい番号が先に届くので、フェンシングでは防げません。",
        Line::CheckSetSafe => "A は1秒に SET NX でロックを取りました（番号 {a}）。B の1.5秒の SET NX は失敗し、0.5秒ごとにやり直して、A が書き込んでロックを返したあとの{b_grant}秒に番号 {b} を取りました。衝突は起きません。",
        Line::ReleaseCause => "A は2秒に書き込みましたが、処理は期限を過ぎて{work}秒まで続きました。B は{b_grant}秒にロックを受け取りました（番号 {b}）。{work}秒に A がただの DEL でロックを返すと、B のキーが消え、11秒から待っていた C がすぐに番号 {c} を取りました。",
        Line::ReleaseFenced => "C は{c_write}秒に書き込みます。まだ持ち主のつもりの B が{b_write}秒に番号 {b} で書き込むと、資源はすでに {c} を見ているので拒否します（{b} < {c}）。",
        Line::ReleaseCorrupted => "C は{c_write}秒に書き込みます。まだ持ち主のつもりの B が{b_write}秒に番号 {b} で書き込むと、フェンシングがないので資源は {c} のあとに {b} も受け付け、C の仕事は上書きされました。",
        Line::ReleaseDouble => "B は C の最初の書き込み（{c_write}秒）と同時か、それより前の{b_write}秒に番号 {b} で書き込み、資源は両方を受け付けました。二人の持ち主が書き込んだことになります。",
        Line::ReleaseInLease => "A は{a_release}秒に処理を終え、期限のうちにロックを返しました。B がそのとき番号 {b} を取り、C は B のあとで番号 {c} を取ったので、衝突は起きません。",
        Line::ReleaseCompare => "A の処理は期限を過ぎて{work}秒まで続きましたが、比較してから削除する解放では、キーの値が自分のものではなく B のものだったので、何も消しませんでした。C は B が{b_release}秒にロックを返すまで待ち、そのとき番号 {c} を取ったので、衝突は起きません。",
        Line::ReleaseLate => "A の処理は{work}秒まで続きましたが、A が DEL したときには、B はすでに{b_release}秒にロックを返していて、待っている人もいませんでした。そのため、誰かにロックが早く渡ることはなく、今回は衝突が起きずに済みました。",
        Line::FailoverLost => "プライマリは、A のキーと INCR がレプリカに届く前の0.5秒に落ちました。2秒に昇格したレプリカはどちらも持っていないので、同じ番号 {b} をもう一度使って B にロックを渡しました。A のリースは{lease_end}秒まで有効なままでした。",
        Line::FailoverSameToken => "B は{b_write}秒に番号 {b} で書き込み、一度も止まらなかった A も{a_write}秒に番号 {a} で書き込みました。{a} は {b} より小さくないのでフェンシングを通り抜け、B の仕事は上書きされました。",
        Line::FailoverOverwrote => "B は{b_write}秒に番号 {b} で書き込み、一度も止まらなかった A も{a_write}秒に番号 {a} で書き込みました。フェンシングがないので資源はそれも受け付け、B の仕事は上書きされました。",
        Line::FailoverKept => "WAIT により、プライマリはレプリカが A のキーとカウンタを受け取ってから応答していたので、2秒の昇格のあとも B は待ちました。A は{a_write}秒に書き込んでロックを返し、B は{b_grant}秒に番号 {b} を取りました。衝突は起きません。",
        Line::RedlockJump => "2秒に N3 の時計が{jump}秒先に飛び、そこにあった A のキーは{key_lost}秒に消えました。{b_grant}秒に B が N3・N4・N5 を取って過半数を得ましたが、A はまだ自分が持ち主だと思っていました（A の時計では{validity}秒まで有効）。",
        Line::RedlockExpired => "A がまだ書き込まないうちに{expired}秒に A のキーの期限が切れ、B が{b_grant}秒に過半数を取りました。",
        Line::RedlockWaited => "B が過半数を取れたのは、A が{a_write}秒に書き込んだあとの{b_grant}秒でした。持ち主は一度に一人だけです。",
        Line::RedlockOverwrote => "B は{b_write}秒に書き込みました。まだ持ち主のつもりの A が{a_write}秒に書き込むと、資源はそれも受け付けました。値が乱数では比べようがなく、B の仕事は上書きされました。",
        Line::RedlockBoth => "A は{a_write}秒に、B は{b_write}秒に、どちらも自分が持ち主だと思ったまま書き込み、資源は両方を受け付けました。",
        Line::RedlockGap => "A は、B がロックを持っている{a_write}秒に、B 自身の書き込み（{b_write}秒）より先に書き込み、資源は両方を受け付けました。",
        Line::KeepaliveStopped => "A が止まっている間は keepalive も止まります。リースが切れると etcd は A のキーを消し、B のキーが先頭になりました。",
        Line::SessionExpired => "A が止まっている間はハートビートも止まるので、A のセッションが切れて znode も消え、B の見張りが反応しました。",
        Line::LeaderRearmed => "{crash}秒にリーダーが落ちました。{ready}秒に立った新しいリーダーがすべてのリースを延ばしたので、A のリースは{rearmed}秒まで延びました。",
        Line::LeaderCrashed => "{crash}秒にリーダーが落ちました。新しいリーダーが立つ{ready}秒までは、ロックが渡されることも期限が切れることもありませんでした。",
        Line::WokeNoLeader => "A はリースの{ttl}秒を過ぎた{wake}秒に目覚めましたが、リーダーがいないので期限は切れていませんでした。A は書き込んでロックを返し、B はその後で番号 {b} を取ったので、衝突は起きません。",
        Line::RedlockNoHarm => "N3 の A のキーは{key_lost}秒に切れていたので、A は過半数なしで{a_write}秒に書き込みましたが、ほかに過半数を持つ者はいなかったので害はありません。",
        Line::WokeInRenewed => "A は延ばされたリースが切れる前の{wake}秒に目覚めて書き込み、ロックを返しました。B はその後で番号 {b} を取ったので、衝突は起きません。",
    }
}

pub(super) static JA: Text = Text {
    base_setup: "2台のワーカー A・B が、ロック（期限{ttl}秒）を取ったときだけ資源に書き込みます。ロックを渡すたびに番号が増え、\
         A は{first_token}番、B は{second}番です。A は{pause_start?ロックを取ったあと#秒まで働いてから |ロックを取った直後に }GC（メモリの掃除）で止まります。B は{b_request}秒にロックを求め、\
         ロックが空きしだい受け取って、その{b_work}秒後に書き込みます。",
    title: "フェンシング・ラボ",
    tagline: "分散ロックはどう安全を保つのか——期限（リース）と番号（フェンシングトークン）。",
    question: "止まっていた1台が目を覚ますと、何が起きる？15秒後に目を覚ましたAの書き込みは、どうなる？",
    figure_label: "ワーカー、ロックサービス、資源（ストレージ）のタイムライン",
    devices: "期限と番号は、守っているものが違います。期限は「持ち主が死んでも、いつかロックを取り返せる」ことを守ります\
              （ないと、システムが止まる）。番号は「期限切れに気づかない持ち主が、次の持ち主の仕事を壊さない」ことを守ります\
              （ないと、データが壊れる）。",
    switch_name: |key| match key {
        Key::Lease => "リース期限",
        Key::Fencing => "フェンシング",
        Key::Atomic => "一つの命令で取る",
        Key::Release => "比較してから削除",
        Key::LockDelay => "ロック遅延",
        Key::Register => "番号の登録",
        Key::Sync => "レプリカを WAIT で待つ",
        Key::LeaderCrash => "リーダーの故障",
        _ => "",
    },
    switch_hint: |key| match key {
        Key::Lease => "ロックは渡されてから{ttl}秒で外れる",
        Key::Fencing => "資源は、これまでに見た番号より小さい番号の書き込みを拒否する",
        Key::Atomic => "ロックを取ることと期限を付けることを、一つの命令で行う",
        Key::Release => "キーの値が自分のものであるときだけ消す",
        Key::LockDelay => "期限切れのあと{lock_delay}秒は、誰もロックを取れない",
        Key::Register => "新しい持ち主の番号を、ロックを渡した時点で資源に届ける",
        Key::Sync => "プライマリは、レプリカが変更を受け取ってから返事をする",
        Key::LeaderCrash => "リーダーが{crash_on}秒に落ち、1秒後に新しいリーダーが立つ",
        _ => "",
    },
    switch_state: |on| if on { "オン" } else { "オフ" },
    drag_label: |key| match key {
        Key::Jump => "N3 の時計の飛び：",
        Key::Delay => "ネットワークでの A の書き込みの遅れ：",
        Key::Work => "A の処理が終わる時刻：",
        _ => "A の GC 停止：",
    },
    handle_name: |key| match key {
        Key::Jump => "N3 の時計が飛ぶ幅",
        Key::Delay => "遅れた A の書き込みが届く時刻",
        Key::Work => "A の処理の終わり",
        _ => "A の GC 停止の帯の右端",
    },
    handle_value: |key, v, end| match key {
        Key::Jump => fill("N3 の時計が{}秒先の{}秒に飛ぶ", &[&s(v), &s(end)]),
        Key::Delay => fill("遅れ{}秒、{}秒に届く", &[&s(v), &s(end)]),
        Key::Work => fill("A は{}秒にロックを返す", &[&s(v)]),
        _ => fill("停止{}秒、A は{}秒に目覚める", &[&s(v), &s(end)]),
    },
    worker: |name| fill("ワーカー {}", &[name]),
    lock_service: "ロックサービス",
    services: ["ロック（プライマリ）", "過半数", "etcd", "ZooKeeper"],
    nodes: ["プライマリ", "レプリカ"],
    no_fencing: "使えない：Redlock の値は乱数で、順序を比べられない",
    jumped: |by| fill("時計 +{}秒", &[&s(by)]),
    promoted: ["昇格（キーあり）", "昇格（空）"],
    electing: "リーダー不在",
    storage: "資源（ストレージ）",
    believes: "自分がロックを持っていると思っている",
    holds: "ロックを持っている（ロックサービスの記録）",
    paused: "GC 停止",
    job: "A の処理",
    in_flight: "ネットワーク上の書き込み",
    waiting: "ロックを待っている",
    false_belief: "持ち主のつもりだが、実はもう持ち主ではない",
    two_holders: "持ち主が二人",
    crashed: "クラッシュ",
    lease_ends: |t| fill("期限 {}秒", &[&s(t)]),
    lease_would_end: |t| fill("期限なし（リースなら{}秒）", &[&s(t)]),
    lock_free: |t| fill("ロック遅延の終わり {}秒", &[&s(t)]),
    accepted: "受理",
    overwrites: |h| fill("{} を上書き", &[&h.to_string()]),
    rejected: "拒否",
    registered: |t| fill("{} を登録", &[&t.to_string()]),
    highest: "これまでに見た最大の番号",
    seconds_unit: "秒",
    outcome_titles: [
        "安全：衝突なし",
        "停滞：待つ側が足止めされた",
        "取りっぱなし：ロックが二度と外れない",
        "締め出し：古い書き込みは拒否された",
        "フェンシングの隙間：二人とも書き込んだ",
        "二重取得：二人の持ち主が書き込んだ",
        "破損：新しい仕事が上書きされた",
    ],
    outcome_lessons: [
        "書き込みは衝突しませんでした。",
        "期限がないと、止まった持ち主が全員を止めてしまいます。期限が守るのは、システムが止まらないことです。",
        "期限で外れないロックは、持ち主が死ぬと永遠に残ります。",
        "フェンシングがデータを守りました。資源は古い番号を拒否しました。",
        "最大の番号だけを覚えるフェンシングは、資源に届いた書き込みの順序しか守れません。古い書き込みが先に入りました。",
        "ロックそのものが破れました。二人が同時にロックを持ち、二人とも書き込みました。",
        "古いロックの持ち主の書き込みが、新しい仕事を上書きしました。期限だけでは安全ではありません。",
    ],
    double_grant_fact: |twice| {
        if twice {
            "ロックサービスは、同時に二人の持ち主にロックを渡していました。"
        } else {
            "ロックサービスが同時に二人にロックを渡したことはありません。"
        }
    },
    verdict: "結果",
    line,
    join: "",
    notice: "リンクの一部が読み取れなかったため、既定値を使いました：",
    problem: |p| match p {
        Problem::NotANumber { key, value } => fill("{}：「{}」は整数ではありません", &[key, value]),
        Problem::OutOfRange { key, value, min, max } => {
            fill("{}：{} は {}〜{} の範囲外です", &[key, value, &min.to_string(), &max.to_string()])
        }
        Problem::NotOneOf { key, value, allowed } => {
            fill("{}：「{}」は {} のどれでもありません", &[key, value, &allowed.join("、")])
        }
        Problem::UnknownKey(key) => fill("「{}」という設定はありません", &[key]),
        Problem::Unavailable { key, value, scenario } => {
            fill("{}：{} では「{}」は使えないため、オフのままにしました", &[key, scenario, value])
        }
    },
    message_notice: "埋め込み先のページから読み取れない値が届いたため、今の値のままにしました：",
    play: "再生",
    stop: "一時停止",
    step_back: "前の出来事",
    step_forward: "次の出来事",
    to_end: "最後へ",
    scrub: "再生位置",
    playhead: |t| fill("{}秒", &[&s(t)]),
    language: "言語",
    scenarios: "ロックが破れるいろいろな場面",
    group: |g| match g {
        Group::Taking => "ロックを取る",
        Group::Losing => "ロックを失う",
        Group::GivingBack => "ロックを返す",
        Group::Fencing => "フェンシング",
        Group::Replicated => "複製されたロックサービス",
    },
    scenario,
    predict_heading: "まず予想してみる",
    play_and_see: "再生して確かめる",
    skip: "予想せずに答えを見る",
    watching: "何が起きるか、見ていてください…",
    right: "予想どおりでした。",
    wrong: |picked| fill("予想は「{}」でした。実際には：", &[picked]),
    predict_again: "もう一度予想する",
    boundary_heading: "どこで変わる？",
    boundary_question: |key, kind| {
        let what = match key {
            Key::Delay => "遅れ",
            Key::Work => "処理の終わり",
            Key::Jump => "時計の飛び",
            _ => "停止の長さ",
        };
        let verdict = match kind {
            Fenced => "古い書き込みが拒否される",
            Corrupted => "新しい仕事が上書きされる",
            Stalled => "待つ側が足止めされる",
            Orphaned => "ロックが二度と外れない",
            UnfencedGap => "両方の書き込みが受け付けられる",
            DoubleGrant => "二人の持ち主が書き込む",
            Safe => "何も問題が起きない",
        };
        fill(
            "{}ようになるのは、{}が何秒からでしょう？目印をその位置までドラッグして予想してください。",
            &[verdict, what],
        )
    },
    ghost_name: "あなたの予想",
    ghost_value: |t| fill("予想 {}秒", &[&s(t)]),
    check: "答え合わせ",
    boundary_result: |guess, b| {
        let (truth, until, first) = (b.at, b.until, b.first);
        let off = guess.abs_diff(truth);
        let span = match until {
            Some(end) => fill("{}秒から{}秒まで", &[&s(truth), &s(end)]),
            None => fill("{}秒から", &[&s(truth)]),
        };
        let mut out = if off < SNAP {
            fill("正解です。{}です。", &[&span])
        } else {
            fill("{}です。予想の{}秒とは{}秒ずれていました。", &[&span, &s(guess), &s(off)])
        };
        if let Some((t, kind)) = first {
            out += &fill("結果が最初に変わるのは、それより前の{}秒です（{}）。", &[&s(t), JA.outcome_title(kind)]);
        }
        out
    },
    boundary_none: "この設定では、値によらず結果は同じです。",
    outcome_map: |_, max| fill("0秒から{}秒までの、値ごとの結果", &[&s(max)]),
    break_heading: "壊してみる",
    break_intro: [
        "今のスイッチの設定で、何かが壊れることはあるでしょうか。まず自分で失敗を探してみてください。帯をドラッグ\
         したり、スイッチを切り替えたり、下のマップのマスを選んだりできます。そのあとボタンを押すと、範囲内の乱れ\
         （停止や遅れ）をすべて組み合わせて実行し、合計がいちばん小さい失敗を示します。",
        "今のスイッチの設定で、何かが壊れることはあるでしょうか。この場面には変えられるタイミングがありません。\
         スイッチを切り替えて失敗を探してから、ボタンでただ一つの実行を試してください。",
    ],
    found: [
        "壊れました。結果は「{}」で、安全性の失敗（データが壊れる）です。",
        "壊れました。結果は「{}」で、活性の失敗（システムが止まる）です。",
        "この実行は持ちこたえています（「{}」）。まだ失敗は見つかっていません。",
    ],
    disturbance: |key| match key {
        Key::PauseStart => "停止の始まり",
        Key::Delay => "ネットワークの遅れ",
        Key::Work => "A の処理の終わり",
        Key::BWork => "B が書き込むまで",
        Key::BRequest => "B が頼む時刻",
        Key::Ttl => "リースの長さ",
        Key::Jump => "N3 の時計の飛び",
        Key::LeaderCrash => "リーダーの故障",
        _ => "停止の長さ",
    },
    at_value: "{} {}秒",
    at_off: ["{}なし", "{}なし、または{}〜{}秒"],
    over_range: "{} {}〜{}秒",
    value_sep: "、",
    every: "、{}秒刻み",
    search: "すべての組み合わせを試す",
    searching: "実行中",
    search_stopped: "設定が変わったので、検索を途中で止めました。この設定で調べるには、もう一度検索してください。",
    searched: "{count}通りを{ms}ミリ秒で実行しました（{bounds}）。",
    searched_one: "この場面には変えられる値がないので、1通りだけを{ms}ミリ秒で実行しました。",
    failures: [
        [
            "安全性：乱れがいちばん小さい失敗は「{title}」（{at}）です。",
            "安全性：何も変えなくても失敗します（「{}」）。",
            "安全性：この範囲に失敗はありません。",
        ],
        [
            "活性：乱れがいちばん小さい失敗は「{title}」（{at}）です。",
            "活性：何も変えなくても失敗します（「{}」）。",
            "活性：この範囲に失敗はありません。",
        ],
    ],
    show_it: ["安全性の失敗を見る", "活性の失敗を見る"],
    plane_cols: "組み合わせごとの結果（1秒ごとに1マス）：横は{}",
    plane_rows: "、縦は{}",
    real_heading: "実機で見る",
    real_intro: "同じ場面を、Debian パッケージの実際の Redis と etcd で動かしました。ワーカーは実際のプロセスで、GC 停止は \
                 SIGSTOP と SIGCONT、クラッシュは SIGKILL で本当に起こし、ストレージは SQLite です（フェンシング付きの書き込み\
                 は条件付きの UPDATE 一文）。時間は10倍速で流し、シミュレーションと同じ秒に換算しています（locksim real、\
                 scripts/record.sh）。etcd は1台で動かし（リーダーの故障はなし）、番号はリビジョンで、期限切れのリースの取り消しは最大5秒ほど遅れます。WAIT なしのフェイルオーバーでは、場面の前提どおり何も届かないよう、レプリカを止めておきます。",
    real_none: "この場面とスイッチの設定では、実機の記録はありません。",
    real_caption: "{system}（{date} 記録{values}）：実機は「{real}」、シミュレーションは「{simulated}」で、{same}\
                   （各イベントの時刻のずれは最大{jitter}秒）。",
    real_same: ["一致しています", "食い違っています"],
    share: "共有・埋め込み",
    share_link: "この状態へのリンク",
    share_embed: "ページへの埋め込み（iframe）",
    copy: "コピー",
    copied: "コピーしました",
    copy_failed: "ブラウザがコピーを許しませんでした。テキストを選択したので、Ctrl+C（⌘C）を押してください。",
    download_svg: "図を保存（SVG）",
    download_png: "図を保存（PNG）",
    play_it: "試してみる",
    reading_heading: "読みもの：期限、フェンシングトークン、そしてロックを使わない選択",
    reading: &[
        (
            "なぜロックに期限が要るのか",
            &[
                "ロックを握ったままプロセスがクラッシュすると、ロックは二度と返されません。しかもロックサービスには、\
                 持ち主が死んだのか遅いだけなのかが分かりません。そこでロックはリース（期限付きの貸し出し）とし、期限内に\
                 更新されなければ外れるようにします（Chubby、PX 付きの Redis のキー、etcd のリース、ZooKeeper のセッション）。\
                 期限がなければシステムが止まり、あればロックは戻ってきます。",
                "ロックは一つの不可分な操作で取らなければなりません。SETNX のあとに EXPIRE を送ると、その間でクライアントが\
                 落ちたとき、永遠に外れないロックが残ります。",
            ],
            &[ScenarioId::Crash],
        ),
        (
            "期限だけでは安全でない理由",
            &[
                "持ち主は、いつでも期限より長く止まりえます。ストップ・ザ・ワールドの GC、仮想マシンの一時停止や移動、\
                 スワップによるページフォールト、ネットワークでの書き込みの足止めなどです。止まっている間は時計も見られず、\
                 更新もできないので、目覚めた持ち主はまだロックを持っているつもりで書き込みます。",
                "書き込みの直前に期限を確かめても防げません。確かめてから書き込むまでの間に止まりうるからです。持ち主には\
                 気づけない以上、守りは資源の側に置くしかありません（クレップマンの2016年の記事が、GC 停止の例でこれを\
                 論じています）。",
            ],
            &[ScenarioId::CheckThenPause],
        ),
        (
            "フェンシングトークン：資源の側がすべきこと",
            &[
                "ロックサービスはロックを渡すたびに、増える一方の番号（フェンシングトークン）を添えます。クライアントは\
                 書き込みごとにその番号を送り、資源は受け付けた最大の番号を覚えて、それより小さい番号を拒否します。これは\
                 結果を確かめる一つの不可分な条件付き書き込みで行います。UPDATE … SET value = ?, token = ? WHERE id = ? \
                 AND token <= ? で、更新された行が0なら拒否です。ファイルの置き場なら、番号をファイル名に入れる手があります。",
                "最大の番号だけを覚えるフェンシングが順序を守れるのは、資源に届いた書き込みだけです。新しい持ち主の最初の\
                 書き込みより前に古い持ち主が書き込むと、両方とも受け付けられます（フェンシングの隙間）。この隙間は、新しい\
                 持ち主が動く前に資源へ番号を登録するか、資源がロックサービスにその番号がまだ有効かを問い合わせれば閉じます\
                 （Chubby のシーケンサの確認、etcd ならロックキーのリビジョンを比べるトランザクション）。番号をまったく\
                 確かめられない資源には、冪等な処理が必要です。",
            ],
            &[ScenarioId::RegisterToken],
        ),
        (
            "Redis：SET NX PX、比較してから削除、フェイルオーバー、そして Redlock",
            &[
                "ロックは SET lock:job <ランダムな値> NX PX 30000 という一つの命令で取り、キーの値がまだ自分の値のときだけ\
                 消す Lua スクリプトで返します。期限切れのあとにただ DEL すると、次の持ち主のロックを消してしまうからです。",
                "Redis の複製は既定では非同期で、プライマリが応答したのにまだ送っていなかった書き込みは、レプリカが昇格すると\
                 失われます（Redis のレプリケーションとクラスタの説明）。新しいプライマリは、同じロックを INCR の同じ番号で\
                 もう一度渡しかねません。WAIT を使えばプライマリはレプリカが書き込みを受け取ってから応答しますが、WAIT は\
                 「Redis を強い一貫性のあるストアにはしない」ので、フェイルオーバーはベストエフォートのままです。",
                "Redis の作者 Salvatore Sanfilippo（antirez）の Redlock は、独立した複数のノードの過半数でロックを取り、\
                 有効時間は TTL − 経過時間 − 時計のずれです。永続化なしで再起動したノードは、TTL より長く止めておくべき\
                 です。クレップマンは2016年に、Redlock が安全なのはネットワークの遅れ、停止、時計の誤差のすべてに上限が\
                 あるときだけで、フェンシングトークンも作れないと論じました。Redis の分散ロックのドキュメント自身も、壁時計が\
                 飛ぶと持ち主が二人になりうると注意し、フェンシングを勧めています。antirez は「Is Redlock safe?」で、時計の\
                 進む速さの誤差に上限があれば十分で、ランダムな値と check-and-set が番号の代わりになると答えました。正しさが\
                 大事な場面では Redlock に頼らない、というのが一般的な助言です。これらの場面では、要求・複製・ロックの取得に\
                 時間はかからず、クレップマンの一つ目の反例と同じく、1台の時計だけが飛びます。",
            ],
            &[ScenarioId::UnsafeRelease, ScenarioId::Failover, ScenarioId::Redlock],
        ),
        (
            "ZooKeeper、etcd、Chubby：合意があれば番号も手に入る",
            &[
                "ZooKeeper と etcd は合意で状態を複製するので、誰がロックを持っているかの真実は一つです。ロックは、\
                 ハートビートが途絶えれば終わるセッションやリースに結び付きます。変更のたびに増える一方の番号が振られ、\
                 それがフェンシングトークンになります。ZooKeeper ではロックの znode の zxid です（ロックのレシピでは、\
                 各クライアントが一時的な連番の znode を作り、自分のすぐ前の znode を見張ります）。etcd ではロックキーの\
                 作成リビジョンで、etcd のドキュメントは、資源がそのリビジョンを確かめない限り、このロックでは外部の資源を\
                 守れないと注意しています。",
                "etcd のクライアントは動いている間、TTL の3分の1ごとにリースを延長しますが、GC で止まればこれも止まります。\
                 新しいリーダーはすべてのリースを選挙のタイムアウトの分だけ延ばすので、リーダーの故障が止まった持ち主を\
                 救うことはあっても、ロックを二重に渡すことはありません。ここでの簡略化：合意のグループは1本のレーンで表し、\
                 選挙には etcd の既定値の1秒かかり、33 と 34 はリビジョンや zxid の代わりです（実際はもっと大きく、\
                 連続もしません）。",
                "Chubby はこの番号をシーケンサと呼び、それを確かめられないサーバのためにロック遅延（lock-delay）を\
                 用意しています。持ち主が落ちたり連絡がつかなくなったりすると（通常の解放では働きません）、そのロックはしばらく、最長1分、誰も取れません。\
                 論文自身これを不完全な策と呼び、Consul は既定値15秒で取り入れています。合意の代償は速度で、ロックを取る\
                 たびに過半数との往復が入ります。",
            ],
            &[ScenarioId::Etcd, ScenarioId::Zookeeper, ScenarioId::LockDelay],
        ),
        (
            "そもそもロックを使わない、という選択",
            &[
                "分散ロックは処理を直列にし、システムを止める原因にもなります。まず、データベースで済まないかを考えます。\
                 トランザクション、バージョン列を使った条件付き更新、一意制約、あるいは二度実行しても害のない冪等な処理です。",
                "クレップマンの目安：ロックが重複した作業を省くためだけ（効率）なら、Redis 1台のロックで足ります。持ち主が\
                 二人いるとデータが壊れる（正しさ）なら、合意ベースのロックサービスとフェンシングトークンを使います。",
                "出典：M. Kleppmann「How to do distributed locking」（2016）、『Designing Data-Intensive Applications』\
                 （初版は第8章、第2版は第9章。邦訳『データ指向アプリケーションデザイン』）；antirez「Is Redlock safe?」（2016）；\
                 M. Burrows「The Chubby lock service for loosely-coupled distributed systems」（OSDI 2006）；Redis の SET・\
                 WAIT・レプリケーション・分散ロックのドキュメント；etcd のリース・ロック API・障害のドキュメント；ZooKeeper の\
                 ロックのレシピ；Consul のセッションのドキュメント。",
            ],
            &[],
        ),
    ],
};

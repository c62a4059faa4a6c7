//! 日本語。元の記事（分散ロックの解説）の語り口に合わせる。
//!
//! 表記の決まり: ウィジェットの中では「ロック」で統一し（「鍵」は使わない）、秒は数字に続けて書く
//! （「10秒」）。番号は前後に空白を置く（「番号 34 を」）。

use super::{fill, s, Notes, Panels, Reading, ScenarioText, Text, Varied};
use crate::present::geom::SNAP;
use crate::present::params::Problem;
use crate::scenarios::{Group, Key, ScenarioId};
use crate::sim::OutcomeKind::*;

fn scenario(id: ScenarioId) -> &'static ScenarioText {
    &id.def().ja
}

pub(super) static JA: Text = Text {
    base_setup: "2台のワーカー A・B が、ロック（期限{ttl}秒）を取ったときだけ資源に書き込みます。番号は順に増え、\
         A は{first_token}番、B は{second}番です。A は{pause_start?ロックを取ったあと#秒まで働いてから |ロックを取った直後に }GC（メモリの掃除）で止まります。B は{b_request}秒にロックを求め、\
         ロックが空きしだい受け取って、その{b_work}秒後に書き込みます。",
    title: "フェンシング・ラボ",
    tagline: "分散ロックはどう安全を保つのか——期限（リース）と番号（フェンシングトークン）。",
    question: "止まっていた1台が目を覚ますと、何が起きる？15秒後に目を覚ましたAの書き込みは、どうなる？",
    figure_label: "ワーカー、ロックサービス、資源（ストレージ）のタイムライン",
    devices: "期限と番号は、守っているものが違います。期限は、持ち主が死んでもいつかロックを取り返せるようにします\
              （ないと、止まった持ち主が全員を待たせる）。番号は、資源が次の持ち主の番号を一度見たら、期限切れに気づかない持ち主に\
              もう書き込ませません（ないと、データが壊れうる）。",
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
        Key::Atomic => "空いているかの確認、ロックの取得、期限の設定を一つの命令（SET NX PX）で行う",
        Key::Release => "キーの値が自分のものであるときだけ消す",
        Key::LockDelay => "期限切れのあと{lock_delay}秒は、誰もロックを取れない",
        Key::Register => "新しい持ち主の番号を、ロックを渡した時点で資源に届ける",
        Key::Sync => "A は SET と INCR のあと、レプリカが受け取ったと応答するまで WAIT 1 で待つ",
        Key::LeaderCrash => "リーダーが{crash_on}秒に落ち、1秒後に新しいリーダーが立つ",
        _ => "",
    },
    switch_state: |on| if on { "オン" } else { "オフ" },
    when_on: "オンなら、",
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
    overwrites: |h| fill("（{} を上書き）", &[&h.to_string()]),
    rejected: "拒否",
    registered: |t| fill("{} を登録", &[&t.to_string()]),
    highest: "これまでに見た最大の番号：",
    outcome_titles: [
        "安全：衝突なし",
        "停滞：待つ側が足止めされた",
        "取りっぱなし：ロックが二度と外れない",
        "締め出し：古い書き込みは拒否された",
        "フェンシングの隙間：古い書き込みが受け付けられた",
        "二重取得：二人の持ち主が書き込んだ",
        "破損：新しい持ち主の仕事が上書きされた",
    ],
    double_grant_fact: |twice| {
        if twice {
            "この実行では、ロックの持ち主が同時に二人いた時間がありました。"
        } else {
            "この実行では、ロックの持ち主が同時に二人になることはありませんでした。"
        }
    },
    verdict: "結果",
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
        Problem::BesideScript(key) => fill("{}：スクリプトには使えません。スクリプトのテキストで設定してください", &[key]),
        Problem::Unused(key) => fill("{}：このシナリオでは使いません", &[key]),
        Problem::Unavailable { key, value, scenario } => {
            fill("{}：{} では「{}」は使えないため、オフのままにしました", &[key, scenario, value])
        }
        Problem::Repeated { key, value } => fill("{}：「{}」", &[key, value]),
    },
    message_notice: "埋め込み先のページから読み取れない値が届いたため、今の値のままにしました：",
    repeated_notice: "リンクに同じ設定が二度以上あったため、最後の値を使いました：",
    play: "再生",
    stop: "一時停止",
    step_back: "前の出来事",
    step_forward: "次の出来事",
    to_end: "最後へ",
    scrub: "再生位置",
    playhead: |t| fill("{}秒", &[&s(t)]),
    language: "言語",
    scenarios: "ロックが役に立たない場面",
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
    disturbance: |key| match key {
        Key::PauseStart => "停止の始まり",
        Key::Delay => "ネットワークの遅れ",
        Key::Work => "A の処理の終わり",
        Key::BWork => "B が書き込むまで",
        Key::BRequest => "B がロックを求める時刻",
        Key::Ttl => "リースの長さ",
        Key::Jump => "N3 の時計の飛び",
        Key::LeaderCrash => "リーダーの故障",
        _ => "停止の長さ",
    },
    share: "共有・埋め込み",
    share_loading: "リンク、埋め込み、図の保存を読み込んでいます…",
    share_failed: "リンク、埋め込み、図の保存と発表用の表示を読み込めませんでした。",
    consensus_service: "合意のグループ",
    clock_jump: |n| fill("N{} の時計の飛び", &[&(n + 1).to_string()]),
    value_handle: |name| fill("名前付きの値 {} の帯の右端", &[name]),
    value_text: |v, end| fill("{}秒、帯は{}秒に終わる", &[&s(v), &s(end)]),
    script_title: "自分のスクリプト",
    script_setup: |workers, service, ttl, expiry, fencing| {
        let on = |b: bool| if b { "オン" } else { "オフ" };
        format!(
            "スクリプトで書かれた場面：ワーカー{workers}台、{service}、リース{}秒（リース期限{}、フェンシング{}）。",
            s(ttl),
            on(expiry),
            on(fencing)
        )
    },
    script_prompt: |value| match value {
        Some((name, v)) => fill("{} が{}秒のとき、何が起きる？", &[name, &s(v)]),
        None => "何が起きる？".to_owned(),
    },
    edit_script: "スクリプトで編集",
    reading_script: "スクリプトを読み込んでいます…",
    script_broken: |message| fill("スクリプトを読めませんでした：{}。図は前の状態のままです。", &[message]),
    script_unread: |message| match message {
        "" => "スクリプトを読み込めるまで、図は表示されません。".to_owned(),
        m => fill("スクリプトを読めませんでした：{}。読めるまで図は描かれません。", &[m]),
    },
    named_switch: |name| fill("{{}? オン | オフ} の手順を選ぶ", &[name]),
    value_slider: |name| fill("名前付きの値 {}", &[name]),
    later_loading: "続きの「実機で見る」「どこで変わる？」「壊してみる」を読み込んでいます…",
    later_failed: "続きの「実機で見る」「どこで変わる？」「壊してみる」を読み込めませんでした。",
    retry: "もう一度試す",
    narration_loading: "この実行の経過を読み込んでいます…",
    narration_failed: "この実行の経過を読み込めませんでした。下の「もう一度試す」で読み込み直せます。",
};

pub(super) static JA_PANELS: Panels = Panels {
    text: &JA,
    why: crate::present::why::ja,
    told: crate::present::told::ja,
    outcome_lessons: [
        "書き込みは衝突しませんでした。",
        "期限がないと、止まった持ち主が全員を待たせます。期限が守るのは、ロックがいつか戻ってくることです。",
        "期限で外れないロックは、持ち主が死ぬと永遠に残ります。",
        "フェンシングがデータを守りました。資源は古い番号の書き込みを拒否しました。",
        "新しい持ち主の最初の書き込みより前に古い書き込みが届き、資源は両方を受け付けました。",
        "ロックそのものが役に立ちませんでした。二人が同時にロックを持ち、二人とも書き込みました。",
        "ロックを失っていたワーカーが、新しい持ち主の仕事を上書きしました。",
    ],
    plain_lessons: [
        "フェンシングがデータを守りました。資源は番号のない書き込みを拒否しました。",
        "ロックを待っていたワーカーは、最後までロックを取れませんでした。",
        "別のワーカーがロックを持っている間に古い書き込みが届き、資源はそれを受け付けました。",
        "ロックを取っていないワーカーが、ロックを取ったワーカーの仕事を上書きしました。",
        "ロックを取っていないワーカーが、別のワーカーがロックを持っている間に書き込み、資源はそれを受け付けました。",
    ],
    projector_label: "実行を一場面ずつ",
    projector_step: |k, n, at| fill("場面 {} / {}・{}秒", &[&k.to_string(), &n.to_string(), &s(at)]),
    projector_buttons: ["戻る", "次へ", "閉じる"],
    projector_keys: "→ または Space で次へ、← で戻る、Esc で閉じる",
    projector_bad_step: |given, n, shown| {
        fill(
            "リンクの場面「{}」はこの実行の場面（1～{}）にないため、{} 場面目を表示しています。",
            &[given, &n.to_string(), &shown.to_string()],
        )
    },
    projector_empty: "この実行には、順に見せる出来事がありません。",
    share_link: "この状態へのリンク",
    share_embed: "ページへの埋め込み（iframe）",
    copy: "コピー",
    copied: "コピーしました",
    copy_failed: "ブラウザがコピーを許しませんでした。テキストを選択したので、Ctrl+C（⌘C）を押してください。",
    download_svg: "図を保存（SVG）",
    download_png: "図を保存（PNG）",
    present: "一場面ずつ映す（発表用）",
    download_animated: "動く図を保存（SVG）",
    boundary_heading: "どこで変わる？",
    boundary_question: |varied, kind| {
        let named;
        let what = match varied {
            Varied::Input(Key::Delay) => "遅れ",
            Varied::Input(Key::Work) => "処理の終わり",
            Varied::Input(Key::Jump) => "時計の飛び",
            Varied::Input(_) => "停止の長さ",
            Varied::Named(name) => {
                named = fill("「{}」", &[name]);
                &named
            }
        };
        let verdict = match kind {
            Fenced => "古い書き込みが拒否される",
            Corrupted => "新しい持ち主の仕事が上書きされる",
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
        let mut out = if off == 0 {
            fill("正解です。{}です。", &[&span])
        } else if off < SNAP {
            fill("0.1秒刻みの予想としては正解です。{}です。", &[&span])
        } else {
            fill("{}です。予想の{}秒とは{}秒ずれていました。", &[&span, &s(guess), &s(off)])
        };
        if let Some((t, kind)) = first {
            out += &fill("結果が最初に変わるのは、それより前の{}秒です（{}）。", &[&s(t), JA.outcome_title(kind)]);
        }
        out
    },
    boundary_none: "この設定では、値によらず結果は同じです。",
    boundary_too_long: "このスクリプトの実行は長すぎて、ここではすべての値について実行できません。帯をドラッグして、一つずつ確かめてください。",
    outcome_map: |min, max| fill("{}秒から{}秒までの、値ごとの結果", &[&s(min), &s(max)]),
    break_heading: "壊してみる",
    break_intro: [
        "今のスイッチの設定で、何かが壊れることはあるでしょうか。まず自分で失敗を探してみてください。帯をドラッグ\
         したり、スイッチを切り替えたり、下のマップのマスを選んだりできます。そのあとボタンを押すと、範囲内の乱れ\
         （停止や遅れ）をすべて組み合わせて実行し、合計がいちばん小さい失敗を示します。",
        "今のスイッチの設定で、何かが壊れることはあるでしょうか。この場面には変えられるタイミングがありません。\
         スイッチを切り替えて失敗を探してから、ボタンでただ一つの実行を試してください。",
        "このスクリプトで、何かが壊れることはあるでしょうか。まず自分で、値やスイッチを変えて失敗を探してみて\
         ください。そのあとボタンを押すと、名前の付いた値をそれぞれの範囲ですべて\
         組み合わせて実行し、調べた範囲とともに、合計がいちばん小さい失敗を示します。",
        "スクリプトが読めるまでは、壊すものがありません。直す箇所はエディタに出ています。",
    ],
    found: [
        "壊れました。結果は「{}」で、安全性の失敗（ロックが締め出すはずの書き込みが入った）です。",
        "壊れました。結果は「{}」で、活性の失敗（持ち主にロックを返させるものがなく、待つ側が待たされた）です。",
        "この実行は持ちこたえています（「{}」）。まだ失敗は見つかっていません。",
    ],
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
    failover_assumes: "WAIT がオンで失敗がないのは、モデルの仮定によるもので、保証ではありません。モデルは、WAIT に応答したレプリカを、応答した内容\
                       ごと昇格させます。Redis はフェイルオーバーをベストエフォートとしており、実際には待って取ったロックも失われえます。",
    show_it: ["安全性の失敗を見る", "活性の失敗を見る"],
    plane_cols: "組み合わせごとの結果（1秒ごとに1マス）：横は{}",
    plane_rows: "、縦は{}",
    real_heading: "実機で見る",
    real_intro: "同じ場面を、Debian パッケージの実際のロックサービスで動かしました。Redis（1台、プライマリとレプリカ、\
                 Redlock では5台）、etcd（1台、リーダーの故障では3台）、3台の ZooKeeper アンサンブルです。ワーカーは実際の\
                 プロセスで、GC 停止は SIGSTOP と SIGCONT、クラッシュは SIGKILL で本当に起こし、Redlock の時計の飛びは N3 \
                 自身の壁時計を進めて起こします。資源は SQLite で（ネットワークの遅れの場面では、書き込みを留めるプロキシの\
                 向こうの PostgreSQL）、フェンシング付きの書き込みは条件付きの UPDATE 一文です。時間をどれだけ速めたかは各\
                 キャプションにあり、時刻はシミュレーションと同じ秒に換算しています（locksim real、scripts/record.sh）。etcd の\
                 番号はリビジョン、ZooKeeper の番号は czxid です。WAIT なしのフェイルオーバーでは、場面の前提どおり何も届かない\
                 よう、レプリカを止めておきます。lock-delay には実機の記録がありません。それを備えたパッケージがないためです。",
    real_none: "この場面とスイッチの設定では、実機の記録はありません。",
    real_loading: "記録を読み込んでいます…",
    real_failed: "記録を読み込めませんでした。",
    // 実時間、半分の速さ、10倍速（「1/2倍速」とは言わない）。
    real_speed: |speed| match speed {
        "1" => "実時間".to_owned(),
        "1/2" => "半分の速さ".to_owned(),
        _ => fill("{}倍速", &[speed]),
    },
    real_caption: "{system}（{date} 記録、{speed}{values}）：実機は「{real}」、シミュレーションは「{simulated}」で、{same}\
                   （各イベントの時刻のずれは最大{jitter}秒）。",
    real_same: ["一致しています", "食い違っています"],
    open_label: "実行記録を開く",
    open_hint: "locksim check --json（自作のロッククライアント）か locksim real --json が書いたファイルを選ぶか、ここに\
                ドロップしてください。ファイルはこのページの中だけで読みます。どこにも送らず、リンクにも入りません。",
    open_bad: |p| {
        use crate::present::recordings::OpenProblem::*;
        let why = match p {
            NotJson => "JSON ではありません".to_owned(),
            Field(name) => fill("「{}」がないか、実行記録の値ではありません", &[name]),
            Empty => "実行記録の一覧が空です".to_owned(),
            TooBig => "実行記録にしては大きすぎます".to_owned(),
        };
        fill("このファイルは locksim check や locksim real の実行記録ではありません（{}）。表示中の内容はそのままです。", &[&why])
    },
    open_caption: "あなたのファイル：{who}、{system}、{speed}：「{real}」。ラボ自身のワーカーのシミュレーションでは「{simulated}」。",
    open_lab: "ラボ自身のワーカー",
    open_client: "クライアント「{}」",
    editor_heading: "スクリプトで書いた場面",
    editor_label: "スクリプト",
    editor_new: "新しく書く",
    editor_from: "ここから始める",
    editor_reset: "元に戻す",
    editor_close: "エディタを閉じる",
    editor_help: "1行に設定かワーカーを1つ：「A: acquire, pause {pause=15s}, write, release」。# から行末まではコメントです。\
                  ワーカーは4台まで、手順はそれぞれ32まで、名前付きの値は8つまで、名前付きのスイッチは4つまで、4,000文字まで。\
                  書くとすぐ図に反映され、波かっこで名前を付けた値と、switch の行で宣言したスイッチには操作がつきます。",
    editor_link_kept: "ページのリンクには、このテキストではなく最後に読めたスクリプトが入っています。共有するには短くしてください。",
    editor_link_none: "ページのリンクには、このテキストではなく始めたシナリオが入っています。共有するには短くしてください。",
    editor_reads: |workers, values, switches| {
        let switches = if switches == 0 { String::new() } else { fill("、名前付きのスイッチ{}個", &[&switches.to_string()]) };
        let values = if values == 0 { "なし".to_owned() } else { fill("{}個", &[&values.to_string()]) };
        fill("スクリプトを読み込みました：ワーカー{}台、名前付きの値{}{}。", &[&workers.to_string(), &values, &switches])
    },
    editor_template: "# 新しい場面：書き換えると図が追いかけます。",
};

pub(super) static JA_READING: Reading = Reading {
    play_it: "試してみる",
    heading: "読みもの：期限、フェンシングトークン、そしてロックを使わない選択",
    sections: &[
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
                 一つの不可分な条件付き書き込みで行い、更新された行数を確かめます。UPDATE … SET value = ?, token = ? WHERE id = ? \
                 AND token <= ? で、更新された行数が0なら拒否です。同じ番号は通すので、一人の持ち主が何度でも書き込めます。",
                "最大の番号だけを覚えるフェンシングが順序を守れるのは、資源に届いた書き込みだけです。新しい持ち主の最初の\
                 書き込みより前に古い持ち主が書き込むと、両方とも受け付けられます（フェンシングの隙間）。このとき排他制御は\
                 破れており、古い書き込みが届く前に新しい持ち主がデータを読むか書くかしていれば、データが損なわれます。\
                 このラボでは、新しい持ち主が動く前に資源へ番号を登録して隙間を閉じます。これはこのラボ独自の対策で、\
                 公開されたやり方でいちばん近いのは、新しい書き手が進む前に資源をフェンスするもの（BookKeeper の台帳のフェンス）です。資源がロックサービスにその番号がまだ有効かを\
                 問い合わせる手もあります（Chubby のシーケンサの確認）。etcd でロックキーのリビジョンを比べるトランザクション\
                 が効くのは、etcd 自身に置いたデータだけです。外部の資源では、確かめてから書くまでの間に競合が起きます。\
                 番号を確かめられない資源（外部のサービスやファイルシステム）はフェンスできず、冪等な処理が必要です。",
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
                 もう一度渡しかねません。これは、DDIA がフェンシングトークンに求める一意性（二つの要求が同じ番号を受け取る\
                 ことはない）を破ります。クレップマンが、Redis の1台にカウンタを置くだけでは、そのノードが落ちうるので足りない\
                 と書いたのはこのためです。WAIT は、レプリカが書き込みを受け取ったと応答するまで（応答が足りなければ\
                 タイムアウトまで）クライアントを待たせますが、「Redis を強い一貫性のあるストアにはしない」ので、\
                 フェイルオーバーはベストエフォートのままで、待って書いた内容も失われえます。",
                "Redis の作者 Salvatore Sanfilippo（antirez）の Redlock は、独立した複数のノードの過半数でロックを取り、\
                 有効時間は TTL − 経過時間 − 時計のずれです。永続化なしで再起動したノードは、TTL より長く止めておくべき\
                 です。クレップマンは2016年に、Redlock が安全なのはネットワークの遅れ、停止、時計の誤差のすべてに上限が\
                 あるときだけで、フェンシングトークンも作れないと論じました。Redis の分散ロックのドキュメント自身も、壁時計が\
                 飛ぶと持ち主が二人になりうると注意し、フェンシングトークンを実装するよう求めています。antirez は\
                 「Is Redlock safe?」でこう答えました。取得のあとで経過時間を確かめるので、取得の最中の遅れや停止は害に\
                 ならない。取得のあとの停止は、期限で外れるロックならどれにも起きる。時計の飛びは運用の誤りで、時刻を飛ばさず少しずつ合わせる NTP で避けられ、Redis は単調な時計に移るべきだ（Redis のドキュメントは今も TTL に単調な時計を使っていないとしています）。時計の進む速さの誤差に上限があれば十分で、ランダムな\
                 値と check-and-set が番号の代わりになる。クレップマンは自分の結論を変えず、正しさがロックに懸かる場面では\
                 Redlock を使わないよう勧めています。このラボの場面では、要求・複製・ロックの取得に時間はかからず、\
                 クレップマンの一つ目の反例と同じく、1台の時計だけが飛びます。antirez が運用の誤りと呼ぶ、まさにその故障です。",
            ],
            &[ScenarioId::UnsafeRelease, ScenarioId::Failover, ScenarioId::Redlock],
        ),
        (
            "ZooKeeper、etcd、Chubby：合意があれば番号も手に入る",
            &[
                "ZooKeeper と etcd は合意で状態を複製するので、誰がロックを持っているかの真実は一つです。ロックは、\
                 ハートビートが途絶えれば終わるセッションやリースに結び付きます。変更のたびに増える一方の番号が振られ、\
                 それがフェンシングトークンになります。ZooKeeper ではロックの znode の czxid、つまりその znode を作った\
                 トランザクションの zxid です（クレップマンは zxid か znode のバージョン番号を、DDIA は zxid か cversion を\
                 挙げています）。ロックのレシピでは、各クライアントが一時的な連番の znode を作り、その連番が待つ順番を\
                 決め、それぞれが自分のすぐ前の znode を見張ります。etcd ではロックキーの\
                 作成リビジョンで、etcd のドキュメントは、資源がそのリビジョンを確かめない限り、このロックでは外部の資源を\
                 守れないと注意しています。",
                "etcd のクライアントは動いている間、TTL の3分の1ごとにリースを延長しますが、GC で止まればこれも止まります。\
                 新しいリーダーは、引き継いだ時点から、すべてのリースを TTL まるごとと選挙のタイムアウトの分で数え直します\
                 （etcd の lessor の Promote。リースのチェックポイントは既定で無効）。そのため、リーダーの故障が止まった持ち主を\
                 救うことはあっても、ロックを二重に渡すことはありません。ここでの簡略化：要求に時間はかからず、合意のグループは1本のレーンで表し、\
                 選挙には etcd の既定値の1秒かかり、33 と 34 はリビジョンや zxid の代わりです（実際はもっと大きく、\
                 たいてい連続もしません）。",
                "Chubby はこの番号をシーケンサと呼び、それを確かめられないサーバのためにロック遅延（lock-delay）を\
                 用意しています。持ち主が落ちたり連絡がつかなくなったりすると（ふつうにロックを返したときは働きません）、そのロックはしばらく（最長1分）誰も取れません。\
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
                 （初版は第8章、第2版は第9章。邦訳『データ指向アプリケーションデザイン』（オライリー・ジャパン、2019）は\
                 初版の訳）；antirez「Is Redlock safe?」（2016）；Apache BookKeeper の台帳のフェンス；\
                 M. Burrows「The Chubby lock service for loosely-coupled distributed systems」（OSDI 2006）；Redis の SET・\
                 WAIT・レプリケーション・分散ロックのドキュメント；etcd のリース・ロック API・障害のドキュメント；ZooKeeper の\
                 ロックのレシピ；Consul のセッションのドキュメント。",
            ],
            &[],
        ),
    ],
};

pub(super) static JA_NOTES: Notes = Notes {
    loading: "リンクが示す状態でラボを読み込んでいます…",
    needs_scripts: "動かすには JavaScript と WebAssembly が必要です（iframe では sandbox=\"allow-scripts \
                    allow-same-origin\"）。下にあるのは、リンクが示す状態にかかわらず、元記事の問いの最初の場面です。",
};

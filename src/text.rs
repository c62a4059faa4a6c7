//! Every user-visible string, in English and Japanese.
//!
//! A typed table: each language is one [`Text`] value, so a missing string is a compile error, never a blank.
//! The Japanese follows the tone of the source document (`shared/seed/distributed-lock.ja.txt`).

use crate::geom::seconds;
use crate::params::{Lang, Problem};
use crate::sim::{Ms, OutcomeKind};
use crate::story::Story;

/// The strings of one language.
pub struct Text {
    /// Page title.
    pub title: &'static str,
    /// One line under the title.
    pub tagline: &'static str,
    /// The question the page asks before the reader plays.
    pub question: &'static str,
    /// Name of the figure.
    pub figure_label: &'static str,
    /// Lease toggle name.
    pub lease: &'static str,
    /// What the lease toggle does.
    pub lease_hint: fn(ttl: Ms) -> String,
    /// Fencing toggle name.
    pub fencing: &'static str,
    /// What the fencing toggle does.
    pub fencing_hint: &'static str,
    /// The pause readout before its value, with its separator.
    pub pause: &'static str,
    /// Accessible name of the pause handle.
    pub handle_name: &'static str,
    /// `aria-valuetext` of the handle: pause length and wake time.
    pub handle_value: fn(pause: Ms, wake: Ms) -> String,
    /// Lane names.
    pub worker: fn(name: &str) -> String,
    /// Lock service lane.
    pub lock_service: &'static str,
    /// Storage lane.
    pub storage: &'static str,
    /// Legend and labels.
    pub believes: &'static str,
    /// Held according to the lock service.
    pub holds: &'static str,
    /// The purple band.
    pub paused: &'static str,
    /// Waiting for the lock.
    pub waiting: &'static str,
    /// A believes but does not hold.
    pub false_belief: &'static str,
    /// Expiry mark.
    pub lease_ends: fn(at: Ms) -> String,
    /// Expiry mark with lease off.
    pub lease_would_end: fn(at: Ms) -> String,
    /// Storage: accepted write.
    pub accepted: &'static str,
    /// Storage: an accepted write that overwrote a newer token's write.
    pub overwrites: fn(newer: u64) -> String,
    /// Storage: rejected write.
    pub rejected: &'static str,
    /// Storage: the highest token line.
    pub highest: &'static str,
    /// Seconds unit on the axis.
    pub seconds_unit: &'static str,
    /// Axis label.
    pub time_axis: &'static str,
    /// Verdict titles, in [`OutcomeKind::ALL`] order.
    pub outcome_titles: [&'static str; 5],
    /// One-line lessons, same order.
    pub outcome_lessons: [&'static str; 5],
    /// "Verdict" heading.
    pub verdict: &'static str,
    /// The narration of a run.
    pub narrate: fn(&Story) -> String,
    /// Heading of the notice about a bad link.
    pub notice: &'static str,
    /// One problem of a bad link.
    pub problem: fn(&Problem) -> String,
    /// Playback controls.
    pub play: &'static str,
    /// Pause playback.
    pub stop: &'static str,
    /// Previous event.
    pub step_back: &'static str,
    /// Next event.
    pub step_forward: &'static str,
    /// Jump to the end.
    pub to_end: &'static str,
    /// The scrubber's name.
    pub scrub: &'static str,
    /// The playhead readout.
    pub playhead: fn(at: Ms) -> String,
    /// Name of the language switcher.
    pub language: &'static str,
    /// Heading of the prediction.
    pub predict_heading: &'static str,
    /// The prediction's question for the state shown.
    pub predict_prompt: fn(pause: Ms, lease: bool, fencing: bool) -> String,
    /// One answer per verdict, in [`OutcomeKind::ALL`] order.
    pub choices: [&'static str; 5],
    /// Starts the run once a prediction is made.
    pub play_and_see: &'static str,
    /// Shows the verdict without predicting.
    pub skip: &'static str,
    /// Shown while the run plays.
    pub watching: &'static str,
    /// The prediction was right.
    pub right: &'static str,
    /// The prediction was wrong; the argument is the answer the reader picked.
    pub wrong: fn(picked: &str) -> String,
    /// Back to predicting.
    pub predict_again: &'static str,
    /// Heading of the boundary challenge.
    pub boundary_heading: &'static str,
    /// The challenge for the verdict long pauses end in.
    pub boundary_question: fn(OutcomeKind) -> String,
    /// Accessible name of the ghost marker.
    pub ghost_name: &'static str,
    /// `aria-valuetext` of the ghost marker.
    pub ghost_value: fn(Ms) -> String,
    /// Reveals the boundary.
    pub check: &'static str,
    /// Where the boundary is and how far the guess was.
    pub boundary_result: fn(guess: Ms, truth: Ms) -> String,
    /// Every pause gives the same verdict.
    pub boundary_none: &'static str,
    /// Name of the strip that shows the verdict for every pause.
    pub outcome_map: &'static str,
    /// Heading of the share panel.
    pub share: &'static str,
    /// The link to the current state.
    pub share_link: &'static str,
    /// The iframe snippet.
    pub share_embed: &'static str,
    /// Copy button.
    pub copy: &'static str,
    /// After copying.
    pub copied: &'static str,
    /// The reading beside the widget: (heading, paragraphs).
    pub reading: &'static [(&'static str, &'static [&'static str])],
    /// Heading of the reading.
    pub reading_heading: &'static str,
}

impl Text {
    /// The title of a verdict.
    pub fn outcome_title(&self, kind: OutcomeKind) -> &'static str {
        self.outcome_titles[index(kind)]
    }

    /// The answer a reader picks to predict a verdict.
    pub fn choice(&self, kind: OutcomeKind) -> &'static str {
        self.choices[index(kind)]
    }

    /// The lesson of a verdict.
    pub fn outcome_lesson(&self, kind: OutcomeKind) -> &'static str {
        self.outcome_lessons[index(kind)]
    }
}

fn index(kind: OutcomeKind) -> usize {
    OutcomeKind::ALL.iter().position(|&k| k == kind).expect("every kind is listed")
}

/// The strings for `lang`.
pub fn text(lang: Lang) -> &'static Text {
    match lang {
        Lang::En => &EN,
        Lang::Ja => &JA,
    }
}

fn s(ms: Ms) -> String {
    seconds(ms)
}

fn tok(t: Option<u64>) -> String {
    t.map_or_else(|| "?".into(), |t| t.to_string())
}

fn at(t: Option<Ms>) -> String {
    t.map_or_else(|| "?".into(), seconds)
}

static EN: Text = Text {
    title: "Fencing Lab",
    tagline: "How a distributed lock stays safe: leases and fencing tokens.",
    question: "A machine that was stopped wakes up. What happens? \
               What happens to A's write if it wakes after 15 seconds?",
    figure_label: "Timeline of workers A and B, the lock service and the storage",
    lease: "Lease expiry",
    lease_hint: |ttl| format!("the lock expires {} s after it is granted", s(ttl)),
    fencing: "Fencing",
    fencing_hint: "the storage rejects a token older than one it has seen",
    pause: "A's GC pause: ",
    handle_name: "Right edge of A's GC pause",
    handle_value: |pause, wake| format!("pause {} s, A wakes at {} s", s(pause), s(wake)),
    worker: |name| format!("Worker {name}"),
    lock_service: "Lock service",
    storage: "Storage",
    believes: "believes it holds the lock",
    holds: "holds the lock (per the lock service)",
    paused: "GC pause",
    waiting: "waiting for the lock",
    false_belief: "believes it holds the lock, but does not",
    lease_ends: |t| format!("lease ends {} s", s(t)),
    lease_would_end: |t| format!("no expiry (would end {} s)", s(t)),
    accepted: "accepted",
    overwrites: |h| format!("overwrites {h}"),
    rejected: "rejected",
    highest: "highest token seen",
    seconds_unit: "s",
    time_axis: "time (seconds)",
    outcome_titles: [
        "Safe: no conflict",
        "Stalled: B waits for A",
        "Fenced: token 33 rejected",
        "Unfenced gap: both wrote",
        "Corrupted: B's work overwritten",
    ],
    outcome_lessons: [
        "Leases are fine while the holder is alive.",
        "Without expiry a stuck holder stops the system.",
        "Fencing protects the data.",
        "Fencing only orders writes: a new holder should write, or register its token, at once.",
        "A lease alone is not safe.",
    ],
    verdict: "Verdict",
    narrate: |st| {
        match st.kind {
        OutcomeKind::Safe if st.b_grant.is_some_and(|b| st.a_wake.is_some_and(|a| b >= a)) => format!(
            "A woke within the lease ({} s) at {} s, wrote with token {} and released; B then took token {}, \
             so nothing collided. Drag the right edge of A's pause band to make it longer.",
            s(st.ttl),
            at(st.a_wake),
            tok(st.a_token),
            tok(st.b_token)
        ),
        OutcomeKind::Safe => format!(
            "A wrote with token {} and released; B took token {} after it, so nothing collided.",
            tok(st.a_token),
            tok(st.b_token)
        ),
        OutcomeKind::Stalled => match st.b_wait {
            Some((from, Some(until))) => format!(
                "Without lease expiry, B waited from {} s to {} s — {} s, for as long as A was paused, far past \
                 {} s where a lease would have freed the lock. Had A never woken, B would wait for ever.",
                s(from),
                s(until),
                s(until - from),
                s(st.ttl)
            ),
            _ => "Without lease expiry, B waits for ever: A never gives the lock back.".into(),
        },
        OutcomeKind::Fenced => format!(
            "A's lease ran out at {} s while it was paused; B took token {} and wrote at {} s. A woke at {} s \
             still believing it held the lock and wrote with token {}. The storage had already seen {}, so it \
             rejected the write ({} < {}). Fencing protected the data.",
            at(st.a_expired),
            tok(st.b_token),
            at(st.b_write),
            at(st.a_wake),
            tok(st.a_token),
            tok(st.b_token),
            tok(st.a_token),
            tok(st.b_token)
        ),
        OutcomeKind::Corrupted => format!(
            "A's lease ran out at {} s while it was paused; B took token {} and wrote at {} s. A woke at {} s \
             still believing it held the lock and wrote with token {}. Without fencing the storage accepted {} \
             after {}: B's work is overwritten. A lease alone is not safe.",
            at(st.a_expired),
            tok(st.b_token),
            at(st.b_write),
            at(st.a_wake),
            tok(st.a_token),
            tok(st.a_token),
            tok(st.b_token)
        ),
        OutcomeKind::UnfencedGap => format!(
            "A's lease ran out at {} s and B took token {}, but A woke at {} s, no later than B's first write \
             at {} s. The storage had not seen {} yet, so it accepted {}, then {}: for a moment both believed \
             they held the lock. Fencing only orders writes; a new holder should write at once.",
            at(st.a_expired),
            tok(st.b_token),
            at(st.a_wake),
            at(st.b_write),
            tok(st.b_token),
            tok(st.a_token),
            tok(st.b_token)
        ),
    }
    },
    notice: "Part of this link was not understood, so the default was used instead:",
    problem: |p| match p {
        Problem::NotANumber { key, value } => format!("{key}: “{value}” is not a whole number"),
        Problem::OutOfRange { key, value, min, max } => format!("{key}: {value} is outside {min}–{max}"),
        Problem::NotOneOf { key, value, allowed } => {
            format!("{key}: “{value}” is not one of {}", allowed.join(", "))
        }
        Problem::UnknownKey(key) => format!("unknown setting “{key}”"),
    },
    play: "Play",
    stop: "Pause",
    step_back: "Previous event",
    step_forward: "Next event",
    to_end: "Jump to the end",
    scrub: "Playhead",
    playhead: |t| format!("{} s", s(t)),
    language: "Language",
    predict_heading: "Predict first",
    predict_prompt: |pause, lease, fencing| {
        format!(
            "A wakes after {} s, with lease expiry {} and fencing {}. What happens to its write?",
            s(pause),
            if lease { "on" } else { "off" },
            if fencing { "on" } else { "off" }
        )
    },
    choices: [
        "A writes and releases, then B goes: no conflict",
        "B waits for as long as A is paused",
        "A's write is rejected",
        "A's write is accepted, and then B's: both wrote",
        "A's write is accepted and overwrites B's work",
    ],
    play_and_see: "Play and see",
    skip: "Skip: show me",
    watching: "Watch what happens…",
    right: "You predicted it.",
    wrong: |picked| format!("You predicted “{picked}”. Not this time:"),
    predict_again: "Predict again",
    boundary_heading: "Where does it change?",
    boundary_question: |kind| match kind {
        OutcomeKind::Fenced => "Drag the ghost marker to the shortest pause at which A's write is rejected.".into(),
        OutcomeKind::Corrupted => {
            "Drag the ghost marker to the shortest pause at which A's write overwrites B's work.".into()
        }
        OutcomeKind::Stalled => "Drag the ghost marker to the shortest pause at which B is left stalling.".into(),
        OutcomeKind::UnfencedGap => "Drag the ghost marker to the shortest pause at which both write.".into(),
        OutcomeKind::Safe => "Drag the ghost marker to where the verdict changes.".into(),
    },
    ghost_name: "Your guess: pause length",
    ghost_value: |t| format!("guess {} s", s(t)),
    check: "Check",
    boundary_result: |guess, truth| {
        let off = guess.abs_diff(truth);
        if off == 0 {
            format!("Exactly: it changes at {} s.", s(truth))
        } else {
            format!("It changes at {} s; your guess of {} s was {} s off.", s(truth), s(guess), s(off))
        }
    },
    boundary_none: "With these settings every pause gives the same verdict.",
    outcome_map: "Verdict for every pause length from 0 to 30 s",
    share: "Share / embed",
    share_link: "Link to this exact state",
    share_embed: "Embed in a page (iframe)",
    copy: "Copy",
    copied: "Copied",
    reading_heading: "Reading: leases, fencing tokens and when to use neither",
    reading: &[
        (
            "Why a lock needs a lease",
            &[
                "A lock held by a process that crashes is never released, and the lock service cannot tell a \
                 dead holder from a slow one. So locks are granted as leases: they expire unless the holder \
                 renews them in time. Google's Chubby, Redis keys with PX, and etcd and ZooKeeper sessions all \
                 work this way.",
                "Switch lease expiry off and pause A for longer than 10 s: B waits for as long as A is stopped, \
                 and would wait for ever if A never came back.",
            ],
        ),
        (
            "Why a lease alone is not safe",
            &[
                "The holder can stop at any moment for longer than its lease: a stop-the-world garbage \
                 collection, a virtual machine suspended or migrated, a page fault under swap, a write held up \
                 in the network. While stopped it cannot look at a clock, so when it resumes it still believes \
                 it holds the lock and writes.",
                "Checking the lease just before writing does not help: the process can stop between the check \
                 and the write. The holder cannot notice, so the protection has to sit with the resource. \
                 Martin Kleppmann's 2016 article makes exactly this case with a GC pause.",
            ],
        ),
        (
            "Fencing tokens: what the storage must do",
            &[
                "With every grant the lock service hands out a number that only goes up: the fencing token. \
                 The client sends it with each write; the storage remembers the highest token it has accepted \
                 and rejects any lower one. In a database this is a conditional write, for example UPDATE … \
                 SET value = ?, token = ? WHERE id = ? AND token <= ?.",
                "Fencing only orders the writes the storage sees. If the old holder writes before the new \
                 holder's first write, both are accepted (the unfenced gap), so a new holder should write, or \
                 register its token, at once. If the resource cannot check tokens at all (an external API, a \
                 plain file system), make the work idempotent so that doing it twice does no harm.",
            ],
        ),
        (
            "Redis: SET NX PX, compare-and-delete, and Redlock",
            &[
                "Take the lock with one atomic command, SET lock:job <random value> NX PX 30000: set only if \
                 absent, with an expiry in milliseconds. SETNX followed by EXPIRE is unsafe: a crash between \
                 the two leaves a lock that never expires. Release with a Lua script that deletes the key only \
                 if it still holds your value; a plain DEL after your lease expired would delete the next \
                 holder's lock.",
                "A single Redis is a single point of failure, and with asynchronous replication a failover can \
                 lose a lock that was just granted. Redlock, proposed by Redis's author Salvatore Sanfilippo \
                 (antirez), takes the lock on a majority of independent Redis nodes. Kleppmann argued in 2016 \
                 that it relies on timing assumptions (bounded pauses and clock drift) and produces no fencing \
                 token; antirez replied. Where correctness matters, the common advice is not to rely on it.",
            ],
        ),
        (
            "ZooKeeper and etcd: the token comes with consensus",
            &[
                "ZooKeeper and etcd replicate their state by consensus, so there is a single truth about who \
                 holds the lock, and a lock is tied to a session or lease that ends when the client stops \
                 sending heartbeats. Every change gets a number that only goes up, the zxid in ZooKeeper and the \
                 revision in etcd, and the lock's zxid or revision can serve directly as a fencing token. Chubby \
                 calls the same idea a sequencer, and adds a lock-delay: after a holder's session is lost, \
                 nobody may take its lock for a while.",
                "The price is speed: each acquisition is a round of consensus, heavier than a single Redis \
                 command.",
            ],
        ),
        (
            "When not to use a lock at all",
            &[
                "A distributed lock serialises work and can stall the system. First ask whether the database \
                 can do the job: a transaction, a conditional update (optimistic concurrency on a version \
                 column), a unique constraint, or an idempotent design that makes running twice harmless.",
                "A rule of thumb from Kleppmann: if the lock only saves duplicate work (efficiency), a single \
                 Redis lock is enough; if two holders at once would corrupt data (correctness), use a \
                 consensus-based lock service and fencing tokens.",
                "Sources: M. Kleppmann, “How to do distributed locking” (2016) and Designing Data-Intensive \
                 Applications, ch. 8 (2017); M. Burrows, “The Chubby lock service for loosely-coupled \
                 distributed systems” (OSDI 2006); the Redis documentation on SET and distributed locks; the \
                 etcd documentation on leases, revisions and locks.",
            ],
        ),
    ],
};

static JA: Text = Text {
    title: "フェンシング・ラボ",
    tagline: "分散ロックはどう安全を保つのか——期限（リース）と番号（フェンシングトークン）。",
    question: "止まっていた1台が目を覚ますと、何が起きる？15秒後に目を覚ましたAの書き込みは、どうなる？",
    figure_label: "ワーカー A・B、ロックサービス、資源（ストレージ）のタイムライン",
    lease: "リース期限",
    lease_hint: |ttl| format!("鍵は渡されてから{}秒で外れる", s(ttl)),
    fencing: "フェンシング",
    fencing_hint: "資源は、これまでに見た番号より小さい番号の書き込みを拒否する",
    pause: "A の GC 停止：",
    handle_name: "A の GC 停止の帯の右端",
    handle_value: |pause, wake| format!("停止 {}秒、A は {}秒に目覚める", s(pause), s(wake)),
    worker: |name| format!("ワーカー {name}"),
    lock_service: "ロックサービス",
    storage: "資源（ストレージ）",
    believes: "自分が鍵を持っていると思っている",
    holds: "鍵を持っている（ロックサービスの記録）",
    paused: "GC 停止",
    waiting: "鍵を待っている",
    false_belief: "持ち主のつもりだが、実はもう持ち主ではない",
    lease_ends: |t| format!("期限 {}秒", s(t)),
    lease_would_end: |t| format!("期限なし（あれば {}秒）", s(t)),
    accepted: "受理",
    overwrites: |h| format!("{h} を上書き"),
    rejected: "拒否",
    highest: "これまでに見た最大の番号",
    seconds_unit: "秒",
    time_axis: "時間（秒）",
    outcome_titles: [
        "安全：衝突なし",
        "停滞：B は A を待ち続ける",
        "締め出し：番号 33 は拒否",
        "隙間：両方が書き込んだ",
        "破損：B の仕事が上書きされた",
    ],
    outcome_lessons: [
        "持ち主が生きている間は、期限だけで十分です。",
        "期限がないと、止まった持ち主がシステムを止めてしまいます。",
        "フェンシングがデータを守りました。",
        "フェンシングは書き込みの順序を守るだけです。新しい持ち主はすぐに書き込む（番号を登録する）必要があります。",
        "期限だけでは安全ではありません。",
    ],
    verdict: "結果",
    narrate: |st| match st.kind {
        OutcomeKind::Safe if st.b_grant.is_some_and(|b| st.a_wake.is_some_and(|a| b >= a)) => format!(
            "A は期限（{}秒）の内の {}秒に目覚めて番号 {} で書き込み、ロックを返しました。B はその後で番号 {} を\
             取ったので、衝突は起きません。A の「GC 停止」の帯の右端をドラッグして、長く伸ばしてみてください。",
            s(st.ttl),
            at(st.a_wake),
            tok(st.a_token),
            tok(st.b_token)
        ),
        OutcomeKind::Safe => format!(
            "A は番号 {} で書き込んでロックを返し、B はその後で番号 {} を取りました。衝突は起きません。",
            tok(st.a_token),
            tok(st.b_token)
        ),
        OutcomeKind::Stalled => match st.b_wait {
            Some((from, Some(until))) => format!(
                "期限がないので、B は {}秒から {}秒まで、{}秒も待たされました。A が止まっている間ずっとで、\
                 リースなら鍵が外れていた {}秒をはるかに過ぎています。A が目覚めなければ、B は永遠に待ち続けます。",
                s(from),
                s(until),
                s(until - from),
                s(st.ttl)
            ),
            _ => "期限がないので、B は永遠に待ち続けます。A は鍵を返しません。".into(),
        },
        OutcomeKind::Fenced => format!(
            "A が止まっている間の {}秒に期限が切れ、B が番号 {} を取って {}秒に書き込みました。{}秒に目覚めた A は、\
             まだ自分が持ち主だと思ったまま番号 {} で書き込みますが、資源はすでに {} を見ているので拒否します\
             （{} < {}）。フェンシングがデータを守りました。",
            at(st.a_expired),
            tok(st.b_token),
            at(st.b_write),
            at(st.a_wake),
            tok(st.a_token),
            tok(st.b_token),
            tok(st.a_token),
            tok(st.b_token)
        ),
        OutcomeKind::Corrupted => format!(
            "A が止まっている間の {}秒に期限が切れ、B が番号 {} を取って {}秒に書き込みました。{}秒に目覚めた A は、\
             まだ自分が持ち主だと思ったまま番号 {} で書き込みます。フェンシングがないので、資源は {} のあとに {} を\
             受け付け、B の仕事は上書きされました。期限だけでは安全ではありません。",
            at(st.a_expired),
            tok(st.b_token),
            at(st.b_write),
            at(st.a_wake),
            tok(st.a_token),
            tok(st.b_token),
            tok(st.a_token)
        ),
        OutcomeKind::UnfencedGap => format!(
            "{}秒に A の期限が切れて B が番号 {} を取りましたが、A は B の最初の書き込み（{}秒）より前の {}秒に\
             目覚めました。資源はまだ {} を見ていないので {} を受け付け、そのあと {} も受け付けます。一時は二人とも\
             自分が持ち主だと思っていたことになります。フェンシングは順序を守るだけなので、新しい持ち主はすぐに\
             書き込む必要があります。",
            at(st.a_expired),
            tok(st.b_token),
            at(st.b_write),
            at(st.a_wake),
            tok(st.b_token),
            tok(st.a_token),
            tok(st.b_token)
        ),
    },
    notice: "リンクの一部が読み取れなかったため、既定値を使いました：",
    problem: |p| match p {
        Problem::NotANumber { key, value } => format!("{key}：「{value}」は整数ではありません"),
        Problem::OutOfRange { key, value, min, max } => format!("{key}：{value} は {min}〜{max} の範囲外です"),
        Problem::NotOneOf { key, value, allowed } => {
            format!("{key}：「{value}」は {} のどれでもありません", allowed.join("、"))
        }
        Problem::UnknownKey(key) => format!("「{key}」という設定はありません"),
    },
    play: "再生",
    stop: "一時停止",
    step_back: "前の出来事",
    step_forward: "次の出来事",
    to_end: "最後へ",
    scrub: "再生位置",
    playhead: |t| format!("{}秒", s(t)),
    language: "言語",
    predict_heading: "まず予想してみる",
    predict_prompt: |pause, lease, fencing| {
        format!(
            "A は {}秒後に目を覚まします（リース期限は{}、フェンシングは{}）。A の書き込みは、どうなる？",
            s(pause),
            if lease { "オン" } else { "オフ" },
            if fencing { "オン" } else { "オフ" }
        )
    },
    choices: [
        "A が書き込んで鍵を返し、その後 B が続く。衝突はない",
        "A が止まっている間、B はずっと待たされる",
        "A の書き込みは拒否される",
        "A の書き込みが通り、そのあと B も書く。両方が書き込む",
        "A の書き込みが通り、B の仕事を上書きしてしまう",
    ],
    play_and_see: "再生して確かめる",
    skip: "予想せずに答えを見る",
    watching: "何が起きるか、見ていてください…",
    right: "予想どおりでした。",
    wrong: |picked| format!("予想は「{picked}」でした。今回は違います："),
    predict_again: "もう一度予想する",
    boundary_heading: "どこで変わる？",
    boundary_question: |kind| match kind {
        OutcomeKind::Fenced => "A の書き込みが拒否され始める停止の長さに、目印をドラッグしてください。".into(),
        OutcomeKind::Corrupted => "A の書き込みが B の仕事を上書きし始める停止の長さに、目印をドラッグしてください。".into(),
        OutcomeKind::Stalled => "B が待たされ続け始める停止の長さに、目印をドラッグしてください。".into(),
        OutcomeKind::UnfencedGap => "両方が書き込み始める停止の長さに、目印をドラッグしてください。".into(),
        OutcomeKind::Safe => "結果が変わる停止の長さに、目印をドラッグしてください。".into(),
    },
    ghost_name: "予想：停止の長さ",
    ghost_value: |t| format!("予想 {}秒", s(t)),
    check: "答え合わせ",
    boundary_result: |guess, truth| {
        let off = guess.abs_diff(truth);
        if off == 0 {
            format!("ぴったりです。{}秒で変わります。", s(truth))
        } else {
            format!("境目は {}秒です。予想の {}秒とは {}秒ずれていました。", s(truth), s(guess), s(off))
        }
    },
    boundary_none: "この設定では、停止の長さによらず結果は同じです。",
    outcome_map: "停止の長さ 0〜30 秒ごとの結果",
    share: "共有・埋め込み",
    share_link: "この状態へのリンク",
    share_embed: "ページへの埋め込み（iframe）",
    copy: "コピー",
    copied: "コピーしました",
    reading_heading: "読みもの：期限、フェンシングトークン、そしてロックを使わない選択",
    reading: &[
        (
            "なぜロックに期限が要るのか",
            &[
                "鍵を握ったままプロセスがクラッシュすると、鍵は二度と返されません。しかもロックサービスには、\
                 持ち主が死んだのか遅いだけなのかを見分けられません。そこで鍵は期限付きの「リース」として貸し出され、\
                 持ち主が期限内に更新しなければ自動で外れます。Google の Chubby、PX を付けた Redis のキー、\
                 etcd や ZooKeeper のセッションは、どれもこの仕組みです。",
                "リース期限をオフにして A を10秒より長く止めてみてください。B は A が止まっている間ずっと待たされ、\
                 A が戻らなければ永遠に待ち続けます。",
            ],
        ),
        (
            "期限だけでは安全でない理由",
            &[
                "持ち主は、いつでも期限より長く止まり得ます。ガベージコレクションの全停止、仮想マシンの一時停止や移動、\
                 スワップによるページフォールト、ネットワークで足止めされた書き込み。止まっている間は時計も見られないので、\
                 再開した持ち主はまだ鍵を持っているつもりで書き込みます。",
                "書き込みの直前に期限を確かめても防げません。確かめた直後に止まれば同じことだからです。持ち主の側では\
                 気づけない以上、守りは資源の側に置くしかありません。マーティン・クレップマンの2016年の記事は、\
                 まさにこの GC 停止の例でそれを示しています。",
            ],
        ),
        (
            "フェンシングトークン：資源の側がすべきこと",
            &[
                "ロックサービスは鍵を渡すたびに、増える一方の番号（フェンシングトークン）を添えます。ワーカーは書き込みに\
                 その番号を付けて送り、資源はこれまでに受け付けた最大の番号を覚えておいて、それより小さい番号の書き込みを\
                 拒否します。データベースなら、UPDATE … SET value = ?, token = ? WHERE id = ? AND token <= ? のような\
                 条件付き書き込みで実現できます。",
                "ただしフェンシングが守るのは、資源に届いた書き込みの順序だけです。新しい持ち主の最初の書き込みより前に\
                 古い持ち主が書き込むと、両方とも受け付けられます（フェンシングの隙間）。新しい持ち主は、すぐに書き込むか\
                 番号を登録するべきです。番号を確かめられない資源（外部の API や素のファイルシステム）が相手なら、\
                 処理を冪等にして、二度実行されても壊れないようにします。",
            ],
        ),
        (
            "Redis：SET NX PX、比較してから削除、そして Redlock",
            &[
                "鍵は SET lock:job <ランダムな値> NX PX 30000 という一つの不可分な命令で取ります（無ければ書く、\
                 ミリ秒の期限付き）。SETNX のあとに EXPIRE を送る書き方は危険で、その間にワーカーが落ちると期限のない鍵が\
                 残ります。解放は、キーの値がまだ自分の値のときだけ消す Lua スクリプトで行います。期限切れのあとに\
                 ただ DEL すると、次の持ち主の鍵を消してしまいます。",
                "Redis 1台は単一障害点で、非同期レプリケーションでは、渡した直後の鍵がフェイルオーバーで失われることが\
                 あります。Redis の作者 Salvatore Sanfilippo（antirez）は、独立した複数の Redis の過半数で鍵を取る\
                 Redlock を提案しました。クレップマンは2016年に、Redlock は停止や時計のずれに関するタイミングの仮定に\
                 頼っていて、フェンシングトークンも作れないと批判し、antirez が反論しました。正しさが本当に必要な用途では\
                 Redlock に頼らない、というのが一般的な受け止め方です。",
            ],
        ),
        (
            "ZooKeeper と etcd：番号は合意とともに",
            &[
                "ZooKeeper や etcd は合意アルゴリズムで状態を複製するので、「誰が鍵を持っているか」の真実は一つです。\
                 鍵はセッションやリースに結び付けられ、クライアントのハートビートが途絶えれば外れます。変更のたびに増える\
                 番号（ZooKeeper の zxid、etcd のリビジョン）があり、鍵の zxid やリビジョンをそのままフェンシングトークンに\
                 使えます。Chubby は同じ考えをシーケンサと呼び、さらに lock-delay を設けています。持ち主のセッションが\
                 失われたあと、しばらくは誰もその鍵を取れません。",
                "代償は速度です。鍵を取るたびに合意の往復が入るので、Redis の命令一つより重くなります。",
            ],
        ),
        (
            "そもそもロックを使わない、という選択",
            &[
                "分散ロックは処理を直列にし、システムを止める原因にもなります。まず、データベースのトランザクション、\
                 条件付き更新（バージョン列を使う楽観ロック）、一意制約、あるいは二度実行しても害のない冪等な設計で\
                 済まないかを考えます。",
                "クレップマンの目安では、ロックが重複作業を省くため（効率）だけなら Redis 1台のロックで十分です。\
                 二人が同時に持つとデータが壊れる（正しさ）なら、合意ベースのロックサービスとフェンシングトークンを使います。",
                "出典：M. Kleppmann「How to do distributed locking」（2016）、『Designing Data-Intensive Applications』\
                 第8章（2017）；M. Burrows「The Chubby lock service for loosely-coupled distributed systems」\
                 （OSDI 2006）；Redis の SET と分散ロックのドキュメント；etcd のリース、リビジョン、ロックのドキュメント。",
            ],
        ),
    ],
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::{self, Inputs, Scenario};

    fn story(pause: Ms, lease: bool, fencing: bool) -> Story {
        let run = sim::run(&Scenario::base(&Inputs { pause, lease, fencing, ..Inputs::default() }));
        Story::of(&run, 10_000)
    }

    #[test]
    fn narration_tells_the_numbers_in_both_languages() {
        let fenced = story(15_000, true, true);
        let en = (EN.narrate)(&fenced);
        assert!(
            en.contains("ran out at 10 s") && en.contains("woke at 15 s") && en.contains("33 < 34"),
            "{en}"
        );
        let ja = (JA.narrate)(&fenced);
        assert!(ja.contains("15秒に目覚めた") && ja.contains("（33 < 34）"), "{ja}");
        let stalled = story(15_000, false, true);
        assert!((EN.narrate)(&stalled).contains("from 1 s to 15 s — 14 s"));
        assert!((JA.narrate)(&stalled).contains("1秒から 15秒まで、14秒"));
        let gap = story(10_500, true, true);
        assert!((EN.narrate)(&gap).contains("woke at 10.5 s, no later than B's first write at 11 s"));
    }

    #[test]
    fn the_seed_sentence_for_the_default_state() {
        let ja = (JA.narrate)(&story(4_000, true, true));
        assert!(ja.starts_with("A は期限（10秒）の内の 4秒に目覚めて"), "{ja}");
        assert!(ja.ends_with("長く伸ばしてみてください。"));
    }

    #[test]
    fn every_outcome_has_a_title_and_lesson_in_each_language() {
        for lang in [Lang::En, Lang::Ja] {
            let t = text(lang);
            let titles: std::collections::HashSet<_> =
                OutcomeKind::ALL.iter().map(|&k| t.outcome_title(k)).collect();
            assert_eq!(titles.len(), 5);
            assert!(OutcomeKind::ALL.iter().all(|&k| !t.outcome_lesson(k).is_empty()));
        }
        assert_ne!(EN.outcome_title(OutcomeKind::Fenced), JA.outcome_title(OutcomeKind::Fenced));
    }
}

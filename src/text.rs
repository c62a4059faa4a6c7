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
    /// The pause readout before its value.
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
}

impl Text {
    /// The title of a verdict.
    pub fn outcome_title(&self, kind: OutcomeKind) -> &'static str {
        self.outcome_titles[index(kind)]
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
    pause: "A's GC pause",
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
    pause: "A の GC 停止",
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

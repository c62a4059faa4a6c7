//! The narration at each boundary, in both languages, and answer choices that match the reachable outcomes.

use super::*;
use crate::present::claims::boundary_runs;
use crate::sim::{self, outcome_map};

fn story(id: ScenarioId, f: impl FnOnce(&mut Inputs)) -> Story {
    let mut i = id.defaults();
    f(&mut i);
    Story::of(&sim::run(&id.build(&i)), id, &i)
}

fn both(st: &Story) -> (String, String) {
    (panels(Lang::En).narrate(st), panels(Lang::Ja).narrate(st))
}

#[test]
fn fill_replaces_in_order() {
    assert_eq!(fill("{} < {}", &["33", "34"]), "33 < 34");
    assert_eq!(fill("{} and {}", &["a"]), "a and ?");
    assert_eq!(fill("none", &["x"]), "none");
}

#[test]
fn the_seed_caption_for_the_default_state() {
    let (en, ja) = both(&story(ScenarioId::GcPause, |_| {}));
    assert_eq!(
        ja,
        "A は期限が切れる10秒より前の4秒に目覚めて書き込み、ロックを返しました。B はその後で番号 34 を取ったので、衝突は起きませんでした。\
         A の「GC 停止」の帯の右端をドラッグして、長く伸ばしてみてください。"
    );
    assert!(
        en.starts_with("A woke at 4 s, before its lease ran out at 10 s, wrote and released the lock; B then took token 34"),
        "{en}"
    );
}

#[test]
fn fenced_narration_tells_the_numbers() {
    let (en, ja) = both(&story(ScenarioId::GcPause, |i| i.pause = 15_000));
    assert!(
        en.contains("ran out at 10 s") && en.contains("woke at 15 s") && en.contains("(33 < 34)"),
        "{en}"
    );
    assert!(ja.contains("15秒に目覚めた A") && ja.contains("（33 < 34）"), "{ja}");
}

#[test]
fn the_runs_own_tokens_are_told() {
    let (en, ja) = both(&story(ScenarioId::GcPause, |i| {
        i.pause = 15_000;
        i.first_token = 7;
    }));
    assert!(en.contains("(7 < 8)") && !en.contains("33"), "{en}");
    assert!(ja.contains("（7 < 8）") && !ja.contains("33"), "{ja}");
}

#[test]
fn stalled_narration_at_its_boundary_and_beyond() {
    // Lease off, pause 10 s: stalled, and B gets the lock at exactly 10 s, where a lease would have freed it.
    let st = story(ScenarioId::GcPause, |i| {
        i.lease = false;
        i.pause = 10_000;
    });
    assert_eq!(st.kind, OutcomeKind::Stalled);
    let (en, ja) = both(&st);
    assert!(en.contains("B waited from 1 s until A woke and released the lock at 10 s, the very millisecond a lease would have freed it"), "{en}");
    assert!(!en.contains("far past") && !en.contains("as long as A"), "{en}");
    assert!(ja.contains("B は1秒から、A が目覚めてロックを返す10秒まで待たされました"), "{ja}");
    let (en, _) = both(&story(ScenarioId::GcPause, |i| {
        i.lease = false;
        i.pause = 15_000;
    }));
    assert!(en.contains("from 1 s until A woke and released the lock at 15 s"), "{en}");
}

#[test]
fn unfenced_gap_narration_counts_the_same_millisecond() {
    let st = story(ScenarioId::GcPause, |i| i.pause = 11_000);
    assert_eq!(st.kind, OutcomeKind::UnfencedGap);
    let (en, ja) = both(&st);
    assert!(en.contains("woke at 11 s, no later than B's first write at 11 s"), "{en}");
    assert!(ja.contains("A は11秒に目覚め、B が最初に書き込む11秒までに書き込みました"), "{ja}");
    assert!(!ja.contains("より前の 11秒"), "{ja}");
}

#[test]
fn safe_narration_without_a_lease_does_not_speak_of_one() {
    let st = story(ScenarioId::GcPause, |i| {
        i.lease = false;
        i.pause = 9_999;
    });
    assert_eq!(st.kind, OutcomeKind::Safe);
    let (en, ja) = both(&st);
    assert!(en.contains("A woke at 9.999 s, wrote and released") && !en.contains("a lease"), "{en}");
    assert!(ja.contains("A は9.999秒に目覚め、") && !ja.contains("期限"), "{ja}");
}

#[test]
fn network_delay_narrates_arrival_at_each_boundary() {
    // Arrival at 10 s (delay 8000): the gap; at 11 s (9000), same millisecond as B's write, B goes first.
    let gap = story(ScenarioId::NetworkDelay, |i| i.delay = 8_000);
    assert_eq!(gap.kind, OutcomeKind::UnfencedGap);
    assert!(both(&gap).0.contains("arrived at 10 s, before B's first write at 11 s"));
    let fenced = story(ScenarioId::NetworkDelay, |i| i.delay = 9_000);
    assert_eq!(fenced.kind, OutcomeKind::Fenced);
    let (en, ja) = both(&fenced);
    assert!(en.contains("arrived at 11 s with token 33. The storage had already seen 34"), "{en}");
    assert!(ja.contains("11秒に番号 33 で届きました"), "{ja}");
}

#[test]
fn every_scenario_narrates_every_reachable_outcome_with_its_numbers() {
    for id in ScenarioId::ALL {
        for (i, kind) in reachable(id) {
            let st = Story::of(&sim::run(&id.build(&i)), id, &i);
            assert_eq!(st.kind, kind);
            for lang in [Lang::En, Lang::Ja] {
                let n = panels(lang).narrate(&st);
                assert!(
                    !n.is_empty() && !n.contains('?') && !n.contains("{}"),
                    "{id:?} {kind:?} {lang:?}: {n}"
                );
            }
        }
    }
}

/// For each outcome a scenario can reach (over every switch and every value of its dragged input), one
/// set of inputs that reaches it. Found once for all the tests that ask: each search sweeps every value of
/// every switch setting, seconds of CPU in a debug build.
fn reachable(id: ScenarioId) -> Vec<(Inputs, OutcomeKind)> {
    type Found = Vec<(ScenarioId, Vec<(Inputs, OutcomeKind)>)>;
    static FOUND: std::sync::OnceLock<Found> = std::sync::OnceLock::new();
    let found = FOUND.get_or_init(|| ScenarioId::ALL.iter().map(|&id| (id, search_reachable(id))).collect());
    found.iter().find(|f| f.0 == id).map(|f| f.1.clone()).expect("every scenario is in ScenarioId::ALL")
}

fn search_reachable(id: ScenarioId) -> Vec<(Inputs, OutcomeKind)> {
    let switches: Vec<Key> = id.keys().iter().copied().filter(|k| k.spec().is_switch()).collect();
    let mut found: Vec<(Inputs, OutcomeKind)> = Vec::new();
    // A pause that only a link or the map sets (Redlock's), every second of its range.
    let pauses: Vec<u64> = if id.extras().contains(&Key::Pause) {
        (0..=30).map(|s| s * 1_000).collect()
    } else {
        vec![id.defaults().pause]
    };
    for (bits, pause) in (0..1u64 << switches.len()).flat_map(|b| pauses.iter().map(move |&p| (b, p))) {
        let mut i = Inputs { pause, ..id.defaults() };
        for (n, k) in switches.iter().enumerate() {
            k.spec().set(&mut i, k.spec().switched(bits >> n & 1 == 1)).unwrap();
        }
        let segments = match id.dragged() {
            Some(k) => {
                let (min, max) = k.spec().range();
                outcome_map(&id.build(&i), min..=max)
                    .into_iter()
                    .map(|s| (Some((k, s.from)), s.kind))
                    .collect()
            }
            None => vec![(None, sim::outcome(&id.build(&i)).kind)],
        };
        for (drag, kind) in segments {
            let mut at = i;
            if let Some((k, v)) = drag {
                k.spec().set(&mut at, v).unwrap();
            }
            if !found.iter().any(|f| f.1 == kind) {
                found.push((at, kind));
            }
        }
    }
    found
}

#[test]
fn each_scenario_offers_one_choice_per_reachable_outcome() {
    for id in ScenarioId::ALL {
        let mut reached: Vec<OutcomeKind> = reachable(id).into_iter().map(|r| r.1).collect();
        reached.sort();
        for lang in [Lang::En, Lang::Ja] {
            let mut offered: Vec<OutcomeKind> =
                (text(lang).scenario)(id).choices.iter().map(|c| c.0).collect();
            offered.sort();
            assert_eq!(offered, reached, "{id:?} in {lang:?}");
        }
    }
}

#[test]
fn every_outcome_has_a_distinct_title_and_a_lesson_in_each_language() {
    for lang in [Lang::En, Lang::Ja] {
        let t = text(lang);
        let titles: std::collections::HashSet<_> =
            OutcomeKind::ALL.iter().map(|&k| t.outcome_title(k)).collect();
        assert_eq!(titles.len(), OutcomeKind::ALL.len());
        assert!(OutcomeKind::ALL.iter().all(|&k| !panels(lang).outcome_lesson(k).is_empty()));
        for id in ScenarioId::ALL {
            let st = (t.scenario)(id);
            assert!(!st.title.is_empty() && !st.blurb.is_empty());
            for key in id.keys().iter().filter(|k| k.spec().is_switch()) {
                assert!(!(t.switch_name)(*key).is_empty(), "{key:?}");
            }
        }
    }
}

/// The placeholders of a sentence, in order of first use.
fn placeholders(template: &str) -> Vec<&str> {
    let mut names: Vec<&str> =
        template.split('{').skip(1).filter_map(|p| p.split_once('}')).map(|p| p.0).collect();
    names.sort_unstable();
    names.dedup();
    names
}

#[test]
fn both_languages_word_every_sentence_with_the_same_facts() {
    let mut named = Vec::new();
    for &line in crate::present::story::Line::ALL {
        let (en, ja) = ((panels(Lang::En).line)(line), (panels(Lang::Ja).line)(line));
        assert_eq!(placeholders(en), placeholders(ja), "{line:?}");
        for name in placeholders(en) {
            named.push(Fact::named(name).unwrap_or_else(|| panic!("{line:?}: unknown fact {name}")));
        }
    }
    // And the story gives no fact that no sentence names.
    for fact in Fact::ALL {
        assert!(named.contains(fact), "{fact:?} is named by no sentence");
    }
}

#[test]
fn a_check_that_finds_the_lease_gone_is_told_as_it_happened() {
    // A lease of 1.5 s is over by A's check at 2 s: A gives up and never writes.
    let st = story(ScenarioId::CheckThenPause, |i| i.ttl = 1_500);
    let (en, ja) = both(&st);
    assert!(
        en.starts_with("A checked its lease at 2 s on its own clock: it had run out at 1.5 s, so A gave up"),
        "{en}"
    );
    assert!(!en.contains("still valid") && !en.contains("before its lease ran out"), "{en}");
    assert!(ja.contains("期限はすでに1.5秒に切れていたので、書き込まずにあきらめました"), "{ja}");
}

#[test]
fn unsafe_release_tells_when_a_really_released() {
    // A job that ends before A's write at 2 s: A releases at 2 s, not at the job's end.
    let (en, _) = both(&story(ScenarioId::UnsafeRelease, |i| i.work = 0));
    assert!(en.starts_with("A finished at 2 s, within its lease"), "{en}");
}

#[test]
fn the_set_up_says_when_a_pauses() {
    let mut i = ScenarioId::GcPause.defaults();
    i.pause_start = 8_000;
    let en = |i: &Inputs| text(Lang::En).setup(ScenarioId::GcPause, i);
    assert!(en(&i).contains("stops in a GC pause after working until 8 s"), "{}", en(&i));
    let ja = |i: &Inputs| text(Lang::Ja).setup(ScenarioId::GcPause, i);
    assert!(ja(&i).contains("8秒まで働いてから GC（メモリの掃除）で止まります"), "{}", ja(&i));
    assert!(ja(&ScenarioId::GcPause.defaults())
        .contains("A はロックを取った直後に GC（メモリの掃除）で止まります"));
}

#[test]
fn an_off_switch_hint_says_what_it_would_do() {
    let mut i = ScenarioId::GcPause.defaults();
    i.lease = false;
    assert_eq!(text(Lang::En).hint(Key::Lease, &i), "when on: the lock expires 10 s after it is granted");
    assert_eq!(text(Lang::Ja).hint(Key::Lease, &i), "オンなら、ロックは渡されてから10秒で外れる");
    assert_eq!(
        text(Lang::Ja).hint(Key::Fencing, &i),
        "資源は、これまでに見た番号より小さい番号の書き込みを拒否する"
    );
    i.fencing = false;
    assert!(text(Lang::Ja).hint(Key::Fencing, &i).starts_with("オンなら、資源は"));
}

#[test]
fn every_set_up_prompt_and_hint_fills_in_its_inputs() {
    for id in ScenarioId::ALL {
        for (i, _) in reachable(id) {
            for lang in [Lang::En, Lang::Ja] {
                let t = text(lang);
                let hints: Vec<String> = id.keys().iter().map(|&k| t.hint(k, &i)).collect();
                for filled in [t.setup(id, &i), t.prompt(id, &i)].iter().chain(&hints) {
                    assert!(!filled.contains(['{', '}', '#', '|']), "{id:?} {lang:?}: {filled}");
                    // An unknown fact would read "?": the only one is a question's own, at its end.
                    let q = filled.trim_end_matches('?');
                    assert!(!q.contains('?'), "{id:?} {lang:?}: {filled}");
                }
            }
        }
    }
    let t = text(Lang::En);
    let mut i = ScenarioId::Redlock.defaults();
    assert_eq!(t.prompt(ScenarioId::Redlock, &i), "N3's clock jumps 9 s ahead. What happens?");
    i.pause = 15_000;
    assert_eq!(
        t.prompt(ScenarioId::Redlock, &i),
        "N3's clock jumps 9 s ahead, and A pauses 15 s. What happens?"
    );
    assert!(t.setup(ScenarioId::Redlock, &i).ends_with(" A pauses 15 s right after taking the lock."));
    // A pause that starts late is said to: "wakes after 8 s" alone reads as waking at 8 s.
    let mut i = ScenarioId::GcPause.defaults();
    (i.pause_start, i.pause) = (3_000, 8_000);
    assert!(t.prompt(ScenarioId::GcPause, &i).starts_with("A pauses at 3 s and wakes after 8 s, "));
    assert!(text(Lang::Ja)
        .prompt(ScenarioId::GcPause, &i)
        .starts_with("A は3秒に止まり、8秒後に目を覚まします"));
    i.pause_start = 0;
    assert!(t.prompt(ScenarioId::GcPause, &i).starts_with("A wakes after 8 s, "));
    // A lease that runs out by the check (a link's ttl): the pause is said as the check's consequence.
    let mut i = ScenarioId::CheckThenPause.defaults();
    (i.ttl, i.pause) = (2_000, 3_000);
    assert!(t
        .prompt(ScenarioId::CheckThenPause, &i)
        .starts_with("A checks its lease at 2 s and, if it is still valid, pauses until 5 s,"));
    assert!(text(Lang::Ja)
        .prompt(ScenarioId::CheckThenPause, &i)
        .starts_with("A は2秒に期限を確かめ、まだ有効なら5秒まで止まります"));
    // etcd gives B's token at its request, so no set-up says tokens come with each grant.
    assert!(!text(Lang::Ja).setup(ScenarioId::Etcd, &ScenarioId::Etcd.defaults()).contains("渡すたび"));
    let mut i = ScenarioId::Etcd.defaults();
    assert!(t.prompt(ScenarioId::Etcd, &i).contains("leader crash off, fencing on"));
    // Off, a switch's hint says what it would do: the run on screen does not do it.
    assert_eq!(
        t.hint(Key::LeaderCrash, &i),
        "when on: the leader crashes at 5 s; a new one is ready 1 s later"
    );
    i.leader_crash = 7_500;
    assert_eq!(t.hint(Key::LeaderCrash, &i), "the leader crashes at 7.5 s; a new one is ready 1 s later");
    assert!(t.prompt(ScenarioId::Etcd, &i).contains("leader crash at 7.5 s"));
    assert!(t
        .setup(ScenarioId::Etcd, &i)
        .contains("renews its lease every 3.333 s, a paused one cannot. The leader crashes at 7.5 s;"));
    assert_eq!(
        text(Lang::Ja).prompt(ScenarioId::UnsafeRelease, &i),
        "A の処理は12秒に終わり、ただの DEL でロックを返します（フェンシングはオン）。何が起きる？"
    );
}

/// The times (in ms) a sentence may name for a run: when something happened, or a length the run was set up
/// with (the lease, a delay, a job's end, B's work, the lock-delay) or that a lease would have ended at.
fn times_of(run: &sim::Run, i: &Inputs) -> Vec<u64> {
    let mut t: Vec<u64> = run.trace.events.iter().map(|e| e.at).collect();
    t.extend(run.trace.leases.iter().map(|l| l.nominal_expiry));
    // Where a keepalive or a new leader moved a lease's end; a clock jump's and a pause's length.
    t.extend(run.trace.events.iter().filter_map(|e| match e.kind {
        sim::EventKind::Renew { expires, .. }
        | sim::EventKind::LockDelay { until: expires }
        | sim::EventKind::Election { until: expires } => Some(expires),
        _ => None,
    }));
    t.extend([i.jump, i.pause]);
    // (6 s: B's work in unsafe-release; 0.5 s: the SET NX retry interval in check-then-set.)
    t.extend([i.ttl, i.delay, i.work, i.b_work, crate::scenarios::LOCK_DELAY, 6_000, 500]);
    t
}

#[test]
fn every_time_the_narration_names_at_every_boundary_is_one_of_the_runs_own() {
    for id in ScenarioId::ALL {
        for i in boundary_runs(id) {
            let run = sim::run(&id.build(&i));
            let st = Story::of(&run, id, &i);
            let allowed = times_of(&run, &i);
            for lang in [Lang::En, Lang::Ja] {
                // Every sentence chosen has every fact it names (else the run would be told from its events).
                for line in st.lines().into_iter().filter(|&l| l != Line::Events) {
                    let said = fill_named((panels(lang).line)(line), &st);
                    assert!(said.is_some(), "{id:?} {i:?} {lang:?}: {line:?} lacks a fact");
                }
                let n = panels(lang).narrate(&st);
                assert!(!n.contains('?') && !n.contains('{'), "{id:?} {i:?} {lang:?}: {n}");
                // English "12.5 s", Japanese "12.5秒".
                let unit = if lang == Lang::En { " s" } else { "秒" };
                for (pos, _) in n.match_indices(unit) {
                    let digits: String = n[..pos]
                        .chars()
                        .rev()
                        .take_while(|c| c.is_ascii_digit() || *c == '.')
                        .collect::<Vec<_>>()
                        .into_iter()
                        .rev()
                        .collect();
                    let Some((whole, frac)) = digits.split_once('.').or(Some((&digits, ""))) else {
                        continue;
                    };
                    if whole.is_empty() {
                        continue;
                    }
                    let ms = whole.parse::<u64>().unwrap() * 1_000
                        + format!("{frac:0<3}").parse::<u64>().unwrap_or(0);
                    assert!(
                        allowed.contains(&ms),
                        "{id:?} {i:?} {lang:?}: {ms} ms is not a time of this run: {n}"
                    );
                }
            }
        }
    }
}

#[test]
fn a_leader_crash_that_is_off_is_said_so_in_the_search_report() {
    use crate::scenarios::search::{self, Bound};
    let en = panels(Lang::En);
    let b = Bound { key: Key::LeaderCrash, from: 0, to: 30_000, step: 500 };
    assert_eq!(en.range(&b), "leader crash off or 0.5–30 s");
    assert_eq!(panels(Lang::Ja).range(&b), "リーダーの故障なし、または0.5〜30秒");
    assert_eq!(en.values(&[(Key::Pause, 15_000), (Key::LeaderCrash, 0)]), "pause 15 s, leader crash off");
    assert_eq!(en.values(&[(Key::LeaderCrash, 5_000)]), "leader crash 5 s");
    // The etcd search names its smallest failure, with the crash off: the pause alone breaks it.
    let r = search::search(ScenarioId::Etcd, &ScenarioId::Etcd.defaults(), 1_000);
    let said = en.report(&r);
    assert!(said.contains("leader crash off or 1–30 s, every 1 s"), "{said}");
    assert!(
        said.contains(
            "“Unfenced gap: a stale write got in”, at pause start 0 s, pause 10 s, leader crash off."
        ),
        "{said}"
    );
}

#[test]
fn replicated_narrations_tell_what_saved_or_lost_the_lock() {
    let en = |id: ScenarioId, f: &dyn Fn(&mut Inputs)| both(&story(id, f)).0;
    // A crash just before the lease's end: no leader to expire it, so A's late write is safe.
    let n = en(ScenarioId::Etcd, &|i| (i.leader_crash, i.pause) = (9_800, 10_500));
    assert!(
        n.contains(
            "A woke at 10.5 s; its lease was due to end at 10 s, but without a leader nothing had expired it"
        ),
        "{n}"
    );
    assert!(!n.contains("before its lease ran out"), "{n}");
    // Re-armed, then run out during a longer pause: the narration does not deny the renewal.
    let n = en(ScenarioId::Etcd, &|i| (i.leader_crash, i.pause) = (5_000, 20_000));
    assert!(n.contains("so A's now ran to 17 s") && !n.contains("nothing renewed"), "{n}");
    // N3's key went early but nobody else held a majority when A wrote.
    let n = en(ScenarioId::Redlock, &|i| i.jump = 5_500);
    assert!(n.contains("A's key on N3 had expired at 4.5 s, so A wrote at 5 s without a majority"), "{n}");
    // A leader crash at the lease's very end comes after the expiry (rule 7): B has the lock, nothing saved A.
    let o = crate::sim::outcome(
        &ScenarioId::Etcd.build(&Inputs { leader_crash: 10_000, ..ScenarioId::Etcd.defaults() }),
    );
    assert_eq!(o.kind, OutcomeKind::Fenced);
}

/// The whole reading in `lang`, one string.
fn reading(lang: Lang) -> String {
    super::reading(lang).sections.iter().flat_map(|r| r.1.iter().copied()).collect::<Vec<_>>().join(" ")
}

#[test]
fn failover_with_wait_is_the_client_waiting_and_promotion_stays_best_effort() {
    let (en, ja) = (text(Lang::En), text(Lang::Ja));
    let id = ScenarioId::Failover;
    let on = Inputs { sync: true, ..id.defaults() };
    let off = id.defaults();
    let set = en.setup(id, &on);
    assert!(
        set.contains("token 33 (INCR), then waits (WAIT 1) until the replica acknowledges its SET and INCR."),
        "{set}"
    );
    assert!(
        set.contains("Promotion stays best-effort")
            && set.contains("this run assumes the promoted replica kept"),
        "{set}"
    );
    let set = en.setup(id, &off);
    assert!(
        set.contains("crashes at 0.5 s, before either reaches the replica;") && !set.contains("WAIT 1"),
        "{set}"
    );
    assert!(set.contains("Promotion stays best-effort") && !set.contains("this run assumes"), "{set}");
    let set = ja.setup(id, &on);
    assert!(
        set.contains("受け取ったと応答するまで WAIT 1 で待ちます。")
            && set.contains("フェイルオーバーはベストエフォートで"),
        "{set}"
    );
    assert!(
        ja.setup(id, &off).contains("番号 33（INCR）を取ります。プライマリはそのどちらも"),
        "{}",
        ja.setup(id, &off)
    );
    assert_eq!(
        en.hint(Key::Sync, &on),
        "after its SET and INCR, A blocks (WAIT 1) until the replica acknowledges them"
    );
    assert!(ja.hint(Key::Sync, &on).contains("WAIT 1 で待つ"));
    // The model's outcome is kept, and told as a wait by A, not a promise of safety.
    let st = Story::of(&sim::run(&id.build(&on)), id, &on);
    assert_eq!(st.kind, OutcomeKind::Safe);
    let (n_en, n_ja) = both(&st);
    assert!(
        n_en.starts_with("A had waited (WAIT 1) until the replica acknowledged its SET and INCR"),
        "{n_en}"
    );
    assert!(n_en.contains("WAIT does not make this safe: promotion is best-effort"), "{n_en}");
    assert!(
        n_ja.contains("WAIT 1 で待っていました") && n_ja.contains("フェイルオーバーはベストエフォート"),
        "{n_ja}"
    );
    // Break it: no failure with WAIT on is said to rest on the model's assumption.
    let r = crate::scenarios::search::search(id, &on, 1_000);
    assert!(r.safety.is_none());
    let (pen, pja) = (panels(Lang::En), panels(Lang::Ja));
    for t in [pen, pja] {
        let said = t.report(&r);
        assert!(said.ends_with(t.failover_assumes), "{said}");
    }
    assert!(pen.report(&r).contains("Safety: no failure within these bounds."));
    assert!(pen
        .failover_assumes
        .starts_with("No failure with WAIT on rests on the model's assumption, not a guarantee"));
    let r = crate::scenarios::search::search(id, &off, 1_000);
    assert!(r.safety.is_some() && !pen.report(&r).contains(pen.failover_assumes));
}

#[test]
fn a_new_etcd_leader_restarts_every_lease_at_its_full_ttl_plus_an_election_timeout() {
    let st = story(ScenarioId::Etcd, |i| i.leader_crash = 5_000);
    let (en, ja) = both(&st);
    assert!(
        en.contains("ready at 6 s, restarted every lease at its full 10 s plus an election timeout, so A's now ran to 17 s"),
        "{en}"
    );
    assert!(
        ja.contains(
            "その時点から TTL の10秒まるごとに選挙のタイムアウトを足した長さで数え直したので、A のリースは17秒まで"
        ),
        "{ja}"
    );
    let (en, ja) = (reading(Lang::En), reading(Lang::Ja));
    assert!(en.contains(
        "restarts every lease at its full TTL plus an election timeout, counted from when it takes over"
    ));
    assert!(en.contains("lessor Promote") && !en.contains("extends every lease"));
    assert!(ja
        .contains("引き継いだ時点から、すべてのリースを TTL まるごとと選挙のタイムアウトの分で数え直します"));
    assert!(!ja.contains("タイムアウトの分だけ延ばす"));
}

#[test]
fn zookeepers_token_is_the_lock_znodes_czxid() {
    for lang in [Lang::En, Lang::Ja] {
        let t = text(lang);
        let z = (t.scenario)(ScenarioId::Zookeeper);
        let setup = t.setup(ScenarioId::Zookeeper, &ScenarioId::Zookeeper.defaults());
        assert!(z.blurb.contains("czxid") && setup.contains("czxid"), "{lang:?}: {setup}");
        assert!(reading(lang).contains("czxid"));
    }
    let en = text(Lang::En).setup(ScenarioId::Zookeeper, &ScenarioId::Zookeeper.defaults());
    assert!(en.contains("Its sequence number orders the waiters; its czxid, the zxid of the transaction that created it, is its token"));
    assert!(!en.contains("znode's zxid"), "{en}");
    let en = reading(Lang::En);
    assert!(en.contains("Kleppmann names “the zxid or the znode version number”; DDIA the zxid or cversion"));
    assert!(!en.contains("znode's zxid"));
    assert!(text(Lang::Ja)
        .setup(ScenarioId::Zookeeper, &ScenarioId::Zookeeper.defaults())
        .contains("連番が待つ順番を決め"));
    let doc = include_str!("../../../docs/semantics.md");
    assert!(
        doc.contains("ZooKeeper's czxid of its znode")
            && !doc.contains("ZooKeeper's zxid")
            && !doc.contains("znode's zxid")
    );
}

#[test]
fn revisions_and_zxids_are_usually_not_consecutive() {
    assert!(reading(Lang::En).contains("larger and usually not consecutive"));
    assert!(reading(Lang::Ja).contains("たいてい連続もしません"));
    assert!(include_str!("../../../docs/semantics.md").contains("usually not consecutive"));
}

#[test]
fn redlock_is_read_from_both_sides() {
    let en = reading(Lang::En);
    for said in [
        "the elapsed-time check after acquiring makes delays and pauses during acquisition harmless",
        "a pause after acquiring hits every lock that expires",
        "clock jumps are an operational fault, avoided by an NTP that slews instead of stepping, and Redis should move to a monotonic clock (its page still says it uses none for TTLs)",
        "Kleppmann stood by his conclusions",
        "he advises: “please don't use Redlock”",
        "and tells users to implement fencing tokens",
        "as in Kleppmann's first counterexample: exactly the fault antirez calls operational",
    ] {
        assert!(en.contains(said), "{said}");
    }
    assert!(!en.contains("common advice"));
    let ja = reading(Lang::Ja);
    for said in [
        "取得の最中の遅れや停止は害にならない",
        "取得のあとの停止は、期限で外れるロックならどれにも起きる",
        "時計の飛びは運用の誤りで",
        "単調な時計",
        "クレップマンは自分の結論を変えず",
        "フェンシングトークンを実装するよう求めています",
        "antirez が運用の誤りと呼ぶ、まさにその故障です",
    ] {
        assert!(ja.contains(said), "{said}");
    }
    assert!(!ja.contains("一般的な助言"));
    let i = ScenarioId::Redlock.defaults();
    assert!(text(Lang::En)
        .setup(ScenarioId::Redlock, &i)
        .contains("Such a jump is the fault antirez calls operational"));
    assert!(text(Lang::Ja).setup(ScenarioId::Redlock, &i).contains("antirez が運用の誤りと呼び"));
}

#[test]
fn a_random_value_gives_nothing_to_order_and_this_storage_does_no_check_and_set() {
    let st = story(ScenarioId::Redlock, |_| {});
    assert_eq!(st.kind, OutcomeKind::Corrupted);
    let (en, ja) = both(&st);
    assert!(
        en.contains("a random value gives nothing to order, and this storage does no check-and-set with it"),
        "{en}"
    );
    assert!(!en.contains("nothing to compare"), "{en}");
    assert!(ja.contains("乱数の値には順序がなく、この資源はその値で check-and-set"), "{ja}");
    let set = text(Lang::En).setup(ScenarioId::Redlock, &ScenarioId::Redlock.defaults());
    assert!(set.contains("no token orders the writes, and this storage does no check-and-set"), "{set}");
}

#[test]
fn etcd_closes_the_gap_only_for_its_own_data() {
    let en = reading(Lang::En);
    assert!(en.contains(
        "In etcd a transaction comparing the lock key's revision does it only for data kept in etcd itself: for an \
         external store, checking and then writing is a race."
    ));
    let ja = reading(Lang::Ja);
    assert!(ja.contains(
        "etcd 自身に置いたデータだけです。外部の資源では、確かめてから書くまでの間に競合が起きます。"
    ));
}

#[test]
fn an_unfenced_gap_is_told_as_what_it_did_in_this_run() {
    // At and next to every boundary of every scenario: a gap says mutual exclusion broke, names the late
    // writer and the holder as the run has them, and says no work was lost only where the holder's own
    // write came after the late one and stood.
    let mut gaps = 0;
    for id in ScenarioId::ALL {
        for i in boundary_runs(id) {
            let run = sim::run(&id.build(&i));
            let st = Story::of(&run, id, &i);
            let (en, ja) = both(&st);
            if st.kind != OutcomeKind::UnfencedGap {
                assert!(
                    !en.contains("Mutual exclusion broke") && !ja.contains("排他制御は破れました"),
                    "{en}"
                );
                continue;
            }
            gaps += 1;
            let late = st.stale_write.unwrap();
            let holder = late.holder.unwrap();
            let (ln, hn) = (&run.trace.workers[late.worker].name, &run.trace.workers[holder].name);
            assert!(
                en.contains(&format!("Mutual exclusion broke: {ln}'s write landed while {hn} held the lock")),
                "{en}"
            );
            assert!(
                ja.contains(&format!(
                    "{hn} がロックを持っている間に {ln} の書き込みが届いたので、排他制御は破れました。"
                )) || ja.contains(&format!(
                    "{hn} がロックを受け取ったその瞬間に {ln} の書き込みが届いたので、排他制御は破れました。"
                )),
                "{ja}"
            );
            // The holder's write came later and was accepted: nothing it wrote was overwritten.
            let own = run.trace.writes.iter().find(|w| w.worker == holder).unwrap();
            assert!(own.at >= late.at && own.accepted, "{id:?} {i:?}");
            assert!(run.trace.writes.iter().all(|w| w.overwrote().is_none()), "{id:?} {i:?}");
            assert!(en.contains("no work was lost") && ja.contains("失われた仕事はありません"));
            assert!(!en.contains("data breaks"));
        }
    }
    assert!(gaps >= 10, "{gaps}");
    for t in [panels(Lang::En), panels(Lang::Ja)] {
        assert!(!t.found[0].contains("data breaks") && !t.found[0].contains("データが壊れる"));
    }
    // "Register the token" is this lab's remedy, set beside the nearest published practice.
    let st = story(ScenarioId::GcPause, |i| i.pause = 10_500);
    let (en, ja) = both(&st);
    assert!(en.ends_with("no work was lost; had B read the data before 10.5 s, its work would rest on a value A then changed. This lab's own remedy registers the new holder's token at its grant (“Register the token”), as BookKeeper fences a ledger before a new writer goes on."), "{en}");
    assert!(ja.contains("このラボ独自の対策") && ja.contains("BookKeeper"), "{ja}");
    let r = ScenarioId::RegisterToken;
    assert!(text(Lang::En)
        .setup(r, &r.defaults())
        .contains("this lab's remedy, nearest to BookKeeper fencing a ledger"));
    assert!(text(Lang::Ja).setup(r, &r.defaults()).contains("これはこのラボ独自の対策"));
    let en = reading(Lang::En);
    assert!(en.contains("This lab closes the gap by registering the new holder's token at the resource before it acts, its own remedy"));
    // Junqueira's note was read only through a summary: the page no longer cites it.
    assert!(en.contains("(BookKeeper's ledger fencing)") && !en.contains("Junqueira"));
    assert!(
        reading(Lang::Ja).contains("BookKeeper の台帳のフェンス") && !reading(Lang::Ja).contains("Junqueira")
    );
}

#[test]
fn the_failover_cites_why_a_reissued_token_breaks_fencing_and_the_japanese_reads_right() {
    let en = reading(Lang::En);
    assert!(en.contains(
        "DDIA asks of fencing tokens (“No two requests for a fencing token return the same value”)"
    ));
    assert!(en.contains(
        "“keeping a counter on one Redis node would not be sufficient, because that node may fail”"
    ));
    let ja = reading(Lang::Ja);
    assert!(
        ja.contains("DDIA がフェンシングトークンに求める一意性")
            && ja.contains("Redis の1台にカウンタを置くだけでは")
    );
    assert!(ja.contains("一つの不可分な条件付き書き込みで行い、更新された行数を確かめます"));
    assert!(ja.contains("しばらく（最長1分）誰も取れません"));
    assert!(ja.contains("邦訳『データ指向アプリケーションデザイン』（オライリー・ジャパン、2019）は初版の訳"));
    // The stopped worker's lines: every sentence in the past, as the rest of the run.
    for line in [crate::present::story::Line::KeepaliveStopped, crate::present::story::Line::SessionExpired] {
        let ja = (panels(Lang::Ja).line)(line);
        for sentence in ja.split_terminator('。') {
            assert!(sentence.ends_with("ました") || sentence.ends_with("でした"), "{sentence}");
            assert!(!sentence.contains("止まります") && !sentence.contains("止まるので"), "{sentence}");
        }
    }
}

#[test]
fn a_script_search_is_reported_by_its_values_names_in_both_languages() {
    use crate::present::breakit::{ScriptReport, ScriptSearch};
    let sc = crate::script::parse(crate::present::breakit::tests::THREE).unwrap();
    let mut search = ScriptSearch::new(&sc);
    while !search.run(100_000) {}
    let r = ScriptReport { millis: 12, ..search.report() };
    let f = r.safety.clone().unwrap();
    let (en, ja) = (panels(Lang::En).script_report(&r), panels(Lang::Ja).script_report(&r));
    assert!(
        en.starts_with("Ran 802,401 schedules in 12 ms: pause 0–20 s × b_asks 0–4 s, every 0.01 s."),
        "{en}"
    );
    let values = format!("pause {} s, b_asks {} s", seconds(f.values[0]), seconds(f.values[1]));
    assert!(en.contains(&values) && en.contains(text(Lang::En).outcome_title(f.outcome)), "{en}");
    assert!(
        ja.starts_with("802,401通りを12ミリ秒で実行しました（pause 0〜20秒 × b_asks 0〜4秒、0.01秒刻み）。"),
        "{ja}"
    );
    assert!(ja.contains(text(Lang::Ja).outcome_title(f.outcome)), "{ja}");
    let none = crate::script::parse("A: acquire, write, release").unwrap();
    let mut one = ScriptSearch::new(&none);
    one.run(10);
    assert!(panels(Lang::En).script_report(&one.report()).starts_with("Ran the one schedule"));
}

#[test]
fn the_challenge_names_a_scripts_value_in_both_languages() {
    use crate::present::text::Varied;
    let en = (panels(Lang::En).boundary_question)(Varied::Named("b_asks"), OutcomeKind::Corrupted);
    assert_eq!(en, "Drag the marker to the shortest b_asks at which newer work is overwritten.");
    let ja = (panels(Lang::Ja).boundary_question)(Varied::Named("b_asks"), OutcomeKind::Corrupted);
    assert!(ja.starts_with("新しい持ち主の仕事が上書きされるようになるのは、「b_asks」が何秒から"), "{ja}");
    assert_eq!((panels(Lang::En).outcome_map)(2_000, 9_000), "Verdict for every value from 2 to 9 s");
}

/// The page's notice, the embed protocol's error replies and locksim's argument errors say a bad value in
/// these English sentences (one table; no second wording).
#[test]
fn a_link_s_problems_in_english_as_the_page_the_embed_and_locksim_say_them() {
    use crate::present::params::{Problem, Query};
    let en = |q: &str| {
        Query::parse(q).problems.iter().map(|p| (text(Lang::En).problem)(&p.isolated())).collect::<Vec<_>>()
    };
    let said = en("?pause=30001&lease=%E2%80%AEno&fencing=Maybe&lang=xx&bogus=1");
    assert_eq!(
        said,
        [
            "pause: \u{2068}30001\u{2069} is outside 0–30000",
            "lease: “\u{2068}\u{202e}no\u{2069}” is not one of off, on",
            "fencing: “\u{2068}Maybe\u{2069}” is not one of off, on",
            "lang: “\u{2068}xx\u{2069}” is not one of ja, en",
        ]
    );
    assert_eq!(
        en("?scenario=redlock&fencing=on"),
        ["fencing: “\u{2068}on\u{2069}” is not available in redlock, so it stays off"]
    );
    assert_eq!(
        en("?script=A%3A+acquire&pause=3000"),
        ["\u{2068}pause\u{2069}: not applied to a script; set it in the script’s text"]
    );
    let unknown = (text(Lang::En).problem)(&Problem::UnknownKey("bogus".into()).isolated());
    assert_eq!(unknown, "unknown setting “\u{2068}bogus\u{2069}”");
}

// The states a careful reading found false (issue 31), each pinned where it was found, in both languages.

/// The narration of `id` with `f` applied to its defaults, in both languages, with its verdict.
fn told_at(id: ScenarioId, f: impl FnOnce(&mut Inputs)) -> (OutcomeKind, String, String) {
    let st = story(id, f);
    let (en, ja) = both(&st);
    (st.kind, en, ja)
}

#[test]
fn c_that_asks_after_the_del_is_not_said_to_have_waited() {
    // A's DEL at 10.5 s frees B's lock before C asks at 11 s.
    let (_, en, ja) = told_at(ScenarioId::UnsafeRelease, |i| i.work = 10_500);
    assert!(en.contains("C, asking at 11 s, found the lock free and took token 35 at 11 s"), "{en}");
    assert!(!en.contains("waiting since"), "{en}");
    assert!(ja.contains("11秒にロックを求めた C は") && !ja.contains("から待っていた C"), "{ja}");
    // At 11 s C asks in the DEL's millisecond, after it (A acts first): the lock is free.
    let (_, en, _) = told_at(ScenarioId::UnsafeRelease, |i| i.work = 11_000);
    assert!(en.contains("C, asking at 11 s, found the lock free"), "{en}");
    // From 11.001 s on, C is waiting when the DEL comes.
    let (_, en, _) = told_at(ScenarioId::UnsafeRelease, |i| i.work = 11_001);
    assert!(en.contains("so C, waiting since 11 s, took token 35 at once"), "{en}");
}

#[test]
fn a_compare_and_delete_names_whose_value_it_found() {
    let (kind, en, ja) = told_at(ScenarioId::UnsafeRelease, |i| {
        i.work = 16_500;
        i.compare_release = true;
    });
    assert_eq!(kind, OutcomeKind::Safe);
    // B released at 16 s and C took the lock then: the key holds C's value.
    assert!(en.contains("found C's value, not its own"), "{en}");
    assert!(ja.contains("自分のものではなく C のもの"), "{ja}");
    let (_, en, _) = told_at(ScenarioId::UnsafeRelease, |i| {
        i.work = 12_000;
        i.compare_release = true;
    });
    assert!(en.contains("found B's value, not its own"), "{en}");
    // Once C has released too, the key is nobody's.
    let (_, en, ja) = told_at(ScenarioId::UnsafeRelease, |i| {
        i.work = 30_000;
        i.compare_release = true;
    });
    assert!(en.contains("nobody held the lock any more") && !en.contains("'s value"), "{en}");
    assert!(ja.contains("もう誰もロックを持っていませんでした"), "{ja}");
    // A plain DEL then deletes C's key, and says so.
    let (_, en, _) = told_at(ScenarioId::UnsafeRelease, |i| i.work = 16_500);
    assert!(en.contains("its plain DEL deleted C's key, but nobody was left waiting"), "{en}");
}

#[test]
fn a_stall_that_ends_where_a_lease_would_have_is_not_called_longer() {
    for (id, pause, delay) in [(ScenarioId::GcPause, 10_000, 0), (ScenarioId::NetworkDelay, 0, 8_000)] {
        let (kind, en, ja) = told_at(id, |i| {
            i.lease = false;
            if pause > 0 {
                i.pause = pause;
            }
            if delay > 0 {
                i.delay = delay;
            }
        });
        assert_eq!(kind, OutcomeKind::Stalled, "{id:?}");
        assert!(en.contains("at 10 s, the very millisecond a lease would have freed it"), "{en}");
        assert!(!en.contains("a lease would have freed it at 10 s"), "{en}");
        assert!(ja.contains("10秒まで待たされました。リースがあっても外れるのはちょうどこの瞬間"), "{ja}");
        // The answer that labels this run holds of it: no "past" the lease.
        for lang in [Lang::En, Lang::Ja] {
            let answer = text(lang).choice(id, OutcomeKind::Stalled);
            assert!(!answer.contains("past") && !answer.contains("過ぎても"), "{answer}");
        }
    }
    let (_, en, _) = told_at(ScenarioId::GcPause, |i| {
        i.lease = false;
        i.pause = 10_001;
    });
    assert!(en.contains("at 10.001 s; a lease would have freed it at 10 s"), "{en}");
}

#[test]
fn a_late_write_at_the_holders_grant_leaves_it_no_time_to_read() {
    let (kind, en, ja) = told_at(ScenarioId::GcPause, |i| i.pause = 10_000);
    assert_eq!(kind, OutcomeKind::UnfencedGap);
    assert!(en.contains("in the very millisecond B got it") && !en.contains("read the data before"), "{en}");
    assert!(ja.contains("B がロックを受け取ったその瞬間に A の書き込みが届いた"), "{ja}");
    // A millisecond later B could have read first.
    let (_, en, _) = told_at(ScenarioId::GcPause, |i| i.pause = 10_001);
    assert!(en.contains("had B read the data before 10.001 s"), "{en}");
}

#[test]
fn a_failed_check_says_b_took_the_lock_when_it_did() {
    let (_, en, ja) = told_at(ScenarioId::CheckThenPause, |i| i.ttl = 1_000);
    assert!(en.contains("B had taken token 34 at 1 s"), "{en}");
    let (_, en, ja_later) = told_at(ScenarioId::CheckThenPause, |i| {
        i.ttl = 1_000;
        i.b_request = 5_000;
    });
    assert!(en.contains("A gave up without writing. B took token 34 at 5 s"), "{en}");
    assert!(
        ja.contains("番号 34 を取っていましたが、A が書き込まなかったので")
            && ja_later.contains("5秒に番号 34 を取りましたが、A が書き込まなかったので"),
        "{ja_later}"
    );
}

#[test]
fn etcd_tells_a_crash_at_the_expiry_a_renewed_lease_and_a_keepalive_at_the_new_leader() {
    // The expiry comes first in its millisecond: the crash does not hold it back.
    let (_, en, ja) = told_at(ScenarioId::Etcd, |i| i.leader_crash = 10_000);
    assert!(
        en.starts_with(
            "While A was paused its keepalives stopped too: its lease ran out at 10 s, etcd deleted A's key and \
             B's came first. Just after, in the same millisecond at 10 s, the leader crashed"
        ),
        "{en}"
    );
    assert!(!en.contains("nothing was granted or expired"), "{en}");
    // The expiry is told once, with its time.
    assert_eq!(en.matches("ran out").count(), 1, "{en}");
    assert!(ja.contains("10秒に A の期限が切れ、etcd は A のキーを消し、B のキーが先頭になりました。その直後、同じ10秒の瞬間にリーダーが落ちました"), "{ja}");
    assert_eq!(ja.matches("期限が切れ").count(), 1, "{ja}");
    // A woke at its expiry and wrote harmlessly: the expiry is still told once, in both languages.
    let (_, en, ja) = told_at(ScenarioId::Etcd, |i| (i.leader_crash, i.pause) = (10_000, 10_000));
    assert_eq!((en.matches("ran out").count(), ja.matches("期限が切れ").count()), (1, 1), "{en}\n{ja}");
    assert!(en.contains("A woke at 10 s and wrote with token 33 while nobody else held the lock"), "{en}");
    // Renewed to 13.333 s before its pause, A woke at 11 s within its lease, before the crash.
    let (_, en, _) = told_at(ScenarioId::Etcd, |i| {
        i.pause_start = 4_000;
        i.pause = 7_000;
        i.leader_crash = 12_000;
    });
    assert!(en.contains("A woke at 11 s, within its renewed lease"), "{en}");
    assert!(!en.contains("nothing had expired it"), "{en}");
    // The keepalive due as the new leader is ready renews the lease from then, shorter than the re-arming.
    let (_, en, ja) = told_at(ScenarioId::Etcd, |i| {
        i.pause_start = 8_000;
        i.leader_crash = 5_666;
    });
    assert!(en.contains("to 17.666 s for A's, but A's keepalive reached it in the same millisecond"), "{en}");
    assert!(en.contains("renewed the lease for 10 s from then: to 16.666 s"), "{en}");
    assert!(
        ja.contains("17.666秒までになりましたが")
            && ja.contains("改めて10秒に更新され、16.666秒までとなりました"),
        "{ja}"
    );
}

#[test]
fn redlock_says_only_n3s_key_expired_early() {
    let (kind, en, ja) = told_at(ScenarioId::Redlock, |i| {
        i.jump = 500;
        i.pause = 6_000;
    });
    assert_eq!(kind, OutcomeKind::UnfencedGap);
    assert!(!en.contains("A's keys expired"), "{en}");
    assert!(
        en.contains(
            "A's key there expired at 9.5 s and A no longer held a majority; its other keys expired at 10 s"
        ),
        "{en}"
    );
    assert!(ja.contains("9.5秒に消え、A は過半数を失いました"), "{ja}");
    // Without a jump every key goes at once.
    let (_, en, _) = told_at(ScenarioId::Redlock, |i| {
        i.jump = 0;
        i.pause = 6_000;
    });
    assert!(en.contains("A's keys expired at 10 s"), "{en}");
}

#[test]
fn verdict_lessons_and_break_it_labels_claim_only_what_every_run_of_theirs_shows() {
    for lang in [Lang::En, Lang::Ja] {
        let t = panels(lang);
        // Failover with fencing on is corrupted: no "lease alone", it had fencing too.
        let corrupted = t.outcome_lesson(OutcomeKind::Corrupted);
        assert!(!corrupted.contains("lease alone") && !corrupted.contains("期限だけ"), "{corrupted}");
        // A stall at its boundary waits no longer than a lease would have: it holds up, it does not stop.
        let stall = t.outcome_lesson(OutcomeKind::Stalled);
        assert!(!stall.contains("stops") && !stall.contains("止めて"), "{stall}");
        // The gap is reached with fencing off and under Redlock, which has no tokens.
        let gap = t.outcome_lesson(OutcomeKind::UnfencedGap);
        assert!(!gap.contains("fencing") && !gap.contains("フェンシング"), "{gap}");
        // Corrupted at the default pause with fencing off: B had released at 11 s, so no "at once".
        let broken = t.found(OutcomeKind::Corrupted);
        assert!(!broken.contains("at once") && !broken.contains("同時に"), "{broken}");
        // Stalled holds a waiter up; it does not stop "the system".
        let stalled = t.found(OutcomeKind::Stalled);
        assert!(!stalled.contains("system stops") && !stalled.contains("システムが止まる"), "{stalled}");
    }
    let st = story(ScenarioId::GcPause, |i| {
        i.pause = 15_000;
        i.fencing = false;
    });
    assert!(st.release[crate::present::story::B] == Some(11_000) && st.kind == OutcomeKind::Corrupted);
}

#[test]
fn the_reading_says_what_the_storage_accepts_and_what_it_cannot_fence() {
    let (en, ja) = (reading(Lang::En), reading(Lang::Ja));
    assert!(en.contains("An equal token passes, so that one holder can write more than once."), "{en}");
    assert!(ja.contains("同じ番号は通すので、一人の持ち主が何度でも書き込めます。"), "{ja}");
    // The source: a file system that does not understand the number cannot be fenced.
    assert!(
        !en.contains("file name") && en.contains("(an external service, a file system) cannot be fenced")
    );
    assert!(!ja.contains("ファイル名") && ja.contains("フェンスできず、冪等な処理が必要です"));
    assert!(en.contains("Simplified here: requests take no time") && ja.contains("要求に時間はかからず"));
    // And the core agrees: an equal token passes max-token fencing, and the failover run says what a strict
    // check would have changed.
    let st = story(ScenarioId::Failover, |i| i.fencing = true);
    assert_eq!(
        (st.kind, st.token[crate::present::story::A], st.token[crate::present::story::B]),
        (OutcomeKind::Corrupted, Some(33), Some(33))
    );
    let (en, ja) = both(&st);
    assert!(en.contains("a strict check (the stored number smaller than mine) would have refused this write, but the lock was still granted twice"), "{en}");
    assert!(ja.contains("厳密に確かめていれば、この書き込みは拒否されていたはずです。"), "{ja}");
}

#[test]
fn a_sentence_whose_fact_the_run_lacks_is_never_said_with_a_gap() {
    // The fenced run names A's expiry; without it, the run is told from its events, whole.
    let mut st = story(ScenarioId::GcPause, |i| i.pause = 15_000);
    st.a_expired = None;
    assert_eq!(st.fact(Fact::Expired), None);
    assert_eq!(Fact::named("no such fact"), None);
    for lang in [Lang::En, Lang::Ja] {
        let p = panels(lang);
        assert_eq!(p.narrate(&st), p.tell(&st.run));
    }
}

#[test]
fn a_leader_crash_after_the_expiry_is_told_where_it_happened() {
    // Expiry at 10 s, B's grant and write, the crash at 12 s, A's wake at 15 s: in that order.
    let (_, en, ja) = told_at(ScenarioId::Etcd, |i| i.leader_crash = 12_000);
    let at = |s: &str, part: &str| s.find(part).unwrap_or_else(|| panic!("{part} not in {s}"));
    assert!(at(&en, "wrote at 11 s") < at(&en, "The leader crashed at 12 s"), "{en}");
    assert!(at(&en, "The leader crashed at 12 s") < at(&en, "A woke at 15 s"), "{en}");
    assert!(
        at(&ja, "11秒に書き込みました") < at(&ja, "12秒にリーダーが落ちました")
            && at(&ja, "12秒にリーダーが落ちました") < at(&ja, "15秒に目覚めた"),
        "{ja}"
    );
    // A that wakes inside its first lease is not said to owe it to the renewed one.
    let (_, en, _) = told_at(ScenarioId::Etcd, |i| (i.pause, i.leader_crash) = (3_000, 2_000));
    assert!(
        en.contains("A woke at 3 s, before its lease ran out at 14 s") && !en.contains("renewed"),
        "{en}"
    );
}

#[test]
fn a_sentence_its_run_does_not_bear_out_is_never_said() {
    // Give the fenced run's story a grant B never got: the sentence that would say it is checked against
    // the run before it is said, and the run is told from its events instead.
    let mut st = story(ScenarioId::GcPause, |i| i.pause = 15_000);
    assert!(crate::present::claims::holds(&st, &st.lines()));
    st.grant[crate::present::story::B] = Some(12_000);
    assert!(!crate::present::claims::holds(&st, &st.lines()));
    for lang in [Lang::En, Lang::Ja] {
        let p = panels(lang);
        assert_eq!(p.narrate(&st), p.tell(&st.run));
    }
}

/// A consensus run tells A's expiry once, with its time, in the keepalive's or the session's sentence (issue
/// 31's last nit: it was told there without its time and again in the next sentence).
#[test]
fn a_consensus_run_tells_the_expiry_once() {
    for id in [ScenarioId::Etcd, ScenarioId::Zookeeper] {
        for (pause_start, pause) in [(0, 15_000), (5_000, 9_000)] {
            let (_, en, ja) = told_at(id, |i| {
                i.pause_start = pause_start;
                i.pause = pause;
            });
            let said = en.matches("ran out").count() + en.matches("expired at").count();
            assert_eq!(said, 1, "{id:?} {pause_start} {pause}: {en}");
            assert_eq!(ja.matches("切れ").count(), 1, "{id:?} {pause_start} {pause}: {ja}");
        }
    }
}

#[test]
fn a_consensus_expiry_names_b_next_in_line_only_once_b_has_asked() {
    // B asks at 1 s, before A's expiry at 10 s: its key comes first, its watch fires.
    let (_, en, ja) = told_at(ScenarioId::Etcd, |_| {});
    assert!(
        en.contains("etcd deleted A's key and B's came first") && ja.contains("B のキーが先頭になりました")
    );
    let (_, en, ja) = told_at(ScenarioId::Zookeeper, |_| {});
    assert!(
        en.contains("its znode went with it: B's watch fired")
            && ja.contains("それを見張っていた B に通知が届きました")
    );
    // B asks at 15 s, after it: no key or watch of B's is there yet.
    for id in [ScenarioId::Etcd, ScenarioId::Zookeeper] {
        let (_, en, ja) = told_at(id, |i| (i.pause, i.b_request) = (12_000, 15_000));
        assert!(
            en.contains("at 10 s") && !en.contains("B's came first") && !en.contains("B's watch"),
            "{en}"
        );
        assert!(!ja.contains("B のキーが先頭") && !ja.contains("B の見張り"), "{ja}");
        assert!(en.contains("B took token 34 at 15 s"), "{en}");
    }
}

#[test]
fn zookeeper_tells_a_session_not_a_lease() {
    let (kind, en, ja) = told_at(ScenarioId::Zookeeper, |i| i.pause = 9_000);
    assert_eq!(kind, OutcomeKind::Safe);
    assert!(en.starts_with("A woke at 9 s, before its session would have expired at 10 s"), "{en}");
    assert!(ja.starts_with("A はセッションが切れる10秒より前の9秒に目覚めて"), "{ja}");
    assert!(!en.contains(" lease") && !ja.contains("リース"), "{en}\n{ja}");
}

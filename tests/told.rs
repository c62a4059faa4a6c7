//! Narration told from events, for any program: random scripts (random workers, steps, settings and lock
//! services), and every number and claim of every sentence, in both languages, checked against the trace.
#![cfg(not(target_arch = "wasm32"))]

use fencing_lab::present::claims;
use fencing_lab::present::geom::seconds;
use fencing_lab::present::params::Lang;
use fencing_lab::present::text;
use fencing_lab::present::told::{self, Told};
use fencing_lab::present::why;
use fencing_lab::script;
use fencing_lab::sim::{self, EventKind};
use proptest::prelude::*;

mod common;
use common::programs::any_program;
use common::{numbers, slip};

/// Every number the fact's own event(s) carry: its times as seconds, tokens, server numbers.
fn allowed(run: &sim::Run, fact: &Told) -> Vec<String> {
    let mut ok: Vec<String> = Vec::new();
    let mut time = |t: u64| ok.push(seconds(t));
    match *fact {
        Told::Waited { at, .. }
        | Told::WaitedDown { at, .. }
        | Told::KeyLost { at, .. }
        | Told::Expired { at, .. }
        | Told::Read { at, .. }
        | Told::Crashed { at, .. } => time(at),
        Told::Released { at, .. } | Told::Checked { at, .. } => time(at),
        Told::Granted { at, expires, .. } => {
            time(at);
            expires.into_iter().for_each(time);
        }
        Told::Unavailable { at, until } | Told::Paused { at, until, .. } | Told::LeaderLost { at, until } => {
            time(at);
            time(until);
        }
        Told::Sent { at, arrives, .. } => {
            time(at);
            time(arrives);
        }
        Told::Rearmed { at, expires, .. } => {
            time(at);
            time(expires);
        }
        Told::Jumped { at, by, .. } => {
            time(at);
            time(by);
        }
        Told::Registered { at, .. }
        | Told::Stored { at, .. }
        | Told::Down { at, .. }
        | Told::Promoted { at, .. } => time(at),
    }
    // Tokens and server numbers: only those the run's own events carry.
    for e in &run.trace.events {
        match e.kind {
            EventKind::Grant { token, .. } | EventKind::Register { token, .. } => ok.push(token.to_string()),
            EventKind::Store { highest_before: Some(h), .. } => ok.push(h.to_string()),
            EventKind::Node { node, .. } => ok.push((node + 1).to_string()),
            _ => {}
        }
    }
    ok
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn every_number_and_claim_of_the_narration_is_the_trace_s(sc in any_program()) {
        // Any program prints as a script that reads back as the same program.
        let back = script::parse(&script::print(&sc)).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(&back, &sc);
        let run = sim::run(&sc);
        let names: Vec<String> = sc.workers.iter().map(|w| w.name.clone()).collect();
        let facts = told::told(&run);
        for fact in &facts {
            let ok = allowed(&run, fact);
            for (lang, text) in [("en", told::en(fact, &names)), ("ja", told::ja(fact, &names))] {                for n in numbers(&text) {
                    prop_assert!(ok.contains(&n), "{lang}: {n} in {text:?} is not in {fact:?}");
                }
                // The page's one vocabulary.
                if lang == "ja" {
                    prop_assert_eq!(slip(&text), None, "{}", text);
                }
                // "No longer held" only of a worker that had taken the lock; "did not hold" of one that had not.
                if let Told::Stored { worker, stale: true, .. } | Told::Released { worker, freed: None, said: false, .. } = *fact {
                    let took = |t: &dyn Fn(u64) -> bool| run.trace.events.iter().any(|e| {
                        t(e.at) && matches!(e.kind, EventKind::Grant { worker: w, .. } if w == worker)
                    });
                    let at = fact.at();
                    let no_longer = if lang == "en" { text.contains("no longer") } else { text.contains("もう") };
                    prop_assert!(if no_longer { took(&|t| t <= at) } else { !took(&|t| t < at) }, "{}", text);
                }
                if let Told::Stored { accepted, worker, .. } = *fact {
                    let (yes, no) = if lang == "en" { ("accepted", "rejected") } else { ("受け付け", "拒否") };
                    prop_assert_eq!(text.contains(yes), accepted, "{}", text);
                    prop_assert_eq!(text.contains(no), !accepted, "{}", text);
                    prop_assert!(text.contains(&names[worker]));
                }
            }
        }
        // Every fact and every reason the narration tells claims only what the trace shows; each reason
        // reads in both languages, with no number of its own.
        for (fact, why) in why::explained(&sc, &run) {
            let mut all = fact.claims();
            if let Some(w) = why {
                all.extend(w.claims());
                for text in [why::en(&w, &names), why::ja(&w, &names)] {
                    prop_assert!(numbers(&text).iter().all(|n| allowed(&run, &fact).contains(n)), "{}", text);
                    prop_assert_eq!(slip(&text), None, "{}", text);
                }
            }
            for c in all {
                prop_assert!(c.check(&run), "{:?} of {:?} {:?}\n{}", c, fact, why, script::print(&sc));
            }
        }
        // The verdict's lesson, as the page words it for this run, and Break it's words for a failure, hold
        // of it.
        let lesson = told::Lesson::of(&run);
        let said = text::panels(Lang::En).lesson(&run);
        for c in lesson.claims(&run).into_iter().chain(claims::broken(&run)) {
            let kind = run.outcome.kind;
            prop_assert!(c.check(&run), "{:?} of {:?} ({:?}): {}\n{}", c, kind, lesson, said, script::print(&sc));
        }
        // The plainer words only where the verdict's own would claim what the run does not show.
        if !matches!(lesson, told::Lesson::Verdict(_)) {
            let own = told::Lesson::Verdict(run.outcome.kind).claims(&run);
            prop_assert!(!own.iter().all(|c| c.check(&run)), "{:?}\n{}", lesson, script::print(&sc));
        }
        // Every accepted and every rejected write is told, in order.
        let stored = facts.iter().filter(|f| matches!(f, Told::Stored { .. })).count();
        prop_assert_eq!(stored, run.trace.writes.len());
        let times: Vec<u64> = facts.iter().map(Told::at).collect();
        prop_assert!(times.windows(2).all(|w| w[0] <= w[1]));
        // A projector's steps: each moment once, in order, holding exactly the facts told then, every one a
        // time of the trace.
        let moments = told::moments(&run);
        prop_assert!(moments.windows(2).all(|w| w[0].0 < w[1].0));
        prop_assert!(moments.iter().all(|(at, fs)| !fs.is_empty() && fs.iter().all(|f| f.at() == *at)));
        prop_assert!(moments.iter().all(|(at, _)| run.trace.events.iter().any(|e| e.at == *at)));
        let flat: Vec<Told> = moments.into_iter().flat_map(|(_, fs)| fs).collect();
        prop_assert_eq!(flat, facts);
    }
}

#[test]
fn the_source_s_question_told_from_its_events() {
    let sc = script::parse(
        "A: acquire, pause {pause=15s}, write, release\nB: idle 1s, acquire, work 1s, write, release\n",
    )
    .unwrap();
    let run = sim::run(&sc);
    let names = vec!["A".to_owned(), "B".to_owned()];
    let en: Vec<String> = told::told(&run).iter().map(|f| told::en(f, &names)).collect();
    assert_eq!(
        en,
        [
            "At 0 s A took the lock with token 33, its lease until 10 s.",
            "From 0 s to 15 s A was paused.",
            "At 1 s B asked for the lock; A held it, so B waited.",
            "At 10 s A's lease ran out.",
            "At 10 s B took the lock with token 34, its lease until 20 s.",
            "At 11 s the storage accepted B's write with token 34.",
            "At 11 s B released the lock.",
            "At 15 s the storage rejected A's write with token 33 (it had seen 34). A no longer held the lock.",
            "At 15 s A released: nothing changed.",
        ]
    );
    let ja: Vec<String> = told::told(&run).iter().map(|f| told::ja(f, &names)).collect();
    assert_eq!(ja[7], "15秒に資源はすでに 34 を見ていたので、A の番号 33 の書き込みを拒否しました。A はもうロックを持っていませんでした。");
    assert_eq!(ja[4], "10秒に B がロックを取りました（番号 34、20秒までのリース）。");
}

/// A worker that writes without ever taking the lock carries no token: with fencing on the storage refuses
/// it, and neither the narration nor the verdict speaks of a lock it "no longer" held or of an "older" token.
#[test]
fn a_write_without_the_lock_is_told_as_one() {
    let sc = script::parse("A: acquire, work 2s, write, release\nB: write, release\n").unwrap();
    let run = sim::run(&sc);
    let names = vec!["A".to_owned(), "B".to_owned()];
    let facts = told::told(&run);
    let en: Vec<String> = facts.iter().map(|f| told::en(f, &names)).collect();
    let ja: Vec<String> = facts.iter().map(|f| told::ja(f, &names)).collect();
    assert_eq!(run.outcome.kind, sim::OutcomeKind::Fenced);
    assert!(
        en.contains(&"At 0 s the storage rejected B's write. B did not hold the lock; A did.".to_owned()),
        "{en:#?}"
    );
    // Its write's sentence has just said so: the release does not say it again.
    assert!(en.contains(&"At 0 s B released: nothing changed.".to_owned()), "{en:#?}");
    // A release with nothing said before it says whether the worker held the lock.
    let alone = sim::run(&script::parse("A: acquire, work 2s, release\nB: release\n").unwrap());
    let said: Vec<String> = told::told(&alone).iter().map(|f| told::en(f, &names)).collect();
    assert!(
        said.contains(&"At 0 s B released, but it did not hold the lock: nothing changed.".to_owned()),
        "{said:#?}"
    );
    assert!(
        ja.contains(
            &"0秒に資源は B の書き込みを拒否しました。B はロックを持っておらず、持っていたのは A でした。"
                .to_owned()
        ),
        "{ja:#?}"
    );
    assert!(ja.iter().all(|l| !l.contains("もう")), "{ja:#?}");
    assert_eq!(
        text::panels(Lang::En).lesson(&run),
        "Fencing protected the data: the storage refused a write that carried no token."
    );
    assert_eq!(
        text::panels(Lang::Ja).lesson(&run),
        "フェンシングがデータを守りました。資源は番号のない書き込みを拒否しました。"
    );
    assert!(told::Lesson::of(&run).claims(&run).iter().all(|c| c.check(&run)));
}

/// A script's run whose verdict's own lesson it does not bear out is taught by the plainer one that holds
/// (the catalogue's runs always get their verdict's own: `present::claims`).
#[test]
fn a_script_s_lesson_is_one_its_run_bears_out() {
    use sim::OutcomeKind::*;
    use told::Lesson::*;
    let cases = [
        // A waits for the lock it holds itself: nobody died, yet nobody ever frees it.
        (
            "expiry off\nA: acquire, acquire\n",
            Orphaned,
            NeverGot,
            "A worker waited for the lock to the end and never got it.",
            "ロックを待っていたワーカーは、最後までロックを取れませんでした。",
        ),
        // A's late write lands in B's lease, and B never writes.
        (
            "lease 10s\nfencing off\nA: acquire, pause 12s, write\nB: idle 11s, acquire\n",
            UnfencedGap,
            GapAlone,
            "A stale write landed while another worker held the lock, and the storage accepted it.",
            "別のワーカーがロックを持っている間に古い書き込みが届き、資源はそれを受け付けました。",
        ),
        // B writes without ever taking the lock, before A's first write: not an old write.
        (
            "fencing off\nA: acquire, work 3s, write, release\nB: idle 1s, write\n",
            UnfencedGap,
            GapNeverHeld,
            "A worker that had not taken the lock wrote while another held it, and the storage accepted the write.",
            "ロックを取っていないワーカーが、別のワーカーがロックを持っている間に書き込み、資源はそれを受け付けました。",
        ),
        // B writes over A's work without ever taking the lock.
        (
            "fencing off\nA: acquire, write, release\nB: idle 5s, write\n",
            Corrupted,
            NeverHeld,
            "A worker that had not taken the lock overwrote the work of one that had.",
            "ロックを取っていないワーカーが、ロックを取ったワーカーの仕事を上書きしました。",
        ),
        // The catalogue's shape: A's lease ran out during its pause, and its write lands after B's.
        (
            "lease 10s\nfencing off\nA: acquire, pause 15s, write\nB: idle 11s, acquire, write\n",
            Corrupted,
            Verdict(Corrupted),
            "A worker that had lost the lock overwrote newer work.",
            "ロックを失っていたワーカーが、新しい持ち主の仕事を上書きしました。",
        ),
    ];
    for (source, kind, lesson, en, ja) in cases {
        let run = sim::run(&script::parse(source).unwrap());
        assert_eq!((run.outcome.kind, told::Lesson::of(&run)), (kind, lesson), "{source}");
        assert_eq!(text::panels(Lang::En).lesson(&run), en);
        assert_eq!(text::panels(Lang::Ja).lesson(&run), ja);
        assert!(lesson.claims(&run).iter().all(|c| c.check(&run)), "{source}");
        // The verdict's own words would claim what this run does not show.
        if !matches!(lesson, Verdict(_)) {
            assert!(!Verdict(kind).claims(&run).iter().all(|c| c.check(&run)), "{source}");
        }
    }
}

/// What a failover's or Redlock's events mean is told as such: the primary and the replica by their names,
/// a wait while the primary is down as that, one server's early-dropped key as the lost majority it was (not
/// as the lease's end), and a worker asking again for a lock it holds as waiting on itself.
#[test]
fn servers_and_self_waits_are_told_as_what_they_were() {
    let tell = |source: &str| {
        let sc = script::parse(source).unwrap();
        let run = sim::run(&sc);
        let names: Vec<String> = sc.workers.iter().map(|w| w.name.clone()).collect();
        let facts = told::told(&run);
        let en: Vec<String> = facts.iter().map(|f| told::en(f, &names)).collect();
        let ja: Vec<String> = facts.iter().map(|f| told::ja(f, &names)).collect();
        (en, ja)
    };
    let (en, ja) = tell(
        "service failover, crash 0.5s, promote 2s, wait off\nA: acquire, work 5s, write, release\n\
         B: idle 1s, acquire, work 1s, write, release\n",
    );
    assert_eq!(
        en[1..4],
        [
            "At 0.5 s the primary crashed.",
            "At 1 s B asked for the lock; the primary was down, so B waited.",
            "At 2 s the replica was promoted, with neither the lock's key nor its counter.",
        ]
    );
    assert_eq!(ja[1], "0.5秒にプライマリが落ちました。");
    assert_eq!(ja[2], "1秒に B がロックを求めましたが、プライマリが落ちていたので待ちました。");
    // After the promotion the replica holds A's key: B waits on A.
    let (en, _) = tell(
        "service failover, crash 0.5s, promote 2s, wait on\nA: acquire, work 5s, write, release\n\
         B: idle 3s, acquire, work 1s, write, release\n",
    );
    assert!(en.contains(&"At 3 s B asked for the lock; A held it, so B waited.".to_owned()), "{en:#?}");

    let redlock = "service redlock, servers 5, drift 102ms, jump N3 at 2s by 9s\nreach A: N1, N2, N3\n\
                   A: acquire, work 6s, write, release\nB: idle 3s, try-acquire every 1s, work 1s, write, release\n";
    let (en, ja) = tell(redlock);
    assert!(
        en.contains(&"At 2 s N3 dropped A's key early: A no longer held a majority.".to_owned()),
        "{en:#?}"
    );
    assert!(!en.iter().any(|l| l.contains("A's lease ran out")), "{en:#?}");
    assert!(
        ja.contains(&"2秒に N3 が A のキーを期限より早く消したので、A は過半数を失いました。".to_owned()),
        "{ja:#?}"
    );
    // Without the jump every key goes at the lease's end, together: that is the lease running out.
    let (en, _) = tell(&redlock.replace("by 9s", "by 0s").replace("work 6s", "pause 12s"));
    assert!(en.iter().any(|l| l.ends_with("A's lease ran out.")), "{en:#?}");
    assert!(!en.iter().any(|l| l.contains("dropped")), "{en:#?}");

    let (en, ja) = tell("A: acquire, acquire, write, release\n");
    assert_eq!(en[1], "At 0 s A asked for the lock again; it held it already, so it waited.");
    assert_eq!(ja[1], "0秒に A がもう一度ロックを求めましたが、自分ですでに持っていたので待ちました。");
}

//! The recordings of real runs the page fetches (`assets/recordings.txt`, written with
//! `assets/recordings.json` by `scripts/record.sh`): the two files agree, the events' numeric form, reading
//! a recording, and that each one, replayed through the core, still gives the verdicts it was recorded with.
#![cfg(not(target_arch = "wasm32"))]

use fencing_lab::present::markup;
use fencing_lab::present::params::Lang;
use fencing_lab::present::recordings;
use fencing_lab::present::text::panels;
use fencing_lab::scenarios::Kind;
use fencing_lab::scenarios::{Inputs, ScenarioId};
use fencing_lab::sim::{self, Event, EventKind};

#[test]
fn every_event_of_every_scenario_reads_back_from_its_numbers() {
    let mut kinds = std::collections::HashSet::new();
    for id in ScenarioId::ALL {
        for pause in [0, 4_000, 10_000, 10_500, 15_000, 28_000] {
            for fencing in [true, false] {
                let inputs = Inputs { pause, delay: pause, work: pause, fencing, ..id.defaults() };
                for event in sim::run(&id.build(&inputs)).trace.events {
                    assert_eq!(Event::from_numbers(&event.to_numbers()), Some(event), "{event:?}");
                    kinds.insert(std::mem::discriminant(&event.kind));
                }
            }
        }
    }
    // Fields the catalogue never sets to every value: each Option both ways.
    let odd = [
        EventKind::Grant { worker: 2, token: 7, expires: None, over: Some(1) },
        EventKind::Wait { worker: 1, holder: None },
        EventKind::Write { worker: 0, token: None, arrives: 5 },
        EventKind::Release { worker: 1, token: None, freed: Some(2) },
        EventKind::Store {
            worker: 0,
            token: None,
            sent: 1,
            accepted: true,
            highest_before: None,
            written_before: Some(3),
            stale: true,
            holder: None,
        },
    ];
    for kind in odd {
        let event = Event { at: 12_345, kind };
        assert_eq!(Event::from_numbers(&event.to_numbers()), Some(event));
    }
    assert!(kinds.len() >= 12, "the catalogue shows most kinds of event: {}", kinds.len());
}

#[test]
fn numbers_that_stand_for_no_event_are_refused() {
    for bad in [
        &[][..],
        &[5],
        &[5, 0],                // a request without its worker
        &[5, 0, 1, 2],          // one field too many
        &[5, 14, 0],            // no such kind
        &[-1, 0, 0],            // before time began
        &[5, 0, -1],            // no worker
        &[5, 3, 0, 2],          // a GET that saw the lock "2"
        &[5, 2, 0, -2, -1, -1], // a negative token
    ] {
        assert_eq!(Event::from_numbers(bad), None, "{bad:?}");
    }
}

#[test]
fn the_shipped_recordings_replay_to_the_verdicts_they_were_recorded_with() {
    let all = recordings::all();
    assert_eq!(all.len(), 28, "record.sh records twenty-eight combinations");
    for r in &all {
        let real = r.run();
        assert_eq!(real.outcome.kind, r.real, "{:?} on {}: the real run, replayed", r.scenario, r.backend);
        // The simulation still says what it said when the run was recorded.
        let simulated = sim::run(&r.scenario.build(&r.inputs)).outcome.kind;
        assert_eq!(simulated, r.simulated, "{:?} {:?}: re-run scripts/record.sh", r.scenario, r.inputs);
        assert_eq!(r.real, r.simulated, "{:?} on {}: real and simulated agree", r.scenario, r.backend);
        assert!(["redis", "etcd", "zookeeper"].contains(&r.backend));
        assert_eq!(r.recorded.len(), 10);
        assert_eq!(real.trace.workers.len(), r.scenario.build(&r.inputs).workers.len());
    }
}

#[test]
fn a_recording_matches_its_scenario_with_the_same_switches_whatever_the_dragged_value() {
    let all = recordings::all();
    let shown = |id: ScenarioId, inputs: Inputs| -> Vec<(&str, u64)> {
        all.iter().filter(|r| r.matches(id, &inputs)).map(|r| (r.backend, r.inputs.pause)).collect()
    };
    let base = Inputs::default();
    assert_eq!(shown(ScenarioId::GcPause, base), [("redis", 15_000), ("redis", 11_500), ("etcd", 15_000)]);
    assert_eq!(shown(ScenarioId::GcPause, Inputs { pause: 1, ..base }).len(), 3);
    assert_eq!(
        shown(ScenarioId::GcPause, Inputs { fencing: false, ..base }),
        [("redis", 15_000), ("etcd", 15_000)]
    );
    assert_eq!(shown(ScenarioId::GcPause, Inputs { lease: false, ..base }), []);
    assert_eq!(shown(ScenarioId::LockDelay, base), []);
    let crash = ScenarioId::Crash.defaults();
    assert_eq!(shown(ScenarioId::Crash, crash).len(), 1);
    // etcd was recorded on one member, and on three with a leader crash: each shows with its switch.
    let etcd = ScenarioId::Etcd.defaults();
    assert_eq!(shown(ScenarioId::Etcd, etcd).len(), 1);
    assert_eq!(shown(ScenarioId::Etcd, Inputs { leader_crash: 5_000, ..etcd }).len(), 1);
    // Every scenario but lock-delay has a recording.
    for id in ScenarioId::ALL {
        let recorded = all.iter().any(|r| r.scenario == id);
        let none = [ScenarioId::LockDelay];
        assert_eq!(recorded, !none.contains(&id), "{id:?}");
    }
    let failover = ScenarioId::Failover.defaults();
    assert_eq!(shown(ScenarioId::Failover, failover).len(), 1);
    assert_eq!(shown(ScenarioId::Failover, Inputs { sync: true, ..failover }).len(), 1);
    // A 10 s lease recorded is not the scenario of a 5 s lease; a timing the recording itself changed (B's
    // work, named in its caption) does not hide it.
    assert_eq!(shown(ScenarioId::GcPause, Inputs { ttl: 5_000, ..base }), []);
    assert_eq!(shown(ScenarioId::Etcd, Inputs { ttl: 5_000, ..etcd }), []);
    assert_eq!(shown(ScenarioId::GcPause, Inputs { b_work: 2_000, ..base }), [("redis", 11_500)]);
    assert_eq!(shown(ScenarioId::GcPause, Inputs { pause_start: 3_000, ..base }), []);
}

#[test]
fn every_recording_in_the_file_reads_and_a_damaged_one_is_refused() {
    let lines = recordings::FILE.lines().filter(|l| !l.starts_with('#')).count();
    assert_eq!(recordings::all().len(), lines, "every recording in the file reads");
    let good = "crash\tlease=on\tredis\t7\t2026-11-30\tsafe\tsafe\t3\t10\t0,0,0 0,2,0,33,10000,-1";
    assert_eq!(recordings::line(good).map(|r| (r.events.len(), r.speed)), Some((2, "10")));
    let half = good.replacen("\t10\t", "\t1/2\t", 1);
    let half: &'static str = Box::leak(half.into_boxed_str());
    assert_eq!(recordings::line(half).map(|r| r.speed), Some("1/2"));
    for bad in [
        good.replacen("crash", "nope", 1),
        good.replacen("lease=on", "lease=maybe", 1),
        good.replacen("lease=on", "lease", 1),
        good.replacen("\tsafe\t", "\tfine\t", 1),
        good.replacen("0,0,0 ", "0,0,x ", 1),
        good.replacen("0,0,0 ", "0,0,0,9,9 ", 1),
        good.replacen("\t3\t", "\t\t", 1),
        good.replacen("\t10\t", "\t", 1),
    ] {
        let bad: &'static str = Box::leak(bad.into_boxed_str());
        assert!(recordings::line(bad).is_none(), "{bad}");
    }
}

#[test]
fn the_page_s_file_says_what_the_full_recordings_say() {
    // recordings.txt is what the page fetches; recordings.json is what scripts/record.sh recorded. Each line
    // must be the JSON's run, field for field.
    let json: serde_json::Value =
        serde_json::from_str(include_str!("../assets/recordings.json")).expect("recordings.json reads");
    let runs = json.as_array().unwrap();
    let all = recordings::all();
    assert_eq!(all.len(), runs.len());
    for (r, j) in all.iter().zip(runs) {
        assert_eq!(r.scenario.id(), j["scenario"].as_str().unwrap());
        assert_eq!(
            (r.backend, r.version, r.recorded),
            (j["backend"].as_str().unwrap(), j["version"].as_str().unwrap(), j["recorded"].as_str().unwrap())
        );
        assert_eq!(
            (r.simulated.name(), r.real.name()),
            (j["simulated"].as_str().unwrap(), j["real"].as_str().unwrap())
        );
        assert_eq!(r.max_jitter_ms, j["max_jitter_ms"].as_u64().unwrap());
        // How fast it ran: scale 0.1 is ten times faster, 2 half speed.
        let scale = j["scale"].as_f64().unwrap();
        let speed =
            if scale > 1.0 { format!("1/{}", scale.round()) } else { format!("{}", (1.0 / scale).round()) };
        assert_eq!(r.speed, speed);
        let events: Vec<Vec<i64>> = r.events.iter().map(|e| e.to_numbers()).collect();
        let theirs: Vec<Vec<i64>> = serde_json::from_value(j["events"].clone()).unwrap();
        assert_eq!(events, theirs, "{:?} on {}", r.scenario, r.backend);
        let mut inputs = r.scenario.defaults();
        for (k, v) in j["inputs"].as_object().unwrap() {
            let v = v.as_str().map_or_else(|| v.to_string(), str::to_owned);
            fencing_lab::present::params::set_input(&mut inputs, k, &v).unwrap();
        }
        assert_eq!(r.inputs, inputs);
    }
}

#[test]
fn each_caption_names_every_timing_its_recording_changed_in_both_languages() {
    for r in &recordings::all() {
        let defaults = r.scenario.defaults();
        for lang in [Lang::En, Lang::Ja] {
            let t = panels(lang);
            let html = markup::real_caption(r, &r.run(), t);
            for key in r.scenario.keys().iter().chain(r.scenario.extras()) {
                let spec = key.spec();
                let changed = spec.get(&r.inputs) != spec.get(&defaults);
                if matches!(spec.kind, Kind::Ms { .. }) && (changed || r.scenario.dragged() == Some(*key)) {
                    let said = t.values(&[(*key, spec.get(&r.inputs))]);
                    assert!(html.contains(&said), "{:?} {lang:?}: {said} missing from {html}", r.scenario);
                }
            }
            assert!(html.contains(r.version) && html.contains(r.recorded), "{html}");
            // How fast it ran: a run at another speed than the scenario's own says so.
            assert!(html.contains(&(t.real_speed)(r.speed)), "{html}");
            let titles = (t.text.outcome_title(r.real), t.text.outcome_title(r.simulated));
            assert!(html.contains(titles.0) && html.contains(titles.1));
        }
    }
}

/// Each caption says how fast its run went, in both languages: Redis ten times faster, etcd in real time,
/// ZooKeeper twice as fast, and register-token on etcd at half speed (etcd's lessor revokes a lease up to
/// 500 ms of real time late, which would take the whole 0.5 s between B's grant and A's wake at scale 1).
#[test]
fn each_caption_says_how_fast_its_run_went() {
    let all = recordings::all();
    let speed = |id: ScenarioId, backend: &str| {
        let r = all.iter().find(|r| r.scenario == id && r.backend == backend).expect("a recording");
        assert_eq!(r.inputs, id.defaults(), "{id:?} on {backend}: recorded at its defaults");
        let caption = |lang| markup::real_caption(r, &r.run(), panels(lang));
        (r.speed, caption(Lang::En), caption(Lang::Ja))
    };
    let (s, en, ja) = speed(ScenarioId::RegisterToken, "etcd");
    assert_eq!(s, "1/2");
    assert!(en.contains("recorded ") && en.contains(", at half speed"), "{en}");
    assert!(ja.contains("半分の速さ") && !ja.contains("1/2倍速"), "{ja}");
    let (s, en, ja) = speed(ScenarioId::CheckThenPause, "etcd");
    assert_eq!(s, "1");
    assert!(en.contains(", in real time") && ja.contains("実時間"), "{en} {ja}");
    let (s, en, ja) = speed(ScenarioId::CheckThenPause, "redis");
    assert_eq!(s, "10");
    assert!(en.contains(", 10 times faster") && ja.contains("10倍速"), "{en} {ja}");
    let (s, en, ja) = speed(ScenarioId::Zookeeper, "zookeeper");
    assert_eq!(s, "2");
    assert!(en.contains(", 2 times faster") && ja.contains("2倍速"), "{en} {ja}");
    // The captions' words fit every speed recorded: a whole number of times faster, or half speed.
    for r in &all {
        assert!(r.speed == "1/2" || r.speed.parse::<u64>().is_ok_and(|n| n >= 1), "{}", r.speed);
    }
}

/// A run file of `locksim check --json` (the Python reference client without its token, in the pause).
const CHECK_RUN: &str = include_str!("e2e/pages/run-check.json");

#[test]
fn a_run_file_of_locksim_check_opens_with_its_client_and_verdicts() {
    let runs = recordings::open(CHECK_RUN).expect("it reads");
    assert_eq!(runs.len(), 1);
    let o = &runs[0];
    assert_eq!(o.recording.scenario, ScenarioId::GcPause);
    assert_eq!(o.recording.backend, "redis");
    assert_eq!(o.recording.speed, "10");
    assert_eq!(
        o.client.as_deref(),
        Some("/usr/bin/python3 examples/clients/python/lock_client.py --mistake no-token")
    );
    let run = o.recording.run();
    assert_eq!(run.outcome.kind.name(), "corrupted");
    for lang in [Lang::En, Lang::Ja] {
        let caption = markup::opened_caption(o, &run, panels(lang));
        assert!(caption.contains("lock_client.py --mistake no-token"), "{caption}");
        assert!(caption.contains(panels(lang).text.outcome_title(run.outcome.kind)), "{caption}");
        let figure = markup::recorded_figure(&o.recording, &run, panels(lang).text);
        roxmltree::Document::parse(&format!("<div>{figure}</div>")).expect("well-formed");
    }
    // The lab's own verdict is run, not read: a file that says its simulation was safe still shows the
    // simulation's fenced run of that state.
    let v: serde_json::Value = serde_json::from_str(CHECK_RUN).unwrap();
    let sim = sim::run(&o.recording.scenario.build(&o.recording.inputs)).outcome.kind;
    let mut lying = v.clone();
    lying["simulated"] = if sim.name() == "safe" { "corrupted" } else { "safe" }.into();
    assert_eq!(recordings::open(&lying.to_string()).unwrap()[0].recording.simulated, sim);
    // `--all --json` writes a list of runs.
    let list = format!("[{CHECK_RUN},{CHECK_RUN}]");
    assert_eq!(recordings::open(&list).map(|r| r.len()), Ok(2));
}

#[test]
fn a_file_that_is_not_a_run_says_why_in_both_languages() {
    use recordings::OpenProblem::*;
    let v: serde_json::Value = serde_json::from_str(CHECK_RUN).unwrap();
    let with = |name: &str, value: serde_json::Value| {
        let mut v = v.clone();
        v[name] = value;
        v.to_string()
    };
    let cases = [
        ("not json".to_owned(), NotJson),
        ("[]".to_owned(), Empty),
        ("{}".to_owned(), Field("scenario")),
        (with("scenario", "nope".into()), Field("scenario")),
        (with("backend", "consul".into()), Field("backend")),
        (with("real", "fine".into()), Field("real")),
        (with("scale", 0.into()), Field("scale")),
        (with("changed", serde_json::json!({"pause": "x"})), Field("changed")),
        (with("changed", serde_json::json!({"nope": 1})), Field("changed")),
        // A worker the scenario does not have, a time out of order, an event of no kind.
        (with("events", serde_json::json!([[0, 0, 7]])), Field("events")),
        (with("events", serde_json::json!([[5, 0, 0], [1, 0, 1]])), Field("events")),
        (with("events", serde_json::json!([[0, 99]])), Field("events")),
        (with("events", serde_json::json!([[0, 16, 9, 0, 0]])), Field("events")),
        (" ".repeat(recordings::MAX_OPEN + 1), TooBig),
    ];
    for (text, problem) in cases {
        assert_eq!(recordings::open(&text), Err(problem.clone()), "{}", &text[..text.len().min(80)]);
        for lang in [Lang::En, Lang::Ja] {
            // The page shows it in an alert (open.test.mjs): a sentence, never an empty line.
            let said = (panels(lang).open_bad)(&problem);
            assert!(said.chars().count() > 10, "{said}");
        }
    }
}

#[test]
fn no_run_file_that_reads_makes_the_figure_panic() {
    // Every event of the file with each of its numbers moved a little: whatever reads must draw.
    let v: serde_json::Value = serde_json::from_str(CHECK_RUN).unwrap();
    let events = v["events"].as_array().unwrap().clone();
    let mut read = 0;
    for (i, e) in events.iter().enumerate() {
        for (j, _) in e.as_array().unwrap().iter().enumerate().skip(1) {
            for bump in [-2_i64, -1, 1, 2, 1_000_000] {
                let mut v = v.clone();
                let n = v["events"][i][j].as_i64().unwrap();
                v["events"][i][j] = (n + bump).into();
                if let Ok(runs) = recordings::open(&v.to_string()) {
                    let run = runs[0].recording.run();
                    markup::recorded_figure(&runs[0].recording, &run, panels(Lang::En).text);
                    read += 1;
                }
            }
        }
    }
    assert!(read > 50, "only {read} variants read");
}

#[test]
fn a_run_file_of_locksim_real_opens_with_the_inputs_it_changed() {
    use fencing_lab::real::{Backend, RealRun};
    for (id, inputs) in [
        (
            ScenarioId::UnsafeRelease,
            Inputs { work: 15_500, fencing: false, ..ScenarioId::UnsafeRelease.defaults() },
        ),
        (ScenarioId::Etcd, Inputs { leader_crash: 5_000, ..ScenarioId::Etcd.defaults() }),
        (ScenarioId::Redlock, ScenarioId::Redlock.defaults()),
    ] {
        let run = sim::run(&id.build(&inputs));
        let real = RealRun {
            scenario: id,
            inputs,
            backend: Backend::Redis,
            version: "7.0.15".into(),
            scale: 2.0,
            simulated: run.clone(),
            jitter: vec![None; run.trace.events.len()],
            real: run.clone(),
            client: None,
        };
        let opened = recordings::open(&real.json()).expect("it reads");
        assert_eq!(opened[0].recording.inputs, inputs, "{}", id.id());
        assert_eq!(opened[0].recording.speed, "1/2");
        assert_eq!(opened[0].client, None);
        assert_eq!(opened[0].recording.run().outcome, run.outcome, "{}", id.id());
    }
}

#[test]
fn every_shipped_recording_opens_as_a_run_file_with_its_verdict() {
    let json = include_str!("../assets/recordings.json");
    let opened = recordings::open(json).expect("assets/recordings.json reads");
    let shipped = recordings::all();
    assert_eq!(opened.len(), shipped.len());
    for (o, r) in opened.iter().zip(&shipped) {
        assert_eq!(o.recording.inputs, r.inputs, "{}", r.scenario.id());
        assert_eq!(o.recording.run().outcome.kind, r.real, "{}", r.scenario.id());
    }
}

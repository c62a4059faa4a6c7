//! Courses (`docs/courses.md`, `present::course`): the built-in course reads and every goal can be met, each
//! kind of goal accepts a right answer and rejects a wrong one from the core's outcomes, a bad course is
//! refused at its line and column in both languages, and a goal no state meets is refused with its step.
#![cfg(not(target_arch = "wasm32"))]

use fencing_lab::present::course::{self, Answer, Devices, Goal, Graded, Mark};
use fencing_lab::present::params::Lang;
use fencing_lab::sim::{OutcomeKind, Scenario};

mod common;

fn builtin() -> course::Course {
    course::parse(course::BUILTIN).expect("the built-in course reads")
}

/// The step of the built-in course with this goal.
fn step_with(goal: Goal) -> course::Step {
    builtin().steps.into_iter().find(|s| s.goal == goal).expect("a step with that goal")
}

/// `sc` with its first named value set to `v`.
fn at(sc: &Scenario, v: u64) -> Scenario {
    let mut sc = sc.clone();
    sc.set_param(0, v);
    sc
}

#[test]
fn the_builtin_course_reads_in_both_languages_and_every_goal_can_be_met() {
    let c = builtin();
    assert_eq!(c.id, "source");
    // The entry under the lab counts them without reading the course.
    assert_eq!(course::builtin_steps(), c.steps.len());
    assert!((8..=12).contains(&c.steps.len()), "about a dozen steps");
    for s in &c.steps {
        for w in [&s.title, &s.text, &s.cite, &s.task] {
            assert!(!w.en.is_empty() && !w.ja.is_empty(), "step at line {} says {w:?} in both", s.line);
        }
        assert!(s.goal == Goal::Predict || !s.hint.en.is_empty() && !s.hint.ja.is_empty());
        // The page's one vocabulary, its times written as the narration writes them (「B は11秒に」).
        for w in [&s.title, &s.text, &s.cite, &s.task, &s.hint] {
            assert_eq!(common::slip(&w.ja), None, "step at line {}: {}", s.line, w.ja);
        }
    }
    course::check(&c).expect("every goal can be met");
    // Each kind of exercise is in it.
    for kind in ["predict", "reach", "find", "prove"] {
        assert!(c.steps.iter().any(|s| s.goal.name().starts_with(kind)), "{kind}");
    }
}

#[test]
fn reach_accepts_the_outcome_and_names_what_a_wrong_run_did() {
    let step = step_with(Goal::Reach(OutcomeKind::Fenced));
    // As given (A wakes at 4 s): safe, not fenced.
    assert_eq!(course::grade(&step, &step.scenario), Graded::Outcome(OutcomeKind::Safe));
    assert_eq!(course::grade(&step, &at(&step.scenario, 10_500)), Graded::Outcome(OutcomeKind::UnfencedGap));
    assert!(course::grade(&step, &at(&step.scenario, 15_000)).right());
    // The core's answer is a state that reaches it.
    let Answer::State(s) = course::answer(&step) else { panic!("a state") };
    assert_eq!((s.outcome, s.values[0].1), (OutcomeKind::Fenced, 11_001));
}

#[test]
fn reach_may_switch_a_device() {
    let step = step_with(Goal::Reach(OutcomeKind::Safe));
    assert_eq!(course::grade(&step, &step.scenario), Graded::Outcome(OutcomeKind::Orphaned));
    let on = Devices { lease: true, fencing: true }.on(&step.scenario);
    assert!(course::grade(&step, &on).right());
}

#[test]
fn find_accepts_a_failing_state_and_keeps_the_switches() {
    let step = step_with(Goal::Find(Some(OutcomeKind::UnfencedGap)));
    assert_eq!(course::grade(&step, &at(&step.scenario, 15_000)), Graded::Outcome(OutcomeKind::Fenced));
    assert!(course::grade(&step, &at(&step.scenario, 10_500)).right());
    // The same failure with fencing switched off is not what was asked.
    let off = Devices { lease: true, fencing: false }.on(&at(&step.scenario, 10_500));
    assert_eq!(course::grade(&step, &off), Graded::Switched);
    // `find` alone: any run that went wrong.
    let any = course::Step { goal: Goal::Find(None), ..step };
    assert!(course::grade(&any, &at(&any.scenario, 10_500)).right());
    assert_eq!(course::grade(&any, &any.scenario), Graded::Outcome(OutcomeKind::Safe));
}

#[test]
fn a_named_switch_is_a_switch_to_reach_and_to_find() {
    // The reader may flip `atomic` to reach a double grant; the checker and "Show the answer" find it.
    let reach = "course sw\nstep\nscenario check-then-set atomic=on\ntask Make both take it.\ngoal reach double-grant\n";
    let c = course::parse(reach).expect("reads");
    course::check(&c).expect("reachable by switching atomic off");
    let Answer::State(s) = course::answer(&c.steps[0]) else { panic!("a state") };
    assert_eq!((s.outcome, &s.switches[..]), (OutcomeKind::DoubleGrant, &[("atomic".to_owned(), false)][..]));
    assert!(
        course::state_words(&s, Lang::En).contains("atomic off"),
        "{}",
        course::state_words(&s, Lang::En)
    );
    let mut flipped = c.steps[0].scenario.clone();
    flipped.set_switch(0, false);
    assert!(course::grade(&c.steps[0], &flipped).right());
    // A find keeps every switch as the step gives it, named ones too.
    let find = reach.replace("atomic=on", "atomic=off").replace("reach double-grant", "find double-grant");
    let c = course::parse(&find).expect("reads");
    assert!(course::grade(&c.steps[0], &c.steps[0].scenario).right());
    let mut atomic = c.steps[0].scenario.clone();
    atomic.set_switch(0, true);
    assert_eq!(course::grade(&c.steps[0], &atomic), Graded::Switched);
}

#[test]
fn prove_is_graded_by_the_search_within_its_bounds() {
    let step = step_with(Goal::Prove);
    let given = Devices::of(&step.scenario);
    assert_eq!(given, Devices { lease: false, fencing: false });
    // Fencing alone: nothing is harmed, but B waits for A.
    let fencing = Devices { lease: false, fencing: true }.on(&step.scenario);
    let Graded::Broken(p) = course::grade(&step, &fencing) else { panic!("broken") };
    assert_eq!(p.broken.as_ref().map(|b| b.outcome), Some(OutcomeKind::Stalled));
    assert_eq!(p.bounds, vec![("pause".to_owned(), 0, 30_000, 1)]);
    assert_eq!(p.runs, 30_001);
    // The lease alone: a stale write lands.
    let lease = Devices { lease: true, fencing: false }.on(&step.scenario);
    let Graded::Broken(p) = course::grade(&step, &lease) else { panic!("broken") };
    assert!(p.broken.unwrap().outcome.unsafe_data());
    // Both: nothing breaks, and nothing fewer would do.
    let both = Devices { lease: true, fencing: true }.on(&step.scenario);
    assert!(course::grade(&step, &both).right());
    let Answer::Prove(p) = course::answer(&step) else { panic!("a proof") };
    assert_eq!((p.devices, p.broken), (Devices { lease: true, fencing: true }, None));
}

#[test]
fn prove_rejects_more_devices_than_needed() {
    let text = "step\ntask t\ngoal prove\nscript\n  value w 1s, range 0s..5s\n  lease 10s\n  expiry off\n  A: acquire, work {w}, write, release\n  B: idle 1s, acquire, write, release\n";
    let c = course::parse(text).unwrap();
    let step = &c.steps[0];
    let Answer::Prove(p) = course::answer(step) else { panic!("a proof") };
    assert_eq!(p.devices.count(), 0);
    // Fencing is on as the script leaves it: one device more than needed.
    assert_eq!(course::grade(step, &step.scenario), Graded::TooMany(1, 0));
}

#[test]
fn a_goal_no_state_meets_is_refused_with_its_step() {
    let text = include_str!("courses/impossible.course");
    let c = course::parse(text).unwrap();
    let r = course::check(&c).unwrap_err();
    assert_eq!((r.step, r.line), (2, 15));
    assert_eq!(
        r.en(),
        "step 2 (line 15): goal find unfenced-gap: no state gives unfenced-gap with the step's switches \
         (work 0..5000 ms step 1 ms, 5001 runs)"
    );
}

#[test]
fn a_bad_course_is_refused_at_its_line_and_column_in_both_languages() {
    let e = course::parse("step\ntask t\ngoal rech fenced\nscenario gc-pause\n").unwrap_err();
    assert_eq!((e.line, e.col), (3, 6));
    assert_eq!(e.en(), "line 3, column 6: expected a goal (predict, reach, find, prove), found \"rech\" (did you mean \"reach\"?)");
    assert!(e.ja().starts_with("3行目 6文字目："), "{}", e.ja());
    // A script's error at the course's own line and column.
    let e =
        course::parse("step\ntask t\ngoal predict\nscript\n  lease 10s\n  A: acquire, wirte\n").unwrap_err();
    assert_eq!((e.line, e.col), (6, 15));
    assert_eq!(e.en(), "line 6, column 15: expected a step, found \"wirte\" (did you mean \"write\"?)");
    let e = course::parse("step\ntask t\ngoal reach fencd\nscenario gc-pause\n").unwrap_err();
    assert!(e.en().contains("did you mean \"fenced\""), "{}", e.en());
    let cases: [(&str, usize); 7] = [
        ("text x\n", 1),
        ("step\ngoal predict\nscenario gc-pause\n", 1),
        ("step\ntask t\nscenario gc-pause\n", 1),
        ("step\ntask t\ngoal predict\n", 1),
        ("stepp\n", 1),
        ("step\ntask t\ngoal predict\nscenario gc-pause pause=abc\n", 4),
        ("step\ntask t\ngoal predict\nscenario gc-pause delay=3\n", 4),
    ];
    for (text, line) in cases {
        let e = course::parse(text).unwrap_err();
        assert_eq!(e.line, line, "{text:?}: {}", e.en());
        assert!(!e.ja().is_empty());
    }
    // A scenario's setting is told at its own column (not where its text first occurs on the line), and one
    // given twice says so.
    let at = |scenario: &str| {
        let e = course::parse(&format!("step\ntask t\ngoal predict\n{scenario}\n")).unwrap_err();
        (e.col, e.en().split_once(": ").map(|(_, m)| m.to_owned()).unwrap_or_default(), e.ja())
    };
    assert_eq!(at("scenario check-then-pause heck=1").0, 27);
    // A goal's outcome is told where it stands, though the word before is the same.
    let e = course::parse("step\ntask t\ngoal reach reach\nscenario gc-pause\n").unwrap_err();
    assert_eq!((e.line, e.col), (3, 12), "{}", e.en());
    assert_eq!(at("scenario gc-pause paus=15000").0, 19);
    assert_eq!(at("scenario gc-pause lease=on pause=99999").0, 28);
    let (col, en, ja) = at("scenario gc-pause pause=1 pause=2");
    assert_eq!((col, en.as_str()), (27, "\"pause\" is given twice"));
    assert!(ja.ends_with("「pause」が二度指定されています"), "{ja}");
    assert_eq!(
        course::parse("# nothing\n").unwrap_err().en(),
        "the course has no step: a step begins with a line \"step\""
    );
    let long = "x".repeat(course::limits::CHARS + 1);
    assert!(course::parse(&long).unwrap_err().en().contains("at most 40000"));
    let many = "step\ntask t\ngoal predict\nscenario gc-pause\n".repeat(course::limits::STEPS + 1);
    assert_eq!(
        course::parse(&many).unwrap_err().en(),
        format!("line {}, column 1: a course has at most 24 steps", 4 * 24 + 1)
    );
}

#[test]
fn a_course_in_one_language_speaks_it_in_both() {
    let c = course::parse("step\ntitle 期限\ntask 予想してください\ngoal predict\nscenario crash\n").unwrap();
    assert_eq!(c.steps[0].task.get(Lang::En), "予想してください");
    assert_eq!(c.steps[0].title.get(Lang::Ja), "期限");
    assert!(c.id.starts_with("course-"), "an id from the text: {}", c.id);
}

#[test]
fn marks_round_trip_and_score_counts_right_first_time() {
    let marks = Mark::read("rha-rw", 7);
    assert_eq!(
        marks,
        [Mark::First, Mark::Hinted, Mark::Shown, Mark::Open, Mark::First, Mark::Tried, Mark::Open]
    );
    assert_eq!(Mark::write(&marks), "rha-rw-");
    // A step tried and not yet right scores nothing, and is not forgotten as open.
    assert_eq!(course::score(&marks), 2);
    assert_eq!(Mark::read("zzzzzzzzzz", 2), [Mark::Open, Mark::Open]);
}

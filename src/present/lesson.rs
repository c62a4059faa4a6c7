//! The teaching layer's logic: the prediction flow as a state machine, judging a prediction, and where the
//! verdict changes.
//!
//! Plain data and functions, so the whole flow is tested without a browser; the view only forwards events.

use crate::scenarios::{Inputs, ScenarioId};
use crate::sim::{Ms, OutcomeKind, Segment};

/// The pause the source's own question asks about ("what if A wakes after 15 s?"): the first prediction.
pub const SEED_QUESTION_PAUSE: Ms = 15_000;

/// The inputs a catalogue scenario opens with, by a link that names no pause or picked in place alike: its
/// defaults, but for gc-pause while a prediction is asked, the source's own question (A wakes after 15 s).
pub fn opening(id: ScenarioId, predicting: bool) -> Inputs {
    let mut inputs = id.defaults();
    if id == ScenarioId::GcPause && predicting {
        inputs.pause = SEED_QUESTION_PAUSE;
    }
    inputs
}

/// Whether the source's own question belongs above a catalogue state: only above the one it asks about, A
/// paused for 15 s right after taking the lock (a later pause wakes it later).
pub fn asks_seed_question(id: ScenarioId, inputs: &Inputs) -> bool {
    id == ScenarioId::GcPause && inputs.pause == SEED_QUESTION_PAUSE && inputs.pause_start == 0
}

/// Where the reader is in the lesson.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// The verdict is hidden; the reader picks what will happen.
    Predicting(Option<OutcomeKind>),
    /// The run plays with the prediction made; the verdict shows at the end.
    Playing(OutcomeKind),
    /// The verdict is shown, with how the prediction fared (`None`: the reader skipped predicting).
    Revealed(Option<OutcomeKind>),
}

/// What the reader (or the page) did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Picked an answer.
    Pick(OutcomeKind),
    /// Pressed "Play and see".
    Play,
    /// The run played to its end (or the reader jumped there).
    Finished,
    /// Pressed "Skip: show me".
    Skip,
    /// Pressed "Predict again".
    Again,
    /// Changed an input of the run (a drag, a switch, a message from the embedding page).
    InputsChanged,
    /// Picked another scenario; `skipping`: the reader chose earlier to skip predicting.
    ScenarioChanged {
        /// Whether predictions are skipped in this tab.
        skipping: bool,
    },
}

impl Phase {
    /// Whether the verdict may be shown.
    pub fn revealed(self) -> bool {
        matches!(self, Phase::Revealed(_))
    }

    /// The phase after `step`. A step that makes no sense here (playing without an answer) changes nothing.
    pub fn after(self, step: Step) -> Phase {
        use Phase::*;
        match (self, step) {
            (Predicting(_), Step::Pick(k)) => Predicting(Some(k)),
            (Predicting(Some(k)), Step::Play) => Playing(k),
            (Playing(k), Step::Finished) => Revealed(Some(k)),
            (Predicting(_), Step::Skip) => Revealed(None),
            (Revealed(_), Step::Again) => Predicting(None),
            // The prediction was made for other inputs: it cannot be judged against these. Ask again.
            (Playing(_), Step::InputsChanged) => Predicting(None),
            (_, Step::ScenarioChanged { skipping: true }) => Revealed(None),
            (_, Step::ScenarioChanged { skipping: false }) => Predicting(None),
            (phase, _) => phase,
        }
    }
}

/// The prediction against the verdict: `None` if the reader made none.
pub fn judge(phase: Phase, actual: OutcomeKind) -> Option<bool> {
    match phase {
        Phase::Revealed(Some(guess)) => Some(guess == actual),
        _ => None,
    }
}

/// What "Where does it change?" asks for, read off an outcome map.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Boundary {
    /// The smallest value that gives `kind`.
    pub at: Ms,
    /// The last value of that stretch, if larger values give another verdict again.
    pub until: Option<Ms>,
    /// The verdict asked about: the one large values end in or, where that is the verdict of the smallest
    /// value too, the first verdict that differs from it.
    pub kind: OutcomeKind,
    /// Where the verdict first changes, if that is before `at`.
    pub first: Option<(Ms, OutcomeKind)>,
}

/// The boundary of `map`; `None` if every value gives one verdict.
pub fn boundary(map: &[Segment]) -> Option<Boundary> {
    let (start, last) = (map.first()?, map.last()?);
    let second = map.get(1)?;
    let target = if last.kind != start.kind { last } else { second };
    // The first stretch of the target's verdict after the start.
    let stretch = map.iter().skip(1).find(|s| s.kind == target.kind).unwrap_or(target);
    let first = (second.from < stretch.from).then_some((second.from, second.kind));
    let until = (stretch.to < last.to).then_some(stretch.to);
    Some(Boundary { at: stretch.from, until, kind: target.kind, first })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenarios::{Inputs, ScenarioId};
    use crate::sim::{outcome_map, MAX_PAUSE};
    use OutcomeKind::*;

    fn map(id: ScenarioId, f: impl FnOnce(&mut Inputs)) -> Vec<Segment> {
        let mut i = id.defaults();
        f(&mut i);
        let (min, max) = id.dragged().map(|k| k.spec().range()).unwrap_or((0, MAX_PAUSE));
        outcome_map(&id.build(&i), min..=max)
    }

    #[test]
    fn the_source_question_is_asked_only_of_its_own_state() {
        let mut i = ScenarioId::GcPause.defaults();
        i.pause = SEED_QUESTION_PAUSE;
        assert!(asks_seed_question(ScenarioId::GcPause, &i));
        // Its switches flipped, it is still the question's run; A waking at 20 s is not.
        i.fencing = false;
        assert!(asks_seed_question(ScenarioId::GcPause, &i));
        i.pause_start = 5_000;
        assert!(!asks_seed_question(ScenarioId::GcPause, &i));
        i.pause_start = 0;
        i.pause = 20_000;
        assert!(!asks_seed_question(ScenarioId::GcPause, &i));
        assert!(!asks_seed_question(ScenarioId::CheckThenPause, &ScenarioId::CheckThenPause.defaults()));
    }

    #[test]
    fn gc_pause_opens_on_the_source_question_while_a_prediction_is_asked() {
        assert!(asks_seed_question(ScenarioId::GcPause, &opening(ScenarioId::GcPause, true)));
        assert_eq!(opening(ScenarioId::GcPause, false), ScenarioId::GcPause.defaults());
        assert_ne!(ScenarioId::GcPause.defaults().pause, SEED_QUESTION_PAUSE);
        for id in ScenarioId::ALL.into_iter().filter(|&id| id != ScenarioId::GcPause) {
            assert_eq!(opening(id, true), id.defaults(), "{id:?}");
        }
    }

    #[test]
    fn the_challenge_asks_for_the_rejection_and_tells_the_first_change() {
        let b = boundary(&map(ScenarioId::GcPause, |_| {})).unwrap();
        assert_eq!(b, Boundary { at: 11_001, until: None, kind: Fenced, first: Some((10_000, UnfencedGap)) });
        let b = boundary(&map(ScenarioId::GcPause, |i| i.fencing = false)).unwrap();
        assert_eq!((b.at, b.kind), (11_001, Corrupted));
        let b = boundary(&map(ScenarioId::GcPause, |i| i.lease = false)).unwrap();
        assert_eq!(b, Boundary { at: 10_000, until: None, kind: Stalled, first: None });
        let one = [Segment { from: 0, to: MAX_PAUSE, kind: Safe }];
        assert_eq!(boundary(&one), None);
    }

    #[test]
    fn a_map_that_ends_where_it_began_asks_for_the_first_change() {
        // unsafe-release, plain DEL (A's job ends at 2 s at the earliest): safe, then fenced from 10 s, a double grant from 15 s, safe again after 16 s (at 16 s A's DEL still comes first, rule 7).
        let m = map(ScenarioId::UnsafeRelease, |_| {});
        let kinds: Vec<_> = m.iter().map(|s| (s.from, s.kind)).collect();
        assert_eq!(kinds, [(2_000, Safe), (10_000, Fenced), (15_000, DoubleGrant), (16_001, Safe)]);
        // The stale write is rejected from 10 s to 14.999 s only: the answer says so.
        assert_eq!(
            boundary(&m),
            Some(Boundary { at: 10_000, until: Some(14_999), kind: Fenced, first: None })
        );
    }

    #[test]
    fn the_flow_of_a_prediction() {
        use Phase::*;
        let p = Predicting(None);
        assert_eq!(p.after(Step::Play), p, "no answer, no play");
        let p = p.after(Step::Pick(Safe)).after(Step::Pick(Fenced));
        assert_eq!(p, Predicting(Some(Fenced)));
        let p = p.after(Step::Play);
        assert_eq!(p, Playing(Fenced));
        assert_eq!(p.after(Step::Pick(Safe)), p, "the answer is locked while it plays");
        let told = p.after(Step::Finished);
        assert_eq!(told, Revealed(Some(Fenced)));
        assert_eq!(told.after(Step::InputsChanged), told, "exploring after the verdict keeps it told");
        assert_eq!(told.after(Step::Again), Predicting(None));
        assert_eq!(Predicting(Some(Safe)).after(Step::Skip), Revealed(None));
        assert_eq!(Predicting(Some(Safe)).after(Step::InputsChanged), Predicting(Some(Safe)));
    }

    #[test]
    fn changing_the_inputs_while_it_plays_asks_again_instead_of_judging() {
        let p = Phase::Playing(Fenced).after(Step::InputsChanged);
        assert_eq!(p, Phase::Predicting(None));
        assert_eq!(judge(p, Corrupted), None);
        assert_eq!(p.after(Step::Finished), p);
    }

    #[test]
    fn a_new_scenario_starts_a_new_prediction_unless_skipped() {
        for phase in [Phase::Predicting(Some(Safe)), Phase::Playing(Safe), Phase::Revealed(Some(Safe))] {
            assert_eq!(phase.after(Step::ScenarioChanged { skipping: false }), Phase::Predicting(None));
            assert_eq!(phase.after(Step::ScenarioChanged { skipping: true }), Phase::Revealed(None));
        }
    }

    #[test]
    fn a_prediction_is_judged_only_once_the_run_is_told() {
        assert_eq!(judge(Phase::Revealed(Some(Fenced)), Fenced), Some(true));
        assert_eq!(judge(Phase::Revealed(Some(Safe)), Fenced), Some(false));
        assert_eq!(judge(Phase::Revealed(None), Fenced), None);
        assert_eq!(judge(Phase::Playing(Safe), Safe), None);
        assert!(!Phase::Predicting(None).revealed() && Phase::Revealed(None).revealed());
    }
}

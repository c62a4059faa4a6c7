//! The teaching layer's logic: what a reader can predict, whether it was right, and where the verdict changes.
//!
//! Plain data and functions, so the prediction flow is tested without a browser.

use crate::sim::{Ms, OutcomeKind, Segment};

/// What a reader can predict will happen to A's write: one answer per verdict.
pub const CHOICES: [OutcomeKind; 5] = [
    OutcomeKind::Safe,
    OutcomeKind::Fenced,
    OutcomeKind::Corrupted,
    OutcomeKind::UnfencedGap,
    OutcomeKind::Stalled,
];

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

impl Phase {
    /// Whether the verdict may be shown.
    pub fn revealed(self) -> bool {
        matches!(self, Phase::Revealed(_))
    }
}

/// The prediction against the verdict: `None` if the reader made none.
pub fn judge(phase: Phase, actual: OutcomeKind) -> Option<bool> {
    match phase {
        Phase::Revealed(Some(guess)) => Some(guess == actual),
        _ => None,
    }
}

/// The challenge "Where does it change?": the shortest pause that gives the verdict long pauses end in
/// (for example the first pause at which A's write is rejected). `None` if every pause gives one verdict.
pub fn boundary(map: &[Segment]) -> Option<(Ms, OutcomeKind)> {
    match map {
        [_, .., last] => Some((last.from, last.kind)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::{outcome_map, Inputs, Scenario, MAX_PAUSE};

    fn map(lease: bool, fencing: bool) -> Vec<Segment> {
        outcome_map(&Scenario::base(&Inputs { lease, fencing, ..Inputs::default() }), MAX_PAUSE)
    }

    #[test]
    fn boundary_moves_with_the_settings() {
        assert_eq!(boundary(&map(true, true)), Some((11_001, OutcomeKind::Fenced)));
        assert_eq!(boundary(&map(true, false)), Some((11_001, OutcomeKind::Corrupted)));
        assert_eq!(boundary(&map(false, true)), Some((10_000, OutcomeKind::Stalled)));
        let one = [Segment { from: 0, to: MAX_PAUSE, kind: OutcomeKind::Safe }];
        assert_eq!(boundary(&one), None);
    }

    #[test]
    fn judging() {
        assert_eq!(judge(Phase::Revealed(Some(OutcomeKind::Fenced)), OutcomeKind::Fenced), Some(true));
        assert_eq!(judge(Phase::Revealed(Some(OutcomeKind::Safe)), OutcomeKind::Fenced), Some(false));
        assert_eq!(judge(Phase::Revealed(None), OutcomeKind::Fenced), None);
        assert_eq!(judge(Phase::Playing(OutcomeKind::Safe), OutcomeKind::Safe), None);
        assert!(!Phase::Predicting(None).revealed() && Phase::Revealed(None).revealed());
    }

    #[test]
    fn every_verdict_can_be_predicted() {
        let mut all = CHOICES.to_vec();
        all.sort();
        assert_eq!(all, OutcomeKind::ALL.to_vec());
    }
}

//! Pacing a stream of inputs to the screen: at most one applied per frame besides the first.
//!
//! A pointer reports more often than a screen shows, and on a slow phone each position applied (the core
//! run again, the figure redrawn) takes longer than the pointer waits. The first position of a frame is
//! applied at once: it is the freshest and nothing is drawn yet. Later ones wait for the frame and only the
//! last is applied, so the work never queues behind the pointer. Plain data, so the rule is tested natively;
//! the view asks for the frame and applies what it is told to.

/// A stream of inputs (a drag's positions, the editor's texts), paced to frames.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Pace<T> {
    /// The latest position not applied yet.
    pending: Option<T>,
    /// Whether one was applied since the last frame.
    applied: bool,
    /// Whether a frame is asked for.
    asked: bool,
}

/// What to do with a new position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step<T> {
    /// Apply this now.
    pub apply: Option<T>,
    /// Ask for an animation frame, then call [`Pace::frame`].
    pub ask: bool,
}

impl<T> Pace<T> {
    /// A new position.
    pub fn push(&mut self, at: T) -> Step<T> {
        let ask = !self.asked;
        self.asked = true;
        if self.applied {
            self.pending = Some(at);
            Step { apply: None, ask }
        } else {
            self.applied = true;
            self.pending = None;
            Step { apply: Some(at), ask }
        }
    }

    /// The frame came: the position to apply now, if one waits.
    pub fn frame(&mut self) -> Option<T> {
        self.asked = false;
        self.applied = false;
        self.pending.take()
    }

    /// The drag ends: the position still waiting, if any, to apply at once.
    pub fn flush(&mut self) -> Option<T> {
        self.pending.take()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_move_of_a_frame_is_applied_at_once_and_asks_for_the_frame() {
        let mut p = Pace::default();
        assert_eq!(p.push(1), Step { apply: Some(1), ask: true });
        // Later moves of the same frame wait; only the last is applied when the frame comes.
        assert_eq!(p.push(2), Step { apply: None, ask: false });
        assert_eq!(p.push(3), Step { apply: None, ask: false });
        assert_eq!(p.frame(), Some(3));
        // A frame with nothing waiting applies nothing; the next move is applied at once again.
        assert_eq!(p.push(4), Step { apply: Some(4), ask: true });
        assert_eq!(p.frame(), None);
        assert_eq!(p.frame(), None);
    }

    #[test]
    fn a_frame_that_applied_a_waiting_move_lets_the_next_one_through() {
        let mut p = Pace::default();
        p.push(1);
        p.push(2);
        assert_eq!(p.frame(), Some(2));
        assert_eq!(p.push(3), Step { apply: Some(3), ask: true });
    }

    #[test]
    fn the_end_of_a_drag_applies_what_waits() {
        let mut p = Pace::default();
        p.push(1);
        assert_eq!(p.flush(), None, "nothing waits after a move applied at once");
        p.push(2);
        assert_eq!(p.flush(), Some(2));
        assert_eq!(p.frame(), None, "a flushed move is not applied twice");
    }
}

//! The inputs of every scenario, as one table: name, kind, range, and how to read and set each.

use serde::{Deserialize, Serialize};

use crate::sim::{Ms, MAX_PAUSE};

/// Every input any scenario reads, with the base scenario's defaults. A scenario reads only the inputs it
/// names ([`super::ScenarioId::keys`] and [`super::ScenarioId::extras`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Inputs {
    /// Length of A's GC pause.
    pub pause: Ms,
    /// Lease expiry on or off.
    pub lease: bool,
    /// Whether the storage checks tokens.
    pub fencing: bool,
    /// Lease length.
    pub ttl: Ms,
    /// When A's pause begins (A acquires at 0).
    pub pause_start: Ms,
    /// When B asks for the lock.
    pub b_request: Ms,
    /// How long B works between acquiring and writing.
    pub b_work: Ms,
    /// A's token; each grant adds one.
    pub first_token: u64,
    /// How long A's write spends in the network (`network-delay`).
    pub delay: Ms,
    /// Take the lock in one atomic command (`setnx-expire`, `check-then-set`).
    pub atomic: bool,
    /// When A's job ends and it releases (`unsafe-release`).
    pub work: Ms,
    /// Release with compare-and-delete instead of a plain `DEL` (`unsafe-release`). Every switch is "on"
    /// when its safety device is on.
    pub compare_release: bool,
    /// Keep an expired lock unavailable for a while (`lock-delay`).
    pub lock_delay: bool,
    /// Register each new holder's token at the storage at its grant (`register-token`).
    pub register: bool,
    /// The primary replies only once the replica has the change (`WAIT`, `failover`).
    pub sync: bool,
    /// How far N3's clock jumps forward (`redlock`).
    pub jump: Ms,
    /// When the consensus group's leader crashes; 0: it does not (`etcd`).
    pub leader_crash: Ms,
}

impl Default for Inputs {
    fn default() -> Self {
        Inputs {
            pause: 4_000,
            lease: true,
            fencing: true,
            ttl: 10_000,
            pause_start: 0,
            b_request: 1_000,
            b_work: 1_000,
            first_token: 33,
            delay: 13_000,
            atomic: false,
            work: 12_000,
            compare_release: false,
            lock_delay: true,
            register: true,
            sync: false,
            jump: 9_000,
            leader_crash: 0,
        }
    }
}

/// An input's name, as a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[allow(missing_docs)]
pub enum Key {
    Pause,
    Lease,
    Fencing,
    Ttl,
    PauseStart,
    BRequest,
    BWork,
    FirstToken,
    Delay,
    Atomic,
    Work,
    Release,
    LockDelay,
    Register,
    Sync,
    Jump,
    LeaderCrash,
}

/// What values an input takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Milliseconds in `min..=max`.
    Ms {
        /// Smallest.
        min: Ms,
        /// Largest.
        max: Ms,
    },
    /// A whole number in `min..=max`.
    Count {
        /// Smallest.
        min: u64,
        /// Largest.
        max: u64,
    },
    /// One of two words: the first means `false`, the second `true`.
    Words([&'static str; 2]),
    /// A time in `0..=max` ms, or `off` (stored as 0); the page's switch turns it on at `on`.
    At {
        /// Latest.
        max: Ms,
        /// The time the page's switch sets.
        on: Ms,
    },
}

/// One row of the input table.
pub struct InputSpec {
    /// The input.
    pub key: Key,
    /// Its name in links, embed messages and (with `-` for `_`) `locksim` flags.
    pub name: &'static str,
    /// Its values.
    pub kind: Kind,
    get: fn(&Inputs) -> u64,
    set: fn(&mut Inputs, u64),
}

const ON_OFF: Kind = Kind::Words(["off", "on"]);
const MS_30: Kind = Kind::Ms { min: 0, max: MAX_PAUSE };

macro_rules! row {
    ($key:ident, $name:literal, $kind:expr, $field:ident, ms) => {
        InputSpec { key: Key::$key, name: $name, kind: $kind, get: |i| i.$field, set: |i, v| i.$field = v }
    };
    ($key:ident, $name:literal, $kind:expr, $field:ident, bool) => {
        InputSpec {
            key: Key::$key,
            name: $name,
            kind: $kind,
            get: |i| u64::from(i.$field),
            set: |i, v| i.$field = v != 0,
        }
    };
}

/// Every input: the one table that parsing, the URL writer, `locksim` and the embed messages read.
pub static INPUTS: [InputSpec; 17] = [
    row!(Pause, "pause", MS_30, pause, ms),
    row!(Lease, "lease", ON_OFF, lease, bool),
    row!(Fencing, "fencing", ON_OFF, fencing, bool),
    row!(Delay, "delay", Kind::Ms { min: 0, max: 28_000 }, delay, ms),
    // A's job: 2 s of work and its write (`A_WORKS`), then on until this time.
    row!(Work, "work", Kind::Ms { min: super::A_WORKS, max: MAX_PAUSE }, work, ms),
    row!(Atomic, "atomic", ON_OFF, atomic, bool),
    row!(Release, "release", Kind::Words(["plain", "compare"]), compare_release, bool),
    row!(LockDelay, "lockdelay", ON_OFF, lock_delay, bool),
    row!(Register, "register", ON_OFF, register, bool),
    row!(Sync, "sync", ON_OFF, sync, bool),
    // N3's clock reads 2 s + jump: up to 30 s, the end of the axis.
    row!(Jump, "jump", Kind::Ms { min: 0, max: 28_000 }, jump, ms),
    row!(LeaderCrash, "leader_crash", Kind::At { max: MAX_PAUSE, on: super::LEADER_CRASH }, leader_crash, ms),
    // Up to the language's longest duration, as a script's `lease` (`script::limits::DURATION`).
    row!(Ttl, "ttl", Kind::Ms { min: 1, max: 600_000 }, ttl, ms),
    row!(PauseStart, "pause_start", MS_30, pause_start, ms),
    row!(BRequest, "b_request", MS_30, b_request, ms),
    row!(BWork, "b_work", MS_30, b_work, ms),
    row!(FirstToken, "first_token", Kind::Count { min: 0, max: 1_000_000_000 }, first_token, ms),
];

impl Key {
    /// This input's row of [`INPUTS`].
    pub fn spec(self) -> &'static InputSpec {
        // The table lists every key once (tested), so this always finds one.
        INPUTS.iter().find(|s| s.key == self).unwrap_or(&INPUTS[0])
    }

    /// The input named `name` (`pause_start` or `pause-start`).
    pub fn from_name(name: &str) -> Option<Key> {
        let name = name.replace('-', "_");
        INPUTS.iter().find(|s| s.name == name).map(|s| s.key)
    }
}

impl InputSpec {
    /// The value in `inputs` (switches as 0 or 1).
    pub fn get(&self, inputs: &Inputs) -> u64 {
        (self.get)(inputs)
    }

    /// Sets the value (switches: 0 is off) after checking its range; on `Err` nothing changes.
    pub fn set(&self, inputs: &mut Inputs, value: u64) -> Result<(), (u64, u64)> {
        let (min, max) = self.range();
        if (min..=max).contains(&value) {
            (self.set)(inputs, value);
            Ok(())
        } else {
            Err((min, max))
        }
    }

    /// Copies this input from `from` to `to`.
    pub fn copy(&self, from: &Inputs, to: &mut Inputs) {
        (self.set)(to, (self.get)(from));
    }

    /// The smallest and largest value (switches: 0 and 1).
    pub fn range(&self) -> (u64, u64) {
        match self.kind {
            Kind::Ms { min, max } | Kind::Count { min, max } => (min, max),
            Kind::Words(_) => (0, 1),
            Kind::At { max, .. } => (0, max),
        }
    }

    /// The value as a link writes it: `15000`, `on`, `plain`.
    pub fn text(&self, inputs: &Inputs) -> String {
        let v = self.get(inputs);
        match self.kind {
            Kind::Words(words) => words[usize::from(v != 0)].to_owned(),
            Kind::At { .. } if v == 0 => "off".to_owned(),
            _ => v.to_string(),
        }
    }

    /// Whether the page shows this input as a switch.
    pub fn is_switch(&self) -> bool {
        matches!(self.kind, Kind::Words(_) | Kind::At { .. })
    }

    /// The value the page's switch sets, on or off.
    pub fn switched(&self, on: bool) -> u64 {
        match (self.kind, on) {
            (_, false) => 0,
            (Kind::At { on, .. }, true) => on,
            _ => 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_has_exactly_one_row_and_names_are_unique() {
        for (i, row) in INPUTS.iter().enumerate() {
            assert_eq!(INPUTS.iter().filter(|r| r.key == row.key).count(), 1);
            assert_eq!(INPUTS.iter().filter(|r| r.name == row.name).count(), 1);
            assert!(std::ptr::eq(row.key.spec(), &INPUTS[i]));
            assert_eq!(Key::from_name(row.name), Some(row.key));
        }
        assert_eq!(Key::from_name("pause-start"), Some(Key::PauseStart));
    }

    #[test]
    fn set_checks_the_range_and_get_reads_back() {
        let mut i = Inputs::default();
        for row in &INPUTS {
            let (min, max) = row.range();
            row.set(&mut i, max).unwrap();
            assert_eq!(row.get(&i), max);
            row.set(&mut i, min).unwrap();
            assert_eq!(row.get(&i), min);
            if max < u64::MAX {
                assert_eq!(row.set(&mut i, max + 1), Err((min, max)));
                assert_eq!(row.get(&i), min, "{} changed on a bad value", row.name);
            }
        }
    }
}

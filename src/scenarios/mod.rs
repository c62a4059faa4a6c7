//! The scenario catalogue: every way a lock fails that the source document names, as a named scenario
//! that builds a [`Scenario`] from the reader's [`Inputs`].
//!
//! One scenario, one definition: `catalogue/<name>.rs` holds everything about it (its group, inputs and
//! defaults, how it builds its run, its picker card, set-up, question and answers in both languages), and
//! the list in [`catalogue!`] below names it once. A new scenario is one new file and one row of that list.
//!
//! One table ([`INPUTS`]) lists every input with its range; each scenario names the inputs it uses. The
//! URL parser and writer, the `locksim` flags and usage, and the embed messages all read these two, so no
//! input can be accepted by one and dropped by another.

mod inputs;
pub mod search;

pub use catalogue::etcd::{ELECTION, LEADER_CRASH};
pub use catalogue::redlock::{JUMP_AT, JUMP_NODE, REDLOCK_DRIFT};
pub use inputs::{InputSpec, Inputs, Key, Kind, INPUTS};

use serde::{Deserialize, Serialize};

use crate::sim::{Dur, Ms, OutcomeKind, Param, Scenario, Step};

/// How the source groups the ways a lock fails; the picker shows scenarios under these headings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Group {
    /// Taking the lock: it must be one atomic step.
    Taking,
    /// Losing it: the holder stops or dies while the lease runs.
    Losing,
    /// Giving it back: only your own lock.
    GivingBack,
    /// Fencing at the resource, and what stands in when it cannot check.
    Fencing,
    /// Replicated lock services: Redis failover, Redlock, consensus.
    Replicated,
}

impl Group {
    /// Every group, in the order the picker shows them.
    pub const ALL: [Group; 5] =
        [Group::Taking, Group::Losing, Group::GivingBack, Group::Fencing, Group::Replicated];
}

/// The words of one scenario in one language: its picker card, set-up, question and answers.
#[derive(Debug)]
pub struct Card {
    /// Short title (the picker).
    pub title: &'static str,
    /// One line: what goes wrong (the picker).
    pub blurb: &'static str,
    /// The set-up, stated as the source states it: a template of the run's inputs (`{pause}`, `{base}`, …).
    pub setup: &'static str,
    /// The prediction's question for the state shown: a template of the run's inputs.
    pub prompt: &'static str,
    /// One answer per outcome the scenario can reach, each true of that outcome only.
    pub choices: &'static [(OutcomeKind, &'static str)],
}

/// Everything about one scenario of the catalogue.
pub struct Definition {
    /// Its id in links and on the command line.
    pub id: &'static str,
    /// Where the picker lists it.
    pub group: Group,
    /// The inputs the page shows: the dragged one first (if any), then the switches.
    pub keys: &'static [Key],
    /// Inputs a link or `locksim` may also set (the base timing), with no control.
    pub extras: &'static [Key],
    /// Its own default pause, where it differs from the base scenario's.
    pub pause: Option<Ms>,
    /// Where the dragged band starts on its lane: its right edge is this plus the dragged value.
    pub drag_origin: fn(&Inputs) -> Ms,
    /// Its run for these inputs (the settings it does not set keep the base scenario's); `d(key)` is the
    /// length of that input, by name where the scenario names it.
    pub build: fn(&Inputs, &dyn Fn(Key) -> Dur) -> Scenario,
    /// Its words in English.
    pub en: Card,
    /// Its words in Japanese.
    pub ja: Card,
}

/// What every definition file uses.
mod prelude {
    pub(crate) use super::catalogue::choices;
    pub use super::ELECTION;
    pub use super::{Card, Definition, Group, Inputs, Key, A_WORKS, LOCK_DELAY};
    pub(crate) use super::{BASE_EXTRAS, WRITE};
    pub use crate::sim::OutcomeKind::*;
    pub use crate::sim::{worker, Dur, Ms, Release, Scenario, Service, Step};

    /// A fixed length.
    pub fn ms(ms: Ms) -> Dur {
        Dur::Ms(ms)
    }
}

/// The catalogue: each row a scenario's variant and its definition's module, in the order the picker shows
/// them (grouped as the source groups them).
macro_rules! catalogue {
    ($($(#[$doc:meta])* $variant:ident => $module:ident,)*) => {
        mod catalogue {
            pub mod choices;
            $(pub mod $module;)*
        }

        /// A scenario of the catalogue. The kebab-case ids are part of the interface (`scenario=`,
        /// `locksim --scenario`, `data-scenario`).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
        #[serde(rename_all = "kebab-case")]
        pub enum ScenarioId {
            $($(#[$doc])* $variant,)*
        }

        impl ScenarioId {
            /// Every scenario, grouped as the picker shows them.
            pub const ALL: [ScenarioId; [$(stringify!($variant)),*].len()] = [$(ScenarioId::$variant),*];

            /// Its definition.
            pub fn def(self) -> &'static Definition {
                match self {
                    $(ScenarioId::$variant => &catalogue::$module::DEF,)*
                }
            }
        }
    };
}

catalogue! {
    /// SETNX then EXPIRE, with a crash between them.
    SetnxExpire => setnx_expire,
    /// GET then SET: both workers see the lock free.
    CheckThenSet => check_then_set,
    /// The source's widget: A pauses for GC right after taking the lock.
    GcPause => gc_pause,
    /// A checks its lease, then pauses before writing.
    CheckThenPause => check_then_pause,
    /// A's write spends a long time in the network.
    NetworkDelay => network_delay,
    /// A crashes while holding the lock.
    Crash => crash,
    /// A releases with a plain DEL after its lease ran out.
    UnsafeRelease => unsafe_release,
    /// The new holder registers its token at the storage when it is granted the lock.
    RegisterToken => register_token,
    /// The lock service keeps an expired lock unavailable for a while (Chubby's lock-delay).
    LockDelay => lock_delay,
    /// A Redis primary crashes before replicating; the promoted replica grants the lock again.
    Failover => failover,
    /// Redlock over five servers; one server's clock jumps.
    Redlock => redlock,
    /// An etcd cluster: leases kept alive, revisions as tokens, a leader that may crash.
    Etcd => etcd,
    /// A ZooKeeper ensemble: ephemeral sequential znodes, sessions, the lock znode's czxid as token.
    Zookeeper => zookeeper,
}

/// The inputs of the base scenario that only a link or `locksim` sets (no control on the page).
pub(crate) const BASE_EXTRAS: &[Key] =
    &[Key::Ttl, Key::PauseStart, Key::BRequest, Key::BWork, Key::FirstToken];

/// A write that spends no time in the network.
pub(crate) const WRITE: Step = Step::Write { delay: Dur::Ms(0) };

impl ScenarioId {
    /// The id in links and on the command line.
    pub fn id(self) -> &'static str {
        self.def().id
    }

    /// The scenario with this id (`base` is the old name of `gc-pause`).
    pub fn parse(id: &str) -> Option<ScenarioId> {
        match id.trim() {
            "base" => Some(ScenarioId::GcPause),
            id => ScenarioId::ALL.into_iter().find(|s| s.id() == id),
        }
    }

    /// Every id, for messages and usage text.
    pub fn ids() -> Vec<&'static str> {
        ScenarioId::ALL.map(ScenarioId::id).to_vec()
    }

    /// Where the picker lists it.
    pub fn group(self) -> Group {
        self.def().group
    }

    /// The inputs the page shows for this scenario: the dragged one first (if any), then the switches.
    pub fn keys(self) -> &'static [Key] {
        self.def().keys
    }

    /// Inputs a link or `locksim` may also set for this scenario (the base timing), with no control.
    pub fn extras(self) -> &'static [Key] {
        self.def().extras
    }

    /// Whether this scenario reads `key`.
    pub fn uses(self, key: Key) -> bool {
        self.keys().contains(&key) || self.extras().contains(&key)
    }

    /// The input the reader drags on the timeline, if the scenario has one.
    pub fn dragged(self) -> Option<Key> {
        self.keys().first().copied().filter(|k| matches!(k.spec().kind, Kind::Ms { .. }))
    }

    /// The scenario's own defaults (the timing the catalogue states).
    pub fn defaults(self) -> Inputs {
        let base = Inputs::default();
        Inputs { pause: self.def().pause.unwrap_or(base.pause), ..base }
    }

    /// Where the dragged band starts on A's lane: its right edge is this plus the dragged value.
    pub fn drag_origin(self, i: &Inputs) -> Ms {
        (self.def().drag_origin)(i)
    }

    /// The named values of this scenario's runs: the disturbances it reads (a search varies them, in this
    /// order; the dragged one is among them), then the lengths of the base timing it reads.
    pub fn named(self) -> impl Iterator<Item = Key> {
        DISTURBANCES.into_iter().chain([Key::BRequest, Key::BWork]).filter(move |k| self.uses(*k))
    }

    /// The run's scenario for these inputs. Inputs the scenario does not use keep their defaults; its
    /// named values ([`ScenarioId::named`]) are named values of the scenario, so a drag, a flag or a search
    /// sets them by name.
    pub fn build(self, given: &Inputs) -> Scenario {
        let mut i = Inputs::default();
        for key in self.keys().iter().chain(self.extras()) {
            key.spec().copy(given, &mut i);
        }
        let named: Vec<Key> = self.named().collect();
        let d = |key: Key| match named.iter().position(|k| *k == key) {
            Some(n) => Dur::Param(n as u8),
            None => Dur::Ms(key.spec().get(&i)),
        };
        let mut sc = (self.def().build)(&i, &d);
        sc.params = named
            .iter()
            .map(|k| {
                let spec = k.spec();
                let (min, max) = spec.range();
                let off = matches!(spec.kind, Kind::At { .. });
                Param { name: spec.name.to_owned(), value: spec.get(&i), min, max, off }
            })
            .collect();
        sc.drag = self.dragged().and_then(|k| named.iter().position(|n| *n == k)).map(|n| n as u8);
        // The lease, fencing and tokens every scenario shares; a definition that cannot fence says so itself.
        sc.lease = i.lease;
        sc.fencing &= i.fencing;
        sc.ttl = i.ttl;
        sc.first_token = i.first_token;
        sc
    }
}

/// The disturbances: the numeric inputs that stand for something going wrong (when A's pause starts and
/// how long it lasts, how long A's write spends in the network, when A's job ends, a clock jump, a leader
/// crash). Each scenario names those it reads as named values of its runs, and a search varies them.
pub const DISTURBANCES: [Key; 6] =
    [Key::PauseStart, Key::Pause, Key::Delay, Key::Work, Key::Jump, Key::LeaderCrash];

/// How long A works before it checks, writes or sends, in the scenarios where it does (2 s).
pub const A_WORKS: Ms = 2_000;

/// Chubby's lock-delay as Consul sets it by default (15 s); Chubby caps it at one minute.
pub const LOCK_DELAY: Ms = 15_000;

#[cfg(test)]
mod tests {
    use super::*;
    use ScenarioId::*;

    #[test]
    fn ids_round_trip_and_base_is_an_alias() {
        for s in ScenarioId::ALL {
            assert_eq!(ScenarioId::parse(s.id()), Some(s));
            assert_eq!(serde_json::to_string(&s).unwrap(), format!("\"{}\"", s.id()));
        }
        assert_eq!(ScenarioId::parse("base"), Some(GcPause));
        assert_eq!(ScenarioId::parse("nope"), None);
    }

    #[test]
    fn every_group_has_a_scenario_and_the_picker_order_follows_the_groups() {
        let groups: Vec<Group> = ScenarioId::ALL.iter().map(|s| s.group()).collect();
        let mut sorted = groups.clone();
        sorted.dedup();
        assert_eq!(sorted, Group::ALL.to_vec());
    }

    #[test]
    fn unused_inputs_are_ignored() {
        let odd = Inputs { lease: false, fencing: false, ttl: 3_000, ..Inputs::default() };
        // setnx-expire uses neither lease nor fencing nor ttl.
        assert_eq!(SetnxExpire.build(&odd), SetnxExpire.build(&Inputs::default()));
        assert_ne!(GcPause.build(&odd), GcPause.build(&Inputs::default()));
    }
}

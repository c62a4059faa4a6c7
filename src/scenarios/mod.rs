//! The scenario catalogue: every way a lock fails that the source document names, as a named scenario
//! whose run is a lock script, set by the reader's [`Inputs`].
//!
//! One scenario, one script and one card: `catalogue/<name>.lock` is its run in the scenario language
//! (`docs/scripts.md`), with its defaults; `catalogue/<name>.rs` adds what a script cannot say (its group,
//! the inputs the page shows, its picker card, set-up, question and answers in both languages); the list
//! in [`catalogue!`] below names it once. The build compiles each script (`build.rs`), so the page holds
//! its scenarios as codec lines and not the parser.
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

use crate::sim::{codec, Ms, OutcomeKind, Release, Scenario, Service};

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

/// What one scenario of the catalogue adds to its script.
pub struct Definition {
    /// Its id in links and on the command line.
    pub id: &'static str,
    /// Where the picker lists it.
    pub group: Group,
    /// The inputs the page shows: the dragged one first (if any), then the switches.
    pub keys: &'static [Key],
    /// Inputs a link or `locksim` may also set (the base timing), with no control.
    pub extras: &'static [Key],
    /// Its words in English.
    pub en: Card,
    /// Its words in Japanese.
    pub ja: Card,
}

/// What every definition file uses.
mod prelude {
    pub(crate) use super::catalogue::choices;
    pub(crate) use super::BASE_EXTRAS;
    pub use super::{Card, Definition, Group, Key};
    pub use crate::sim::Ms;
    pub use crate::sim::OutcomeKind::*;
}

/// The catalogue's scripts as the build compiled them (`build.rs`): one module per script, each its `SCRIPT`.
mod compiled {
    include!(concat!(env!("OUT_DIR"), "/catalogue.rs"));
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

            /// Its script as written (`catalogue/<name>.lock`, with its comments): what "Start from" opens.
            pub fn source(self) -> &'static str {
                match self {
                    $(ScenarioId::$variant => include_str!(concat!("catalogue/", stringify!($module), ".lock")),)*
                }
            }

            /// Its script, compiled: a line of the codec.
            fn compiled(self) -> &'static str {
                match self {
                    $(ScenarioId::$variant => compiled::$module::SCRIPT,)*
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

    /// Its run at the script's defaults.
    pub fn script(self) -> Scenario {
        // Decoded each time (a few microseconds, a drag's step builds a run or two): a cache would cost the
        // page's first module more bytes than it saves time. It decodes: build.rs wrote it, and a test reads
        // every one.
        codec::decode(self.compiled()).unwrap()
    }

    /// The inputs it reads, shown or not.
    fn reads(self) -> impl Iterator<Item = Key> {
        self.keys().iter().chain(self.extras()).copied()
    }

    /// The scenario's own defaults: what its script says.
    pub fn defaults(self) -> Inputs {
        let mut i = Inputs::default();
        let mut sc = self.script();
        for key in self.reads() {
            if let Some(v) = key.in_scenario(&mut sc, None) {
                let _ = key.spec().set(&mut i, v);
            }
        }
        i
    }

    /// The run's scenario for these inputs: its script, with each input it reads set (a named value, a
    /// setting, or a named switch of the input's name). Inputs it does not read keep the script's.
    pub fn build(self, given: &Inputs) -> Scenario {
        let mut sc = self.script();
        for key in self.reads() {
            key.in_scenario(&mut sc, Some(key.spec().get(given)));
        }
        sc
    }
}

/// The disturbances: the numeric inputs that stand for something going wrong (when A's pause starts and
/// how long it lasts, how long A's write spends in the network, when A's job ends, a clock jump, a leader
/// crash). Each scenario names those it reads as named values of its runs, and a search varies them.
pub const DISTURBANCES: [Key; 6] =
    [Key::PauseStart, Key::Pause, Key::Delay, Key::Work, Key::Jump, Key::LeaderCrash];

/// How long A works before it checks, writes or sends, in the scenarios where it does (2 s). The scripts
/// say it; this copy is for their words, and a test holds the two equal (so are the constants below and
/// those of `redlock.rs` and `etcd.rs`).
pub const A_WORKS: Ms = 2_000;

/// Chubby's lock-delay as Consul sets it by default (15 s); Chubby caps it at one minute.
pub const LOCK_DELAY: Ms = 15_000;

impl Key {
    /// This input's value in `sc`, after setting it to `set` if given; `None` if `sc` has nothing it sets.
    /// A switch is a setting of the script (`expiry`, `fencing`, `release`, `lock-delay`, `register`, a
    /// failover's `wait`) or else its named switch of the same name (`atomic`); a length is its named value.
    pub fn in_scenario(self, sc: &mut Scenario, set: Option<u64>) -> Option<u64> {
        fn flag(b: &mut bool, set: Option<u64>) -> u64 {
            if let Some(v) = set {
                *b = v != 0;
            }
            u64::from(*b)
        }
        fn num<T: Copy + Into<u64> + TryFrom<u64>>(n: &mut T, set: Option<u64>) -> u64 {
            if let Some(v) = set.and_then(|v| T::try_from(v).ok()) {
                *n = v;
            }
            (*n).into()
        }
        Some(match self {
            Key::Lease => flag(&mut sc.lease, set),
            Key::Fencing => flag(&mut sc.fencing, set),
            Key::Register => flag(&mut sc.register, set),
            Key::Ttl => num(&mut sc.ttl, set),
            Key::FirstToken => num(&mut sc.first_token, set),
            Key::Release => {
                let mut compare = sc.release == Release::CompareAndDelete;
                flag(&mut compare, set);
                sc.release = if compare { Release::CompareAndDelete } else { Release::PlainDelete };
                u64::from(compare)
            }
            // Off takes the script's lock-delay away; on keeps it.
            Key::LockDelay => {
                if set == Some(0) {
                    sc.lock_delay = 0;
                }
                u64::from(sc.lock_delay > 0)
            }
            Key::Sync => match &mut sc.service {
                Service::Failover { sync, .. } => flag(sync, set),
                _ => return None,
            },
            _ => {
                let name = self.spec().name;
                if let Some(i) = sc.switches.iter().position(|s| s.name == name) {
                    if let Some(v) = set {
                        sc.set_switch(i, v != 0);
                    }
                    return Some(u64::from(sc.switches[i].on));
                }
                let i = sc.param(name)?;
                if let Some(v) = set {
                    sc.set_param(i, v);
                }
                sc.params[i].value
            }
        })
    }
}

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

    /// An input is something its script has, and every named value or switch of a script is an input a
    /// link can set: nothing is accepted and dropped, and nothing in a script is out of the reader's reach.
    #[test]
    fn every_input_is_in_its_script_and_every_named_thing_is_an_input() {
        for id in ScenarioId::ALL {
            let mut sc = id.script();
            for key in id.reads() {
                assert!(
                    key.in_scenario(&mut sc, None).is_some(),
                    "{id:?} reads {key:?}, its script has none"
                );
            }
            let names = sc.params.iter().map(|p| &p.name).chain(sc.switches.iter().map(|s| &s.name));
            for name in names {
                let key = Key::from_name(name).unwrap_or_else(|| panic!("{id:?}: {name} is no input"));
                assert!(id.uses(key), "{id:?} does not read {name}");
            }
            // A named value's range is its input's: a link, a flag and a control agree with the script.
            for p in &sc.params {
                let spec = Key::from_name(&p.name).map(|k| k.spec()).expect("an input");
                assert_eq!((p.min, p.max), spec.range(), "{id:?}: {}'s range", p.name);
                assert_eq!(p.off, matches!(spec.kind, Kind::At { .. }), "{id:?}: {} off", p.name);
            }
            // Its defaults are its script's: built at them, it is its script.
            assert_eq!(id.build(&id.defaults()), sc, "{id:?}");
        }
    }

    /// The constants the cards' words and the narration state are what the scripts say: the scripts are the
    /// runs, and a script changed without its words fails here.
    #[test]
    fn the_words_constants_are_what_the_scripts_say() {
        use crate::sim::{Dur, Step};
        for id in [CheckThenPause, NetworkDelay, UnsafeRelease] {
            let a = &id.script().workers[0].steps;
            assert_eq!(
                a[..2],
                [Step::Acquire, Step::Work(Dur::Ms(A_WORKS))],
                "{id:?}: A works {A_WORKS} ms first"
            );
        }
        assert_eq!(LockDelay.script().lock_delay, LOCK_DELAY);
        let Service::Redlock { jump_node, jump_at, drift, .. } = Redlock.script().service else { panic!() };
        assert_eq!((jump_node, jump_at, drift), (JUMP_NODE, JUMP_AT, REDLOCK_DRIFT));
        for id in [Etcd, Zookeeper] {
            let Service::Consensus { election, .. } = id.script().service else { panic!() };
            assert_eq!(election, ELECTION, "{id:?}");
        }
    }

    #[test]
    fn an_input_sets_its_line_or_its_named_switch() {
        let off = Inputs {
            atomic: false,
            compare_release: true,
            lock_delay: false,
            sync: true,
            ..Inputs::default()
        };
        assert!(SetnxExpire.build(&off).workers[0].steps.contains(&crate::sim::Step::AcquireNoExpiry));
        let on = Inputs { atomic: true, ..off };
        assert!(!SetnxExpire.build(&on).workers[0].steps.contains(&crate::sim::Step::AcquireNoExpiry));
        assert_eq!(UnsafeRelease.build(&off).release, Release::CompareAndDelete);
        assert_eq!(LockDelay.build(&off).lock_delay, 0);
        assert_eq!(LockDelay.build(&Inputs::default()).lock_delay, LOCK_DELAY);
        assert!(matches!(Failover.build(&off).service, Service::Failover { sync: true, .. }));
    }

    #[test]
    fn unused_inputs_are_ignored() {
        let odd = Inputs { lease: false, fencing: false, ttl: 3_000, ..Inputs::default() };
        // setnx-expire uses neither lease nor fencing nor ttl.
        assert_eq!(SetnxExpire.build(&odd), SetnxExpire.build(&Inputs::default()));
        assert_ne!(GcPause.build(&odd), GcPause.build(&Inputs::default()));
    }
}

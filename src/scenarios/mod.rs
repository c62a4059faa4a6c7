//! The scenario catalogue: every way a lock fails that the source document names, as a named scenario
//! that builds a [`Scenario`] from the reader's [`Inputs`].
//!
//! One table ([`INPUTS`]) lists every input with its range; each scenario names the inputs it uses. The
//! URL parser and writer, the `locksim` flags and usage, and the embed messages all read these two, so no
//! input can be accepted by one and dropped by another.

mod inputs;
pub mod search;

pub use inputs::{InputSpec, Inputs, Key, Kind, INPUTS};

use serde::{Deserialize, Serialize};

use crate::sim::{self, worker, Dur, Ms, Param, Scenario, Service, Step};

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

/// A scenario of the catalogue. The kebab-case ids are part of the interface (`scenario=`, `locksim
/// --scenario`, `data-scenario`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ScenarioId {
    /// The source's widget: A pauses for GC right after taking the lock.
    GcPause,
    /// A checks its lease, then pauses before writing.
    CheckThenPause,
    /// A's write spends a long time in the network.
    NetworkDelay,
    /// SETNX then EXPIRE, with a crash between them.
    SetnxExpire,
    /// GET then SET: both workers see the lock free.
    CheckThenSet,
    /// A releases with a plain DEL after its lease ran out.
    UnsafeRelease,
    /// A crashes while holding the lock.
    Crash,
    /// The lock service keeps an expired lock unavailable for a while (Chubby's lock-delay).
    LockDelay,
    /// The new holder registers its token at the storage when it is granted the lock.
    RegisterToken,
    /// A Redis primary crashes before replicating; the promoted replica grants the lock again.
    Failover,
    /// Redlock over five servers; one server's clock jumps.
    Redlock,
    /// An etcd cluster: leases kept alive, revisions as tokens, a leader that may crash.
    Etcd,
    /// A ZooKeeper ensemble: ephemeral sequential znodes, sessions, zxids as tokens.
    Zookeeper,
}

use ScenarioId::*;

/// The inputs of the base scenario that only a link or `locksim` sets (no control on the page).
const BASE_EXTRAS: &[Key] = &[Key::Ttl, Key::PauseStart, Key::BRequest, Key::BWork, Key::FirstToken];

impl ScenarioId {
    /// Every scenario, grouped as the picker shows them.
    pub const ALL: [ScenarioId; 13] = [
        SetnxExpire,
        CheckThenSet,
        GcPause,
        CheckThenPause,
        NetworkDelay,
        Crash,
        UnsafeRelease,
        RegisterToken,
        LockDelay,
        Failover,
        Redlock,
        Etcd,
        Zookeeper,
    ];

    /// The id in links and on the command line.
    pub fn id(self) -> &'static str {
        match self {
            GcPause => "gc-pause",
            CheckThenPause => "check-then-pause",
            NetworkDelay => "network-delay",
            SetnxExpire => "setnx-expire",
            CheckThenSet => "check-then-set",
            UnsafeRelease => "unsafe-release",
            Crash => "crash",
            LockDelay => "lock-delay",
            RegisterToken => "register-token",
            Failover => "failover",
            Redlock => "redlock",
            Etcd => "etcd",
            Zookeeper => "zookeeper",
        }
    }

    /// The scenario with this id (`base` is the old name of `gc-pause`).
    pub fn parse(id: &str) -> Option<ScenarioId> {
        match id.trim() {
            "base" => Some(GcPause),
            id => ScenarioId::ALL.into_iter().find(|s| s.id() == id),
        }
    }

    /// Every id, for messages and usage text.
    pub fn ids() -> [&'static str; 13] {
        ScenarioId::ALL.map(ScenarioId::id)
    }

    /// Where the picker lists it.
    pub fn group(self) -> Group {
        match self {
            SetnxExpire | CheckThenSet => Group::Taking,
            GcPause | CheckThenPause | NetworkDelay | Crash => Group::Losing,
            UnsafeRelease => Group::GivingBack,
            RegisterToken | LockDelay => Group::Fencing,
            Failover | Redlock | Etcd | Zookeeper => Group::Replicated,
        }
    }

    /// The inputs the page shows for this scenario: the dragged one first (if any), then the switches.
    pub fn keys(self) -> &'static [Key] {
        match self {
            GcPause => &[Key::Pause, Key::Lease, Key::Fencing],
            CheckThenPause => &[Key::Pause, Key::Lease, Key::Fencing],
            NetworkDelay => &[Key::Delay, Key::Lease, Key::Fencing],
            SetnxExpire => &[Key::Atomic],
            CheckThenSet => &[Key::Atomic, Key::Fencing],
            UnsafeRelease => &[Key::Work, Key::Release, Key::Fencing],
            Crash => &[Key::Lease],
            LockDelay => &[Key::Pause, Key::LockDelay, Key::Fencing],
            RegisterToken => &[Key::Pause, Key::Register, Key::Fencing],
            Failover => &[Key::Sync, Key::Fencing],
            // Fencing is shown but unavailable: Redlock's values are random, nothing to order.
            Redlock => &[Key::Jump],
            Etcd => &[Key::Pause, Key::LeaderCrash, Key::Fencing],
            Zookeeper => &[Key::Pause, Key::Fencing],
        }
    }

    /// Inputs a link or `locksim` may also set for this scenario (the base timing), with no control.
    pub fn extras(self) -> &'static [Key] {
        match self {
            GcPause | LockDelay | RegisterToken | Etcd | Zookeeper => BASE_EXTRAS,
            CheckThenPause => &[Key::Ttl, Key::BRequest, Key::BWork, Key::FirstToken],
            Redlock => &[Key::Pause],
            _ => &[],
        }
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
        let pause = match self {
            CheckThenPause => 13_000,
            LockDelay => 15_000,
            RegisterToken => 10_500,
            Etcd | Zookeeper => 15_000,
            Redlock => 0,
            _ => Inputs::default().pause,
        };
        Inputs { pause, ..Inputs::default() }
    }

    /// Where the dragged band starts on A's lane: its right edge is this plus the dragged value.
    pub fn drag_origin(self, i: &Inputs) -> Ms {
        match self {
            GcPause | LockDelay | RegisterToken | Etcd | Zookeeper => i.pause_start,
            CheckThenPause | NetworkDelay => A_WORKS,
            Redlock => JUMP_AT,
            _ => 0,
        }
    }

    /// The named values of this scenario's runs: the disturbances it reads (a search varies them, in this
    /// order; the dragged one is among them), then the lengths of the base timing it reads.
    pub fn named(self) -> impl Iterator<Item = Key> {
        DISTURBANCES.into_iter().chain([Key::BRequest, Key::BWork]).filter(move |k| self.uses(*k))
    }

    /// The run's scenario for these inputs. Inputs the scenario does not use keep their defaults; its
    /// disturbances ([`ScenarioId::named`]) are named values of the scenario, so a drag, a flag or a search
    /// sets them by name.
    pub fn build(self, given: &Inputs) -> Scenario {
        let mut i = Inputs::default();
        for key in self.keys().iter().chain(self.extras()) {
            key.spec().copy(given, &mut i);
        }
        let named: Vec<Key> = self.named().collect();
        // `d(key)`: the length of that input, by name if the scenario names it.
        let d = |key: Key| match named.iter().position(|k| *k == key) {
            Some(n) => Dur::Param(n as u8),
            None => Dur::Ms(key.spec().get(&i)),
        };
        let ms = Dur::Ms;
        let write = Step::Write { delay: ms(0) };
        let b = worker(
            "B",
            [Step::Idle(d(Key::BRequest)), Step::Acquire, Step::Work(d(Key::BWork)), write, Step::Release],
        );
        let mut sc = match self {
            GcPause | LockDelay | RegisterToken | Etcd | Zookeeper => Scenario::with_workers(vec![
                // A takes the lock, works until its pause starts, pauses, writes at once, releases.
                worker(
                    "A",
                    [
                        Step::Acquire,
                        Step::Work(d(Key::PauseStart)),
                        Step::Pause(d(Key::Pause)),
                        write,
                        Step::Release,
                    ],
                ),
                b,
            ]),
            Failover => Scenario::with_workers(vec![
                // A never pauses: it writes at 4 s, well inside its lease, and releases.
                worker("A", [Step::Acquire, Step::Work(ms(4_000)), write, Step::Release]),
                b,
            ]),
            Redlock => Scenario::with_workers(vec![
                worker(
                    "A",
                    [Step::Acquire, Step::Pause(d(Key::Pause)), Step::Work(ms(5_000)), write, Step::Release],
                ),
                worker(
                    "B",
                    [
                        Step::Idle(ms(3_000)),
                        Step::TryAcquire { retry: ms(1_000) },
                        Step::Work(ms(1_000)),
                        write,
                        Step::Release,
                    ],
                ),
            ]),
            CheckThenPause => Scenario::with_workers(vec![
                worker(
                    "A",
                    [
                        Step::Acquire,
                        Step::Work(ms(A_WORKS)),
                        Step::CheckLease,
                        Step::Pause(d(Key::Pause)),
                        write,
                        Step::Release,
                    ],
                ),
                b,
            ]),
            NetworkDelay => Scenario::with_workers(vec![
                worker(
                    "A",
                    [
                        Step::Acquire,
                        Step::Work(ms(A_WORKS)),
                        Step::Write { delay: d(Key::Delay) },
                        Step::Release,
                    ],
                ),
                b,
            ]),
            SetnxExpire => {
                let take = if i.atomic { Step::Acquire } else { Step::AcquireNoExpiry };
                Scenario::with_workers(vec![worker("A", [take, Step::Crash]), b])
            }
            Crash => Scenario::with_workers(vec![worker("A", [Step::Acquire, Step::Crash]), b]),
            CheckThenSet => {
                // GET at 0 / 0.5 s, SET at 1 / 1.5 s; or SET NX at those times, retrying every 0.5 s.
                let program = |at: Ms| {
                    let mut steps = if i.atomic {
                        vec![Step::Idle(ms(at + 1_000)), Step::TryAcquire { retry: ms(500) }]
                    } else {
                        vec![Step::Idle(ms(at)), Step::Get, Step::Idle(ms(1_000)), Step::Set]
                    };
                    steps.extend([Step::Work(ms(1_000)), write, Step::Release]);
                    steps
                };
                Scenario::with_workers(vec![worker("A", program(0)), worker("B", program(500))])
            }
            UnsafeRelease => Scenario::with_workers(vec![
                worker(
                    "A",
                    [
                        Step::Acquire,
                        Step::Work(ms(A_WORKS)),
                        write,
                        Step::WorkUntil(d(Key::Work)),
                        Step::Release,
                    ],
                ),
                worker(
                    "B",
                    [Step::Idle(ms(1_000)), Step::Acquire, Step::Work(ms(6_000)), write, Step::Release],
                ),
                worker(
                    "C",
                    [Step::Idle(ms(11_000)), Step::Acquire, Step::Work(ms(1_000)), write, Step::Release],
                ),
            ]),
        };
        sc.params = named
            .iter()
            .map(|k| {
                let spec = k.spec();
                let (min, max) = spec.range();
                Param {
                    name: spec.name.to_owned(),
                    value: spec.get(&i),
                    min,
                    max,
                    off: matches!(spec.kind, Kind::At { .. }),
                }
            })
            .collect();
        sc.drag = self.dragged().and_then(|k| named.iter().position(|n| *n == k)).map(|n| n as u8);
        sc.lease = i.lease;
        sc.fencing = i.fencing;
        sc.ttl = i.ttl;
        sc.first_token = i.first_token;
        if self == UnsafeRelease && !i.compare_release {
            sc.release = sim::Release::PlainDelete;
        }
        if self == LockDelay && i.lock_delay {
            sc.lock_delay = LOCK_DELAY;
        }
        sc.register = self == RegisterToken && i.register;
        sc.service = match self {
            Failover => Service::Failover { crash: 500, promote: 2_000, sync: i.sync },
            Redlock => {
                sc.fencing = false;
                Service::Redlock {
                    nodes: 5,
                    // A reaches N1–N3 only (N4 and N5 are cut off from it, as in Kleppmann's example); B all.
                    reach: [0b00111, 0b11111, 0b11111],
                    jump_node: JUMP_NODE,
                    jump_at: JUMP_AT,
                    jump: d(Key::Jump),
                    drift: REDLOCK_DRIFT,
                }
            }
            Etcd => Service::Consensus { leader_crash: Some(d(Key::LeaderCrash)), election: ELECTION },
            Zookeeper => Service::Consensus { leader_crash: None, election: ELECTION },
            _ => Service::Single,
        };
        sc
    }
}

/// The disturbances: the numeric inputs that stand for something going wrong (when A's pause starts and
/// how long it lasts, how long A's write spends in the network, when A's job ends, a clock jump, a leader
/// crash). Each scenario names those it reads as named values of its runs, and a search varies them.
pub const DISTURBANCES: [Key; 6] =
    [Key::PauseStart, Key::Pause, Key::Delay, Key::Work, Key::Jump, Key::LeaderCrash];

/// Whose clock jumps in `redlock`: N3.
pub const JUMP_NODE: usize = 2;

/// When N3's clock jumps in `redlock` (2 s).
pub const JUMP_AT: Ms = 2_000;

/// Redlock's clock-drift allowance for a 10 s lease: the reference implementations' 1 % of the TTL plus 2 ms.
pub const REDLOCK_DRIFT: Ms = 102;

/// The leader crash the page's switch sets in `etcd` (5 s).
pub const LEADER_CRASH: Ms = 5_000;

/// etcd's default election timeout (1 s): how long the group has no leader after a crash, and how much the
/// new leader adds to every lease.
pub const ELECTION: Ms = 1_000;

/// How long A works before it checks, writes or sends, in the scenarios where it does (2 s).
pub const A_WORKS: Ms = 2_000;

/// Chubby's lock-delay as Consul sets it by default (15 s); Chubby caps it at one minute.
pub const LOCK_DELAY: Ms = 15_000;

#[cfg(test)]
mod tests {
    use super::*;

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

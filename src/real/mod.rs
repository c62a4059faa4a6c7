//! `locksim real`: a scenario of the catalogue run on a real lock service (Redis, etcd or ZooKeeper), with
//! real worker processes, a real SIGSTOP for a GC pause, a real SIGKILL for a crash and a real database as
//! the storage; the recorded run becomes the core's own events, so the core's own classifier judges it,
//! beside the simulation of the same inputs.
//!
//! Native only: the browser app never compiles this module or its dependencies.
//!
//! - [`cli`]: `locksim real`'s checks and exit codes.
//! - [`check`], [`resp`]: `locksim check`, a reader's own lock client as the workers (the protocol is
//!   `docs/clients.md`), and the bit of Redis's protocol its proxy reads.
//! - [`conductor`]: the `locksim real` process: starts everything, gives the cues, gathers the record.
//! - [`worker`]: a worker process (`locksim real-worker`), following its steps of the core's scenario.
//! - [`servers`]: starting the servers, and making sure nothing outlives the run.
//! - [`lock`], [`redis`], [`etcd`]: what a worker asks of a lock service, and the two clients (etcd's with
//!   its lock recipe for the `etcd` scenario).
//! - [`redlock`], [`clockshift`]: Redlock's client over five Redis servers, and the preload library that
//!   makes one server's wall clock jump.
//! - [`cluster`]: three etcd members, the conductor crashing the leader and watching the election.
//! - [`zookeeper`]: ZooKeeper's lock recipe on a three-member ensemble.
//! - [`failover`]: a Redis primary and its replica, the conductor crashing one and promoting the other.
//! - [`storage`], [`pg`]: the SQLite resource with its fenced `UPDATE`; for `network-delay` a PostgreSQL
//!   server behind a proxy that holds each message for the delay.
//! - [`recording`]: the record as core events, and the jitter against the simulation (pure).
//! - [`clock`]: the one monotonic clock all processes share, and the time scale.

pub mod check;
pub mod cli;
pub mod clock;
pub mod clockshift;
pub mod cluster;
pub mod conductor;
pub mod etcd;
pub mod failover;
pub mod lock;
pub mod pg;
pub mod recording;
pub mod redis;
pub mod redlock;
pub mod resp;
pub mod servers;
pub mod storage;
pub mod worker;
pub mod zookeeper;

use std::collections::BTreeMap;
use std::io;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::present::report::table_with;
use crate::scenarios::{Inputs, Kind, ScenarioId};
use crate::sim::{OutcomeKind, Run, Scenario, Service, Trace};
use lock::LockClient;

/// A real lock service.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Backend {
    /// Redis: `SET NX PX`, compare-and-delete in Lua, `INCR` for tokens; one server, or for `failover` a
    /// primary and its replica.
    Redis,
    /// A single etcd node: a lease kept alive, a put-if-absent transaction or (for `etcd`) etcd's lock
    /// recipe, a revision as token.
    Etcd,
    /// A three-member ZooKeeper ensemble: ephemeral sequential znodes, the session as the lease, a czxid as
    /// token.
    Zookeeper,
}

impl Backend {
    /// Every backend.
    pub const ALL: [Backend; 3] = [Backend::Redis, Backend::Etcd, Backend::Zookeeper];

    /// Its name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Backend::Redis => "redis",
            Backend::Etcd => "etcd",
            Backend::Zookeeper => "zookeeper",
        }
    }

    /// The time scale for `id` without `--scale`, chosen so that a run's largest jitter stays under a tenth
    /// of the lease ([`jitter_bound`]) and the scenario's own margins hold. etcd revokes an expired lease up
    /// to half a second of real time late (its lessor looks for expired leases every 500 ms, whatever the
    /// TTL): at scale 1 that is under 500 ms of a 10 s lease; at 0.1 it would be up to 5 s, a different
    /// scenario. `register-token` leaves only 0.5 s between B's grant (10 s) and A's wake (10.5 s), all of
    /// which that lateness can take at scale 1, so on etcd it runs at 2 (half speed): 500 ms of real time is
    /// 250 ms of the scenario. Redis expires a key the moment it is read after its time, so its runs go ten
    /// times faster. ZooKeeper expires a session on the leader's tick (100 ms here, the shortest the
    /// ensemble keeps in step with on a loaded machine): at 0.5 that is under 200 ms of scenario time.
    pub fn default_scale(self, id: ScenarioId) -> f64 {
        match (self, id) {
            (Backend::Redis, _) => 0.1,
            (Backend::Etcd, ScenarioId::RegisterToken) => 2.0,
            (Backend::Etcd, _) => 1.0,
            (Backend::Zookeeper, _) => 0.5,
        }
    }

    /// The server binary it starts.
    pub fn server_binary(self) -> &'static str {
        match self {
            Backend::Redis => "redis-server",
            Backend::Etcd => "etcd",
            Backend::Zookeeper => "zookeeper",
        }
    }

    /// A client, for `sc`, of the servers on loopback at `ports` (the primary first), `dir` being the run's
    /// directory: the failover client for a Redis primary and replica, etcd's lock recipe for a consensus
    /// group, otherwise the one-key lock.
    /// `scale` sets ZooKeeper's session timeout (the lease).
    pub fn client(
        self,
        sc: &Scenario,
        ports: &[u16],
        dir: &Path,
        scale: f64,
    ) -> io::Result<Box<dyn LockClient + Send>> {
        let port = *ports.first().ok_or_else(|| io::Error::other("no server"))?;
        Ok(match (self, sc.service) {
            (Backend::Redis, Service::Failover { sync, .. }) => {
                Box::new(failover::Failover::connect(ports, dir, sync)?)
            }
            (Backend::Redis, Service::Redlock { .. }) => {
                Box::new(redlock::Redlock::new(ports, sc.first_token))
            }
            (Backend::Redis, _) => Box::new(redis::Redis::connect(port)?),
            (Backend::Etcd, Service::Consensus { .. }) => Box::new(etcd::Etcd::queue_on(ports)),
            (Backend::Etcd, _) => Box::new(etcd::Etcd::new(port)),
            (Backend::Zookeeper, _) => {
                let timeout = std::time::Duration::from_nanos(clock::Scale(scale).real_ns(sc.ttl));
                Box::new(zookeeper::Zookeeper::connect(ports, timeout)?)
            }
        })
    }

    /// Sets the server up before t = 0: Redis's token counter starts so that the first `INCR` gives
    /// `first_token`; etcd's tokens are revisions, nothing to set; ZooKeeper's lock needs its parent znode.
    pub fn prepare(self, ports: &[u16], first_token: u64) -> io::Result<()> {
        let port = *ports.first().ok_or_else(|| io::Error::other("no server"))?;
        match self {
            Backend::Redis => {
                let before = first_token.saturating_sub(1).to_string();
                redis::Redis::connect(port)?.call(&["SET", redis::COUNTER, &before])?;
            }
            Backend::Etcd => {}
            Backend::Zookeeper => {
                zookeeper::Zookeeper::connect(ports, std::time::Duration::from_secs(10))?.prepare()?;
            }
        }
        Ok(())
    }
}

/// The backends that can run `id` for real. `failover` runs on a Redis primary and replica; `etcd` on one
/// etcd member, or three with a leader crash. `check-then-set` needs a plain
/// `SET` (Redis). `lock-delay` has no real run: no packaged lock service offers it ([`cli::check`] says
/// so). `redlock` runs on five Redis servers, one of them under a wall clock that jumps; `zookeeper` on a
/// three-member ensemble; `network-delay` writes to a PostgreSQL server through a delaying proxy.
pub fn backends(id: ScenarioId) -> &'static [Backend] {
    match id {
        ScenarioId::GcPause | ScenarioId::CheckThenPause | ScenarioId::RegisterToken => {
            &[Backend::Redis, Backend::Etcd]
        }
        ScenarioId::SetnxExpire
        | ScenarioId::CheckThenSet
        | ScenarioId::UnsafeRelease
        | ScenarioId::Crash
        | ScenarioId::Failover
        | ScenarioId::NetworkDelay
        | ScenarioId::Redlock => &[Backend::Redis],
        ScenarioId::Etcd => &[Backend::Etcd],
        ScenarioId::Zookeeper => &[Backend::Zookeeper],
        _ => &[],
    }
}

/// Every scenario with a real run and its backends: `gc-pause (redis, etcd), setnx-expire (redis), …`.
pub fn runs() -> String {
    let runs: Vec<String> = ScenarioId::ALL
        .iter()
        .filter(|s| !backends(**s).is_empty())
        .map(|s| {
            format!("{} ({})", s.id(), backends(*s).iter().map(|b| b.name()).collect::<Vec<_>>().join(", "))
        })
        .collect();
    runs.join(", ")
}

/// Why a real run did not give a result.
#[derive(Debug)]
pub enum Failure {
    /// Bad arguments or an unsupported combination (exit code 2).
    Usage(String),
    /// The server binary is not installed (exit code 2).
    Missing(&'static str),
    /// Ctrl-C, SIGTERM, SIGHUP or SIGQUIT: everything was stopped.
    Interrupted,
    /// The run could not keep its timing: an event fell `max_jitter` scenario ms from its simulated time,
    /// over `bound` (a tenth of the lease), so its verdict would not be about the same scenario (exit code 1).
    Untimed {
        /// The largest jitter, scenario ms.
        max_jitter: u64,
        /// The bound it broke, scenario ms.
        bound: u64,
    },
    /// Something went wrong on the way (exit code 1).
    Broken(String),
}

/// A real run beside its simulation.
pub struct RealRun {
    /// The scenario.
    pub scenario: ScenarioId,
    /// Its inputs.
    pub inputs: Inputs,
    /// The lock service.
    pub backend: Backend,
    /// Its version.
    pub version: String,
    /// Real time per scenario time.
    pub scale: f64,
    /// The core's run of the same scenario.
    pub simulated: Run,
    /// The real run, as the core's trace and verdict.
    pub real: Run,
    /// For each real event, scenario ms after its simulated counterpart (`None`: it has none).
    pub jitter: Vec<Option<i64>>,
    /// `locksim check`: the reader's client that played the workers (`None`: the lab's own workers).
    pub client: Option<String>,
}

/// The largest jitter a run may have and still give a verdict: under a tenth of the lease, in scenario ms.
pub fn jitter_bound(ttl: u64) -> u64 {
    ttl / 10
}

/// Whether a run with this `jitter` (scenario ms per event) kept its timing for a lease of `ttl`; if not,
/// [`Failure::Untimed`]: its verdict would be about another scenario than the one simulated.
pub fn timing(jitter: &[Option<i64>], ttl: u64) -> Result<(), Failure> {
    let max_jitter = jitter.iter().flatten().map(|j| j.unsigned_abs()).max().unwrap_or(0);
    let bound = jitter_bound(ttl);
    if max_jitter >= bound {
        return Err(Failure::Untimed { max_jitter, bound });
    }
    Ok(())
}

impl RealRun {
    /// The largest jitter, either way, in scenario ms.
    pub fn max_jitter(&self) -> u64 {
        self.jitter.iter().flatten().map(|j| j.unsigned_abs()).max().unwrap_or(0)
    }

    /// `simulated: fenced   real (redis 7.0.15): fenced`
    pub fn verdicts(&self) -> String {
        if self.client.is_some() {
            return format!(
                "lab's client: {}   your client (redis {}): {}",
                self.simulated.outcome.kind, self.version, self.real.outcome.kind
            );
        }
        format!(
            "simulated: {}   real ({} {}): {}",
            self.simulated.outcome.kind,
            self.backend.name(),
            self.version,
            self.real.outcome.kind
        )
    }

    /// The inputs the scenario reads that differ from its defaults, as the embed messages write them: times
    /// and counts as numbers, switches as their words (`"off"`, `"compare"`).
    pub fn changed(&self) -> BTreeMap<&'static str, serde_json::Value> {
        let defaults = self.scenario.defaults();
        self.scenario
            .keys()
            .iter()
            .chain(self.scenario.extras())
            .map(|k| k.spec())
            .filter(|spec| spec.get(&self.inputs) != spec.get(&defaults))
            .map(|spec| {
                let value = match spec.kind {
                    Kind::Words(_) => spec.text(&self.inputs).into(),
                    Kind::Ms { .. } | Kind::Count { .. } | Kind::At { .. } => spec.get(&self.inputs).into(),
                };
                (spec.name, value)
            })
            .collect()
    }

    /// The real trace as a table with a jitter column, then the facts and the two verdicts.
    pub fn text(&self) -> String {
        let jitter: Vec<String> =
            self.jitter.iter().map(|j| j.map_or_else(|| "-".into(), |j| format!("{j:+}"))).collect();
        let table = table_with(&self.real, Some(("jitter", &jitter)));
        // The table ends with the real run's double-grant and outcome lines; the verdicts line replaces them.
        let body: Vec<&str> = table.lines().take_while(|l| !l.starts_with("double-grant:")).collect();
        format!(
            "scenario: {}, real run on {} {} at scale {} (jitter: real time minus simulated, in scenario ms)\n{}\n\
             double-grant: simulated {}, real {}\nmax jitter: {} ms\n{}\n",
            self.scenario.id(),
            self.backend.server_binary(),
            self.version,
            self.scale,
            body.join("\n"),
            self.simulated.outcome.double_grant.is_some(),
            self.real.outcome.double_grant.is_some(),
            self.max_jitter(),
            self.verdicts()
        )
    }

    /// The JSON form: both verdicts, the backend, the jitter and the real trace as the core serializes it
    /// (and its events as numbers).
    pub fn json(&self) -> String {
        #[derive(Serialize)]
        struct Out<'a> {
            scenario: ScenarioId,
            inputs: &'a Inputs,
            changed: BTreeMap<&'static str, serde_json::Value>,
            backend: Backend,
            version: &'a str,
            scale: f64,
            simulated: OutcomeKind,
            real: OutcomeKind,
            max_jitter_ms: u64,
            jitter_ms: &'a [Option<i64>],
            trace: &'a Trace,
            /// The real events as numbers ([`sim::Event::to_numbers`]), as the page's recordings keep them.
            events: Vec<Vec<i64>>,
            /// `locksim check`: the reader's client.
            #[serde(skip_serializing_if = "Option::is_none")]
            client: Option<&'a str>,
        }
        let out = Out {
            scenario: self.scenario,
            inputs: &self.inputs,
            changed: self.changed(),
            backend: self.backend,
            version: &self.version,
            scale: self.scale,
            simulated: self.simulated.outcome.kind,
            real: self.real.outcome.kind,
            max_jitter_ms: self.max_jitter(),
            jitter_ms: &self.jitter,
            trace: &self.real.trace,
            events: self.real.trace.events.iter().map(|e| e.to_numbers()).collect(),
            client: self.client.as_deref(),
        };
        serde_json::to_string(&out).expect("plain data") + "\n"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_whose_jitter_reaches_a_tenth_of_the_lease_gives_no_verdict() {
        assert!(timing(&[Some(3), None, Some(-999)], 10_000).is_ok());
        assert!(matches!(
            timing(&[Some(3), Some(-1_000)], 10_000),
            Err(Failure::Untimed { max_jitter: 1_000, bound: 1_000 })
        ));
        assert!(timing(&[], 10_000).is_ok());
    }

    #[test]
    fn lock_delay_is_refused_with_its_reason() {
        let inputs = ScenarioId::LockDelay.defaults();
        match cli::check(ScenarioId::LockDelay, &inputs, Some("redis"), None) {
            Err(Failure::Usage(msg)) => assert!(msg.contains("offers lock-delay"), "{msg}"),
            _ => panic!("lock-delay ran"),
        }
    }
}

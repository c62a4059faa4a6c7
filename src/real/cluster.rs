//! A three-member etcd cluster whose leader the conductor crashes (`etcd` with `leader_crash`): it asks each
//! member who leads, SIGKILLs that member, and from then on watches the survivors until one of them leads,
//! then reads what the new leader did to the holder's lease (etcd's lessor `Promote` re-arms every lease;
//! the run observes by how much instead of assuming it).

use std::io;
use std::thread::JoinHandle;
use std::time::Duration;

use base64::engine::general_purpose::STANDARD as B64;
use base64::Engine;
use serde_json::{json, Value};

use super::clock::now_ns;
use super::etcd::{post, PREFIX};
use super::lock::parse_mark;
use super::servers::signal;
use crate::sim::{Event, EventKind, WorkerId};

/// How long the survivors may take to elect a leader.
const ELECTION_NS: u64 = 10_000_000_000;

/// The gateway writes 64-bit integers as strings.
fn int(v: &Value) -> Option<i64> {
    match v {
        Value::String(s) => s.parse().ok(),
        v => v.as_i64(),
    }
}

/// A member ID: unsigned 64 bits, often above `i64::MAX`.
fn id(v: &Value) -> Option<u64> {
    match v {
        Value::String(s) => s.parse().ok(),
        v => v.as_u64(),
    }
}

/// The cluster: its members' client ports and PIDs.
pub struct Cluster {
    ports: Vec<u16>,
    pids: Vec<u32>,
    names: Vec<String>,
    watch: Option<JoinHandle<io::Result<Vec<Event>>>>,
}

/// The member that leads now, by index and ID, as the members themselves say.
fn leader(ports: &[u16]) -> io::Result<(usize, u64)> {
    for &port in ports {
        let Ok(status) = post(port, "/v3/maintenance/status", &json!({})) else { continue };
        let Some(lead) = id(&status["leader"]) else { continue };
        for (i, &p) in ports.iter().enumerate() {
            if post(p, "/v3/maintenance/status", &json!({})).ok().and_then(|s| id(&s["header"]["member_id"]))
                == Some(lead)
            {
                return Ok((i, lead));
            }
        }
    }
    Err(io::Error::other("no etcd member names a leader"))
}

impl Cluster {
    /// The members at `ports` with `pids`; `names` are the workers', to read whose lease a key is.
    pub fn new(ports: Vec<u16>, pids: Vec<u32>, names: Vec<String>) -> Cluster {
        Cluster { ports, pids, names, watch: None }
    }

    /// SIGKILLs the member that leads now; from then on a thread watches for the new leader. When it
    /// died (monotonic ns).
    pub fn crash_leader(&mut self, t0: u64) -> io::Result<u64> {
        let (lead, old) = leader(&self.ports)?;
        signal(self.pids[lead], nix::sys::signal::Signal::SIGKILL);
        let crashed = now_ns();
        let survivors: Vec<u16> =
            self.ports.iter().enumerate().filter(|&(i, _)| i != lead).map(|(_, &p)| p).collect();
        let names = self.names.clone();
        self.watch = Some(std::thread::spawn(move || elect(&survivors, old, &names, crashed, t0)));
        Ok(crashed)
    }

    /// The events the watch saw (stamped in real ns since t = 0): the leaderless gap and the new leader's
    /// renewal of the holder's lease. None if no leader crashed.
    pub fn events(&mut self) -> io::Result<Vec<Event>> {
        match self.watch.take() {
            Some(watch) => watch.join().map_err(|_| io::Error::other("the election watch failed"))?,
            None => Ok(Vec::new()),
        }
    }
}

/// Waits until a survivor leads (another than `old`), then reads the lease of the key that holds the lock: `Election` from the
/// crash to the new leader, and `Renew` with the lease's new end as etcd reports it.
fn elect(survivors: &[u16], old: u64, names: &[String], crashed: u64, t0: u64) -> io::Result<Vec<Event>> {
    let deadline = crashed + ELECTION_NS;
    let led = loop {
        // A member answers its status from its own state at once: it names no leader (0) or the dead one
        // until the election is over. (A linearizable read would wait out the election instead.)
        let answered = survivors.iter().any(|&p| {
            post(p, "/v3/maintenance/status", &json!({}))
                .is_ok_and(|s| id(&s["leader"]).is_some_and(|l| l != 0 && l != old))
        });
        if answered {
            break now_ns();
        }
        if now_ns() > deadline {
            return Err(io::Error::other("no new etcd leader within 10 s"));
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    let stamp = |ns: u64| ns.saturating_sub(t0);
    let mut out = vec![Event { at: stamp(crashed), kind: EventKind::Election { until: stamp(led) } }];
    // The holder: the key with the lowest create revision, its lease, its mark.
    let range = json!({
        "key": B64.encode(PREFIX),
        "range_end": B64.encode("lock/job0"),
        "sort_order": "ASCEND",
        "sort_target": "CREATE",
        "limit": 1,
    });
    let reply = super::etcd::post_any(survivors, "/v3/kv/range", &range)?;
    let kv = &reply["kvs"][0];
    let (Some(lease), Some(token)) = (int(&kv["lease"]), int(&kv["create_revision"])) else { return Ok(out) };
    let mark = kv["value"].as_str().and_then(|v| B64.decode(v).ok()).and_then(|v| String::from_utf8(v).ok());
    let worker: Option<WorkerId> =
        mark.as_deref().and_then(parse_mark).and_then(|(name, _)| names.iter().position(|n| n == name));
    let Some(worker) = worker else { return Ok(out) };
    // etcd reports whole seconds left: the moment that number drops is when exactly that many are left.
    let ttl = |ports: &[u16]| {
        super::etcd::post_any(ports, "/v3/lease/timetolive", &json!({ "ID": lease.to_string() }))
            .ok()
            .and_then(|r| int(&r["TTL"]))
    };
    let first = ttl(survivors);
    let until = now_ns() + 1_200_000_000;
    while now_ns() < until {
        let now = ttl(survivors);
        if let (Some(a), Some(b)) = (first, now) {
            if b < a && b >= 0 {
                let expires = now_ns() + u64::try_from(a).unwrap_or(0) * 1_000_000_000;
                let kind = EventKind::Renew { worker, token: token as u64, expires: stamp(expires) };
                out.push(Event { at: stamp(led), kind });
                break;
            }
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    Ok(out)
}

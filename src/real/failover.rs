//! Redis failover for real (the `failover` scenario): a primary (node 0) and its replica (node 1), two
//! `redis-server` processes on loopback. The conductor stands in for Sentinel: at the scenario's cues it
//! kills the primary (SIGKILL) and promotes the replica (`REPLICAOF NO ONE`), and it names the primary of
//! the moment in a file of the run's directory, which clients read as a Sentinel client asks
//! `SENTINEL get-master-addr-by-name`. [`Failover`] is that client: the single-server commands on whichever
//! node is primary, each change followed by `WAIT 1` when the scenario's `sync` is on.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use super::clock::now_ns;
use super::lock::{unreachable, LockClient, Take, Taken};
use super::redis::{Redis, Reply, COUNTER, KEY};
use super::servers::{signal, wait_stopped};
use crate::sim::NodeChange;

/// The file in the run's directory that names the primary of the moment: `0` or `1`.
pub const PRIMARY_FILE: &str = "primary";

/// How long `WAIT 1` waits for the replica's acknowledgement, in real ms: far longer than loopback needs.
const WAIT_MS: &str = "1000";

/// How long the replica may take to copy the primary before t = 0.
const SYNC_NS: u64 = 10_000_000_000;

/// Names `node` as the primary in `dir`, atomically (a reader sees the old name or the new one).
pub fn announce(dir: &Path, node: usize) -> io::Result<()> {
    let tmp = dir.join(format!("{PRIMARY_FILE}.tmp"));
    fs::write(&tmp, node.to_string())?;
    fs::rename(tmp, dir.join(PRIMARY_FILE))
}

fn announced(file: &Path) -> io::Result<usize> {
    let text = fs::read_to_string(file)?;
    text.trim().parse().map_err(|_| io::Error::other(format!("{}: not a node: {text:?}", file.display())))
}

/// The primary cannot be reached (crashed, no replica promoted yet): the worker waits, as for a held lock.
fn down(e: io::Error) -> io::Error {
    io::Error::new(io::ErrorKind::NotConnected, format!("no primary: {e}"))
}

/// A client that follows the promotion: the lock's commands go to the primary of the moment.
pub struct Failover {
    ports: Vec<u16>,
    file: PathBuf,
    sync: bool,
    /// The node it is connected to, and the connection.
    conn: Option<(usize, Redis)>,
    /// The nodes the last take or release is known to have reached.
    reached: Vec<usize>,
}

impl Failover {
    /// A client of the nodes on loopback at `ports` (primary first), the primary named in `dir`; connects to
    /// the primary now, before t = 0.
    pub fn connect(ports: &[u16], dir: &Path, sync: bool) -> io::Result<Failover> {
        let mut client = Failover {
            ports: ports.to_vec(),
            file: dir.join(PRIMARY_FILE),
            sync,
            conn: None,
            reached: Vec::new(),
        };
        client.primary()?;
        Ok(client)
    }

    /// The connection to the primary of the moment, opened anew after a promotion.
    fn primary(&mut self) -> io::Result<(usize, &mut Redis)> {
        let node = announced(&self.file)?;
        if self.conn.as_ref().is_none_or(|(n, _)| *n != node) {
            self.conn = None;
            let port = *self.ports.get(node).ok_or_else(|| io::Error::other(format!("no node {node}")))?;
            self.conn = Some((node, Redis::connect(port).map_err(down)?));
        }
        let (node, redis) = self.conn.as_mut().expect("connected just above");
        Ok((*node, redis))
    }

    /// `op` on the primary; a connection that broke is dropped and the error says the primary is down.
    fn on_primary<T>(&mut self, op: impl FnOnce(&mut Redis) -> io::Result<T>) -> io::Result<(usize, T)> {
        let (node, redis) = self.primary()?;
        match op(redis) {
            Ok(v) => Ok((node, v)),
            Err(e) if unreachable(&e) => {
                self.conn = None;
                Err(down(e))
            }
            Err(e) => Err(e),
        }
    }

    /// After a change on `node`: with `sync`, `WAIT 1` while node 0 is primary (the promoted replica has no
    /// replica of its own). The change reached `node`, and the replica if it acknowledged.
    fn replicate(&mut self, node: usize) {
        self.reached = vec![node];
        if self.sync && node == 0 {
            let acked = self.on_primary(|r| r.call(&["WAIT", "1", WAIT_MS]));
            if matches!(acked, Ok((_, Reply::Int(n))) if n >= 1) {
                self.reached.push(1);
            }
        }
    }
}

impl LockClient for Failover {
    fn take(&mut self, value: &str, how: Take) -> io::Result<Option<Taken>> {
        self.reached.clear();
        let (node, taken) = self.on_primary(|r| r.take(value, how))?;
        if taken.is_some() {
            self.replicate(node);
        }
        Ok(taken)
    }

    fn holder(&mut self) -> io::Result<Option<String>> {
        Ok(self.on_primary(|r| r.holder())?.1)
    }

    fn release_compare(&mut self, value: &str) -> io::Result<bool> {
        self.reached.clear();
        let (node, freed) = self.on_primary(|r| r.release_compare(value))?;
        if freed {
            self.replicate(node);
        }
        Ok(freed)
    }

    fn release_plain(&mut self) -> io::Result<Option<String>> {
        self.reached.clear();
        let (node, deleted) = self.on_primary(|r| r.release_plain())?;
        if deleted.is_some() {
            self.replicate(node);
        }
        Ok(deleted)
    }

    fn reached(&self) -> &[usize] {
        &self.reached
    }
}

/// The lock's key and the token counter on one server, as strings (`None`: absent).
type State = (Option<String>, Option<String>);

fn state(port: u16) -> io::Result<State> {
    let mut redis = Redis::connect(port)?;
    let mut get = |key: &str| match redis.call(&["GET", key])? {
        Reply::Bulk(b) => Ok(b.map(|b| String::from_utf8_lossy(&b).into_owned())),
        other => Err(io::Error::other(format!("GET {key}: {other:?}"))),
    };
    Ok((get(KEY)?, get(COUNTER)?))
}

/// The conductor's side: it crashes the primary and promotes the replica.
pub struct Sentinel {
    ports: [u16; 2],
    pids: [u32; 2],
    dir: PathBuf,
    /// The replica was stopped before t = 0 (the scenario without `sync`).
    isolated: bool,
    /// The primary's key and counter just before it was killed.
    last: Option<State>,
}

impl Sentinel {
    /// The servers at `ports` with `pids` (primary first); names the primary in `dir` once the replica holds
    /// everything the primary has (`counter`, the seeded token counter), so nothing is in flight at t = 0.
    pub fn new(ports: [u16; 2], pids: [u32; 2], dir: &Path, counter: u64) -> io::Result<Sentinel> {
        let deadline = now_ns() + SYNC_NS;
        let want = Some(counter.to_string());
        while state(ports[1]).ok().map(|s| s.1) != Some(want.clone()) {
            if now_ns() > deadline {
                return Err(io::Error::other("the replica did not copy the primary within 10 s"));
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        announce(dir, 0)?;
        Ok(Sentinel { ports, pids, dir: dir.to_path_buf(), isolated: false, last: None })
    }

    /// Just before t = 0, without `sync`: the replica stops receiving. The scenario assumes the primary
    /// crashes before A's SET and INCR reach its replica; on loopback replication takes well under a
    /// millisecond, so stopping the replica (SIGSTOP) stands for that replication delay. A stopped process's
    /// kernel still receives, though: the replication stream would wait in its socket and be applied on
    /// SIGCONT, as if it had arrived in time. So the primary also drops the replica's link (`CLIENT KILL TYPE
    /// replica`), which the stopped replica cannot open again before the primary is dead.
    pub fn isolate_replica(&mut self) -> io::Result<()> {
        signal(self.pids[1], nix::sys::signal::Signal::SIGSTOP);
        wait_stopped(self.pids[1]);
        self.isolated = true;
        Redis::connect(self.ports[0])?.call(&["CLIENT", "KILL", "TYPE", "replica"])?;
        Ok(())
    }

    /// The primary crashes: notes its key and counter, then SIGKILL. When it died (monotonic ns).
    pub fn crash(&mut self) -> io::Result<(u64, NodeChange)> {
        self.last = Some(state(self.ports[0])?);
        signal(self.pids[0], nix::sys::signal::Signal::SIGKILL);
        Ok((now_ns(), NodeChange::Down))
    }

    /// The replica becomes the primary: resumed if stopped, `REPLICAOF NO ONE`, then named in the run's
    /// directory. It kept the lock's key and counter if it has what the primary had when it died. When it
    /// became primary (monotonic ns).
    pub fn promote(&mut self) -> io::Result<(u64, NodeChange)> {
        if std::mem::take(&mut self.isolated) {
            signal(self.pids[1], nix::sys::signal::Signal::SIGCONT);
        }
        let had = state(self.ports[1])?;
        let reply = Redis::connect(self.ports[1])?.call(&["REPLICAOF", "NO", "ONE"])?;
        if reply != Reply::Simple("OK".into()) {
            return Err(io::Error::other(format!("REPLICAOF NO ONE: {reply:?}")));
        }
        let at = now_ns();
        announce(&self.dir, 1)?;
        Ok((at, NodeChange::Promoted { kept: self.last.as_ref() == Some(&had) }))
    }
}

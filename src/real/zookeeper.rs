//! ZooKeeper's lock recipe over a real ensemble, with the `zookeeper` crate: each worker creates an
//! ephemeral sequential znode under [`PARENT`] when it asks (its czxid, the zxid of the transaction that
//! created it, is the token: its counter, within the one epoch of the run); the znode with the lowest sequence holds the lock; a waiter sets a watch on the
//! znode just before its own (the recipe's "watch the predecessor") and looks again when it changes. The
//! session's timeout is the lease: a client that stops (SIGSTOP) stops its heartbeats, the ensemble expires
//! its session after the timeout and deletes its znode.

use std::io;
use std::time::Duration;

use zookeeper::{Acl, CreateMode, WatchedEvent, ZkError, ZooKeeper};

use super::clock::now_ns;
use super::lock::{LockClient, Take, Taken};

/// The lock's parent znode.
pub const PARENT: &str = "/lock";

/// The prefix of each waiter's znode, before ZooKeeper's ten-digit sequence.
const PREFIX: &str = "job-";

fn zk_error(e: ZkError) -> io::Error {
    // Connection loss and an expired session mean the ensemble cannot be reached by this session.
    let kind = match e {
        ZkError::ConnectionLoss | ZkError::SessionExpired => io::ErrorKind::NotConnected,
        _ => io::ErrorKind::Other,
    };
    io::Error::new(kind, format!("zookeeper: {e:?}"))
}

/// One ZooKeeper session.
pub struct Zookeeper {
    zk: ZooKeeper,
    /// This client's znode (full path) and its czxid, once it asked.
    mine: Option<(String, u64)>,
}

impl Zookeeper {
    /// A session with the ensemble on loopback at `ports`, timing out after `timeout`.
    pub fn connect(ports: &[u16], timeout: Duration) -> io::Result<Zookeeper> {
        let hosts: Vec<String> = ports.iter().map(|p| format!("127.0.0.1:{p}")).collect();
        let zk = ZooKeeper::connect(&hosts.join(","), timeout, |_: WatchedEvent| {}).map_err(zk_error)?;
        // The session is set up in the background: requests fail with ConnectionLoss until it is.
        for _ in 0..200 {
            match zk.exists("/", false) {
                Err(ZkError::ConnectionLoss) => std::thread::sleep(Duration::from_millis(25)),
                other => {
                    other.map_err(zk_error)?;
                    return Ok(Zookeeper { zk, mine: None });
                }
            }
        }
        Err(io::Error::new(io::ErrorKind::TimedOut, "no ZooKeeper session within 5 s"))
    }

    /// Creates [`PARENT`] if it is not there yet.
    pub fn prepare(&self) -> io::Result<()> {
        match self.zk.create(PARENT, Vec::new(), Acl::open_unsafe().clone(), CreateMode::Persistent) {
            Ok(_) | Err(ZkError::NodeExists) => Ok(()),
            Err(e) => Err(zk_error(e)),
        }
    }

    /// The children of [`PARENT`], lowest sequence first.
    fn queue(&self) -> io::Result<Vec<String>> {
        let mut children = self.zk.get_children(PARENT, false).map_err(zk_error)?;
        children.sort_by(|a, b| a.rsplit('-').next().cmp(&b.rsplit('-').next()));
        Ok(children)
    }
}

impl LockClient for Zookeeper {
    fn take(&mut self, value: &str, how: Take) -> io::Result<Option<Taken>> {
        if !matches!(how, Take::Lease(_)) {
            return Err(io::Error::other("a ZooKeeper lock always lives as long as its session"));
        }
        let sent = now_ns();
        let first = self.mine.is_none();
        if first {
            let path = self
                .zk
                .create(
                    &format!("{PARENT}/{PREFIX}"),
                    value.as_bytes().to_vec(),
                    Acl::open_unsafe().clone(),
                    CreateMode::EphemeralSequential,
                )
                .map_err(zk_error)?;
            let stat = self
                .zk
                .exists(&path, false)
                .map_err(zk_error)?
                .ok_or_else(|| io::Error::other("znode gone"))?;
            // The token: the czxid's counter, its low 32 bits. The high 32 are the leader's epoch, the same
            // for every znode of a run on a fresh ensemble without a leader change; the page's recordings keep
            // numbers in 32 bits.
            let czxid = u64::try_from(stat.czxid).unwrap_or(0);
            self.mine = Some((path, czxid & 0xffff_ffff));
        }
        let (path, token) = self.mine.clone().expect("created above");
        let name = path.rsplit('/').next().unwrap_or("").to_owned();
        let queue = self.queue()?;
        let Some(at) = queue.iter().position(|c| *c == name) else {
            return Err(io::Error::other(format!("{path} is gone: its session expired while it waited")));
        };
        if at > 0 {
            // Watch the predecessor; the worker looks again when the lock's holder changes.
            let before = format!("{PARENT}/{}", queue[at - 1]);
            let _ = self.zk.exists_w(&before, |_: WatchedEvent| {});
            return Ok(None);
        }
        // Asked and got it at once: the session's last word was the create. After a wait, this read.
        Ok(Some(Taken { token, lease_from_ns: if first { sent } else { now_ns() } }))
    }

    fn holder(&mut self) -> io::Result<Option<String>> {
        let Some(lowest) = self.queue()?.into_iter().next() else { return Ok(None) };
        match self.zk.get_data(&format!("{PARENT}/{lowest}"), false) {
            Ok((data, _)) => Ok(Some(String::from_utf8_lossy(&data).into_owned())),
            Err(ZkError::NoNode) => Ok(None),
            Err(e) => Err(zk_error(e)),
        }
    }

    fn release_compare(&mut self, _value: &str) -> io::Result<bool> {
        // Its own znode only; after the session expired it is gone, and so is the session.
        let Some((path, _)) = self.mine.take() else { return Ok(false) };
        Ok(self.zk.delete(&path, None).is_ok())
    }

    fn release_plain(&mut self) -> io::Result<Option<String>> {
        Err(io::Error::other("ZooKeeper's lock recipe deletes only its own znode"))
    }
}

impl Drop for Zookeeper {
    fn drop(&mut self) {
        let _ = self.zk.close();
    }
}

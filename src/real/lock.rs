//! What a worker asks of a real lock service, whichever it is: the few operations the scenario's steps name.

use std::io;
use std::sync::Arc;

/// How a grant is taken, as the scenario's step says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Take {
    /// With a lease of this many real ms, in one command (Redis `SET key value NX PX ttl`; etcd a lease, then
    /// a put bound to it).
    Lease(u64),
    /// With no expiry, lease expiry being off (Redis `SET key value NX`; etcd a put with no lease).
    Forever,
    /// `SETNX`, whose `EXPIRE` was to follow: the crash between the two is the point of `setnx-expire`.
    Setnx,
}

/// A successful take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Taken {
    /// The fencing token: Redis `INCR` on the counter key, etcd the key's revision.
    pub token: u64,
    /// When the request that started the lease was sent. The server starts the lease a little later, so a
    /// lease counted from here ends no later than the real one (a careful client counts the same way).
    pub lease_from_ns: u64,
}

/// A real lock service, seen from one client connection.
pub trait LockClient {
    /// One attempt to take the lock, writing `value` as the holder's mark; `None` if someone holds it.
    fn take(&mut self, value: &str, how: Take) -> io::Result<Option<Taken>>;
    /// The holder's mark, or `None` if the lock is free.
    fn holder(&mut self) -> io::Result<Option<String>>;
    /// Compare-and-delete: delete the lock only if it still holds `value`. Whether it did.
    fn release_compare(&mut self, value: &str) -> io::Result<bool>;
    /// A plain delete, whoever holds the lock: the mark it deleted, if any.
    fn release_plain(&mut self) -> io::Result<Option<String>>;
    /// The lease still left, in real ms, on the lock held under `value`, as the server counts it (Redis
    /// `PTTL`, etcd `LeaseTimeToLive`): `None` if the server no longer holds it for `value`.
    fn lease_left(&mut self, value: &str) -> io::Result<Option<u64>> {
        let _ = value;
        Err(io::Error::other("this lock service cannot say how much of a lease is left"))
    }
    /// Takes the lock whoever holds it (a `SET` without `NX`, after a `GET` that saw it free), with a lease
    /// as `how` says: the grant, and the mark it overwrote, if any.
    fn take_over(&mut self, value: &str, how: Take) -> io::Result<(Taken, Option<String>)> {
        let _ = (value, how);
        Err(io::Error::other("this lock service has no plain SET"))
    }
    /// The servers (by index: primary 0, replica 1) that the last take or release is known to have
    /// reached, for the core's `Node` events; none for a service of one server or a consensus group.
    fn reached(&self) -> &[usize] {
        &[]
    }
    /// Each server's value of the lock's key, for a service of independent servers (Redlock); none otherwise.
    fn marks(&mut self) -> Vec<Option<String>> {
        Vec::new()
    }
    /// From now on, tell `report` of every keepalive that renewed the lease of a lock this client holds
    /// (a consensus group's lease, whose renewals are the core's `Renew` events). Others ignore it.
    fn on_renew(&mut self, report: RenewReport) {
        let _ = report;
    }
}

/// Told of a renewal: the holder's token, when the keepalive was sent and when its reply came (monotonic ns).
pub type RenewReport = Arc<dyn Fn(u64, u64, u64) + Send + Sync>;

/// Whether `e` says the lock service could not be reached (a crashed primary, no primary yet), as opposed
/// to a reply that makes no sense. On a service that fails over the worker then waits, as for a held lock;
/// on any other it fails the run.
pub fn unreachable(e: &io::Error) -> bool {
    use io::ErrorKind::*;
    matches!(
        e.kind(),
        NotConnected | ConnectionRefused | ConnectionReset | ConnectionAborted | BrokenPipe | UnexpectedEof
    )
}

/// The mark of `worker`'s `nth` grant (from 1): `A.1`. Unique within a run, so compare-and-delete can tell
/// one grant from the next, and the name says whose lock a reader saw.
pub fn mark(worker: &str, nth: usize) -> String {
    format!("{worker}.{nth}")
}

/// The worker name and grant number of a mark.
pub fn parse_mark(mark: &str) -> Option<(&str, usize)> {
    let (name, nth) = mark.rsplit_once('.')?;
    Some((name, nth.parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_round_trip() {
        assert_eq!(parse_mark(&mark("B", 2)), Some(("B", 2)));
        assert_eq!(parse_mark("nonsense"), None);
    }
}

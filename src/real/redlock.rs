//! Redlock on five independent Redis servers, as the Redis distributed-locks page describes the client:
//! note the time, `SET key value NX PX ttl` on every server in turn (each with a short timeout), and hold
//! the lock if a majority said OK and the validity, ttl − elapsed − clock drift, is still positive; if not,
//! delete the key everywhere. Release deletes it everywhere, by compare-and-delete on the random value
//! (here the worker's unique mark).
//!
//! A server the client cannot reach really fails: the `redlock` run gives worker A, for N4 and N5, a
//! loopback port nothing listens on, so its connections are refused.

use std::io;
use std::time::Duration;

use super::clock::now_ns;
use super::lock::{LockClient, Take, Taken};
use super::redis::{Redis, Reply, KEY};

/// Delete the key only if it still holds my value.
const COMPARE_AND_DELETE: &str =
    "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";

/// The clock-drift allowance of the page's reference implementations: 1 % of the TTL plus 2 ms.
pub fn drift_ms(ttl_ms: u64) -> u64 {
    ttl_ms / 100 + 2
}

/// A Redlock client of servers on loopback.
pub struct Redlock {
    ports: Vec<u16>,
    conns: Vec<Option<Redis>>,
    /// The token a grant is labelled with: Redlock has none (its values are random); the run numbers its
    /// workers' grants as the core does, for the record only.
    token: u64,
    /// The servers the last take or release changed.
    reached: Vec<usize>,
}

impl Redlock {
    /// A client of the servers at `ports` (none contacted yet), labelling its grants `token`.
    pub fn new(ports: &[u16], token: u64) -> Redlock {
        Redlock {
            ports: ports.to_vec(),
            conns: ports.iter().map(|_| None).collect(),
            token,
            reached: Vec::new(),
        }
    }

    /// How many servers a majority is.
    fn quorum(&self) -> usize {
        self.ports.len() / 2 + 1
    }

    /// One command on server `n`, connecting first if needed; a failed server is dropped and reconnected
    /// on the next call.
    fn on(&mut self, n: usize, args: &[&str]) -> io::Result<Reply> {
        if self.conns[n].is_none() {
            let redis = Redis::connect(self.ports[n])?;
            redis.set_timeout(Duration::from_millis(50))?;
            self.conns[n] = Some(redis);
        }
        let reply = self.conns[n]
            .as_mut()
            .map(|r| r.call(args))
            .unwrap_or_else(|| Err(io::Error::other("no connection")));
        if reply.is_err() {
            self.conns[n] = None;
        }
        reply
    }

    /// Compare-and-delete `value` on every server: the servers where it was deleted.
    fn unlock_all(&mut self, value: &str) -> Vec<usize> {
        (0..self.ports.len())
            .filter(|&n| {
                matches!(self.on(n, &["EVAL", COMPARE_AND_DELETE, "1", KEY, value]), Ok(Reply::Int(1)))
            })
            .collect()
    }
}

impl LockClient for Redlock {
    fn take(&mut self, value: &str, how: Take) -> io::Result<Option<Taken>> {
        let Take::Lease(px) = how else {
            return Err(io::Error::other("Redlock takes the lock with a lease only"));
        };
        let start = now_ns();
        let px_text = px.to_string();
        let set: Vec<usize> = (0..self.ports.len())
            .filter(|&n| {
                matches!(self.on(n, &["SET", KEY, value, "NX", "PX", &px_text]), Ok(Reply::Simple(_)))
            })
            .collect();
        let elapsed_ms = (now_ns() - start) / 1_000_000;
        let validity = px as i64 - elapsed_ms as i64 - drift_ms(px) as i64;
        if set.len() >= self.quorum() && validity > 0 {
            self.reached = set;
            return Ok(Some(Taken { token: self.token, lease_from_ns: start }));
        }
        // No majority, or no time left: delete the key everywhere, as the page says.
        self.unlock_all(value);
        self.reached.clear();
        Ok(None)
    }

    /// Each server's value of the key (`None`: absent or unreachable).
    fn marks(&mut self) -> Vec<Option<String>> {
        (0..self.ports.len())
            .map(|n| match self.on(n, &["GET", KEY]) {
                Ok(Reply::Bulk(Some(b))) => Some(String::from_utf8_lossy(&b).into_owned()),
                _ => None,
            })
            .collect()
    }

    /// The value a majority of servers hold, if any.
    fn holder(&mut self) -> io::Result<Option<String>> {
        let marks = self.marks();
        let quorum = self.quorum();
        Ok(marks
            .iter()
            .flatten()
            .find(|m| marks.iter().flatten().filter(|o| o == m).count() >= quorum)
            .cloned())
    }

    /// Deletes the key everywhere; whether it still held a majority.
    fn release_compare(&mut self, value: &str) -> io::Result<bool> {
        self.reached = self.unlock_all(value);
        Ok(self.reached.len() >= self.quorum())
    }

    fn release_plain(&mut self) -> io::Result<Option<String>> {
        Err(io::Error::other("Redlock releases by compare-and-delete only"))
    }

    fn reached(&self) -> &[usize] {
        &self.reached
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_drift_allowance_is_one_percent_and_two_ms() {
        assert_eq!(drift_ms(10_000), 102);
        assert_eq!(drift_ms(1_000), 12);
    }
}

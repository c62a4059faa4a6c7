//! An etcd v3 client over its JSON gateway (`POST /v3/...`, keys and values base64, HTTP by `ureq`): no
//! gRPC code generation.
//!
//! Two locks, as [`Recipe`] says. Both bind their key to a lease, and while the client runs a thread keeps
//! that lease alive; a stopped (or dead) client's lease runs out and its key goes with it.

use std::io;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use base64::engine::general_purpose::STANDARD as B64;
use base64::Engine;
use serde_json::{json, Value};

use super::clock::{now_ns, sleep_until};
use super::lock::{LockClient, RenewReport, Take, Taken};

/// The lock's key ([`Recipe::PutIfAbsent`]).
pub const KEY: &str = "lock/job";

/// The prefix under which each worker puts its own key ([`Recipe::Queue`]).
pub const PREFIX: &str = "lock/job/";

/// How a client takes the lock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Recipe {
    /// One key, put by a transaction only if it does not exist yet; the token is the revision of that put
    /// (the key's create revision). A waiter retries the transaction once the key is gone.
    PutIfAbsent,
    /// etcd's own lock recipe (`clientv3/concurrency.Mutex`): a worker puts its own key under [`PREFIX`],
    /// bound to its lease, when it asks; the key with the lowest create revision holds the lock, so a waiter
    /// waits until its key is the lowest; the token is its key's create revision, fixed when it asked.
    Queue,
}

fn bad(what: impl Into<String>) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, what.into())
}

/// One `POST` to the gateway on loopback at `port`: the JSON reply of a 200, or an error.
pub fn post(port: u16, path: &str, body: &Value) -> io::Result<Value> {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .timeout_global(Some(Duration::from_secs(5)))
        .http_status_as_error(false)
        .build()
        .into();
    let http = |e: ureq::Error| match e {
        ureq::Error::Io(e) => e,
        e => io::Error::other(format!("etcd {path}: {e}")),
    };
    let mut reply = agent.post(format!("http://127.0.0.1:{port}{path}")).send_json(body).map_err(http)?;
    let status = reply.status();
    let payload = reply.body_mut().read_to_string().map_err(http)?;
    if status != 200 {
        return Err(io::Error::other(format!("etcd {path}: HTTP {status}: {}", payload.trim())));
    }
    serde_json::from_str(&payload).map_err(|e| bad(format!("etcd {path}: {e}")))
}

/// [`post`] to the first of the members at `ports` that answers: a member that is dead (refused), or cannot
/// serve the request (no leader yet, an error reply), is passed over for the next.
pub fn post_any(ports: &[u16], path: &str, body: &Value) -> io::Result<Value> {
    let mut last = io::Error::other("no etcd member");
    for &port in ports {
        match post(port, path, body) {
            Ok(v) => return Ok(v),
            Err(e) => last = e,
        }
    }
    Err(last)
}

fn b64(s: &str) -> String {
    B64.encode(s)
}

/// The gateway writes 64-bit integers as strings and leaves out zeros and `false`.
fn int(v: &Value) -> Option<i64> {
    match v {
        Value::String(s) => s.parse().ok(),
        v => v.as_i64(),
    }
}

/// What a keepalive thread shares with its client.
struct Renewal {
    stop: AtomicBool,
    /// When the next keepalive is due (monotonic ns); the client moves it when it renews the lease itself.
    next_ns: AtomicU64,
    /// The token of the lock this lease holds (0 while its key waits in the queue: revisions start at 1).
    held: AtomicU64,
}

/// A lease kept alive by a thread until stopped.
struct KeepAlive {
    id: i64,
    ttl_ns: u64,
    shared: Arc<Renewal>,
    thread: JoinHandle<()>,
}

/// This client's key in the queue ([`Recipe::Queue`]).
struct Queued {
    key: String,
    /// Its create revision: the token.
    token: u64,
}

/// One etcd client.
pub struct Etcd {
    /// The members' client ports; a request goes to the first that answers.
    ports: Vec<u16>,
    recipe: Recipe,
    lease: Option<KeepAlive>,
    mine: Option<Queued>,
    report: Option<RenewReport>,
}

/// The key after every key under `prefix`: the end of its range.
fn prefix_end(prefix: &str) -> String {
    let mut end = prefix.as_bytes().to_vec();
    if let Some(last) = end.last_mut() {
        *last += 1;
    }
    String::from_utf8(end).expect("an ASCII prefix")
}

fn text(v: &Value) -> io::Result<Option<String>> {
    match v.as_str() {
        None => Ok(None),
        Some(v) => {
            let bytes = B64.decode(v).map_err(|_| bad("a value that is not base64"))?;
            String::from_utf8(bytes).map(Some).map_err(|_| bad("a mark that is not UTF-8"))
        }
    }
}

impl Etcd {
    /// A client of the gateway on loopback at `port`, taking the lock with [`Recipe::PutIfAbsent`].
    pub fn new(port: u16) -> Etcd {
        Etcd { ports: vec![port], recipe: Recipe::PutIfAbsent, lease: None, mine: None, report: None }
    }

    /// A client of the gateway on loopback at `port`, taking the lock with [`Recipe::Queue`].
    pub fn queue(port: u16) -> Etcd {
        Etcd::queue_on(&[port])
    }

    /// A client of the members on loopback at `ports`, taking the lock with [`Recipe::Queue`]; each request
    /// goes to the first member that answers, so a crashed member is passed over.
    pub fn queue_on(ports: &[u16]) -> Etcd {
        let mut client = Etcd::new(0);
        client.ports = ports.to_vec();
        client.recipe = Recipe::Queue;
        client
    }

    fn post(&self, path: &str, body: &Value) -> io::Result<Value> {
        post_any(&self.ports, path, body)
    }

    /// Stops renewing the lease and revokes it (a lease that already ran out is not found: no matter).
    fn drop_lease(&mut self) {
        if let Some(k) = self.lease.take() {
            k.shared.stop.store(true, Ordering::Relaxed);
            let _ = k.thread.join();
            let _ = self.post("/v3/lease/revoke", &json!({ "ID": k.id.to_string() }));
        }
    }

    /// The lease a take asks for: `None` without expiry.
    fn lease_for(&self, how: Take) -> io::Result<Option<i64>> {
        match how {
            Take::Lease(ms) if ms % 1000 == 0 && ms > 0 => Ok(Some(self.grant_lease(ms / 1000)?)),
            Take::Lease(ms) => Err(io::Error::other(format!("etcd leases are whole seconds, not {ms} ms"))),
            Take::Forever | Take::Setnx => Ok(None),
        }
    }

    /// Grants a lease of `ttl_s` seconds; etcd may raise a TTL below its minimum, which would change the run.
    fn grant_lease(&self, ttl_s: u64) -> io::Result<i64> {
        let reply = self.post("/v3/lease/grant", &json!({ "TTL": ttl_s }))?;
        let id = int(&reply["ID"]).ok_or_else(|| bad("lease grant without an ID"))?;
        match int(&reply["TTL"]) {
            Some(t) if t == ttl_s as i64 => Ok(id),
            t => Err(io::Error::other(format!("etcd granted a TTL of {t:?} s, not {ttl_s} s"))),
        }
    }

    /// Keeps lease `id` alive from now on, a keepalive every third of `ttl_ns` (as etcd's own clients do).
    /// A SIGSTOP stops the thread with the rest of the process; on SIGCONT its overdue keepalive goes at once.
    /// Renewals of a held lock are told to the report, if one is set.
    fn keep_alive(&mut self, id: i64, ttl_ns: u64, held: u64) {
        let shared = Arc::new(Renewal {
            stop: AtomicBool::new(false),
            next_ns: AtomicU64::new(now_ns() + ttl_ns / 3),
            held: AtomicU64::new(held),
        });
        let (ports, state, report) = (self.ports.clone(), shared.clone(), self.report.clone());
        let thread = std::thread::spawn(move || {
            while !state.stop.load(Ordering::Relaxed) {
                let due = state.next_ns.load(Ordering::Relaxed);
                let sent = now_ns();
                if sent >= due {
                    let reply = post_any(&ports, "/v3/lease/keepalive", &json!({ "ID": id.to_string() }));
                    let replied = now_ns();
                    // Unless the client renewed the lease itself meanwhile.
                    let _ = state.next_ns.compare_exchange(
                        due,
                        replied + ttl_ns / 3,
                        Ordering::Relaxed,
                        Ordering::Relaxed,
                    );
                    // etcd answers a lease that ran out with a TTL of 0: no renewal.
                    let renewed = reply.is_ok_and(|r| int(&r["result"]["TTL"]).is_some_and(|t| t > 0));
                    let held = state.held.load(Ordering::Relaxed);
                    if let Some(report) = report.as_ref().filter(|_| renewed && held != 0) {
                        report(held, sent, replied);
                    }
                }
                sleep_until((now_ns() + 1_000_000).min(state.next_ns.load(Ordering::Relaxed)));
            }
        });
        self.lease = Some(KeepAlive { id, ttl_ns, shared, thread });
    }

    /// Renews the lease now, for a whole TTL, and moves the next keepalive a third of it on: a waiter that
    /// gets the lock starts its lease afresh. When the keepalive was sent.
    fn renew_now(&mut self) -> io::Result<u64> {
        let Some(k) = &self.lease else { return Ok(now_ns()) };
        let (id, ttl_ns, shared) = (k.id, k.ttl_ns, k.shared.clone());
        let sent = now_ns();
        let reply = self.post("/v3/lease/keepalive", &json!({ "ID": id.to_string() }))?;
        if int(&reply["result"]["TTL"]).is_none_or(|t| t <= 0) {
            return Err(io::Error::other("the waiter's lease ran out before it got the lock"));
        }
        shared.next_ns.store(sent + ttl_ns / 3, Ordering::Relaxed);
        Ok(sent)
    }

    /// The key under [`PREFIX`] with the lowest create revision, and its value: the holder's.
    fn lowest(&self) -> io::Result<Option<(String, Option<String>)>> {
        let reply = self.post(
            "/v3/kv/range",
            &json!({
                "key": b64(PREFIX),
                "range_end": b64(&prefix_end(PREFIX)),
                "sort_order": "ASCEND",
                "sort_target": "CREATE",
                "limit": 1,
                "serializable": true,
            }),
        )?;
        let kv = &reply["kvs"][0];
        match text(&kv["key"])? {
            None => Ok(None),
            Some(key) => Ok(Some((key, text(&kv["value"])?))),
        }
    }

    /// [`Recipe::Queue`]: on the first try, puts this client's key with its lease (the put's revision is the
    /// token); then, on every try, takes the lock if that key is the lowest.
    fn take_queued(&mut self, value: &str, how: Take) -> io::Result<Option<Taken>> {
        let mut lease_from_ns = None;
        if self.mine.is_none() {
            let sent = now_ns();
            let lease = self.lease_for(how)?;
            let key = format!("{PREFIX}{value}");
            let mut put = json!({ "key": b64(&key), "value": b64(value) });
            if let Some(id) = lease {
                put["lease"] = json!(id.to_string());
            }
            let reply = self.post("/v3/kv/put", &put)?;
            let token = int(&reply["header"]["revision"]).and_then(|r| u64::try_from(r).ok());
            let token = token.ok_or_else(|| bad("put without a revision"))?;
            if let (Some(id), Take::Lease(ms)) = (lease, how) {
                // A waiting key needs its lease alive as much as a held one.
                self.keep_alive(id, ms * 1_000_000, 0);
            }
            self.mine = Some(Queued { key, token });
            lease_from_ns = Some(sent);
        }
        let (key, token) = self.mine.as_ref().map(|m| (m.key.clone(), m.token)).expect("put just above");
        match self.lowest()? {
            Some((lowest, _)) if lowest == key => {}
            Some(_) => return Ok(None),
            None => {
                return Err(io::Error::other(format!("{key} is gone: its lease ran out while it waited")))
            }
        }
        // Asked and got it at once: the lease started with the request. After a wait: renewed now.
        let lease_from_ns = match lease_from_ns {
            Some(sent) => sent,
            None => self.renew_now()?,
        };
        if let Some(k) = &self.lease {
            k.shared.held.store(token, Ordering::Relaxed);
        }
        Ok(Some(Taken { token, lease_from_ns }))
    }
}

impl Drop for Etcd {
    fn drop(&mut self) {
        if let Some(k) = self.lease.take() {
            k.shared.stop.store(true, Ordering::Relaxed);
        }
    }
}

impl LockClient for Etcd {
    fn take(&mut self, value: &str, how: Take) -> io::Result<Option<Taken>> {
        if self.recipe == Recipe::Queue {
            return self.take_queued(value, how);
        }
        let lease_from_ns = now_ns();
        let lease = self.lease_for(how)?;
        let mut put = json!({ "key": b64(KEY), "value": b64(value) });
        if let Some(id) = lease {
            put["lease"] = json!(id.to_string());
        }
        let txn = json!({
            "compare": [{ "key": b64(KEY), "target": "CREATE", "result": "EQUAL", "create_revision": "0" }],
            "success": [{ "request_put": put }],
        });
        let reply = self.post("/v3/kv/txn", &txn)?;
        if reply["succeeded"] != Value::Bool(true) {
            if let Some(id) = lease {
                let _ = self.post("/v3/lease/revoke", &json!({ "ID": id.to_string() }));
            }
            return Ok(None);
        }
        let token = int(&reply["header"]["revision"]).and_then(|r| u64::try_from(r).ok());
        let token = token.ok_or_else(|| bad("txn without a revision"))?;
        if let (Some(id), Take::Lease(ms)) = (lease, how) {
            self.keep_alive(id, ms * 1_000_000, token);
        }
        Ok(Some(Taken { token, lease_from_ns }))
    }

    fn lease_left(&mut self, value: &str) -> io::Result<Option<u64>> {
        let _ = value;
        // The lease the key is bound to; a key without one (lease expiry off) is held for ever.
        let Some(k) = &self.lease else { return Ok(Some(u64::MAX)) };
        let reply = self.post("/v3/lease/timetolive", &json!({ "ID": k.id.to_string() }))?;
        // Whole seconds left, −1 once the lease is gone.
        Ok(int(&reply["TTL"]).and_then(|s| u64::try_from(s).ok()).filter(|&s| s > 0).map(|s| s * 1000))
    }

    fn holder(&mut self) -> io::Result<Option<String>> {
        if self.recipe == Recipe::Queue {
            return Ok(self.lowest()?.and_then(|(_, value)| value));
        }
        let reply = self.post("/v3/kv/range", &json!({ "key": b64(KEY), "serializable": true }))?;
        text(&reply["kvs"][0]["value"])
    }

    fn release_compare(&mut self, value: &str) -> io::Result<bool> {
        // The queue's own key, or the one lock key: deleted only if it still holds my mark.
        let key = match (self.recipe, self.mine.take()) {
            (Recipe::PutIfAbsent, _) => KEY.to_owned(),
            (Recipe::Queue, Some(mine)) => mine.key,
            (Recipe::Queue, None) => return Ok(false),
        };
        let txn = json!({
            "compare": [{ "key": b64(&key), "target": "VALUE", "result": "EQUAL", "value": b64(value) }],
            "success": [{ "request_delete_range": { "key": b64(&key) } }],
        });
        let freed = self.post("/v3/kv/txn", &txn)?["succeeded"] == Value::Bool(true);
        self.drop_lease();
        Ok(freed)
    }

    fn release_plain(&mut self) -> io::Result<Option<String>> {
        if self.recipe == Recipe::Queue {
            return Err(io::Error::other("etcd's lock recipe deletes only its own key"));
        }
        // One transaction reads and deletes, so the read says whose key the plain delete removed.
        let txn = json!({
            "success": [
                { "request_range": { "key": b64(KEY) } },
                { "request_delete_range": { "key": b64(KEY) } },
            ],
        });
        let reply = self.post("/v3/kv/txn", &txn)?;
        self.drop_lease();
        let seen = text(&reply["responses"][0]["response_range"]["kvs"][0]["value"])?;
        let deleted = int(&reply["responses"][1]["response_delete_range"]["deleted"]).unwrap_or(0) > 0;
        Ok(seen.filter(|_| deleted))
    }

    fn on_renew(&mut self, report: RenewReport) {
        self.report = Some(report);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_prefix_range_ends_after_its_last_key() {
        assert_eq!(prefix_end(PREFIX), "lock/job0");
    }

    #[test]
    fn gateway_integers_are_strings_or_numbers() {
        assert_eq!(int(&json!("42")), Some(42));
        assert_eq!(int(&json!(42)), Some(42));
        assert_eq!(int(&Value::Null), None);
    }
}

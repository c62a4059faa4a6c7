//! An etcd v3 client over its JSON gateway (`POST /v3/...`, keys and values base64): no gRPC code
//! generation, one short HTTP/1.1 request per call over a `TcpStream`.
//!
//! The lock is etcd's usual recipe: a lease, then a transaction that puts the key bound to that lease only
//! if the key does not exist yet. The token is the revision of that put (the key's create revision), and
//! while the holder runs, a thread keeps its lease alive; a stopped (or dead) holder's lease runs out.

use std::io::{self, Read, Write};
use std::net::TcpStream;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use base64::engine::general_purpose::STANDARD as B64;
use base64::Engine;
use serde_json::{json, Value};

use super::clock::{now_ns, sleep_until};
use super::lock::{LockClient, Take, Taken};

/// The lock's key.
pub const KEY: &str = "lock/job";

fn bad(what: impl Into<String>) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, what.into())
}

/// One `POST` to the gateway on loopback at `port`: the JSON reply of a 200, or an error.
pub fn post(port: u16, path: &str, body: &Value) -> io::Result<Value> {
    let body = body.to_string();
    let mut stream = TcpStream::connect(("127.0.0.1", port))?;
    stream.set_nodelay(true)?;
    stream.set_read_timeout(Some(Duration::from_secs(5)))?;
    write!(
        stream,
        "POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )?;
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw)?;
    let raw = String::from_utf8(raw).map_err(|_| bad("a reply that is not UTF-8"))?;
    let (head, payload) = raw.split_once("\r\n\r\n").ok_or_else(|| bad("a reply without headers"))?;
    let status = head.split_whitespace().nth(1).unwrap_or("");
    let payload = if head.to_ascii_lowercase().contains("transfer-encoding: chunked") {
        dechunk(payload)?
    } else {
        payload.to_owned()
    };
    if status != "200" {
        return Err(io::Error::other(format!("etcd {path}: HTTP {status}: {}", payload.trim())));
    }
    serde_json::from_str(&payload).map_err(|e| bad(format!("etcd {path}: {e}")))
}

/// The body of a chunked transfer: each chunk is a hex length line, the bytes, CRLF; a zero length ends it.
fn dechunk(mut rest: &str) -> io::Result<String> {
    let mut out = String::new();
    loop {
        let (size, after) = rest.split_once("\r\n").ok_or_else(|| bad("a chunk without its size"))?;
        let size = usize::from_str_radix(size.split(';').next().unwrap_or("").trim(), 16)
            .map_err(|_| bad(format!("a bad chunk size {size:?}")))?;
        if size == 0 {
            return Ok(out);
        }
        out.push_str(after.get(..size).ok_or_else(|| bad("a short chunk"))?);
        rest = after.get(size + 2..).unwrap_or("");
    }
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

/// A lease kept alive by a thread until stopped.
struct KeepAlive {
    id: i64,
    stop: Arc<AtomicBool>,
    thread: JoinHandle<()>,
}

/// One etcd client.
pub struct Etcd {
    port: u16,
    lease: Option<KeepAlive>,
}

impl Etcd {
    /// A client of the gateway on loopback at `port`.
    pub fn new(port: u16) -> Etcd {
        Etcd { port, lease: None }
    }

    fn post(&self, path: &str, body: &Value) -> io::Result<Value> {
        post(self.port, path, body)
    }

    /// Stops renewing the lease and revokes it (a lease that already ran out is not found: no matter).
    fn drop_lease(&mut self) {
        if let Some(k) = self.lease.take() {
            k.stop.store(true, Ordering::Relaxed);
            let _ = k.thread.join();
            let _ = self.post("/v3/lease/revoke", &json!({ "ID": k.id.to_string() }));
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

    fn keep_alive(&mut self, id: i64, ttl_ns: u64) {
        let stop = Arc::new(AtomicBool::new(false));
        let (port, flag) = (self.port, stop.clone());
        // Renew at a third of the TTL, as etcd's own clients do. A SIGSTOP stops this thread with the rest.
        let thread = std::thread::spawn(move || {
            let mut next = now_ns() + ttl_ns / 3;
            while !flag.load(Ordering::Relaxed) {
                if now_ns() >= next {
                    let _ = post(port, "/v3/lease/keepalive", &json!({ "ID": id.to_string() }));
                    next = now_ns() + ttl_ns / 3;
                }
                sleep_until((now_ns() + 1_000_000).min(next));
            }
        });
        self.lease = Some(KeepAlive { id, stop, thread });
    }
}

impl Drop for Etcd {
    fn drop(&mut self) {
        if let Some(k) = self.lease.take() {
            k.stop.store(true, Ordering::Relaxed);
        }
    }
}

impl LockClient for Etcd {
    fn take(&mut self, value: &str, how: Take) -> io::Result<Option<Taken>> {
        let lease_from_ns = now_ns();
        let lease = match how {
            Take::Lease(ms) if ms % 1000 == 0 && ms > 0 => Some(self.grant_lease(ms / 1000)?),
            Take::Lease(ms) => {
                return Err(io::Error::other(format!("etcd leases are whole seconds, not {ms} ms")))
            }
            Take::Forever | Take::Setnx => None,
        };
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
            self.keep_alive(id, ms * 1_000_000);
        }
        Ok(Some(Taken { token, lease_from_ns }))
    }

    fn holder(&mut self) -> io::Result<Option<String>> {
        let reply = self.post("/v3/kv/range", &json!({ "key": b64(KEY), "serializable": true }))?;
        match reply["kvs"][0]["value"].as_str() {
            None => Ok(None),
            Some(v) => {
                let bytes = B64.decode(v).map_err(|_| bad("a value that is not base64"))?;
                String::from_utf8(bytes).map(Some).map_err(|_| bad("a mark that is not UTF-8"))
            }
        }
    }

    fn release_compare(&mut self, value: &str) -> io::Result<bool> {
        let txn = json!({
            "compare": [{ "key": b64(KEY), "target": "VALUE", "result": "EQUAL", "value": b64(value) }],
            "success": [{ "request_delete_range": { "key": b64(KEY) } }],
        });
        let freed = self.post("/v3/kv/txn", &txn)?["succeeded"] == Value::Bool(true);
        self.drop_lease();
        Ok(freed)
    }

    fn release_plain(&mut self) -> io::Result<Option<String>> {
        // One transaction reads and deletes, so the read says whose key the plain delete removed.
        let txn = json!({
            "success": [
                { "request_range": { "key": b64(KEY) } },
                { "request_delete_range": { "key": b64(KEY) } },
            ],
        });
        let reply = self.post("/v3/kv/txn", &txn)?;
        self.drop_lease();
        let seen = reply["responses"][0]["response_range"]["kvs"][0]["value"].as_str();
        let deleted = int(&reply["responses"][1]["response_delete_range"]["deleted"]).unwrap_or(0) > 0;
        match seen.filter(|_| deleted) {
            None => Ok(None),
            Some(v) => {
                let bytes = B64.decode(v).map_err(|_| bad("a value that is not base64"))?;
                String::from_utf8(bytes).map(Some).map_err(|_| bad("a mark that is not UTF-8"))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunked_bodies_are_joined() {
        assert_eq!(dechunk("4\r\n{\"a\"\r\n3\r\n:1}\r\n0\r\n\r\n").unwrap(), "{\"a\":1}");
        assert!(dechunk("zz\r\n").is_err());
    }

    #[test]
    fn gateway_integers_are_strings_or_numbers() {
        assert_eq!(int(&json!("42")), Some(42));
        assert_eq!(int(&json!(42)), Some(42));
        assert_eq!(int(&Value::Null), None);
    }
}

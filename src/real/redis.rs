//! The Redis client of a lock: the `redis` crate (RESP, connections, `Script` for the Lua scripts) behind
//! the few calls a worker, the watcher and the failover's sentinel make.

use std::io;
use std::time::Duration;

use redis::{Connection, RedisError, Script, Value};

use super::clock::now_ns;
use super::lock::{LockClient, Take, Taken};

/// The lock's key.
pub const KEY: &str = "lock:job";
/// The counter whose `INCR` gives each grant its fencing token.
pub const COUNTER: &str = "lock:job:token";

/// Delete the key only if it still holds my mark: the compare-and-delete of the source document.
const COMPARE_AND_DELETE: &str =
    "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";

/// The lease left on the key if it still holds my mark: `PTTL` (−2 if the key is gone or not mine).
const LEASE_LEFT: &str =
    "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pttl', KEYS[1]) else return -2 end";

/// A reply, as RESP2 sends it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// `+OK`
    Simple(String),
    /// `:1`
    Int(i64),
    /// `$…`; `None` is the nil bulk string.
    Bulk(Option<Vec<u8>>),
    /// `*…`; `None` is the nil array.
    Array(Option<Vec<Reply>>),
}

/// One connection to a Redis server.
pub struct Redis {
    conn: Connection,
}

fn bad(what: impl Into<String>) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, what.into())
}

/// The crate's error as an I/O error whose kind says whether the server could not be reached (a refused
/// connection, a dropped one), which a failover client waits out.
fn io_error(e: RedisError) -> io::Error {
    use io::ErrorKind::*;
    let kind = if e.is_connection_refusal() {
        ConnectionRefused
    } else if e.is_connection_dropped() {
        ConnectionReset
    } else if e.is_timeout() {
        TimedOut
    } else {
        Other
    };
    io::Error::new(kind, format!("redis: {e}"))
}

/// The crate's value as the few shapes a RESP2 server sends.
fn reply(v: Value) -> Reply {
    match v {
        Value::Nil => Reply::Bulk(None),
        Value::Int(n) => Reply::Int(n),
        Value::BulkString(b) => Reply::Bulk(Some(b)),
        Value::Array(items) => Reply::Array(Some(items.into_iter().map(reply).collect())),
        Value::SimpleString(s) => Reply::Simple(s),
        Value::Okay => Reply::Simple("OK".into()),
        other => Reply::Simple(format!("{other:?}")),
    }
}

impl Redis {
    /// Connects to the server on loopback at `port`.
    pub fn connect(port: u16) -> io::Result<Redis> {
        let client = redis::Client::open(format!("redis://127.0.0.1:{port}/")).map_err(io_error)?;
        let conn = client.get_connection_with_timeout(Duration::from_secs(5)).map_err(io_error)?;
        let redis = Redis { conn };
        redis.set_timeout(Duration::from_secs(5))?;
        Ok(redis)
    }

    /// How long a reply may take before the call fails.
    pub fn set_timeout(&self, timeout: Duration) -> io::Result<()> {
        self.conn.set_read_timeout(Some(timeout)).map_err(io_error)?;
        self.conn.set_write_timeout(Some(timeout)).map_err(io_error)
    }

    /// Sends one command and reads its reply; an error reply is an `Err`.
    pub fn call(&mut self, args: &[&str]) -> io::Result<Reply> {
        let (name, rest) = args.split_first().ok_or_else(|| bad("no command"))?;
        let mut cmd = redis::cmd(name);
        for a in rest {
            cmd.arg(*a);
        }
        cmd.query::<Value>(&mut self.conn).map(reply).map_err(io_error)
    }

    fn int(&mut self, args: &[&str]) -> io::Result<i64> {
        match self.call(args)? {
            Reply::Int(n) => Ok(n),
            other => Err(bad(format!("{}: expected an integer, got {other:?}", args[0]))),
        }
    }

    /// Runs a Lua script on the lock's key with `value` (EVALSHA, loading it first if the server lacks it).
    fn script(&mut self, script: &Script, value: &str) -> io::Result<i64> {
        script.key(KEY).arg(value).invoke::<i64>(&mut self.conn).map_err(io_error)
    }
}

fn text(reply: Reply) -> io::Result<Option<String>> {
    match reply {
        Reply::Bulk(Some(b)) => String::from_utf8(b).map(Some).map_err(|_| bad("a mark that is not UTF-8")),
        Reply::Bulk(None) => Ok(None),
        other => Err(bad(format!("expected a string, got {other:?}"))),
    }
}

impl LockClient for Redis {
    fn take(&mut self, value: &str, how: Take) -> io::Result<Option<Taken>> {
        let lease_from_ns = now_ns();
        let taken = match how {
            Take::Lease(px) => {
                self.call(&["SET", KEY, value, "NX", "PX", &px.to_string()])? != Reply::Bulk(None)
            }
            Take::Forever => self.call(&["SET", KEY, value, "NX"])? != Reply::Bulk(None),
            Take::Setnx => self.int(&["SETNX", KEY, value])? == 1,
        };
        if !taken {
            return Ok(None);
        }
        // Only the holder increments, right after its grant, so tokens follow the order of grants.
        let token = u64::try_from(self.int(&["INCR", COUNTER])?).map_err(|_| bad("negative token"))?;
        Ok(Some(Taken { token, lease_from_ns }))
    }

    fn lease_left(&mut self, value: &str) -> io::Result<Option<u64>> {
        // PTTL is −1 for a key without expiry: held for ever.
        Ok(match self.script(&Script::new(LEASE_LEFT), value)? {
            -1 => Some(u64::MAX),
            ms => u64::try_from(ms).ok().filter(|&ms| ms > 0),
        })
    }

    fn take_over(&mut self, value: &str, how: Take) -> io::Result<(Taken, Option<String>)> {
        let lease_from_ns = now_ns();
        // SET … GET (Redis 6.2) replies with the value it overwrote: whose lock this SET took.
        let px;
        let mut args = vec!["SET", KEY, value];
        if let Take::Lease(ms) = how {
            px = ms.to_string();
            args.extend(["PX", &px]);
        }
        args.push("GET");
        let over = text(self.call(&args)?)?;
        let token = u64::try_from(self.int(&["INCR", COUNTER])?).map_err(|_| bad("negative token"))?;
        Ok((Taken { token, lease_from_ns }, over))
    }

    fn holder(&mut self) -> io::Result<Option<String>> {
        let reply = self.call(&["GET", KEY])?;
        text(reply)
    }

    fn release_compare(&mut self, value: &str) -> io::Result<bool> {
        Ok(self.script(&Script::new(COMPARE_AND_DELETE), value)? == 1)
    }

    fn release_plain(&mut self) -> io::Result<Option<String>> {
        // The DEL is plain; MULTI only lets the same instant's GET say whose key it deleted.
        self.call(&["MULTI"])?;
        self.call(&["GET", KEY])?;
        self.call(&["DEL", KEY])?;
        match self.call(&["EXEC"])? {
            Reply::Array(Some(replies)) if replies.len() == 2 => {
                let mut replies = replies.into_iter();
                let seen = text(replies.next().unwrap_or(Reply::Bulk(None)))?;
                let deleted = replies.next() == Some(Reply::Int(1));
                Ok(seen.filter(|_| deleted))
            }
            other => Err(bad(format!("EXEC: unexpected {other:?}"))),
        }
    }
}

//! A Redis client for the few commands a lock needs: RESP2 over a `TcpStream`.
//!
//! Hand-written rather than the `redis` crate: eight commands, blocking, one connection per process, and
//! the exact bytes on the wire are the point of a reality check.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::Duration;

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
    conn: BufReader<TcpStream>,
}

fn bad(what: impl Into<String>) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, what.into())
}

impl Redis {
    /// Connects to the server on loopback at `port`.
    pub fn connect(port: u16) -> io::Result<Redis> {
        let stream = TcpStream::connect(("127.0.0.1", port))?;
        stream.set_nodelay(true)?;
        stream.set_read_timeout(Some(Duration::from_secs(5)))?;
        Ok(Redis { conn: BufReader::new(stream) })
    }

    /// How long a reply may take before the call fails.
    pub fn set_timeout(&self, timeout: Duration) -> io::Result<()> {
        self.conn.get_ref().set_read_timeout(Some(timeout))?;
        self.conn.get_ref().set_write_timeout(Some(timeout))
    }

    /// Sends one command and reads its reply; an error reply is an `Err`.
    pub fn call(&mut self, args: &[&str]) -> io::Result<Reply> {
        let mut out = format!("*{}\r\n", args.len()).into_bytes();
        for a in args {
            out.extend_from_slice(format!("${}\r\n", a.len()).as_bytes());
            out.extend_from_slice(a.as_bytes());
            out.extend_from_slice(b"\r\n");
        }
        self.conn.get_mut().write_all(&out)?;
        self.read_reply()
    }

    fn line(&mut self) -> io::Result<String> {
        let mut line = String::new();
        if self.conn.read_line(&mut line)? == 0 {
            return Err(io::Error::new(io::ErrorKind::UnexpectedEof, "redis closed the connection"));
        }
        Ok(line.trim_end_matches("\r\n").to_owned())
    }

    fn read_reply(&mut self) -> io::Result<Reply> {
        let line = self.line()?;
        let (kind, rest) = line.split_at_checked(1).ok_or_else(|| bad("empty reply"))?;
        let number = || rest.parse::<i64>().map_err(|_| bad(format!("bad length in {line:?}")));
        match kind {
            "+" => Ok(Reply::Simple(rest.to_owned())),
            "-" => Err(io::Error::other(format!("redis: {rest}"))),
            ":" => Ok(Reply::Int(number()?)),
            "$" => match usize::try_from(number()?) {
                Err(_) => Ok(Reply::Bulk(None)),
                Ok(len) => {
                    let mut buf = vec![0; len + 2];
                    self.conn.read_exact(&mut buf)?;
                    buf.truncate(len);
                    Ok(Reply::Bulk(Some(buf)))
                }
            },
            "*" => match usize::try_from(number()?) {
                Err(_) => Ok(Reply::Array(None)),
                Ok(n) => (0..n)
                    .map(|_| self.read_reply())
                    .collect::<io::Result<_>>()
                    .map(|v| Reply::Array(Some(v))),
            },
            _ => Err(bad(format!("unknown reply {line:?}"))),
        }
    }

    fn int(&mut self, args: &[&str]) -> io::Result<i64> {
        match self.call(args)? {
            Reply::Int(n) => Ok(n),
            other => Err(bad(format!("{}: expected an integer, got {other:?}", args[0]))),
        }
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
        Ok(match self.int(&["EVAL", LEASE_LEFT, "1", KEY, value])? {
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
        Ok(self.int(&["EVAL", COMPARE_AND_DELETE, "1", KEY, value])? == 1)
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

//! A lock client for `locksim check` (docs/clients.md) on the `redis` crate:
//!
//! ```sh
//! cargo build --example lock-client
//! locksim check --client "$CARGO_TARGET_DIR/debug/examples/lock-client" --all
//! ```
//!
//! It does it right: `SET NX PX` and the token from `INCR` in one Lua script (so no pause falls between the
//! lock and its token), a Lua compare-and-delete to release, the token sent with every write.
//! `--mistake setnx-expire|plain-del|no-token` makes one of the mistakes the source names instead: `SETNX`
//! then `EXPIRE` in two commands, a plain `DEL` whoever holds the lock, a write without the token.

use std::error::Error;
use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;

use redis::Script;
use serde_json::{json, Value};

/// Takes the lock with a lease and its token in one step; nil if someone holds it.
const ACQUIRE: &str = "if redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then \
                       return redis.call('incr', KEYS[2]) end return false";
/// The same without a lease (`ttl_ms` null).
const ACQUIRE_NO_LEASE: &str =
    "if redis.call('set', KEYS[1], ARGV[1], 'NX') then return redis.call('incr', KEYS[2]) end return false";
/// Deletes the key only if it still holds my value.
const RELEASE: &str =
    "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0";

#[derive(Clone, Copy, PartialEq)]
enum Mistake {
    None,
    SetnxExpire,
    PlainDel,
    NoToken,
}

fn env(name: &str) -> Result<String, Box<dyn Error>> {
    std::env::var(name).map_err(|_| format!("{name} is not set: run me with locksim check").into())
}

fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().collect();
    let mistake = match args.get(1..).unwrap_or_default() {
        [] => Mistake::None,
        [flag, m] if flag == "--mistake" && m == "setnx-expire" => Mistake::SetnxExpire,
        [flag, m] if flag == "--mistake" && m == "plain-del" => Mistake::PlainDel,
        [flag, m] if flag == "--mistake" && m == "no-token" => Mistake::NoToken,
        _ => return Err("usage: lock-client [--mistake setnx-expire|plain-del|no-token]".into()),
    };
    let key = env("LOCKSIM_LOCK_KEY")?;
    let counter = format!("{key}:token");
    let mut redis = redis::Client::open(format!("redis://{}/", env("LOCKSIM_REDIS")?))?.get_connection()?;
    let storage = TcpStream::connect(env("LOCKSIM_STORAGE")?)?;
    let mut replies = BufReader::new(storage.try_clone()?);
    let mut storage = storage;
    let me = format!("{}-{}", env("LOCKSIM_WORKER")?, std::process::id());
    let (mut grants, mut value, mut token): (u64, Option<String>, Option<u64>) = (0, None, None);
    let stdout = std::io::stdout();
    for line in std::io::stdin().lock().lines() {
        let cmd: Value = serde_json::from_str(&line?)?;
        let answer = match cmd["cmd"].as_str().unwrap_or("") {
            "hello" => json!({"ok": true}),
            "acquire" => {
                grants += 1;
                let mine = format!("{me}.{grants}");
                let ttl = cmd["ttl_ms"].as_u64();
                let got: Option<u64> = if mistake == Mistake::SetnxExpire {
                    let set: bool = redis::cmd("SETNX").arg(&key).arg(&mine).query(&mut redis)?;
                    if set {
                        if let Some(ttl) = ttl {
                            // Too late if the process stopped or died after SETNX.
                            redis::cmd("PEXPIRE").arg(&key).arg(ttl).query::<i64>(&mut redis)?;
                        }
                        Some(redis::cmd("INCR").arg(&counter).query(&mut redis)?)
                    } else {
                        None
                    }
                } else {
                    let script = Script::new(if ttl.is_some() { ACQUIRE } else { ACQUIRE_NO_LEASE });
                    let mut call = script.key(&key);
                    call.key(&counter).arg(&mine);
                    if let Some(ttl) = ttl {
                        call.arg(ttl);
                    }
                    call.invoke(&mut redis)?
                };
                match got {
                    Some(t) => {
                        (value, token) = (Some(mine), Some(t));
                        json!({"ok": true, "token": t})
                    }
                    None => json!({"ok": false}),
                }
            }
            "work" => {
                std::thread::sleep(std::time::Duration::from_millis(cmd["ms"].as_u64().unwrap_or(0)));
                json!({"ok": true})
            }
            "check" => {
                let now: Option<String> = redis::cmd("GET").arg(&key).query(&mut redis)?;
                json!({"ok": value.is_some() && now == value})
            }
            "write" => {
                let sent = match token {
                    Some(t) if mistake != Mistake::NoToken => t.to_string(),
                    _ => "-".to_owned(),
                };
                writeln!(storage, "WRITE {sent} {}", cmd["data"].as_str().unwrap_or(""))?;
                let mut reply = String::new();
                replies.read_line(&mut reply)?;
                let stored = reply.split_whitespace().next().unwrap_or("nothing").to_lowercase();
                json!({"ok": true, "stored": stored})
            }
            "release" => {
                if mistake == Mistake::PlainDel {
                    redis::cmd("DEL").arg(&key).query::<i64>(&mut redis)?;
                } else if let Some(v) = &value {
                    Script::new(RELEASE).key(&key).arg(v).invoke::<i64>(&mut redis)?;
                }
                (value, token) = (None, None);
                json!({"ok": true})
            }
            other => json!({"ok": false, "error": format!("unknown command {other}")}),
        };
        let mut out = stdout.lock();
        writeln!(out, "{answer}")?;
        out.flush()?;
    }
    Ok(())
}

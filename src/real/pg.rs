//! `network-delay`'s storage: a private PostgreSQL server in the run's directory, and a TCP proxy on the
//! way to it that holds every message from the client for the scenario's delay before passing it on. The
//! worker whose write is delayed reaches the server through the proxy; the delay is made on the wire, not
//! by a sleep in the worker. Each write is one SQL statement (one message, one round trip), so the proxy
//! delays it once.
//!
//! PostgreSQL refuses to run as root: its directory is given to the `postgres` user (which Debian's package
//! creates) and the server runs as that user, a child of the conductor that dies with it.

use std::io::{self, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::Duration;

use nix::unistd::{chown, setgid, setgroups, setuid, Gid, Uid, User};
use postgres::{Client, NoTls, SimpleQueryMessage};

use super::clock::{now_ns, sleep_until};
use super::servers::{dies_with, free_port, Processes};
use super::storage::{Resource, Stored};
use super::Failure;

/// The database user the run creates.
const USER: &str = "locksim";

/// Debian's PostgreSQL server binaries (`/usr/lib/postgresql/15/bin`), the newest installed.
pub fn find() -> Option<PathBuf> {
    let mut dirs: Vec<PathBuf> =
        std::fs::read_dir("/usr/lib/postgresql").ok()?.flatten().map(|e| e.path()).collect();
    dirs.sort();
    dirs.into_iter().rev().map(|d| d.join("bin")).find(|b| b.join("postgres").is_file())
}

/// The `postgres` user's uid and gid.
fn postgres_user() -> Option<(Uid, Gid)> {
    User::from_name("postgres").ok().flatten().map(|u| (u.uid, u.gid))
}

/// A command that runs as `uid`/`gid`; with `child`, it also dies with this process and sits in its own
/// process group (the death signal is set after the change of user, which would clear it).
fn as_user(program: &Path, uid: Uid, gid: Gid, child: bool) -> Command {
    let mut cmd = Command::new(program);
    let parent = i32::try_from(std::process::id()).unwrap_or(0);
    // SAFETY: between fork and exec only async-signal-safe calls, nothing allocated.
    unsafe {
        cmd.pre_exec(move || {
            setgroups(&[])?;
            setgid(gid)?;
            setuid(uid)?;
            if child {
                dies_with(parent)?;
            }
            Ok(())
        });
    }
    cmd
}

/// Starts the server in `pg/` of the run's directory on a free loopback port, with the storage's one row.
/// Its port and version.
pub fn start(bin: &Path, procs: &mut Processes, stop: &dyn Fn() -> bool) -> Result<(u16, String), Failure> {
    fn broken(what: &'static str) -> impl Fn(io::Error) -> Failure {
        move |e| Failure::Broken(format!("postgres {what}: {e}"))
    }
    let (uid, gid) = postgres_user().ok_or(Failure::Missing("postgresql"))?;
    let dir = procs.dir().join("pg");
    std::fs::create_dir(&dir).map_err(broken("directory"))?;
    chown(&dir, Some(uid), Some(gid)).map_err(|e| broken("directory")(e.into()))?;
    let data = dir.join("data");
    let out = as_user(&bin.join("initdb"), uid, gid, false)
        .arg("-D")
        .arg(&data)
        .args(["-A", "trust", "-U", USER, "--no-sync"])
        .output()
        .map_err(broken("initdb"))?;
    if !out.status.success() {
        return Err(Failure::Broken(format!("initdb: {}", String::from_utf8_lossy(&out.stderr).trim())));
    }
    let port = free_port().map_err(broken("port"))?;
    let log = std::fs::File::create(dir.join("postgres.log")).map_err(broken("log"))?;
    let err = log.try_clone().map_err(broken("log"))?;
    let child = as_user(&bin.join("postgres"), uid, gid, true)
        .arg("-D")
        .arg(&data)
        .args(["-p", &port.to_string(), "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off"])
        .arg("-k")
        .arg(&dir)
        .stdin(Stdio::null())
        .stdout(log)
        .stderr(err)
        .spawn()
        .map_err(broken("start"))?;
    procs.children.push(("postgres".into(), child));
    let deadline = now_ns() + 20_000_000_000;
    let mut client = loop {
        if stop() {
            return Err(Failure::Interrupted);
        }
        if let Ok(client) = connect(port) {
            break client;
        }
        if now_ns() > deadline {
            return Err(Failure::Broken("postgres did not start within 20 s".into()));
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    client
        .batch_execute(
            "CREATE TABLE resource (id INTEGER PRIMARY KEY CHECK (id = 1), holder TEXT, token BIGINT, \
             highest BIGINT, written BIGINT, writes INTEGER NOT NULL DEFAULT 0); \
             INSERT INTO resource (id) VALUES (1);",
        )
        .map_err(|e| Failure::Broken(format!("postgres schema: {e}")))?;
    let version = client
        .query_one("SHOW server_version", &[])
        .map(|r| r.get::<_, String>(0))
        .map_err(|e| Failure::Broken(format!("postgres version: {e}")))?;
    let version = version.split_whitespace().next().unwrap_or("?").to_owned();
    Ok((port, version))
}

fn connect(port: u16) -> Result<Client, postgres::Error> {
    Client::connect(&format!("host=127.0.0.1 port={port} user={USER} dbname=postgres"), NoTls)
}

/// The storage on the PostgreSQL server at `port` (directly, or through the proxy).
pub struct Pg {
    client: Client,
}

impl Pg {
    /// Connects to the server (or the proxy) on loopback at `port`.
    pub fn open(port: u16) -> io::Result<Pg> {
        Ok(Pg { client: connect(port).map_err(io::Error::other)? })
    }

    /// One statement, one message: the first row's columns as text.
    fn one(&mut self, sql: &str) -> io::Result<Vec<Option<String>>> {
        for msg in self.client.simple_query(sql).map_err(io::Error::other)? {
            if let SimpleQueryMessage::Row(row) = msg {
                return Ok((0..row.len()).map(|i| row.get(i).map(str::to_owned)).collect());
            }
        }
        Err(io::Error::other("no row"))
    }
}

fn sql(token: Option<u64>) -> String {
    token.map_or_else(|| "NULL::bigint".into(), |t| format!("{t}::bigint"))
}

impl Resource for Pg {
    fn write(&mut self, holder: &str, token: Option<u64>, fencing: bool) -> io::Result<Stored> {
        let t = sql(token);
        let condition = if fencing {
            format!("AND {t} IS NOT NULL AND (highest IS NULL OR {t} >= highest)")
        } else {
            String::new()
        };
        // Read the row under its lock, update it if the token passes, and say what it was: one statement.
        let holder = holder.replace('\'', "''");
        let row = self.one(&format!(
            "WITH before AS (SELECT highest, written FROM resource WHERE id = 1 FOR UPDATE), \
             changed AS (UPDATE resource SET holder = '{holder}', token = {t}, highest = GREATEST(highest, {t}), \
             written = GREATEST(written, {t}), writes = writes + 1 WHERE id = 1 {condition} RETURNING 1) \
             SELECT (SELECT highest FROM before), (SELECT written FROM before), (SELECT count(*) FROM changed)"
        ))?;
        let number = |i: usize| row.get(i).cloned().flatten().and_then(|v| v.parse::<u64>().ok());
        Ok(Stored { accepted: number(2) == Some(1), highest_before: number(0), written_before: number(1) })
    }

    fn register(&mut self, token: u64) -> io::Result<()> {
        self.one(&format!(
            "UPDATE resource SET highest = GREATEST(highest, {token}) WHERE id = 1 RETURNING 1"
        ))?;
        Ok(())
    }
}

/// A TCP proxy on loopback to `target` that holds every chunk a client sends for `delay` (real ns, read
/// when the chunk arrives) before passing it on; replies pass at once. Its port. Its threads end with
/// their connections; the listener with the process.
pub fn proxy(target: u16, delay: Arc<AtomicU64>) -> io::Result<u16> {
    let listener = TcpListener::bind("127.0.0.1:0")?;
    let port = listener.local_addr()?.port();
    std::thread::spawn(move || {
        for client in listener.incoming().flatten() {
            let Ok(server) = TcpStream::connect(("127.0.0.1", target)) else { continue };
            let _ = (client.set_nodelay(true), server.set_nodelay(true));
            let (Ok(mut client_in), Ok(mut server_out)) = (client.try_clone(), server.try_clone()) else {
                continue;
            };
            let (mut server_in, mut client_out) = (server, client);
            // Replies: at once.
            std::thread::spawn(move || io::copy(&mut server_in, &mut client_out));
            // Requests: each chunk stamped with when it may arrive, then passed on in order at that time.
            let (tx, rx) = mpsc::channel::<(u64, Vec<u8>)>();
            let hold = delay.clone();
            std::thread::spawn(move || {
                let mut buf = [0_u8; 16 * 1024];
                while let Ok(n) = client_in.read(&mut buf) {
                    if n == 0
                        || tx.send((now_ns() + hold.load(Ordering::Relaxed), buf[..n].to_vec())).is_err()
                    {
                        break;
                    }
                }
            });
            std::thread::spawn(move || {
                for (due, bytes) in rx {
                    sleep_until(due);
                    if server_out.write_all(&bytes).is_err() {
                        break;
                    }
                }
                let _ = server_out.shutdown(std::net::Shutdown::Write);
            });
        }
    });
    Ok(port)
}

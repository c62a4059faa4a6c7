//! A run told from its events, for any program: who waited, took the lock, paused, lost its lease, wrote
//! (and whether the storage took it), released, crashed. Facts are an enum ([`Told`]) read off the trace;
//! each language words them ([`en`], [`ja`]), so the languages cannot tell different stories. Every run is
//! told so, a catalogue state or a script the catalogue never saw; `why` adds the reasons the events leave
//! unsaid, by the same rule for every run.

use crate::present::geom::seconds;
use crate::sim::{EventKind, Ms, NodeChange, OutcomeKind, Run, WorkerId};

/// One fact of a run. (Each variant's doc names its fields: a worker by index, times in ms.)
#[allow(missing_docs)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Told {
    /// `worker` asked at `at` and had to wait: `holder` held the lock (`None`: nobody could take it then;
    /// itself: it asked again for a lock it held).
    Waited { worker: WorkerId, at: Ms, holder: Option<WorkerId> },
    /// `worker` asked at `at` while the primary was down and no replica promoted yet: nothing could grant.
    WaitedDown { worker: WorkerId, at: Ms },
    /// `worker` took the lock at `at` with `token` (`None`: values without order), its lease to `expires`
    /// (`None`: no expiry), over `over`'s lock if it was still held.
    Granted { worker: WorkerId, at: Ms, token: Option<u64>, expires: Option<Ms>, over: Option<WorkerId> },
    /// `worker` read the lock at `at` and saw it `free` or taken.
    Read { worker: WorkerId, at: Ms, free: bool },
    /// `worker`'s `token` reached the storage at its grant.
    Registered { worker: WorkerId, at: Ms, token: u64 },
    /// `worker`'s lease ran out at `at`.
    Expired { worker: WorkerId, at: Ms },
    /// Server `node` dropped `worker`'s key at `at`, before the lease's end (its clock ran ahead), and with
    /// it `worker`'s majority: the lock service no longer counted `worker` as holder.
    KeyLost { worker: WorkerId, at: Ms, node: usize },
    /// Nobody could take the lock from `at` until `until` (lock-delay).
    Unavailable { at: Ms, until: Ms },
    /// `worker` stopped from `at` to `until`.
    Paused { worker: WorkerId, at: Ms, until: Ms },
    /// `worker` checked its lease at `at`: still valid, or run out (it gave up).
    Checked { worker: WorkerId, at: Ms, ok: bool },
    /// `worker` sent a write at `at` that spent until `arrives` in the network.
    Sent { worker: WorkerId, at: Ms, arrives: Ms },
    /// The storage took or refused `worker`'s write with `token` at `at`, having seen `highest` before;
    /// `holder` held the lock instead of the writer, if someone else did; `had` says whether the writer had
    /// ever taken the lock (a stale writer that never did "did not hold" it, rather than "no longer").
    Stored {
        worker: WorkerId,
        at: Ms,
        token: Option<u64>,
        accepted: bool,
        highest: Option<u64>,
        holder: Option<WorkerId>,
        stale: bool,
        had: bool,
    },
    /// `worker` released at `at`: its own lock (`freed == Some(worker)`), someone else's, or nothing;
    /// `had` as for [`Told::Stored`]; `said`: the fact just before (its late write in this millisecond)
    /// already said that `worker` did not hold the lock.
    Released { worker: WorkerId, at: Ms, freed: Option<WorkerId>, had: bool, said: bool },
    /// `worker` crashed at `at`.
    Crashed { worker: WorkerId, at: Ms },
    /// A new leader restarted `worker`'s lease at `at`, to `expires`; or (`keepalive`) `worker`'s keepalive,
    /// reaching it in that same millisecond, renewed the lease again from then (which can shorten it).
    Rearmed { worker: WorkerId, at: Ms, expires: Ms, keepalive: bool },
    /// The consensus group's leader crashed at `at`; a new one was ready at `until`.
    LeaderLost { at: Ms, until: Ms },
    /// Server `node`'s clock jumped `by` forward at `at`.
    Jumped { node: usize, at: Ms, by: Ms },
    /// The primary crashed at `at` (a failover's only server to crash).
    Down { at: Ms },
    /// The replica was promoted at `at`, with the lock's key and counter or without them.
    Promoted { at: Ms, kept: bool },
}

/// The facts of `run`, in the order they happened. Keepalives are left out (a running holder sends one
/// every ttl/3); a lease restarted by a new leader is told.
pub fn told(run: &Run) -> Vec<Told> {
    let tokens = run.trace.tokens;
    let mut ready: Vec<Ms> = Vec::new();
    // The leases a new leader has re-armed, by the millisecond it was ready.
    let mut rearmed: Vec<(Ms, WorkerId)> = Vec::new();
    let mut took: Vec<WorkerId> = Vec::new();
    // A failover's primary is down until the replica is promoted.
    let mut down = false;
    // The servers that dropped a key in this millisecond, with whose key it was.
    let mut cleared: Vec<(Ms, usize, WorkerId)> = Vec::new();
    // Where each worker's lease ends, as its last grant or renewal set it.
    let mut ends: Vec<(WorkerId, Option<Ms>)> = Vec::new();
    let mut out = Vec::new();
    for e in &run.trace.events {
        let at = e.at;
        cleared.retain(|c| c.0 == at);
        match e.kind {
            EventKind::Grant { worker, expires, .. } => {
                took.push(worker);
                ends.push((worker, expires));
            }
            EventKind::Renew { worker, expires, .. } => ends.push((worker, Some(expires))),
            EventKind::Node { node, change: NodeChange::Clear(worker) } => cleared.push((at, node, worker)),
            _ => {}
        }
        out.push(match e.kind {
            EventKind::Wait { worker, .. } if down => Told::WaitedDown { worker, at },
            EventKind::Wait { worker, holder } => Told::Waited { worker, at, holder },
            EventKind::Grant { worker, token, expires, over } => {
                Told::Granted { worker, at, token: Some(token).filter(|_| tokens), expires, over }
            }
            EventKind::Get { worker, free } => Told::Read { worker, at, free },
            EventKind::Register { worker, token } => Told::Registered { worker, at, token },
            // A server's dropped key that took the majority before the lease's end: not the lease running out.
            EventKind::Expire { worker, .. } => {
                let end = ends.iter().rev().find(|e| e.0 == worker).and_then(|e| e.1);
                match cleared.iter().rev().find(|c| c.2 == worker) {
                    Some(&(_, node, _)) if end.is_some_and(|end| at < end) => {
                        Told::KeyLost { worker, at, node }
                    }
                    _ => Told::Expired { worker, at },
                }
            }
            EventKind::LockDelay { until } => Told::Unavailable { at, until },
            EventKind::PauseStart { worker, until } => Told::Paused { worker, at, until },
            EventKind::CheckLease { worker, ok } => Told::Checked { worker, at, ok },
            EventKind::Write { worker, arrives, .. } if arrives > at => Told::Sent { worker, at, arrives },
            EventKind::Store { worker, token, accepted, highest_before, stale, holder, .. } => Told::Stored {
                worker,
                at,
                token: token.filter(|_| tokens),
                accepted,
                highest: highest_before.filter(|_| tokens),
                holder: holder.filter(|&h| h != worker),
                stale,
                had: took.contains(&worker),
            },
            EventKind::Release { worker, freed, .. } => {
                let said = matches!(out.last(), Some(&Told::Stored { worker: w, at: t, stale: true, .. })
                    if w == worker && t == at);
                Told::Released { worker, at, freed, had: took.contains(&worker), said }
            }
            EventKind::Crash { worker } => Told::Crashed { worker, at },
            EventKind::Election { until } => {
                ready.push(until);
                Told::LeaderLost { at, until }
            }
            EventKind::Renew { worker, expires, .. } if ready.contains(&at) => {
                // The new leader re-arms first in its millisecond; a renewal of the same lease after it there
                // is the worker's keepalive.
                let keepalive = rearmed.contains(&(at, worker));
                rearmed.push((at, worker));
                Told::Rearmed { worker, at, expires, keepalive }
            }
            EventKind::Node { node, change: NodeChange::Jump(by) } => Told::Jumped { node, at, by },
            EventKind::Node { change: NodeChange::Down, .. } => {
                down = true;
                Told::Down { at }
            }
            EventKind::Node { change: NodeChange::Promoted { kept }, .. } => {
                down = false;
                Told::Promoted { at, kept }
            }
            _ => continue,
        });
    }
    out
}

/// Which words teach a run's verdict: the verdict's own lesson, written for the catalogue's runs, or where a
/// script's run lacks what those words say, a plainer one true of every run with that verdict. Chosen from
/// the trace here; `present::claims` states what each one claims and the tests check it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lesson {
    /// The verdict's own lesson.
    Verdict(OutcomeKind),
    /// Fenced: the refused write carried no token.
    Tokenless,
    /// Orphaned, but not by a dead holder that nothing expires: a waiter never got the lock.
    NeverGot,
    /// An unfenced gap whose holder wrote nothing (accepted) after the stale write.
    GapAlone,
    /// An unfenced gap opened by a worker that had never taken the lock: its write is not an old one.
    GapNeverHeld,
    /// Corrupted by a worker that had not taken the lock.
    NeverHeld,
}

impl Lesson {
    /// The lesson the page says of `run`.
    pub fn of(run: &Run) -> Lesson {
        use EventKind as E;
        use OutcomeKind::*;
        let (o, ev) = (&run.outcome, &run.trace.events);
        let late = o.stale_write;
        // Where a worker's write reached the storage among the events (the deciding one, or its first).
        let store = |who: WorkerId, at: Option<Ms>| {
            ev.iter().position(|e| {
                at.is_none_or(|t| e.at == t) && matches!(e.kind, E::Store { worker, .. } if worker == who)
            })
        };
        let decided = late.and_then(|w| store(w.worker, Some(w.at)));
        // Whether the deciding writer had taken the lock before its write.
        let had = late.zip(decided).is_some_and(|(w, n)| {
            ev[..n].iter().any(|e| matches!(e.kind, E::Grant { worker, .. } if worker == w.worker))
        });
        let own = match o.kind {
            Fenced => late.is_some_and(|w| w.token.is_some()),
            // A dead holder that nothing expires and that never let go.
            Orphaned => o.wait.is_some_and(|w| {
                let h = w.holder;
                run.trace.workers[h].crashed.is_some()
                    && run.trace.leases.iter().any(|l| l.worker == h && !l.enforced)
                    && !ev.iter().any(|e| matches!(e.kind, E::Release { worker, .. } if worker == h))
            }),
            // The holder's first write came after the stale one, and was accepted.
            UnfencedGap => {
                had && late.and_then(|w| w.holder).zip(decided).is_some_and(|(h, n)| {
                    store(h, None)
                        .is_some_and(|m| m > n && matches!(ev[m].kind, E::Store { accepted: true, .. }))
                })
            }
            // The writer had taken the lock before, and no longer held it.
            Corrupted => had && late.is_some_and(|w| w.stale),
            _ => true,
        };
        match o.kind {
            _ if own => Lesson::Verdict(o.kind),
            Fenced => Lesson::Tokenless,
            Orphaned => Lesson::NeverGot,
            UnfencedGap if had => Lesson::GapAlone,
            UnfencedGap => Lesson::GapNeverHeld,
            _ => Lesson::NeverHeld,
        }
    }
}

impl Told {
    /// When it happened (its start, for what spans a while).
    pub fn at(&self) -> Ms {
        match *self {
            Told::Waited { at, .. }
            | Told::WaitedDown { at, .. }
            | Told::KeyLost { at, .. }
            | Told::Granted { at, .. }
            | Told::Read { at, .. }
            | Told::Registered { at, .. }
            | Told::Expired { at, .. }
            | Told::Unavailable { at, .. }
            | Told::Paused { at, .. }
            | Told::Checked { at, .. }
            | Told::Sent { at, .. }
            | Told::Stored { at, .. }
            | Told::Released { at, .. }
            | Told::Crashed { at, .. }
            | Told::Rearmed { at, .. }
            | Told::LeaderLost { at, .. }
            | Told::Jumped { at, .. }
            | Told::Down { at, .. }
            | Told::Promoted { at, .. } => at,
        }
    }
}

/// The run's facts by moment, in order: each time at which the narration tells something, with what it
/// tells then. A projector steps through these (`app::projector`).
pub fn moments(run: &Run) -> Vec<(Ms, Vec<Told>)> {
    let mut out: Vec<(Ms, Vec<Told>)> = Vec::new();
    for fact in told(run) {
        match out.last_mut() {
            Some((at, facts)) if *at == fact.at() => facts.push(fact),
            _ => out.push((fact.at(), vec![fact])),
        }
    }
    out
}

/// Names of the run's workers, by index (`?` past the end).
fn name(names: &[String], w: WorkerId) -> &str {
    names.get(w).map_or("?", String::as_str)
}

/// `fact` in English; `names` are the workers' names.
pub fn en(fact: &Told, names: &[String]) -> String {
    let n = |w| name(names, w);
    let s = seconds;
    match *fact {
        Told::Waited { worker, at, holder: Some(h) } if h == worker => format!(
            "At {} s {} asked for the lock again; it held it already, so it waited.",
            s(at),
            n(worker)
        ),
        Told::Waited { worker, at, holder: Some(h) } => format!(
            "At {} s {} asked for the lock; {} held it, so {} waited.",
            s(at),
            n(worker),
            n(h),
            n(worker)
        ),
        Told::Waited { worker, at, holder: None } => format!(
            "At {} s {} asked for the lock; nobody could take it then, so {} waited.",
            s(at),
            n(worker),
            n(worker)
        ),
        Told::Granted { worker, at, token, expires, over } => {
            let what = match token {
                Some(t) => format!("At {} s {} took the lock with token {t}", s(at), n(worker)),
                None => format!("At {} s {} took the lock", s(at), n(worker)),
            };
            let over = over.map_or(String::new(), |o| format!(", over {}'s", n(o)));
            // Without tokens (Redlock) the end is the client's: its validity, by its own clock.
            let lease = match (expires, token) {
                (None, _) => ", with no expiry".to_owned(),
                (Some(e), Some(_)) => format!(", its lease until {} s", s(e)),
                (Some(e), None) => format!(", valid until {} s by its own clock", s(e)),
            };
            format!("{what}{over}{lease}.")
        }
        Told::Read { worker, at, free } => {
            format!("At {} s {} read the lock: {}.", s(at), n(worker), if free { "free" } else { "taken" })
        }
        Told::Registered { worker, at, token } => {
            format!("At {} s {}'s token {token} reached the storage with its grant.", s(at), n(worker))
        }
        Told::WaitedDown { worker, at } => format!(
            "At {} s {} asked for the lock; the primary was down, so {} waited.",
            s(at),
            n(worker),
            n(worker)
        ),
        Told::Expired { worker, at } => format!("At {} s {}'s lease ran out.", s(at), n(worker)),
        Told::KeyLost { worker, at, node } => format!(
            "At {} s N{} dropped {}'s key early: {} no longer held a majority.",
            s(at),
            node + 1,
            n(worker),
            n(worker)
        ),
        Told::Unavailable { at, until } => {
            format!("From {} s nobody could take the lock until {} s.", s(at), s(until))
        }
        Told::Paused { worker, at, until } => {
            format!("From {} s to {} s {} was paused.", s(at), s(until), n(worker))
        }
        Told::Checked { worker, at, ok: true } => {
            format!("At {} s {} checked its lease: still valid.", s(at), n(worker))
        }
        Told::Checked { worker, at, ok: false } => {
            format!(
                "At {} s {} checked its lease: it had run out, so {} gave up.",
                s(at),
                n(worker),
                n(worker)
            )
        }
        Told::Sent { worker, at, arrives } => {
            format!("At {} s {} sent a write; it arrived at {} s.", s(at), n(worker), s(arrives))
        }
        Told::Stored { worker, at, token: t, accepted, highest, holder, stale, had } => {
            let with = t.map_or(String::new(), |t| format!(" with token {t}"));
            let held = held(had);
            let verdict = if accepted { "accepted" } else { "rejected" };
            // Why, after the write it explains: "rejected A's write with token 33 (it had seen 34)".
            let seen = highest.filter(|_| !accepted).map_or(String::new(), |h| format!(" (it had seen {h})"));
            let whose = match (stale, holder) {
                (true, Some(h)) => format!(" {} {held} the lock; {} did.", n(worker), n(h)),
                (true, None) => format!(" {} {held} the lock.", n(worker)),
                _ => String::new(),
            };
            format!("At {} s the storage {verdict} {}'s write{with}{seen}.{whose}", s(at), n(worker))
        }
        Told::Released { worker, at, freed: Some(f), .. } if f == worker => {
            format!("At {} s {} released the lock.", s(at), n(worker))
        }
        Told::Released { worker, at, freed: Some(f), .. } => {
            format!("At {} s {}'s release deleted {}'s lock.", s(at), n(worker), n(f))
        }
        // Its late write's sentence has just said it did not hold the lock.
        Told::Released { worker, at, freed: None, said: true, .. } => {
            format!("At {} s {} released: nothing changed.", s(at), n(worker))
        }
        Told::Released { worker, at, freed: None, had, .. } => {
            format!("At {} s {} released, but it {} the lock: nothing changed.", s(at), n(worker), held(had))
        }
        Told::Crashed { worker, at } => format!("At {} s {} crashed.", s(at), n(worker)),
        Told::Rearmed { worker, at, expires, keepalive: false } => {
            format!("At {} s the new leader restarted {}'s lease, to {} s.", s(at), n(worker), s(expires))
        }
        Told::Rearmed { worker, at, expires, keepalive: true } => format!(
            "At {} s {}'s keepalive reached the new leader, which renewed the lease from then, to {} s.",
            s(at),
            n(worker),
            s(expires)
        ),
        Told::LeaderLost { at, until } => {
            format!("At {} s the leader crashed; a new one was ready at {} s.", s(at), s(until))
        }
        Told::Jumped { node, at, by } => {
            format!("At {} s N{}'s clock jumped {} s ahead.", s(at), node + 1, s(by))
        }
        Told::Down { at } => format!("At {} s the primary crashed.", s(at)),
        Told::Promoted { at, kept } => format!(
            "At {} s the replica was promoted, {}.",
            s(at),
            if kept {
                "with the lock's key and counter"
            } else {
                "with neither the lock's key nor its counter"
            }
        ),
    }
}

/// What a writer or releaser that does not hold the lock did: "no longer held" it if it had taken it.
fn held(had: bool) -> &'static str {
    if had {
        "no longer held"
    } else {
        "did not hold"
    }
}

/// The same in Japanese: もう (no longer) before ロックを持って… if it had taken the lock.
fn mou(had: bool) -> &'static str {
    if had {
        "もう"
    } else {
        ""
    }
}

/// `fact` in Japanese.
pub fn ja(fact: &Told, names: &[String]) -> String {
    let n = |w| name(names, w);
    let s = seconds;
    match *fact {
        Told::Waited { worker, at, holder: Some(h) } if h == worker => format!(
            "{}秒に {} がもう一度ロックを求めましたが、自分ですでに持っていたので待ちました。",
            s(at),
            n(worker)
        ),
        Told::Waited { worker, at, holder: Some(h) } => format!(
            "{}秒に {} がロックを求めましたが、{} が持っていたので待ちました。",
            s(at),
            n(worker),
            n(h)
        ),
        Told::Waited { worker, at, holder: None } => format!(
            "{}秒に {} がロックを求めましたが、そのときは誰も取れなかったので待ちました。",
            s(at),
            n(worker)
        ),
        Told::Granted { worker, at, token, expires, over } => {
            // What it got, in one parenthesis: "番号 33 で" beside "リースで" read as a doubled で.
            let over = over.map_or(String::new(), |o| format!(" {} のロックを上書きして", n(o)));
            let lease = match (expires, token) {
                (None, _) => "期限なし".to_owned(),
                (Some(e), Some(_)) => format!("{}秒までのリース", s(e)),
                (Some(e), None) => format!("自分の時計で{}秒まで有効", s(e)),
            };
            let with = token.map_or(lease.clone(), |t| format!("番号 {t}、{lease}"));
            format!("{}秒に {} が{over}ロックを取りました（{with}）。", s(at), n(worker))
        }
        Told::Read { worker, at, free } => {
            format!(
                "{}秒に {} がロックを読みました。{}。",
                s(at),
                n(worker),
                if free { "空いていました" } else { "取られていました" }
            )
        }
        Told::Registered { worker, at, token } => {
            format!("{}秒に、ロックを取ると同時に {} の番号 {token} が資源に届きました。", s(at), n(worker))
        }
        Told::WaitedDown { worker, at } => {
            format!(
                "{}秒に {} がロックを求めましたが、プライマリが落ちていたので待ちました。",
                s(at),
                n(worker)
            )
        }
        Told::Expired { worker, at } => format!("{}秒に {} の期限が切れました。", s(at), n(worker)),
        Told::KeyLost { worker, at, node } => format!(
            "{}秒に N{} が {} のキーを期限より早く消したので、{} は過半数を失いました。",
            s(at),
            node + 1,
            n(worker),
            n(worker)
        ),
        Told::Unavailable { at, until } => {
            format!("{}秒から{}秒まで、誰もロックを取れませんでした。", s(at), s(until))
        }
        Told::Paused { worker, at, until } => {
            format!("{}秒から{}秒まで {} は止まっていました。", s(at), s(until), n(worker))
        }
        Told::Checked { worker, at, ok: true } => {
            format!("{}秒に {} が期限を確かめると、まだ有効でした。", s(at), n(worker))
        }
        Told::Checked { worker, at, ok: false } => format!(
            "{}秒に {} が期限を確かめると、切れていたので、残りの手順をあきらめました。",
            s(at),
            n(worker)
        ),
        Told::Sent { worker, at, arrives } => {
            format!(
                "{}秒に {} が送った書き込みは、{}秒に資源に届きました。",
                s(at),
                n(worker),
                s(arrives)
            )
        }
        Told::Stored { worker, at, token: t, accepted, highest, holder, stale, had } => {
            let with = t.map_or(String::new(), |t| format!("番号 {t} の"));
            let verdict = if accepted { "受け付けました" } else { "拒否しました" };
            // The reason before what it explains: "すでに 34 を見ていたので、…を拒否しました".
            let seen = highest
                .filter(|_| !accepted)
                .map_or(String::new(), |h| format!("すでに {h} を見ていたので、"));
            let whose = match (stale, holder) {
                (true, Some(h)) => {
                    format!(
                        "{} は{}ロックを持っておらず、持っていたのは {} でした。",
                        n(worker),
                        mou(had),
                        n(h)
                    )
                }
                (true, None) => format!("{} は{}ロックを持っていませんでした。", n(worker), mou(had)),
                _ => String::new(),
            };
            let lead = if seen.is_empty() { " ".to_owned() } else { seen };
            format!("{}秒に資源は{lead}{} の{with}書き込みを{verdict}。{whose}", s(at), n(worker))
        }
        Told::Released { worker, at, freed: Some(f), .. } if f == worker => {
            format!("{}秒に {} がロックを返しました。", s(at), n(worker))
        }
        Told::Released { worker, at, freed: Some(f), .. } => {
            format!("{}秒に {} がロックを返そうとして、{} のロックを消しました。", s(at), n(worker), n(f))
        }
        Told::Released { worker, at, freed: None, said: true, .. } => {
            format!("{}秒に {} がロックを返そうとしましたが、何も変わりませんでした。", s(at), n(worker))
        }
        Told::Released { worker, at, freed: None, had, .. } => {
            format!(
                "{}秒に {} がロックを返そうとしましたが、{}ロックを持っていなかったので、何も変わりませんでした。",
                s(at),
                n(worker),
                mou(had)
            )
        }
        Told::Crashed { worker, at } => format!("{}秒に {} がクラッシュしました。", s(at), n(worker)),
        Told::Rearmed { worker, at, expires, keepalive: false } => {
            format!(
                "{}秒に新しいリーダーが {} のリースを数え直し、{}秒までとしました。",
                s(at),
                n(worker),
                s(expires)
            )
        }
        Told::Rearmed { worker, at, expires, keepalive: true } => format!(
            "{}秒に {} のリース延長の要求が新しいリーダーに届き、リースはその時点から数え直されて{}秒までになりました。",
            s(at),
            n(worker),
            s(expires)
        ),
        Told::LeaderLost { at, until } => {
            format!("{}秒にリーダーが落ち、{}秒に新しいリーダーが立ちました。", s(at), s(until))
        }
        Told::Jumped { node, at, by } => {
            format!("{}秒に N{} の時計が{}秒先に飛びました。", s(at), node + 1, s(by))
        }
        Told::Down { at } => format!("{}秒にプライマリが落ちました。", s(at)),
        Told::Promoted { at, kept: true } => {
            format!("{}秒にレプリカが昇格し、ロックのキーと番号のカウンタを引き継ぎました。", s(at))
        }
        Told::Promoted { at, kept: false } => {
            format!("{}秒にレプリカが昇格しましたが、ロックのキーも番号のカウンタも引き継いでいませんでした。", s(at))
        }
    }
}

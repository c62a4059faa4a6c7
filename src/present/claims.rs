//! What each sentence the page can show claims of its run, and the check of every claim against the trace
//! (issue 31): a narration's facts ([`Told::claims`]) and reasons ([`Why::claims`]), the predict-first answer
//! that labels a run ([`answer`]), the verdict's lesson and Break it's words ([`Lesson::claims`],
//! [`broken`]). [`Claim::check`] reads a claim off the events, the leases, the lanes and the storage's writes
//! alone, never off the code that chose the sentence. The tests check every one over a dense grid around
//! every boundary of every catalogue scenario ([`boundary_runs`]), and over random scripts
//! (`tests/told.rs`).

use crate::present::told::{Lesson, Told};
use crate::present::why::Why;
#[cfg(test)]
use crate::scenarios::{Inputs, Key, Kind, ScenarioId};
use crate::sim::{self, EventKind, LeaseEnd, Ms, NodeChange, OutcomeKind, Run, WorkerId};

/// Workers A, B and C, as the catalogue names them (the answers and lessons speak of them).
const A: WorkerId = 0;
const B: WorkerId = 1;
#[cfg(test)]
const C: WorkerId = 2;

/// How two times compare.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rel {
    /// Strictly earlier.
    Lt,
    /// Earlier or in the same millisecond.
    Le,
    /// The same millisecond.
    Eq,
}

/// One thing a sentence says happened. A time is `None` where the sentence lacks the fact (which fails:
/// the sentence would print "?"); `Any` fields are not part of the claim.
#[allow(missing_docs)] // Each variant's doc names its fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Claim {
    /// `who` asked at `at` and had to wait (the lock was not free).
    WaitedFrom(WorkerId, Option<Ms>),
    /// `who` was waiting at `at`.
    WaitingAt(WorkerId, Option<Ms>),
    /// `who` waited from `from` until `until` (`None`: for ever).
    WaitedUntil(WorkerId, Option<Ms>, Option<Ms>),
    /// `who` took the lock at `at` (if given) with `token` (if given).
    Granted(WorkerId, Option<Ms>, Option<u64>),
    /// `who` took the lock at `at` with no expiry.
    GrantedForever(WorkerId, Option<Ms>),
    /// `who` took the lock at `at` over `over`'s lock, still held.
    GrantedOver(WorkerId, Option<Ms>, WorkerId),
    /// `who` never got the lock.
    NeverGranted(WorkerId),
    /// `who` read the lock at `at` and saw it free.
    ReadFree(WorkerId, Ms),
    /// `who`'s token reached the storage at `at`.
    Registered(WorkerId, Option<Ms>, Option<u64>),
    /// The lock service counted `who` as holder at some moment of the millisecond `at` (what happened in it
    /// may have freed the lock since).
    HeldIn(WorkerId, Option<Ms>),
    /// `who` believed it held the lock at `at`.
    Believed(WorkerId, Option<Ms>),
    /// Leases expire (`true`) or not.
    Expiry(bool),
    /// The storage checks tokens (`true`) or not.
    Fencing(bool),
    /// `who`'s lease ran out at `at`.
    Expired(WorkerId, Option<Ms>),
    /// `who` was paused at `at`, and had renewed nothing since its pause began.
    PausedUnrenewed(WorkerId, Option<Ms>),
    /// After an expiry at `at` nobody could take the lock until `until`.
    LockDelay(Option<Ms>, Option<Ms>),
    /// `who` stopped at `at`.
    Paused(WorkerId, Option<Ms>),
    /// `who` checked its lease at `at` and found it valid (`ok`) or run out.
    Checked(WorkerId, Option<Ms>, bool),
    /// `who` sent a write at `at`.
    Sent(WorkerId, Option<Ms>),
    /// `who`'s write that reached the storage at `at` carried no token (`who` held no lock then).
    NoToken(WorkerId, Option<Ms>),
    /// A write of `who` reached the storage at `at` (if given) with `token` (if given), was `accepted` or
    /// not, the storage having seen `highest` before it (if given; `Some(None)`: nothing).
    Stored { who: WorkerId, at: Option<Ms>, token: Option<u64>, accepted: bool, highest: Option<Option<u64>> },
    /// `who`'s write that reached the storage at `at` arrived while the lock service counted `holder` as
    /// holder.
    StoredUnder(WorkerId, Option<Ms>, WorkerId),
    /// `who` held the lock, when others waited for it, under a lease that nothing expires.
    UnexpiringHolder(WorkerId),
    /// `who` never let the lock go.
    NeverReleased(WorkerId),
    /// Every write of `who` arrived while nobody else held the lock.
    WritesAlone(WorkerId),
    /// `who`'s write that reached the storage at `at` arrived while nobody else held the lock.
    StoredAlone(WorkerId, Option<Ms>),
    /// The storage took `first`'s write before `then`'s (in event order; each its first accepted write).
    StoredInOrder(WorkerId, WorkerId),
    /// `who` released at `at`.
    Released(WorkerId, Option<Ms>),
    /// `who`'s release at `at` deleted `whose` lock.
    Deleted(WorkerId, Option<Ms>, WorkerId),
    /// `who`'s release deleted nothing.
    DeletedNothing(WorkerId),
    /// `who` crashed at `at`.
    Crashed(WorkerId, Option<Ms>),
    /// The leader crashed at `at`; a new one was ready at `until`.
    Election(Option<Ms>, Option<Ms>),
    /// A keepalive or a new leader moved `who`'s lease end at `at` to `to`.
    Renewed(WorkerId, Option<Ms>, Option<Ms>),
    /// Server `node`'s clock jumped `by` forward at `at`.
    Jumped(usize, Ms, Ms),
    /// Server `node` dropped `who`'s key at `at` (`node` `None`: the first server to).
    KeyDropped(WorkerId, Option<usize>, Option<Ms>),
    /// The primary crashed at `at`.
    Down(Ms),
    /// The replica was promoted at `at`, keeping the key and counter (`kept`) or not.
    Promoted(Ms, bool),
    /// Two values compare so.
    Order(Option<Ms>, Rel, Option<Ms>),
    /// The verdict.
    Kind(OutcomeKind),
    /// The lock service granted the lock twice at once (`true`) or never did.
    Twice(bool),
    /// A holder without expiry let go at or after where a lease would have ended, while another waited.
    StuckHolder,
    /// Two workers who believed they held the lock at once both had a write accepted.
    BothWrote,
    /// `who`'s write that arrived at `at` came before `holder`'s first write, which was accepted.
    BeforeFirstWrite(WorkerId, Option<Ms>, WorkerId),
    /// `who`'s write arrived at `at` when the lock service did not count `who` as the holder.
    StaleStore(WorkerId, Option<Ms>),
    /// Whether `who` had taken the lock before its write arrived at `at`.
    HadTaken(WorkerId, Option<Ms>, bool),
    /// The same of one of `who`'s writes that arrived at `at` (a worker may write twice in a millisecond).
    OneHadTaken(WorkerId, Option<Ms>, bool),
    /// `who`'s write that arrived at `at` was accepted after another worker's, made under a later grant
    /// than `who`'s last (or when `who` had none): it overwrote newer work.
    OverwroteNewer(WorkerId, Option<Ms>),
}

use Claim::*;

impl Claim {
    /// Whether the run bears the claim out, read off its trace.
    pub fn check(&self, run: &Run) -> bool {
        use EventKind as E;
        let tr = &run.trace;
        let ev = &tr.events;
        // Whether an event at `at` is of this kind; where the first of this kind is.
        let has = |at: Ms, f: &dyn Fn(&E) -> bool| ev.iter().any(|e| e.at == at && f(&e.kind));
        let first = |f: &dyn Fn(&E) -> bool| ev.iter().position(|e| f(&e.kind));
        let never = |f: &dyn Fn(&E) -> bool| first(f).is_none();
        let first_store = |who: WorkerId, accepted: Option<bool>| {
            first(
                &|k| matches!(*k, E::Store { worker, accepted: a, .. } if worker == who && accepted.is_none_or(|x| x == a)),
            )
        };
        let before = |x: Option<usize>, y: Option<usize>| matches!((x, y), (Some(x), Some(y)) if x < y);
        // Where `who`'s write that arrived at `at` is among the events.
        let store_of = |who: WorkerId, at: Ms| {
            ev.iter().position(|e| e.at == at && matches!(e.kind, E::Store { worker, .. } if worker == who))
        };
        let lane = |who: WorkerId| &tr.workers[who];
        let drops = |who: WorkerId| {
            ev.iter()
                .filter(move |e| matches!(e.kind, E::Node { change: NodeChange::Clear(w), .. } if w == who))
        };
        let Some(at) = self.at() else { return false };
        match *self {
            WaitedFrom(who, _) => has(at, &|k| matches!(*k, E::Wait { worker, .. } if worker == who)),
            WaitingAt(who, _) => lane(who).waiting.iter().any(|s| s.contains(at)),
            WaitedUntil(who, _, until) => {
                lane(who).waiting.iter().any(|s| s.from == at && s.to == until)
                    && until.is_none_or(|u| has(u, &|k| matches!(*k, E::Grant { worker, .. } if worker == who)))
            }
            Granted(who, when, token) => ev.iter().any(|e| {
                when.is_none_or(|t| e.at == t)
                    && matches!(e.kind, E::Grant { worker, token: tk, .. } if worker == who && token.is_none_or(|t| t == tk))
            }),
            GrantedForever(who, _) => has(at, &|k| matches!(*k, E::Grant { worker, expires: None, .. } if worker == who)),
            GrantedOver(who, _, over) => {
                has(at, &|k| matches!(*k, E::Grant { worker, over: Some(o), .. } if worker == who && o == over))
            }
            NeverGranted(who) => never(&|k| matches!(*k, E::Grant { worker, .. } if worker == who)),
            NoToken(who, _) => has(at, &|k| matches!(*k, E::Store { worker, token: None, .. } if worker == who)),
            ReadFree(who, _) => has(at, &|k| matches!(*k, E::Get { worker, free: true } if worker == who)),
            Registered(who, _, token) => {
                has(at, &|k| matches!(*k, E::Register { worker, token: t } if worker == who && Some(t) == token))
            }
            HeldIn(who, _) => {
                tr.leases.iter().any(|l| l.worker == who && l.held.from <= at && l.held.to.is_none_or(|t| t >= at))
            }
            Believed(who, _) => lane(who).believing.iter().any(|(s, _)| s.contains(at) || s.to == Some(at)),
            Expiry(on) => tr.leases.iter().all(|l| l.enforced == on),
            Fencing(on) => {
                // Fencing shows in what the storage did: with it on, no write below the highest seen is taken.
                let below = |w: &sim::WriteRecord| w.token.zip(w.highest_before).is_some_and(|(t, h)| t < h);
                if on {
                    tr.writes.iter().filter(|w| below(w)).all(|w| !w.accepted)
                } else {
                    tr.writes.iter().all(|w| w.accepted)
                }
            }
            Expired(who, _) => has(at, &|k| matches!(*k, E::Expire { worker, .. } if worker == who)),
            PausedUnrenewed(who, _) => lane(who).paused.iter().any(|s| {
                s.from <= at
                    && s.to.is_none_or(|t| at < t)
                    && !ev.iter().any(|e| {
                        (s.from..=at).contains(&e.at) && matches!(e.kind, E::Renew { worker, .. } if worker == who)
                    })
            }),
            LockDelay(_, until) => has(at, &|k| matches!(*k, E::LockDelay { until: u } if Some(u) == until)),
            Paused(who, _) => has(at, &|k| matches!(*k, E::PauseStart { worker, .. } if worker == who)),
            Checked(who, _, ok) => has(at, &|k| matches!(*k, E::CheckLease { worker, ok: o } if worker == who && o == ok)),
            Sent(who, _) => has(at, &|k| matches!(*k, E::Write { worker, .. } if worker == who)),
            Stored { who, at: when, token, accepted, highest } => tr.writes.iter().any(|w| {
                w.worker == who
                    && w.accepted == accepted
                    && when.is_none_or(|t| w.at == t)
                    && (token.is_none() || w.token == token)
                    && highest.is_none_or(|h| w.highest_before == h)
            }),
            StoredUnder(who, _, holder) => {
                tr.writes.iter().any(|w| w.worker == who && w.at == at && w.holder == Some(holder))
            }
            UnexpiringHolder(who) => tr.leases.iter().any(|l| l.worker == who && !l.enforced),
            NeverReleased(who) => never(&|k| matches!(*k, E::Release { worker, .. } if worker == who)),
            WritesAlone(who) => tr.writes.iter().all(|w| w.worker != who || w.holder.is_none_or(|h| h == who)),
            StoredAlone(who, _) => {
                tr.writes.iter().any(|w| w.worker == who && w.at == at && w.holder.is_none_or(|h| h == who))
            }
            StoredInOrder(one, then) => before(first_store(one, Some(true)), first_store(then, Some(true))),
            Released(who, when) => {
                ev.iter().any(|e| when.is_none_or(|t| e.at == t) && matches!(e.kind, E::Release { worker, .. } if worker == who))
            }
            Deleted(who, _, whose) => {
                has(at, &|k| matches!(*k, E::Release { worker, freed: Some(f), .. } if worker == who && f == whose))
            }
            DeletedNothing(who) => ev.iter().any(|e| matches!(e.kind, E::Release { worker, freed: None, .. } if worker == who)),
            Crashed(who, _) => has(at, &|k| matches!(*k, E::Crash { worker } if worker == who)),
            Election(_, until) => has(at, &|k| matches!(*k, E::Election { until: u } if Some(u) == until)),
            Renewed(who, _, to) => {
                has(at, &|k| matches!(*k, E::Renew { worker, expires, .. } if worker == who && Some(expires) == to))
            }
            Jumped(node, _, by) => {
                has(at, &|k| matches!(*k, E::Node { node: n, change: NodeChange::Jump(b) } if n == node && b == by))
            }
            KeyDropped(who, Some(node), _) => {
                drops(who).any(|e| e.at == at && matches!(e.kind, E::Node { node: n, .. } if n == node))
            }
            KeyDropped(who, None, _) => drops(who).next().is_some_and(|e| e.at == at),
            Down(_) => has(at, &|k| matches!(k, E::Node { change: NodeChange::Down, .. })),
            Promoted(_, kept) => has(at, &|k| matches!(*k, E::Node { change: NodeChange::Promoted { kept: k }, .. } if k == kept)),
            Order(_, rel, y) => y.is_some_and(|y| match rel {
                Rel::Lt => at < y,
                Rel::Le => at <= y,
                Rel::Eq => at == y,
            }),
            Kind(k) => run.outcome.kind == k,
            Twice(yes) => run.outcome.double_grant.is_some() == yes,
            StuckHolder => tr.leases.iter().any(|l| {
                l.held.to.is_some_and(|t| {
                    !l.enforced
                        && t >= l.nominal_expiry
                        && tr.workers.iter().any(|w| w.waiting.iter().any(|s| s.from <= t && s.to.is_none_or(|u| u >= t)))
                })
            }),
            BothWrote => {
                let wrote = |who: WorkerId| tr.writes.iter().any(|w| w.worker == who && w.accepted);
                // Held: from its grant while the service counted it, or the holder believed it (a dead holder
                // nothing expires still holds it; one whose key was deleted still believes it does).
                let held = |who: WorkerId| {
                    // A grant lost with a crashed primary was still promised, as the verdict counts it: until
                    // its lease would have run out (with expiry off, never) or its holder let go.
                    let let_go = move |from: Ms| {
                        ev.iter().find(|e| {
                            e.at >= from
                                && matches!(e.kind, E::Release { worker, .. } | E::CheckLease { worker, ok: false } if worker == who)
                        })
                    };
                    let leases = tr.leases.iter().filter(move |l| l.worker == who).map(move |l| match l.end {
                        LeaseEnd::Lost => sim::Span {
                            to: sim::sooner(l.enforced.then_some(l.nominal_expiry), let_go(l.held.from).map(|e| e.at)),
                            ..l.held
                        },
                        _ => l.held,
                    });
                    tr.workers[who].believing.iter().map(|(s, _)| *s).chain(leases)
                };
                // (In the millisecond a holder lets go, a grant may come first.)
                let meet = |a: sim::Span, b: sim::Span| {
                    a.from <= b.to.unwrap_or(Ms::MAX) && b.from <= a.to.unwrap_or(Ms::MAX)
                };
                let n = tr.workers.len();
                (0..n).any(|x| {
                    (x + 1..n).any(|y| wrote(x) && wrote(y) && held(x).any(|a| held(y).any(|b| meet(a, b))))
                })
            }
            BeforeFirstWrite(who, _, holder) => {
                let Some(n) = store_of(who, at) else { return false };
                first_store(holder, None).is_some_and(|m| n < m && first_store(holder, Some(true)) == Some(m))
            }
            StaleStore(who, _) => tr.writes.iter().any(|w| w.worker == who && w.at == at && w.stale),
            HadTaken(who, _, yes) => {
                store_of(who, at).is_some_and(|n| ev[..n].iter().any(|e| matches!(e.kind, E::Grant { worker, .. } if worker == who)) == yes)
            }
            OneHadTaken(who, _, yes) => ev.iter().enumerate().any(|(n, e)| {
                e.at == at
                    && matches!(e.kind, E::Store { worker, .. } if worker == who)
                    && ev[..n].iter().any(|e| matches!(e.kind, E::Grant { worker, .. } if worker == who)) == yes
            }),
            OverwroteNewer(who, _) => {
                let Some(n) = store_of(who, at) else { return false };
                // Each worker's latest grant before an event, as the grant's place among all grants.
                let lock = |who: WorkerId, n: usize| {
                    ev[..n].iter().filter(|e| matches!(e.kind, E::Grant { .. })).enumerate().filter_map(|(i, e)| {
                        matches!(e.kind, E::Grant { worker, .. } if worker == who).then_some(i)
                    }).last()
                };
                let mine = lock(who, n);
                matches!(ev[n].kind, E::Store { accepted: true, .. })
                    && ev[..n].iter().enumerate().any(|(m, e)| match e.kind {
                        E::Store { worker, accepted: true, .. } if worker != who => {
                            lock(worker, m).is_some_and(|g| mine.is_none_or(|l| l < g))
                        }
                        _ => false,
                    })
            }
        }
    }

    /// The time the claim is about (`Some(0)` for one about no time); `None` where the sentence lacked it.
    fn at(&self) -> Option<Ms> {
        match *self {
            WaitedFrom(_, at)
            | WaitingAt(_, at)
            | WaitedUntil(_, at, _)
            | GrantedForever(_, at)
            | GrantedOver(_, at, _)
            | Registered(_, at, _)
            | HeldIn(_, at)
            | PausedUnrenewed(_, at)
            | Believed(_, at)
            | Expired(_, at)
            | LockDelay(at, _)
            | Paused(_, at)
            | Checked(_, at, _)
            | Sent(_, at)
            | NoToken(_, at)
            | StoredUnder(_, at, _)
            | BeforeFirstWrite(_, at, _)
            | HadTaken(_, at, _)
            | OneHadTaken(_, at, _)
            | StaleStore(_, at)
            | OverwroteNewer(_, at)
            | StoredAlone(_, at)
            | Deleted(_, at, _)
            | Crashed(_, at)
            | Election(at, _)
            | Renewed(_, at, _)
            | KeyDropped(_, _, at)
            | Order(at, _, _) => at,
            Jumped(_, at, _) | Down(at) | Promoted(at, _) => Some(at),
            ReadFree(_, at) => Some(at),
            _ => Some(0),
        }
    }
}

impl Told {
    /// What the sentence of this fact claims of its run: each number and name its words print.
    pub fn claims(&self) -> Vec<Claim> {
        match *self {
            Told::Waited { worker, at, holder } => {
                let mut v = vec![WaitedFrom(worker, Some(at))];
                v.extend(holder.map(|h| HeldIn(h, Some(at))));
                v
            }
            Told::WaitedDown { worker, at } => vec![WaitedFrom(worker, Some(at))],
            Told::Granted { worker, at, token, expires, over } => {
                let mut v = vec![Granted(worker, Some(at), token)];
                v.extend(expires.is_none().then_some(GrantedForever(worker, Some(at))));
                v.extend(over.map(|o| GrantedOver(worker, Some(at), o)));
                v
            }
            Told::Read { worker, at, free: true } => vec![ReadFree(worker, at)],
            Told::Read { .. } => vec![],
            Told::Registered { worker, at, token } => vec![Registered(worker, Some(at), Some(token))],
            Told::Expired { worker, at } => vec![Expired(worker, Some(at))],
            Told::KeyLost { worker, at, node } => {
                vec![KeyDropped(worker, Some(node), Some(at)), Expired(worker, Some(at))]
            }
            Told::Unavailable { at, until } => vec![LockDelay(Some(at), Some(until))],
            Told::Paused { worker, at, .. } => vec![Paused(worker, Some(at))],
            Told::Checked { worker, at, ok } => vec![Checked(worker, Some(at), ok)],
            Told::Sent { worker, at, .. } => vec![Sent(worker, Some(at))],
            Told::Stored { worker, at, token, accepted, highest, holder, stale, had } => {
                // "(it had seen 34)" is said of a refused write that carried a token.
                let seen = token.filter(|_| !accepted).map(|_| highest);
                let mut v = vec![Stored { who: worker, at: Some(at), token, accepted, highest: seen }];
                if stale {
                    v.extend([StaleStore(worker, Some(at)), OneHadTaken(worker, Some(at), had)]);
                }
                v.extend(holder.map(|h| StoredUnder(worker, Some(at), h)));
                v
            }
            Told::Released { worker, at, freed: Some(f), .. } => vec![Deleted(worker, Some(at), f)],
            Told::Released { worker, at, freed: None, .. } => {
                vec![Released(worker, Some(at)), DeletedNothing(worker)]
            }
            Told::Crashed { worker, at } => vec![Crashed(worker, Some(at))],
            Told::Rearmed { worker, at, expires, .. } => vec![Renewed(worker, Some(at), Some(expires))],
            Told::LeaderLost { at, until } => vec![Election(Some(at), Some(until))],
            Told::Jumped { node, at, by } => vec![Jumped(node, at, by)],
            Told::Down { at } => vec![Down(at)],
            Told::Promoted { at, kept } => vec![Promoted(at, kept)],
        }
    }
}

impl Why {
    /// What the reason claims of its run.
    pub fn claims(&self) -> Vec<Claim> {
        let took = |who, at| Stored { who, at: Some(at), token: None, accepted: true, highest: None };
        match *self {
            Why::NoKeepalive { worker, at } => {
                vec![Expired(worker, Some(at)), PausedUnrenewed(worker, Some(at))]
            }
            Why::EqualToken { worker, at, token } => vec![
                Stored {
                    who: worker,
                    at: Some(at),
                    token: Some(token),
                    accepted: true,
                    highest: Some(Some(token)),
                },
                StaleStore(worker, Some(at)),
                Fencing(true),
            ],
            Why::Unfenced { worker, at } => {
                vec![took(worker, at), StaleStore(worker, Some(at)), Fencing(false)]
            }
            Why::NoOrder { worker, at } => {
                vec![took(worker, at), StaleStore(worker, Some(at)), NoToken(worker, Some(at))]
            }
        }
    }
}

#[cfg(test)]
/// The claims of the predict-first answer that labels `run` of `id` (the choice for its verdict), with the
/// facts read off the run itself: an answer names no time, so it must hold of every run it labels.
pub fn answer(id: ScenarioId, run: &Run) -> Vec<Claim> {
    use OutcomeKind::*;
    use ScenarioId as S;
    let ev = &run.trace.events;
    let at = |f: &dyn Fn(&EventKind) -> bool| ev.iter().find(|e| f(&e.kind)).map(|e| e.at);
    let grant = |who| at(&|k| matches!(*k, EventKind::Grant { worker, .. } if worker == who));
    let store = |who| at(&|k| matches!(*k, EventKind::Store { worker, .. } if worker == who));
    let release = |who| at(&|k| matches!(*k, EventKind::Release { worker, .. } if worker == who));
    let a_lease = run.trace.leases.iter().find(|l| l.worker == A).map(|l| l.nominal_expiry);
    let late = run.outcome.stale_write.map(|w| (w.worker, w.at));
    let stored = |who, accepted| Stored { who, at: None, token: None, accepted, highest: None };
    // "A's late write": the deciding write is A's, and the storage did this with it.
    let late_a = |accepted| {
        [
            Order(late.map(|l| l.0 as Ms), Rel::Eq, Some(A as Ms)),
            Stored { who: A, at: late.map(|l| l.1), token: None, accepted, highest: None },
        ]
    };
    // "B gets the lock no later than a lease would let it": by A's lease's end, or when B asks after it.
    let asked = at(&|k| matches!(*k, EventKind::Request { worker: B }));
    let b_in_time = Order(grant(B), Rel::Le, a_lease.max(asked));
    let kind = run.outcome.kind;
    match (id, kind) {
        // "A does no harm".
        (S::GcPause | S::CheckThenPause, Safe) => vec![WritesAlone(A), b_in_time],
        (S::Etcd | S::Zookeeper | S::RegisterToken, Safe) => vec![WritesAlone(A)],
        // "A's write arrives in time": while A held the lock.
        (S::NetworkDelay, Safe) => vec![StoredUnder(A, store(A), A), b_in_time],
        (S::LockDelay, Safe) => vec![StoredAlone(A, store(A))],
        (S::GcPause | S::CheckThenPause | S::NetworkDelay, Stalled) => {
            let from = run.outcome.wait.map(|w| w.from);
            let mut v = vec![Expiry(false), WaitedUntil(B, from, grant(B)), Released(A, grant(B))];
            if id == S::NetworkDelay {
                // "until A's reply comes back and A lets go".
                v.push(Order(store(A), Rel::Le, release(A)));
            }
            v
        }
        (_, Fenced) if id != S::UnsafeRelease => late_a(false).to_vec(),
        (_, UnfencedGap) if id != S::Redlock => {
            [late_a(true).to_vec(), vec![stored(B, true), StoredInOrder(A, B)]].concat()
        }
        (_, Corrupted) if !matches!(id, S::UnsafeRelease | S::Failover | S::Redlock) => {
            [late_a(true).to_vec(), vec![StoredInOrder(B, A)]].concat()
        }
        (S::SetnxExpire | S::Crash, Safe) => vec![Expired(A, grant(B)), Granted(B, grant(B), None)],
        (S::SetnxExpire | S::Crash, Orphaned) => {
            vec![NeverGranted(B), WaitedUntil(B, run.outcome.wait.map(|w| w.from), None)]
        }
        (S::CheckThenSet, Safe) => {
            vec![Order(store(A), Rel::Le, grant(B)), Order(release(A), Rel::Le, grant(B))]
        }
        (S::CheckThenSet, DoubleGrant) => vec![Twice(true), stored(A, true), stored(B, true)],
        (S::Failover, Safe) => vec![Promoted(2_000, true), WaitingAt(B, Some(2_000))],
        (S::Failover, Corrupted) => {
            let token = |who| {
                ev.iter().find_map(|e| match e.kind {
                    EventKind::Grant { worker, token, .. } if worker == who => Some(token),
                    _ => None,
                })
            };
            vec![Granted(B, None, token(A)), stored(A, true), StoredInOrder(B, A)]
        }
        (S::Redlock, Safe) => vec![Order(store(A), Rel::Le, grant(B))],
        (S::Redlock, UnfencedGap) => {
            vec![StoredUnder(A, store(A), B), stored(A, true), stored(B, true), StoredInOrder(A, B)]
        }
        (S::Redlock, DoubleGrant) => {
            vec![Twice(true), Believed(A, grant(B)), stored(A, true), stored(B, true)]
        }
        (S::Redlock, Corrupted) => vec![stored(A, true), StoredInOrder(B, A)],
        (S::UnsafeRelease, Safe) => vec![Twice(false)],
        (S::UnsafeRelease, _) => {
            let mut v = vec![Believed(B, grant(C)), Twice(true)];
            v.extend(match kind {
                Fenced => vec![stored(B, false)],
                DoubleGrant => vec![stored(B, true), stored(C, true)],
                _ => vec![stored(B, true), StoredInOrder(C, B)],
            });
            v
        }
        // A verdict the scenario has no answer for (the answers' own test catches it).
        _ => vec![Order(None, Rel::Eq, None)],
    }
}

impl Lesson {
    /// What the lesson's words claim of `run`, with the facts read off the run: the words name no worker
    /// and no time.
    pub fn claims(self, run: &Run) -> Vec<Claim> {
        use OutcomeKind::*;
        let o = &run.outcome;
        let late = o.stale_write;
        let (who, at) = (late.map_or(A, |w| w.worker), late.map(|w| w.at));
        // The holder the late write lost to.
        let holder = late.and_then(|w| w.holder).unwrap_or(B);
        let waited_on = o.wait.map_or(A, |w| w.holder);
        let accepted = Stored { who, at, token: None, accepted: true, highest: None };
        let refused = Stored { who, at, token: None, accepted: false, highest: None };
        match self {
            // "No write collided."
            Lesson::Verdict(Safe) => (0..run.trace.workers.len()).map(WritesAlone).collect(),
            // "Without expiry a stuck holder holds everyone up."
            Lesson::Verdict(Stalled) => vec![StuckHolder],
            // "A dead holder that nothing expires keeps the lock for ever."
            Lesson::Verdict(Orphaned) => vec![
                UnexpiringHolder(waited_on),
                Crashed(waited_on, run.trace.workers[waited_on].crashed),
                NeverReleased(waited_on),
                waited_for_ever(run),
            ],
            // "A worker waited for the lock to the end and never got it."
            Lesson::NeverGot => vec![waited_for_ever(run)],
            // "The storage refused the older token."
            Lesson::Verdict(Fenced) => {
                vec![refused, Order(late.and_then(|w| w.token), Rel::Lt, late.and_then(|w| w.highest_before))]
            }
            // "The storage refused a write that carried no token."
            Lesson::Tokenless => vec![refused, NoToken(who, at)],
            // "A stale write landed before the new holder's first write, and the storage accepted both."
            Lesson::Verdict(UnfencedGap) => vec![
                accepted,
                HadTaken(who, at, true),
                StoredUnder(who, at, holder),
                BeforeFirstWrite(who, at, holder),
            ],
            // "A stale write landed while another worker held the lock, and the storage accepted it."
            Lesson::GapAlone => vec![accepted, HadTaken(who, at, true), StoredUnder(who, at, holder)],
            // "A worker that had not taken the lock wrote while another held it, and the storage accepted it."
            Lesson::GapNeverHeld => vec![accepted, HadTaken(who, at, false), StoredUnder(who, at, holder)],
            // "Two workers held it at once, and both wrote."
            Lesson::Verdict(DoubleGrant) => vec![Twice(true), BothWrote],
            // "A worker that had lost the lock overwrote newer work."
            Lesson::Verdict(Corrupted) => {
                vec![HadTaken(who, at, true), StaleStore(who, at), OverwroteNewer(who, at)]
            }
            // "A worker that had not taken the lock overwrote the work of one that had."
            Lesson::NeverHeld => vec![HadTaken(who, at, false), OverwroteNewer(who, at)],
        }
    }
}

/// "A worker waited to the end": the first whose wait never ended.
fn waited_for_ever(run: &Run) -> Claim {
    let open = run
        .trace
        .workers
        .iter()
        .enumerate()
        .find_map(|(i, w)| w.waiting.iter().find(|s| s.to.is_none()).map(|s| (i, s.from)));
    WaitedUntil(open.map_or(A, |o| o.0), open.map(|o| o.1), None)
}

/// The claims of Break it's words for a failing run: "a write the lock should have kept out got in";
/// "nothing made the holder let go, and a waiter waited on it" (true at the tie too, where a lease would
/// have freed the lock in the very millisecond the holder let go).
pub fn broken(run: &Run) -> Vec<Claim> {
    use OutcomeKind::*;
    let late = run.outcome.stale_write;
    match run.outcome.kind {
        DoubleGrant => vec![BothWrote],
        k if k.unsafe_data() => {
            vec![Stored {
                who: late.map_or(A, |w| w.worker),
                at: late.map(|w| w.at),
                token: None,
                accepted: true,
                highest: None,
            }]
        }
        Stalled => vec![StuckHolder],
        Orphaned => vec![waited_for_ever(run)],
        _ => vec![],
    }
}

#[cfg(test)]
/// Every input setting at and next to each boundary of each scenario's outcome map, over every switch; at
/// and next to every time something happens in the scenario's default run; and each of those with one
/// other timing (the lease, when A pauses, when B asks, B's work, the leader's crash) moved to and next to
/// each such time, so every pair of events can fall in one millisecond.
pub fn boundary_runs(id: ScenarioId) -> Vec<Inputs> {
    let switches: Vec<_> = id.keys().iter().copied().filter(|k| k.spec().is_switch()).collect();
    let timings: Vec<_> = id
        .keys()
        .iter()
        .chain(id.extras())
        .copied()
        .filter(|&k| {
            k != Key::FirstToken && Some(k) != id.dragged() && !matches!(k.spec().kind, Kind::Words(_))
        })
        .collect();
    let near = |times: &mut Vec<Ms>, (min, max): (Ms, Ms)| {
        times.sort_unstable();
        times.dedup();
        times
            .iter()
            .flat_map(|&v| [v.saturating_sub(1), v, v + 1])
            .filter(|v| (min..=max).contains(v))
            .collect::<Vec<_>>()
    };
    let mut out = Vec::new();
    for bits in 0..1u64 << switches.len() {
        let mut i = id.defaults();
        for (n, k) in switches.iter().enumerate() {
            k.spec().set(&mut i, k.spec().switched(bits >> n & 1 == 1)).unwrap();
        }
        let defaults: Vec<Ms> = sim::run(&id.build(&i)).trace.events.iter().map(|e| e.at).collect();
        let mut starts = vec![i];
        if let Some(key) = id.dragged() {
            let range = key.spec().range();
            let mut edges: Vec<Ms> = sim::outcome_map(&id.build(&i), range.0..=range.1)
                .iter()
                .flat_map(|s| [s.from, s.to])
                .collect();
            starts = near(&mut edges, range)
                .into_iter()
                .map(|v| {
                    let mut at = i;
                    key.spec().set(&mut at, v).unwrap();
                    at
                })
                .collect();
            let mut all = [edges, defaults.clone()].concat();
            out.extend(near(&mut all, range).into_iter().map(|v| {
                let mut at = i;
                key.spec().set(&mut at, v).unwrap();
                at
            }));
        }
        for start in &starts {
            let mut events: Vec<Ms> = sim::run(&id.build(start)).trace.events.iter().map(|e| e.at).collect();
            events.extend(&defaults);
            for k in &timings {
                // A switch that is off keeps its timing off.
                if k.spec().is_switch() && k.spec().get(start) == 0 {
                    continue;
                }
                for v in near(&mut events, k.spec().range()) {
                    let mut at = *start;
                    if v > 0 && k.spec().set(&mut at, v).is_ok() {
                        out.push(at);
                    }
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::present::params::Query;

    /// Every sentence of the narration of every run of the grid: each fact and each reason, checked.
    #[test]
    fn every_claim_of_every_sentence_holds_at_every_boundary() {
        every_run_bears_out(|_, sc, run| {
            crate::present::why::explained(sc, run)
                .into_iter()
                .flat_map(|(fact, why)| [fact.claims(), why.map_or(vec![], |w| w.claims())].concat())
                .collect()
        });
    }

    /// Every claim `of` makes of each run of the grid, checked; the ones that fail, with their links.
    fn every_run_bears_out(of: fn(ScenarioId, &sim::Scenario, &Run) -> Vec<Claim>) {
        let mut wrong = Vec::new();
        for id in ScenarioId::ALL {
            for i in boundary_runs(id) {
                let sc = id.build(&i);
                let run = sim::run(&sc);
                for claim in of(id, &sc, &run).into_iter().filter(|c| !c.check(&run)) {
                    let q = Query { inputs: i, ..Query::new(id) }.to_query_string();
                    wrong.push(format!("{id:?} {:?} {claim:?} {q}", run.outcome.kind));
                }
            }
        }
        assert!(wrong.is_empty(), "{} claims do not hold:\n{}", wrong.len(), wrong.join("\n"));
    }

    #[test]
    fn every_answer_holds_of_every_run_it_labels() {
        every_run_bears_out(|id, _, run| answer(id, run));
    }

    #[test]
    fn every_lesson_holds_of_every_run_it_closes() {
        every_run_bears_out(|_, _, run| {
            let mut v = Lesson::of(run).claims(run);
            v.extend(broken(run));
            v
        });
        // The catalogue's runs are taught by their verdict's own words (the plainer ones are for scripts),
        // but for a refused write that carried no token.
        for id in ScenarioId::ALL {
            for i in boundary_runs(id) {
                let run = sim::run(&id.build(&i));
                let l = Lesson::of(&run);
                assert!(matches!(l, Lesson::Verdict(_) | Lesson::Tokenless), "{id:?} {i:?}: {l:?}");
            }
        }
    }

    /// "Where does it change?": "the shortest {value} at which {verdict}", its answer "from {at} s to
    /// {until} s" and "the verdict first changes earlier, at {t} s: {title}", each checked by running the
    /// values it names and their neighbours, for every scenario with a band, over every switch setting.
    #[test]
    fn where_it_changes_says_what_the_runs_at_its_values_show() {
        use crate::present::lesson::boundary;
        for id in ScenarioId::ALL {
            let Some(key) = id.dragged() else { continue };
            let (min, max) = key.spec().range();
            for i in
                boundary_runs(id).into_iter().filter(|i| key.spec().get(i) == key.spec().get(&id.defaults()))
            {
                let map = sim::outcome_map(&id.build(&i), min..=max);
                let Some(b) = boundary(&map) else { continue };
                let kind_at = |v: Ms| {
                    let mut at = i;
                    key.spec().set(&mut at, v).unwrap();
                    sim::run(&id.build(&at)).outcome.kind
                };
                let q = Query { inputs: i, ..Query::new(id) }.to_query_string();
                assert_eq!(kind_at(b.at), b.kind, "{q}");
                // The shortest: nothing below it gives that verdict.
                assert!(map.iter().take_while(|s| s.to < b.at).all(|s| s.kind != b.kind), "{q}");
                if b.at > min {
                    assert_ne!(kind_at(b.at - 1), b.kind, "{q}");
                }
                if let Some(until) = b.until {
                    assert_eq!(kind_at(until), b.kind, "{q}");
                    assert_ne!(kind_at(until + 1), b.kind, "{q}");
                }
                if let Some((t, kind)) = b.first {
                    assert_eq!((kind_at(t), kind_at(t - 1)), (kind, map[0].kind), "{q}");
                }
            }
        }
    }

    /// The checker finds a sentence told of a run it does not describe.
    #[test]
    fn a_reason_told_of_another_run_fails_its_claims() {
        let run_of = |id: ScenarioId, f: fn(&mut Inputs)| {
            let mut i = id.defaults();
            f(&mut i);
            sim::run(&id.build(&i))
        };
        let failing =
            |why: Why, run: &Run| why.claims().into_iter().filter(|c| !c.check(run)).collect::<Vec<_>>();
        // A works on past its lease's end and pauses after: its lease did not run out while it was paused.
        let late_pause = run_of(ScenarioId::GcPause, |i| i.pause_start = 11_001);
        assert_eq!(
            failing(Why::NoKeepalive { worker: A, at: 10_000 }, &late_pause),
            [PausedUnrenewed(A, Some(10_000))]
        );
        // Paused from the start, it was: the same reason holds of the run it was written for.
        let paused = run_of(ScenarioId::Etcd, |_| {});
        assert!(failing(Why::NoKeepalive { worker: A, at: 10_000 }, &paused).is_empty());
        // The default failover run's late write (A's 33 at 4 s, after B's 33): fencing on, an equal token.
        let failover = run_of(ScenarioId::Failover, |_| {});
        assert!(failing(Why::EqualToken { worker: A, at: 4_000, token: 33 }, &failover).is_empty());
        // Fencing on refused A's late write at 15 s: "fencing was off" fails, and so does "the storage took it".
        let fenced = run_of(ScenarioId::GcPause, |i| i.pause = 15_000);
        let wrong = failing(Why::Unfenced { worker: A, at: 15_000 }, &fenced);
        assert!(wrong.contains(&Fencing(false)) && wrong.len() == 2, "{wrong:?}");
    }
}

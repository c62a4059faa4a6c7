//! Story: the facts of a run that its narration tells, read off the outcome and the trace.
//!
//! Nothing here decides the outcome: the verdict and its deciding facts (the stale write, the token it lost
//! to, the wait, the double grant) come from the classifier's [`Outcome`](crate::sim::Outcome); this only
//! adds the times and tokens a sentence needs.

use crate::present::geom::seconds;
use crate::scenarios::{Inputs, ScenarioId, A_WORKS, REDLOCK_DRIFT};
use crate::sim::{DoubleGrant, EventKind, Ms, NodeChange, OutcomeKind, Run, WaitRecord, WriteRecord};

/// Worker A, who takes the lock first in every scenario.
pub const A: usize = 0;
/// Worker B.
pub const B: usize = 1;
/// Worker C, in the scenarios that have one.
pub const C: usize = 2;

/// Most workers a catalogue scenario has.
const N: usize = 3;
/// Their names, as the lanes show them.
const NAMES: [&str; N] = ["A", "B", "C"];

/// What the narration of one run needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Story {
    /// The scenario.
    pub scenario: ScenarioId,
    /// Its inputs.
    pub inputs: Inputs,
    /// The verdict.
    pub kind: OutcomeKind,
    /// Each worker's first token.
    pub token: [Option<u64>; N],
    /// When each worker first got the lock.
    pub grant: [Option<Ms>; N],
    /// When each worker's first write reached the storage.
    pub write: [Option<Ms>; N],
    /// When each worker released.
    pub release: [Option<Ms>; N],
    /// When each worker first asked for the lock.
    pub request: [Option<Ms>; N],
    /// When A woke from its pause, or (without one) sent its first write.
    pub a_wake: Option<Ms>,
    /// When A's first write was sent.
    pub a_sent: Option<Ms>,
    /// Whether A's lease check found its lease still valid.
    pub a_check_ok: Option<bool>,
    /// When A checked its lease.
    pub a_check_at: Option<Ms>,
    /// Whose lock A's release found in the key, when it was not A's own (a compare-and-delete leaves it).
    pub a_release_found: Option<usize>,
    /// Where A's lease ended as A woke (its grant's, or its last renewal's before the wake).
    pub a_lease_at_wake: Option<Ms>,
    /// When A's lease ran out, if it did.
    pub a_expired: Option<Ms>,
    /// A's plain `DEL` of someone else's lock: (when, whose).
    pub deleted_other: Option<(Ms, usize)>,
    /// When the lock came free after a lock-delay.
    pub lock_free: Option<Ms>,
    /// Redlock: when a server first dropped A's key.
    pub a_key_lost: Option<Ms>,
    /// Redlock: when the last server dropped A's key.
    pub a_keys_gone: Option<Ms>,
    /// Consensus: the leader's crash and when the new leader was ready.
    pub election: Option<(Ms, Ms)>,
    /// Consensus: where the new leader moved A's lease end, if A held the lock then.
    pub a_rearmed: Option<Ms>,
    /// Consensus: where A's keepalive, reaching the new leader in the millisecond it was ready, moved the
    /// lease end again (a renewal counts from then: it can shorten the re-armed lease).
    pub a_rekept: Option<Ms>,
    /// The deciding write (from the outcome).
    pub stale_write: Option<WriteRecord>,
    /// The token it lost to (from the outcome).
    pub newer_token: Option<u64>,
    /// The wait behind `stalled`/`orphaned` (from the outcome).
    pub wait: Option<WaitRecord>,
    /// The double grant, if the service made one (from the outcome).
    pub double_grant: Option<DoubleGrant>,
    /// The run itself, which the sentences' claims are checked against (in `present/claims.rs`).
    pub run: Run,
}

impl Story {
    /// The story of `run`, a run of `scenario` with `inputs`.
    pub fn of(run: &Run, scenario: ScenarioId, inputs: &Inputs) -> Story {
        let o = &run.outcome;
        let mut s = Story {
            scenario,
            inputs: *inputs,
            kind: o.kind,
            token: [None; N],
            grant: [None; N],
            write: [None; N],
            release: [None; N],
            request: [None; N],
            a_wake: None,
            a_sent: None,
            a_check_ok: None,
            a_check_at: None,
            a_release_found: None,
            a_lease_at_wake: None,
            a_expired: None,
            deleted_other: None,
            lock_free: None,
            a_key_lost: None,
            a_keys_gone: None,
            election: None,
            a_rearmed: None,
            a_rekept: None,
            stale_write: o.stale_write,
            newer_token: o.newer_token,
            wait: o.wait,
            double_grant: o.double_grant,
            run: run.clone(),
        };
        let first = |slot: &mut Option<Ms>, at: Ms| *slot = slot.or(Some(at));
        // How long the lock service keeps an expired lock unavailable, as the scenario's script says.
        let lock_delay = scenario.build(inputs).lock_delay;
        // Who the lock service says holds the lock, as the events go.
        let mut holder: Option<usize> = None;
        for e in &run.trace.events {
            match e.kind {
                EventKind::Request { worker } if worker < N => first(&mut s.request[worker], e.at),
                EventKind::Grant { worker, token, expires, .. } if worker < N => {
                    holder = Some(worker);
                    s.token[worker] = s.token[worker].or(Some(token));
                    first(&mut s.grant[worker], e.at);
                    if worker == A && s.a_wake.is_none() {
                        s.a_lease_at_wake = expires;
                    }
                }
                EventKind::Store { worker, .. } if worker < N => first(&mut s.write[worker], e.at),
                EventKind::Release { worker, freed, .. } if worker < N => {
                    first(&mut s.release[worker], e.at);
                    if worker == A && s.release[A] == Some(e.at) {
                        s.a_release_found = holder.filter(|&h| h != A);
                    }
                    if let Some(other) = freed.filter(|&f| f != worker && worker == A) {
                        s.deleted_other = s.deleted_other.or(Some((e.at, other)));
                    }
                    if freed.is_some() {
                        holder = None;
                    }
                }
                EventKind::Wake { worker: A } => first(&mut s.a_wake, e.at),
                EventKind::CheckLease { worker: A, ok } => {
                    s.a_check_ok = s.a_check_ok.or(Some(ok));
                    first(&mut s.a_check_at, e.at);
                }
                EventKind::Write { worker: A, .. } => {
                    first(&mut s.a_wake, e.at);
                    first(&mut s.a_sent, e.at);
                }
                EventKind::Node { change: NodeChange::Clear(A), .. } => {
                    first(&mut s.a_key_lost, e.at);
                    s.a_keys_gone = Some(e.at);
                }
                EventKind::Election { until } => s.election = s.election.or(Some((e.at, until))),
                EventKind::Renew { worker: A, expires, .. } => {
                    if s.a_wake.is_none() {
                        s.a_lease_at_wake = Some(expires);
                    }
                    // The new leader's re-arming comes first in its millisecond; a keepalive there after it.
                    if s.election.is_some_and(|(_, ready)| ready == e.at) {
                        if s.a_rearmed.is_none() {
                            s.a_rearmed = Some(expires);
                        } else {
                            s.a_rekept = Some(expires);
                        }
                    }
                }
                EventKind::Expire { worker, .. } => {
                    if holder == Some(worker) {
                        holder = None;
                    }
                    if worker == A {
                        first(&mut s.a_expired, e.at);
                        if lock_delay > 0 {
                            s.lock_free = s.lock_free.or(Some(e.at + lock_delay));
                        }
                    }
                }
                _ => {}
            }
        }
        s
    }

    /// When a lease taken by A at 0 ends (or would end, with expiry off).
    pub fn a_lease_end(&self) -> Ms {
        self.grant[A].unwrap_or(0) + self.inputs.ttl
    }

    /// The sentences that tell this run, in order. Chosen here, once, from the facts; each language only
    /// words them (`Text::line`), so the languages cannot tell different stories. A scenario without
    /// sentences of its own says [`Line::Events`]: its run told from its events.
    pub fn lines(&self) -> Vec<Line> {
        use Line::*;
        use OutcomeKind::*;
        let i = &self.inputs;
        let mut out = Vec::with_capacity(4);
        match self.scenario {
            ScenarioId::GcPause
            | ScenarioId::CheckThenPause
            | ScenarioId::LockDelay
            | ScenarioId::RegisterToken
            | ScenarioId::Etcd
            | ScenarioId::Zookeeper => {
                let consensus = matches!(self.scenario, ScenarioId::Etcd | ScenarioId::Zookeeper);
                // A crash after A's lease ran out is told after what that expiry led to, in the order it
                // happened.
                let mut after = None;
                let mut at_expiry = false;
                if consensus {
                    match (self.election, self.a_rearmed) {
                        (Some(_), Some(_)) if self.a_rekept.is_some() => out.push(LeaderRearmedRekept),
                        (Some(_), Some(_)) => out.push(LeaderRearmed),
                        // The expiry comes first in its millisecond (rule 7): the leader it ran out under.
                        // Told right after the expiry's own sentence, which gives its time.
                        (Some((crash, _)), None) if self.a_expired == Some(crash) => at_expiry = true,
                        (Some((crash, _)), None) if self.a_expired.is_some_and(|e| e < crash) => {
                            after = Some(LeaderCrashed)
                        }
                        (Some(_), None) => out.push(LeaderCrashed),
                        _ => {}
                    }
                    if self.a_expired.is_some() {
                        // B's key or znode stands next in line only if B asked before the expiry.
                        let b_next = self.request[B].zip(self.a_expired).is_some_and(|(r, e)| r < e);
                        out.push(match (self.scenario == ScenarioId::Etcd, b_next) {
                            (true, false) => KeepaliveStopped,
                            (true, true) => KeepaliveStoppedBNext,
                            (false, false) => SessionExpired,
                            (false, true) => SessionExpiredBWatched,
                        });
                    }
                    if at_expiry {
                        out.push(LeaderCrashedAtExpiry);
                    }
                }
                let checked = self.scenario == ScenarioId::CheckThenPause;
                if self.a_check_ok == Some(false) {
                    // The lease had run out by the check: A gave up and wrote nothing.
                    let b_first = self.grant[B].zip(self.a_check_at).is_some_and(|(g, c)| g <= c);
                    out.push(if b_first { CheckFailed } else { CheckFailedBLater });
                    return out;
                }
                if checked {
                    out.push(if i.pause == 0 { CheckedNoPause } else { CheckedThenPaused });
                }
                let woke = if checked { WokeWroteUnchecked } else { WokeWrote };
                let cause = if self.scenario == ScenarioId::RegisterToken && i.register {
                    ExpiredBRegistered
                } else if consensus && self.a_expired.is_some() {
                    // The keepalive's or session's sentence has told the expiry and its time.
                    BTookAndWrote
                } else {
                    ExpiredBWrote
                };
                match self.kind {
                    // Nothing paused or woke: a run other than the plain one is told from its events.
                    _ if i.pause == 0 && (self.kind != Safe || self.a_expired.is_some()) => {
                        (out, after) = (vec![Events], None);
                    }
                    Safe if i.pause == 0 => out.push(NoPause),
                    Safe if self.a_expired.zip(self.a_wake).is_some_and(|(e, w)| w >= e) => {
                        // The keepalive's or session's sentence has told the expiry and its time.
                        if !consensus {
                            out.push(if self.lock_free.is_some() {
                                ExpiredLockDelay
                            } else {
                                ExpiredTookBack
                            });
                        }
                        out.push(WokeHarmless)
                    }
                    // Woke past its lease's end (as renewed until it woke) while the group had no leader to
                    // expire it.
                    Safe if consensus
                        && self.election.is_some()
                        && self.a_wake.zip(self.a_lease_at_wake).is_some_and(|(w, end)| w >= end) =>
                    {
                        out.push(WokeNoLeader)
                    }
                    // Woke within a lease that a keepalive or a new leader had moved past the first one's end.
                    Safe if consensus
                        && self.a_lease_at_wake.is_some_and(|end| end > self.a_lease_end())
                        && self.a_wake.is_some_and(|w| w >= self.a_lease_end()) =>
                    {
                        out.push(WokeInRenewed)
                    }
                    Safe if i.lease && self.scenario == ScenarioId::Zookeeper => out.push(WokeInSession),
                    Safe if i.lease => out.push(WokeInLease),
                    Safe => out.push(WokeNoLease),
                    Stalled if self.wait_ends_at_lease() => out.push(StalledUntilWakeAtLease),
                    Stalled => out.push(StalledUntilWake),
                    Fenced => out.extend([cause, woke, Rejected]),
                    Corrupted => out.extend([cause, woke, OverwroteB]),
                    _ => {
                        out.push(match (checked, cause) {
                            (true, _) => GapWokeUnchecked,
                            // The keepalive's or session's sentence has told the expiry.
                            (_, BTookAndWrote) => GapWokeBTook,
                            _ => GapWoke,
                        });
                        out.push(if i.fencing { GapFenced } else { GapUnfenced });
                    }
                }
                // Right after the expiry's sentence if the crash came before A woke, else last.
                if let Some((line, (crash, _))) = after.zip(self.election) {
                    let woke_later = self.a_wake.is_some_and(|w| crash < w);
                    let expiry = out
                        .iter()
                        .position(|l| matches!(l, ExpiredBWrote | ExpiredBRegistered | BTookAndWrote));
                    out.insert(expiry.filter(|_| woke_later).map_or(out.len(), |p| p + 1), line);
                }
            }
            ScenarioId::NetworkDelay => {
                let sent = if i.lease { Sent } else { SentNoLease };
                match self.kind {
                    Safe => out.push(if i.lease { ArrivedInLease } else { ArrivedNoLease }),
                    Stalled | Orphaned if self.wait_ends_at_lease() => {
                        out.extend([sent, StalledUntilReplyAtLease])
                    }
                    Stalled | Orphaned => out.extend([sent, StalledUntilReply]),
                    Fenced => out.extend([sent, DelayExpired, DelayRejected]),
                    Corrupted => out.extend([sent, DelayExpired, DelayOverwrote]),
                    _ => out.extend([sent, DelayGap]),
                }
            }
            ScenarioId::SetnxExpire | ScenarioId::Crash => out.push(match (self.scenario, self.kind) {
                (_, Safe) => LeaseReturned,
                (ScenarioId::SetnxExpire, _) => SetnxOrphaned,
                _ => CrashOrphaned,
            }),
            ScenarioId::CheckThenSet => match self.kind {
                DoubleGrant if i.fencing => out.extend([CheckSetDouble, CheckSetFencingNote]),
                DoubleGrant => out.push(CheckSetDouble),
                _ => out.push(CheckSetSafe),
            },
            ScenarioId::Failover => match (self.kind, i.fencing) {
                (Safe, _) => out.push(FailoverKept),
                (_, true) => out.extend([FailoverLost, FailoverSameToken]),
                _ => out.extend([FailoverLost, FailoverOverwrote]),
            },
            ScenarioId::Redlock => {
                let b_first = self.grant[B].zip(self.write[A]).is_some_and(|(g, w)| g < w);
                // One server's key went early (its clock jumped) and took A's majority with it.
                let one_early =
                    self.a_key_lost.zip(self.a_keys_gone).is_some_and(|(first, last)| first < last);
                out.push(match (self.double_grant.is_some(), b_first) {
                    (true, _) => RedlockJump,
                    (false, true) if one_early => RedlockKeyLost,
                    (false, true) => RedlockExpired,
                    _ => RedlockWaited,
                });
                match self.kind {
                    Corrupted => out.push(RedlockOverwrote),
                    DoubleGrant => out.push(RedlockBoth),
                    UnfencedGap => out.push(RedlockGap),
                    // A key expired early, but nobody else held a majority when A wrote.
                    _ if self.a_key_lost.zip(self.write[A]).is_some_and(|(lost, w)| lost < w) => {
                        out.push(RedlockNoHarm)
                    }
                    _ => {}
                }
            }
            ScenarioId::UnsafeRelease => {
                // C was already waiting when A's DEL freed the lock, or asked after it and found it free (in
                // the DEL's own millisecond too: A, written first, acts first).
                let c_waiting = self.request[C].zip(self.release[A]).is_some_and(|(r, del)| r < del);
                let cause = if c_waiting { ReleaseCause } else { ReleaseCauseCAsked };
                match self.kind {
                    Fenced => out.extend([cause, ReleaseFenced]),
                    Corrupted => out.extend([cause, ReleaseCorrupted]),
                    DoubleGrant | UnfencedGap => out.extend([cause, ReleaseDouble]),
                    _ if i.work < self.a_lease_end() => out.push(ReleaseInLease),
                    _ if i.compare_release && self.a_release_found.is_some() => out.push(ReleaseCompare),
                    _ if i.compare_release => out.push(ReleaseCompareGone),
                    _ if self.a_release_found.is_some() => out.push(ReleaseLateDeleted),
                    _ => out.push(ReleaseLate),
                }
            }
            // A scenario with no sentences of its own is told from its events ([`crate::present::told`]): a new
            // definition needs nothing here.
            #[allow(unreachable_patterns)]
            _ => out.push(Events),
        }
        if self.kind == Orphaned
            && !out.iter().any(|l| matches!(l, SetnxOrphaned | CrashOrphaned | StalledUntilReply))
        {
            out.push(NeverFreed);
        }
        // An unfenced gap broke mutual exclusion; what it did to the data in this run: the holder had not
        // written when the late write landed, and its own write came after.
        if let Some((_, holder)) = self.gap().filter(|_| self.kind == UnfencedGap) {
            // Landing at the holder's grant, the late write left it no time to read before it.
            let at_grant = self.stale_write.zip(self.grant[holder]).is_some_and(|(w, g)| w.at <= g);
            out.push(if at_grant { GapNoLossAtGrant } else { GapNoLoss });
        }
        // With max-token fencing on, how this lab closes the gap.
        if out.contains(&GapFenced) {
            out.push(GapRemedy);
        }
        out
    }

    /// Whether the wait behind a stall ended in the very millisecond a lease would have freed the lock.
    fn wait_ends_at_lease(&self) -> bool {
        self.wait.is_some_and(|w| w.until == Some(w.holder_since + self.inputs.ttl))
    }

    /// The late writer of an unfenced gap and the holder it wrote under, if the holder wrote afterwards (the
    /// sentences' `{late}` and `{holder}`).
    pub fn gap(&self) -> Option<(usize, usize)> {
        let w = self.stale_write?;
        let holder = w.holder.filter(|&h| h != w.worker && h < N)?;
        self.write[holder].filter(|&t| t >= w.at).map(|_| (w.worker, holder))
    }

    /// The value of `fact` in this run: a time in seconds, a token or a worker's name; `None` where this run
    /// lacks it, and then the narration tells the run from its events.
    pub fn fact(&self, fact: Fact) -> Option<String> {
        use Fact::*;
        let secs = |t: Option<Ms>| t.map(seconds);
        let token = |t: Option<u64>| t.map(|t| t.to_string());
        let name_of = |w: usize| NAMES[w].to_owned();
        let wait = self.wait;
        match fact {
            ATok => token(self.token[A]),
            BTok => token(self.token[B]),
            CTok => token(self.token[C]),
            Newer => token(self.newer_token),
            Wake => secs(self.a_wake),
            Sent => secs(self.a_sent),
            AWrite => secs(self.write[A]),
            Expired => secs(self.a_expired),
            BGrant => secs(self.grant[B]),
            BWrite => secs(self.write[B]),
            CWrite => secs(self.write[C]),
            BRelease => secs(self.release[B]),
            CGrant => secs(self.grant[C]),
            CRequest => secs(self.request[C]),
            Found => self.a_release_found.map(name_of),
            LeaseAtWake => secs(self.a_lease_at_wake),
            KeysGone => secs(self.a_keys_gone),
            Rekept => secs(self.a_rekept),
            ARelease => secs(self.release[A]),
            Free => secs(self.lock_free),
            Ttl => Some(seconds(self.inputs.ttl)),
            LeaseEnd => Some(seconds(self.a_lease_end())),
            Delay => Some(seconds(self.inputs.delay)),
            Work => Some(seconds(self.inputs.work)),
            Check => Some(seconds(A_WORKS)),
            WaitFrom => secs(wait.map(|w| w.from)),
            WaitUntil => secs(wait.and_then(|w| w.until)),
            WouldFree => secs(wait.map(|w| w.holder_since + self.inputs.ttl)),
            Jump => Some(seconds(self.inputs.jump)),
            KeyLost => secs(self.a_key_lost),
            Validity => Some(seconds(self.a_lease_end().saturating_sub(REDLOCK_DRIFT))),
            Crash => secs(self.election.map(|e| e.0)),
            Ready => secs(self.election.map(|e| e.1)),
            Rearmed => secs(self.a_rearmed),
            Late => self.gap().map(|(late, _)| name_of(late)),
            Holder => self.gap().map(|(_, holder)| name_of(holder)),
            LateWrite => secs(self.stale_write.map(|w| w.at)),
        }
    }
}

/// Declares [`Fact`] with the name each sentence's words use for it, from one list: the words can only
/// name a fact the story has, the story has to give every one (the `match` above is exhaustive), and a name
/// given twice is an unreachable pattern in [`Fact::named`], which the lints deny.
macro_rules! facts {
    ($($fact:ident = $name:literal),* $(,)?) => {
        /// A fact a sentence can name, written `{name}` in its words (so each language orders them its own
        /// way). Each variant's name says whose and what; `Tok` is a token.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        #[allow(missing_docs)]
        pub enum Fact {
            $($fact),*
        }

        impl Fact {
            /// Every fact, for the tests.
            pub const ALL: &'static [Fact] = &[$(Fact::$fact),*];

            /// The fact a sentence's `{name}` names, if any.
            pub fn named(name: &str) -> Option<Fact> {
                match name {
                    $($name => Some(Fact::$fact),)*
                    _ => None,
                }
            }
        }
    };
}

facts! {
    ATok = "a",
    BTok = "b",
    CTok = "c",
    Newer = "newer",
    Wake = "wake",
    Sent = "sent",
    AWrite = "a_write",
    Expired = "expired",
    BGrant = "b_grant",
    BWrite = "b_write",
    CWrite = "c_write",
    BRelease = "b_release",
    CGrant = "c_grant",
    CRequest = "c_request",
    Found = "found",
    LeaseAtWake = "lease_at_wake",
    KeysGone = "keys_gone",
    Rekept = "rekept",
    ARelease = "a_release",
    Free = "free",
    Ttl = "ttl",
    LeaseEnd = "lease_end",
    Delay = "delay",
    Work = "work",
    Check = "check",
    WaitFrom = "from",
    WaitUntil = "until",
    WouldFree = "would_free",
    Jump = "jump",
    KeyLost = "key_lost",
    Validity = "validity",
    Crash = "crash",
    Ready = "ready",
    Rearmed = "rearmed",
    Late = "late",
    Holder = "holder",
    LateWrite = "late_write",
}

/// Declares [`Line`] and [`Line::ALL`] from one list, so a sentence cannot be missing from the tests' list.
macro_rules! lines {
    ($($line:ident),* $(,)?) => {
        /// One sentence of a narration. Its placeholders (`{a}`, `{wake}`, …) name [`Fact`]s.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[allow(missing_docs)]
        pub enum Line {
            $($line),*
        }

        impl Line {
            /// Every sentence, for tests that check each language words each one.
            pub const ALL: &'static [Line] = &[$(Line::$line),*];
        }
    };
}

lines! {
    Events,
    CheckFailed,
    CheckFailedBLater,
    CheckedThenPaused,
    CheckedNoPause,
    ExpiredTookBack,
    ExpiredLockDelay,
    WokeHarmless,
    NoPause,
    WokeInLease,
    WokeInSession,
    WokeNoLease,
    StalledUntilWake,
    StalledUntilWakeAtLease,
    StalledUntilReply,
    StalledUntilReplyAtLease,
    NeverFreed,
    ExpiredBWrote,
    ExpiredBRegistered,
    WokeWrote,
    WokeWroteUnchecked,
    Rejected,
    OverwroteB,
    GapWoke,
    GapWokeUnchecked,
    GapFenced,
    GapUnfenced,
    GapNoLoss,
    GapNoLossAtGrant,
    GapRemedy,
    Sent,
    SentNoLease,
    ArrivedInLease,
    ArrivedNoLease,
    DelayExpired,
    DelayRejected,
    DelayOverwrote,
    DelayGap,
    SetnxOrphaned,
    LeaseReturned,
    CrashOrphaned,
    CheckSetDouble,
    CheckSetFencingNote,
    CheckSetSafe,
    ReleaseCause,
    ReleaseCauseCAsked,
    ReleaseFenced,
    ReleaseCorrupted,
    ReleaseDouble,
    ReleaseInLease,
    ReleaseCompare,
    ReleaseCompareGone,
    ReleaseLate,
    ReleaseLateDeleted,
    FailoverLost,
    FailoverSameToken,
    FailoverOverwrote,
    FailoverKept,
    RedlockJump,
    RedlockExpired,
    RedlockKeyLost,
    RedlockWaited,
    RedlockOverwrote,
    RedlockBoth,
    RedlockGap,
    KeepaliveStopped,
    KeepaliveStoppedBNext,
    SessionExpired,
    SessionExpiredBWatched,
    BTookAndWrote,
    GapWokeBTook,
    LeaderRearmed,
    LeaderRearmedRekept,
    LeaderCrashed,
    LeaderCrashedAtExpiry,
    WokeInRenewed,
    WokeNoLeader,
    RedlockNoHarm,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim;

    fn story(id: ScenarioId, f: impl FnOnce(&mut Inputs)) -> Story {
        let mut i = id.defaults();
        f(&mut i);
        Story::of(&sim::run(&id.build(&i)), id, &i)
    }

    #[test]
    fn fenced_story() {
        let s = story(ScenarioId::GcPause, |i| i.pause = 15_000);
        assert_eq!(s.kind, OutcomeKind::Fenced);
        assert_eq!((s.token[A], s.token[B]), (Some(33), Some(34)));
        assert_eq!(
            (s.a_wake, s.a_expired, s.grant[B], s.write[B]),
            (Some(15_000), Some(10_000), Some(10_000), Some(11_000))
        );
        let w = s.wait.unwrap();
        assert_eq!((w.from, w.until), (1_000, Some(10_000)));
        assert_eq!((s.stale_write.unwrap().token, s.newer_token), (Some(33), Some(34)));
    }

    #[test]
    fn no_pause_story_uses_the_write_time() {
        let s = story(ScenarioId::GcPause, |i| i.pause = 0);
        assert_eq!((s.a_wake, s.wait, s.a_expired), (Some(0), None, None));
    }

    #[test]
    fn unsafe_release_records_whose_lock_a_deleted() {
        let s = story(ScenarioId::UnsafeRelease, |_| {});
        assert_eq!(s.deleted_other, Some((12_000, B)));
        assert_eq!((s.grant[C], s.token[C], s.write[C]), (Some(12_000), Some(35), Some(13_000)));
        let d = s.double_grant.unwrap();
        assert_eq!((d.earlier, d.later, d.at, d.until), (B, C, 12_000, Some(16_000)));
    }

    #[test]
    fn lock_delay_story_knows_when_the_lock_came_free() {
        let s = story(ScenarioId::LockDelay, |_| {});
        assert_eq!((s.a_expired, s.lock_free, s.grant[B]), (Some(10_000), Some(25_000), Some(25_000)));
    }
}

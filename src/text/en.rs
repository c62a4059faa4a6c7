//! English.

use super::{at, fill, s, tok, ScenarioText, Text};
use crate::params::Problem;
use crate::scenarios::{Group, Inputs, Key, ScenarioId, A_WORKS, LOCK_DELAY};
use crate::sim::OutcomeKind::{self, *};
use crate::story::{Story, A, B, C};

fn on_off(b: bool) -> &'static str {
    if b {
        "on"
    } else {
        "off"
    }
}

/// The set-up of the base scenario, with the run's numbers.
fn base_setup(i: &Inputs) -> String {
    fill(
        "Workers A and B write to the storage only while they hold the lock, a {} s lease. A takes it first, \
         with token {}, and stops in a GC pause right after; B asks at {} s, gets token {} as soon as the lock \
         is free, and writes {} s after that.",
        &[&s(i.ttl), &i.first_token.to_string(), &s(i.b_request), &(i.first_token + 1).to_string(), &s(i.b_work)],
    )
}

fn base_prompt(i: &Inputs) -> String {
    fill(
        "A wakes after {} s, with lease expiry {} and fencing {}. What happens?",
        &[&s(i.pause), on_off(i.lease), on_off(i.fencing)],
    )
}

const BASE_CHOICES: &[(OutcomeKind, &str)] = &[
    (Safe, "A writes and releases in time; B gets the lock no later than a lease would let it"),
    (Stalled, "B waits past where a lease would have freed the lock, until A wakes and lets go"),
    (Fenced, "A's late write is rejected by the storage"),
    (UnfencedGap, "A's late write is accepted before B's first write: both write"),
    (Corrupted, "A's late write is accepted after B's and overwrites it"),
];

static GC_PAUSE: ScenarioText = ScenarioText {
    title: "GC pause",
    blurb: "The holder freezes for longer than its lease.",
    setup: base_setup,
    prompt: base_prompt,
    choices: BASE_CHOICES,
};

static CHECK_THEN_PAUSE: ScenarioText = ScenarioText {
    title: "Check, then pause",
    blurb: "A checks its lease just before writing, and stops right after the check.",
    setup: |i| {
        fill(
            "As in the GC pause, but A works {} s first, checks its lease on its own clock (still valid), then \
             pauses, and writes without checking again. The lease lasts {} s; B asks at {} s and writes {} s \
             after it gets the lock.",
            &[&s(A_WORKS), &s(i.ttl), &s(i.b_request), &s(i.b_work)],
        )
    },
    prompt: |i| {
        fill(
            "A checks at {} s and wakes at {} s, with lease expiry {} and fencing {}. What happens?",
            &[&s(A_WORKS), &s(A_WORKS + i.pause), on_off(i.lease), on_off(i.fencing)],
        )
    },
    choices: BASE_CHOICES,
};

static NETWORK_DELAY: ScenarioText = ScenarioText {
    title: "Network delay",
    blurb: "A never stops, but its write is held up in the network.",
    setup: |_| {
        fill(
            "A never pauses: it writes at {} s, well inside its 10 s lease, but the message spends a while in \
             the network. A waits for the reply, then releases. B asks at 1 s and writes 1 s after it gets the \
             lock.",
            &[&s(A_WORKS)],
        )
    },
    prompt: |i| {
        fill(
            "A's write spends {} s in the network, with lease expiry {} and fencing {}. What happens?",
            &[&s(i.delay), on_off(i.lease), on_off(i.fencing)],
        )
    },
    choices: &[
        (Safe, "A's write arrives in time; B gets the lock no later than a lease would let it"),
        (Stalled, "B waits past where a lease would have freed the lock, until A's reply comes back"),
        (Fenced, "A's late write is rejected by the storage"),
        (UnfencedGap, "A's late write is accepted before B's first write: both write"),
        (Corrupted, "A's late write is accepted after B's and overwrites it"),
    ],
};

static SETNX_EXPIRE: ScenarioText = ScenarioText {
    title: "SETNX, then EXPIRE",
    blurb: "The lock and its expiry set in two commands, with a crash between them.",
    setup: |_| {
        "A takes the lock and crashes at once. Without atomic set, it takes it the old way, SETNX and then \
         EXPIRE, and crashes between the two; with it, as one SET NX PX. B asks at 1 s."
            .into()
    },
    prompt: |i| {
        fill(
            "A takes the lock {}, then crashes. What happens to B?",
            &[if i.atomic { "with one SET NX PX" } else { "with SETNX, and crashes before EXPIRE" }],
        )
    },
    choices: &[
        (Safe, "The lease runs out and B gets the lock"),
        (Orphaned, "Nothing ever frees the lock: B waits for ever"),
    ],
};

static CHECK_THEN_SET: ScenarioText = ScenarioText {
    title: "Check, then set",
    blurb: "Both workers look, see the lock free, and both take it.",
    setup: |_| {
        "Without atomic set, each worker takes the lock as GET then SET: A reads at 0 s, B at 0.5 s (both see \
         it free), A sets at 1 s (token 33), B at 1.5 s (token 34); each writes 1 s after its set. With it, as \
         SET NX: a failed set retries every 0.5 s."
            .into()
    },
    prompt: |i| {
        fill(
            "The workers take the lock {}, with fencing {}. What happens?",
            &[if i.atomic { "with SET NX" } else { "with GET, then SET" }, on_off(i.fencing)],
        )
    },
    choices: &[
        (Safe, "B's set fails; it gets the lock once A has written and released"),
        (DoubleGrant, "Both take the lock and both writes are accepted"),
    ],
};

static UNSAFE_RELEASE: ScenarioText = ScenarioText {
    title: "Releasing someone else's lock",
    blurb: "A plain DEL after the lease ran out deletes the next holder's lock.",
    setup: |_| {
        "A writes at 2 s, but its job runs on, past its 10 s lease, until it releases. B gets the lock when \
         A's lease runs out and works 6 s before writing; C asks at 11 s and writes 1 s after it gets the lock."
            .into()
    },
    prompt: |i| {
        fill(
            "A's job ends at {} s and it releases with {}, fencing {}. What happens?",
            &[
                &s(i.work),
                if i.plain_release { "a plain DEL" } else { "compare-and-delete" },
                on_off(i.fencing),
            ],
        )
    },
    choices: &[
        (Safe, "Each worker gets the lock in turn: no two hold it at once"),
        (Fenced, "C gets the lock while B still works; B's late write is rejected"),
        (DoubleGrant, "C gets the lock while B still works, and both writes are accepted"),
        (Corrupted, "C gets the lock while B still works; B's late write overwrites C's"),
    ],
};

static CRASH: ScenarioText = ScenarioText {
    title: "Holder crashes",
    blurb: "The holder dies without releasing the lock.",
    setup: |_| "A takes the lock at 0 s with a 10 s lease and crashes at once. B asks at 1 s.".into(),
    prompt: |i| fill("A crashes holding the lock, lease expiry {}. What happens to B?", &[on_off(i.lease)]),
    choices: &[
        (Safe, "The lease runs out and B gets the lock"),
        (Orphaned, "Nothing ever frees the lock: B waits for ever"),
    ],
};

static LOCK_DELAY_TEXT: ScenarioText = ScenarioText {
    title: "Lock-delay",
    blurb: "After a lease runs out, nobody may take the lock for a while.",
    setup: |i| {
        fill(
            "The GC pause again, but after a lease runs out without a release the lock service keeps the lock \
             unavailable for {} s (Chubby's lock-delay; Consul's default). {}",
            &[&s(LOCK_DELAY), &base_setup(i)],
        )
    },
    prompt: |i| {
        fill(
            "A wakes after {} s, with lock-delay {} and fencing {}. What happens?",
            &[&s(i.pause), on_off(i.lock_delay), on_off(i.fencing)],
        )
    },
    choices: &[
        (Safe, "A's late write lands while nobody else holds the lock, or A wakes in time: no harm"),
        (Fenced, "A's late write is rejected by the storage"),
        (UnfencedGap, "A's late write is accepted before B's first write: both write"),
        (Corrupted, "A's late write is accepted after B's and overwrites it"),
    ],
};

static REGISTER_TOKEN: ScenarioText = ScenarioText {
    title: "Register the token",
    blurb: "The new holder's token reaches the storage the moment it gets the lock.",
    setup: |i| {
        fill(
            "The GC pause again, but with registration on, every new holder's token reaches the storage at the \
             grant itself, before anyone acts. {}",
            &[&base_setup(i)],
        )
    },
    prompt: |i| {
        fill(
            "A wakes after {} s, with registration {} and fencing {}. What happens?",
            &[&s(i.pause), on_off(i.register), on_off(i.fencing)],
        )
    },
    choices: &[
        (Safe, "A writes and releases in time: no conflict"),
        (Fenced, "A's late write is rejected by the storage"),
        (UnfencedGap, "A's late write is accepted before B's first write: both write"),
        (Corrupted, "A's late write is accepted after B's and overwrites it"),
    ],
};

fn scenario(id: ScenarioId) -> &'static ScenarioText {
    match id {
        ScenarioId::GcPause => &GC_PAUSE,
        ScenarioId::CheckThenPause => &CHECK_THEN_PAUSE,
        ScenarioId::NetworkDelay => &NETWORK_DELAY,
        ScenarioId::SetnxExpire => &SETNX_EXPIRE,
        ScenarioId::CheckThenSet => &CHECK_THEN_SET,
        ScenarioId::UnsafeRelease => &UNSAFE_RELEASE,
        ScenarioId::Crash => &CRASH,
        ScenarioId::LockDelay => &LOCK_DELAY_TEXT,
        ScenarioId::RegisterToken => &REGISTER_TOKEN,
    }
}

/// The narration of the base family (GC pause, check-then-pause, lock-delay, register-token).
fn narrate_base(st: &Story) -> String {
    let (a, b) = (tok(st.token[A]), tok(st.token[B]));
    let newer = tok(st.newer_token);
    let wake = at(st.a_wake);
    let checked = if st.scenario == ScenarioId::CheckThenPause {
        fill("A checked its lease at {} s (still valid), then paused. ", &[&s(A_WORKS)])
    } else {
        String::new()
    };
    let without_check = if checked.is_empty() { "" } else { " without checking again" };
    let cause = || {
        let registered = if st.inputs.register && st.scenario == ScenarioId::RegisterToken {
            ", and its token reached the storage at once".to_owned()
        } else {
            fill(" and wrote at {} s", &[&at(st.write[B])])
        };
        fill(
            "{}A's lease ran out at {} s while it was paused; B took token {} at {} s{}. A woke at {} s, still \
             believing it held the lock, and wrote with token {}{}. ",
            &[&checked, &at(st.a_expired), &b, &at(st.grant[B]), &registered, &wake, &a, without_check],
        )
    };
    match st.kind {
        Safe => {
            let expired_first = st.a_expired.zip(st.a_wake).is_some_and(|(e, w)| w >= e);
            if expired_first {
                let delay = st.lock_free.map_or(String::new(), |free| {
                    fill(" and kept it unavailable until {} s (lock-delay)", &[&s(free)])
                });
                fill(
                    "{}A's lease ran out at {} s while it was paused; the lock service took the lock back{}. A woke \
                     at {} s and wrote with token {} while nobody else held the lock, which harmed no one; B took \
                     token {} at {} s.",
                    &[&checked, &at(st.a_expired), &delay, &wake, &a, &b, &at(st.grant[B])],
                )
            } else if st.inputs.pause == 0 {
                fill(
                    "{}A did not pause: it wrote at {} s and released; B then took token {}, so there was no \
                     conflict.",
                    &[&checked, &wake, &b],
                )
            } else if st.inputs.lease {
                fill(
                    "{}A woke within the lease ({} s), wrote and released the lock; B then took token {}, so there \
                     was no conflict. Drag the right edge of A's “GC pause” band to make it longer.",
                    &[&checked, &s(st.ttl()), &b],
                )
            } else {
                fill(
                    "{}A woke at {} s, before the {} s a lease would have lasted, wrote and released the lock; B then \
                     took token {}, so there was no conflict.",
                    &[&checked, &wake, &s(st.ttl()), &b],
                )
            }
        }
        Stalled | Orphaned => stalled(st, &checked, "A woke and released the lock"),
        Fenced => cause()
            + &fill(
                "The storage had already seen {}, so it rejected the write ({} < {}). Fencing protected the data.",
                &[&newer, &a, &newer],
            ),
        Corrupted => cause()
            + &fill("Without fencing the storage accepted {} after {}: B's work is overwritten.", &[&a, &newer]),
        UnfencedGap | DoubleGrant => {
            let accepted = if st.inputs.fencing {
                fill("The storage had not seen {} yet, so it accepted {}, then {}", &[&b, &a, &b])
            } else {
                fill("The storage does not check tokens: it accepted {}, then {}", &[&a, &b])
            };
            let closes = if st.inputs.fencing {
                " Max-token fencing only orders the writes the storage has seen; registering the new holder's \
                 token at its grant closes the gap (“Register the token”)."
            } else {
                ""
            };
            fill(
                "{}A's lease ran out at {} s and B took token {}, but A woke at {} s, no later than B's first write \
                 at {} s{}. {}: for a while both believed they held the lock.{}",
                &[&checked, &at(st.a_expired), &b, &wake, &at(st.write[B]), without_check, &accepted, closes],
            )
        }
    }
}

/// B kept waiting: until `released` (a phrase ending at the release), or for ever.
fn stalled(st: &Story, prefix: &str, released: &str) -> String {
    match st.wait {
        Some(w) if w.until.is_some() => fill(
            "{}Without lease expiry, B waited from {} s until {} at {} s; a lease would have freed it at {} s. Had \
             A never let go, B would wait for ever.",
            &[prefix, &s(w.from), released, &at(w.until), &s(w.holder_since + st.ttl())],
        ),
        _ => fill(
            "{}Nothing frees the lock: B, waiting since {} s, never gets it.",
            &[prefix, &at(st.wait.map(|w| w.from))],
        ),
    }
}

fn narrate_delay(st: &Story) -> String {
    let (a, b) = (tok(st.token[A]), tok(st.token[B]));
    let arrived = at(st.write[A]);
    let sent = fill(
        "A wrote at {} s, inside its lease, but the message spent {} s in the network. ",
        &[&at(st.a_sent), &s(st.inputs.delay)],
    );
    let cause = || {
        sent.clone()
            + &fill(
                "The lease ran out at {} s; B took token {} and wrote at {} s. A's write arrived at {} s with token {}",
                &[&at(st.a_expired), &b, &at(st.write[B]), &arrived, &a],
            )
    };
    match st.kind {
        Safe => fill(
            "A wrote at {} s; the message spent {} s in the network and arrived at {} s, {}. A then released and B \
             took token {}: no conflict.",
            &[
                &at(st.a_sent),
                &s(st.inputs.delay),
                &arrived,
                &if st.inputs.lease {
                    fill("before the lease ran out at {} s", &[&s(st.a_lease_end())])
                } else {
                    fill("before the {} s a lease would have lasted", &[&s(st.ttl())])
                },
                &b,
            ],
        ),
        Stalled | Orphaned => stalled(st, &sent, "A's reply came back and it released the lock"),
        Fenced => {
            cause()
                + &fill(
                    ": the storage had already seen {} and rejected it ({} < {}). Fencing protected the data.",
                    &[&b, &a, &b],
                )
        }
        Corrupted => {
            cause() + &fill(": without fencing the storage accepted it after {}: B's work is overwritten.", &[&b])
        }
        UnfencedGap | DoubleGrant => {
            sent + &fill(
                "The lease ran out at {} s and B took token {}, but A's write arrived at {} s, before B's first write \
                 at {} s: the storage accepted {}, then {}. Both wrote while each believed it held the lock.",
                &[&at(st.a_expired), &b, &arrived, &at(st.write[B]), &a, &b],
            )
        }
    }
}

fn narrate_taking(st: &Story) -> String {
    let (a, b) = (tok(st.token[A]), tok(st.token[B]));
    match (st.scenario, st.kind) {
        (ScenarioId::SetnxExpire, Orphaned) => {
            "A took the lock with SETNX at 0 s and crashed before its EXPIRE: the key has no expiry. Nothing will \
             ever delete it, so B, waiting since 1 s, never gets the lock. Take the lock with one SET NX PX."
                .into()
        }
        (ScenarioId::SetnxExpire | ScenarioId::Crash, Safe) => fill(
            "A took the lock at 0 s with a lease and crashed at once. The lease ran out at {} s and B, waiting \
             since 1 s, took token {} then. The lease gave the lock back.",
            &[&at(st.grant[B]), &b],
        ),
        (ScenarioId::Crash, _) => {
            "A took the lock at 0 s and crashed at once. Without lease expiry nothing frees the lock: B, waiting \
             since 1 s, never gets it. The lease is what buys liveness."
                .into()
        }
        (ScenarioId::CheckThenSet, DoubleGrant) => fill(
            "A read the lock at 0 s and B at 0.5 s: both saw it free. A set it at 1 s (token {}), B at 1.5 s (token \
             {}), over A's. Both believed they held it: A wrote at {} s, B at {} s, and the storage accepted both{}.",
            &[
                &a,
                &b,
                &at(st.write[A]),
                &at(st.write[B]),
                if st.inputs.fencing { " (fencing cannot help: the lower token came first)" } else { "" },
            ],
        ),
        _ => fill(
            "A took the lock with SET NX at 1 s (token {}). B's SET NX at 1.5 s failed; it retried every 0.5 s and \
             took token {} at {} s, once A had written and released. No conflict.",
            &[&a, &b, &at(st.grant[B])],
        ),
    }
}

fn narrate_release(st: &Story) -> String {
    let (b, c) = (tok(st.token[B]), tok(st.token[C]));
    let work = s(st.inputs.work);
    let cause = |victim: &str| {
        fill(
            "A wrote at 2 s, but its job ran on to {} s, past its lease. B got the lock at {} s (token {}). At {} s \
             A released with a plain DEL and deleted B's key, so C, waiting since 11 s, took token {} at once. {}",
            &[&work, &at(st.grant[B]), &b, &work, &c, victim],
        )
    };
    match st.kind {
        Fenced => cause(&fill(
            "C wrote at {} s. B, still believing it held the lock, wrote with token {} at {} s: the storage had seen \
             {} and rejected it ({} < {}).",
            &[&at(st.write[C]), &b, &at(st.write[B]), &c, &b, &c],
        )),
        Corrupted => cause(&fill(
            "C wrote at {} s. B, still believing it held the lock, wrote with token {} at {} s; without fencing the \
             storage accepted {} after {}: C's work is overwritten.",
            &[&at(st.write[C]), &b, &at(st.write[B]), &b, &c],
        )),
        DoubleGrant | UnfencedGap => cause(&fill(
            "B wrote with token {} at {} s, no later than C's first write at {} s, and the storage accepted both: two \
             holders wrote.",
            &[&b, &at(st.write[B]), &at(st.write[C])],
        )),
        _ if st.inputs.work < st.a_lease_end() => fill(
            "A finished at {} s, within its lease, and released; B took token {} then, and C took token {} after \
             B: no conflict.",
            &[&work, &b, &c],
        ),
        _ if !st.inputs.plain_release => fill(
            "A's job ran on to {} s, past its lease, but its compare-and-delete found B's value, not its own, and \
             deleted nothing. C waited until B released at {} s and took token {} then: no conflict.",
            &[&work, &at(st.release[B]), &c],
        ),
        _ => fill(
            "A's job ran on to {} s; by its plain DEL, B had already released at {} s and nobody was left waiting, \
             so no one got the lock early: no conflict this time.",
            &[&work, &at(st.release[B])],
        ),
    }
}

fn narrate(st: &Story) -> String {
    match st.scenario {
        ScenarioId::GcPause
        | ScenarioId::CheckThenPause
        | ScenarioId::LockDelay
        | ScenarioId::RegisterToken => narrate_base(st),
        ScenarioId::NetworkDelay => narrate_delay(st),
        ScenarioId::SetnxExpire | ScenarioId::CheckThenSet | ScenarioId::Crash => narrate_taking(st),
        ScenarioId::UnsafeRelease => narrate_release(st),
    }
}

pub(super) static EN: Text = Text {
    title: "Fencing Lab",
    tagline: "How a distributed lock stays safe: leases and fencing tokens.",
    question: "A machine that was stopped wakes up. What happens? What happens to A's write if it wakes after \
               15 seconds?",
    figure_label: "Timeline of the workers, the lock service and the storage",
    devices: "The two devices protect different things. The lease protects liveness: even if the holder dies, \
              the lock comes back one day (without it, the system stops). The token protects safety: a holder \
              that missed its expiry cannot break the next holder's work (without it, data breaks).",
    switch_name: |key| match key {
        Key::Lease => "Lease expiry",
        Key::Fencing => "Fencing",
        Key::Atomic => "Atomic set",
        Key::Release => "Compare-and-delete release",
        Key::LockDelay => "Lock-delay",
        Key::Register => "Register the token",
        _ => "",
    },
    switch_hint: |key, i| match key {
        Key::Lease => fill("the lock expires {} s after it is granted", &[&s(i.ttl)]),
        Key::Fencing => "the storage rejects a token older than one it has seen".into(),
        Key::Atomic => "take the lock and set its expiry in one command".into(),
        Key::Release => "delete the key only if it still holds my value".into(),
        Key::LockDelay => fill("after an expiry, nobody may take the lock for {} s", &[&s(LOCK_DELAY)]),
        Key::Register => "the new holder's token reaches the storage at its grant".into(),
        _ => String::new(),
    },
    switch_state: |on| if on { "on" } else { "off" },
    drag_label: |key| match key {
        Key::Delay => "Network delay of A's write: ",
        Key::Work => "A's job ends at: ",
        _ => "A's GC pause: ",
    },
    handle_name: |key| match key {
        Key::Delay => "Arrival of A's delayed write",
        Key::Work => "End of A's job",
        _ => "Right edge of A's GC pause",
    },
    handle_value: |key, v, end| match key {
        Key::Delay => fill("delay {} s, arrives at {} s", &[&s(v), &s(end)]),
        Key::Work => fill("A releases at {} s", &[&s(v)]),
        _ => fill("pause {} s, A wakes at {} s", &[&s(v), &s(end)]),
    },
    worker: |name| fill("Worker {}", &[name]),
    lock_service: "Lock service",
    storage: "Storage",
    believes: "believes it holds the lock",
    holds: "holds the lock (per the lock service)",
    paused: "GC pause",
    in_flight: "write in the network",
    waiting: "waiting for the lock",
    false_belief: "believes it holds the lock, but does not",
    two_holders: "two holders",
    crashed: "crash",
    lease_ends: |t| fill("lease ends {} s", &[&s(t)]),
    lease_would_end: |t| fill("no expiry (a lease would end {} s)", &[&s(t)]),
    no_expiry: "no expiry",
    lock_free: |t| fill("lock-delay ends {} s", &[&s(t)]),
    accepted: "accepted",
    overwrites: |h| fill("overwrites {}", &[&h.to_string()]),
    rejected: "rejected",
    registered: |t| fill("{} registered", &[&t.to_string()]),
    highest: "highest token seen",
    seconds_unit: "s",
    outcome_titles: [
        "Safe: no conflict",
        "Stalled: the waiter is held up",
        "Orphaned: the lock is never freed",
        "Fenced: the stale write is rejected",
        "Unfenced gap: both wrote",
        "Double grant: two holders wrote",
        "Corrupted: newer work overwritten",
    ],
    outcome_lessons: [
        "No write collided.",
        "Without expiry a stuck holder stops everyone: the lease buys liveness.",
        "A dead holder that nothing expires keeps the lock for ever.",
        "Fencing protected the data: the storage refused the older token.",
        "Max-token fencing orders only the writes the storage has seen: a stale write got in first.",
        "The lock itself failed: two workers held it at once, and both wrote.",
        "An older lock's write overwrote newer work: a lease alone is not safe.",
    ],
    double_grant_fact: |twice| {
        if twice {
            "The lock service had two holders at once."
        } else {
            "The lock service never had two holders at once."
        }
    },
    verdict: "Verdict",
    narrate,
    notice: "Part of this link was not understood, so the default was used instead:",
    problem: |p| match p {
        Problem::NotANumber { key, value } => fill("{}: “{}” is not a whole number", &[key, value]),
        Problem::OutOfRange { key, value, min, max } => {
            fill("{}: {} is outside {}–{}", &[key, value, &min.to_string(), &max.to_string()])
        }
        Problem::NotOneOf { key, value, allowed } => {
            fill("{}: “{}” is not one of {}", &[key, value, &allowed.join(", ")])
        }
        Problem::UnknownKey(key) => fill("unknown setting “{}”", &[key]),
    },
    message_notice: "The embedding page sent a value that was not understood; the current value was kept:",
    play: "Play",
    stop: "Pause",
    step_back: "Previous event",
    step_forward: "Next event",
    to_end: "Jump to the end",
    scrub: "Playhead",
    playhead: |t| fill("{} s", &[&s(t)]),
    language: "Language",
    scenarios: "Ways a lock fails",
    group: |g| match g {
        Group::Taking => "Taking the lock",
        Group::Losing => "Losing it",
        Group::GivingBack => "Giving it back",
        Group::Fencing => "Fencing",
    },
    scenario,
    predict_heading: "Predict first",
    play_and_see: "Play and see",
    skip: "Skip: show me",
    watching: "Watch what happens…",
    right: "You predicted it.",
    wrong: |picked| fill("You predicted “{}”. What happened instead:", &[picked]),
    predict_again: "Predict again",
    boundary_heading: "Where does it change?",
    boundary_question: |key, kind| {
        let what = match key {
            Key::Delay => "network delay",
            Key::Work => "job end",
            _ => "pause",
        };
        let verdict = match kind {
            Fenced => "the stale write is rejected",
            Corrupted => "newer work is overwritten",
            Stalled => "the waiter is stalled",
            Orphaned => "the lock is never freed",
            UnfencedGap => "both writes are accepted",
            DoubleGrant => "two holders write",
            Safe => "nothing goes wrong",
        };
        fill("Drag the marker to the shortest {} at which {}.", &[what, verdict])
    },
    ghost_name: "Your guess",
    ghost_value: |t| fill("guess {} s", &[&s(t)]),
    check: "Check",
    boundary_result: |guess, truth, first| {
        let off = guess.abs_diff(truth);
        let mut out = if off == 0 {
            fill("Exactly: from {} s on.", &[&s(truth)])
        } else {
            fill("From {} s on; your guess of {} s was {} s off.", &[&s(truth), &s(guess), &s(off)])
        };
        if let Some((t, kind)) = first {
            out += &fill(" The verdict first changes earlier, at {} s: {}.", &[&s(t), EN.outcome_title(kind)]);
        }
        out
    },
    boundary_none: "With these settings every value gives the same verdict.",
    outcome_map: |_, max| fill("Verdict for every value from 0 to {} s", &[&s(max)]),
    share: "Share / embed",
    share_link: "Link to this exact state",
    share_embed: "Embed in a page (iframe)",
    copy: "Copy",
    copied: "Copied",
    copy_failed: "The browser would not copy; the text is selected: press Ctrl+C (⌘C).",
    download_svg: "Download figure (SVG)",
    download_png: "Download figure (PNG)",
    play_it: "Play it",
    reading_heading: "Reading: leases, fencing tokens, and when not to use a lock",
    reading: &[
        (
            "Why a lock needs a lease",
            &[
                "A lock held by a process that crashes is never released, and the lock service cannot tell a \
                 dead holder from a slow one. So locks are granted as leases: they expire unless the holder \
                 renews them in time. Google's Chubby, Redis keys with PX, etcd leases and ZooKeeper sessions all \
                 work this way. Without expiry the system stops; with it, the lock comes back.",
                "Taking the lock must be one atomic step: SETNX followed by EXPIRE leaves a lock that never \
                 expires if the client dies between the two.",
            ],
            Some(ScenarioId::Crash),
        ),
        (
            "Why a lease alone is not safe",
            &[
                "The holder can stop at any moment for longer than its lease: a stop-the-world garbage \
                 collection, a virtual machine suspended or migrated, a page fault under swap, a write held up \
                 in the network. While stopped it cannot look at a clock or renew its lease, so when it resumes it \
                 still believes it holds the lock and writes.",
                "Checking the lease just before writing does not help: the process can stop between the check \
                 and the write. The holder cannot notice, so the protection has to sit with the resource. Martin \
                 Kleppmann's 2016 article makes exactly this case with a GC pause.",
            ],
            Some(ScenarioId::CheckThenPause),
        ),
        (
            "Fencing tokens: what the storage must do",
            &[
                "With every grant the lock service hands out a number that only goes up: the fencing token. The \
                 client sends it with each write; the storage remembers the highest token it has accepted and \
                 rejects any lower one. It must do so in one atomic conditional write whose result is checked: in \
                 SQL, UPDATE … SET value = ?, token = ? WHERE id = ? AND token <= ?, and rows affected = 0 means \
                 rejected. For a file store, one workaround is to put the token in the file name.",
                "Max-token fencing only orders the writes the storage sees. If the old holder writes before the \
                 new holder's first write, both are accepted (the unfenced gap); writing at once only narrows it. \
                 What closes it: the new holder registers its token at the resource before it reads or acts, or \
                 the resource asks the lock service whether the token is still current (Chubby's sequencer \
                 check; with etcd, a transaction that compares the lock key's revision). If the resource cannot \
                 check tokens at all (an external API, a plain file system), make the work idempotent.",
            ],
            Some(ScenarioId::RegisterToken),
        ),
        (
            "Redis: SET NX PX, compare-and-delete, and Redlock",
            &[
                "Take the lock with one atomic command, SET lock:job <random value> NX PX 30000: set only if \
                 absent, with an expiry in milliseconds. Release with a Lua script that deletes the key only if it \
                 still holds your value; a plain DEL after your lease expired deletes the next holder's lock.",
                "A single Redis is a single point of failure, and with asynchronous replication a primary that \
                 fails right after granting a lock, before it is copied, lets the promoted replica hand the same \
                 lock out twice. Redlock, proposed by Redis's author Salvatore Sanfilippo (antirez), takes the \
                 lock on a majority of independent Redis nodes. Kleppmann argued in 2016 that it is safe only if \
                 network delay, process pauses and clock error are all bounded, and that it produces no fencing \
                 token. antirez replied in “Is Redlock safe?” that a bounded error in the clocks' rate is enough \
                 and that the random value with a check-and-set can stand in for an ordered token. The Redis \
                 documentation itself recommends fencing where correctness matters; the common advice is not to \
                 rely on Redlock for it.",
            ],
            Some(ScenarioId::UnsafeRelease),
        ),
        (
            "ZooKeeper, etcd and Chubby: the token comes with consensus",
            &[
                "ZooKeeper and etcd replicate their state by consensus, so there is a single truth about who \
                 holds the lock, and a lock is tied to a ZooKeeper session or an etcd lease that ends when the \
                 client stops sending heartbeats. Every change gets a number that only goes up, and the lock's can \
                 serve directly as a fencing token: the lock znode's zxid (czxid) in ZooKeeper, the lock key's \
                 create revision in etcd. etcd's own documentation warns that its lock protects an external \
                 resource only if the resource checks that revision.",
                "Chubby calls the token a sequencer. For servers that cannot check sequencers it offers a \
                 fallback, the lock-delay: when a holder fails or becomes unreachable (not on a normal release), \
                 nobody may take its lock for a while, at most one minute. The paper calls it imperfect; Consul \
                 copies it with a default of 15 s. The price of consensus is speed: each acquisition is a round \
                 trip through the quorum.",
            ],
            Some(ScenarioId::LockDelay),
        ),
        (
            "When not to use a lock at all",
            &[
                "A distributed lock serialises work and can stall the system. First ask whether the database can \
                 do the job: a transaction, a conditional update (optimistic concurrency on a version column), a \
                 unique constraint, or an idempotent design that makes running twice harmless.",
                "A rule of thumb from Kleppmann: if the lock only saves duplicate work (efficiency), a single \
                 Redis lock is enough; if two holders at once would corrupt data (correctness), use a \
                 consensus-based lock service and fencing tokens.",
                "Sources: M. Kleppmann, “How to do distributed locking” (2016), and Designing Data-Intensive \
                 Applications (1st ed. 2017, ch. 8; 2nd ed., ch. 9); antirez, “Is Redlock safe?” (2016); M. \
                 Burrows, “The Chubby lock service for loosely-coupled distributed systems” (OSDI 2006); the \
                 Redis documentation on SET and on distributed locks; the etcd documentation on leases and the \
                 lock API; the ZooKeeper lock recipe; the Consul session documentation.",
            ],
            None,
        ),
    ],
};

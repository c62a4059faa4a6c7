//! From what the real run recorded to the core's own event stream, and how far it fell from the simulation.
//!
//! Pure: no clock, no I/O. The workers and the conductor stamp core [`Event`]s in real nanoseconds since
//! t = 0; the watcher notes every change of the lock's holder mark. Here the stamps become scenario
//! milliseconds, expiries are read off the watcher's notes (as is the holder a waiter could not ask for),
//! and the events are put in the order the core's observers need.

use std::mem::discriminant;

use super::clock::Scale;
use super::lock::parse_mark;
use crate::sim::{Event, EventKind, NodeChange, WorkerId};

/// Every time inside `kind`, mapped by `f` (the event's own `at` is the caller's).
fn map_times(kind: EventKind, f: impl Fn(u64) -> u64) -> EventKind {
    use EventKind::*;
    match kind {
        Grant { worker, token, expires, over } => Grant { worker, token, expires: expires.map(&f), over },
        LockDelay { until } => LockDelay { until: f(until) },
        PauseStart { worker, until } => PauseStart { worker, until: f(until) },
        Write { worker, token, arrives } => Write { worker, token, arrives: f(arrives) },
        Store { worker, token, sent, accepted, highest_before, written_before, stale, holder } => {
            Store { worker, token, sent: f(sent), accepted, highest_before, written_before, stale, holder }
        }
        Renew { worker, token, expires } => Renew { worker, token, expires: f(expires) },
        Election { until } => Election { until: f(until) },
        other => other,
    }
}

/// The worker a lock mark (`A.2`) names, and the grant it stands for (that worker's nth), if the core has
/// it.
fn grant_of_mark<'e>(
    events: &'e [Event],
    mark: &str,
    names: &[String],
) -> Option<(WorkerId, Option<&'e Event>)> {
    let (name, nth) = parse_mark(mark)?;
    let worker = names.iter().position(|n| n == name)?;
    let mut grants =
        events.iter().filter(|e| matches!(e.kind, EventKind::Grant { worker: w, .. } if w == worker));
    Some((worker, grants.nth(nth.saturating_sub(1))))
}

/// The expiries the watcher saw: a holder's mark vanished (or was replaced) with no release that deleted
/// it, not by a plain SET over it, and not with a primary whose replica was promoted without it (the core's `Promoted { kept: false }`
/// says that grant was lost). Each is stamped when the watcher saw it, or at the next grant if that came
/// first: a grant by `NX` proves the server had already dropped the key.
fn expiries(events: &[Event], seen: &[(u64, Option<String>)], names: &[String]) -> Vec<Event> {
    let mut out = Vec::new();
    for pair in seen.windows(2) {
        let (Some(gone), (at, now)) = (&pair[0].1, (&pair[1].0, &pair[1].1)) else { continue };
        if now.as_ref() == Some(gone) {
            continue;
        }
        let Some((worker, Some(grant))) = grant_of_mark(events, gone, names) else { continue };
        let EventKind::Grant { token, .. } = grant.kind else { continue };
        let released = events.iter().any(|e| {
            matches!(e.kind, EventKind::Release { freed: Some(f), .. } if f == worker)
                && (grant.at..=*at).contains(&e.at)
        });
        let lost = events.iter().any(|e| {
            matches!(e.kind, EventKind::Node { change: NodeChange::Promoted { kept: false }, .. })
                && (grant.at..=*at).contains(&e.at)
        });
        // A plain SET took the lock over this one: the core's grant says so (`over`), no expiry.
        let taken_over = events.iter().any(|e| {
            matches!(e.kind, EventKind::Grant { over: Some(o), .. } if o == worker)
                && (grant.at..=*at).contains(&e.at)
        });
        if released || lost || taken_over {
            continue;
        }
        let next_grant = events
            .iter()
            .filter(|e| e.at > grant.at && matches!(e.kind, EventKind::Grant { .. }))
            .map(|e| e.at)
            .min();
        let at = next_grant.map_or(*at, |g| g.min(*at));
        out.push(Event { at, kind: EventKind::Expire { worker: worker as WorkerId, token } });
    }
    out
}

/// Redlock: the keys a server dropped by itself (its wall clock said their time was up), as `Node` clears,
/// from the watcher's notes of each server's key (`(at, server, mark)`, real ns since t = 0). A key deleted
/// by its holder's release is reported by the holder; a key of a try that won no majority (deleted at once,
/// before any grant of that mark) is not part of the run the core models.
pub fn node_clears(events: &[Event], seen: &[(u64, usize, Option<String>)], names: &[String]) -> Vec<Event> {
    let mut out = Vec::new();
    for (i, (at, node, now)) in seen.iter().enumerate() {
        // The key this server held before `now`, and since when.
        let Some((since, _, Some(gone))) = seen[..i].iter().rev().find(|(_, n, _)| n == node) else {
            continue;
        };
        if now.as_ref() == Some(gone) {
            continue;
        }
        let Some((worker, grant)) = grant_of_mark(events, gone, names) else { continue };
        let granted = grant.is_some_and(|g| g.at <= *at);
        let cleared = |e: &Event| {
            matches!(e.kind, EventKind::Node { node: n, change: NodeChange::Clear(w) } if n == *node && w == worker)
                && (*since..=*at).contains(&e.at)
        };
        if granted && !events.iter().any(cleared) {
            out.push(Event {
                at: *at,
                kind: EventKind::Node { node: *node, change: NodeChange::Clear(worker) },
            });
        }
    }
    out
}

/// The worker whose mark the watcher last saw as holder at or before `at`, if any.
fn last_holder(seen: &[(u64, Option<String>)], at: u64, names: &[String]) -> Option<WorkerId> {
    let (_, mark) = seen.iter().take_while(|(t, _)| *t <= at).last()?;
    let (name, _) = parse_mark(mark.as_deref()?)?;
    names.iter().position(|n| n == name)
}

/// The run as the core's observers take it: stamps in scenario ms, in time order. Within one scenario
/// millisecond (0.1 ms of real time at scale 0.1, below what the stamps can order) an expiry comes first,
/// as in the core's rule 7; otherwise real order is kept.
///
/// A wait with no holder is a waiter that reached no server (a crashed primary, no replica promoted yet):
/// it waits for the holder the lock service last had, which the watcher read before the crash.
pub fn assemble(
    mut events: Vec<Event>,
    seen: &[(u64, Option<String>)],
    names: &[String],
    scale: Scale,
) -> Vec<Event> {
    events.sort_by_key(|e| e.at);
    for e in &mut events {
        if let EventKind::Wait { worker, holder: None } = e.kind {
            e.kind = EventKind::Wait { worker, holder: last_holder(seen, e.at, names) };
        }
    }
    let expired = expiries(&events, seen, names);
    events.extend(expired);
    let mut stamped: Vec<(u64, u8, u64, Event)> = events
        .into_iter()
        .map(|e| {
            let ms = scale.scenario_ms(e.at);
            let rank = u8::from(!matches!(e.kind, EventKind::Expire { .. }));
            (ms, rank, e.at, Event { at: ms, kind: map_times(e.kind, |ns| scale.scenario_ms(ns)) })
        })
        .collect();
    stamped.sort_by_key(|&(ms, rank, ns, _)| (ms, rank, ns));
    stamped.into_iter().map(|(.., e)| e).collect()
}

/// For each real event, how many scenario ms after its simulated counterpart it came (negative: before):
/// the n-th event of one kind on one lane in the real run against the n-th in the simulation. `None`
/// where the simulation has no such event.
pub fn jitter(simulated: &[Event], real: &[Event]) -> Vec<Option<i64>> {
    let same = |a: &Event, b: &Event| {
        discriminant(&a.kind) == discriminant(&b.kind) && a.kind.actor() == b.kind.actor()
    };
    real.iter()
        .enumerate()
        .map(|(i, e)| {
            let nth = real[..i].iter().filter(|p| same(p, e)).count();
            let twin = simulated.iter().filter(|s| same(s, e)).nth(nth)?;
            Some(e.at as i64 - twin.at as i64)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::EventKind::*;

    const MS: u64 = 100_000; // one scenario ms at scale 0.1, in real ns

    fn names() -> Vec<String> {
        vec!["A".into(), "B".into()]
    }

    fn ev(at: u64, kind: EventKind) -> Event {
        Event { at, kind }
    }

    #[test]
    fn a_mark_that_vanishes_unreleased_is_an_expiry_no_later_than_the_next_grant() {
        let raw = vec![
            ev(0, Grant { worker: 0, token: 33, expires: Some(10_000 * MS), over: None }),
            ev(10_002 * MS, Grant { worker: 1, token: 34, expires: Some(20_002 * MS), over: None }),
        ];
        // The watcher saw A's mark replaced by B's only after B's grant.
        let seen = vec![(0, None), (MS, Some("A.1".into())), (10_004 * MS, Some("B.1".into()))];
        let events = assemble(raw, &seen, &names(), Scale(0.1));
        let kinds: Vec<_> = events.iter().map(|e| (e.at, e.kind)).collect();
        assert_eq!(kinds[1], (10_002, Expire { worker: 0, token: 33 }));
        assert_eq!(kinds[2].0, 10_002);
        assert!(matches!(kinds[2].1, Grant { worker: 1, expires: Some(20_002), .. }));
    }

    #[test]
    fn a_released_mark_is_no_expiry() {
        let raw = vec![
            ev(0, Grant { worker: 0, token: 33, expires: Some(10_000 * MS), over: None }),
            ev(4_000 * MS, Release { worker: 0, token: Some(33), freed: Some(0) }),
        ];
        let seen = vec![(MS, Some("A.1".into())), (4_001 * MS, None)];
        let events = assemble(raw, &seen, &names(), Scale(0.1));
        assert!(!events.iter().any(|e| matches!(e.kind, Expire { .. })));
        assert_eq!(events[1].at, 4_000);
    }

    #[test]
    fn a_mark_lost_with_the_primary_is_no_expiry_and_a_waiter_that_reached_no_server_waits_for_its_holder() {
        let raw = vec![
            ev(0, Grant { worker: 0, token: 33, expires: Some(10_000 * MS), over: None }),
            ev(500 * MS, Node { node: 0, change: NodeChange::Down }),
            ev(1_000 * MS, Wait { worker: 1, holder: None }),
            ev(2_000 * MS, Node { node: 1, change: NodeChange::Promoted { kept: false } }),
            ev(2_001 * MS, Grant { worker: 1, token: 33, expires: Some(12_001 * MS), over: None }),
        ];
        // The watcher read A's mark until the primary died, and nothing on the promoted replica.
        let seen = vec![(0, None), (MS, Some("A.1".into())), (2_001 * MS, None)];
        let events = assemble(raw, &seen, &names(), Scale(0.1));
        assert!(!events.iter().any(|e| matches!(e.kind, Expire { .. })), "{events:?}");
        assert_eq!(events[2].kind, Wait { worker: 1, holder: Some(0) });
    }

    #[test]
    fn a_key_a_server_dropped_itself_is_a_node_clear_but_not_one_released_or_of_a_try_that_won_nothing() {
        let raw = vec![
            ev(0, Grant { worker: 0, token: 33, expires: Some(9_898 * MS), over: None }),
            ev(5_000 * MS, Node { node: 0, change: NodeChange::Clear(0) }),
            ev(5_000 * MS, Release { worker: 0, token: Some(33), freed: None }),
        ];
        let seen = vec![
            (MS, 0, Some("A.1".into())),
            (MS, 2, Some("A.1".into())),
            // B's try at 1 s won no majority: its key on N4 lived for a moment, before any grant of B's.
            (1_000 * MS, 3, Some("B.1".into())),
            (1_001 * MS, 3, None),
            // N3's clock jumped: the server dropped A's key by itself.
            (2_001 * MS, 2, None),
            // A's release deleted its key on N1, and said so.
            (5_001 * MS, 0, None),
        ];
        let clears = node_clears(&raw, &seen, &names());
        assert_eq!(clears, vec![ev(2_001 * MS, Node { node: 2, change: NodeChange::Clear(0) })]);
    }

    #[test]
    fn renewals_are_scaled() {
        let raw = vec![ev(3_334 * MS, Renew { worker: 0, token: 7, expires: 13_333 * MS })];
        let events = assemble(raw, &[], &names(), Scale(0.1));
        assert_eq!(events[0], ev(3_334, Renew { worker: 0, token: 7, expires: 13_333 }));
    }

    #[test]
    fn jitter_pairs_the_nth_event_of_a_kind_on_a_lane() {
        let sim = vec![
            ev(0, Request { worker: 0 }),
            ev(1_000, Request { worker: 1 }),
            ev(4_000, Wake { worker: 0 }),
        ];
        let real = vec![
            ev(1, Request { worker: 0 }),
            ev(998, Request { worker: 1 }),
            ev(3_990, Crash { worker: 0 }),
        ];
        assert_eq!(jitter(&sim, &real), vec![Some(1), Some(-2), None]);
    }
}

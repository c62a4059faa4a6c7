//! The trace as an aligned plain-text table, for `locksim` and for pasting into notes.

use std::fmt::Write;

use crate::sim::{Actor, EventKind, NodeChange, Run, WriteRecord};

fn token(t: Option<u64>) -> String {
    t.map_or_else(|| "-".into(), |t| t.to_string())
}

/// One row per event — time, actor, event, token, result — and `double-grant: BOOL` and `outcome: NAME` on the last lines.
pub fn table(run: &Run) -> String {
    table_with(run, None)
}

/// [`table`] with one more column after the time: its heading and one cell per event (`locksim real`'s
/// jitter).
pub fn table_with(run: &Run, extra: Option<(&str, &[String])>) -> String {
    let name = |w: usize| run.trace.workers[w].name.as_str();
    let mut rows: Vec<[String; 6]> = vec![[
        "time".into(),
        extra.map_or("", |(heading, _)| heading).into(),
        "actor".into(),
        "event".into(),
        "token".into(),
        "result".into(),
    ]];
    for (i, e) in run.trace.events.iter().enumerate() {
        let actor = match e.kind.actor() {
            Actor::Worker(w) => name(w).to_owned(),
            Actor::Lock => "lock".into(),
            Actor::Storage => "storage".into(),
        };
        let (event, tok, result) = match e.kind {
            EventKind::Request { .. } => ("request", String::new(), String::new()),
            EventKind::Wait { holder, .. } => (
                "wait",
                String::new(),
                holder.map_or("nobody may take it".into(), |h| format!("held by {}", name(h))),
            ),
            EventKind::Grant { worker, token, expires, over } => (
                "grant",
                token.to_string(),
                match (expires, over) {
                    (Some(t), None) => format!("to {}, lease until {t}", name(worker)),
                    (None, None) => format!("to {}, no expiry", name(worker)),
                    (Some(t), Some(o)) => {
                        format!("to {} over {}'s lock, lease until {t}", name(worker), name(o))
                    }
                    (None, Some(o)) => format!("to {} over {}'s lock, no expiry", name(worker), name(o)),
                },
            ),
            EventKind::Get { free, .. } => {
                ("get", String::new(), if free { "free".into() } else { "taken".into() })
            }
            EventKind::Register { token, .. } => {
                ("register", token.to_string(), "highest seen raised".into())
            }
            EventKind::Expire { worker, token } => {
                ("expire", token.to_string(), format!("{}'s lease ran out", name(worker)))
            }
            EventKind::LockDelay { until } => {
                ("lock-delay", String::new(), format!("unavailable until {until}"))
            }
            EventKind::PauseStart { until, .. } => ("pause", String::new(), format!("until {until}")),
            EventKind::Wake { .. } => ("wake", String::new(), String::new()),
            EventKind::CheckLease { ok, .. } => (
                "check",
                String::new(),
                if ok { "lease valid".into() } else { "lease over, gives up".into() },
            ),
            EventKind::Write { token: t, arrives, .. } => {
                ("write", token(t), if arrives > e.at { format!("arrives {arrives}") } else { String::new() })
            }
            EventKind::Store { .. } => {
                let w = WriteRecord::from_event(e).expect("a store event");
                let why = match (w.accepted, w.highest_before, w.overwrote()) {
                    (false, Some(h), _) => format!("{} < {h}", token(w.token)),
                    (false, None, _) => "no token".into(),
                    (true, _, Some(h)) => format!("overwrites {h}"),
                    (true, None, _) => "first write".into(),
                    (true, Some(h), None) => format!("highest was {h}"),
                };
                let who =
                    if w.stale { format!(", {} is not the holder", name(w.worker)) } else { String::new() };
                (if w.accepted { "accept" } else { "reject" }, token(w.token), why + &who)
            }
            EventKind::Release { worker, token: t, freed } => (
                "release",
                token(t),
                match freed {
                    Some(h) if h == worker => "freed".into(),
                    Some(h) => format!("deleted {}'s lock", name(h)),
                    None => "no effect, not the holder".into(),
                },
            ),
            EventKind::Crash { .. } => ("crash", String::new(), String::new()),
            EventKind::Renew { worker, token, expires } => {
                ("renew", token.to_string(), format!("{}'s lease until {expires}", name(worker)))
            }
            EventKind::Election { until } => {
                ("leader-crash", String::new(), format!("new leader at {until}"))
            }
            EventKind::Node { node, change } => (
                "node",
                String::new(),
                match change {
                    NodeChange::Set(w) => format!("node {node} holds {}'s key", name(w)),
                    NodeChange::Clear(w) => format!("node {node} drops {}'s key", name(w)),
                    NodeChange::Jump(by) => format!("node {node}'s clock jumps +{by}"),
                    NodeChange::Down => format!("node {node} crashes"),
                    NodeChange::Promoted { kept: true } => {
                        format!("node {node} promoted, key and counter kept")
                    }
                    NodeChange::Promoted { kept: false } => {
                        format!("node {node} promoted without the key or the counter")
                    }
                },
            ),
        };
        let cell = extra.and_then(|(_, cells)| cells.get(i)).cloned().unwrap_or_default();
        rows.push([e.at.to_string(), cell, actor, event.into(), tok, result]);
    }
    let width = |c: usize| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0);
    let widths = [width(0), width(1), width(2), width(3), width(4)];
    let mut out = String::new();
    for r in &rows {
        let extra = if extra.is_some() { format!("  {:>w$}", r[1], w = widths[1]) } else { String::new() };
        let line = format!(
            "{:>w0$}{extra}  {:<w2$}  {:<w3$}  {:>w4$}  {}",
            r[0],
            r[2],
            r[3],
            r[4],
            r[5],
            w0 = widths[0],
            w2 = widths[2],
            w3 = widths[3],
            w4 = widths[4]
        );
        out += line.trim_end();
        out.push('\n');
    }
    let _ = writeln!(out, "double-grant: {}", run.outcome.double_grant.is_some());
    let _ = writeln!(out, "outcome: {}", run.outcome.kind);
    out
}

//! Why a run went as it did, where its events alone leave it unsaid: a few sentences, each a typed fact read
//! off the script's settings and the run, and told right after the fact it explains. Every run gets them by
//! the same rule, a catalogue state or a reader's script alike, so a scenario needs no sentences of its own.

use crate::present::told::Told;
use crate::sim::{EventKind, Ms, Run, Scenario, Service, WorkerId};

/// One reason. (Each variant's doc names its fields: a worker by index, times in ms.)
#[allow(missing_docs)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Why {
    /// A consensus service let `worker`'s lease run out at `at` while `worker` was paused: it had sent no
    /// keepalive since its pause began (only a running holder renews its lease).
    NoKeepalive { worker: WorkerId, at: Ms },
    /// With fencing on, the storage took `worker`'s late write at `at` with `token` though it had seen the
    /// same token: an equal token passes (one holder may write more than once).
    EqualToken { worker: WorkerId, at: Ms, token: u64 },
    /// With fencing off, the storage took `worker`'s late write at `at` without comparing tokens.
    Unfenced { worker: WorkerId, at: Ms },
    /// Without tokens (random values), the storage had nothing to order `worker`'s late write at `at` by.
    NoOrder { worker: WorkerId, at: Ms },
}

/// The reason that explains `fact` of `run`, a run of `scenario`, if one does.
pub fn why(scenario: &Scenario, run: &Run, fact: &Told) -> Option<Why> {
    match *fact {
        Told::Expired { worker, at } if matches!(scenario.service, Service::Consensus { .. }) => {
            paused_unrenewed(run, worker, at).then_some(Why::NoKeepalive { worker, at })
        }
        // A late write the storage took: why nothing stopped it.
        Told::Stored { worker, at, accepted: true, stale: true, token, highest, .. } => {
            match (token, highest) {
                (None, _) if !run.trace.tokens => Some(Why::NoOrder { worker, at }),
                (Some(t), Some(h)) if scenario.fencing && t == h => {
                    Some(Why::EqualToken { worker, at, token: t })
                }
                (Some(_), Some(_)) if !scenario.fencing => Some(Why::Unfenced { worker, at }),
                _ => None,
            }
        }
        _ => None,
    }
}

/// Whether `worker` was paused at `at` and had renewed nothing since its pause began.
fn paused_unrenewed(run: &Run, worker: WorkerId, at: Ms) -> bool {
    let ev = &run.trace.events;
    let pause = ev.iter().rev().filter(|e| e.at <= at).find_map(|e| match e.kind {
        EventKind::PauseStart { worker: w, until } if w == worker => Some((e.at, until)),
        _ => None,
    });
    pause.is_some_and(|(from, until)| {
        at < until
            && !ev.iter().any(|e| {
                (from..=at).contains(&e.at)
                    && matches!(e.kind, EventKind::Renew { worker: w, .. } if w == worker)
            })
    })
}

/// The run's facts, each followed by the reason that explains it: what a narration tells.
pub fn explained(scenario: &Scenario, run: &Run) -> Vec<(Told, Option<Why>)> {
    crate::present::told::told(run).into_iter().map(|f| (f, why(scenario, run, &f))).collect()
}

/// Names of the run's workers, by index (`?` past the end).
fn name(names: &[String], w: WorkerId) -> &str {
    names.get(w).map_or("?", String::as_str)
}

/// `why` in English; `names` are the workers' names.
pub fn en(why: &Why, names: &[String]) -> String {
    let n = |w| name(names, w);
    match *why {
        Why::NoKeepalive { worker, .. } => {
            format!("Paused, {} had sent no keepalive: only a running holder renews its lease.", n(worker))
        }
        Why::EqualToken { worker, token, .. } => format!(
            "{}'s token {token} is not lower than the {token} the storage had seen, so fencing let it through: \
             the storage takes an equal token so that one holder can write more than once; a strict check \
             (the stored number smaller than the write's) would have refused this write.",
            n(worker)
        ),
        Why::Unfenced { .. } => "Fencing was off: the storage checked no tokens.".to_owned(),
        Why::NoOrder { .. } => "The lock's value is random, so it gives nothing to order, and this storage did no \
                                check-and-set with it (antirez's use of the value)."
            .to_owned(),
    }
}

/// `why` in Japanese.
pub fn ja(why: &Why, names: &[String]) -> String {
    let n = |w| name(names, w);
    match *why {
        Why::NoKeepalive { worker, .. } => format!(
            "{} は止まっていたので、リース延長の要求を送れませんでした。リースを延長できるのは、動いている持ち主だけです。",
            n(worker)
        ),
        Why::EqualToken { worker, token, .. } => format!(
            "{} の番号 {token} は資源がすでに見た {token} より小さくないので、この書き込みはフェンシングをすり抜けました。\
             資源が同じ番号を通すのは、一人の持ち主が続けて何度か書き込めるようにするためです。資源が「保存済みの番号が\
             書き込みの番号より小さい」ときだけ通すよう厳密に確かめていれば、この書き込みは拒否されていました。",
            n(worker)
        ),
        Why::Unfenced { .. } => "フェンシングがオフだったので、資源は番号を確かめませんでした。".to_owned(),
        Why::NoOrder { .. } => "ロックの値はランダムなので大小の順序がなく、新旧を比べられません。この資源は、antirez が\
                                示したようにその値で check-and-set することもしていませんでした。"
            .to_owned(),
    }
}

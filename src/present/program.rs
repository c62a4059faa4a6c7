//! Where a program's named values stand in its run: when each step of each worker began, read off the run's
//! events, and so where the band of the value a reader drags starts, for the catalogue's scripts and the
//! reader's alike.

use crate::sim::{Dur, EventKind, Ms, Run, Scenario, Service, Step};

/// When each step of each worker's program began in `run` (a run of `sc`); `None` for a step its worker
/// never reached (it waits for ever, gave up, or crashed before).
pub fn step_starts(run: &Run, sc: &Scenario) -> Vec<Vec<Option<Ms>>> {
    sc.workers
        .iter()
        .enumerate()
        .map(|(w, worker)| {
            // The worker's own grants and failed checks, in time order: what ends its waits and its program.
            let grants: Vec<Ms> = (run.trace.events.iter())
                .filter(|e| matches!(e.kind, EventKind::Grant { worker, .. } if worker == w))
                .map(|e| e.at)
                .collect();
            let mut grants = grants.into_iter().peekable();
            let mut t = Some(0);
            let mut starts = Vec::with_capacity(worker.steps.len());
            for &step in &worker.steps {
                starts.push(t);
                let Some(now) = t else { continue };
                t = match step {
                    Step::Idle(d) | Step::Work(d) | Step::Pause(d) => Some(now + sc.dur(d)),
                    Step::Write { delay } => Some(now + sc.dur(delay)),
                    Step::WorkUntil(u) => Some(now.max(sc.dur(u))),
                    Step::Acquire | Step::AcquireNoExpiry | Step::TryAcquire { .. } | Step::Set => {
                        while grants.next_if(|&g| g < now).is_some() {}
                        grants.next()
                    }
                    Step::CheckLease => {
                        let failed = run.trace.events.iter().any(|e| {
                            e.at == now && matches!(e.kind, EventKind::CheckLease { worker, ok: false } if worker == w)
                        });
                        (!failed).then_some(now)
                    }
                    Step::Get | Step::Release => Some(now),
                    Step::Crash => None,
                };
            }
            starts
        })
        .collect()
}

/// Where named value `i` is first used: by a step of a worker's program, or by the lock service (a clock
/// jump, a leader crash).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Use {
    /// Step `step` of worker `worker`'s program.
    Step {
        /// The worker.
        worker: usize,
        /// The step's place in its program.
        step: usize,
    },
    /// A Redlock server's clock jump, on server `node`, at `at`.
    Jump {
        /// The server whose clock jumps.
        node: usize,
        /// When.
        at: Ms,
    },
    /// A consensus group's leader crash.
    LeaderCrash,
}

/// Where named value `i` of `sc` is first used, if anywhere.
pub fn first_use(sc: &Scenario, i: u8) -> Option<Use> {
    let uses = |d: Dur| d == Dur::Param(i);
    for (w, worker) in sc.workers.iter().enumerate() {
        for (k, &step) in worker.steps.iter().enumerate() {
            let d = match step {
                Step::Idle(d) | Step::Work(d) | Step::WorkUntil(d) | Step::Pause(d) => Some(d),
                Step::TryAcquire { retry } => Some(retry),
                Step::Write { delay } => Some(delay),
                _ => None,
            };
            if d.is_some_and(uses) {
                return Some(Use::Step { worker: w, step: k });
            }
        }
    }
    match sc.service {
        Service::Redlock { jump_node, jump_at, jump, .. } if uses(jump) => {
            Some(Use::Jump { node: jump_node, at: jump_at })
        }
        Service::Consensus { leader_crash: Some(d), .. } if uses(d) => Some(Use::LeaderCrash),
        _ => None,
    }
}

/// Where the band of named value `i` starts in `run`: its value is the band's length, so its right edge (the
/// handle) is at this plus the value. A time from the start (`work until`, a leader crash) starts at 0;
/// `None` where the step that uses it never ran (A gave up at its lease check before its pause).
pub fn origin(run: &Run, sc: &Scenario, i: u8) -> Option<Ms> {
    match first_use(sc, i) {
        Some(Use::Step { worker, step }) => match sc.workers[worker].steps[step] {
            Step::WorkUntil(_) => Some(0),
            _ => step_starts(run, sc)[worker][step],
        },
        Some(Use::Jump { at, .. }) => Some(at),
        Some(Use::LeaderCrash) | None => Some(0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenarios::ScenarioId;
    use crate::sim;

    /// Where each card's set-up says its band starts: at A's pause (gc-pause and its kin), at 2 s when A has
    /// worked first, at N3's clock jump, or at 0 for a job's end.
    fn said(id: ScenarioId, i: &crate::scenarios::Inputs) -> Ms {
        use ScenarioId::*;
        match id {
            GcPause | LockDelay | RegisterToken | Etcd | Zookeeper => i.pause_start,
            CheckThenPause | NetworkDelay | Redlock => 2_000,
            _ => 0,
        }
    }

    #[test]
    fn every_catalogue_band_starts_where_its_card_says() {
        for id in ScenarioId::ALL {
            let Some(key) = id.dragged() else { continue };
            let (min, max) = key.spec().range();
            for value in [min, (min + max) / 3, max] {
                let mut inputs = id.defaults();
                let _ = key.spec().set(&mut inputs, value);
                for pause_start in [0, 2_500] {
                    inputs.pause_start = pause_start;
                    let sc = id.build(&inputs);
                    let run = sim::run(&sc);
                    let drag = sc.drag.expect("a dragged input is a named value");
                    assert_eq!(
                        origin(&run, &sc, drag),
                        Some(said(id, &inputs)),
                        "{id:?} at {value}, pause start {pause_start}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_pause_never_reached_has_no_origin() {
        // A's lease (2 s) has run out by its check at 2 s: it gives up before the pause.
        let id = ScenarioId::CheckThenPause;
        let mut inputs = id.defaults();
        inputs.ttl = 2_000;
        let sc = id.build(&inputs);
        assert_eq!(origin(&sim::run(&sc), &sc, sc.drag.unwrap()), None);
    }

    #[test]
    fn a_step_never_reached_has_no_start() {
        let sc = crate::script::parse("A: acquire, crash\nB: idle 1s, acquire, write").unwrap();
        let run = sim::run(&sc);
        let starts = step_starts(&run, &sc);
        assert_eq!(starts[0], vec![Some(0), Some(0)]);
        // B waits for ever behind the crashed holder (the lease frees the lock at 10 s).
        assert_eq!(starts[1], vec![Some(0), Some(1_000), Some(10_000)]);
        let no_lease =
            crate::script::parse("expiry off\nA: acquire, crash\nB: idle 1s, acquire, write").unwrap();
        assert_eq!(step_starts(&sim::run(&no_lease), &no_lease)[1], vec![Some(0), Some(1_000), None]);
    }
}

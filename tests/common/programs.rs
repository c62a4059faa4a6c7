//! Random scenarios that the script language can write (and so a reader could): random workers and steps,
//! settings and lock services, for the property tests.

use fencing_lab::sim::{Dur, Release, Scenario, Service, Step, Worker};
use proptest::prelude::*;

pub fn dur() -> impl Strategy<Value = Dur> {
    prop_oneof![Just(0u64), 1..=3u64, (1..=30u64).prop_map(|s| s * 500), 1..=25_000u64].prop_map(Dur::Ms)
}

pub fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        4 => Just(Step::Acquire),
        1 => Just(Step::AcquireNoExpiry),
        1 => (10..=2_000u64).prop_map(|r| Step::TryAcquire { retry: Dur::Ms(r) }),
        1 => Just(Step::Get),
        1 => Just(Step::Set),
        3 => dur().prop_map(Step::Work),
        2 => dur().prop_map(Step::Idle),
        1 => dur().prop_map(Step::WorkUntil),
        3 => dur().prop_map(Step::Pause),
        1 => Just(Step::CheckLease),
        4 => dur().prop_map(|delay| Step::Write { delay }),
        3 => Just(Step::Release),
        1 => Just(Step::Crash),
    ]
}

pub fn service() -> impl Strategy<Value = Service> {
    prop_oneof![
        3 => Just(Service::Single),
        1 => (0..3_000u64, 0..4_000u64, any::<bool>()).prop_map(|(crash, promote, sync)| Service::Failover { crash, promote, sync }),
        1 => (1..=5usize, prop::array::uniform3(any::<u8>()), 0..5usize, 0..5_000u64, dur(), 0..200u64).prop_map(
            |(nodes, reach, jump_node, jump_at, jump, drift)| Service::Redlock {
                nodes, reach: reach.map(|r| r & ((1u16 << nodes) - 1) as u8), jump_node: jump_node % nodes, jump_at, jump, drift,
            }),
        1 => (prop::option::of(0..20_000u64), 1..3_000u64)
            .prop_map(|(c, election)| Service::Consensus { leader_crash: c.map(Dur::Ms), election }),
    ]
}

/// A random scenario that the script language can write (and so a reader could).
pub fn any_program() -> impl Strategy<Value = Scenario> {
    (
        prop::collection::vec(prop::collection::vec(step(), 1..8), 1..=4),
        (
            any::<bool>(),
            any::<bool>(),
            1..20_000u64,
            any::<bool>(),
            prop_oneof![Just(0u64), 1..20_000u64],
            any::<bool>(),
        ),
        service(),
    )
        .prop_map(|(programs, (lease, fencing, ttl, plain, lock_delay, register), service)| {
            let workers = programs
                .into_iter()
                .enumerate()
                .map(|(i, steps)| Worker { name: ["A", "B", "C", "D"][i].into(), steps })
                .collect();
            let mut sc = Scenario::with_workers(workers);
            (sc.lease, sc.fencing, sc.ttl, sc.lock_delay, sc.register, sc.service) =
                (lease, fencing, ttl, lock_delay, register, service);
            sc.release = if plain { Release::PlainDelete } else { Release::CompareAndDelete };
            // A script names the servers of the workers it has; the others reach every server.
            let n = sc.workers.len();
            if let Service::Redlock { nodes, ref mut reach, .. } = sc.service {
                reach.iter_mut().skip(n).for_each(|r| *r = ((1u16 << nodes) - 1) as u8);
                // What the language refuses under Redlock (docs/scripts.md): its nearest valid program.
                (sc.lease, sc.fencing, sc.lock_delay, sc.register, sc.release) =
                    (true, false, 0, false, Release::CompareAndDelete);
                for s in sc.workers.iter_mut().flat_map(|w| w.steps.iter_mut()) {
                    if matches!(s, Step::AcquireNoExpiry | Step::Get | Step::Set) {
                        *s = Step::Acquire;
                    }
                }
            }
            if let Service::Failover { .. } = sc.service {
                sc.lock_delay = 0;
            }
            if let Service::Consensus { .. } = sc.service {
                sc.release = Release::CompareAndDelete;
                for s in sc.workers.iter_mut().flat_map(|w| w.steps.iter_mut()) {
                    if matches!(s, Step::Get | Step::Set) {
                        *s = Step::Acquire;
                    }
                }
            }
            sc
        })
}

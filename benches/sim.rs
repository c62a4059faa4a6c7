//! Speed of the simulation core: one run of each scenario of the catalogue, and sweeps over every value of
//! the base scenario's pause, and searches over every combination of a scenario's disturbances. Run with
//! `cargo bench --bench sim` (or `-- search` for the searches); the throughput lines give runs per second.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use fencing_lab::scenarios::search;
use fencing_lab::scenarios::{Inputs, ScenarioId};
use fencing_lab::sim::{self, MAX_PAUSE};

fn bench(c: &mut Criterion) {
    let fenced = ScenarioId::GcPause.build(&Inputs { pause: 15_000, ..Inputs::default() });
    let mut g = c.benchmark_group("one run");
    g.throughput(Throughput::Elements(1));
    g.bench_function("outcome only", |b| b.iter(|| sim::outcome(black_box(&fenced))));
    g.bench_function("full trace", |b| b.iter(|| sim::run(black_box(&fenced))));
    g.finish();

    let mut g = c.benchmark_group("one run of each scenario (outcome only, its defaults)");
    g.throughput(Throughput::Elements(1));
    for id in ScenarioId::ALL {
        let sc = id.build(&id.defaults());
        g.bench_function(id.id(), |b| b.iter(|| sim::outcome(black_box(&sc))));
    }
    g.finish();

    let mut g = c.benchmark_group("sweep");
    g.throughput(Throughput::Elements(MAX_PAUSE + 1));
    g.bench_function("every ms 0..=30000", |b| b.iter(|| sim::sweep(black_box(&fenced), 0..=MAX_PAUSE)));
    g.finish();

    let mut g = c.benchmark_group("outcome map");
    g.bench_function("0..=30000 exact (every ms)", |b| {
        b.iter(|| sim::outcome_map(black_box(&fenced), 0..=MAX_PAUSE))
    });
    g.finish();

    // The target is 5 M schedules per second on one core for the base scenario.
    let mut g = c.benchmark_group("search");
    for (id, step) in [
        (ScenarioId::GcPause, 100),
        (ScenarioId::NetworkDelay, 10),
        (ScenarioId::UnsafeRelease, 10),
        (ScenarioId::Redlock, 100),
        (ScenarioId::Etcd, 500),
    ] {
        let inputs = id.defaults();
        g.throughput(Throughput::Elements(search::search(id, &inputs, step).schedules));
        g.bench_function(format!("{} every {step} ms", id.id()), |b| {
            b.iter(|| search::search(black_box(id), black_box(&inputs), step))
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

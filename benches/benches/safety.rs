//! Criterion benchmark of the monolithic safety check on a state space of about a million states.
//!
//! `k` independent modulo-`n` counters plus a property over two of their actions that holds, so
//! the whole product (`n^k` states, `k * n^k` transitions, plus the property's synchronisations) is
//! explored. Throughput is reported in states per second. Memory is measured separately by the
//! `safety_memory` example (timed benchmarks and peak-RSS readings do not mix).

use criterion::{BenchmarkId, Criterion, Throughput, criterion_main};
use guarantor_benches::systems::{counters, counters_property};
use guarantor_compose::{Config, check_safety};
use std::time::Duration;

fn safety(c: &mut Criterion) {
    let mut group = c.benchmark_group("monolithic_safety");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(10))
        .warm_up_time(Duration::from_secs(2));
    let property = counters_property().expect("property builds");
    for (k, n) in [(4usize, 34usize), (20, 2)] {
        let comps = counters(k, n).expect("counters build");
        let refs: Vec<_> = comps.iter().collect();
        let states = n.pow(k as u32) as u64;
        group.throughput(Throughput::Elements(states));
        group.bench_with_input(
            BenchmarkId::new("counters", format!("{k}x{n}")),
            &refs,
            |b, refs| {
                b.iter(|| {
                    let report =
                        check_safety(refs, &[&property], &Config::default()).expect("no budget");
                    assert!(report.verdict.is_holds());
                    report.stats.states
                });
            },
        );
    }
    group.finish();
}

/// Criterion's macros generate undocumented public items; they live here, out of the lint's way.
mod harness {
    #![allow(missing_docs)]
    criterion::criterion_group!(benches, super::safety);
}

criterion_main!(harness::benches);

//! Criterion benchmark of the monolithic safety check on every benchmark family of `benchmarks/`
//! (the variant whose property holds, so the whole product is explored), at one mid-sized N per
//! family: big enough that the search dominates, small enough for short measurement times. Large
//! sizes and the comparison with SPIN are `benches/compare/spin.sh`'s job.

use std::path::Path;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_main};
use guarantor_compose::{Config, check_safety};
use guarantor_lts::Lts;

/// (family, N): each check takes tens of milliseconds in a release build.
const SIZES: &[(&str, usize)] = &[
    ("dining", 7),
    ("clientserver", 12),
    ("mer", 6),
    ("gas", 8),
    ("bakery", 3),
    // The sliding window protocol's `SYS` is the protocol without a property: the whole product.
    ("swp", 4),
];

/// The family's `SYS` target with `const N = n`: its components and its properties.
fn load(family: &str, n: usize) -> (Vec<Lts>, Vec<Lts>) {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../benchmarks/{family}/{family}.lts"));
    let text = std::fs::read_to_string(&path).expect("the family's model is readable");
    let text: String = text
        .lines()
        .map(|l| {
            if l.starts_with("const N = ") {
                format!("const N = {n}\n")
            } else {
                format!("{l}\n")
            }
        })
        .collect();
    let system = guarantor_fsp::parse(&text, family)
        .and_then(|m| m.elaborate("SYS"))
        .expect("the model elaborates");
    let (props, comps): (Vec<_>, Vec<_>) =
        system.components.into_iter().partition(|c| c.is_property);
    (
        comps.into_iter().map(|c| c.lts).collect(),
        props.into_iter().map(|c| c.lts).collect(),
    )
}

fn families(c: &mut Criterion) {
    let mut group = c.benchmark_group("families_mono");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(3))
        .warm_up_time(Duration::from_secs(1));
    for &(family, n) in SIZES {
        let (comps, props) = load(family, n);
        let comps: Vec<&Lts> = comps.iter().collect();
        let props: Vec<&Lts> = props.iter().collect();
        let first = check_safety(&comps, &props, &Config::default()).expect("no budget");
        assert!(first.verdict.is_holds(), "{family} N={n} holds");
        group.throughput(Throughput::Elements(first.stats.states as u64));
        group.bench_function(BenchmarkId::new(family, n), |b| {
            b.iter(|| {
                check_safety(&comps, &props, &Config::default())
                    .expect("no budget")
                    .stats
                    .states
            });
        });
    }
    group.finish();
}

/// Criterion's macros generate undocumented public items; they live here, out of the lint's way.
mod harness {
    #![allow(missing_docs)]
    criterion::criterion_group!(benches, super::families);
}

criterion_main!(harness::benches);

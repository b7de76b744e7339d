//! The FSP sliding window protocol (`benchmarks/swp/swp.lts`): quotient synthesis alone against
//! the monolithic check, in one process.
//!
//! Run with `cargo run --release -p guarantor-benches --example swp_fsp`. For each target
//! `SYS_A`..`SYS_D` the receiver is replaced, against `M = SENDER || DCHAN || ACHAN` (composed
//! once, outside the timings). For the monolithic check of all components and for each way to
//! synthesise (exact; refinement with one edge per step and with every useful edge at the chosen
//! block, both with the default hand-over to the exact construction; the all-edges loop without
//! it) it prints steps, abstract states, assumption states and the median time; the monolithic
//! check and the synthesis alternate run by run, so machine load hits both alike. Unlike the
//! CLI's `seconds`, the synthesis time leaves out composing `M` and checking `M || A`.
//!
//! `swp_fsp repeat <A|B|C|D> <method> <runs>` repeats one computation (and prints the steps,
//! whether the loop handed over to the exact construction, and the sizes of a synthesis to
//! stderr), for measuring CPU time or instructions from outside: `perf stat -e task-clock` or
//! `valgrind --tool=callgrind`, minus a run with `<runs>` = 0 (parsing and composing), divided by
//! `<runs>`. Methods: `mono`, `exact`, `one`, `all`, `pure-one`, `pure-all`, `one@P`, `all@P` (see
//! `benches/examples/quotient/common/methods.rs`).

#[path = "quotient/common/methods.rs"]
mod methods;
#[path = "quotient/common/timing.rs"]
mod timing;

use guarantor_compose::{Config, check_safety, compose};
use guarantor_lts::Lts;
use guarantor_quotient::synthesize;
use timing::{median, ms, time};

const RUNS: usize = 15;

/// The receiver, `M` (the other components composed), the property, and all components.
struct Target {
    n: Lts,
    m: Lts,
    property: Lts,
    components: Vec<Lts>,
}

fn load(target: &str) -> Target {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../benchmarks/swp/swp.lts");
    let source = std::fs::read_to_string(path).expect("benchmarks/swp/swp.lts");
    let model = guarantor_fsp::parse(&source, path).expect("the model parses");
    let system = model.elaborate(target).expect("the target elaborates");
    let mut components = Vec::new();
    let mut property = None;
    let mut receiver = None;
    for c in system.components {
        if c.is_property {
            property = Some(c.lts);
        } else {
            if c.name.contains("RECEIVER") {
                receiver = Some(components.len());
            }
            components.push(c.lts);
        }
    }
    let r = receiver.expect("a RECEIVER component");
    let others: Vec<&Lts> = components
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != r)
        .map(|(_, c)| c)
        .collect();
    let m = compose(&others, &Config::default()).expect("M composes");
    Target {
        n: components[r].clone(),
        m,
        property: property.expect("a property"),
        components,
    }
}

fn mono(t: &Target) -> usize {
    let refs: Vec<&Lts> = t.components.iter().collect();
    check_safety(&refs, &[&t.property], &Config::default())
        .unwrap()
        .stats
        .states
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("repeat") && args.len() == 4 {
        let t = load(&format!("SYS_{}", args[1]));
        let runs: usize = args[3].parse().expect("a number of runs");
        let qc = methods::config(&args[2]);
        let mut last = None;
        for _ in 0..runs {
            if args[2] == "mono" {
                std::hint::black_box(mono(&t));
            } else {
                last = Some(synthesize(&t.m, &t.n, &[&t.property], &qc).unwrap());
            }
        }
        if let Some(s) = last {
            eprintln!(
                "steps {} fallback {} abstract states {} assumption states {}",
                s.refinement_steps,
                s.exact_fallback,
                s.sizes.last().map_or(0, |x| x.abstraction_states),
                s.assumption.num_states()
            );
        }
        return;
    }
    println!(
        "| property | monolithic states / time | method | steps | abstract states | assumption states | synthesis | / monolithic |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for p in ["A", "B", "C", "D"] {
        let t = load(&format!("SYS_{p}"));
        let states = mono(&t);
        for method in ["exact", "one", "all", "pure-all"] {
            let qc = methods::config(method);
            let s = synthesize(&t.m, &t.n, &[&t.property], &qc).unwrap();
            let (mut t_mono, mut t_syn) = (Vec::new(), Vec::new());
            for _ in 0..RUNS {
                t_mono.push(time(|| {
                    mono(&t);
                }));
                t_syn.push(time(|| {
                    synthesize(&t.m, &t.n, &[&t.property], &qc).unwrap();
                }));
            }
            let (t_mono, t_syn) = (ms(median(t_mono)), ms(median(t_syn)));
            let blocks = s.sizes.last().map_or(0, |x| x.abstraction_states);
            println!(
                "| {p} | {states} / {t_mono:.2} ms | {method} | {} | {blocks} | {} | {t_syn:.2} ms | {:.1}x |",
                s.refinement_steps,
                s.assumption.num_states(),
                t_syn / t_mono,
            );
        }
    }
}

//! Sliding window protocol benchmark: quotient synthesis against monolithic checking.
//!
//! Run with `cargo run --release -p guarantor-quotient --example swp`. For each property A-D it
//! prints the monolithic verdict and time, and for the exact construction and the refinement loop:
//! refinement steps, the assumption's states, the synthesis time, and the time to check
//! `M || A |= P`. Times are medians of several runs.

#[path = "../tests/common/swp.rs"]
mod swp;

use std::time::{Duration, Instant};

use guarantor_compose::{Config, check_safety};
use guarantor_lts::Lts;
use guarantor_quotient::{QuotientConfig, synthesize};

const RUNS: usize = 21;

fn median(mut f: impl FnMut()) -> Duration {
    let mut times: Vec<Duration> = (0..RUNS)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .collect();
    times.sort();
    times[RUNS / 2]
}

fn main() {
    let (m, n) = (swp::sender(), swp::receiver());
    println!(
        "sender: {} states, {} transitions",
        m.num_states(),
        m.num_transitions()
    );
    println!(
        "receiver: {} states, {} transitions",
        n.num_states(),
        n.num_transitions()
    );
    println!(
        "| property | holds | monolithic states | monolithic | method | steps | assumption states | synthesis | M || A check | synthesis / monolithic |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|");
    for (name, p, _) in swp::properties() {
        let config = Config::default();
        let mono = check_safety(&[&m, &n], &[&p], &config).unwrap();
        let t_mono = median(|| {
            check_safety(&[&m, &n], &[&p], &config).unwrap();
        });
        for (method, refine) in [("exact", false), ("refinement", true)] {
            let qc = QuotientConfig::default().with_refine(refine);
            let s = synthesize(&m, &n, &[&p], &qc).unwrap();
            let t_syn = median(|| {
                synthesize(&m, &n, &[&p], &qc).unwrap();
            });
            let a: &Lts = &s.assumption;
            let t_check = median(|| {
                check_safety(&[&m, a], &[&p], &config).unwrap();
            });
            println!(
                "| {name} | {} | {} | {:.3} ms | {method} | {} | {} | {:.3} ms | {:.3} ms | {:.1}x |",
                mono.verdict.is_holds(),
                mono.stats.states,
                t_mono.as_secs_f64() * 1e3,
                s.refinement_steps,
                a.num_states(),
                t_syn.as_secs_f64() * 1e3,
                t_check.as_secs_f64() * 1e3,
                t_syn.as_secs_f64() / t_mono.as_secs_f64(),
            );
        }
    }
}

//! Sliding window protocol benchmark: quotient synthesis against monolithic checking.
//!
//! Run with `cargo run --release -p guarantor-benches --example swp`. For each property A-D it
//! prints the monolithic verdict and time, and for the exact construction and the refinement loop
//! (one edge per step, the paper's heuristic; and every useful edge at the chosen block per step;
//! both with the default hand-over to the exact construction, the second also without it):
//! refinement steps, abstract states of the sender, the assumption's states, the synthesis time,
//! and the time to check `M || A |= P`. Times are medians of several runs; the monolithic check
//! and the synthesis alternate run by run, so machine load hits both alike.
//!
//! Under heavy load wall-clock medians penalise the longer runs (they span more scheduler
//! slices), so the example also has a mode that only repeats one computation, for measuring CPU
//! time from outside: `swp repeat <A|B|C|D> <method> <runs>`, for instance under `perf stat -e
//! task-clock` (methods: `mono` and those of `benches/examples/quotient/common/methods.rs`).

#[path = "quotient/common/methods.rs"]
mod methods;
#[path = "../../crates/quotient/tests/common/swp.rs"]
mod swp;
#[path = "quotient/common/timing.rs"]
mod timing;

use guarantor_compose::{Config, check_safety};
use guarantor_lts::Lts;
use guarantor_quotient::synthesize;
use timing::{median, ms, time};

const RUNS: usize = 31;

/// `repeat <property> <method> <runs>`: the computation alone, `runs` times.
fn repeat(args: &[String]) {
    let (m, n) = (swp::sender(), swp::receiver());
    let props = swp::properties();
    let p = &props
        .iter()
        .find(|(name, _, _)| *name == args[0])
        .expect("property A, B, C or D")
        .1;
    let runs: usize = args[2].parse().expect("a number of runs");
    let qc = methods::config(&args[1]);
    let mut last = None;
    for _ in 0..runs {
        if args[1] == "mono" {
            std::hint::black_box(check_safety(&[&m, &n], &[p], &Config::default()).unwrap());
        } else {
            last = Some(synthesize(&m, &n, &[p], &qc).unwrap());
        }
    }
    if let Some(s) = last {
        eprintln!(
            "steps {} fallback {} assumption states {}",
            s.refinement_steps,
            s.exact_fallback,
            s.assumption.num_states()
        );
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("repeat") && args.len() == 4 {
        repeat(&args[1..]);
        return;
    }
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
        "| property | holds | monolithic states | monolithic check | method | steps | abstract states | assumption states | synthesis | `M \\|\\| A` check | synthesis / monolithic |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|");
    let config = Config::default();
    let methods = [
        ("exact", methods::config("exact")),
        ("refinement, one edge", methods::config("one")),
        ("refinement, all edges", methods::config("all")),
        (
            "refinement, all edges, no hand-over",
            methods::config("pure-all"),
        ),
    ];
    for (name, p, _) in swp::properties() {
        let mono = check_safety(&[&m, &n], &[&p], &config).unwrap();
        for (method, qc) in &methods {
            let s = synthesize(&m, &n, &[&p], qc).unwrap();
            let (mut t_mono, mut t_syn) = (Vec::new(), Vec::new());
            for _ in 0..RUNS {
                t_mono.push(time(|| {
                    check_safety(&[&m, &n], &[&p], &config).unwrap();
                }));
                t_syn.push(time(|| {
                    synthesize(&m, &n, &[&p], qc).unwrap();
                }));
            }
            let (t_mono, t_syn) = (median(t_mono), median(t_syn));
            let a: &Lts = &s.assumption;
            let t_check = median(
                (0..RUNS)
                    .map(|_| {
                        time(|| {
                            check_safety(&[&m, a], &[&p], &config).unwrap();
                        })
                    })
                    .collect(),
            );
            let blocks = s.sizes.last().map_or(0, |x| x.abstraction_states);
            println!(
                "| {name} | {} | {} | {:.3} ms | {method} | {} | {blocks} | {} | {:.3} ms | {:.3} ms | {:.1}x |",
                if mono.verdict.is_holds() { "yes" } else { "no" },
                mono.stats.states,
                ms(t_mono),
                s.refinement_steps,
                a.num_states(),
                ms(t_syn),
                ms(t_check),
                t_syn.as_secs_f64() / t_mono.as_secs_f64(),
            );
        }
    }
}

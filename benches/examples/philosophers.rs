//! Dining philosophers with one lock (Chaki et al. 2004, section 6) for growing `n`, checked with
//! predicate abstraction and a monolithic check of the abstract system. Prints one line per `n`:
//! time, peak memory, prover calls, abstract and product states.
//!
//! `cargo run --release -p guarantor-benches --example philosophers -- 2 12 60`
//! (from, to, stop after a run that takes longer than this many seconds). Peak memory is `VmHWM`.
//! `-- --emit N` prints the program for `n = N` instead, to run the abstraction + AG loop of the
//! facade on it: `guarantor check phil.gc --method lstar`.

use std::time::Instant;

use guarantor_predabs::{Config, Program, ProgramVerdict, check_cegar};

include!("../../crates/predabs/tests/shared/philosophers.rs");

fn peak_rss_mb() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|kb| kb.parse::<f64>().ok())
        .map_or(0.0, |kb| kb / 1024.0)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // `--emit N` prints the program for `n = N` (for `guarantor check phil.gc --method ...`).
    let raw: Vec<String> = std::env::args().skip(1).collect();
    if let [flag, n] = raw.as_slice()
        && flag == "--emit"
    {
        print!("{}", philosophers(n.parse()?));
        return Ok(());
    }
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let (from, to, stop) = (
        args.first().copied().unwrap_or(2),
        args.get(1).copied().unwrap_or(12),
        args.get(2).copied().unwrap_or(60),
    );
    println!(
        "| n | verdict | iterations | time (s) | peak RSS (MB) | prover calls | abstract states | product states |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for n in from..=to {
        let sys = Program::parse(&philosophers(n), "philosophers.gc")?;
        let start = Instant::now();
        let report = check_cegar(&sys, &Config::default())?;
        let secs = start.elapsed().as_secs_f64();
        let verdict = if report.verdict == ProgramVerdict::Holds {
            "holds"
        } else {
            "VIOLATED"
        };
        println!(
            "| {n} | {verdict} | {} | {secs:.2} | {:.1} | {} | {} | {} |",
            report.iterations,
            peak_rss_mb(),
            report.stats.prover.backend_calls(),
            report.stats.abstract_states,
            report.stats.product_states
        );
        if secs > f64::from(u32::try_from(stop).unwrap_or(u32::MAX)) {
            break;
        }
    }
    Ok(())
}

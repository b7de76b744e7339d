//! Measures the peak memory of one monolithic safety check, for `docs/benchmarks.md`.
//!
//! Usage: `safety_memory [k] [n]` checks `k` counters of `n` states (default 4 x 34, 1,336,336
//! states) against a property that holds, and prints states, transitions, wall time and the peak
//! resident set size (`VmHWM` of `/proc/self/status`, Linux only) before and after, with the
//! difference per state. Not a timed benchmark: run it once per figure.

use std::time::Instant;

use guarantor_benches::systems::{counters, counters_property};
use guarantor_compose::{Config, check_safety};

/// The peak resident set size in kB, if `/proc/self/status` says.
fn peak_rss_kb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let k: usize = args.next().map_or(Ok(4), |a| a.parse())?;
    let n: usize = args.next().map_or(Ok(34), |a| a.parse())?;
    let comps = counters(k, n)?;
    let property = counters_property()?;
    let refs: Vec<_> = comps.iter().collect();
    let before = peak_rss_kb().unwrap_or(0);
    let start = Instant::now();
    let report = check_safety(&refs, &[&property], &Config::default())?;
    let elapsed = start.elapsed();
    let after = peak_rss_kb().unwrap_or(0);
    let states = report.stats.states;
    println!("system: {k} counters x {n} states + 1 property");
    println!("verdict holds: {}", report.verdict.is_holds());
    println!(
        "states: {states}, transitions: {}",
        report.stats.transitions
    );
    println!("time: {:.3} s", elapsed.as_secs_f64());
    println!("peak RSS: {before} kB before, {after} kB after");
    #[allow(clippy::cast_precision_loss)]
    let per_state = (after.saturating_sub(before) * 1024) as f64 / states.max(1) as f64;
    println!("bytes per state (peak RSS growth / states): {per_state:.1}");
    #[allow(clippy::cast_precision_loss)]
    let per_state_total = (after * 1024) as f64 / states.max(1) as f64;
    println!("bytes per state (whole process peak / states): {per_state_total:.1}");
    Ok(())
}

//! Learns each harness DFA (`dfa v1` files) a fixed number of times with the default L*
//! configuration and prints the query counts: a driver for instruction-count profiling
//! (`valgrind --tool=callgrind --toggle-collect='*learn_runs*'`), whose counts, unlike times, the
//! load of a shared machine does not disturb.
//!
//! Usage: `cargo run --release -p guarantor-benches --example profile_dfas -- RUNS [pc] FILE.dfa...`

use std::error::Error;

use guarantor_lstar::{Dfa, DfaTeacher, Learner, LearnerConfig, Outcome, learn};

/// Reads the successor table of a `dfa v1` file (lines `state accepting succ...`).
fn read_dfa(path: &str) -> Result<Dfa, Box<dyn Error>> {
    let text = std::fs::read_to_string(path)?;
    let (mut k, mut rows) = (0, Vec::new());
    for line in text.lines().map(str::trim) {
        let parts: Vec<&str> = line.split_whitespace().collect();
        match parts.first() {
            Some(&"alphabet") => k = parts[1].parse()?,
            Some(p) if p.bytes().all(|b| b.is_ascii_digit()) => {
                let succ = parts[2..2 + k]
                    .iter()
                    .map(|s| s.parse())
                    .collect::<Result<Vec<usize>, _>>()?;
                rows.push((parts[1] == "1", succ));
            }
            _ => {}
        }
    }
    let (acc, delta) = rows.into_iter().unzip();
    Ok(Dfa::new(k, delta, acc)?)
}

/// Learns `target` `runs` times; returns the learned DFA and the membership and equivalence
/// queries of the last run.
#[inline(never)]
fn learn_runs(
    target: &Dfa,
    config: &LearnerConfig,
    runs: usize,
) -> Result<(Option<Dfa>, u64, u64), Box<dyn Error>> {
    let mut last = (None, 0, 0);
    for _ in 0..runs {
        let mut learner = Learner::new(target.num_symbols(), config.clone());
        let mut teacher = DfaTeacher::new(target.clone());
        let Outcome::Learned(dfa) = learn(&mut learner, &mut teacher)? else {
            return Err("a perfect teacher never stops".into());
        };
        let stats = learner.stats();
        last = (
            Some(dfa),
            stats.membership_queries,
            stats.equivalence_queries,
        );
    }
    Ok(last)
}

fn main() -> Result<(), Box<dyn Error>> {
    let mut args = std::env::args().skip(1).peekable();
    let runs: usize = args.next().ok_or("usage: RUNS [pc] FILE...")?.parse()?;
    let pc = args.next_if_eq("pc").is_some();
    let config = LearnerConfig::default().with_prefix_closed(pc);
    for path in args {
        let target = read_dfa(&path)?;
        let (dfa, mq, eq) = learn_runs(&target, &config, runs)?;
        if dfa.is_some_and(|d| d.shortest_difference(&target).is_some()) {
            return Err(format!("{path}: learned a wrong DFA").into());
        }
        println!("{path} mq={mq} eq={eq}");
    }
    Ok(())
}

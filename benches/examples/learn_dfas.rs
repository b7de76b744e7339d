//! Learns the AALpy harness's benchmark DFAs (`dfa v1` files) with our L* and L# and prints one CSV
//! line per DFA and mode: the driver behind `benches/compare/lstar/run.sh`.
//!
//! The teacher is [`DfaTeacher`], whose equivalence answer is the shortest difference in
//! breadth-first, symbol order: the rule of the harness's `PerfectDfaOracle` in `shortest` mode, so
//! the counts are comparable with AALpy's `mq_unique` and `eq_queries`. Modes: `rs` (Rivest-Schapire,
//! plain; every DFA), `lsharp` (L#, plain; every DFA), `lsharp_steps` (L# with a teacher that
//! answers step-wise, [`DfaTeacher::with_prefix_answers`], as AALpy's SUL does: one query gives the
//! answer of every prefix of its word), and `rs_pc`, `lsharp_pc`, `lsharp_steps_pc` (the same in
//! prefix-closed mode; prefix-closed DFAs only).
//! Time is the mean CPU time of one whole learning run (teacher included, file reading excluded)
//! over a batch of repetitions filling at least 0.1 s, the fastest of `LSTAR_BATCHES` batches
//! (default 5);
//! `aalpy_time.py` measures AALpy the same way.
//!
//! Usage: `cargo run --release -p guarantor-benches --example learn_dfas -- FILE.dfa...`

use std::error::Error;
use std::time::{Duration, Instant};

use guarantor_lstar::{
    Dfa, DfaTeacher, Learner, LearnerConfig, LearnerKind, Outcome, Stats, learn,
};

/// One parsed benchmark file.
struct Bench {
    name: String,
    kind: String,
    minimal: usize,
    dfa: Dfa,
}

/// Reads a `dfa v1` file (format documented in the harness's `aalpy_lstar.py`).
fn read_dfa(path: &str) -> Result<Bench, Box<dyn Error>> {
    let text = std::fs::read_to_string(path)?;
    let mut lines = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'));
    if lines.next() != Some("dfa v1") {
        return Err(format!("{path}: not a dfa v1 file").into());
    }
    let (mut name, mut kind, mut minimal, mut k, mut n) = (String::new(), String::new(), 0, 0, 0);
    let mut rows: Vec<(bool, Vec<usize>)> = Vec::new();
    for line in lines {
        let parts: Vec<&str> = line.split_whitespace().collect();
        match parts[0] {
            "end" => break,
            "name" => parts[1].clone_into(&mut name),
            "kind" => parts[1].clone_into(&mut kind),
            "minimal" => minimal = parts[1].parse()?,
            "alphabet" => k = parts[1].parse()?,
            "states" => n = parts[1].parse()?,
            "initial" if parts[1] != "0" => return Err("initial state must be 0".into()),
            p if p.bytes().all(|b| b.is_ascii_digit()) => {
                let succ = parts[2..2 + k]
                    .iter()
                    .map(|s| s.parse())
                    .collect::<Result<_, _>>()?;
                rows.push((parts[1] == "1", succ));
            }
            _ => {}
        }
    }
    if rows.len() != n {
        return Err(format!("{path}: expected {n} state lines").into());
    }
    let (acc, delta) = rows.into_iter().unzip();
    Ok(Bench {
        name,
        kind,
        minimal,
        dfa: Dfa::new(k, delta, acc)?,
    })
}

/// A learner configuration and whether the teacher answers step-wise.
type Mode = (LearnerConfig, bool);

/// Learns `target` once; returns the learned DFA and the learner's statistics.
fn learn_once(target: &Dfa, (config, steps): &Mode) -> Result<(Dfa, Stats), Box<dyn Error>> {
    let mut learner = Learner::new(target.num_symbols(), config.clone());
    let mut teacher = DfaTeacher::new(target.clone()).with_prefix_answers(*steps);
    match learn(&mut learner, &mut teacher)? {
        Outcome::Learned(dfa) => Ok((dfa, learner.stats().clone())),
        _ => Err("a perfect teacher never stops".into()),
    }
}

/// CPU time this thread has run, in nanoseconds, from Linux's `/proc/thread-self/schedstat`
/// (`None` elsewhere). CPU time rather than wall time: the machine is shared, and a run that waits
/// for the processor should not count the wait.
fn cpu_ns() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

/// The mean CPU time of one learning run over a batch of runs filling at least 0.1 s of wall time
/// (at least one run), the fastest of `batches` batches: on a shared machine the fastest batch is the
/// least disturbed by other processes. Without `/proc`, the fastest wall time of a run instead.
fn time_it(target: &Dfa, config: &Mode, batches: usize) -> Result<Duration, Box<dyn Error>> {
    let mut best = Duration::MAX;
    for _ in 0..batches {
        let (start, cpu_start) = (Instant::now(), cpu_ns());
        let mut fastest = Duration::MAX;
        let mut runs = 0u32;
        while runs < 1 || start.elapsed() < Duration::from_millis(100) {
            let t = Instant::now();
            learn_once(target, config)?;
            fastest = fastest.min(t.elapsed());
            runs += 1;
        }
        let batch = match (cpu_start, cpu_ns()) {
            (Some(a), Some(b)) => Duration::from_nanos(b.saturating_sub(a)) / runs,
            _ => fastest,
        };
        best = best.min(batch);
    }
    Ok(best)
}

fn main() -> Result<(), Box<dyn Error>> {
    println!(
        "dfa,kind,minimal,mode,learned_states,correct,mq,eq,symbols,inferred,free_cex,time_us"
    );
    let batches = match std::env::var("LSTAR_BATCHES") {
        Ok(n) => n.parse::<usize>()?.max(1),
        Err(_) => 5,
    };
    for path in std::env::args().skip(1) {
        let bench = read_dfa(&path)?;
        let sharp = LearnerConfig::default().with_kind(LearnerKind::LSharp);
        let rs = LearnerConfig::default();
        let mut modes = vec![
            ("rs", (rs.clone(), false)),
            ("lsharp", (sharp.clone(), false)),
            ("lsharp_steps", (sharp.clone(), true)),
        ];
        if bench.kind == "prefix_closed" {
            let (rs, sharp) = (rs.with_prefix_closed(true), sharp.with_prefix_closed(true));
            modes.push(("rs_pc", (rs, false)));
            modes.push(("lsharp_pc", (sharp.clone(), false)));
            modes.push(("lsharp_steps_pc", (sharp, true)));
        }
        for (mode, config) in modes {
            let (dfa, stats) = learn_once(&bench.dfa, &config)?;
            let correct = dfa.shortest_difference(&bench.dfa).is_none();
            let time = time_it(&bench.dfa, &config, batches)?;
            println!(
                "{},{},{},{mode},{},{correct},{},{},{},{},{},{:.1}",
                bench.name,
                bench.kind,
                bench.minimal,
                dfa.num_states(),
                stats.membership_queries,
                stats.equivalence_queries,
                stats.symbols,
                stats.inferred,
                stats.free_counterexamples,
                time.as_secs_f64() * 1e6,
            );
        }
    }
    Ok(())
}

//! Learns each Mealy DOT file given on the command line with L# (or the learner named by
//! `LEARNER`: lsharp, lstar, kv) and the Wp oracle with bound "hypothesis + 2", printing one line
//! per model (states, queries, steps, equivalence queries, seconds): a quick way to compare
//! learner changes without the CLI. `REPEAT=N` runs each model N times (for profiling);
//! `VERIFY=1` turns on L#'s verification, `TOUR=1` its tours, `FIRST_FAILURE=1` stops each round of the oracle at
//! its first failing test.
//! `cargo run --release -p guarantor-lstar --example mealy_models -- MODEL.dot...`

use guarantor_lstar::mealy::{Algorithm, Config, Mealy, Simulated, WpMethod, learn};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let algorithm = match std::env::var("LEARNER").as_deref() {
        Ok("lstar") => Algorithm::LStar,
        Ok("kv") => Algorithm::Kv,
        _ => Algorithm::LSharp,
    };
    let repeat: usize = std::env::var("REPEAT")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(1);
    let mut config = Config::with_algorithm(algorithm);
    config.verify = std::env::var_os("VERIFY").is_some();
    config.tour = std::env::var_os("TOUR").is_some();
    let first = std::env::var_os("FIRST_FAILURE").is_some();
    for path in std::env::args().skip(1) {
        let target = Mealy::from_dot(&std::fs::read_to_string(&path)?)?;
        for _ in 0..repeat {
            let learned = learn(
                Simulated::new(&target),
                &mut WpMethod::new(2).with_whole_suite(!first),
                config,
            )?;
            let s = learned.stats;
            if repeat == 1 {
                println!(
                    "{path}: states {} mq {} steps {} eq {} oq {} os {} s {:.6} ok {}",
                    learned.machine.num_states(),
                    s.learning.queries,
                    s.learning.steps,
                    s.equivalence_queries,
                    s.testing.queries,
                    s.testing.steps,
                    s.seconds,
                    learned.machine.equivalent(&target)?
                );
            }
        }
    }
    Ok(())
}

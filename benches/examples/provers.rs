//! The two prover backends on the same runs: the native DPLL(T) prover and z3 over SMT-LIB2
//! (skipped when `z3` is not on the path). Prints one row per program, mode and backend: verdict,
//! iterations, prover questions (sent to the backend), wall time.
//!
//! `cargo run --release -p guarantor-benches --example provers`

use std::time::Instant;

use guarantor_predabs::prover::SmtLibProver;
use guarantor_predabs::{Abstraction, Backend, Config, Program, ProgramVerdict, check_cegar};

include!("../../crates/predabs/tests/shared/philosophers.rs");

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let data = concat!(env!("CARGO_MANIFEST_DIR"), "/../crates/predabs/tests/data");
    let mut programs: Vec<(String, String)> = ["bakery.gc", "bakery_bug.gc"]
        .iter()
        .map(|f| {
            Ok((
                f.to_string(),
                std::fs::read_to_string(format!("{data}/{f}"))?,
            ))
        })
        .collect::<Result<_, std::io::Error>>()?;
    for n in [4, 8] {
        programs.push((format!("philosophers n={n}"), philosophers(n)));
    }
    let mut backends = vec![("native", Backend::Native)];
    if SmtLibProver::on_path("z3") {
        backends.push((
            "z3",
            Backend::SmtLib(vec!["z3".into(), "-in".into(), "-smt2".into()]),
        ));
    } else {
        eprintln!("z3 not on the path: native only");
    }
    println!("| program | mode | backend | verdict | iterations | prover questions | time (s) |");
    println!("|---|---|---|---|---|---|---|");
    for (name, src) in &programs {
        let sys = Program::parse(src, name)?;
        for (mode_name, mode) in [
            ("exact", Abstraction::Exact),
            ("cartesian 3", Abstraction::Cartesian { max_cube: 3 }),
            ("elimination", Abstraction::Elimination),
        ] {
            for (backend_name, backend) in &backends {
                let config = Config::default()
                    .with_mode(mode)
                    .with_backend(backend.clone());
                let start = Instant::now();
                let report = check_cegar(&sys, &config)?;
                let secs = start.elapsed().as_secs_f64();
                let verdict = match report.verdict {
                    ProgramVerdict::Holds => "holds",
                    _ => "violated",
                };
                println!(
                    "| {name} | {mode_name} | {backend_name} | {verdict} | {} | {} | {secs:.3} |",
                    report.iterations,
                    report.stats.prover.backend_calls()
                );
            }
        }
    }
    Ok(())
}

//! `guarantor check PROGRAM.gc`: predicate abstraction with refinement, the abstract system checked
//! by the chosen method (the facade's `program` module), and the result printed.

use std::path::Path;
use std::process::ExitCode;

use guarantor::Method;
use guarantor::compose::Config;
use guarantor::predabs::{ProgramVerdict, System};
use guarantor::program::check_program;
use serde_json::json;

use crate::{Failure, input_error};

/// Runs the loop on the program in `path`; exit code 0 holds, 1 violated.
pub(crate) fn run(
    path: &Path,
    method: Method,
    config: &Config,
    as_json: bool,
) -> Result<ExitCode, Failure> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| input_error(anyhow::anyhow!("cannot read {}: {e}", path.display())))?;
    let program = System::parse(&text, &path.display().to_string()).map_err(input_error)?;
    let mut pconfig = guarantor::predabs::Config::new();
    if let Some(deadline) = config.deadline {
        pconfig.deadline = Some(deadline);
    }
    let report = check_program(&program, &pconfig, method, config).map_err(|e| {
        if e.is_budget() {
            Failure::Budget(e.into())
        } else {
            input_error(e)
        }
    })?;
    let (verdict, trace, values) = match &report.verdict {
        ProgramVerdict::Violated(t) => (
            "violated",
            Some(t.labels()),
            Some(t.display(&program).to_string()),
        ),
        _ => ("holds", None, None),
    };
    let stats = &report.stats;
    if as_json {
        let v = json!({
            "verdict": verdict,
            "method": format!("predabs+{}", method.name()),
            "counterexample": trace,
            "values": values,
            "states": stats.product_states,
            "iterations": report.iterations,
            "predicates": report.predicates.len(),
            "prover_calls": stats.prover.backend_calls(),
            "seconds": stats.elapsed.as_secs_f64(),
        });
        println!("{v}");
    } else {
        println!("{verdict}");
        if let Some(values) = &values {
            println!("concrete counterexample:\n{values}");
        }
        println!(
            "predicate abstraction + {}: {} iterations, {} predicates, {} prover calls, {:.3} s",
            method.name(),
            report.iterations,
            report.predicates.len(),
            stats.prover.backend_calls(),
            stats.elapsed.as_secs_f64()
        );
    }
    Ok(ExitCode::from(u8::from(verdict != "holds")))
}

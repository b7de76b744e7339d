//! `guarantor check PROGRAM.gc`: predicate abstraction with refinement, the abstract system checked
//! by the chosen method (the facade's `program` module), and the result printed: verdict, concrete
//! counterexample with values, predicates per component, iterations, prover calls, and what the
//! method reported on the last abstract system (its components and the learned assumptions).

use std::path::Path;
use std::process::ExitCode;

use guarantor::MethodKind;
use guarantor::compose::Config;
use guarantor::lstar::Asym;
use guarantor::lts::ComponentId;
use guarantor::predabs::{Program, ProgramVerdict};
use guarantor::program::{ProgramMethod, ProgramReport, check_program_with_method};
use serde_json::{Value, json};

use crate::stdout::outln;
use crate::{Failure, input_error};

/// Runs the loop on the program in `path`; exit code 0 holds, 1 violated.
/// `split`: `--split`, program components by name or number (comma-separated); `weakest`:
/// `--weakest`.
pub(crate) fn run(
    path: &Path,
    method: MethodKind,
    split: Option<&str>,
    weakest: bool,
    config: &Config,
    as_json: bool,
) -> Result<ExitCode, Failure> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| input_error(anyhow::anyhow!("cannot read {}: {e}", path.display())))?;
    let program = Program::parse(&text, &path.display().to_string()).map_err(input_error)?;
    let index = |part: &str| {
        program
            .components
            .iter()
            .position(|c| c.name == part)
            .or_else(|| part.parse().ok().filter(|&i| i < program.components.len()))
            .map(ComponentId::must)
            .ok_or_else(|| input_error(anyhow::anyhow!("--split: no component `{part}`")))
    };
    // The method sees one component per program component, in program order, so a split names
    // program components.
    let checking = match (method, split) {
        (MethodKind::Lstar, Some(split)) => {
            let first = split
                .split(',')
                .map(|p| index(p.trim()))
                .collect::<Result<Vec<_>, _>>()?;
            ProgramMethod::new(Asym::new().with_split(first))
        }
        (MethodKind::LstarNway, _) if weakest => {
            ProgramMethod::named("lstar-weakest").ok_or_else(|| {
                input_error(anyhow::anyhow!("lstar-weakest is not a built-in method"))
            })?
        }
        _ => ProgramMethod::builtin(method),
    };
    let mut pconfig = guarantor::predabs::Config::new();
    // The program check's own loop (abstraction, refinement) shares the check's deadline (the
    // caller started the clock).
    if let Some(deadline) = config.effective_deadline() {
        pconfig.compose.deadline = Some(deadline);
    }
    let report = check_program_with_method(&program, &pconfig, &checking, config).map_err(|e| {
        if e.is_budget() {
            Failure::Budget(e.into())
        } else {
            input_error(e)
        }
    })?;
    let holds = !matches!(report.predabs.verdict, ProgramVerdict::Violated(_));
    let name = if weakest && method == MethodKind::LstarNway {
        format!("{} --weakest", method.name())
    } else {
        method.name().to_owned()
    };
    if as_json {
        outln!("{}", to_json(&program, &name, &report));
    } else {
        print_text(&program, &name, &report);
    }
    Ok(ExitCode::from(u8::from(!holds)))
}

/// The predicates as `(owner, printed predicates)`: `"shared"` for predicates over globals, then
/// each component by name.
fn predicates(program: &Program, report: &ProgramReport) -> Vec<(String, Vec<String>)> {
    let p = &report.predabs.predicates;
    let show = |fs: &[guarantor::predabs::formula::Formula]| {
        fs.iter().map(|f| program.show(f)).collect::<Vec<_>>()
    };
    std::iter::once(("shared".to_owned(), show(&p.global)))
        .chain(
            program
                .components
                .iter()
                .zip(&p.local)
                .map(|(c, l)| (c.name.clone(), show(l))),
        )
        .collect()
}

fn to_json(program: &Program, method: &str, report: &ProgramReport) -> Value {
    let r = &report.predabs;
    let (verdict, trace, values) = match &r.verdict {
        ProgramVerdict::Violated(t) => (
            "violated",
            Some(t.labels()),
            Some(t.display(program).to_string()),
        ),
        _ => ("holds", None, None),
    };
    let stats = &r.stats;
    let last = &report.last_check;
    let mut per_component = serde_json::Map::new();
    for (owner, preds) in predicates(program, report) {
        per_component.insert(owner, json!(preds));
    }
    let abstract_states: Vec<Value> = program
        .components
        .iter()
        .zip(&r.abstraction.components)
        .map(|(c, l)| json!({"component": c.name, "states": l.num_states(), "transitions": l.num_transitions()}))
        .collect();
    let mut v = json!({
        "verdict": verdict,
        "method": format!("predabs+{method}"),
        "counterexample": trace,
        "values": values,
        "states": stats.product_states,
        "iterations": r.iterations,
        "predicates": r.predicates.len(),
        "predicates_per_component": per_component,
        "predicates_skipped": r.predicates.skipped.iter().map(|f| program.show(f)).collect::<Vec<_>>(),
        "prover_calls": stats.prover.backend_calls(),
        "abstractions": stats.abstractions,
        "refinements": stats.refinements.iter().map(|f| json!({"iteration": f.iteration, "trace": f.trace, "new_predicates": f.predicates})).collect::<Vec<_>>(),
        "abstract_components": abstract_states,
        "checked_components": last.components.iter().zip(&last.component_states).map(|(n, s)| json!({"name": n, "states": s})).collect::<Vec<_>>(),
        "assumptions": last.assumptions.iter().map(|a| json!({"component": a.label, "states": a.states, "transitions": a.transitions})).collect::<Vec<_>>(),
        "seconds": stats.elapsed.as_secs_f64(),
        "warnings": [],
    });
    if let (Some(m), Some(e)) = (
        last.counter("membership_queries"),
        last.counter("equivalence_queries"),
    ) {
        v["queries"] = json!({"membership": m, "equivalence": e});
    }
    v
}

fn print_text(program: &Program, method: &str, report: &ProgramReport) {
    let r = &report.predabs;
    match &r.verdict {
        ProgramVerdict::Violated(t) => {
            outln!("violated");
            outln!("concrete counterexample:\n{}", t.display(program));
        }
        _ => outln!("holds"),
    }
    for (owner, preds) in predicates(program, report) {
        if !preds.is_empty() {
            outln!("predicates of {owner}: {}", preds.join(", "));
        }
    }
    if !r.predicates.skipped.is_empty() {
        let skipped: Vec<String> = r
            .predicates
            .skipped
            .iter()
            .map(|f| program.show(f))
            .collect();
        outln!(
            "not tracked (mix local and global variables): {}",
            skipped.join(", ")
        );
    }
    for f in &r.stats.refinements {
        outln!(
            "iteration {}: spurious counterexample {}; added {}",
            f.iteration,
            f.trace.join(" "),
            f.predicates.join(", ")
        );
    }
    let last = &report.last_check;
    for a in &last.assumptions {
        outln!(
            "assumption for {}: {} states, {} transitions",
            a.label,
            a.states,
            a.transitions
        );
    }
    let stats = &r.stats;
    outln!(
        "predicate abstraction + {}: {} iterations, {} predicates, {} prover calls, {:.3} s",
        method,
        r.iterations,
        r.predicates.len(),
        stats.prover.backend_calls(),
        stats.elapsed.as_secs_f64()
    );
}

//! `guarantor check PROGRAM.gc`: predicate abstraction with refinement, the abstract system checked
//! by the chosen method (the facade's `program` module), and the result printed: verdict, concrete
//! counterexample with values, predicates per component, iterations, prover calls, and what the
//! method reported on the last abstract system (its components and the learned assumptions).
//!
//! `--certificate FILE` writes the certificate of a `holds` (rule `program`, the facade's
//! `program_certificate`); `verify --certificate FILE PROGRAM.gc` re-checks one ([`run_verify`]):
//! the obligations are discharged by the SMT solver `--solver` (or `GUARANTOR_SMT_SOLVER`) names,
//! `z3 -in -smt2` by default.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use guarantor::MethodKind;
use guarantor::certify::Rejection;
use guarantor::certify::smt::Solver;
use guarantor::compose::Config;
use guarantor::lstar::Asym;
use guarantor::lts::ComponentId;
use guarantor::predabs::concrete::ConcreteTrace;
use guarantor::predabs::{Program, ProgramVerdict};
use guarantor::program::{ProgramMethod, ProgramReport, check_program_with_method};
use guarantor::program_certificate::{program_certificate, verify_program};
use serde_json::{Value, json};

use crate::stdout::outln;
use crate::{Failure, input_error, output};

/// The single program (`.gc`) among the inputs, if the inputs are one.
pub(crate) fn program_input(inputs: &[PathBuf]) -> Option<&Path> {
    match inputs {
        [one] if one.extension().is_some_and(|e| e == "gc") => Some(one),
        _ => None,
    }
}

fn read_program(path: &Path) -> Result<Program, Failure> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| input_error(anyhow::anyhow!("cannot read {}: {e}", path.display())))?;
    Program::parse(&text, &path.display().to_string()).map_err(input_error)
}

/// Runs the loop on the program in `path`; exit code 0 holds, 1 violated (2 when `certificate`
/// cannot be written). `split`: `--split`, program components by name or number
/// (comma-separated); `weakest`: `--weakest`; `certificate`: `--certificate`.
#[allow(clippy::too_many_arguments)] // the options of `check` a program uses
pub(crate) fn run(
    path: &Path,
    method: MethodKind,
    split: Option<&str>,
    weakest: bool,
    config: &Config,
    as_json: bool,
    certificate: Option<&Path>,
) -> Result<ExitCode, Failure> {
    let program = read_program(path)?;
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
    let code = u8::from(!holds);
    if !as_json {
        print_text(&program, &name, &report);
        if let Some(file) = certificate {
            write_certificate(&program, &report, file)?;
        }
        return Ok(ExitCode::from(code));
    }
    // One object whatever happens: the certificate is written first, and a failure to write it
    // becomes the object's `error` (exit 2) beside the verdict.
    let mut v = to_json(&program, &name, &report);
    let code = match certificate.map(|file| (file, write_certificate(&program, &report, file))) {
        None => code,
        Some((file, Ok(()))) => {
            v["certificate"] = json!(file.display().to_string());
            code
        }
        Some((_, Err(Failure::Input(e) | Failure::Budget(e)))) => {
            v["error"] = output::error_json(&e);
            2
        }
    };
    outln!("{v}");
    Ok(ExitCode::from(code))
}

/// `check --certificate FILE` for a program: the certificate of its `holds` as JSON.
fn write_certificate(
    program: &Program,
    report: &ProgramReport,
    path: &Path,
) -> Result<(), Failure> {
    let cert = program_certificate(program, &report.predabs)
        .map_err(|e| input_error(anyhow::anyhow!("no certificate: {e}")))?;
    let json = cert.to_json().map_err(input_error)?;
    std::fs::write(path, json + "\n")
        .map_err(|e| input_error(anyhow::anyhow!("cannot write {}: {e}", path.display())))
}

/// `verify --certificate FILE PROGRAM.gc`: exit 0 valid, 1 invalid (the failing obligation,
/// abstract-system check or premise printed), 2 bad input (unreadable, not a certificate, a
/// certificate of another program or of an LTS model, no solver to run).
pub(crate) fn run_verify(
    path: &Path,
    certificate: &Path,
    solver: Option<&str>,
) -> Result<ExitCode, Failure> {
    let program = read_program(path)?;
    let text = std::fs::read_to_string(certificate).map_err(|e| {
        input_error(anyhow::anyhow!(
            "cannot read {}: {e}",
            certificate.display()
        ))
    })?;
    let solver = match solver {
        Some(cmd) if !cmd.trim().is_empty() => {
            Solver::new(cmd.split_whitespace().map(str::to_owned).collect())
        }
        _ => Solver::from_env(),
    };
    let report = verify_program(&program, &text, &solver)
        .map_err(|e| input_error(anyhow::anyhow!("{}: {e}", certificate.display())))?;
    match report.rejection() {
        None => {
            println!(
                "valid: holds certificate, rule program, {} obligations discharged by {}, abstract check: {} premises checked, {} states",
                report.obligations,
                report.backend.as_deref().unwrap_or("no solver"),
                report.premises_checked,
                report.states
            );
            Ok(ExitCode::SUCCESS)
        }
        Some(r @ (Rejection::Model { .. } | Rejection::Fingerprint { .. })) => Err(input_error(
            anyhow::anyhow!("program mismatch: the certificate is not about this program: {r}"),
        )),
        Some(r) => {
            println!("invalid: {r}");
            Ok(ExitCode::from(1))
        }
    }
}

/// What a violated run ends in, in the JSON schema's words: `("error_state", "ERROR in C")` or
/// `("property", "property P")`.
fn violation(program: &Program, trace: &ConcreteTrace) -> (&'static str, String) {
    let last = trace.last();
    if let Some(c) = program
        .components
        .iter()
        .zip(&last.locations)
        .find(|(c, l)| c.error_locations.contains(l))
    {
        return ("error_state", format!("ERROR in {}", c.0.name));
    }
    let labels = trace.labels();
    let name = program
        .properties
        .iter()
        .find(|p| guarantor::compose::replay::violates(&[], &[&p.lts], &labels).unwrap_or(false))
        .map_or_else(|| "property".to_owned(), |p| format!("property {}", p.name));
    ("property", name)
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
    let (verdict, trace, values, violation) = match &r.verdict {
        ProgramVerdict::Violated(t) => (
            "violated",
            Some(t.labels()),
            Some(t.display(program).to_string()),
            Some(violation(program, t)),
        ),
        _ => ("holds", None, None, None),
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
        "violation": violation.as_ref().map(|v| v.0),
        "violated": violation.map(|v| v.1),
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

//! `check --progress [NAME]`: LTSA's Check > Progress (the facade's
//! [`guarantor::Checker::check_progress`]) on an FSP model or `.aut` components.
//!
//! Without `NAME`, every progress test the FSP model declares is checked in one search, or the
//! default progress property (every action can always eventually occur) when it declares none;
//! with `NAME`, that one test (`P.v` for a value of `progress P[i:R]`, or `P` for all its values).
//! Exit codes as for a safety check: 0 the check passes, 1 violated (a terminal set that violates
//! a test, a deadlock, or a safety violation that must be fixed first), 2 bad input, 3 a budget.

use std::process::ExitCode;

use guarantor::Checker;
use guarantor::progress::{ProgressOutcome, ProgressVerdict, select, tests_of};
use serde_json::{Value, json};

use crate::output::{shown, warnings_json};
use crate::stdout::outln;
use crate::{
    CheckArgs, Failure, Format, display_name, fsp_input, input_error, load, load_fsp_with,
};

/// Runs the progress check `name` (empty: all tests, or the default property) on `args`' inputs.
pub(crate) fn run(
    args: &CheckArgs,
    name: &str,
    config: &guarantor::compose::Config,
    warnings: &mut Vec<Value>,
) -> Result<ExitCode, Failure> {
    let (checker, declared, unchecked) = match fsp_input(&args.components)? {
        Some(path) => {
            let system = load_fsp_with(path, args.target.as_deref(), args.quiet, &args.consts)?;
            *warnings = warnings_json(&system.warnings);
            let checker = Checker::from_fsp(&system, config).map_err(crate::classify)?;
            let unchecked: Vec<(String, String)> = system
                .unchecked
                .iter()
                .map(|u| (u.keyword.clone(), u.to_string()))
                .collect();
            (checker, tests_of(&system), unchecked)
        }
        None => {
            if args.target.is_some() {
                return Err(input_error(anyhow::anyhow!("--target needs an FSP model")));
            }
            let mut checker = Checker::new();
            for path in &args.components {
                checker = checker.component(display_name(path), load(path, args.lenient)?);
            }
            (checker, Vec::new(), Vec::new())
        }
    };
    let mut checker = checker;
    for path in &args.properties {
        checker = checker.property(display_name(path), load(path, args.lenient)?);
    }
    let checker = crate::with_chosen_method(checker, args)?;
    let tests = if name.is_empty() {
        declared
    } else {
        select(&declared, name).map_err(crate::classify)?
    };
    let (config, progress) =
        crate::progress::Progress::start(config.clone(), args.method.name(), args.quiet);
    let outcome = checker.check_progress(&tests, &config);
    drop(progress);
    let outcome = outcome.map_err(crate::classify)?;
    // What the file declares that this check did not cover: assertions and the like, and the
    // progress tests not asked for.
    let covers = |test: &str| {
        outcome
            .tests
            .iter()
            .any(|t| t == test || t.starts_with(&format!("{test}.")))
    };
    let not_checked: Vec<String> = unchecked
        .into_iter()
        .filter(|(keyword, text)| {
            keyword != "progress" || !covers(text.trim_start_matches("progress "))
        })
        .map(|(_, text)| text)
        .collect();
    let code = u8::from(!outcome.verdict.is_holds());
    if let Some(path) = &args.html {
        let title = format!(
            "{}: progress",
            crate::html::question(&args.components, args.target.as_deref())
        );
        crate::html::write(checker.progress_report(&outcome, &title), None, path)?;
    }
    if args.format == Format::Json {
        let mut v = serde_json::to_value(&outcome)
            .unwrap_or_else(|e| json!({"error": {"message": e.to_string()}}));
        v["warnings"] = json!(warnings);
        v["not_checked"] = json!(not_checked);
        outln!("{v}");
    } else {
        print_text(&outcome, &not_checked);
    }
    Ok(ExitCode::from(code))
}

/// LTSA's wording, one item a line.
fn print_text(outcome: &ProgressOutcome, not_checked: &[String]) {
    let tests = if outcome.tests.is_empty() {
        "the default progress property (every action)".to_owned()
    } else {
        format!("progress {}", outcome.tests.join(", "))
    };
    match &outcome.verdict {
        ProgressVerdict::Holds => outln!("holds: no progress violations ({tests})"),
        ProgressVerdict::Violated(v) => {
            let what = outcome.violated.as_deref().unwrap_or("progress");
            outln!("violated: {what}");
            if !v.missing.is_empty() {
                outln!(
                    "progress violation for actions: {{{}}}",
                    v.missing.join(", ")
                );
            }
            outln!("trace to terminal set of states: {}", shown(&v.trace));
            if v.deadlock {
                outln!("the terminal set is a deadlock (no transitions)");
            } else {
                outln!("cycle in terminal set: {}", shown(&v.cycle));
            }
            outln!("actions in terminal set: {{{}}}", v.actions.join(", "));
        }
        ProgressVerdict::Unsafe(cex) => {
            let what = outcome.violated.as_deref().unwrap_or("a safety violation");
            outln!("violated: {what} (a safety violation: progress is checked once safety holds)");
            outln!("trace: {}", shown(&cex.trace));
        }
        _ => outln!("unknown"),
    }
    outln!(
        "checked {tests} by {}: {} states, {} transitions, {} terminal sets, {:.3} s",
        outcome.method,
        outcome.states,
        outcome.transitions,
        outcome.terminal_sets,
        outcome.elapsed.as_secs_f64()
    );
    if !not_checked.is_empty() {
        outln!("not checked: {}", not_checked.join(", "));
    }
}

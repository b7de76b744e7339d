//! `check --assert NAME`: LTSA's Check > LTL property (the facade's
//! [`guarantor::Checker::check_assertion`]) on an FSP model.
//!
//! A safety assertion is checked as a property by `--method` (any method); another by the
//! Büchi automaton of its negation under fair choice, with a lasso counterexample. Exit codes as
//! for a safety check: 0 the assertion holds, 1 violated (or an `ERROR` met first), 2 bad input
//! (an unknown assertion, `.aut` input), 3 a budget.

use std::process::ExitCode;

use guarantor::assertion::{AssertOutcome, LtlVerdict, assertion_of};
use guarantor::{Checker, MethodKind, registry};
use serde_json::{Value, json};

use crate::output::{shown, warnings_json};
use crate::stdout::outln;
use crate::{
    CheckArgs, Failure, MethodChoice, display_name, fsp_input, input_error, load, load_fsp_with,
    methods,
};

/// Checks the assertion `name` of the FSP model of `args`.
pub(crate) fn run(
    args: &CheckArgs,
    name: &str,
    config: &guarantor::compose::Config,
    warnings: &mut Vec<Value>,
) -> Result<ExitCode, Failure> {
    let Some(path) = fsp_input(&args.components)? else {
        return Err(input_error(anyhow::anyhow!(
            "--assert needs an FSP model (its fluent and assert definitions)"
        )));
    };
    let system = load_fsp_with(path, args.target.as_deref(), args.quiet, &args.consts)?;
    *warnings = warnings_json(&system.warnings);
    let ltl = assertion_of(&system, name).map_err(crate::classify)?;
    let mut checker = Checker::from_fsp(&system, config).map_err(crate::classify)?;
    for path in &args.properties {
        checker = checker.property(display_name(path), load(path, args.lenient)?);
    }
    let checker = match &args.method {
        MethodChoice::Kind(MethodKind::Monolithic) => checker,
        MethodChoice::Kind(kind) => {
            let method = methods::method_of(*kind, args, &checker)?;
            checker.with_method(method)
        }
        MethodChoice::Registry(m) => match registry::method_named(m) {
            Some(method) => checker.with_method(method),
            None => return Err(input_error(anyhow::anyhow!("unknown method {m:?}"))),
        },
    };
    let (config, progress) =
        crate::progress::Progress::start(config.clone(), args.method.name(), args.quiet);
    let checker = checker.config(config);
    let outcome = checker.check_assertion(name, &ltl);
    drop(progress);
    let outcome = outcome.map_err(crate::classify)?;
    // What the file declares that this check did not cover: the other assertions, the fluents
    // the formula does not use, progress tests and the like.
    let own = format!("assert {name}");
    let used: Vec<String> = ltl
        .props()
        .iter()
        .filter_map(|p| match p {
            guarantor::assertion::Prop::Fluent(f) => Some(f.name.clone()),
            _ => None,
        })
        .collect();
    let not_checked: Vec<String> = system
        .unchecked
        .iter()
        .filter(|u| {
            let covered = u.keyword == "fluent"
                && used
                    .iter()
                    .any(|f| *f == u.name || f.starts_with(&format!("{}.", u.name)));
            !covered && u.to_string() != own
        })
        .map(ToString::to_string)
        .collect();
    let code = u8::from(!outcome.holds());
    if let Some(path) = &args.html {
        let title = format!(
            "{}: assert {name}",
            crate::html::question(&args.components, args.target.as_deref())
        );
        crate::html::write(checker.assertion_report(&outcome, &title), None, path)?;
    }
    if args.format == crate::Format::Json {
        let mut v = to_json(&outcome);
        v["warnings"] = json!(warnings);
        v["not_checked"] = json!(not_checked);
        outln!("{v}");
    } else {
        print_text(&outcome, &not_checked);
    }
    Ok(ExitCode::from(code))
}

/// The JSON object (docs/formats.md, "An assertion check").
fn to_json(o: &AssertOutcome) -> Value {
    let (counterexample, cycle, violation) = match &o.verdict {
        LtlVerdict::Violated(l) if o.safety => (json!(l.prefix), Value::Null, json!("assert")),
        LtlVerdict::Violated(l) => (json!(l.prefix), json!(l.cycle), json!("assert")),
        LtlVerdict::Unsafe(t) => (json!(t), Value::Null, json!("safety")),
        _ => (Value::Null, Value::Null, Value::Null),
    };
    json!({
        "verdict": if o.holds() { "holds" } else { "violated" },
        "check": "assert",
        "assertion": o.name,
        "safety": o.safety,
        "by_progress": o.by_progress,
        "method": o.method,
        "counterexample": counterexample,
        "cycle": cycle,
        "violation": violation,
        "violated": o.violated,
        "states": o.states,
        "seconds": o.elapsed.as_secs_f64(),
    })
}

fn print_text(o: &AssertOutcome, not_checked: &[String]) {
    let route = if o.safety {
        format!("as a safety property by {}", o.method)
    } else if o.by_progress {
        format!("by the progress test of its actions, by {}", o.method)
    } else {
        "by its Büchi automaton under fair choice".to_owned()
    };
    match &o.verdict {
        LtlVerdict::Holds => outln!("holds: assert {}", o.name),
        LtlVerdict::Violated(l) if o.safety => {
            outln!("violated: assert {}", o.name);
            outln!("trace: {}", shown(&l.prefix));
        }
        LtlVerdict::Violated(l) => {
            outln!("violated: assert {}", o.name);
            outln!("trace: {}", shown(&l.prefix));
            if l.cycle.is_empty() {
                outln!("then the run stops (a deadlock or END)");
            } else {
                outln!("cycle: {}", shown(&l.cycle));
            }
        }
        LtlVerdict::Unsafe(t) => {
            let what = o.violated.as_deref().unwrap_or("a safety violation");
            outln!(
                "violated: {what} (a safety violation: the assertion is checked once safety holds)"
            );
            outln!("trace: {}", shown(t));
        }
        _ => outln!("unknown"),
    }
    outln!(
        "checked assert {} {route}: {} states, {:.3} s",
        o.name,
        o.states,
        o.elapsed.as_secs_f64()
    );
    if !not_checked.is_empty() {
        outln!("not checked: {}", not_checked.join(", "));
    }
}

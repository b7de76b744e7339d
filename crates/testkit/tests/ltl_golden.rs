//! Golden test against LTSA's LTL check: every `assert:*` row of
//! `crates/fsp/tests/data/expected-progress.tsv` (LTSA's own results, see expected-progress.md
//! beside it; copied from ../shared/benchmarks/expected-progress.tsv) is checked with the facade's
//! `Checker::check_assertion` and compared with LTSA's answer, `pass` and `violated` exactly.
//! Safety assertions run as property automata through the monolithic method, the others through
//! the Büchi automaton of their negation under fair choice; every counterexample has been
//! replayed by the facade. `LTL_GOLDEN_ROWS=<substring>` narrows a run to the rows whose
//! `file composite assertion` contains it; `--nocapture` shows each row's answer and time.

use std::path::{Path, PathBuf};

use guarantor::assertion::{LtlVerdict, assertion_of};
use guarantor::compose::Config;
use guarantor::{Checker, model};

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fsp/tests/data")
}

/// The `assert:*` rows: file, composite, assertion, LTSA's result.
fn rows() -> Vec<(String, String, String, String)> {
    let text = std::fs::read_to_string(data_dir().join("expected-progress.tsv")).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("folder\t"))
        .filter_map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            let name = f[3].strip_prefix("assert:")?;
            Some((
                f[1].to_owned(),
                f[2].to_owned(),
                name.to_owned(),
                f[4].to_owned(),
            ))
        })
        .collect()
}

#[test]
fn ltl_rows_match_ltsa() {
    assert_eq!(run(None), 47);
}

/// The same rows with `auto` as the checker's method (issue 25): safety assertions go through the
/// portfolio, and every row is answered as LTSA answers it.
#[test]
fn ltl_rows_match_ltsa_through_auto() {
    assert_eq!(run(Some("auto")), 47);
}

/// Checks every row (or those `LTL_GOLDEN_ROWS` names) with the default method or the registry's
/// `method`; returns how many matched LTSA.
fn run(method: Option<&str>) -> usize {
    let mut matched = 0;
    let mut failures = Vec::new();
    let rows = rows();
    let only = std::env::var("LTL_GOLDEN_ROWS").unwrap_or_default();
    for (file, composite, name, ltsa) in &rows {
        if !format!("{file} {composite} {name}").contains(only.as_str()) {
            continue;
        }
        let started = std::time::Instant::now();
        let path = data_dir().join(file);
        let source = std::fs::read_to_string(&path).unwrap();
        let system = model::parse_fsp(&source, file, Some(composite)).unwrap();
        let mut checker = Checker::from_fsp(&system, &Config::default()).unwrap();
        if let Some(name) = method {
            checker = checker.with_method(guarantor::registry::method_named(name).unwrap());
        }
        let ltl = assertion_of(&system, name).unwrap();
        let outcome = checker.check_assertion(name, &ltl).unwrap();
        let ours = match &outcome.verdict {
            LtlVerdict::Holds => "pass",
            LtlVerdict::Violated(_) => "violated",
            LtlVerdict::Unsafe(_) => "safety-violation",
            _ => "?",
        };
        eprintln!(
            "{composite} {name}: {ours} in {:?} ({} states)",
            started.elapsed(),
            outcome.states
        );
        if ours == ltsa {
            matched += 1;
        } else {
            failures.push(format!(
                "{file} {composite} {name}: LTSA {ltsa}, we {ours} ({}: {:?})",
                if outcome.safety { "safety" } else { "buchi" },
                outcome.verdict
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} rows differ:\n{}",
        failures.len(),
        rows.len(),
        failures.join("\n")
    );
    matched
}

//! Every method of the registry, and the facade example's user-defined one, gives the monolithic
//! verdict on the safety assertions of the shared models (issue 16): a safety `assert` is compiled
//! into a property LTS, so the compositional methods check fluent LTL too. The cases are the
//! `assert:*` rows of LTSA's expected-progress.tsv whose formula is a safety one and whose target
//! has no priority (compositional methods refuse a prioritised system); LTSA's answer is the
//! expected verdict. A (case, method) pair that runs out of its budget is counted, not failed.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use guarantor::assertion::{LtlVerdict, assertion_of};
use guarantor::compose::Config;
use guarantor::ltl::is_safety;
use guarantor::registry::BUILTIN;
use guarantor::{Checker, Method, model};

#[allow(dead_code)] // its `main` is the example's, not ours
#[path = "../../guarantor/examples/custom_method.rs"]
mod custom_method;

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fsp/tests/data")
}

/// The models whose rows run only in the ignored heavy test (a few minutes in debug: the
/// learning methods on `DatabaseRing`'s products).
const HEAVY: &str = "DatabaseRing.lts";

#[test]
fn every_method_agrees_on_safety_assertions() {
    assert_eq!(run(false), 9);
}

/// `cargo test --release -p guarantor-testkit --test ltl_methods -- --ignored`
#[test]
#[ignore = "heavy: the learning methods on DatabaseRing take minutes in debug"]
fn every_method_agrees_on_heavy_safety_assertions() {
    assert_eq!(run(true), 6);
}

/// Runs the light or the heavy cases; returns how many there were.
fn run(heavy: bool) -> usize {
    let text = std::fs::read_to_string(data_dir().join("expected-progress.tsv")).unwrap();
    let mut methods: Vec<(String, Arc<dyn Method>)> = BUILTIN
        .iter()
        .map(|e| (e.name.to_owned(), e.make()))
        .collect();
    methods.push(("minimised".to_owned(), Arc::new(custom_method::Minimised)));
    let (mut cases, mut runs, mut budget) = (0, 0, 0);
    let mut wrong = Vec::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("folder\t"))
    {
        let f: Vec<&str> = line.split('\t').collect();
        let Some(name) = f[3].strip_prefix("assert:") else {
            continue;
        };
        let source = std::fs::read_to_string(data_dir().join(f[1])).unwrap();
        let system = model::parse_fsp(&source, f[1], Some(f[2])).unwrap();
        let ltl = assertion_of(&system, name).unwrap();
        if !is_safety(&ltl) || system.priority.is_some() || f[1].ends_with(HEAVY) != heavy {
            continue;
        }
        cases += 1;
        let holds = f[4] == "pass";
        for (m, method) in &methods {
            let config = Config::default().with_timeout(Duration::from_secs(20));
            let checker = Checker::from_fsp(&system, &config)
                .unwrap()
                .with_method(method.clone());
            match checker.check_assertion(name, &ltl) {
                Ok(out) => {
                    runs += 1;
                    let ok = out.holds() == holds && !matches!(out.verdict, LtlVerdict::Unsafe(_));
                    if !ok {
                        wrong.push(format!(
                            "{} {} {name} with {m}: {:?}",
                            f[1], f[2], out.verdict
                        ));
                    }
                }
                Err(e) if e.is_budget() => budget += 1,
                Err(e) => wrong.push(format!("{} {} {name} with {m}: error {e}", f[1], f[2])),
            }
        }
    }
    eprintln!("{cases} safety assertions, {runs} runs agree, {budget} out of budget");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    cases
}

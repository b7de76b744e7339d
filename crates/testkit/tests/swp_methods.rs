//! Every method of the facade on the sliding window protocol (`benchmarks/swp`, the quotient
//! paper's benchmark) at its smallest size, N = 2 colours: each must give the verdict that
//! `benchmarks/families.tsv` expects for the property (A, B, C hold; D is violated), and a
//! counterexample must replay. The quotient method replaces the receiver, as in the paper.
//!
//! Each (property, method) pair runs under a time budget; a pair known to run out is listed in
//! `SLOW` with the reason, so that a method getting slower fails here instead of hiding. The
//! full quotient refinement is one of those on C, so the quotient method also runs with a
//! bounded number of refinement steps on every property: its assumption is then coarser but
//! still sound and invertible, and the verdict must be the same.

use std::time::{Duration, Instant};

use guarantor::compose::Config;
use guarantor::fsp::parse;
use guarantor::lts::ComponentId;
use guarantor::quotient::{Quotient, QuotientConfig};
use guarantor::{Checker, MethodKind};
use guarantor_testkit::{check_verdict_evidence, workspace_root};

/// The size checked: the smallest with a colour besides white.
const N: usize = 2;

/// Per (property, method): generous for debug builds on a loaded 2-core machine.
const BUDGET: Duration = Duration::from_secs(20);

/// Refinement steps allowed in the bounded quotient run.
const QUOTIENT_STEPS: usize = 10;

/// (target, method, why) known to exceed `BUDGET` in a debug build at N = 2.
const SLOW: &[(&str, &str, &str)] = &[
    (
        "SYS_A",
        "lstar-sym",
        "rule SYM learns one assumption per component over every shared action: still running at 60 s in a release build",
    ),
    (
        "SYS_C",
        "lstar",
        "the learned assumption has 96 states (C watches the receiver's input, so the assumption must track the sender side's messages): 1.6 s in a release build, over 20 s in debug",
    ),
    (
        "SYS_C",
        "lstar-nway",
        "its first assumption is lstar's 96-state one: 2 s in a release build, over 20 s in debug",
    ),
    (
        "SYS_C",
        "quotient",
        "the refinement of the sender side takes 519 steps to separate what the receiver has received: 1-2 s in a release build, over 20 s in debug (A, 703 steps, takes about 13 s in debug)",
    ),
];

fn is_slow(target: &str, method: &str) -> Option<&'static str> {
    SLOW.iter()
        .find(|(t, m, _)| *t == target && *m == method)
        .map(|(_, _, why)| *why)
}

/// The swp rows of `benchmarks/families.tsv`: (target, expected verdict).
fn rows() -> Vec<(String, String)> {
    let path = workspace_root().join("benchmarks/families.tsv");
    let text = std::fs::read_to_string(&path).expect("benchmarks/families.tsv is readable");
    text.lines()
        .map(str::split_whitespace)
        .filter_map(|mut cols| match (cols.next(), cols.next(), cols.next()) {
            (Some("swp"), Some(target), Some(expected)) => {
                Some((target.to_owned(), expected.to_owned()))
            }
            _ => None,
        })
        .collect()
}

/// The model at size `N`, as the scripts generate it.
fn model() -> String {
    let path = workspace_root().join("benchmarks/swp/swp.lts");
    let text = std::fs::read_to_string(&path).expect("benchmarks/swp/swp.lts is readable");
    let lines: Vec<String> = text
        .lines()
        .map(|l| {
            if l.starts_with("const N = ") {
                format!("const N = {N}")
            } else {
                l.to_owned()
            }
        })
        .collect();
    assert!(lines.iter().any(|l| l == &format!("const N = {N}")));
    lines.join("\n")
}

fn checker(text: &str, target: &str, method: MethodKind, max_steps: Option<usize>) -> Checker {
    let system = parse(text, "swp.lts")
        .and_then(|m| m.elaborate(target))
        .unwrap_or_else(|e| panic!("swp {target}: {e}"));
    let checker = Checker::from_fsp(&system, &Config::default())
        .unwrap_or_else(|e| panic!("swp {target} builds: {e}"));
    let receiver = checker
        .components()
        .position(|(name, _)| name == "RECEIVER")
        .expect("a component named RECEIVER");
    // The quotient replaces the receiver (in at most `max_steps` refinement steps); every other
    // method with its defaults.
    let checker = if method == MethodKind::Quotient {
        let mut settings = QuotientConfig::new();
        if let Some(k) = max_steps {
            settings = settings.with_max_steps(k);
        }
        checker.with_method(
            Quotient::new()
                .with_config(settings)
                .with_component(ComponentId::must(receiver)),
        )
    } else {
        checker.method(method)
    };
    checker.config(Config::default().with_timeout(BUDGET))
}

fn run(text: &str, target: &str, expected: &str, method: MethodKind, max_steps: Option<usize>) {
    let label = match max_steps {
        None => format!("swp {target} N={N} with {}", method.name()),
        Some(k) => format!(
            "swp {target} N={N} with {} (at most {k} steps)",
            method.name()
        ),
    };
    let checker = checker(text, target, method, max_steps);
    let started = Instant::now();
    let outcome = checker
        .check()
        .unwrap_or_else(|e| panic!("{label}: {e} after {:?}", started.elapsed()));
    eprintln!("{label}: {:?}", started.elapsed());
    let got = if outcome.verdict.is_holds() {
        "holds"
    } else {
        "violated"
    };
    assert_eq!(got, expected, "{label}");
    let components: Vec<_> = checker.components().map(|(_, l)| l).collect();
    let properties: Vec<_> = checker.properties().map(|(_, l)| l).collect();
    check_verdict_evidence(&components, &properties, &outcome.verdict)
        .unwrap_or_else(|e| panic!("{label}: {e}"));
}

#[test]
fn every_method_gives_the_expected_verdict_on_swp() {
    let rows = rows();
    let targets: Vec<&str> = rows.iter().map(|(t, _)| t.as_str()).collect();
    assert_eq!(
        targets,
        ["SYS_A", "SYS_B", "SYS_C", "SYS_D"],
        "the swp rows"
    );
    let text = model();
    for (target, expected) in &rows {
        for (method, _) in MethodKind::all() {
            if let Some(why) = is_slow(target, method.name()) {
                eprintln!("swp {target} with {}: skipped ({why})", method.name());
                continue;
            }
            run(&text, target, expected, method, None);
        }
        run(
            &text,
            target,
            expected,
            MethodKind::Quotient,
            Some(QUOTIENT_STEPS),
        );
    }
}

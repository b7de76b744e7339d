//! The benchmark families of `benchmarks/` (listed in `benchmarks/families.tsv`) at their small
//! sizes: every family and variant loads, and the monolithic checker gives the expected verdict;
//! every other method gives it too at the smallest size, or runs out of a short time budget.
//! If `spin` is installed, SPIN's verifier built from the Promela twin must agree (at the largest
//! small size of each variant, as every SPIN run costs a compile) on the verdict
//! and, where both searches explore the whole product (holds, deadlock), on the state count — the
//! twins are written so that one FSP transition is one SPIN transition.
//!
//! Large sizes and timings belong to `benches/compare/spin.sh`, not here.

use std::path::{Path, PathBuf};
use std::process::Command;

use guarantor::Checker;
use guarantor::fsp::{System, parse};
use guarantor_testkit::workspace_root;

/// One line of `benchmarks/families.tsv`.
#[derive(Debug)]
struct Row {
    family: String,
    target: String,
    expected: String,
    spin_flag: Option<String>,
    small: Vec<usize>,
}

fn manifest() -> Vec<Row> {
    let path = workspace_root().join("benchmarks/families.tsv");
    let text = std::fs::read_to_string(&path).expect("benchmarks/families.tsv is readable");
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|line| {
            let cols: Vec<&str> = line.split_whitespace().collect();
            assert_eq!(cols.len(), 6, "six columns in {line:?}");
            Row {
                family: cols[0].to_owned(),
                target: cols[1].to_owned(),
                expected: cols[2].to_owned(),
                spin_flag: (cols[3] != "-").then(|| cols[3].to_owned()),
                small: cols[4]
                    .split(',')
                    .map(|n| n.parse().expect("a size is a number"))
                    .collect(),
            }
        })
        .collect()
}

/// The family's FSP model with `const N = n`, as the scripts generate it.
fn generate(family: &str, n: usize) -> String {
    let path = workspace_root().join(format!("benchmarks/{family}/{family}.lts"));
    let text = std::fs::read_to_string(&path).expect("the family's model is readable");
    let mut replaced = 0;
    let lines: Vec<String> = text
        .lines()
        .map(|l| {
            if l.starts_with("const N = ") {
                replaced += 1;
                format!("const N = {n}")
            } else {
                l.to_owned()
            }
        })
        .collect();
    assert_eq!(replaced, 1, "{family}: exactly one `const N = ` line");
    lines.join("\n")
}

/// The variant's target at size `n`, parsed and elaborated.
fn system(row: &Row, n: usize) -> System {
    let text = generate(&row.family, n);
    let model = parse(&text, &format!("{}.lts", row.family))
        .unwrap_or_else(|e| panic!("{} N={n} parses: {e}", row.family));
    model
        .elaborate(&row.target)
        .unwrap_or_else(|e| panic!("{} {} N={n} elaborates: {e}", row.family, row.target))
}

/// Our verdict (holds / violated / deadlock) and the number of states the check explored.
fn ours(row: &Row, n: usize) -> (String, usize) {
    let system = system(row, n);
    let checker = Checker::from_fsp(&system, &guarantor::compose::Config::default())
        .unwrap_or_else(|e| panic!("{} {} N={n} builds: {e}", row.family, row.target));
    if !checker.has_safety_check() {
        // Only deadlocks to find (dining CLASSIC; a safety check would have nothing to check):
        // the verdict from the deadlock search, the states of the whole product, as SPIN counts
        // them running past the first invalid end state.
        let deadlock = checker.find_deadlock().expect("no budget").is_some();
        let product =
            guarantor::model::compose_fsp(&system, &guarantor::compose::Config::default())
                .unwrap_or_else(|e| panic!("{} {} N={n} composes: {e}", row.family, row.target));
        let verdict = if deadlock { "deadlock" } else { "holds" };
        return (verdict.to_owned(), product.num_states());
    }
    let outcome = checker
        .check()
        .unwrap_or_else(|e| panic!("{} {} N={n}: {e}", row.family, row.target));
    let verdict = if !outcome.verdict.is_holds() {
        "violated"
    } else if row.expected == "deadlock" && checker.find_deadlock().expect("no budget").is_some() {
        "deadlock"
    } else {
        "holds"
    };
    (verdict.to_owned(), outcome.states)
}

fn spin_installed() -> bool {
    Command::new("spin")
        .arg("-V")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Runs `cmd` in `dir`, panicking with its output if it fails.
fn run(dir: &Path, cmd: &mut Command) -> String {
    let out = cmd.current_dir(dir).output().expect("the command starts");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{cmd:?} failed: {text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

/// SPIN's verdict and stored-state count. A deadlock variant runs on past the first error (-c0)
/// so that the count covers the whole product, as ours does.
fn spin(row: &Row, n: usize, scratch: &Path) -> (String, usize) {
    let dir: PathBuf = scratch.join(format!("{}-{}-{n}", row.family, row.target));
    std::fs::create_dir_all(&dir).expect("scratch directory");
    let pml = workspace_root().join(format!("benchmarks/{0}/{0}.pml", row.family));
    std::fs::copy(&pml, dir.join("model.pml")).expect("the Promela twin is readable");
    let mut spin = Command::new("spin");
    spin.arg(format!("-DN={n}"));
    if let Some(flag) = &row.spin_flag {
        spin.arg(flag);
    }
    run(&dir, spin.args(["-a", "model.pml"]));
    // -O0: this test is about agreement, and compiling at -O2 costs more than the search.
    run(
        &dir,
        Command::new("gcc").args(["-w", "-O0", "-DSAFETY", "-o", "pan", "pan.c"]),
    );
    let stop = if row.expected == "deadlock" {
        "-c0"
    } else {
        "-c1"
    };
    let out = run(&dir, Command::new("./pan").args(["-m1000000", stop]));
    let states = out
        .lines()
        .find(|l| l.contains("states, stored"))
        .and_then(|l| l.split_whitespace().next())
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no state count in pan's output:\n{out}"));
    assert!(!out.contains("max search depth too small"), "{out}");
    let has = |what: &str| {
        out.lines()
            .any(|l| l.starts_with("pan:") && l.contains(what))
    };
    let verdict = if has("assertion violated") {
        "violated"
    } else if has("invalid end state") {
        "deadlock"
    } else {
        assert!(out.contains("errors: 0"), "{out}");
        "holds"
    };
    (verdict.to_owned(), states)
}

#[test]
fn every_family_gives_its_expected_verdict_and_spin_agrees() {
    let rows = manifest();
    let families: std::collections::BTreeSet<_> = rows.iter().map(|r| r.family.as_str()).collect();
    assert!(families.len() >= 5, "families lost: {families:?}");
    for expected in ["holds", "violated", "deadlock"] {
        assert!(
            rows.iter().any(|r| r.expected == expected),
            "no variant expects {expected}"
        );
    }
    let with_spin = spin_installed();
    if !with_spin {
        println!(
            "spin is not installed: skipping the SPIN agreement checks (apt-get install spin)"
        );
    }
    let scratch = std::env::temp_dir().join(format!("guarantor-families-{}", std::process::id()));
    for row in &rows {
        for &n in &row.small {
            let (verdict, states) = ours(row, n);
            assert_eq!(verdict, row.expected, "{} {} N={n}", row.family, row.target);
            // One SPIN run per variant (the largest small size): each costs a gcc compile.
            if !with_spin || Some(&n) != row.small.iter().max() {
                continue;
            }
            let (spin_verdict, spin_states) = spin(row, n, &scratch);
            assert_eq!(
                spin_verdict, verdict,
                "SPIN disagrees on {} {} N={n}",
                row.family, row.target
            );
            if verdict != "violated" {
                assert_eq!(
                    spin_states, states,
                    "SPIN's state count on {} {} N={n}",
                    row.family, row.target
                );
            }
        }
    }
    let _ = std::fs::remove_dir_all(&scratch);
}

/// How long one compositional method may run on one variant in this (debug-build) test. Larger
/// budgets and sizes are `benches/compare/methods.sh`'s job.
const METHOD_BUDGET: std::time::Duration = std::time::Duration::from_secs(3);

#[test]
fn every_method_gives_the_expected_verdict_or_runs_out_of_budget() {
    use guarantor::MethodKind;
    let mut answered: std::collections::BTreeMap<&str, usize> = std::collections::BTreeMap::new();
    let mut budget = Vec::new();
    // Deadlocks are a monolithic analysis: the compositional methods check safety properties.
    for row in manifest().iter().filter(|r| r.expected != "deadlock") {
        let n = *row.small.iter().min().expect("a small size");
        let system = system(row, n);
        for (method, name) in MethodKind::all().filter(|(m, _)| *m != MethodKind::Monolithic) {
            // `from_fsp` keeps the config, so the budget bounds the check itself.
            let config = guarantor::compose::Config::default().with_timeout(METHOD_BUDGET);
            let checker = Checker::from_fsp(&system, &config)
                .unwrap_or_else(|e| panic!("{} {} N={n} builds: {e}", row.family, row.target))
                .method(method);
            let started = std::time::Instant::now();
            let result = checker.check();
            println!(
                "{name} on {} {} N={n}: {:.1} s",
                row.family,
                row.target,
                started.elapsed().as_secs_f64()
            );
            match result {
                Ok(outcome) => {
                    let verdict = if outcome.verdict.is_holds() {
                        "holds"
                    } else {
                        "violated"
                    };
                    assert_eq!(
                        verdict, row.expected,
                        "{name} on {} {} N={n}",
                        row.family, row.target
                    );
                    *answered.entry(name).or_default() += 1;
                }
                Err(e) if e.is_budget() => {
                    budget.push(format!("{name} on {} {} N={n}", row.family, row.target));
                }
                Err(e) => panic!("{name} on {} {} N={n}: {e}", row.family, row.target),
            }
        }
    }
    println!("answered per method: {answered:?}");
    println!("out of the {METHOD_BUDGET:?} budget: {budget:#?}");
    // A method that answers nothing at all is broken, not slow.
    for (method, name) in MethodKind::all() {
        assert!(
            method == MethodKind::Monolithic || answered.get(name).is_some_and(|&k| k > 0),
            "{name} answered no family variant: {budget:#?}"
        );
    }
}

//! LTSA's verdict table (`crates/fsp/tests/data/expected-counts.csv`, LTSA's Check Safety on 238
//! composites: property violation, deadlock, or neither) answered through the facade with `auto`
//! (issue 25): the portfolio asks the default question (properties and deadlock) in its phases,
//! and every light row gets the verdict `mono` gives. `mono`'s own agreement with LTSA, counts
//! included, is fsp's golden test; here the rows where `mono` differs from LTSA (the known
//! artefacts of the table, listed in fsp's golden test) are counted, not compared.

use std::path::{Path, PathBuf};
use std::time::Duration;

use guarantor::compose::{Config, Verdict, Violation};
use guarantor::{Checker, model};

/// Rows above this many LTSA states are left to fsp's heavy golden test.
const LIGHT_LIMIT: usize = 20_000;

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fsp/tests/data")
}

/// One row: folder, file, composite, LTSA's states and verdict.
struct Row {
    path: PathBuf,
    file: String,
    composite: String,
    states: usize,
    verdict: String,
}

fn rows() -> Vec<Row> {
    let text = std::fs::read_to_string(data_dir().join("expected-counts.csv")).unwrap();
    text.lines()
        .skip(1)
        .filter_map(|line| {
            let f: Vec<&str> = line.splitn(7, ',').collect();
            Some(Row {
                path: data_dir().join(f[0]).join(f[1]),
                file: f[1].to_owned(),
                composite: f[2].to_owned(),
                states: f[3].parse().ok()?,
                verdict: f[5].to_owned(),
            })
        })
        .collect()
}

/// The table's words for a verdict of the default question.
fn answer(verdict: &Verdict) -> &'static str {
    match verdict {
        Verdict::Holds(_) => "no deadlock/violation",
        Verdict::Violated(cex) if matches!(cex.violation, Violation::Deadlock) => "deadlock",
        Verdict::Violated(_) => "ERROR reachable (property violation)",
        _ => "?",
    }
}

/// The verdict of `method` on a row, or why there is none.
fn verdict(row: &Row, method: &str) -> Result<&'static str, String> {
    let source = std::fs::read_to_string(&row.path).map_err(|e| e.to_string())?;
    let system =
        model::parse_fsp(&source, &row.file, Some(&row.composite)).map_err(|e| e.to_string())?;
    let config = Config::default().with_timeout(Duration::from_secs(60));
    let checker = Checker::from_fsp(&system, &config)
        .map_err(|e| e.to_string())?
        .config(config)
        .with_method(guarantor::registry::method_named(method).unwrap());
    match checker.check() {
        Ok(outcome) => Ok(answer(&outcome.verdict)),
        Err(e) => Err(e.to_string()),
    }
}

#[test]
fn ltsa_verdicts_through_auto() {
    let (mut agreed, mut artefacts) = (0, 0);
    let mut failures = Vec::new();
    for row in rows() {
        if row.states > LIGHT_LIMIT || row.verdict.is_empty() {
            continue;
        }
        let mono = verdict(&row, "mono");
        if mono.as_deref() != Ok(row.verdict.as_str()) {
            artefacts += 1;
            continue;
        }
        let auto = verdict(&row, "auto");
        if auto == mono {
            agreed += 1;
        } else {
            failures.push(format!(
                "{} {}: LTSA and mono {}, auto {auto:?}",
                row.file, row.composite, row.verdict
            ));
        }
    }
    eprintln!("{agreed} rows agreed, {artefacts} rows where mono differs from LTSA's table");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!((agreed, artefacts), (222, 2));
}

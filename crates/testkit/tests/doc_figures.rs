//! Issue 28, point 4: the figures the method guide and the README quote cannot drift from the
//! results. Every time in seconds that docs/methods.md or README.md quotes (`11.6 s`, `0.29 s`)
//! must be a value of some CSV under benchmarks/results/ at the precision quoted (11.63 is quoted
//! as `11.6 s` or `11.63 s`, never as `11.7 s`). A figure that is a setting rather than a
//! measurement (a `--timeout 60`'s `60 s`) is written with the setting beside it, and the
//! sentence says so with the word `budget` or `timeout` on its line, which exempts the line.
//!
//! docs/benchmarks.md is the results page the figures come from (with its notebook), so it is not
//! checked here; its length is (a results page read in five minutes).

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every number in every CSV of benchmarks/results/, as text (cells like `1.17 (1.02)` give two).
fn result_values() -> Vec<f64> {
    let dir = root().join("benchmarks/results");
    let mut values = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "csv") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        for cell in text.lines().flat_map(|l| l.split(',')) {
            values.extend(numbers(cell).into_iter().map(|(v, _)| v));
        }
    }
    values
}

/// The numbers in `text`, each with its count of decimals (`1,250,688` is one number: a comma
/// followed by three digits groups thousands).
fn numbers(text: &str) -> Vec<(f64, usize)> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let starts = bytes[i].is_ascii_digit() && (i == 0 || !is_word(bytes[i - 1]));
        if !starts {
            i += 1;
            continue;
        }
        let begin = i;
        loop {
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            let group = i + 3 < bytes.len()
                && bytes[i] == b','
                && bytes[i + 1..i + 4].iter().all(u8::is_ascii_digit)
                && bytes.get(i + 4).is_none_or(|b| !b.is_ascii_digit());
            if !group {
                break;
            }
            i += 1;
        }
        let mut decimals = 0;
        if i + 1 < bytes.len() && bytes[i] == b'.' && bytes[i + 1].is_ascii_digit() {
            i += 1;
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
                decimals += 1;
            }
        }
        let token = text[begin..i].replace(',', "");
        if let Ok(v) = token.parse::<f64>() {
            out.push((v, decimals));
        }
    }
    out
}

fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'.'
}

/// The times in seconds quoted in `text` (a number followed by ` s`), with their line, except on
/// lines that speak of a budget or a timeout.
fn quoted_seconds(text: &str) -> Vec<(usize, String, f64, usize)> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let lower = line.to_lowercase();
        if lower.contains("budget") || lower.contains("timeout") {
            continue;
        }
        let bytes = line.as_bytes();
        for (i, _) in line.match_indices(" s") {
            let after = bytes.get(i + 2).copied();
            if after.is_some_and(|b| b.is_ascii_alphanumeric()) {
                continue;
            }
            let before = &line[..i];
            let start = before
                .rfind(|c: char| !(c.is_ascii_digit() || c == '.'))
                .map_or(0, |p| p + 1);
            let figure = &before[start..];
            if figure.is_empty() || !figure.as_bytes()[0].is_ascii_digit() {
                continue;
            }
            if let Some(&(v, d)) = numbers(figure).first() {
                out.push((n + 1, figure.to_owned(), v, d));
            }
        }
    }
    out
}

/// Whether some result rounds to `v` at `decimals` decimals.
fn found(values: &[f64], v: f64, decimals: usize) -> bool {
    let scale = 10f64.powi(i32::try_from(decimals).unwrap_or(6));
    values
        .iter()
        .any(|&r| ((r * scale).round() - (v * scale).round()).abs() < 0.5)
}

/// The quoted figures of `text` that no result contains, as `file:line: figure s`.
fn missing(file: &str, text: &str, values: &[f64]) -> Vec<String> {
    quoted_seconds(text)
        .into_iter()
        .filter(|&(_, _, v, d)| !found(values, v, d))
        .map(|(line, figure, _, _)| format!("{file}:{line}: {figure} s"))
        .collect()
}

#[test]
fn every_time_the_method_guide_and_the_readme_quote_is_in_the_results() {
    let values = result_values();
    assert!(values.len() > 1000, "the results CSVs were not read");
    let mut all = Vec::new();
    for file in ["docs/methods.md", "README.md"] {
        let text = std::fs::read_to_string(root().join(file)).unwrap();
        assert!(
            !quoted_seconds(&text).is_empty() || file == "README.md",
            "{file} quotes no figure: the check would check nothing"
        );
        all.extend(missing(file, &text, &values));
    }
    assert!(
        all.is_empty(),
        "figures quoted but not in benchmarks/results/*.csv (measure them, or fix the quote):\n{}",
        all.join("\n")
    );
}

#[test]
fn the_check_catches_a_figure_the_results_do_not_have() {
    let values = [11.63, 0.29, 116.79];
    // Rounded at the precision quoted: found.
    assert!(missing("t", "mono 11.6 s, circ 0.29 s, SPIN side 117 s.", &values).is_empty());
    // Rounded the wrong way, or not measured at all: reported, with the line.
    let text = "first line\nmono took 11.7 s here and 15.2 s there.\n";
    assert_eq!(missing("t", text, &values), ["t:2: 11.7 s", "t:2: 15.2 s"]);
    // A budget is a setting, not a figure.
    assert!(missing("t", "a budget of 60 s per run", &values).is_empty());
}

#[test]
fn the_results_page_reads_in_five_minutes() {
    let text = std::fs::read_to_string(root().join("docs/benchmarks.md")).unwrap();
    let lines = text.lines().count();
    assert!(
        lines <= 300,
        "docs/benchmarks.md has {lines} lines: at most 300 (move dated or detailed material to docs/benchmarks/notebook/)"
    );
}

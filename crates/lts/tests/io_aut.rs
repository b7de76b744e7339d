//! Tests of the `.aut` reader on real LTSA exports and on a corpus of malformed files.
//!
//! The real files (`tests/data/ltsa-robust-lstar/`, see its `SOURCE.md`) are checked against their
//! own headers, read here with a deliberately naive line splitter so the oracle shares no code with
//! the reader. The malformed files (`tests/data/bad-aut/`) each have an expected line, column and
//! kind in [`BAD`], and their full diagnostics are snapshot-tested with insta.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use guarantor_lts::io::ParseErrorKind;
use guarantor_lts::io::aut::{
    AutFileError, AutReadOptions, parse_aut_bytes, read_aut_file, read_aut_file_with,
};

fn data(dir: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(dir)
}

fn files(dir: &str, ext: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = fs::read_dir(data(dir))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
    files.sort();
    files
}

/// What a file says about itself, read without the reader under test.
struct Naive {
    initial: i64,
    transitions: usize,
    states: usize,
    lines: Vec<String>,
}

fn naive(path: &Path) -> Naive {
    let text = fs::read_to_string(path).unwrap();
    let mut lines = text
        .lines()
        .map(|l| l.split_whitespace().collect::<String>())
        .filter(|l| !l.is_empty());
    let header = lines.next().unwrap();
    let nums: Vec<i64> = header
        .trim_start_matches("des(")
        .trim_end_matches(')')
        .split(',')
        .map(|n| n.parse().unwrap())
        .collect();
    Naive {
        initial: nums[0],
        transitions: usize::try_from(nums[1]).unwrap(),
        states: usize::try_from(nums[2]).unwrap(),
        lines: lines.collect(),
    }
}

/// Files whose headers disagree with their contents (see the data folder's SOURCE.md).
const INCONSISTENT: [&str; 2] = ["coffee_pruning_test.aut", "coffee_sys.aut"];

#[test]
fn ltsa_exports_load_with_their_header_counts() {
    let paths = files("ltsa-robust-lstar", "aut");
    assert_eq!(paths.len(), 18);
    for path in paths
        .iter()
        .filter(|p| !INCONSISTENT.iter().any(|n| p.ends_with(n)))
    {
        let lts = read_aut_file(path).unwrap_or_else(|e| panic!("{e}"));
        let n = naive(path);
        assert_eq!(n.lines.len(), n.transitions, "{}", path.display());
        let distinct: BTreeSet<&String> = n.lines.iter().collect();
        assert_eq!(lts.num_transitions(), distinct.len(), "{}", path.display());
        let uses_error = n
            .lines
            .iter()
            .any(|l| l.starts_with("(-1,") || l.ends_with(",-1)"));
        assert_eq!(
            lts.num_states(),
            n.states + usize::from(uses_error),
            "{}",
            path.display()
        );
        assert_eq!(
            lts.error_state().map(guarantor_lts::StateId::index),
            uses_error.then_some(n.states)
        );
        assert_eq!(i64::from(lts.initial().as_u32()), n.initial);
        let labels: BTreeSet<&str> = n
            .lines
            .iter()
            .map(|l| l.split(',').nth(1).unwrap())
            .collect();
        let alphabet: BTreeSet<&str> = lts.alphabet().iter().map(|(_, name)| name).collect();
        assert_eq!(alphabet, labels, "{}", path.display());
    }
}

#[test]
fn xray_property_has_its_error_transitions() {
    let lts = read_aut_file(&data("ltsa-robust-lstar").join("xray_PROPERTY.aut")).unwrap();
    let error = lts.error_state().unwrap();
    let into_error = lts.transitions().filter(|t| t.target == error).count();
    assert_eq!(into_error, 4);
    assert!(
        lts.transitions()
            .all(|t| lts.action_name(t.action) == "mFire" || t.target != error)
    );
}

#[test]
fn inconsistent_exports_are_rejected_strictly_and_load_leniently() {
    for name in INCONSISTENT {
        let path = data("ltsa-robust-lstar").join(name);
        let n = naive(&path);
        let err = match read_aut_file(&path) {
            Err(AutFileError::Parse(e)) => e,
            other => panic!("{name}: expected a parse error, got {other:?}"),
        };
        assert_eq!(err.kind(), ParseErrorKind::CountMismatch);
        assert_eq!(err.file(), Some(path.as_path()));
        // Too few lines: blame the header's count; too many: blame the first extra line.
        let expected_line = if n.lines.len() < n.transitions {
            1
        } else {
            n.transitions + 2
        };
        assert_eq!(err.line(), expected_line, "{name}: {err}");
        let opts = AutReadOptions::default().with_check_transition_count(false);
        let lts = read_aut_file_with(&path, &opts).unwrap();
        assert_eq!(lts.num_transitions(), n.lines.len());
        assert_eq!(lts.num_states(), n.states);
    }
}

#[test]
fn a_missing_file_is_an_io_error_naming_it() {
    let path = data("no-such-file.aut");
    match read_aut_file(&path) {
        Err(AutFileError::Io { path: p, .. }) => assert_eq!(p, path),
        other => panic!("expected an I/O error, got {other:?}"),
    }
}

/// Every malformed file: its name, and the expected line, column and kind of its error.
const BAD: &[(&str, usize, usize, ParseErrorKind)] = &[
    ("blank-lines-only.aut", 3, 1, ParseErrorKind::Syntax),
    ("control-characters.aut", 1, 1, ParseErrorKind::Syntax),
    ("duplicate-header.aut", 3, 1, ParseErrorKind::CountMismatch),
    ("empty-label.aut", 2, 5, ParseErrorKind::Syntax),
    ("empty.aut", 1, 1, ParseErrorKind::Syntax),
    ("extra-after-header.aut", 1, 12, ParseErrorKind::Syntax),
    ("extra-after-transition.aut", 2, 9, ParseErrorKind::Syntax),
    ("garbage-bytes.aut", 1, 1, ParseErrorKind::InvalidUtf8),
    ("header-missing-paren.aut", 1, 13, ParseErrorKind::Syntax),
    (
        "header-only-wrong-count.aut",
        1,
        9,
        ParseErrorKind::CountMismatch,
    ),
    (
        "initial-out-of-range.aut",
        1,
        5,
        ParseErrorKind::StateOutOfRange,
    ),
    ("invalid-utf8.aut", 2, 8, ParseErrorKind::InvalidUtf8),
    ("missing-close-paren.aut", 2, 7, ParseErrorKind::Syntax),
    ("missing-comma.aut", 2, 4, ParseErrorKind::Syntax),
    ("missing-header.aut", 1, 1, ParseErrorKind::Syntax),
    ("missing-label-comma.aut", 2, 7, ParseErrorKind::Syntax),
    ("negative-state.aut", 2, 6, ParseErrorKind::StateOutOfRange),
    (
        "number-beyond-u64.aut",
        1,
        9,
        ParseErrorKind::NumberOverflow,
    ),
    ("quote-in-bare-label.aut", 2, 8, ParseErrorKind::Syntax),
    ("state-beyond-u32.aut", 2, 6, ParseErrorKind::NumberOverflow),
    ("text-after-quoted-label.aut", 2, 8, ParseErrorKind::Syntax),
    ("too-many-states.aut", 1, 9, ParseErrorKind::Limit),
    (
        "too-many-transitions.aut",
        3,
        1,
        ParseErrorKind::CountMismatch,
    ),
    ("truncated-line.aut", 3, 5, ParseErrorKind::Syntax),
    ("two-transitions-one-line.aut", 2, 7, ParseErrorKind::Syntax),
    ("unknown-state.aut", 3, 6, ParseErrorKind::StateOutOfRange),
    ("unterminated-quote.aut", 2, 4, ParseErrorKind::Syntax),
];

#[test]
fn every_bad_file_fails_at_the_expected_place() {
    let names: Vec<String> = files("bad-aut", "aut")
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    let listed: Vec<&str> = BAD.iter().map(|b| b.0).collect();
    assert_eq!(
        names, listed,
        "every file of tests/data/bad-aut needs a row in BAD, in order"
    );
    assert!(names.len() >= 12);
    let mut wrong = Vec::new();
    for &(name, line, column, kind) in BAD {
        let bytes = fs::read(data("bad-aut").join(name)).unwrap();
        let err = parse_aut_bytes(&bytes, &AutReadOptions::default())
            .expect_err(name)
            .with_file(name);
        if (err.line(), err.column(), err.kind()) != (line, column, kind) {
            wrong.push(format!(
                "{name}: got {}:{} {:?}\n{err}",
                err.line(),
                err.column(),
                err.kind()
            ));
        }
        // Snapshots live with the test data (`tests/data/snapshots/`).
        let mut settings = insta::Settings::clone_current();
        settings.set_snapshot_path("data/snapshots");
        settings.bind(|| insta::assert_snapshot!(name.trim_end_matches(".aut"), err.to_string()));
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n\n"));
}

/// Measures the reader on a generated file of about 5 MB. Ignored by default (it is a measurement,
/// and debug builds are slow); run it with
/// `cargo test --release -p guarantor-lts --test io_aut -- --ignored --nocapture`.
#[test]
#[ignore = "measurement; run in release"]
fn a_five_megabyte_file_parses_quickly() {
    use std::fmt::Write as _;
    let (states, transitions) = (50_000usize, 250_000usize);
    let mut text = format!("des (0, {transitions}, {states})\n");
    for i in 0..transitions {
        let (from, to) = (i / 5, (i * 7 + 3) % states);
        let k = i % 40;
        let label = match i % 5 {
            0 => format!("send{k}"),
            1 => format!("ack{k}"),
            2 => format!("\"recv msg {k}\""),
            3 => "tau".to_owned(),
            _ => format!("data({k},2)"),
        };
        writeln!(text, "({from}, {label}, {to})").unwrap();
    }
    let start = std::time::Instant::now();
    let lts = guarantor_lts::io::aut::parse_aut(&text).unwrap();
    let elapsed = start.elapsed();
    println!(
        "parsed {} bytes in {elapsed:?} ({} states, {} transitions)",
        text.len(),
        lts.num_states(),
        lts.num_transitions()
    );
    assert_eq!(lts.num_transitions(), transitions);
    assert!(elapsed.as_secs_f64() < 1.0, "took {elapsed:?}");
}

#[test]
fn layout_is_free_and_minus_one_may_be_initial() {
    let text = "\u{feff}\r\n  des\t( -1 ,3,  1 )  \r\n\r\n\t( -1 , \"x \\\"y\\\"\" ,0)\r\n(0,  p(1, q(2))  , -1 )\r\n( 0 ,tau, 0 )\t\r\n\n";
    let lts = guarantor_lts::io::aut::parse_aut(text).unwrap();
    assert_eq!(lts.num_states(), 2);
    let error = lts.error_state().unwrap();
    assert_eq!((lts.initial(), error.index()), (error, 1));
    let names: BTreeSet<&str> = lts.alphabet().iter().map(|(_, n)| n).collect();
    assert_eq!(names, BTreeSet::from(["x \"y\"", "p(1, q(2))"]));
    assert!(lts.has_tau());
}

#[test]
fn file_errors_name_the_file_and_keep_the_location() {
    let path = data("bad-aut").join("invalid-utf8.aut");
    let Err(AutFileError::Parse(err)) = read_aut_file(&path) else {
        panic!("expected a parse error")
    };
    assert_eq!(
        (err.line(), err.column(), err.kind()),
        (2, 8, ParseErrorKind::InvalidUtf8)
    );
    assert!(
        err.to_string()
            .starts_with(&format!("{}:2:8: error: ", path.display()))
    );
}

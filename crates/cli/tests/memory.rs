//! The memory budget end to end (issue 30): `check --max-memory SIZE` stops every method on the
//! four budget cases of `benches/compare/budgets.sh` (gas 10, mer 12, dining 10, bakery 4) with
//! its peak resident set within 10 % of SIZE, and a run that stops says so: exit 3 and a JSON
//! `reason.kind` of `memory` (or `time`, for the runs a 30 s timeout ends first), with the
//! partial statistics. The peak is the kernel's high-water
//! mark of the child's resident set (`VmHWM`), not a count the program keeps.

#![cfg(target_os = "linux")]

mod common;

use std::process::{Command, Stdio};
use std::time::Duration;

use common::root;

/// What the runs may use: small enough that a debug build reaches it within seconds on every
/// case, large enough that the process's own start-up (about 10 MB) is a small part of it.
const LIMIT_MB: u64 = 64;

/// Every method of the registry.
const METHODS: [&str; 10] = [
    "mono",
    "lstar",
    "lstar-sym",
    "lstar-nway",
    "lstar-weakest",
    "quotient",
    "circ",
    "circ-neighbours",
    "reduce",
    "auto",
];

/// The four budget cases: (family, N).
const CASES: [(&str, i64); 4] = [("gas", 10), ("mer", 12), ("dining", 10), ("bakery", 4)];

/// Runs `guarantor ARGS` and returns its exit code, stdout and peak resident set in bytes: the
/// larger of the high-water mark (`VmHWM`) this test reads from `/proc/PID/status` while the child
/// runs and the one the child reports at its exit (`peak_rss_bytes`, read the same way).
fn run_measured(args: &[String]) -> (Option<i32>, String, u64) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_guarantor"))
        .current_dir(root())
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary runs");
    let status_path = format!("/proc/{}/status", child.id());
    let stdout = child.stdout.take().expect("piped");
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut { stdout }, &mut text).expect("stdout is text");
        text
    });
    let mut watched = 0u64;
    let status = loop {
        if let Some(status) = child.try_wait().expect("the child can be waited for") {
            break status;
        }
        if let Some(kb) = std::fs::read_to_string(&status_path)
            .ok()
            .and_then(|s| high_water_kb(&s))
        {
            watched = watched.max(kb * 1024);
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let text = reader.join().expect("the reader ends");
    let reported = serde_json::from_str::<serde_json::Value>(&text)
        .ok()
        .and_then(|v| v["peak_rss_bytes"].as_u64())
        .unwrap_or(0);
    (status.code(), text, watched.max(reported))
}

/// The `VmHWM` line of a `/proc/PID/status` text, in kB.
fn high_water_kb(status: &str) -> Option<u64> {
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line["VmHWM:".len()..]
        .trim()
        .strip_suffix("kB")?
        .trim()
        .parse()
        .ok()
}

fn check_args(family: &str, n: i64, extra: &[&str]) -> Vec<String> {
    let model = format!("benchmarks/{family}/{family}.lts");
    // The model first: `--progress` takes an optional value and would swallow it.
    let mut args: Vec<String> = [
        "check",
        &model,
        "--quiet",
        "--format",
        "json",
        "--no-deadlock",
        "--target",
        "SYS",
        // Some methods spend long in small memory (learning on a debug build): the time
        // budget ends those, and the memory they held is still checked.
        "--timeout",
        "30",
        "--max-memory",
    ]
    .iter()
    .map(ToString::to_string)
    .collect();
    args.push(format!("{LIMIT_MB}M"));
    args.push("--const".into());
    args.push(format!("N={n}"));
    args.extend(extra.iter().map(ToString::to_string));
    args
}

/// One run: within 10 % of the limit, and if it stopped, stopped on memory with its statistics.
fn assert_within(label: &str, args: &[String]) {
    let (code, stdout, peak) = run_measured(args);
    let limit = LIMIT_MB << 20;
    assert!(
        peak * 10 <= limit * 11,
        "{label}: peak {} MB over {LIMIT_MB} MB + 10 %",
        peak >> 20
    );
    match code {
        Some(0 | 1) => {}
        Some(3) => {
            let v: serde_json::Value = serde_json::from_str(&stdout).expect("one JSON object");
            assert_eq!(v["verdict"], "unknown", "{label}: {stdout}");
            let kind = &v["reason"]["kind"];
            assert!(kind == "memory" || kind == "time", "{label}: {stdout}");
            assert!(
                v["states"].is_u64(),
                "{label}: partial statistics: {stdout}"
            );
        }
        other => panic!("{label}: exit {other:?}: {stdout}"),
    }
}

#[test]
fn every_method_stops_within_ten_percent_of_the_memory_limit_on_the_budget_cases() {
    // The cases side by side (each child is measured on its own): a debug build takes a few
    // seconds per run to reach the limit.
    std::thread::scope(|scope| {
        for (family, n) in CASES {
            scope.spawn(move || {
                for method in METHODS {
                    let args = check_args(family, n, &["--method", method]);
                    assert_within(&format!("{family} N={n} {method}"), &args);
                }
            });
        }
    });
}

#[test]
fn the_other_searches_stop_within_ten_percent_too() {
    let runs: [(&str, &[&str]); 5] = [
        ("table store", &["--storage", "table"]),
        ("two threads", &["--threads", "2"]),
        (
            "table store, two threads",
            &["--storage", "table", "--threads", "2"],
        ),
        ("depth first", &["--search", "dfs"]),
        ("progress", &["--progress"]),
    ];
    for (label, extra) in runs {
        let args = check_args("gas", 10, extra);
        assert_within(&format!("gas N=10 {label}"), &args);
    }
}

#[test]
fn a_limit_below_the_start_up_stops_at_once_with_exit_three() {
    let mut args = check_args("gas", 3, &[]);
    let at = args.iter().position(|a| a == "--max-memory").unwrap();
    args[at + 1] = "1M".into();
    let (code, stdout, _) = run_measured(&args);
    assert_eq!(code, Some(3), "{stdout}");
    assert!(stdout.contains("\"memory\""), "{stdout}");
}

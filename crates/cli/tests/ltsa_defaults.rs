//! Issue 16: LTSA's defaults on FSP input. `check` searches for deadlocks as well as property
//! violations and ERROR states (LTSA's Check Safety), `--no-deadlock` turns it off, `.aut` input
//! keeps properties only; a check with nothing to check stops at once with exit code 2 whatever the
//! method; the verdict names the definitions it did not check.

mod common;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use common::{assert_exit, guarantor};

fn model(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("guarantor-ltsa-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// A property that holds, and a deadlock after `c`.
const DEADLOCKS: &str = "P = (a -> b -> P | c -> STOP).\nQ = (a -> b -> Q | c -> Q).\n\
    property SAFE = (a -> b -> SAFE).\n||S = (P || Q || SAFE).\n";

const METHODS: [&str; 7] = [
    "mono",
    "lstar",
    "lstar-sym",
    "lstar-nway",
    "quotient",
    "circ",
    "auto",
];

#[test]
fn fsp_check_reports_deadlocks_by_default_for_every_method() {
    let path = model("deadlocks.lts", DEADLOCKS);
    let path = path.to_str().unwrap();
    for method in METHODS {
        let out = guarantor(&["check", "-q", "--method", method, path]);
        assert_exit(&out, 1);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(stdout.starts_with("deadlock\n"), "{method}: {stdout}");
        assert!(stdout.contains("    c  [P, Q]\n"), "{method}: {stdout}");
        // The report lists what ran: a method that answers safety only is followed by a
        // deadlock phase of its own, printed under the `method` line (issue 25).
        // `auto` may do either: one member answering both, or a safety member and then the
        // deadlock phase of the portfolio itself.
        let phased = !matches!(method, "mono" | "auto" | "reduce" | "lstar");
        if method != "auto" {
            assert_eq!(
                stdout.contains(&format!("\n  safety: {method}, ")),
                phased,
                "{method}: {stdout}"
            );
        }
        assert!(
            method == "auto" || stdout.contains("\n  deadlock: ") == phased,
            "{method}: {stdout}"
        );
        let out = guarantor(&["check", "-q", "--no-deadlock", "--method", method, path]);
        assert_exit(&out, 0);
    }
}

/// A safety violation (after `b`) shallower than the deadlock (after `a`, `c`) is reported by
/// every method: the compositional ones search deadlocks only once the properties hold.
#[test]
fn a_violation_is_reported_before_a_deadlock() {
    let path = model(
        "both.lts",
        "P = (b -> P | a -> c -> STOP).\nQ = (a -> Q | b -> Q | c -> Q).\n\
         property SAFE = (a -> b -> SAFE).\n||S = (P || Q || SAFE).\n",
    );
    for method in METHODS {
        let out = guarantor(&["check", "-q", "--method", method, path.to_str().unwrap()]);
        assert_exit(&out, 1);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            stdout.starts_with("violated: property SAFE"),
            "{method}: {stdout}"
        );
    }
}

#[test]
fn aut_input_checks_properties_alone_unless_asked() {
    let dir = model("stop.aut", "des (0, 1, 2)\n(0, \"a\", 1)\n");
    let prop = model("any.aut", "des (0, 1, 1)\n(0, \"a\", 0)\n");
    let (dir, prop) = (dir.to_str().unwrap(), prop.to_str().unwrap());
    assert_exit(&guarantor(&["check", "-q", "-p", prop, dir]), 0);
    assert_exit(
        &guarantor(&["check", "-q", "--deadlock", "-p", prop, dir]),
        1,
    );
}

#[test]
fn nothing_to_check_stops_at_once_with_exit_2() {
    let path = model(
        "nothing.lts",
        "P = (a -> P | b -> P).\nQ = (a -> Q).\n||S = (P || Q).\n",
    );
    let path = path.to_str().unwrap();
    for method in METHODS {
        let start = Instant::now();
        let out = guarantor(&["check", "--no-deadlock", "--method", method, path]);
        assert_exit(&out, 2);
        assert!(start.elapsed() < Duration::from_secs(5), "{method}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("nothing to check"), "{method}: {stderr}");
        // With the default deadlock search there is something to check: mono's walk does it.
        let out = guarantor(&["check", "-q", "--method", method, path]);
        assert_exit(&out, 0);
    }
    let aut = model("loop.aut", "des (0, 1, 1)\n(0, \"a\", 0)\n");
    let out = guarantor(&["check", aut.to_str().unwrap()]);
    assert_exit(&out, 2);
}

#[test]
fn the_verdict_names_what_it_did_not_check() {
    let path = model(
        "unchecked.lts",
        "P = (a -> b -> P).\nfluent F = <a, b>\nassert X = []F\n||S = (P).\n",
    );
    let out = guarantor(&["check", "-q", path.to_str().unwrap()]);
    assert_exit(&out, 0);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("not checked: fluent F, assert X"),
        "{stdout}"
    );
    let out = guarantor(&["check", "-q", "--format", "json", path.to_str().unwrap()]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        v["not_checked"],
        serde_json::json!(["fluent F", "assert X"])
    );
    assert_eq!(v["verdict"], "holds");
}

/// `-q` silences the warnings too.
#[test]
fn quiet_silences_warnings() {
    // (A warning of the front end: an undefined local process in an unreachable one is ERROR.)
    let path = model("warn.lts", "P = (a -> P), Q = (b -> Z).\n");
    let loud = guarantor(&["check", path.to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&loud.stderr).contains("warning"));
    let quiet = guarantor(&["check", "-q", path.to_str().unwrap()]);
    assert_exit(&quiet, 0);
    assert!(
        quiet.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&quiet.stderr)
    );
}

/// CLI polish: one `error:` prefix before an FSP error, a missing file reported once, an unknown
/// target listing the targets, `--const` instead of rewriting the file.
#[test]
fn bad_input_is_reported_once_and_plainly() {
    let out = guarantor(&["check", "no/such/model.lts"]);
    assert_exit(&out, 2);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.matches("No such file").count(), 1, "{stderr}");

    let path = model("nodot.lts", "P = (a -> P)\nQ = (b -> Q).\n");
    let out = guarantor(&["check", path.to_str().unwrap()]);
    assert_exit(&out, 2);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.starts_with("error: "), "{stderr}");
    assert!(
        stderr.contains("nodot.lts:1:13: error: expected '.' to end the definition of 'P'"),
        "{stderr}"
    );

    let out = guarantor(&["check", "--target", "SYZ", "examples/fsp/order.lts"]);
    assert_exit(&out, 2);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.starts_with("error: no composite or process 'SYZ' in examples/fsp/order.lts (targets: BAD, EAGER, INPUT, ORDER, OUTPUT, SYS); did you mean 'SYS'?"),
        "{stderr}"
    );
}

#[test]
fn const_sets_a_constant() {
    let path = model("sized.lts", "const N = 2\nP = (a[i:0..N] -> P).\n");
    let path = path.to_str().unwrap();
    let export = |extra: &[&str]| {
        let mut args = vec!["export", path];
        args.extend_from_slice(extra);
        let out = guarantor(&args);
        assert_exit(&out, 0);
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .next()
            .unwrap()
            .to_owned()
    };
    assert_eq!(export(&[]), "des (0, 3, 1)");
    assert_eq!(export(&["--const", "N=5"]), "des (0, 6, 1)");
    let out = guarantor(&["check", "--const", "SIZE=5", path]);
    assert_exit(&out, 2);
    assert!(String::from_utf8_lossy(&out.stderr).contains("undefined constant 'SIZE'"));
}

/// `export --hide` and `--minimise`: LTSA's hiding and Minimise on the composed LTS.
#[test]
fn export_hides_and_minimises() {
    let path = model("hidden.lts", "P = (a -> h.1 -> b -> P).\n");
    let path = path.to_str().unwrap();
    let header = |extra: &[&str]| {
        let mut args = vec!["export", path];
        args.extend_from_slice(extra);
        let out = guarantor(&args);
        assert_exit(&out, 0);
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    assert!(header(&[]).starts_with("des (0, 3, 3)"));
    let hidden = header(&["--hide", "h"]);
    assert!(hidden.contains("(1, tau, 2)"), "{hidden}");
    assert!(header(&["--hide", "h", "--minimise"]).starts_with("des (0, 2, 2)"));
}

/// `assume` on .aut components with `--property`, as on the FSP model of the same system.
#[test]
fn assume_takes_aut_input() {
    let aut = guarantor(&[
        "assume",
        "--component",
        "Input",
        "--property",
        "examples/order/Order.aut",
        "examples/order/Input.aut",
        "examples/order/Output.aut",
    ]);
    assert_exit(&aut, 0);
    let fsp = guarantor(&["assume", "examples/fsp/order.lts", "--component", "INPUT"]);
    assert_exit(&fsp, 0);
    let first = |o: &std::process::Output| {
        String::from_utf8_lossy(&o.stdout)
            .lines()
            .next()
            .unwrap()
            .to_owned()
    };
    assert_eq!(first(&aut), first(&fsp));
}

/// Issue 26, departure 2: `END` is LTSA's termination. After `a`, A has ended and B has no action
/// of its own, so LTSA sees no deadlock; every method agrees, `export` merges the end states as
/// LTSA's Compose does (2 states, 2 transitions), and `--progress` calls the end no violation of
/// the deadlock kind.
#[test]
fn end_is_termination_for_every_method_and_export() {
    let path = model(
        "end.lts",
        "A = (a -> END | b -> END).\nB = (a -> B1 | b -> B2), B1 = (a -> B1), B2 = (b -> B2).\n\
         ||S = (A || B).\n",
    );
    let path = path.to_str().unwrap();
    for method in METHODS {
        let out = guarantor(&["check", "-q", "--method", method, path]);
        assert_exit(&out, 0);
    }
    let out = guarantor(&["export", path, "--aut"]);
    assert_exit(&out, 0);
    let aut = String::from_utf8_lossy(&out.stdout);
    assert!(aut.starts_with("des (0, 2, 2)"), "{aut}");
    let dead = model(
        "end-dead.lts",
        "A = (a -> END).\nB = (a -> c -> B).\n||S = (A || B).\n",
    );
    let out = guarantor(&["check", "-q", dead.to_str().unwrap()]);
    assert_exit(&out, 1);
}

/// Issue 26, departure 4: a file that is not UTF-8 (a Latin-1 `é` in a comment) is read as LTSA
/// reads it (1 state, holds), with a warning naming the byte and where it is.
#[test]
fn a_latin1_file_is_read_with_a_warning() {
    let dir = std::env::temp_dir().join(format!("guarantor-latin1-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("latin1.lts");
    std::fs::write(&path, b"// caf\xe9\nP = (a -> P).\n").unwrap();
    let out = guarantor(&["check", path.to_str().unwrap()]);
    assert_exit(&out, 0);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("latin1.lts:1:7: warning: byte 0xE9 is not UTF-8"),
        "{stderr}"
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("1 states"));
}

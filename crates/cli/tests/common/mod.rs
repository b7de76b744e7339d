//! What every end-to-end test of the `guarantor` binary needs: the workspace root (models are
//! named relative to it) and a way to run the binary there.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The workspace root.
pub(crate) fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Runs the binary in the workspace root with `args`.
// The memory test runs the binary its own way, to watch it; each test file compiles this module.
#[allow(dead_code)]
pub(crate) fn guarantor(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_guarantor"))
        .current_dir(root())
        .args(args)
        .output()
        .expect("the binary runs")
}

/// Asserts the exit code, showing stdout and stderr when it differs.
// Not every test file checks exit codes this way; each compiles this module on its own.
#[allow(dead_code)]
pub(crate) fn assert_exit(out: &Output, code: i32) {
    assert_eq!(
        out.status.code(),
        Some(code),
        "stdout: {}\nstderr: {}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The checkpoint tests' cases (plain and distributed): a model that holds (the whole space
/// explored), one with a property violation and one with a deadlock found only after the whole
/// space (its first deadlock must survive a resume).
#[allow(dead_code)]
pub(crate) const CHECKPOINT_CASES: [(&str, &str, &str); 3] = [
    ("gas", "SYS", "N=7"),
    ("gas", "BUGGY", "N=7"),
    ("dining", "CLASSIC", "N=8"),
];

/// `check` of a bundled family's `target` under `--const constant`, quiet, as JSON.
#[allow(dead_code)]
pub(crate) fn model_args(family: &str, target: &str, constant: &str) -> Vec<String> {
    [
        "check",
        &format!("benchmarks/{family}/{family}.lts"),
        "--quiet",
        "--format",
        "json",
        "--target",
        target,
        "--const",
        constant,
    ]
    .iter()
    .map(ToString::to_string)
    .collect()
}

//! Issue 28, point 7: a benchmark script that compares against material outside the repository
//! (fspc's tx3 model, the AALpy harness's DFAs) says where that material comes from and stops with
//! exit code 2, before building anything, when its folder is missing (a fresh clone has none).

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Runs `script` with `var` pointing at a path that does not exist; returns (exit code, stderr).
fn run_without(script: &str, var: &str, args: &[&str]) -> (Option<i32>, String) {
    let missing = std::env::temp_dir().join("guarantor-no-such-input/none");
    let out = Command::new("bash")
        .arg(root().join(script))
        .args(args)
        .env(var, &missing)
        // Nothing may be built: a target dir that cannot be created would make a build fail
        // with another message.
        .env("CARGO_TARGET_DIR", "/dev/null/no-target")
        .current_dir(root())
        .output()
        .expect("bash runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn the_tx3_scripts_say_where_tx3_comes_from() {
    for (script, args) in [
        ("benches/compare/fsp_tx3.sh", &[][..]),
        ("benches/compare/threads.sh", &["tx3:SYSTEM:-:mono"][..]),
    ] {
        let (code, stderr) = run_without(script, "TX3", args);
        assert_eq!(code, Some(2), "{script}: {stderr}");
        assert!(stderr.contains("tx3 model not found"), "{script}: {stderr}");
        assert!(stderr.contains("vmaffione/fspc"), "{script}: {stderr}");
        assert!(stderr.contains("TX3="), "{script}: {stderr}");
    }
}

#[test]
fn the_aalpy_script_says_where_the_harness_comes_from() {
    let (code, stderr) = run_without("benches/compare/lstar/run.sh", "HARNESS", &[]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("harness"), "{stderr}");
    assert!(stderr.contains("HARNESS="), "{stderr}");
}

//! Checkpoints end to end (issue 30): a `check --checkpoint DIR` killed with SIGKILL at random
//! moments and continued with `check --resume DIR` (killed again, several times per seed) ends
//! with the verdict, state and transition counts and counterexample of an uninterrupted check;
//! a checkpoint of another model or other options is refused with exit 2.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{CHECKPOINT_CASES as CASES, model_args, root};
use serde_json::Value;

fn command(args: &[String]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_guarantor"));
    c.current_dir(root())
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    c
}

/// What must be the same: verdict, counts, counterexample and violation.
fn essentials(v: &Value) -> Value {
    serde_json::json!([
        v["verdict"],
        v["states"],
        v["transitions"],
        v["counterexample"],
        v["violation"]
    ])
}

/// A small xorshift generator: the kill moments of a seed.
struct Moments(u64);

impl Moments {
    fn next_below(&mut self, bound: Duration) -> Duration {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        bound.mul_f64(f64::from((self.0 % 10_000) as u32) / 10_000.0)
    }
}

/// Runs `args`, killing the process with SIGKILL after `after` if it is still running; returns
/// its stdout and exit code if it ended by itself.
fn run_or_kill(args: &[String], after: Option<Duration>) -> Option<(Option<i32>, String)> {
    let mut child = command(args).spawn().expect("the binary runs");
    let start = Instant::now();
    loop {
        if let Some(_status) = child.try_wait().expect("waitable") {
            let out = child.wait_with_output().expect("output");
            return Some((
                out.status.code(),
                String::from_utf8_lossy(&out.stdout).into(),
            ));
        }
        if after.is_some_and(|a| start.elapsed() >= a) {
            child.kill().expect("SIGKILL");
            child.wait().expect("reaped");
            return None;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

fn fresh_dir(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("guarantor-cli-ckpt-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Checks `case` killed and resumed under `seed`; returns how many kills hit a running check.
fn killed_and_resumed(
    base: &[String],
    plain: &Value,
    span: Duration,
    seed: u64,
    dir: &Path,
) -> usize {
    let mut moments = Moments(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let mut kills = 0;
    for round in 0..12 {
        let mut args = base.to_vec();
        let resume = dir.join("manifest").exists();
        args.push(if resume { "--resume" } else { "--checkpoint" }.into());
        args.push(dir.display().to_string());
        args.extend(["--checkpoint-every".into(), "0.05".into()]);
        // After a few kills the check runs to its end.
        let after = (round < 6).then(|| moments.next_below(span));
        match run_or_kill(&args, after) {
            None => kills += 1,
            Some((code, stdout)) => {
                let v: Value = serde_json::from_str(&stdout).expect("one JSON object");
                assert!(
                    matches!(code, Some(0 | 1)),
                    "seed {seed}: exit {code:?}: {stdout}"
                );
                assert_eq!(
                    essentials(&v),
                    essentials(plain),
                    "seed {seed}, round {round}"
                );
                return kills;
            }
        }
    }
    panic!("seed {seed}: the check never ended");
}

#[test]
fn a_check_killed_at_random_moments_and_resumed_ends_as_an_uninterrupted_one() {
    for (family, target, constant) in CASES {
        let base = model_args(family, target, constant);
        let started = Instant::now();
        let (code, stdout) = run_or_kill(&base, None).expect("runs to its end");
        let span = started.elapsed().mul_f64(1.2);
        assert!(matches!(code, Some(0 | 1)), "{stdout}");
        let plain: Value = serde_json::from_str(&stdout).expect("one JSON object");
        let mut kills = 0;
        for seed in 1..=4 {
            let dir = fresh_dir(&format!("{family}-{target}-{seed}"));
            kills += killed_and_resumed(&base, &plain, span, seed, &dir);
            let _ = std::fs::remove_dir_all(&dir);
        }
        // The moments are drawn over the whole run: most kills hit a running check.
        assert!(kills > 0, "{family} {target}: no kill hit a running check");
    }
}

#[test]
fn a_checkpoint_of_another_model_or_other_options_is_refused() {
    let dir = fresh_dir("refused");
    let mut args = model_args("gas", "SYS", "N=3");
    args.extend(["--checkpoint".into(), dir.display().to_string()]);
    let out = command(&args).output().expect("runs");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let refused = |extra: &[&str], says: &str| {
        let mut args = model_args("gas", "SYS", extra[0]);
        args.extend(extra[1..].iter().map(ToString::to_string));
        args.extend(["--resume".into(), dir.display().to_string()]);
        let out = command(&args).output().expect("runs");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(2), "{stdout}");
        assert!(stdout.contains(says), "{stdout}");
    };
    refused(&["N=4"], "another model");
    refused(&["N=3", "--no-deadlock"], "other options");
    // The same model and options resume, to the same answer.
    let mut again = model_args("gas", "SYS", "N=3");
    again.extend(["--resume".into(), dir.display().to_string()]);
    let resumed = command(&again).output().expect("runs");
    let plain = command(&model_args("gas", "SYS", "N=3"))
        .output()
        .expect("runs");
    let json = |b: &[u8]| essentials(&serde_json::from_slice::<Value>(b).expect("JSON"));
    assert_eq!(json(&resumed.stdout), json(&plain.stdout));
    let _ = std::fs::remove_dir_all(&dir);
}

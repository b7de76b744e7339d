//! Checkpoints of a local cluster end to end (issue 30): `check --processes 2 --checkpoint DIR`
//! killed with SIGKILL at seeded moments (the whole process group, or only the process that
//! `--processes` started) and continued with `--resume DIR` (killed again, several times per
//! seed) ends with the verdict, counts and counterexample of an uninterrupted distributed check,
//! and the verdict and counterexample length of the monolithic one; a resume with another process
//! count, model or options is refused with exit 2.
//!
//! Every process of a killed run is gone before the resume starts: a process left over from it
//! would still write into the directory (the CLI's documentation asks the same of a user).
#![cfg(target_os = "linux")]

mod common;

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::{CHECKPOINT_CASES as CASES, model_args, root};
use serde_json::Value;

fn dist_args(family: &str, target: &str, constant: &str, processes: &str) -> Vec<String> {
    let mut args = model_args(family, target, constant);
    args.extend(["--processes".into(), processes.into()]);
    args
}

/// Starts the binary in a process group of its own (the processes it starts join it).
fn spawn(args: &[String]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_guarantor"))
        .current_dir(root())
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .expect("the binary runs")
}

/// What must be the same as the uninterrupted distributed check.
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
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, bound: Duration) -> Duration {
        bound.mul_f64(f64::from((self.next() % 10_000) as u32) / 10_000.0)
    }
}

/// The processes whose process group is `group` (from /proc).
fn members(group: u32) -> Vec<u32> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(|e| {
            let pid: u32 = e.ok()?.file_name().to_str()?.parse().ok()?;
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
            // pid (comm) state ppid pgrp ...: the fields after the command's closing paren.
            let rest = &stat[stat.rfind(')')? + 2..];
            let fields: Vec<&str> = rest.split_whitespace().collect();
            let zombie = fields.first() == Some(&"Z");
            (fields.get(2)?.parse::<u32>().ok()? == group && !zombie).then_some(pid)
        })
        .collect()
}

fn kill(pid: u32) {
    let _ = Command::new("kill")
        .args(["-KILL", &pid.to_string()])
        .stderr(Stdio::null())
        .status();
}

/// Kills every process of `group` and waits until none is left.
fn kill_group(group: u32) {
    let _ = Command::new("kill")
        .args(["-KILL", "--", &format!("-{group}")])
        .stderr(Stdio::null())
        .status();
    let deadline = Instant::now() + Duration::from_secs(10);
    while !members(group).is_empty() {
        assert!(
            Instant::now() < deadline,
            "process group {group} outlived SIGKILL"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// How a seeded moment interrupts the run.
#[derive(Clone, Copy, Debug)]
enum Kill {
    /// SIGKILL to every process of the run.
    Group,
    /// SIGKILL to process 1 only (process 0 then stops, naming it).
    Started,
}

/// Runs `args` and, if it is still running after `after`, interrupts it as `how` (then makes
/// sure nothing of it is left); returns its stdout and exit code if it ended by itself.
fn run_or_kill(args: &[String], after: Option<(Duration, Kill)>) -> Option<(Option<i32>, String)> {
    let mut child = spawn(args);
    let group = child.id();
    let start = Instant::now();
    loop {
        if child.try_wait().expect("waitable").is_some() {
            let out = child.wait_with_output().expect("output");
            kill_group(group);
            return Some((
                out.status.code(),
                String::from_utf8_lossy(&out.stdout).into(),
            ));
        }
        if let Some((at, how)) = after
            && start.elapsed() >= at
        {
            let started = members(group).into_iter().find(|&p| p != group);
            match (how, started) {
                (Kill::Started, Some(pid)) => {
                    kill(pid);
                    // Process 0 notices the lost process and stops with an error.
                    let _ = child.wait();
                }
                _ => {
                    kill_group(group);
                    let _ = child.wait();
                }
            }
            kill_group(group);
            return None;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

fn fresh_dir(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("guarantor-cli-dckpt-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Checks `base` killed and resumed under `seed`; returns how many kills hit a running check and
/// whether the run that ended was a resumed one.
fn killed_and_resumed(
    base: &[String],
    plain: &Value,
    span: Duration,
    seed: u64,
    dir: &Path,
) -> (usize, bool) {
    let mut moments = Moments(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let mut kills = 0;
    let mut started = false;
    for round in 0..12 {
        let mut args = base.to_vec();
        args.push(if started { "--resume" } else { "--checkpoint" }.into());
        args.push(dir.display().to_string());
        args.extend(["--checkpoint-every".into(), "0.02".into()]);
        // After a few kills the check runs to its end.
        let how = if moments.next().is_multiple_of(3) {
            Kill::Started
        } else {
            Kill::Group
        };
        // Past the first quarter of the run: the processes have started and connected (a kill
        // before the first checkpoint only makes the resume start afresh).
        let at = span.mul_f64(0.25) + moments.below(span.mul_f64(0.75));
        let after = (round < 5).then_some((at, how));
        match run_or_kill(&args, after) {
            None => {
                kills += 1;
                started = true;
            }
            Some((code, stdout)) => {
                let v: Value = serde_json::from_str(&stdout)
                    .unwrap_or_else(|e| panic!("seed {seed}, round {round}: {e}: {stdout}"));
                if code == Some(2) && stdout.contains("no checkpoint to resume from") {
                    // Killed before any level was checkpointed by both processes: start again.
                    started = false;
                    continue;
                }
                assert!(
                    matches!(code, Some(0 | 1)),
                    "seed {seed}: exit {code:?}: {stdout}"
                );
                assert_eq!(
                    essentials(&v),
                    essentials(plain),
                    "seed {seed}, round {round}"
                );
                return (kills, started);
            }
        }
    }
    panic!("seed {seed}: the check never ended");
}

fn json(out: &[u8]) -> Value {
    serde_json::from_slice(out).expect("one JSON object")
}

#[test]
fn a_cluster_killed_at_seeded_moments_and_resumed_ends_as_an_uninterrupted_one() {
    for (family, target, constant) in CASES {
        let base = dist_args(family, target, constant, "2");
        let started = Instant::now();
        let (code, stdout) = run_or_kill(&base, None).expect("runs to its end");
        let span = started.elapsed().mul_f64(1.2);
        assert!(matches!(code, Some(0 | 1)), "{stdout}");
        let plain: Value = serde_json::from_str(&stdout).expect("one JSON object");
        let (_, mono) = run_or_kill(&model_args(family, target, constant), None).expect("ends");
        let mono: Value = serde_json::from_str(&mono).expect("one JSON object");
        assert_eq!(plain["verdict"], mono["verdict"]);
        assert_eq!(plain["violation"], mono["violation"]);
        let length = |v: &Value| v["counterexample"].as_array().map(Vec::len);
        assert_eq!(length(&plain), length(&mono));
        if plain["verdict"] == "holds" {
            assert_eq!(plain["states"], mono["states"]);
        }
        let (mut kills, mut resumed) = (0, 0);
        for seed in 1..=3 {
            let dir = fresh_dir(&format!("{family}-{target}-{seed}"));
            let (k, r) = killed_and_resumed(&base, &plain, span, seed, &dir);
            kills += k;
            resumed += usize::from(r);
            let _ = std::fs::remove_dir_all(&dir);
        }
        // The moments are drawn over the whole run: most kills hit a running check, and most
        // seeds end with a resumed run.
        assert!(kills > 0, "{family} {target}: no kill hit a running check");
        assert!(resumed > 0, "{family} {target}: no seed ended resumed");
    }
}

#[test]
fn a_resume_with_other_processes_model_or_options_is_refused() {
    let dir = fresh_dir("refused");
    let mut args = dist_args("gas", "SYS", "N=3", "2");
    args.extend(["--checkpoint".into(), dir.display().to_string()]);
    let (code, stdout) = run_or_kill(&args, None).expect("ends");
    assert_eq!(code, Some(0), "{stdout}");
    let refused = |constant: &str, processes: &str, extra: &[&str], says: &str| {
        let mut args = dist_args("gas", "SYS", constant, processes);
        args.extend(extra.iter().map(ToString::to_string));
        args.extend(["--resume".into(), dir.display().to_string()]);
        let (code, stdout) = run_or_kill(&args, None).expect("ends");
        assert_eq!(code, Some(2), "{stdout}");
        assert!(stdout.contains(says), "{stdout}");
    };
    refused("N=3", "3", &[], "written by 2 distributed workers");
    refused("N=3", "1", &[], "written by 2 distributed workers");
    refused("N=4", "2", &[], "another model");
    refused("N=3", "2", &["--no-deadlock"], "other options");
    // A monolithic resume finds no monolithic checkpoint there.
    let mut mono = model_args("gas", "SYS", "N=3");
    mono.extend(["--resume".into(), dir.display().to_string()]);
    let (code, stdout) = run_or_kill(&mono, None).expect("ends");
    assert_eq!(code, Some(2), "{stdout}");
    // The same model, options and processes resume, to the uninterrupted answer.
    let mut again = dist_args("gas", "SYS", "N=3", "2");
    again.extend(["--resume".into(), dir.display().to_string()]);
    let (_, resumed) = run_or_kill(&again, None).expect("ends");
    let (_, plain) = run_or_kill(&dist_args("gas", "SYS", "N=3", "2"), None).expect("ends");
    assert_eq!(
        essentials(&json(resumed.as_bytes())),
        essentials(&json(plain.as_bytes()))
    );
    // --progress is not checkpointed by the distributed engine (nor run by it).
    let mut progress = dist_args("gas", "SYS", "N=3", "2");
    progress.extend([
        "--progress".into(),
        "X".into(),
        "--checkpoint".into(),
        dir.display().to_string(),
    ]);
    let (code, stdout) = run_or_kill(&progress, None).expect("ends");
    assert_eq!(code, Some(2), "{stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}

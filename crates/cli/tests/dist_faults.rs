//! Faults in a cluster (issue 30): one process of a running cluster is killed with SIGKILL, or
//! stopped with SIGSTOP (it stays connected but answers nothing), and the others must exit within
//! 5 seconds with an error naming it, never hang; in `--hostfile` mode (every process started
//! here) and in `--processes` mode (the killed process is one that `--processes` started).
//!
//! The model (gas station, N=12) runs for far longer than the test waits before the kill, in a
//! debug build; a run that ends before the kill fails the test rather than passing it.
#![cfg(target_os = "linux")]

mod common;

use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use common::root;

/// How long the processes get to start and connect before one is killed.
const STARTUP: Duration = Duration::from_secs(5);

/// How soon after the kill the others must have exited.
const BOUND: Duration = Duration::from_secs(5);

fn check_command(extra: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_guarantor"));
    cmd.current_dir(root())
        .args([
            "check",
            "--quiet",
            "--no-deadlock",
            "--const",
            "N=12",
            "--target",
            "SYS",
            "benchmarks/gas/gas.lts",
        ])
        .args(extra)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    cmd
}

fn free_ports(n: usize) -> Vec<u16> {
    let listeners: Vec<std::net::TcpListener> = (0..n)
        .map(|_| std::net::TcpListener::bind("127.0.0.1:0").unwrap())
        .collect();
    listeners
        .iter()
        .map(|l| l.local_addr().unwrap().port())
        .collect()
}

/// Waits until `child` exits or `deadline` passes; kills it then (so nothing outlives the test).
fn wait_until(child: &mut Child, deadline: Instant) -> Option<ExitStatus> {
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return Some(status);
        }
        if Instant::now() >= deadline {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn stderr_of(child: &mut Child) -> String {
    let mut text = String::new();
    if let Some(mut err) = child.stderr.take() {
        let _ = std::io::Read::read_to_string(&mut err, &mut text);
    }
    text
}

/// Asserts that none of `children` has exited yet (the run must still be going at the kill).
fn assert_running(children: &mut [Child]) {
    for (i, child) in children.iter_mut().enumerate() {
        if let Some(status) = child.try_wait().unwrap() {
            panic!(
                "process {i} ended before the kill ({status}): {}",
                stderr_of(child)
            );
        }
    }
}

/// How a test takes process 1 of a hostfile cluster out.
#[derive(Clone, Copy, Debug)]
enum Fault {
    /// SIGKILL: its connections close at once.
    Kill,
    /// SIGSTOP: it stays connected but stops answering (heartbeats included).
    Stop,
}

#[test]
fn killing_a_hostfile_process_stops_the_others_naming_it() {
    hostfile_cluster_loses_process_1(Fault::Kill, "kill");
}

#[test]
fn a_hostfile_process_that_stops_answering_stops_the_others_naming_it() {
    hostfile_cluster_loses_process_1(Fault::Stop, "stop");
}

fn signal(pid: u32, name: &str) {
    let status = Command::new("kill")
        .args([&format!("-{name}"), &pid.to_string()])
        .status()
        .unwrap();
    assert!(status.success(), "kill -{name} {pid}");
}

fn hostfile_cluster_loses_process_1(fault: Fault, tag: &str) {
    let dir = std::env::temp_dir().join(format!("guarantor-faults-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let hostfile = dir.join("hosts");
    let lines: Vec<String> = free_ports(3)
        .iter()
        .map(|p| format!("127.0.0.1:{p}"))
        .collect();
    std::fs::write(&hostfile, lines.join("\n")).unwrap();
    let hostfile = hostfile.to_str().unwrap().to_owned();
    let mut children: Vec<Child> = (0..3)
        .map(|i| {
            check_command(&["--hostfile", &hostfile, "--process-index", &i.to_string()])
                .spawn()
                .unwrap()
        })
        .collect();
    std::thread::sleep(STARTUP);
    assert_running(&mut children);
    match fault {
        Fault::Kill => signal(children[1].id(), "KILL"),
        Fault::Stop => signal(children[1].id(), "STOP"),
    }
    let killed = Instant::now();
    for i in [0, 2] {
        let status = wait_until(&mut children[i], killed + BOUND);
        let stderr = stderr_of(&mut children[i]);
        let status = status
            .unwrap_or_else(|| panic!("process {i} still ran {BOUND:?} after the kill: {stderr}"));
        assert_eq!(status.code(), Some(2), "process {i}: {stderr}");
        assert!(
            stderr.contains("process 1 of the cluster"),
            "process {i} does not name process 1: {stderr}"
        );
        assert!(!stderr.contains("panicked"), "process {i}: {stderr}");
    }
    // A stopped process is killed (a killed one only reaped) so that nothing outlives the test.
    let _ = children[1].kill();
    let _ = children[1].wait();
    let _ = std::fs::remove_dir_all(&dir);
}

/// The processes whose parent is `parent`, with their command lines.
fn children_of(parent: u32) -> Vec<(u32, String)> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // The parent's pid is the second field after the parenthesised command name.
        let after = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
        let parent_of = after.split_whitespace().nth(1).and_then(|p| p.parse().ok());
        if parent_of == Some(parent) {
            let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
            out.push((pid, String::from_utf8_lossy(&cmdline).replace('\0', " ")));
        }
    }
    out
}

#[test]
fn killing_a_process_of_processes_mode_stops_the_run_naming_it() {
    let mut parent = check_command(&["--processes", "3"]).spawn().unwrap();
    std::thread::sleep(STARTUP);
    assert_running(std::slice::from_mut(&mut parent));
    let children = children_of(parent.id());
    let victim = children
        .iter()
        .find(|(_, cmd)| cmd.contains("--process-index=2"))
        .unwrap_or_else(|| panic!("process 2 not found among {children:?}"))
        .0;
    let killed = Instant::now();
    let status = Command::new("kill")
        .args(["-KILL", &victim.to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let status = wait_until(&mut parent, killed + BOUND);
    let stderr = stderr_of(&mut parent);
    let status =
        status.unwrap_or_else(|| panic!("process 0 still ran {BOUND:?} after the kill: {stderr}"));
    assert_eq!(status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("process 2"),
        "does not name process 2: {stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
    // Process 1, which --processes started too, does not outlive the run.
    for (pid, _) in children {
        assert!(
            !std::path::Path::new(&format!("/proc/{pid}")).exists(),
            "process {pid} outlived the run"
        );
    }
}

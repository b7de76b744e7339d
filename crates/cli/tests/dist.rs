//! `check --processes N`: the model families at their smallest size (benchmarks/families.tsv),
//! checked by 2 and 4 local processes, give the verdict, the `states` count of a `holds` and the
//! counterexample length of the plain check; flags the distributed engine does not support are
//! refused.

mod common;

use common::{assert_exit, guarantor, root};
use serde_json::Value;

/// `(family, target)` of every row of the manifest.
fn families() -> Vec<(String, String)> {
    let text = std::fs::read_to_string(root().join("benchmarks/families.tsv")).unwrap();
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let cols: Vec<&str> = l.split_whitespace().collect();
            (cols[0].to_owned(), cols[1].to_owned())
        })
        .collect()
}

fn check_json(model: &str, target: &str, extra: &[&str]) -> (Option<i32>, Value) {
    let mut args = vec![
        "check",
        "--quiet",
        "--format",
        "json",
        "--timeout",
        "60",
        "--const",
        "N=2",
        "--target",
        target,
        model,
    ];
    args.extend_from_slice(extra);
    let out = guarantor(&args);
    let json = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{model} {target} {extra:?}: not one JSON object ({e}): {}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out.status.code(), json)
}

fn trace_len(v: &Value) -> usize {
    v["counterexample"].as_array().map_or(0, Vec::len)
}

#[test]
fn processes_agree_with_the_plain_check_on_every_family() {
    for (family, target) in families() {
        let model = format!("benchmarks/{family}/{family}.lts");
        let (code, plain) = check_json(&model, &target, &[]);
        for processes in ["2", "4"] {
            let (dcode, dist) = check_json(&model, &target, &["--processes", processes]);
            let what = format!("{family} {target} --processes {processes}");
            assert_eq!(dcode, code, "{what}: {dist}");
            assert_eq!(dist["verdict"], plain["verdict"], "{what}");
            assert_eq!(dist["violation"], plain["violation"], "{what}");
            if plain["verdict"] == "holds" {
                assert_eq!(dist["states"], plain["states"], "{what}");
                assert_eq!(dist["transitions"], plain["transitions"], "{what}");
            } else {
                assert_eq!(trace_len(&dist), trace_len(&plain), "{what}");
            }
        }
    }
}

#[test]
fn workers_per_process_do_not_change_the_answer() {
    let model = "benchmarks/dining/dining.lts";
    let (_, one) = check_json(model, "BUGGY", &["--processes", "1"]);
    let (_, many) = check_json(model, "BUGGY", &["--processes", "2", "--workers", "2"]);
    assert_eq!(one["counterexample"], many["counterexample"]);
    assert_eq!(one["verdict"], "violated");
}

/// Each process's visited set in the compact store (`--storage compact`): the same answers.
#[test]
fn compact_storage_per_process_gives_the_plain_answers() {
    for (family, target) in [("dining", "SYS"), ("dining", "BUGGY")] {
        let model = format!("benchmarks/{family}/{family}.lts");
        let (code, plain) = check_json(&model, target, &[]);
        let (dcode, dist) = check_json(
            &model,
            target,
            &["--storage", "compact", "--processes", "2"],
        );
        assert_eq!(dcode, code, "{family} {target}: {dist}");
        assert_eq!(dist["verdict"], plain["verdict"], "{family} {target}");
        if plain["verdict"] == "holds" {
            assert_eq!(dist["states"], plain["states"], "{family} {target}");
        }
        assert_eq!(trace_len(&dist), trace_len(&plain), "{family} {target}");
    }
}

#[test]
fn a_hostfile_cluster_of_one_process_runs() {
    let dir = std::env::temp_dir().join(format!("guarantor-dist-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let hostfile = dir.join("hosts");
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    std::fs::write(&hostfile, format!("# one process\n127.0.0.1:{port}\n")).unwrap();
    let hostfile = hostfile.to_str().unwrap().to_owned();
    let (code, v) = check_json(
        "benchmarks/dining/dining.lts",
        "SYS",
        &["--hostfile", &hostfile, "--process-index", "0"],
    );
    let (_, plain) = check_json("benchmarks/dining/dining.lts", "SYS", &[]);
    assert_eq!(code, Some(0), "{v}");
    assert_eq!(v["states"], plain["states"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn other_methods_and_searches_are_refused() {
    for extra in [
        &["--method", "lstar"][..],
        &["--search", "dfs"][..],
        &["--progress"][..],
    ] {
        let mut args = vec![
            "check",
            "--quiet",
            "--const",
            "N=2",
            "--target",
            "SYS",
            "benchmarks/dining/dining.lts",
            "--processes",
            "2",
        ];
        args.extend_from_slice(extra);
        let out = guarantor(&args);
        assert_exit(&out, 2);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("--processes and --hostfile"),
            "{extra:?}: {stderr}"
        );
    }
    let out = guarantor(&["check", "--workers", "2", "examples/order/Input.aut"]);
    assert_exit(&out, 2);
}

/// `--max-memory` stops a local cluster as it stops the plain check: exit 3, `reason.kind`
/// `memory`, the first process's peak resident set (its `VmHWM`, as it reports it) within 10 %
/// of the limit (each process checks its own resident set).
#[cfg(target_os = "linux")]
#[test]
fn a_memory_limit_stops_a_local_cluster() {
    let out = guarantor(&[
        "check",
        "--quiet",
        "--format",
        "json",
        "--no-deadlock",
        "--timeout",
        "120",
        "--const",
        "N=10",
        "--target",
        "SYS",
        "--max-memory",
        "40M",
        "--processes",
        "2",
        "benchmarks/gas/gas.lts",
    ]);
    assert_exit(&out, 3);
    let v: Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_eq!(v["reason"]["kind"], "memory", "{v}");
    let peak = v["peak_rss_bytes"].as_u64().expect("reported on Linux");
    assert!(peak * 10 <= (40 << 20) * 11, "peak {} MB", peak >> 20);
}

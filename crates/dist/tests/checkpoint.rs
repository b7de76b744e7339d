//! Checkpoints of the distributed engine: a check stopped part-way (by its state limit, after
//! writing a checkpoint at every level) and resumed, possibly several times, ends with the report
//! of an uninterrupted check (verdict, counts, counterexample, which replays in the components),
//! for 1 to 3 workers, on random systems; a resume with another worker count, model, options or
//! version, from a missing or a damaged checkpoint, is refused with a typed error; a cluster whose
//! processes each keep their part in a directory of their own resumes, and refuses together.

use std::path::{Path, PathBuf};
use std::time::Duration;

use guarantor_compose::checkpoint::{CheckpointError, Checkpointing};
use guarantor_compose::replay::replay;
use guarantor_compose::{ComposeError, Config, SystemOptions, Verdict, Violation, check_system};
use guarantor_dist::{DistConfig, DistError, DistReport, check_distributed};
use guarantor_lts::Lts;
use guarantor_lts::strategy::{LtsStrategyConfig, arb_deterministic_property, arb_system_with};
use proptest::prelude::*;

fn dir(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("guarantor-dist-ckpt-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn run(
    comps: &[Lts],
    props: &[Lts],
    options: &SystemOptions,
    (workers, limit): (usize, Option<usize>),
    plan: Option<Checkpointing>,
) -> Result<DistReport, DistError> {
    let comps: Vec<&Lts> = comps.iter().collect();
    let props: Vec<&Lts> = props.iter().collect();
    let mut config = Config::default();
    config.max_states = limit;
    let mut dist = DistConfig::default().with_workers(workers);
    if let Some(plan) = plan {
        dist = dist.with_checkpoint(plan);
    }
    check_distributed(&comps, &props, options, &config, &dist)
}

/// Stops a checkpointing check after `limits[0]` states, resumes it stopping after `limits[1]`,
/// and so on, then resumes it to its end; returns the last report. A resume before any
/// checkpoint was complete is refused as missing and the check starts afresh.
fn stopped_and_resumed(
    (comps, props, options): (&[Lts], &[Lts], &SystemOptions),
    workers: usize,
    limits: &[usize],
    dir: &Path,
) -> DistReport {
    let plan = Checkpointing::new(dir).with_every(Duration::ZERO);
    let mut started = false;
    for limit in limits.iter().copied().map(Some).chain([None]) {
        let this = if started {
            plan.clone().resuming()
        } else {
            plan.clone()
        };
        match run(comps, props, options, (workers, limit), Some(this)) {
            Ok(report) => return report,
            Err(DistError::Compose(ComposeError::StateLimit { .. })) => started = true,
            Err(DistError::Compose(ComposeError::Checkpoint(CheckpointError::Missing {
                ..
            }))) => {
                // Stopped before any level was checkpointed everywhere: start again.
                let report = run(comps, props, options, (workers, limit), Some(plan.clone()));
                match report {
                    Ok(report) => return report,
                    Err(DistError::Compose(ComposeError::StateLimit { .. })) => started = true,
                    Err(e) => panic!("fresh start: {e}"),
                }
            }
            Err(e) => panic!("limit {limit:?}: {e}"),
        }
    }
    unreachable!("the last run has no limit")
}

fn system() -> impl Strategy<Value = (Vec<Lts>, Vec<Lts>, bool)> {
    let comps = arb_system_with(
        3,
        LtsStrategyConfig::new(5, &["a", "b", "c"])
            .with_tau(true)
            .with_error_state(true),
    );
    let props = proptest::collection::vec(arb_deterministic_property(3, &["a", "b"]), 0..=1);
    (comps, props, any::<bool>())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn a_check_stopped_and_resumed_reports_what_an_uninterrupted_one_does(
        (comps, props, deadlock) in system(),
        workers in 1usize..=3,
        limits in proptest::collection::vec(1usize..40, 1..4),
        case in 0u64..1 << 40,
    ) {
        let options = if deadlock {
            SystemOptions::default().with_deadlock(vec![None; comps.len()])
        } else {
            SystemOptions::default()
        };
        let refs: Vec<&Lts> = comps.iter().collect();
        let prefs: Vec<&Lts> = props.iter().collect();
        let mono = check_system(&refs, &prefs, &options, &Config::default()).unwrap();
        let plain = run(&comps, &props, &options, (workers, None), None).unwrap();
        let dir = dir(&format!("prop-{case}"));
        let resumed = stopped_and_resumed((&comps, &props, &options), workers, &limits, &dir);
        let _ = std::fs::remove_dir_all(&dir);
        prop_assert_eq!(&resumed.verdict, &plain.verdict);
        prop_assert_eq!(resumed.stats, plain.stats);
        prop_assert_eq!(resumed.depth, plain.depth);
        prop_assert_eq!(resumed.verdict.is_holds(), mono.verdict.is_holds());
        match (&mono.verdict, &resumed.verdict) {
            (Verdict::Holds(_), _) => prop_assert_eq!(resumed.stats, mono.stats),
            (Verdict::Violated(m), Verdict::Violated(d)) => {
                prop_assert_eq!(m.violation == Violation::Deadlock, d.violation == Violation::Deadlock);
                // The resumed counterexample replays in every component.
                prop_assert_eq!(replay(&refs, &d.trace), Ok(()));
            }
            (m, d) => prop_assert!(false, "mono {m:?}, resumed {d:?}"),
        }
    }
}

/// Counters modulo 5 (5^n states), the first with an `a` the others share as `b`.
fn counters(n: usize) -> Vec<Lts> {
    (0..n)
        .map(|i| {
            let step = format!("s{i}");
            Lts::from_edges((0..5).map(|s| (s, step.clone(), (s + 1) % 5))).unwrap()
        })
        .collect()
}

fn refusal(result: Result<DistReport, DistError>) -> String {
    match result {
        Err(DistError::Compose(ComposeError::Checkpoint(e))) => e.to_string(),
        Err(DistError::PeerCheckpoint { message, .. }) => message,
        other => panic!("not a checkpoint refusal: {other:?}"),
    }
}

#[test]
fn a_resume_of_another_check_is_refused_with_a_typed_error() {
    let dir = dir("refused");
    let comps = counters(4);
    let options = SystemOptions::default();
    let plan = Checkpointing::new(&dir).with_every(Duration::ZERO);
    let missing = run(
        &comps,
        &[],
        &options,
        (2, None),
        Some(plan.clone().resuming()),
    );
    assert!(refusal(missing).starts_with("no checkpoint to resume from"));
    let uninterrupted = run(&comps, &[], &options, (2, None), None).unwrap();
    let first = run(&comps, &[], &options, (2, Some(200)), Some(plan.clone()));
    assert!(matches!(
        first,
        Err(DistError::Compose(ComposeError::StateLimit { .. }))
    ));
    let resume = plan.clone().resuming();
    let other_workers = run(&comps, &[], &options, (3, None), Some(resume.clone()));
    let said = refusal(other_workers);
    assert!(
        said.contains("by 2 distributed workers") && said.ends_with("has 3"),
        "{said}"
    );
    let fewer = run(&comps, &[], &options, (1, None), Some(resume.clone()));
    let said = refusal(fewer);
    assert!(
        said.contains("by 2 distributed workers") && said.ends_with("has 1"),
        "{said}"
    );
    let other_model = run(&counters(3), &[], &options, (2, None), Some(resume.clone()));
    assert!(refusal(other_model).contains("of another model"));
    let deadlock = SystemOptions::default().with_deadlock(vec![None; 4]);
    let other_options = run(&comps, &[], &deadlock, (2, None), Some(resume.clone()));
    assert!(refusal(other_options).contains("other options"));
    let newer = resume.clone().with_version("99.0.0");
    let other_version = run(&comps, &[], &options, (2, None), Some(newer));
    let said = refusal(other_version);
    assert!(
        said.contains("written by version") && said.ends_with("this is 99.0.0"),
        "{said}"
    );
    // None of the refusals touched the checkpoint: it still resumes, to the uninterrupted end.
    let resumed = run(&comps, &[], &options, (2, None), Some(resume)).unwrap();
    assert_eq!(resumed.stats, uninterrupted.stats);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_damaged_part_is_refused() {
    let dir = dir("damaged");
    let comps = counters(4);
    let options = SystemOptions::default();
    let plan = Checkpointing::new(&dir).with_every(Duration::ZERO);
    let first = run(&comps, &[], &options, (2, Some(300)), Some(plan.clone()));
    assert!(first.is_err());
    let log = dir.join("dist-1").join("states.log");
    let mut bytes = std::fs::read(&log).unwrap();
    bytes[3] ^= 0x01;
    std::fs::write(&log, bytes).unwrap();
    let damaged = run(&comps, &[], &options, (2, None), Some(plan.resuming()));
    let said = refusal(damaged);
    assert!(said.contains("damaged: checksum mismatch"), "{said}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs a cluster of `processes` threads (one worker each, connected over loopback), process `p`
/// checkpointing into `dirs[p]`: each process's directory holds only its own part, as on
/// machines without a shared disk.
fn run_cluster(
    comps: &[Lts],
    limit: Option<usize>,
    plans: &[Checkpointing],
) -> Vec<Result<DistReport, DistError>> {
    let listeners: Vec<std::net::TcpListener> = (0..plans.len())
        .map(|_| std::net::TcpListener::bind("127.0.0.1:0").unwrap())
        .collect();
    let addresses: Vec<String> = listeners
        .iter()
        .map(|l| l.local_addr().unwrap().to_string())
        .collect();
    drop(listeners);
    std::thread::scope(|s| {
        let handles: Vec<_> = plans
            .iter()
            .enumerate()
            .map(|(p, plan)| {
                let addresses = addresses.clone();
                s.spawn(move || {
                    let refs: Vec<&Lts> = comps.iter().collect();
                    let cluster = guarantor_dist::Cluster::new(addresses, p)
                        .unwrap()
                        .with_connect_timeout(Duration::from_secs(10));
                    let dist = DistConfig::default()
                        .with_cluster(cluster)
                        .with_checkpoint(plan.clone());
                    let mut config = Config::default().with_timeout(Duration::from_secs(30));
                    config.max_states = limit;
                    check_distributed(&refs, &[], &SystemOptions::default(), &config, &dist)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    })
}

#[test]
fn a_cluster_with_a_directory_per_process_resumes_and_refuses_together() {
    let comps = counters(5);
    let dirs: Vec<PathBuf> = (0..2).map(|p| dir(&format!("cluster-{p}"))).collect();
    let plans: Vec<Checkpointing> = dirs
        .iter()
        .map(|d| Checkpointing::new(d).with_every(Duration::ZERO))
        .collect();
    let plain = run(&comps, &[], &SystemOptions::default(), (2, None), None).unwrap();
    for stopped in run_cluster(&comps, Some(1500), &plans) {
        assert!(matches!(
            stopped,
            Err(DistError::Compose(ComposeError::StateLimit { .. }))
        ));
    }
    // Each directory holds its process's part only.
    assert!(dirs[0].join("dist-0").exists() && !dirs[0].join("dist-1").exists());
    assert!(dirs[1].join("dist-1").exists() && !dirs[1].join("dist-0").exists());
    let resuming: Vec<Checkpointing> = plans.iter().map(|p| p.clone().resuming()).collect();
    for resumed in run_cluster(&comps, None, &resuming) {
        let resumed = resumed.unwrap();
        assert_eq!(
            (&resumed.verdict, resumed.stats),
            (&plain.verdict, plain.stats)
        );
    }
    // A process whose part is gone makes every process refuse (none waits for it).
    std::fs::remove_dir_all(dirs[1].join("dist-1")).unwrap();
    for refused in run_cluster(&comps, None, &resuming) {
        let said = refusal(refused);
        assert!(said.contains("no checkpoint to resume from"), "{said}");
    }
    for d in dirs {
        let _ = std::fs::remove_dir_all(d);
    }
}

#[test]
fn a_product_of_one_state_resumes() {
    // Every component has one state: a tuple packs into zero bytes.
    let comps = vec![
        Lts::from_edges([(0, "a", 0)]).unwrap(),
        Lts::from_edges([(0, "a", 0)]).unwrap(),
    ];
    let dir = dir("one-state");
    let plan = Checkpointing::new(&dir).with_every(Duration::ZERO);
    let options = SystemOptions::default();
    let first = run(&comps, &[], &options, (2, None), Some(plan.clone())).unwrap();
    let resumed = run(&comps, &[], &options, (2, None), Some(plan.resuming())).unwrap();
    assert_eq!((first.stats.states, resumed.stats), (1, first.stats));
    let _ = std::fs::remove_dir_all(&dir);
}

//! Checkpoints against the plain search: a search stopped at any point (here by a state budget,
//! after checkpoints after every batch) and resumed reports what the uninterrupted search reports;
//! a checkpoint of another model, options or version is refused; a damaged one is an error, never
//! a panic.

use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use guarantor_lts::Lts;
use proptest::prelude::*;

use super::{CheckpointError, Checkpointing};
use crate::engine::explore::with_min_slab;
use crate::system::{SearchOrder, SystemOptions, check_system};
use crate::test_util::{random_case, ring};
use crate::{ComposeError, Config, Storage};

/// A fresh directory under the system's temporary directory.
fn scratch_dir() -> PathBuf {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("guarantor-ckpt-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn options_for(comps: &[&Lts]) -> SystemOptions {
    SystemOptions::default().with_deadlock(comps.iter().map(|c| c.states().last()).collect())
}

/// Runs with checkpoints after every batch or slab, stopped by a budget of `stop_at` states, then
/// resumes (again and again while the budget stops it, raising it each time) to the end.
fn stopped_and_resumed(
    comps: &[&Lts],
    props: &[&Lts],
    options: &SystemOptions,
    stop_at: usize,
    dir: &std::path::Path,
    storage: Storage,
    threads: NonZeroUsize,
) -> Result<crate::SafetyReport, ComposeError> {
    let plan = Checkpointing::new(dir).with_every(Duration::ZERO);
    let first = options.clone().with_checkpoint(plan.clone());
    let config = Config::default()
        .with_storage(storage)
        .with_threads(threads);
    let limited = config.clone().with_max_states(stop_at);
    match check_system(comps, props, &first, &limited) {
        Err(ComposeError::StateLimit { .. }) => {}
        other => return other,
    }
    let again = options.clone().with_checkpoint(plan.resuming());
    let mut limit = stop_at;
    loop {
        limit = limit * 2 + 1;
        match check_system(comps, props, &again, &config.clone().with_max_states(limit)) {
            Err(ComposeError::StateLimit { .. }) => {}
            other => return other,
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn a_stopped_and_resumed_search_reports_what_the_plain_one_does(
        (comps, props) in random_case(),
        stop_at in 1usize..40,
        storage in prop_oneof![Just(Storage::Table), Just(Storage::Compact)],
        threads in 1usize..=2,
        min_slab in 1usize..8,
    ) {
        let comps: Vec<&Lts> = comps.iter().collect();
        let props: Vec<&Lts> = props.iter().collect();
        let options = options_for(&comps);
        let one = Config::default().with_threads(NonZeroUsize::MIN);
        let plain = check_system(&comps, &props, &options, &one);
        let dir = scratch_dir();
        // On two threads every frontier of `min_slab` states is expanded as a slab, so
        // checkpoints fall between slabs too.
        let threads = NonZeroUsize::new(threads).expect("at least one");
        let resumed = with_min_slab(min_slab, || {
            stopped_and_resumed(&comps, &props, &options, stop_at, &dir, storage, threads)
        });
        let _ = std::fs::remove_dir_all(&dir);
        prop_assert_eq!(format!("{plain:?}"), format!("{resumed:?}"));
    }
}

/// Writes a checkpoint of two rings stopped by a budget of 40 states; returns its directory.
fn stopped_checkpoint(comps: &[&Lts], options: &SystemOptions) -> PathBuf {
    let dir = scratch_dir();
    let plan = Checkpointing::new(&dir).with_every(Duration::ZERO);
    let stopped = check_system(
        comps,
        &[],
        &options.clone().with_checkpoint(plan),
        &Config::default().with_max_states(40),
    );
    assert!(
        matches!(stopped, Err(ComposeError::StateLimit { .. })),
        "{stopped:?}"
    );
    dir
}

fn resume(
    comps: &[&Lts],
    options: &SystemOptions,
    plan: Checkpointing,
) -> Result<crate::SafetyReport, ComposeError> {
    let options = options.clone().with_checkpoint(plan.resuming());
    check_system(comps, &[], &options, &Config::default())
}

#[test]
fn another_model_options_or_version_is_refused_and_a_missing_checkpoint_said() {
    let (a, b, c) = (ring(7, "x"), ring(11, "y"), ring(13, "y"));
    let comps = [&a, &b];
    let options = options_for(&comps);
    let dir = stopped_checkpoint(&comps, &options);
    let plan = Checkpointing::new(&dir);
    let other = resume(&[&a, &c], &options_for(&[&a, &c]), plan.clone());
    assert!(
        matches!(
            other,
            Err(ComposeError::Checkpoint(CheckpointError::OtherModel { .. }))
        ),
        "{other:?}"
    );
    let other = resume(&comps, &SystemOptions::default(), plan.clone());
    assert!(
        matches!(
            other,
            Err(ComposeError::Checkpoint(
                CheckpointError::OtherOptions { .. }
            ))
        ),
        "{other:?}"
    );
    let other = resume(&comps, &options, plan.clone().with_version("0.0.0-other"));
    assert!(
        matches!(
            other,
            Err(ComposeError::Checkpoint(
                CheckpointError::OtherVersion { .. }
            ))
        ),
        "{other:?}"
    );
    let dfs = options
        .clone()
        .with_search(SearchOrder::DepthFirst)
        .with_checkpoint(plan.clone());
    let other = check_system(&comps, &[], &dfs, &Config::default());
    assert!(
        matches!(
            other,
            Err(ComposeError::Checkpoint(
                CheckpointError::Unsupported { .. }
            ))
        ),
        "{other:?}"
    );
    // The right model still resumes, to the plain answer.
    let uninterrupted = check_system(&comps, &[], &options, &Config::default());
    assert_eq!(
        format!("{:?}", resume(&comps, &options, plan)),
        format!("{uninterrupted:?}")
    );
    let _ = std::fs::remove_dir_all(&dir);
    let missing = resume(&comps, &options, Checkpointing::new(scratch_dir()));
    assert!(
        matches!(
            missing,
            Err(ComposeError::Checkpoint(CheckpointError::Missing { .. }))
        ),
        "{missing:?}"
    );
}

#[test]
fn a_damaged_checkpoint_is_an_error_never_a_panic() {
    let (a, b) = (ring(7, "x"), ring(11, "y"));
    let comps = [&a, &b];
    let options = options_for(&comps);
    let plain = format!(
        "{:?}",
        check_system(&comps, &[], &options, &Config::default())
    );
    let dir = stopped_checkpoint(&comps, &options);
    let pristine: Vec<(PathBuf, Vec<u8>)> = ["manifest", "states.log", "parents.log"]
        .iter()
        .map(|f| {
            let path = dir.join(f);
            let bytes = std::fs::read(&path).unwrap();
            (path, bytes)
        })
        .collect();
    let restore = || {
        for (path, bytes) in &pristine {
            std::fs::write(path, bytes).unwrap();
        }
    };
    for (path, bytes) in &pristine {
        for cut in 0..bytes.len() {
            restore();
            std::fs::write(path, &bytes[..cut]).unwrap();
            let got = resume(&comps, &options, Checkpointing::new(&dir));
            // A log cut past its counted prefix still resumes (that tail is not the checkpoint's).
            if got.is_ok() {
                assert_eq!(format!("{got:?}"), plain);
                continue;
            }
            assert!(
                matches!(got, Err(ComposeError::Checkpoint(_))),
                "{path:?} cut at {cut}: {got:?}"
            );
        }
        for at in 0..bytes.len() {
            restore();
            let mut flipped = bytes.clone();
            flipped[at] ^= 0x01;
            std::fs::write(path, &flipped).unwrap();
            let got = resume(&comps, &options, Checkpointing::new(&dir));
            if got.is_ok() {
                assert_eq!(format!("{got:?}"), plain);
                continue;
            }
            assert!(
                matches!(got, Err(ComposeError::Checkpoint(_))),
                "{path:?} flipped at {at}: {got:?}"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

//! Malformed FSP: every file of `tests/data/bad/` must give a located error — never a panic, never a
//! stack overflow — and the messages are pinned by insta snapshots so a change in wording is seen.

mod common;

use guarantor_fsp::{FspError, Limits};

/// Parses and elaborates the default target (or, without one, returns the parse result).
fn check(src: &str, file: &str) -> Result<(), FspError> {
    let model = guarantor_fsp::parse(src, file)?;
    if let Some(t) = model.default_target() {
        model.elaborate_with(t, Limits::default().with_max_states(100_000))?;
    }
    Ok(())
}

#[test]
fn every_bad_file_gives_a_located_error() {
    let dir = common::data_dir().join("bad");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(files.len() >= 40, "the corpus has {} files", files.len());
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let src = std::fs::read_to_string(&path).unwrap();
        // A small stack proves that deep input is stopped by limits, not by luck.
        let file = name.clone();
        let result = std::thread::Builder::new()
            .stack_size(1 << 20)
            .spawn(move || check(&src, &file))
            .unwrap()
            .join()
            .unwrap_or_else(|_| panic!("{name}: panicked"));
        let err = result.expect_err(&name);
        assert!(
            err.location.is_some(),
            "{name}: error without a location: {err}"
        );
        let stem = name.trim_end_matches(".lts");
        insta::assert_snapshot!(stem, err.to_string());
    }
}

#[test]
fn hundred_thousand_parentheses_are_an_error() {
    let src = format!(
        "P = {}a -> STOP{}.",
        "(".repeat(100_000),
        ")".repeat(100_000)
    );
    let err = check(&src, "deep.lts").unwrap_err();
    assert!(err.to_string().contains("nesting deeper"), "{err}");
}

#[test]
fn state_limit_ends_elaboration() {
    let src = "P = Q[0],\nQ[i:0..50000] = (a -> Q[i+1]).";
    let model = guarantor_fsp::parse(src, "big.lts").unwrap();
    let err = model
        .elaborate_with("P", Limits::default().with_max_states(1000))
        .unwrap_err();
    assert!(err.to_string().contains("limit"), "{err}");
    assert!(model.elaborate("P").is_ok());
}

#[test]
fn out_of_range_index_is_error_with_warning() {
    let src = "P = Q[0],\nQ[i:0..2] = (a -> Q[i+1]).";
    let sys = guarantor_fsp::parse(src, "oor.lts")
        .unwrap()
        .elaborate("P")
        .unwrap();
    let lts = &sys.components[0].lts;
    assert!(lts.error_state().is_some());
    assert_eq!(sys.warnings.len(), 1);
    insta::assert_snapshot!("out_of_range_warning", sys.warnings[0].to_string());
}

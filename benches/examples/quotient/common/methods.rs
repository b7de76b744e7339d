//! Method names of the quotient examples (`swp`, `swp_fsp`) and the configurations they stand
//! for, so both examples measure the same things under the same names. Not an example itself (no
//! `main`): each example includes it with `#[path]`.

use guarantor_quotient::QuotientConfig;

/// The configuration of a method name: `exact`; `one` or `all` (one edge or every useful edge per
/// step, with the default hand-over to the exact construction); `pure-one` or `pure-all` (the
/// paper's loop to the end); `one@P` or `all@P` (hand-over at P percent). `mono` needs none.
pub(crate) fn config(method: &str) -> QuotientConfig {
    if method == "exact" {
        return QuotientConfig::default().with_refine(false);
    }
    let (loop_kind, fallback) = match method.split_once('@') {
        Some((kind, percent)) => (kind, Some(percent.parse().expect("a percentage"))),
        None => match method.strip_prefix("pure-") {
            Some(kind) => (kind, None),
            None => (method, QuotientConfig::default().exact_fallback),
        },
    };
    QuotientConfig::default()
        .with_split_all(loop_kind == "all")
        .with_exact_fallback(fallback)
}

//! Wall-clock helpers shared by the sliding window examples (`swp`, `swp_fsp`): time one run, take
//! the median of several, print milliseconds. Not an example itself (no `main`): each example
//! includes it with `#[path]`.

use std::time::{Duration, Instant};

/// How long `f` takes.
pub(crate) fn time(f: impl FnOnce()) -> Duration {
    let t = Instant::now();
    f();
    t.elapsed()
}

/// The median of `times` (not empty).
pub(crate) fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

/// `d` in milliseconds.
pub(crate) fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

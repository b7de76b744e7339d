//! Where the independent pieces of a check run: [`Threads`], chosen from [`Config::threads`].
//!
//! Every crate that splits its work (this crate's breadth-first walk, a learner's batch of
//! membership queries, circ's premises of one iteration) asks the config for its threads here, so
//! one setting means the same everywhere: unset, rayon's global pool (every core); `1`, the
//! caller's thread, one piece after another; `n`, a pool of `n` threads shared by the whole
//! process, built the first time anything asks for that size (a check runs many explorations, and
//! each starting threads of its own would cost more than a small one takes). Results come back in
//! the order of the pieces, so a caller that combines them in that order gets the same answer on
//! any number of threads.

use std::sync::{Arc, Mutex, PoisonError};

use rayon::prelude::*;

use crate::config::Config;

/// The threads a check may use (see the module docs).
///
/// ```
/// use std::num::NonZeroUsize;
/// use guarantor_compose::Config;
/// use guarantor_compose::threads::Threads;
/// let config = Config::default().with_threads(NonZeroUsize::new(2).unwrap());
/// let threads = Threads::for_config(&config);
/// assert!(threads.is_concurrent());
/// // Squares of 0..5, computed on two threads, in order.
/// assert_eq!(threads.map_in_order(5, |i| i * i), [0, 1, 4, 9, 16]);
/// ```
#[derive(Clone, Debug)]
pub struct Threads {
    pool: Option<Pool>,
}

/// Where concurrent work runs.
#[derive(Clone, Debug)]
enum Pool {
    /// rayon's global pool.
    Global,
    /// A process-wide pool of a configured size.
    Sized(Arc<rayon::ThreadPool>),
}

impl Threads {
    /// The threads `config` allows: one by one when [`Config::thread_count`] is 1 (or a pool of
    /// the configured size cannot start).
    pub fn for_config(config: &Config) -> Self {
        let pool = match config.threads.map(std::num::NonZeroUsize::get) {
            None if config.thread_count() > 1 => Some(Pool::Global),
            Some(n) if n > 1 => sized_pool(n).map(Pool::Sized),
            _ => None,
        };
        Self { pool }
    }

    /// Whether work runs on more than one thread.
    pub fn is_concurrent(&self) -> bool {
        self.pool.is_some()
    }

    /// `f(0)`, ..., `f(n - 1)`, computed concurrently when [`Threads::is_concurrent`], returned in
    /// index order.
    pub fn map_in_order<R: Send>(&self, n: usize, f: impl Fn(usize) -> R + Sync + Send) -> Vec<R> {
        if n <= 1 || !self.is_concurrent() {
            return (0..n).map(f).collect();
        }
        self.install(|| (0..n).into_par_iter().map(f).collect())
    }

    /// Runs `job` on one of these threads (on the calling thread if there are none), so that
    /// rayon's parallel iterators inside it use these threads and split their work on the spot.
    /// A job that alternates sequential steps with parallel ones (the parallel walk's slabs)
    /// runs whole in here: called from outside the pool at each parallel step instead, it would
    /// hand the step over and sleep until it is done, two thread wake-ups per step.
    pub(crate) fn install<R: Send>(&self, job: impl FnOnce() -> R + Send) -> R {
        match &self.pool {
            Some(Pool::Sized(pool)) => pool.install(job),
            // `scope` runs its body on a worker of the global pool (here, if this is one).
            Some(Pool::Global) => rayon::scope(|_| job()),
            None => job(),
        }
    }
}

/// The process-wide pool of `n` threads, built the first time it is asked for; `None` if its
/// threads cannot be started.
fn sized_pool(n: usize) -> Option<Arc<rayon::ThreadPool>> {
    static POOLS: Mutex<Vec<(usize, Arc<rayon::ThreadPool>)>> = Mutex::new(Vec::new());
    let mut pools = POOLS.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some((_, pool)) = pools.iter().find(|(size, _)| *size == n) {
        return Some(Arc::clone(pool));
    }
    let pool = Arc::new(
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .ok()?,
    );
    pools.push((n, Arc::clone(&pool)));
    Some(pool)
}

#[cfg(test)]
mod tests {
    use std::num::NonZeroUsize;

    use super::*;

    fn at(n: usize) -> Threads {
        Threads::for_config(&Config::default().with_threads(NonZeroUsize::new(n).unwrap()))
    }

    #[test]
    fn one_thread_is_one_by_one_and_more_are_concurrent() {
        assert!(!at(1).is_concurrent());
        assert!(at(2).is_concurrent());
        assert!(at(3).is_concurrent());
    }

    #[test]
    fn a_sized_pool_is_built_once_per_size_and_runs_that_many_threads() {
        let (a, b) = (sized_pool(3).unwrap(), sized_pool(3).unwrap());
        assert!(Arc::ptr_eq(&a, &b));
        assert_eq!(at(3).install(rayon::current_num_threads), 3);
    }

    #[test]
    fn results_come_back_in_order_on_any_thread_count() {
        for n in [1, 2, 4] {
            let got = at(n).map_in_order(1000, |i| i * 2);
            assert_eq!(got, (0..1000).map(|i| i * 2).collect::<Vec<_>>());
        }
    }
}

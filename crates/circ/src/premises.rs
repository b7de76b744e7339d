//! The premise checks of one `ApplyAG` iteration, on one thread or several (issue 17).
//!
//! Within an iteration the premises `M_i |= S(G_i) > g_i` and the last premise
//! `S(G_{n+1}) |= P` are independent checks of the same guarantees: each reads the prepared
//! system, the guarantees and the shared [`ReduceMemo`], and none reads another's answer (the
//! counterexample analysis that follows them is what depends on their order). This module holds
//! what one check is and how a batch of them runs; `acr` decides which premises to check and takes
//! their answers in order.
//! - [`Job`]: one premise to check, its environment and its premise-cache key.
//! - [`Decider::decide`]: one check (reduce the environment, explore, lift the counterexamples
//!   back to the original guarantees; see [`crate::reduce`]), with its effects on the run's
//!   counters returned as a [`Decision`] instead of applied.
//! - [`Batches`]: where a batch runs: the config's
//!   [`Threads`](guarantor_compose::threads::Threads), as for every piece of a check that runs
//!   concurrently (one by one on the calling thread for one thread, rayon's global pool when the
//!   setting is unset, the process's pool of the set size otherwise), plus a cancel flag per
//!   premise.
//!
//! **The same answer on any number of threads.** A batch only computes. `acr` takes the
//! decisions in premise order and applies each one's effects (the `premise_checks` count, the
//! largest product, the premise cache and its hit count) exactly where the one-thread loop
//! applies them, and stops exactly where that loop stops (an abstract counterexample, an error).
//! So the verdict, the counterexample, the guarantees, the iteration and refinement counts and
//! every counter of [`CircReport`](crate::CircReport) and of the method's report are those of the
//! one-thread run. What a batch computed past the point where the loop stopped is thrown away.
//! One figure can differ: a [`Monitor`](guarantor_compose::Monitor) on the config sees every
//! exploration as it runs (progress lines need that), so the largest product it saw, which the
//! method reports as `Stats::states` when it is larger than the largest product the loop took,
//! may include a thrown-away check's product in an iteration that ends at a premise's abstract
//! counterexample.
//!
//! **When a batch runs concurrently.** With more than one thread, every iteration decides all its
//! premises (the last one too) concurrently before the analysis, except with
//! [`CexPerIteration::One`](crate::CexPerIteration::One): that loop stops at the first failing
//! premise, so a batch would mostly check premises the loop never looks at, and they are checked
//! one by one as they are reached.
//!
//! **Budgets and stopping.** Every check runs under the check's config: its own exploration
//! within [`Config::max_states`](guarantor_compose::Config::max_states) (so up to
//! `thread_count` explorations are alive at once, as the threads setting says), the shared
//! deadline, and a cancel flag of its own. A check that fails with an error raises the flags of
//! the checks after it in premise order: the in-order pass stops at that error or before it, so
//! their answers are never needed. The checks before it run to their end, because the in-order
//! pass may stop at one of them first, as the one-thread loop would. While a batch runs, a watcher
//! thread forwards the caller's cancel flag (if the config has one) to every check's flag.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, mpsc};
use std::time::Duration;

use guarantor_compose::Config;
use guarantor_compose::threads::Threads;
use guarantor_lts::Lts;

use crate::config::CircConfig;
use crate::error::CircError;
use crate::reduce::{PremiseKey, ReduceMemo, reduce};
use crate::system::PreparedSystem;
use crate::violations::premise_violations;

/// How often the watcher of a batch looks at the caller's cancel flag.
const WATCH_EVERY: Duration = Duration::from_millis(5);

/// One premise of an iteration to be decided.
#[derive(Debug)]
pub(crate) struct Job<'g> {
    /// `Some((i, g_i))`: premise `i` with its guarantee; `None`: the last premise, observed by
    /// the property.
    pub(crate) premise: Option<(usize, &'g Lts)>,
    /// The assumed guarantees, in the rule's order.
    pub(crate) refs: Vec<&'g Lts>,
    /// The premise-cache key ([`CircConfig::reuse_premises`]).
    pub(crate) key: Option<PremiseKey>,
    /// The cache knows that the premise holds with these guarantees: nothing to check.
    pub(crate) known: bool,
}

/// What deciding a premise found, with the effects the in-order pass applies.
#[derive(Debug)]
pub(crate) struct Decision {
    /// Counterexamples as global ids, last step included; empty when the premise holds.
    pub(crate) traces: Vec<Vec<u32>>,
    /// The most product states one of its explorations reached.
    pub(crate) states: usize,
    /// The premise holds: its key goes into the premise cache.
    pub(crate) held: bool,
}

/// What a premise check reads: the system, the switches and the reduction memo.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Decider<'a> {
    pub(crate) sys: &'a PreparedSystem,
    pub(crate) config: &'a CircConfig,
    pub(crate) memo: &'a ReduceMemo,
}

impl Decider<'_> {
    /// How many counterexamples one premise check may return.
    pub(crate) fn per_premise(&self) -> usize {
        if self.config.reduce_environments {
            self.config.cex_per_iteration.per_premise()
        } else {
            1
        }
    }

    /// Decides `job` (not known to hold) under `compose`: on the reduced environment first (up
    /// to [`Self::per_premise`] counterexamples, lifted back to the original one), and on the
    /// original environment when none was found there that lifts.
    ///
    /// # Errors
    /// The budget errors of `compose`; [`CircError::Internal`] when the reduced environment
    /// violates and the original does not (a bug).
    pub(crate) fn decide(&self, job: &Job<'_>, compose: &Config) -> Result<Decision, CircError> {
        let refs = &job.refs[..];
        let i = job.premise.map(|(i, _)| i);
        let checked = i.map(|i| &self.sys.components()[i]);
        let observer = job.premise.map_or_else(|| self.sys.property(), |(_, g)| g);
        // The actions the environment is reduced to: those of `M_i`, or of the property.
        let own_lts = checked.unwrap_or(observer);
        let own = |n: &str| own_lts.alphabet().contains(n);
        let reduced = if self.config.reduce_environments && !refs.is_empty() {
            // The last premise has nothing to check without an environment.
            reduce(refs, &own, self.memo).filter(|env| checked.is_some() || !env.is_empty())
        } else {
            None
        };
        let mut states = 0;
        if let Some(env) = &reduced {
            let found =
                premise_violations(checked, &env.parts(), observer, self.per_premise(), compose)?;
            states = found.states;
            if found.traces.is_empty() {
                return Ok(Decision {
                    traces: Vec::new(),
                    states,
                    held: true,
                });
            }
            let mut budget = compose.budget()?;
            let mut lifted: Vec<Vec<u32>> = Vec::new();
            for trace in &found.traces {
                let full = if checked.is_none() {
                    env.lift(trace, &own, &mut budget)?
                } else if let Some((last, prefix)) = trace.split_last() {
                    // The environment need not allow `M_i`'s last step: lift the prefix only.
                    env.lift(prefix, &own, &mut budget)?.map(|mut full| {
                        full.push(last.clone());
                        full
                    })
                } else {
                    None
                };
                lifted.extend(full.map(|full| self.sys.trace_ids(&full)));
            }
            if !lifted.is_empty() {
                return Ok(Decision {
                    traces: lifted,
                    states,
                    held: false,
                });
            }
        }
        let found = premise_violations(checked, refs, observer, 1, compose)?;
        states = states.max(found.states);
        match found.traces.first() {
            Some(trace) => Ok(Decision {
                traces: vec![self.sys.trace_ids(trace)],
                states,
                held: false,
            }),
            None if reduced.is_some() => Err(CircError::Internal {
                reason: match i {
                    Some(i) => format!("premise {i} violated on the reduced environment only"),
                    None => "last premise violated on the reduced environment only".to_owned(),
                },
            }),
            None => Ok(Decision {
                traces: Vec::new(),
                states,
                held: true,
            }),
        }
    }
}

/// Where the premises of an iteration are decided (see the module docs).
#[derive(Debug)]
pub(crate) struct Batches {
    threads: Threads,
}

impl Batches {
    /// Where the premises of a run under `config` are decided.
    pub(crate) fn new(config: &Config) -> Self {
        Self {
            threads: Threads::for_config(config),
        }
    }

    /// Whether a batch runs on more than one thread.
    pub(crate) fn is_concurrent(&self) -> bool {
        self.threads.is_concurrent()
    }

    /// Decides every job the cache does not know, concurrently, under `config` with a cancel flag
    /// per job (see the module docs); `None` for a known job. The answers are in job order.
    pub(crate) fn decide_all(
        &self,
        decider: Decider<'_>,
        jobs: &[Job<'_>],
        config: &Config,
    ) -> Vec<Option<Result<Decision, CircError>>> {
        let flags: Vec<Arc<AtomicBool>> = jobs.iter().map(|_| Arc::default()).collect();
        let one = |k: usize| {
            let job = &jobs[k];
            if job.known {
                return None;
            }
            let answer = decider.decide(job, &config.clone().with_cancel(Arc::clone(&flags[k])));
            if answer.is_err() {
                // The in-order pass stops here or before: the later answers are never needed.
                for flag in &flags[k + 1..] {
                    flag.store(true, Ordering::Relaxed);
                }
            }
            Some(answer)
        };
        std::thread::scope(|scope| {
            let (done, finished) = mpsc::channel::<()>();
            if let Some(caller) = &config.cancel {
                let flags = &flags;
                scope.spawn(move || forward_cancel(caller, flags, &finished));
            }
            let answers = self.threads.map_in_order(jobs.len(), one);
            drop(done);
            answers
        })
    }
}

/// Raises every flag of `flags` once `caller` is raised; returns when that happened or when the
/// batch is finished (`finished` disconnects).
fn forward_cancel(caller: &AtomicBool, flags: &[Arc<AtomicBool>], finished: &mpsc::Receiver<()>) {
    loop {
        if caller.load(Ordering::Relaxed) {
            for flag in flags {
                flag.store(true, Ordering::Relaxed);
            }
            return;
        }
        match finished.recv_timeout(WATCH_EVERY) {
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Ok(()) | Err(mpsc::RecvTimeoutError::Disconnected) => return,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flags(n: usize) -> Vec<Arc<AtomicBool>> {
        (0..n).map(|_| Arc::default()).collect()
    }

    #[test]
    fn the_callers_cancel_reaches_every_check_of_the_batch() {
        let caller = AtomicBool::new(true);
        let flags = flags(3);
        let (_running, finished) = mpsc::channel();
        forward_cancel(&caller, &flags, &finished);
        assert!(flags.iter().all(|f| f.load(Ordering::Relaxed)));
    }

    #[test]
    fn the_watcher_stops_with_the_batch_and_raises_nothing() {
        let caller = AtomicBool::new(false);
        let flags = flags(3);
        let (done, finished) = mpsc::channel::<()>();
        drop(done);
        forward_cancel(&caller, &flags, &finished);
        assert!(flags.iter().all(|f| !f.load(Ordering::Relaxed)));
    }

    #[test]
    fn one_thread_decides_one_by_one() {
        let one = Config::default().with_threads(std::num::NonZeroUsize::MIN);
        assert!(!Batches::new(&one).is_concurrent());
        let two = Config::default().with_threads(std::num::NonZeroUsize::new(2).unwrap());
        assert!(Batches::new(&two).is_concurrent());
    }
}

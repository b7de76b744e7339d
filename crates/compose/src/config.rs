//! Resource limits for every exploration: [`Config`] (what the caller allows) and [`Budget`] (the
//! cheap checker that loops consult).
//!
//! Budgets live in the config rather than in extra arguments so that every entry point of this crate
//! (and of the method crates built on it) takes the same one value, and so that running out of a
//! budget always ends in a typed error ([`ComposeError::StateLimit`], [`ComposeError::Deadline`],
//! [`ComposeError::Cancelled`]) instead of a hang. Reading the clock costs tens of nanoseconds, which
//! would dominate a loop that handles a state in about a hundred, so [`Budget::tick`] looks at the
//! clock and the cancel flag only once every [`Budget::CHECK_EVERY`] ticks.

use std::cell::Cell;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::error::ComposeError;
use crate::monitor::Monitor;

/// Limits on an exploration. `Config::default()` is unlimited.
///
/// ```
/// use std::time::Duration;
/// use guarantor_compose::Config;
/// let config = Config::default().with_max_states(1_000_000).with_timeout(Duration::from_secs(10));
/// assert_eq!(config.max_states, Some(1_000_000));
/// assert!(config.deadline.is_some());
/// ```
#[derive(Clone, Debug, Default)]
pub struct Config {
    /// The largest number of product states an exploration may discover (an error state of an
    /// eager composition counts as one). Default: `None`, unlimited.
    pub max_states: Option<usize>,
    /// The instant after which an exploration gives up with [`ComposeError::Deadline`].
    /// Default: `None`, no deadline.
    pub deadline: Option<Instant>,
    /// A flag another thread may set to stop the exploration with [`ComposeError::Cancelled`].
    /// Default: `None`, not cancellable.
    pub cancel: Option<Arc<AtomicBool>>,
    /// Live counters every exploration under this config publishes to (for progress reports and
    /// for the largest product a method built). Default: `None`.
    pub monitor: Option<Arc<Monitor>>,
}

impl Config {
    /// An unlimited config (the same as `Config::default()`).
    pub fn new() -> Self {
        Self::default()
    }

    /// Limits the number of product states.
    #[must_use]
    pub fn with_max_states(mut self, max_states: usize) -> Self {
        self.max_states = Some(max_states);
        self
    }

    /// Sets the deadline to now plus `timeout`. A timeout too long for the clock to represent
    /// leaves the config without a deadline.
    #[must_use]
    pub fn with_timeout(self, timeout: Duration) -> Self {
        match Instant::now().checked_add(timeout) {
            Some(deadline) => self.with_deadline(deadline),
            None => self,
        }
    }

    /// Sets the deadline.
    #[must_use]
    pub fn with_deadline(mut self, deadline: Instant) -> Self {
        self.deadline = Some(deadline);
        self
    }

    /// Sets the cancel flag: storing `true` in it stops explorations that use this config.
    #[must_use]
    pub fn with_cancel(mut self, cancel: Arc<AtomicBool>) -> Self {
        self.cancel = Some(cancel);
        self
    }

    /// Attaches a [`Monitor`]: every exploration under this config reports its states to it.
    #[must_use]
    pub fn with_monitor(mut self, monitor: Arc<Monitor>) -> Self {
        self.monitor = Some(monitor);
        self
    }

    /// A fresh [`Budget`] for one exploration under this config, checked once immediately (a
    /// deadline in the past or a raised cancel flag fails here, before any work).
    pub fn budget(&self) -> Result<Budget<'_>, ComposeError> {
        let budget = Budget {
            config: self,
            ticks: 0,
            states: Cell::new(0),
        };
        budget.check_now()?;
        Ok(budget)
    }
}

/// The running check of a [`Config`]'s limits inside one exploration loop.
///
/// ```
/// use guarantor_compose::{ComposeError, Config};
/// let config = Config::default().with_max_states(10);
/// let mut budget = config.budget()?;
/// for _ in 0..100_000 {
///     budget.tick()?; // cheap: looks at the clock once every few thousand calls
/// }
/// assert!(budget.check_states(10).is_ok());
/// assert!(matches!(budget.check_states(11), Err(ComposeError::StateLimit { limit: 10 })));
/// # Ok::<(), ComposeError>(())
/// ```
///
/// When the config carries a [`Monitor`], the budget publishes the largest state count it was
/// asked about at each look at the clock and when it is dropped (the exploration's end).
#[derive(Debug)]
pub struct Budget<'c> {
    config: &'c Config,
    ticks: u32,
    /// The largest count passed to [`Budget::check_states`], kept for the monitor.
    states: Cell<usize>,
}

impl Budget<'_> {
    /// How many [`Budget::tick`] calls pass between two looks at the clock and the cancel flag.
    pub const CHECK_EVERY: u32 = 4096;

    /// Counts one unit of work; every [`Self::CHECK_EVERY`] units, checks the deadline and the cancel
    /// flag.
    #[inline]
    pub fn tick(&mut self) -> Result<(), ComposeError> {
        self.ticks = self.ticks.wrapping_add(1);
        if self.ticks % Self::CHECK_EVERY == 0 {
            self.check_now()
        } else {
            Ok(())
        }
    }

    /// Fails with [`ComposeError::StateLimit`] if `states` exceeds the configured maximum.
    #[inline]
    pub fn check_states(&self, states: usize) -> Result<(), ComposeError> {
        if states > self.states.get() {
            self.states.set(states);
        }
        match self.config.max_states {
            Some(limit) if states > limit => Err(ComposeError::StateLimit { limit }),
            _ => Ok(()),
        }
    }

    /// Checks the cancel flag and the deadline now.
    pub fn check_now(&self) -> Result<(), ComposeError> {
        if let Some(monitor) = &self.config.monitor {
            monitor.record_states(self.states.get());
        }
        if self
            .config
            .cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed))
        {
            return Err(ComposeError::Cancelled);
        }
        if self.config.deadline.is_some_and(|d| Instant::now() >= d) {
            return Err(ComposeError::Deadline);
        }
        Ok(())
    }
}

impl Drop for Budget<'_> {
    fn drop(&mut self) {
        if let Some(monitor) = &self.config.monitor {
            monitor.finish_exploration(self.states.get());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn past_deadline_fails_at_once() {
        let config = Config::default().with_deadline(Instant::now());
        assert!(matches!(config.budget(), Err(ComposeError::Deadline)));
    }

    #[test]
    fn cancel_flag_is_seen_within_check_every_ticks() {
        let flag = Arc::new(AtomicBool::new(false));
        let config = Config::default().with_cancel(Arc::clone(&flag));
        let mut budget = config.budget().unwrap();
        flag.store(true, Ordering::Relaxed);
        let failed_at = (0..=Budget::CHECK_EVERY).find(|_| budget.tick().is_err());
        assert!(failed_at.is_some());
    }

    #[test]
    fn huge_timeout_does_not_overflow() {
        let config = Config::default().with_timeout(Duration::MAX);
        assert!(config.budget().is_ok());
    }
}

//! Resource limits for every exploration: [`Config`] (what the caller allows) and [`Budget`] (the
//! cheap checker that loops consult).
//!
//! Budgets live in the config rather than in extra arguments so that every entry point of this crate
//! (and of the method crates built on it) takes the same one value, and so that running out of a
//! budget always ends in a typed error ([`ComposeError::StateLimit`], [`ComposeError::Deadline`],
//! [`ComposeError::Cancelled`], [`ComposeError::MemoryLimit`]) instead of a hang. Reading the clock
//! costs tens of nanoseconds, and the resident set about a microsecond, which would dominate a loop
//! that handles a state in about a hundred, so [`Budget::tick`] looks at the clock, the cancel flag
//! and the memory only once every [`Budget::CHECK_EVERY`] ticks.

use std::cell::Cell;
use std::num::NonZeroUsize;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use guarantor_lts::Lts;

use crate::error::ComposeError;
use crate::memory;
use crate::monitor::Monitor;

/// How an on-the-fly safety or deadlock search (`check_system`, `check_safety`, `find_deadlock`
/// and the premise and query checks the methods run through them) keeps the states it has
/// visited. Verdicts, counts and counterexamples do not depend on it.
///
/// ```
/// use guarantor_compose::{Config, config::Storage};
/// assert_eq!(Config::default().storage, Storage::Compact);
/// let config = Config::default().with_storage(Storage::Table);
/// assert_eq!(config.storage, Storage::Table);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Storage {
    /// A hash table of packed tuples beside the tuples in discovery order: 40-70 bytes per
    /// state, kept for comparison and for systems whose states pack into more than 74 bits
    /// (which take it whatever the config says).
    Table,
    /// Compact hashing (the default): each state once, in a slot of 5-8 bytes of sub-tables
    /// kept 64-80 % full, and only the unexpanded states' tuples: 13-17 bytes per state of peak
    /// memory on the model families, at 1.1-1.6 times the table's time, on every thread
    /// [`Config::threads`] allows, where a state packs into at most 74 bits (wider systems use
    /// the table). Walks that look states up by number (the eager composition, depth-first and
    /// progress searches) keep the table whatever this says.
    #[default]
    Compact,
}

/// Limits on an exploration. `Config::default()` is unlimited.
///
/// ```
/// use std::time::Duration;
/// use guarantor_compose::Config;
/// let config = Config::default().with_max_states(1_000_000).with_timeout(Duration::from_secs(10));
/// assert_eq!(config.max_states, Some(1_000_000));
/// // The timeout's clock starts with the check, not here.
/// assert_eq!(config.effective_deadline(), None);
/// assert!(config.started().effective_deadline().is_some());
/// ```
///
/// **When a timeout starts.** [`Config::with_timeout`] gives a duration, not an instant: the clock
/// starts when a check starts ([`Config::started`], which every `Method` and the facade call on
/// entry), or else at the first exploration run under this config or any clone of it. All the
/// explorations of one check therefore share one deadline, however many a compositional method
/// runs, and a config built long before the check loses nothing.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct Config {
    /// The largest number of states one exploration or explicit construction may hold, in units
    /// of one state of the monolithic checker's store ([`Config::STATE_BYTES`], about 48 bytes).
    /// Default: `None`, unlimited.
    ///
    /// What one construction counts, so that its memory stays near `max_states` x
    /// [`Config::STATE_BYTES`] whatever it builds (docs/benchmarks/notebook/budgets.md measures
    /// it):
    /// - an on-the-fly search (`check_system`, `check_safety`, `find_deadlock`): one per product
    ///   state discovered;
    /// - an eager composition ([`compose`](crate::compose())): one per product state (the error
    ///   state too) plus [`Config::units_for_bytes`] of the transitions it stores
    ///   ([`Config::TRANSITION_BYTES`] each), since a product with many actions keeps far more
    ///   per state than the search;
    /// - a subset construction (the weakest assumptions of `guarantor-lstar`): one per subset,
    ///   plus the bytes of its members and transitions, plus the input it determinises;
    /// - an L* learner: the bytes of its observation table (rows of S and S·A with their cells)
    ///   and of its membership cache (one trie node per word prefix asked), over `STATE_BYTES`;
    /// - the quotient's graphs (`guarantor-quotient`): one per node of the abstract or exact
    ///   `M || P_err`, plus the bytes of its edges and of the label rows kept for it, of the
    ///   abstract edges of `M` it is built from and of the grouping of `M`'s moves that computes
    ///   them; its refinement loop also charges its copy of `M`'s moves and its partition.
    ///
    /// The limit bounds what is alive at once, not each construction alone: a method that keeps
    /// one construction while it runs the next (the quotient keeps the composed rest of the
    /// system while it builds its graphs, and its assumptions while it runs the final check)
    /// runs the next under [`Config::holding`] the units it keeps ([`Config::units_of`] for a
    /// built LTS), so the next may use only `max_states` minus those, and a check whose
    /// constructions each fit alone but not together stops with [`ComposeError::StateLimit`]
    /// (of the whole limit). What is dropped is released by scope: the caller goes back to the
    /// config it held nothing in. A construction that reads its input throughout may count the
    /// input itself instead (the subset construction does).
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
    /// A time limit measured from the start of the check (see the type's docs); with
    /// [`Config::deadline`], whichever comes first ends the check. Default: `None`.
    pub timeout: Option<Duration>,
    /// How many threads a check may run at once where its work splits into independent pieces
    /// (today: a learner's batch of membership queries, each a small model check). Results do not
    /// depend on it: the pieces are answered in order. With more than one thread, up to that many
    /// explorations are alive at once, each within [`Config::max_states`]. Default: `None`, every
    /// core.
    pub threads: Option<NonZeroUsize>,
    /// How the on-the-fly safety and deadlock searches keep the states they have visited.
    /// Default: [`Storage::Compact`].
    pub storage: Storage,
    /// The most bytes of resident memory the whole process may hold (see
    /// [`Config::with_max_memory`]). Default: `None`, unlimited.
    pub max_memory: Option<u64>,
    /// When the timeout's clock started; shared by the clones of a config, so that every
    /// exploration of one check sees one deadline.
    clock: Arc<OnceLock<Instant>>,
    /// Units of [`Config::max_states`] that earlier constructions of this check still hold
    /// ([`Config::holding`]); every budget under this config counts them.
    held: usize,
}

impl Config {
    /// The memory one unit of [`Config::max_states`] stands for: what the monolithic checker's
    /// store keeps per state (measured 46-50 bytes on issue 14's cases,
    /// docs/benchmarks/notebook/budgets.md). Constructions that keep more per state charge the
    /// rest in these units ([`Config::units_for_bytes`]).
    pub const STATE_BYTES: usize = 48;

    /// What an eager composition keeps per transition: 12 bytes in the builder and 8 in the built
    /// LTS, both alive while it is built.
    pub const TRANSITION_BYTES: usize = 20;

    /// `bytes` of a construction's memory in units of [`Config::max_states`] (rounded up).
    ///
    /// ```
    /// use guarantor_compose::Config;
    /// assert_eq!(Config::units_for_bytes(0), 0);
    /// assert_eq!(Config::units_for_bytes(1), 1);
    /// assert_eq!(Config::units_for_bytes(Config::STATE_BYTES * 3), 3);
    /// ```
    pub const fn units_for_bytes(bytes: usize) -> usize {
        bytes.div_ceil(Self::STATE_BYTES)
    }

    /// What a built [`Lts`] keeps, in units of [`Config::max_states`]: its CSR, an offset per
    /// state (4 bytes) and 8 bytes per transition. A caller that keeps an LTS it composed while
    /// it runs further constructions holds this many units ([`Config::holding`]).
    ///
    /// ```
    /// use guarantor_compose::Config;
    /// use guarantor_lts::Lts;
    /// let ring = Lts::from_edges((0..12).map(|i| (i, "a", (i + 1) % 12)))?;
    /// assert_eq!(Config::units_of(&ring), 3); // 12 x 4 + 12 x 8 bytes
    /// # Ok::<(), guarantor_lts::LtsError>(())
    /// ```
    pub fn units_of(lts: &Lts) -> usize {
        Self::units_for_bytes(lts.num_states() * 4 + lts.num_transitions() * 8)
    }

    /// This config for the next construction of a check while the caller still holds `units` of
    /// [`Config::max_states`] from earlier ones (added to what this config already holds): the
    /// next may use only the rest, so what is alive at once stays within the limit. A budget
    /// over the limit reports the whole limit. Dropping the returned config releases the units;
    /// the clock, cancel flag and monitor are shared as by a clone.
    ///
    /// ```
    /// use guarantor_compose::{ComposeError, Config};
    /// let config = Config::default().with_max_states(10);
    /// // The caller keeps 7 units of one construction while it runs the next.
    /// let next = config.holding(7);
    /// assert_eq!(next.held(), 7);
    /// let budget = next.budget()?;
    /// assert!(budget.check_states(3).is_ok());
    /// assert!(matches!(budget.check_states(4), Err(ComposeError::StateLimit { limit: 10 })));
    /// // The config it was made from still allows the whole limit.
    /// assert!(config.budget()?.check_states(10).is_ok());
    /// # Ok::<(), ComposeError>(())
    /// ```
    #[must_use]
    pub fn holding(&self, units: usize) -> Self {
        let mut config = self.clone();
        config.held = config.held.saturating_add(units);
        config
    }

    /// The units of [`Config::max_states`] held by earlier constructions ([`Config::holding`]).
    pub fn held(&self) -> usize {
        self.held
    }

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

    /// Sets how many threads a check may use ([`Config::threads`]; 1 runs everything on the
    /// calling thread).
    #[must_use]
    pub fn with_threads(mut self, threads: NonZeroUsize) -> Self {
        self.threads = Some(threads);
        self
    }

    /// Limits the process's resident memory to `bytes`: every exploration stops with
    /// [`ComposeError::MemoryLimit`] once the resident set ([`memory::resident_bytes`]), plus the
    /// growth its store has announced next ([`Budget::expect_growth`]: a hash table that doubles
    /// allocates the new table beside the old one), would pass the limit. Budgets look at the
    /// resident set with the clock, once every [`Budget::CHECK_EVERY`] ticks. The limit is on
    /// the process, not on one exploration: what the caller holds counts too. Where the platform
    /// does not report the resident set (only Linux does here) the limit is never reached.
    ///
    /// ```
    /// use guarantor_compose::{ComposeError, Config};
    /// // A limit below what the process already holds stops the first exploration at once.
    /// let config = Config::default().with_max_memory(1 << 10);
    /// if cfg!(target_os = "linux") {
    ///     assert!(matches!(config.budget(), Err(ComposeError::MemoryLimit { limit: 1024 })));
    /// }
    /// ```
    ///
    /// [`memory::resident_bytes`]: crate::memory::resident_bytes
    #[must_use]
    pub fn with_max_memory(mut self, bytes: u64) -> Self {
        self.max_memory = Some(bytes);
        self
    }

    /// Sets how the searches keep visited states ([`Config::storage`]).
    #[must_use]
    pub fn with_storage(mut self, storage: Storage) -> Self {
        self.storage = storage;
        self
    }

    /// The number of threads [`Config::threads`] allows: the setting, or every core.
    pub fn thread_count(&self) -> usize {
        self.threads.map_or_else(
            || std::thread::available_parallelism().map_or(1, NonZeroUsize::get),
            NonZeroUsize::get,
        )
    }

    /// Sets a time limit that starts with the check (see the type's docs). A timeout too long for
    /// the clock to represent is no limit.
    #[must_use]
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(timeout);
        self.clock = Arc::default();
        self
    }

    /// This config with the timeout's clock started now, for one check: its clones share the
    /// clock. A config whose clock already runs (a check inside a check, such as a portfolio's
    /// member) keeps it; one without a timeout is returned as it is. The config it is called on
    /// is not changed, so calling `started` on one config before each of several checks gives each
    /// its whole timeout.
    #[must_use]
    pub fn started(&self) -> Self {
        let mut config = self.clone();
        if config.timeout.is_some() && config.clock.get().is_none() {
            config.clock = Arc::new(OnceLock::from(Instant::now()));
        }
        config
    }

    /// The instant this check must end by: the earlier of [`Config::deadline`] and the timeout
    /// counted from the start of the check (`None` while that clock has not started).
    pub fn effective_deadline(&self) -> Option<Instant> {
        let from_timeout = self
            .timeout
            .and_then(|t| self.clock.get().and_then(|start| start.checked_add(t)));
        match (self.deadline, from_timeout) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Whether the effective deadline has passed.
    pub fn is_past_deadline(&self) -> bool {
        self.effective_deadline()
            .is_some_and(|d| Instant::now() >= d)
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

    /// Fails if the cancel flag is set, the deadline has passed or the resident memory is over
    /// [`Config::max_memory`] (what [`Budget::check_now`] checks, for loops and threads that work
    /// without holding a budget).
    ///
    /// ```
    /// use guarantor_compose::Config;
    /// assert!(Config::default().check_interrupt().is_ok());
    /// ```
    pub fn check_interrupt(&self) -> Result<(), ComposeError> {
        self.check_memory_for(0)?;
        self.check_cancel_and_deadline()
    }

    /// Fails with [`ComposeError::MemoryLimit`] if allocating `bytes` more (and touching them)
    /// would take the process's resident set past [`Config::max_memory`]: for a construction
    /// that allocates a large block in one step, between two looks of its budget (a copy of an
    /// LTS, a table filled in one loop), to call before it. The growth every live budget of the
    /// process has announced ([`Budget::expect_growth`]) counts too: explorations that run at
    /// once (a portfolio's members, concurrent premise checks) share the one limit.
    ///
    /// ```
    /// use guarantor_compose::{ComposeError, Config};
    /// if let Some(now) = guarantor_compose::memory::resident_bytes() {
    ///     let config = Config::default().with_max_memory(now + (64 << 20));
    ///     assert!(config.check_memory_for(1 << 20).is_ok());
    ///     assert!(matches!(config.check_memory_for(1 << 30), Err(ComposeError::MemoryLimit { .. })));
    /// }
    /// ```
    pub fn check_memory_for(&self, bytes: usize) -> Result<(), ComposeError> {
        match self.max_memory {
            Some(limit)
                if memory::resident_bytes().is_some_and(|rss| {
                    rss.saturating_add(bytes as u64)
                        .saturating_add(memory::announced())
                        > limit
                }) =>
            {
                Err(ComposeError::MemoryLimit { limit })
            }
            _ => Ok(()),
        }
    }

    /// The rest of [`Config::check_interrupt`]: the cancel flag and the deadline.
    fn check_cancel_and_deadline(&self) -> Result<(), ComposeError> {
        if self
            .cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed))
        {
            return Err(ComposeError::Cancelled);
        }
        if self.is_past_deadline() {
            return Err(ComposeError::Deadline);
        }
        Ok(())
    }

    /// A fresh [`Budget`] for one exploration under this config, checked once immediately (a
    /// deadline in the past or a raised cancel flag fails here, before any work).
    pub fn budget(&self) -> Result<Budget<'_>, ComposeError> {
        if self.timeout.is_some() {
            // The first exploration of a check that nobody started starts its clock.
            self.clock.get_or_init(Instant::now);
        }
        let budget = Budget {
            config: self,
            ticks: 0,
            states: Cell::new(0),
            growth: Cell::new(0),
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
    /// The bytes the exploration's next big allocation will take ([`Budget::expect_growth`]).
    growth: Cell<u64>,
}

impl Budget<'_> {
    /// How many [`Budget::tick`] calls pass between two looks at the clock and the cancel flag.
    pub const CHECK_EVERY: u32 = 4096;

    /// Counts one unit of work; every [`Self::CHECK_EVERY`] units, checks the deadline and the cancel
    /// flag.
    #[inline]
    pub fn tick(&mut self) -> Result<(), ComposeError> {
        self.ticks = self.ticks.wrapping_add(1);
        if self.ticks.is_multiple_of(Self::CHECK_EVERY) {
            self.check_now()
        } else {
            Ok(())
        }
    }

    /// Counts `work` units of work at once (a construction whose steps vary widely in cost, such
    /// as expanding one subset of a subset construction, passes what a step went over); looks at
    /// the clock and the cancel flag whenever the count passes a multiple of
    /// [`Self::CHECK_EVERY`], so a long step is never more than one step late.
    #[inline]
    pub fn tick_by(&mut self, work: usize) -> Result<(), ComposeError> {
        let work = u32::try_from(work).unwrap_or(u32::MAX);
        let before = self.ticks;
        self.ticks = self.ticks.wrapping_add(work);
        if work >= Self::CHECK_EVERY || before / Self::CHECK_EVERY != self.ticks / Self::CHECK_EVERY
        {
            self.check_now()
        } else {
            Ok(())
        }
    }

    /// Fails with [`ComposeError::StateLimit`] if `states`, plus what the config holds
    /// ([`Config::holding`]), exceeds the configured maximum.
    #[inline]
    pub fn check_states(&self, states: usize) -> Result<(), ComposeError> {
        if states > self.states.get() {
            self.states.set(states);
        }
        match self.config.max_states {
            Some(limit) if states.saturating_add(self.config.held) > limit => {
                Err(ComposeError::StateLimit { limit })
            }
            _ => Ok(()),
        }
    }

    /// Says that the exploration's next big allocation (a hash table's doubling, which keeps the
    /// old table until the new one is filled) will take `bytes` more: the memory limit then
    /// counts them as resident already, so the exploration stops before the allocation instead
    /// of overshooting the limit by it. The latest call replaces earlier ones.
    ///
    /// ```
    /// use guarantor_compose::{ComposeError, Config};
    /// if let Some(now) = guarantor_compose::memory::resident_bytes() {
    ///     let config = Config::default().with_max_memory(now + (1 << 30));
    ///     let budget = config.budget()?;
    ///     budget.expect_growth(2 << 30);
    ///     assert!(matches!(budget.check_now(), Err(ComposeError::MemoryLimit { .. })));
    ///     budget.expect_growth(0);
    ///     assert!(budget.check_now().is_ok());
    /// }
    /// # Ok::<(), ComposeError>(())
    /// ```
    #[inline]
    pub fn expect_growth(&self, bytes: usize) {
        let new = bytes as u64;
        let old = self.growth.replace(new);
        if old != new && self.config.max_memory.is_some() {
            memory::announce(new, old);
        }
    }

    /// Checks the cancel flag, the deadline and the memory limit now.
    pub fn check_now(&self) -> Result<(), ComposeError> {
        if let Some(monitor) = &self.config.monitor {
            monitor.record_states(self.states.get());
        }
        self.config.check_interrupt()
    }

    /// The config this budget enforces.
    pub(crate) fn config(&self) -> &Config {
        self.config
    }
}

impl Drop for Budget<'_> {
    fn drop(&mut self) {
        self.expect_growth(0);
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
    fn a_timeout_starts_with_the_check_and_its_clones_share_it() {
        let config = Config::default().with_timeout(Duration::from_millis(50));
        std::thread::sleep(Duration::from_millis(80));
        // Built 80 ms ago with 50 ms to go: the clock has not started, so there is time left.
        let started = config.started();
        assert!(started.budget().is_ok());
        let clone = started.clone();
        std::thread::sleep(Duration::from_millis(80));
        assert!(matches!(clone.budget(), Err(ComposeError::Deadline)));
        // Without `started`, the first budget starts the clock for every clone.
        let lazy = Config::default().with_timeout(Duration::from_millis(50));
        let twin = lazy.clone();
        assert!(lazy.budget().is_ok());
        std::thread::sleep(Duration::from_millis(80));
        assert!(matches!(twin.budget(), Err(ComposeError::Deadline)));
    }

    #[test]
    fn the_earlier_of_deadline_and_timeout_counts() {
        let soon = Instant::now();
        let config = Config::default()
            .with_timeout(Duration::from_secs(60))
            .with_deadline(soon)
            .started();
        assert_eq!(config.effective_deadline(), Some(soon));
    }

    #[test]
    fn tick_by_looks_at_the_clock_after_one_long_step() {
        let config = Config::default().with_deadline(Instant::now() + Duration::from_millis(20));
        let mut budget = config.budget().unwrap();
        std::thread::sleep(Duration::from_millis(30));
        assert!(budget.tick_by(1).is_ok());
        assert!(matches!(
            budget.tick_by(Budget::CHECK_EVERY as usize),
            Err(ComposeError::Deadline)
        ));
    }

    #[test]
    fn huge_timeout_does_not_overflow() {
        let config = Config::default().with_timeout(Duration::MAX);
        assert!(config.budget().is_ok());
    }
}

//! [`Monitor`]: what a long verification is doing right now, readable from another thread.
//!
//! Compositional methods run many small explorations (one per membership query, premise or
//! refinement step) through the one [`Config`](crate::Config) they were given. A monitor attached to
//! that config sees every one of them without the method crates knowing about it: each exploration's
//! [`Budget`](crate::Budget) publishes its state count when it looks at the clock and when it ends.
//! That is what lets a command-line tool print progress, and a facade report the largest product a
//! learning method built, without a callback in every algorithm.
//!
//! Methods may add a one-line note of their own (iteration, assumption sizes) with
//! [`Monitor::note`]; readers take it with [`Monitor::snapshot`].
//!
//! A monitor may forward to a parent ([`Monitor::child_of`]): a facade that wants the figures of
//! one method run, while a progress reader watches the whole session, gives the run a child.
//!
//! Everything is relaxed atomics: the figures are for people and reports, never for decisions.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// Live counters of the explorations run under a [`Config`](crate::Config) that carries this
/// monitor (see [`Config::with_monitor`](crate::Config::with_monitor)).
///
/// ```
/// use std::sync::Arc;
/// use guarantor_compose::{check_safety, Config, Monitor};
/// use guarantor_lts::{LtsBuilder, StateId};
///
/// let mut b = LtsBuilder::new();
/// b.ensure_states(2)?;
/// b.add_transition_named(StateId::must(0), "a", StateId::must(1))?;
/// let lts = b.build()?;
///
/// let monitor = Arc::new(Monitor::new());
/// let config = Config::default().with_monitor(Arc::clone(&monitor));
/// check_safety(&[&lts], &[], &config)?;
/// let seen = monitor.snapshot();
/// assert_eq!(seen.explorations, 1);
/// assert_eq!(seen.largest_states, 2);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Default)]
pub struct Monitor {
    explorations: AtomicU64,
    current_states: AtomicUsize,
    largest_states: AtomicUsize,
    /// States of the explorations that have ended, summed; with `running_states`, the work done so
    /// far, from which a reader computes an exploration rate.
    finished_states: AtomicU64,
    /// States of the exploration running now; 0 between explorations.
    running_states: AtomicUsize,
    largest_store_bytes: AtomicUsize,
    note: Mutex<String>,
    parent: Option<Arc<Monitor>>,
}

/// A copy of a [`Monitor`]'s counters at one instant.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct MonitorSnapshot {
    /// Explorations finished (successfully or not).
    pub explorations: u64,
    /// States of the exploration running now (as of its last look at the clock), or of the last one.
    pub current_states: usize,
    /// The most states any single exploration reached.
    pub largest_states: usize,
    /// States reached by all explorations so far, the running one included (as of its last look
    /// at the clock). Two snapshots a second apart give the exploration rate.
    pub states_explored: u64,
    /// The most bytes one exploration's visited-state store held at once (its tables and tuples
    /// as allocated; 0 if no exploration reported it).
    pub largest_store_bytes: usize,
    /// The method's own latest note (empty if it wrote none).
    pub note: String,
}

impl Monitor {
    /// A monitor with every counter at zero.
    pub fn new() -> Self {
        Self::default()
    }

    /// A monitor with its own counters that also forwards everything it records to `parent`.
    pub fn child_of(parent: Option<Arc<Monitor>>) -> Self {
        Self {
            parent,
            ..Self::default()
        }
    }

    /// Records that an exploration has reached `states` states.
    pub fn record_states(&self, states: usize) {
        self.current_states.store(states, Ordering::Relaxed);
        self.running_states.store(states, Ordering::Relaxed);
        self.largest_states.fetch_max(states, Ordering::Relaxed);
        if let Some(parent) = &self.parent {
            parent.record_states(states);
        }
    }

    /// Records that an exploration ended after reaching `states` states.
    pub fn finish_exploration(&self, states: usize) {
        self.current_states.store(states, Ordering::Relaxed);
        self.running_states.store(0, Ordering::Relaxed);
        self.finished_states
            .fetch_add(states as u64, Ordering::Relaxed);
        self.largest_states.fetch_max(states, Ordering::Relaxed);
        self.explorations.fetch_add(1, Ordering::Relaxed);
        if let Some(parent) = &self.parent {
            parent.finish_exploration(states);
        }
    }

    /// Records that an exploration's visited-state store held `bytes` at its peak.
    pub fn record_store_bytes(&self, bytes: usize) {
        self.largest_store_bytes.fetch_max(bytes, Ordering::Relaxed);
        if let Some(parent) = &self.parent {
            parent.record_store_bytes(bytes);
        }
    }

    /// Replaces the method's one-line note (e.g. `"round 4: assumption of 7 states"`).
    pub fn note(&self, text: impl Into<String>) {
        let text = text.into();
        if let Some(parent) = &self.parent {
            parent.note(text.clone());
        }
        // A poisoned lock only means a writer panicked mid-store; the string is still usable.
        let mut note = self
            .note
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        *note = text;
    }

    /// The counters and the note as they are now.
    pub fn snapshot(&self) -> MonitorSnapshot {
        let note = self
            .note
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone();
        MonitorSnapshot {
            explorations: self.explorations.load(Ordering::Relaxed),
            current_states: self.current_states.load(Ordering::Relaxed),
            largest_states: self.largest_states.load(Ordering::Relaxed),
            states_explored: self.finished_states.load(Ordering::Relaxed)
                + self.running_states.load(Ordering::Relaxed) as u64,
            largest_store_bytes: self.largest_store_bytes.load(Ordering::Relaxed),
            note,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn largest_is_the_maximum_and_current_the_latest() {
        let m = Monitor::new();
        m.record_states(10);
        m.finish_exploration(30);
        m.record_states(5);
        let s = m.snapshot();
        assert_eq!(
            (s.current_states, s.largest_states, s.explorations),
            (5, 30, 1)
        );
    }

    #[test]
    fn a_child_forwards_to_its_parent_and_keeps_its_own_counts() {
        let parent = Arc::new(Monitor::new());
        parent.finish_exploration(100);
        let child = Monitor::child_of(Some(Arc::clone(&parent)));
        child.finish_exploration(7);
        child.note("round 1");
        assert_eq!(child.snapshot().largest_states, 7);
        let p = parent.snapshot();
        assert_eq!(
            (p.largest_states, p.explorations, p.note.as_str()),
            (100, 2, "round 1")
        );
    }

    #[test]
    fn states_explored_sums_finished_explorations_and_the_running_one() {
        let m = Monitor::new();
        m.finish_exploration(30);
        m.record_states(5);
        assert_eq!(m.snapshot().states_explored, 35);
        m.finish_exploration(8);
        m.record_states(2);
        assert_eq!(m.snapshot().states_explored, 40);
        m.finish_exploration(4);
        assert_eq!(m.snapshot().states_explored, 42);
    }

    #[test]
    fn note_is_replaced() {
        let m = Monitor::new();
        m.note("first");
        m.note(String::from("second"));
        assert_eq!(m.snapshot().note, "second");
    }
}

//! The two dataflows of a distributed check, run by every worker: the level-synchronous
//! breadth-first search ([`explore`]) and the walk back along parent references that rebuilds a
//! counterexample ([`walk_back`]).
//!
//! Both live in one file because they share the worker's [`Shard`] (its visited states and their
//! parent references) through an `Rc<RefCell<_>>`: the search fills it, the walk reads it.
//!
//! The search's one operator receives [`Msg`]s of one level (its timestamp) through an exchange
//! that routes each message to the worker it names, and waits until timely's progress tracking
//! says the level is complete before it decides anything: only then has it seen every candidate
//! for a state and every worker's report on the level before. A level's reports go to every
//! worker, so every worker keeps the same global view ([`Global`]): totals, the best error and
//! deadlock, and whether to stop.
//!
//! What makes it cheap per state (it once cost 6-14 us a state against the monolithic search's
//! 1-1.6, with one process, allocating and hashing a vector per candidate): tuples travel and are
//! stored packed (compose's `TupleSet` as the visited set: the table store, or the compact store
//! when `Config::storage` asks); the candidates for one destination travel in flat batches of
//! words, grouped by parent, up to `level::FLUSH_WORDS` words each, so timely sees a few large
//! messages per level instead of one per transition; the owner claims states by merging its
//! senders' streams, one visited-set probe per candidate (see [`crate::level`]); and a successor
//! this worker owns never enters the exchange: it waits in this worker's candidates for the next
//! level, kept alive by a capability for that level.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use guarantor_compose::product::Product;
use guarantor_compose::termination::Termination;
use guarantor_compose::{Monitor, Priority, SystemOptions};
use guarantor_lts::{ActionId, Lts, StateId};
use serde::{Deserialize, Serialize};
use timely::dataflow::ProbeHandle;
use timely::dataflow::channels::pact::Exchange;
use timely::dataflow::operators::generic::operator::Operator;
use timely::dataflow::operators::vec::ToStream;
use timely::dataflow::operators::{Capability, Concat, ConnectLoop, Feedback, Probe};
use timely::worker::Worker;

use crate::level::{Arrived, Buffers, Key, Level, Place, Shard};

/// A reference to a stored state: `(worker, index in that worker's shard)`.
pub(crate) type Ref = (u32, u32);

/// The parent reference of the initial state.
pub(crate) const ROOT: Ref = (u32::MAX, u32::MAX);

/// What a worker needs to run its share of a check; the same in every worker and process.
#[derive(Clone, Debug)]
pub(crate) struct Job {
    /// Components, then the error LTSs of the properties.
    pub(crate) all: Arc<Vec<Lts>>,
    /// How many of `all` are components.
    pub(crate) components: usize,
    pub(crate) priority: Option<Priority>,
    pub(crate) deadlock: bool,
    /// LTSA's end-state rule for the components' end states.
    pub(crate) termination: Termination,
    /// The state limit, less what the config holds.
    pub(crate) limit: Option<usize>,
    /// The limit as configured (what the error reports).
    pub(crate) configured_limit: usize,
    pub(crate) deadline: Option<Instant>,
    pub(crate) cancel: Option<Arc<AtomicBool>>,
    /// The resident memory each process may hold (`Config::max_memory`): every process checks
    /// its own, since each keeps its share of the states.
    pub(crate) max_memory: Option<u64>,
    /// Where worker 0 publishes the global state count after each level (progress reports).
    pub(crate) monitor: Option<Arc<Monitor>>,
    /// Worker threads per process (timely numbers a process's workers consecutively), to tell
    /// the bytes that leave a process from those that stay in it.
    pub(crate) workers_per_process: usize,
    /// The visited set's store (`Config::storage`).
    pub(crate) storage: guarantor_compose::Storage,
    /// Checkpoints to write or resume from ([`crate::checkpoint`]).
    pub(crate) checkpoint: Option<crate::checkpoint::Plan>,
}

impl Job {
    pub(crate) fn new(
        all: Arc<Vec<Lts>>,
        components: usize,
        options: &SystemOptions,
        config: &guarantor_compose::Config,
        deadline: Option<Instant>,
    ) -> Self {
        let termination = {
            let refs: Vec<&Lts> = all.iter().collect();
            let (comps, props) = refs.split_at(components.min(refs.len()));
            Termination::ltsa(comps, &options.end_states, props)
        };
        Self {
            all,
            components,
            priority: options.priority.clone(),
            deadlock: options.deadlock,
            termination,
            limit: config.max_states.map(|m| m.saturating_sub(config.held())),
            configured_limit: config.max_states.unwrap_or(usize::MAX),
            deadline,
            cancel: config.cancel.clone(),
            max_memory: config.max_memory,
            monitor: config.monitor.clone(),
            workers_per_process: 1,
            storage: config.storage,
            checkpoint: None,
        }
    }

    /// The product; built per level because dataflow operators must own what they use.
    pub(crate) fn product(&self) -> Product<'_> {
        let refs: Vec<&Lts> = self.all.iter().collect();
        Product::under(&refs, self.priority.as_ref()).expect("checked before the workers start")
    }

    pub(crate) fn is_terminal(&self, tuple: &[StateId]) -> bool {
        self.termination.is_terminal(tuple)
    }

    /// Why the search must stop now, if it must: the cancel flag, the deadline, or the memory
    /// limit with `headroom` bytes about to be allocated counted as resident.
    pub(crate) fn interrupted(&self, headroom: u64) -> Option<Stop> {
        if self
            .cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed))
        {
            return Some(Stop::Cancelled);
        }
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            return Some(Stop::Deadline);
        }
        if let Some(limit) = self.max_memory
            && guarantor_compose::memory::resident_bytes()
                .is_some_and(|rss| rss.saturating_add(headroom) > limit)
        {
            return Some(Stop::Memory);
        }
        None
    }
}

/// Why the search stopped early, agreed by every worker.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub(crate) enum Stop {
    StateLimit,
    Deadline,
    Cancelled,
    Memory,
    /// The worker could not write (or restore) its checkpoint part.
    Checkpoint(u32),
}

/// A transition into an error tuple: the tuple, its parent and the action, and the first failing
/// member. Ordered by `(tuple, parent, action)`, the canonical choice.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub(crate) struct ErrorHit {
    pub(crate) tuple: Vec<u32>,
    pub(crate) parent: Vec<u32>,
    pub(crate) action: u32,
    pub(crate) from: Ref,
    pub(crate) member: u32,
}

/// A deadlocked state: ordered by `(level, tuple)`, the canonical choice.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub(crate) struct DeadHit {
    pub(crate) level: u32,
    pub(crate) tuple: Vec<u32>,
    pub(crate) at: Ref,
}

/// One worker's report on one level, sent to every worker.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Report {
    pub(crate) states: u64,
    pub(crate) transitions: u64,
    pub(crate) error: Option<ErrorHit>,
    pub(crate) deadlock: Option<DeadHit>,
    pub(crate) stop: Option<Stop>,
    /// From worker 0: every worker writes a checkpoint at the next level.
    pub(crate) checkpoint: bool,
    /// The sender's running totals (what its process reports, not what decides the search).
    tally: Tally,
}

impl Report {
    /// Whether the report says nothing that changes the search (its tally aside): such a report
    /// is not sent, or the loop would never end.
    fn is_empty(&self) -> bool {
        self.states == 0
            && self.transitions == 0
            && self.error.is_none()
            && self.deadlock.is_none()
            && self.stop.is_none()
    }
}

/// One worker's running totals: what [`crate::ProcessTally`] adds up per process.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Tally {
    pub(crate) worker: u32,
    /// States this worker stored.
    pub(crate) states: u64,
    /// Bytes of candidate batches this worker sent to workers of other processes.
    pub(crate) bytes_sent: u64,
    /// Nanoseconds spent storing, expanding and filtering candidates.
    pub(crate) explore_nanos: u64,
    /// Nanoseconds spent between levels: waiting for the level to complete everywhere (the
    /// exchange, timely's progress messages, slower peers).
    pub(crate) exchange_nanos: u64,
}

/// What travels around the search loop.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) enum Msg {
    /// Candidates for worker `to`: the `seq`-th batch of worker `from`'s stream for it at this
    /// level, as groups (see [`crate::level`]).
    Batch {
        to: u32,
        from: u32,
        seq: u32,
        words: Vec<u64>,
    },
    /// A worker's report on the level before, for worker `to`.
    Control { to: u32, report: Report },
}

impl Msg {
    fn to(&self) -> u32 {
        match self {
            Self::Batch { to, .. } | Self::Control { to, .. } => *to,
        }
    }
}

/// The global view every worker keeps, identical in all of them.
#[derive(Clone, Debug, Default)]
pub(crate) struct Global {
    pub(crate) states: u64,
    pub(crate) transitions: u64,
    pub(crate) error: Option<ErrorHit>,
    pub(crate) deadlock: Option<DeadHit>,
    pub(crate) stop: Option<Stop>,
    /// The deepest level any state was stored at.
    pub(crate) depth: u32,
    /// Every worker's latest tally, by worker.
    pub(crate) tallies: BTreeMap<u32, Tally>,
    /// Whether this level is a checkpoint level (worker 0 said so in its report on the last).
    pub(crate) checkpoint: bool,
}

impl Global {
    fn absorb(&mut self, report: Report) {
        self.states += report.states;
        self.transitions += report.transitions;
        if let Some(e) = report.error
            && self.error.as_ref().is_none_or(|best| e < *best)
        {
            self.error = Some(e);
        }
        if let Some(d) = report.deadlock
            && self.deadlock.as_ref().is_none_or(|best| d < *best)
        {
            self.deadlock = Some(d);
        }
        if let Some(s) = report.stop {
            self.stop = Some(self.stop.map_or(s, |t| t.min(s)));
        }
        self.checkpoint |= report.checkpoint;
        let tally = report.tally;
        let entry = self.tallies.entry(tally.worker).or_default();
        if tally.states >= entry.states {
            *entry = tally;
        }
    }
}

/// Where a search starts: at level 0 from the initial state, or, resumed from a checkpoint, at
/// the checkpoint's level with its global view (every worker then expands its frontier first).
#[derive(Debug, Default)]
pub(crate) struct Start {
    pub(crate) resumed: Option<(u32, Global)>,
}

/// Runs the search on this worker until every worker agrees it is over; returns the global view.
pub(crate) fn explore<K: Key>(
    worker: &mut Worker,
    job: &Arc<Job>,
    shard: &Rc<RefCell<Shard>>,
    start: Start,
) -> Global {
    let place = Place {
        index: worker.index() as u32,
        peers: worker.peers() as u32,
        per_process: job.workers_per_process.max(1) as u32,
    };
    let (base, view, resumed) = match start.resumed {
        Some((level, view)) => (level, view, true),
        None => (0, Global::default(), false),
    };
    let global = Rc::new(RefCell::new(view));
    let probe = ProbeHandle::new();
    let seed: Vec<Msg> = if place.index == 0 && !resumed {
        let product = job.product();
        let set = &shard.borrow().set;
        let mut key = vec![0; set.key_words()];
        set.pack(&product.initial(), &mut key);
        vec![crate::level::seed(&key, place.owner(&key))]
    } else {
        Vec::new()
    };
    worker.dataflow::<u32, _, _>(|scope| {
        let (handle, cycle) = scope.feedback::<Vec<Msg>>(1);
        let job = Arc::clone(job);
        let shard = Rc::clone(shard);
        let view = Rc::clone(&global);
        let out = seed.to_stream(scope).concat(cycle).unary_frontier(
            Exchange::new(|m: &Msg| u64::from(m.to())),
            "Level",
            move |first, _| {
                let mut pending: BTreeMap<u32, (Capability<u32>, Arrived)> = BTreeMap::new();
                // A resumed worker expands its frontier at the first timestamp (level `base`),
                // whether or not anything arrives for it.
                if resumed {
                    pending.insert(0, (first, Arrived::resumed()));
                }
                let mut halted = false;
                let mut clock = Clock::new(place.index);
                let mut buffers = Buffers::<K>::default();
                move |(input, frontier), output| {
                    input.for_each_stamp(|cap, data| {
                        if let Some(cap) = cap.retain_least(output.output_index()) {
                            let entry = pending
                                .entry(*cap.time())
                                .or_insert_with(|| (cap, Arrived::default()));
                            for batch in data {
                                for msg in batch.drain(..) {
                                    entry.1.take(msg);
                                }
                            }
                        }
                    });
                    while let Some(&time) = pending.keys().next() {
                        if frontier.frontier().less_equal(&time) {
                            break;
                        }
                        let (cap, mut arrived) = pending.remove(&time).expect("present");
                        if halted {
                            continue;
                        }
                        // Successors this worker owns skip the exchange: they join what has
                        // arrived for the next level here, which a capability keeps open.
                        let (next_cap, mut next) = match pending.remove(&(time + 1)) {
                            Some((c, a)) => (Some(c), a),
                            None => (None, Arrived::default()),
                        };
                        {
                            let mut session = output.session(&cap);
                            halted = complete_level(
                                &Level {
                                    job: &job,
                                    time: base + time,
                                    place,
                                },
                                (&mut arrived, &mut next),
                                (&shard, &mut clock, &mut buffers),
                                &mut view.borrow_mut(),
                                |m| session.give(m),
                            );
                        }
                        if next_cap.is_some() || next.has_candidates() {
                            let cap = next_cap.unwrap_or_else(|| cap.delayed(&(time + 1)));
                            pending.insert(time + 1, (cap, next));
                        }
                    }
                }
            },
        );
        out.probe_with(&probe).connect_loop(handle);
    });
    while !probe.done() {
        worker.step_or_park(None);
    }
    global.take()
}

/// Where a worker's time goes: exploring (claiming and expanding states) or between levels (the
/// exchange).
#[derive(Debug)]
struct Clock {
    tally: Tally,
    /// When this worker last finished a level (the exchange time runs from there).
    idle_since: Instant,
}

impl Clock {
    fn new(worker: u32) -> Self {
        Self {
            tally: Tally {
                worker,
                ..Tally::default()
            },
            idle_since: Instant::now(),
        }
    }
}

/// A level on this worker, once timely says it is complete: absorbs the reports on the level
/// before and, unless they say stop, claims the new states among the candidates, expands them
/// (successors owned elsewhere to `emit`, those owned here into `next`) and sends this worker's
/// report to every worker. At a checkpoint level it then writes its part (see
/// [`crate::checkpoint`]); the first level of a resumed search expands the restored frontier
/// instead of claiming. Returns whether the search stops here.
fn complete_level<K: Key>(
    level: &Level<'_>,
    (arrived, next): (&mut Arrived, &mut Arrived),
    (shard, clock, buffers): (&RefCell<Shard>, &mut Clock, &mut Buffers<K>),
    view: &mut Global,
    mut emit: impl FnMut(Msg),
) -> bool {
    let (job, place) = (level.job, level.place);
    let started = Instant::now();
    clock.tally.exchange_nanos += started
        .saturating_duration_since(clock.idle_since)
        .as_nanos() as u64;
    view.checkpoint = false;
    for report in arrived.reports.drain(..) {
        view.absorb(report);
    }
    if let Some(monitor) = job.monitor.as_ref().filter(|_| place.index == 0) {
        monitor.record_states(usize::try_from(view.states).unwrap_or(usize::MAX));
    }
    if view.error.is_some() || view.stop.is_some() {
        return true;
    }
    if job.limit.is_some_and(|l| view.states > l as u64) {
        view.stop = Some(Stop::StateLimit);
        return true;
    }
    // The view before this level's reports: what a checkpoint of this level restores.
    let snapshot = view.checkpoint.then(|| crate::checkpoint::Snapshot {
        states: view.states,
        transitions: view.transitions,
        depth: view.depth,
        deadlock: view.deadlock.as_ref().map(|d| crate::checkpoint::Dead {
            level: d.level,
            tuple: d.tuple.clone(),
            at: d.at,
        }),
    });
    let mut guard = shard.borrow_mut();
    let shard = &mut *guard;
    let mut report = if arrived.resume {
        clock.tally.states = shard.parents.len() as u64;
        level.resume(
            next,
            shard,
            view.states,
            (buffers, &mut clock.tally),
            &mut emit,
        )
    } else {
        level.run(
            (arrived, next),
            shard,
            view.states,
            (buffers, &mut clock.tally),
            &mut emit,
        )
    };
    if report.states > 0 {
        view.depth = view.depth.max(level.time);
    }
    checkpoint_after(level, shard, &mut report, snapshot);
    drop(guard);
    clock.tally.explore_nanos += started.elapsed().as_nanos() as u64;
    clock.idle_since = Instant::now();
    if !report.is_empty() {
        report.tally = clock.tally;
        for to in 0..place.peers {
            emit(Msg::Control {
                to,
                report: report.clone(),
            });
        }
    }
    false
}

/// After a level, with checkpoints: writes this worker's part if the level is a checkpoint
/// level (`snapshot`, the view before it) and the level was not cut short; on worker 0, says in
/// its report when the next checkpoint is due; a part that failed stops the search.
fn checkpoint_after(
    level: &Level<'_>,
    shard: &mut Shard,
    report: &mut Report,
    snapshot: Option<crate::checkpoint::Snapshot>,
) {
    let Some(part) = shard.part.as_mut() else {
        return;
    };
    if let Some(snapshot) = snapshot.filter(|_| report.stop.is_none()) {
        // This level's claims are the last `report.states` of the shard: the frontier.
        let frontier = shard.parents.len() as u64 - report.states;
        part.commit(level.time, frontier, snapshot);
    }
    if part.failed.is_some() {
        report.stop = Some(Stop::Checkpoint(level.place.index));
    } else if level.place.index == 0 && !report.is_empty() && part.due() {
        report.checkpoint = true;
    }
}

/// What travels around the walk-back loop.
#[derive(Clone, Debug, Serialize, Deserialize)]
enum Step {
    /// Continue at the stored state `at`, with the actions collected so far (last first).
    At { at: Ref, actions: Vec<u32> },
    /// The walk reached the initial state: the actions (last first), for worker `to`.
    Done { to: u32, actions: Vec<u32> },
}

/// Walks from the stored state `start` back to the initial state, each step on the worker that
/// stores the state; returns the actions from the initial state to `start` on every worker.
pub(crate) fn walk_back(
    worker: &mut Worker,
    start: Ref,
    shard: &Rc<RefCell<Shard>>,
) -> Vec<ActionId> {
    let index = worker.index() as u32;
    let peers = worker.peers() as u32;
    let result: Rc<RefCell<Option<Vec<u32>>>> = Rc::default();
    let probe = ProbeHandle::new();
    worker.dataflow::<u32, _, _>(|scope| {
        let seed: Vec<Step> = if index == 0 {
            vec![Step::At {
                at: start,
                actions: Vec::new(),
            }]
        } else {
            Vec::new()
        };
        let (handle, cycle) = scope.feedback::<Vec<Step>>(1);
        let shard = Rc::clone(shard);
        let result = Rc::clone(&result);
        seed.to_stream(scope)
            .concat(cycle)
            .unary(
                Exchange::new(|s: &Step| match s {
                    Step::At { at, .. } => u64::from(at.0),
                    Step::Done { to, .. } => u64::from(*to),
                }),
                "WalkBack",
                move |_, _| {
                    move |input, output| {
                        input.for_each(|cap, data| {
                            let mut session = output.session(&cap);
                            for step in data.drain(..) {
                                match step {
                                    Step::At { at, mut actions } => {
                                        let (parent, action) =
                                            shard.borrow().parents[at.1 as usize];
                                        if parent == ROOT {
                                            for to in 0..peers {
                                                session.give(Step::Done {
                                                    to,
                                                    actions: actions.clone(),
                                                });
                                            }
                                        } else {
                                            actions.push(action);
                                            session.give(Step::At {
                                                at: parent,
                                                actions,
                                            });
                                        }
                                    }
                                    Step::Done { actions, .. } => {
                                        *result.borrow_mut() = Some(actions);
                                    }
                                }
                            }
                        });
                    }
                },
            )
            .probe_with(&probe)
            .connect_loop(handle);
    });
    while !probe.done() {
        worker.step_or_park(None);
    }
    let actions = result.borrow_mut().take().unwrap_or_default();
    actions.into_iter().rev().map(ActionId::from_u32).collect()
}

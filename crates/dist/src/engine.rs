//! The two dataflows of a distributed check, run by every worker: the level-synchronous
//! breadth-first search ([`explore`]) and the walk back along parent references that rebuilds a
//! counterexample ([`walk_back`]).
//!
//! Both live in one file because they share the worker's [`Shard`] (its visited states and their
//! parent references) through an `Rc<RefCell<_>>`: the search fills it, the walk reads it.
//!
//! The search's one operator receives [`Msg`]s of one level (its timestamp) through an exchange
//! that routes a candidate state to the worker owning its hash and a control message to the
//! worker it names, and waits until timely's progress tracking says the level is complete before
//! it decides anything: only then has it seen every candidate for a state and every worker's
//! report on the level before. A level's reports go to every worker, so every worker keeps the
//! same global view ([`Global`]): totals, the best error and deadlock, and whether to stop.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};
use std::ops::ControlFlow;
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use guarantor_compose::product::{Product, Scratch};
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

/// A reference to a stored state: `(worker, index in that worker's shard)`.
pub(crate) type Ref = (u32, u32);

/// The parent reference of the initial state.
const ROOT: Ref = (u32::MAX, u32::MAX);

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
        }
    }

    /// The product; built per level because dataflow operators must own what they use.
    pub(crate) fn product(&self) -> Product<'_> {
        let refs: Vec<&Lts> = self.all.iter().collect();
        Product::under(&refs, self.priority.as_ref()).expect("checked before the workers start")
    }

    fn is_terminal(&self, tuple: &[StateId]) -> bool {
        self.termination.is_terminal(tuple)
    }

    /// Why the search must stop now, if it must: the cancel flag, the deadline, or the memory
    /// limit with `headroom` bytes about to be allocated counted as resident.
    fn interrupted(&self, headroom: u64) -> Option<Stop> {
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
    states: u64,
    transitions: u64,
    error: Option<ErrorHit>,
    deadlock: Option<DeadHit>,
    stop: Option<Stop>,
}

impl Report {
    fn is_empty(&self) -> bool {
        *self == Self::default()
    }
}

/// What travels around the search loop.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) enum Msg {
    /// A successor tuple of a parent tuple (stored at `from`) on `action`, for the successor's
    /// owner: `words` holds the successor then the parent (nothing for the initial state's), in
    /// one vector so that a candidate costs one allocation.
    Cand {
        words: Vec<u32>,
        action: u32,
        from: Ref,
    },
    /// A worker's report on the level before, for worker `to`.
    Control { to: u32, report: Report },
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
    }
}

/// A worker's visited states: tuple to index, and per index its parent reference and action.
#[derive(Debug, Default)]
pub(crate) struct Shard {
    ids: TupleMap<Box<[u32]>, u32>,
    parents: Vec<(Ref, u32)>,
}

/// A hasher for tuples: Fx's multiply-rotate per word, then a 64-bit finaliser (splitmix64), so
/// that both the low bits (timely routes on them) and the high bits (hashbrown's tags) are well
/// mixed; plain Fx on runs of small `u32`s left long probe chains in the visited maps.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct TupleHasher(u64);

impl Hasher for TupleHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(4) {
            let mut word = [0u8; 4];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u32(u32::from_le_bytes(word));
        }
    }

    fn write_u32(&mut self, x: u32) {
        self.0 = (self.0.rotate_left(5) ^ u64::from(x)).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    fn write_usize(&mut self, x: usize) {
        self.write_u32(x as u32);
    }

    fn finish(&self) -> u64 {
        let mut x = self.0;
        x ^= x >> 30;
        x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9);
        x ^= x >> 27;
        x = x.wrapping_mul(0x94d0_49bb_1331_11eb);
        x ^ (x >> 31)
    }
}

/// Maps keyed by tuples, hashed with [`TupleHasher`].
type TupleMap<K, V> = HashMap<K, V, BuildHasherDefault<TupleHasher>>;

/// The owner hash of a tuple: a fixed function of the tuple, the same in every process.
pub(crate) fn owner_hash(tuple: &[u32]) -> u64 {
    let mut h = TupleHasher::default();
    tuple.hash(&mut h);
    h.finish()
}

fn route(msg: &Msg, width: usize) -> u64 {
    match msg {
        Msg::Cand { words, .. } => owner_hash(&words[..width]),
        Msg::Control { to, .. } => u64::from(*to),
    }
}

/// Runs the search on this worker until every worker agrees it is over; returns the global view.
pub(crate) fn explore(worker: &mut Worker, job: &Arc<Job>, shard: &Rc<RefCell<Shard>>) -> Global {
    let index = worker.index() as u32;
    let peers = worker.peers() as u32;
    let global = Rc::new(RefCell::new(Global::default()));
    let probe = ProbeHandle::new();
    let width = job.all.len();
    let initial: Vec<u32> = {
        let product = job.product();
        product.initial().iter().map(|s| s.as_u32()).collect()
    };
    worker.dataflow::<u32, _, _>(|scope| {
        let seed: Vec<Msg> = if index == 0 {
            vec![Msg::Cand {
                words: initial,
                action: 0,
                from: ROOT,
            }]
        } else {
            Vec::new()
        };
        let (handle, cycle) = scope.feedback::<Vec<Msg>>(1);
        let job = Arc::clone(job);
        let shard = Rc::clone(shard);
        let view = Rc::clone(&global);
        let out = seed.to_stream(scope).concat(cycle).unary_frontier(
            Exchange::new(move |m: &Msg| route(m, width)),
            "Level",
            move |_, _| {
                let mut pending: BTreeMap<u32, (Capability<u32>, Arrived)> = BTreeMap::new();
                let mut halted = false;
                move |(input, frontier), output| {
                    input.for_each_stamp(|cap, data| {
                        if let Some(cap) = cap.retain_least(output.output_index()) {
                            let entry = pending
                                .entry(*cap.time())
                                .or_insert_with(|| (cap, Arrived::default()));
                            let stored = shard.borrow();
                            for batch in data {
                                for msg in batch.drain(..) {
                                    entry.1.take(msg, &stored, width);
                                }
                            }
                        }
                    });
                    while let Some(&time) = pending.keys().next() {
                        if frontier.frontier().less_equal(&time) {
                            break;
                        }
                        let (cap, arrived) = pending.remove(&time).expect("present");
                        if halted {
                            continue;
                        }
                        let mut session = output.session(&cap);
                        halted = complete_level(
                            &job,
                            (time, index, peers),
                            arrived,
                            &shard,
                            &mut view.borrow_mut(),
                            |m| session.give(m),
                        );
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

/// Level `time` on worker `index` of `peers`, once timely says it is complete: absorbs the
/// reports on the level before and, unless they say stop, stores the new candidates, expands them
/// (successors to `emit`) and sends this worker's report to every worker. Returns whether the
/// search stops here.
fn complete_level(
    job: &Job,
    (time, index, peers): (u32, u32, u32),
    arrived: Arrived,
    shard: &RefCell<Shard>,
    view: &mut Global,
    mut emit: impl FnMut(Msg),
) -> bool {
    for report in arrived.reports {
        view.absorb(report);
    }
    let level = Level {
        job,
        time,
        index,
        best: arrived.best,
    };
    if let Some(monitor) = job.monitor.as_ref().filter(|_| index == 0) {
        monitor.record_states(usize::try_from(view.states).unwrap_or(usize::MAX));
    }
    if view.error.is_some() || view.stop.is_some() {
        return true;
    }
    if job.limit.is_some_and(|l| view.states > l as u64) {
        view.stop = Some(Stop::StateLimit);
        return true;
    }
    let report = level.run(&mut shard.borrow_mut(), view.states, &mut emit);
    if report.states > 0 {
        view.depth = view.depth.max(time);
    }
    if !report.is_empty() {
        for to in 0..peers {
            emit(Msg::Control {
                to,
                report: report.clone(),
            });
        }
    }
    false
}

/// What arrived for one level, sorted as it arrives: the reports on the level before, and per
/// candidate tuple not stored yet its best `(parent, action, from)` so far.
#[derive(Debug, Default)]
struct Arrived {
    reports: Vec<Report>,
    best: TupleMap<Vec<u32>, Choice>,
}

impl Arrived {
    /// Takes one message of tuples `width` wide. Candidates for states already in `stored` (most
    /// of them: every edge back into the explored part) are dropped at once; states stored at
    /// this very level are not in `stored` yet, and are dropped when the level is run.
    fn take(&mut self, msg: Msg, stored: &Shard, width: usize) {
        match msg {
            Msg::Control { report, .. } => self.reports.push(report),
            Msg::Cand {
                mut words,
                action,
                from,
            } => {
                if stored.ids.contains_key(&words[..width]) {
                    return;
                }
                let parent = words.split_off(width);
                match self.best.entry(words) {
                    std::collections::hash_map::Entry::Vacant(v) => {
                        v.insert((parent, action, from));
                    }
                    std::collections::hash_map::Entry::Occupied(mut o) => {
                        let cur = o.get();
                        if (&parent, action) < (&cur.0, cur.1) {
                            o.insert((parent, action, from));
                        }
                    }
                }
            }
        }
    }
}

/// A candidate's parent tuple, action and parent reference.
type Choice = (Vec<u32>, u32, Ref);

/// One level's work on one worker: the candidates it received, then storing and expanding the
/// new ones.
struct Level<'j> {
    job: &'j Job,
    time: u32,
    index: u32,
    /// Per candidate tuple, its best `(parent, action, from)`.
    best: TupleMap<Vec<u32>, Choice>,
}

impl Level<'_> {
    /// Stores the new candidates in `shard`, expands them and sends their successors to `emit`.
    fn run(self, shard: &mut Shard, known: u64, mut emit: impl FnMut(Msg)) -> Report {
        let mut report = Report::default();
        if self.best.is_empty() {
            return report;
        }
        let product = self.job.product();
        let mut scratch = Scratch::new();
        let mut ids = Vec::new();
        for (n, (tuple, (_, action, from))) in self.best.into_iter().enumerate() {
            if shard.ids.contains_key(tuple.as_slice()) {
                // Arrived before this worker ran the level before, which stored it.
                continue;
            }
            // The shard's index doubles in one step (old and new tables alive) and its parents
            // may be copied into a larger block: the memory limit counts them ahead.
            let growth = 2 * shard.ids.capacity() * (size_of::<(Box<[u32]>, u32)>() + 1)
                + shard.parents.capacity() * size_of::<(Ref, u32)>();
            if n % 256 == 0
                && let Some(stop) = self.job.interrupted(growth as u64)
            {
                report.stop = Some(stop);
                break;
            }
            ids.clear();
            ids.extend(tuple.iter().map(|&s| StateId::from_u32(s)));
            let id = shard.parents.len() as u32;
            shard.ids.insert(tuple.into_boxed_slice(), id);
            shard.parents.push((from, action));
            report.states += 1;
            if self
                .job
                .limit
                .is_some_and(|l| known + report.states > l as u64)
            {
                report.stop = Some(Stop::StateLimit);
                break;
            }
            let at = (self.index, id);
            let mut successors = 0u64;
            let _ = product.for_each_successor(&ids, &mut scratch, |a, target| {
                successors += 1;
                if let Some(member) = product.error_component(target) {
                    let hit = ErrorHit {
                        tuple: words(target),
                        parent: words(&ids),
                        action: a.as_u32(),
                        from: at,
                        member: member as u32,
                    };
                    if report.error.as_ref().is_none_or(|b| hit < *b) {
                        report.error = Some(hit);
                    }
                } else {
                    let mut both = Vec::with_capacity(2 * ids.len());
                    both.extend(target.iter().chain(&ids).map(|s| s.as_u32()));
                    emit(Msg::Cand {
                        words: both,
                        action: a.as_u32(),
                        from: at,
                    });
                }
                ControlFlow::<()>::Continue(())
            });
            report.transitions += successors;
            if successors == 0 && self.job.deadlock && !self.job.is_terminal(&ids) {
                let hit = DeadHit {
                    level: self.time,
                    tuple: words(&ids),
                    at,
                };
                if report.deadlock.as_ref().is_none_or(|b| hit < *b) {
                    report.deadlock = Some(hit);
                }
            }
        }
        report
    }
}

/// A tuple as raw words.
fn words(tuple: &[StateId]) -> Vec<u32> {
    tuple.iter().map(|s| s.as_u32()).collect()
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

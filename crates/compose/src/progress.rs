//! LTSA's progress check ([`check_progress`]): under fair choice, can the actions of each progress
//! test always eventually occur?
//!
//! A progress property `progress P = {a, b}` holds when, whatever the system has done, one of `a`,
//! `b` can still happen, assuming *fair choice*: a choice made infinitely often takes each of its
//! branches infinitely often. Under that assumption a run ends up, and stays, in a *terminal set*
//! of states: a strongly connected component of the reachable product that no transition leaves.
//! Every action of the terminal set then occurs infinitely often, and no other action occurs again.
//! So (Magee & Kramer, ch. 7; LTSA's `ProgressCheck`):
//!
//! - `progress P = {A}` is violated by a terminal set containing no action of `A`;
//! - `progress P = if {C} then {A}` by a terminal set containing an action of `C` and none of `A`;
//! - with no test declared, the *default* progress property is checked: every action of the
//!   system's alphabet can always eventually occur, violated by a terminal set that lacks one.
//!
//! A state without transitions is a terminal set with no action: a deadlock, or a state in which
//! every component has terminated (`END`), which LTSA reports as a progress violation too. Action
//! names of a test that are not in the alphabet are ignored, as LTSA ignores them; tau, and the
//! names listed as [`ProgressOptions::internal`], are never actions of a set.
//!
//! Action priority ([`ProgressOptions::priority`], FSP's `<<` and `>>`) prunes the product before
//! the analysis, exactly as LTSA's on-the-fly product does.
//!
//! ## Which violation is reported
//!
//! The whole reachable product is analysed (one depth-first walk), then:
//! 1. if an `ERROR` state or a property violation is reachable, the progress question is moot
//!    (LTSA says "Safety property violation detected - check safety"): the verdict is
//!    [`ProgressVerdict::Unsafe`] with a shortest run to the error, found by [`check_system`];
//! 2. otherwise, if a deadlock violates some test, that deadlock (a shortest run to it);
//! 3. otherwise the first violating terminal set the walk completed, with a shortest run into it
//!    and a shortest cycle inside it through the state the run enters.
//!
//! LTSA instead stops at the first violating terminal set of its depth-first walk and looks for a
//! breadth-first run to it; when that search meets a deadlock first it reports "Safety property
//! violation detected" for what is a progress violation (`P = (a -> STOP | b -> X), X = (d -> Q),
//! Q = (c -> Q).`). Here a deadlock is reported as the terminal set it is (rule 2).
//!
//! ## The walk
//!
//! Tarjan's algorithm, without recursion, its bookkeeping `guarantor_lts::ops::SccWalk` (the
//! one iterative Tarjan of the workspace): an explicit stack of frames, the pending successors of
//! every frame in one `todo` vector here (as in the depth-first safety check), states numbered in
//! the order they are first visited (so a state's number is its depth-first index), one 32-bit
//! low-link per state, and one bit per state saying that it has a transition into an
//! already completed component (which therefore is not terminal). A component is terminal when
//! none of its states has that bit; its actions are then found by enumerating its states'
//! transitions once more. Memory is the visited set of the safety check (one unit of
//! [`Config::max_states`] per state, as there) plus the walk's own arrays: a low-link and a Tarjan
//! stack entry per state (8 bytes), 20 bytes per state on the current path and 16 to 24 per
//! successor still pending on it; the budget counts these by their allocated capacity, in units
//! of [`Config::STATE_BYTES`]. The run and the cycle of the answer are found afterwards by
//! breadth-first search over the numbered states (8 more bytes per state).

use std::ops::ControlFlow;

use guarantor_lts::ops::SccWalk;
use guarantor_lts::{ActionId, Lts, StateId};
use rustc_hash::{FxHashMap, FxHashSet};

use crate::config::{Budget, Config};
use crate::engine::explore::{Layout, WithStore, with_store};
use crate::engine::stats::Stats;
use crate::engine::store::Store;
use crate::error::ComposeError;
use crate::error_lts::error_ltss;
use crate::priority::Priority;
use crate::product::{Product, Scratch};
use crate::system::{SystemOptions, check_system};
use crate::termination::Termination;
use crate::verdict::Counterexample;

pub use guarantor_lts::ProgressTest;

/// What [`check_progress`] checks, and the system's end states and priority.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct ProgressOptions {
    /// The tests, all checked in one walk; empty: the default progress property (every action
    /// of the alphabet). Default: empty.
    pub tests: Vec<ProgressTest>,
    /// Per component (in order; properties excluded), its `END` state, if any: a state without
    /// transitions that LTSA's rule calls an end state ([`crate::termination`]) is a terminal set
    /// with no action, but not a deadlock. Default: empty.
    pub end_states: Vec<Option<StateId>>,
    /// Action priority applied to the product. Default: `None`.
    pub priority: Option<Priority>,
    /// Visible action names that stand for tau (FSP actions hidden inside a nested composite):
    /// they are not in the default property's alphabet nor in any terminal set. Default: empty.
    pub internal: Vec<String>,
}

impl ProgressOptions {
    /// Options checking these tests (none: the default progress property).
    #[must_use]
    pub fn with_tests(mut self, tests: Vec<ProgressTest>) -> Self {
        self.tests = tests;
        self
    }

    /// Options with these end states.
    #[must_use]
    pub fn with_end_states(mut self, end_states: Vec<Option<StateId>>) -> Self {
        self.end_states = end_states;
        self
    }

    /// Options with this priority (or none).
    #[must_use]
    pub fn with_priority(mut self, priority: Option<Priority>) -> Self {
        self.priority = priority;
        self
    }

    /// Options treating these action names as tau.
    #[must_use]
    pub fn with_internal(mut self, internal: Vec<String>) -> Self {
        self.internal = internal;
        self
    }
}

/// A terminal set of states that violates progress, with a run into it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct ProgressViolation {
    /// The tests the set violates, in the order they were given; empty for the default property.
    pub tests: Vec<String>,
    /// For the default property, the actions of the alphabet the set lacks (sorted); empty
    /// otherwise.
    pub missing: Vec<String>,
    /// A shortest run from the initial state into the set (visible actions).
    pub trace: Vec<String>,
    /// A shortest cycle inside the set from the state `trace` reaches back to it (visible
    /// actions; empty for a set of one state without transitions, or a cycle of tau only).
    pub cycle: Vec<String>,
    /// The actions of the set (sorted): those that occur infinitely often once it is entered.
    pub actions: Vec<String>,
    /// Whether the set is a deadlock: one state without transitions that is not an `END` state.
    pub deadlock: bool,
    /// How many states the set has.
    pub states: usize,
}

/// The verdict of a progress check.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ProgressVerdict {
    /// No reachable terminal set violates a test.
    Holds,
    /// A reachable terminal set violates a test.
    Violated(ProgressViolation),
    /// A property violation or an `ERROR` state is reachable (a shortest run to it): safety must
    /// hold before progress means anything.
    Unsafe(Counterexample),
}

impl ProgressVerdict {
    /// Whether the check passed.
    pub fn is_holds(&self) -> bool {
        matches!(self, Self::Holds)
    }
}

/// The result of [`check_progress`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ProgressReport {
    /// The verdict.
    pub verdict: ProgressVerdict,
    /// States and transitions of the walk.
    pub stats: Stats,
    /// How many terminal sets the walk found (deadlocks and `END` states included).
    pub terminal_sets: usize,
    /// For a portfolio, the member that answered; `None` otherwise.
    pub answered_by: Option<String>,
}

impl ProgressReport {
    /// A report (for a method's own progress check: [`crate::Method::check_progress`]).
    pub fn new(verdict: ProgressVerdict, stats: Stats, terminal_sets: usize) -> Self {
        Self {
            verdict,
            stats,
            terminal_sets,
            answered_by: None,
        }
    }
}

/// Checks progress (see the module docs): `options.tests`, or the default progress property when
/// there are none, on `components || properties` (the properties' error forms), under fair choice.
///
/// ```
/// use guarantor_compose::progress::{ProgressOptions, ProgressTest, ProgressVerdict, check_progress};
/// use guarantor_compose::Config;
/// use guarantor_lts::Lts;
/// // COIN = (toss -> heads -> COIN | toss -> tails -> COIN): fair, so both sides always recur.
/// let coin = Lts::from_edges([(0, "toss", 1), (1, "heads", 0), (0, "toss", 2), (2, "tails", 0)])?;
/// let report = check_progress(&[&coin], &[], &ProgressOptions::default(), &Config::default())?;
/// assert!(report.verdict.is_holds());
/// // A trick coin may commit to tails for ever: {toss, tails} is a terminal set without heads.
/// let trick = Lts::from_edges([(0, "toss", 1), (1, "heads", 0), (0, "toss", 2), (2, "tails", 3), (3, "toss", 2)])?;
/// let options = ProgressOptions::default().with_tests(vec![ProgressTest::new("HEADS", ["heads"])]);
/// let report = check_progress(&[&trick], &[], &options, &Config::default())?;
/// let ProgressVerdict::Violated(v) = report.verdict else { panic!() };
/// assert_eq!((v.tests, v.trace, v.cycle), (vec!["HEADS".to_string()], vec!["toss".to_string()], vec!["tails".to_string(), "toss".to_string()]));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`ComposeError::PropertyNotDeterministic`] for a nondeterministic property; budget errors when
/// `config`'s limits are reached (the walk and the search for the run share one budget).
pub fn check_progress(
    components: &[&Lts],
    properties: &[&Lts],
    options: &ProgressOptions,
    config: &Config,
) -> Result<ProgressReport, ComposeError> {
    let errs = error_ltss(properties.iter().copied())?;
    let all: Vec<&Lts> = components.iter().copied().chain(errs.iter()).collect();
    let product = Product::under(&all, options.priority.as_ref())?;
    let tests = Tests::new(&product, options);
    let termination = Termination::ltsa(components, &options.end_states, properties);
    let mut budget = config.budget()?;
    let outcome = with_store(
        &product,
        Layout::Auto,
        Job {
            product: &product,
            tests: &tests,
            termination: &termination,
            budget: &mut budget,
        },
    )?;
    drop(budget);
    let verdict = match outcome.found {
        Found::Error => {
            let system = SystemOptions {
                priority: options.priority.clone(),
                ..SystemOptions::default()
            };
            let report = check_system(components, properties, &system, config)?;
            match report.verdict.counterexample() {
                Some(cex) => ProgressVerdict::Unsafe(cex.clone()),
                // The walk saw an error tuple, so the breadth-first search finds one.
                None => ProgressVerdict::Holds,
            }
        }
        Found::Nothing => ProgressVerdict::Holds,
        Found::Violation(v) => ProgressVerdict::Violated(v),
    };
    Ok(ProgressReport::new(
        verdict,
        outcome.stats,
        outcome.terminal_sets,
    ))
}

/// The tests as bit sets over the product's action ids.
struct Tests {
    /// `visible[g]`: product action `g` counts (not tau, not internal).
    visible: Vec<bool>,
    /// Per test: its name, condition and actions (`None` condition: unconditional).
    compiled: Vec<(String, Option<Vec<bool>>, Vec<bool>)>,
}

impl Tests {
    fn new(product: &Product<'_>, options: &ProgressOptions) -> Self {
        let alphabet = product.alphabet();
        let n = alphabet.id_bound();
        let internal: FxHashSet<&str> = options.internal.iter().map(String::as_str).collect();
        let visible: Vec<bool> = (0..n)
            .map(|g| {
                let a = ActionId::must(g);
                !a.is_tau() && alphabet.try_name(a).is_some_and(|n| !internal.contains(n))
            })
            .collect();
        let bits = |names: &[String]| {
            let mut b = vec![false; n];
            for name in names {
                if let Some(a) = alphabet.get(name).filter(|a| visible[a.index()]) {
                    b[a.index()] = true;
                }
            }
            b
        };
        let compiled = options
            .tests
            .iter()
            .map(|t| {
                (
                    t.name.clone(),
                    t.condition.as_deref().map(bits),
                    bits(&t.actions),
                )
            })
            .collect();
        Self { visible, compiled }
    }

    /// The tests a terminal set with these actions violates (for the default property, whether
    /// it lacks an action: then `Some(vec![])`); `None` if it violates nothing.
    fn violated(&self, actions: &[bool]) -> Option<Vec<String>> {
        if self.compiled.is_empty() {
            let lacks = self
                .visible
                .iter()
                .zip(actions)
                .any(|(&visible, &has)| visible && !has);
            return lacks.then(Vec::new);
        }
        let meets = |set: &[bool]| set.iter().zip(actions).any(|(&s, &a)| s && a);
        let names: Vec<String> = self
            .compiled
            .iter()
            .filter(|(_, cond, acts)| cond.as_deref().is_none_or(meets) && !meets(acts))
            .map(|(name, _, _)| name.clone())
            .collect();
        (!names.is_empty()).then_some(names)
    }
}

/// What the walk found.
enum Found {
    Nothing,
    /// An error tuple is reachable.
    Error,
    Violation(ProgressViolation),
}

/// The walk's result.
struct Outcome {
    found: Found,
    stats: Stats,
    terminal_sets: usize,
}

/// The progress check as a [`WithStore`] job.
struct Job<'a, 'p, 'b> {
    product: &'a Product<'p>,
    tests: &'a Tests,
    termination: &'a Termination,
    budget: &'a mut Budget<'b>,
}

impl WithStore for Job<'_, '_, '_> {
    type Output = Result<Outcome, ComposeError>;

    fn with<S: Store>(self, store: &mut S) -> Self::Output {
        let (walked, stats, terminal_sets, chosen) = {
            let mut walk = Tarjan::new(self.product, store, self.tests, self.termination);
            let walked = walk.run(self.budget)?;
            let stats = Stats::new(walk.store.len(), walk.transitions);
            (walked, stats, walk.terminal_sets, walk.chosen())
        };
        let found = match (walked, chosen) {
            (Walked::Error, _) => Found::Error,
            (Walked::Done, None) => Found::Nothing,
            (Walked::Done, Some((goal, tests, actions))) => {
                let product = self.product;
                let (trace, entry) = run_into(product, store, &goal.members, self.budget)?;
                let cycle = cycle_through(product, store, &goal.members, entry, self.budget)?;
                let names = |pick: &dyn Fn(usize) -> bool| {
                    let mut names: Vec<String> = (0..actions.len())
                        .filter(|&a| self.tests.visible[a] && pick(a))
                        .map(|a| product.action_name(ActionId::must(a)).to_owned())
                        .collect();
                    names.sort();
                    names
                };
                let missing = if self.tests.compiled.is_empty() {
                    names(&|a| !actions[a])
                } else {
                    Vec::new()
                };
                Found::Violation(ProgressViolation {
                    tests,
                    missing,
                    trace,
                    cycle,
                    actions: names(&|a| actions[a]),
                    deadlock: goal.deadlock,
                    states: goal.members.len(),
                })
            }
        };
        Ok(Outcome {
            found,
            stats,
            terminal_sets,
        })
    }
}

/// A violating terminal set the walk kept.
struct Goal {
    members: Vec<u32>,
    deadlock: bool,
}

/// How the walk ended.
enum Walked {
    Done,
    Error,
}

/// Tarjan's algorithm on the fly (see the module docs).
struct Tarjan<'a, 'p, S: Store> {
    product: &'a Product<'p>,
    store: &'a mut S,
    tests: &'a Tests,
    termination: &'a Termination,
    /// Tarjan's bookkeeping (`guarantor_lts::ops::SccWalk`): low-links, escape bits, the
    /// component stack and the path; states are numbered by the store, in visiting order.
    walk: SccWalk,
    /// Per state on the path: how many successors it has.
    successors: Vec<u32>,
    todo: Vec<(u64, S::Key)>,
    todo_tuples: Vec<StateId>,
    tuple: Vec<StateId>,
    scratch: Scratch,
    transitions: usize,
    terminal_sets: usize,
    /// The first violating deadlock, and the first other violating terminal set, with the tests
    /// they violate and their actions.
    deadlock: Option<(Goal, Vec<String>, Vec<bool>)>,
    other: Option<(Goal, Vec<String>, Vec<bool>)>,
}

impl<'a, 'p, S: Store> Tarjan<'a, 'p, S> {
    fn new(
        product: &'a Product<'p>,
        store: &'a mut S,
        tests: &'a Tests,
        termination: &'a Termination,
    ) -> Self {
        Self {
            product,
            store,
            tests,
            termination,
            walk: SccWalk::new(),
            successors: Vec::new(),
            todo: Vec::new(),
            todo_tuples: Vec::new(),
            tuple: product.initial(),
            scratch: Scratch::new(),
            transitions: 0,
            terminal_sets: 0,
            deadlock: None,
            other: None,
        }
    }

    /// The violation to report: a violating deadlock first, else the first violating set.
    fn chosen(&mut self) -> Option<(Goal, Vec<String>, Vec<bool>)> {
        self.deadlock.take().or_else(|| self.other.take())
    }

    /// Charges the walk's memory: one unit per stored state (the safety check's store), plus
    /// what the walk allocated beside it (low-links, escape bits, the Tarjan stack, the path and
    /// its pending successors), by capacity.
    fn charge(&self, budget: &Budget<'_>) -> Result<(), ComposeError> {
        let beside = self.walk.heap_bytes()
            + self.successors.capacity() * 4
            + self.todo.capacity() * std::mem::size_of::<(u64, S::Key)>()
            + self.todo_tuples.capacity() * 4;
        budget.expect_growth(self.store.growth_bytes());
        budget.check_states(self.store.len() + Config::units_for_bytes(beside))
    }

    fn run(&mut self, budget: &mut Budget<'_>) -> Result<Walked, ComposeError> {
        let initial = self.product.initial();
        if self.product.error_component(&initial).is_some() {
            return Ok(Walked::Error);
        }
        let (id, _) = self.store.insert(&initial)?;
        self.charge(budget)?;
        if self.visit(id, budget)? {
            return Ok(Walked::Error);
        }
        let width = self.product.width();
        let mut target = initial;
        while let Some((_, base)) = self.walk.top() {
            if self.todo.len() > base {
                budget.tick()?;
                let (hash, key) = self.todo.pop().expect("non-empty");
                if S::NEEDS_TUPLE {
                    let at = self.todo_tuples.len() - width;
                    target.copy_from_slice(&self.todo_tuples[at..]);
                    self.todo_tuples.truncate(at);
                }
                let (w, new) = self.store.insert_at(&target, hash, key)?;
                if new {
                    self.charge(budget)?;
                    if self.visit(w, budget)? {
                        return Ok(Walked::Error);
                    }
                } else {
                    self.walk.reach(w);
                }
                continue;
            }
            let successors = self.successors.pop().expect("one per state on the path");
            if let Some(done) = self.walk.leave()
                && done.terminal
            {
                self.complete(done.members, successors as usize, budget)?;
            }
        }
        Ok(Walked::Done)
    }

    /// Starts state `id` (just numbered): low-link, Tarjan stack, pending successors. Returns
    /// whether a successor is an error tuple.
    fn visit(&mut self, id: u32, budget: &mut Budget<'_>) -> Result<bool, ComposeError> {
        debug_assert_eq!(id as usize, self.walk.len(), "numbered in visiting order");
        self.store.load(id, &mut self.tuple);
        let base = self.todo.len();
        let (product, store) = (self.product, &*self.store);
        let (todo, tuples) = (&mut self.todo, &mut self.todo_tuples);
        let mut successors = 0usize;
        let flow = product.for_each_successor(&self.tuple, &mut self.scratch, |_, target| {
            successors += 1;
            if product.error_component(target).is_some() {
                return ControlFlow::Break(());
            }
            let (hash, key) = store.locate(target);
            todo.push((hash, key));
            if S::NEEDS_TUPLE {
                tuples.extend_from_slice(target);
            }
            ControlFlow::Continue(())
        });
        self.transitions += successors;
        budget.tick_by(successors)?;
        if flow.is_break() {
            return Ok(true);
        }
        // Popping takes the last: reverse so the first enumerated successor goes first.
        self.todo[base..].reverse();
        if S::NEEDS_TUPLE {
            let width = self.product.width();
            reverse_rows(&mut self.todo_tuples[base * width..], width);
        }
        self.successors
            .push(u32::try_from(successors).map_err(|_| too_many("successor"))?);
        self.walk.enter(base);
        Ok(false)
    }

    /// Evaluates the tests on a completed terminal component (its root, the first member, with
    /// `successors` transitions).
    fn complete(
        &mut self,
        members: Vec<u32>,
        successors: usize,
        budget: &mut Budget<'_>,
    ) -> Result<(), ComposeError> {
        let root = members[0];
        self.terminal_sets += 1;
        let mut actions = vec![false; self.tests.visible.len()];
        let stuck = members.len() == 1 && successors == 0;
        if !stuck {
            for &m in &members {
                budget.tick()?;
                self.store.load(m, &mut self.tuple);
                let _ = self.product.for_each_successor::<()>(
                    &self.tuple,
                    &mut self.scratch,
                    |action, _| {
                        if !action.is_tau() {
                            actions[action.index()] = true;
                        }
                        ControlFlow::Continue(())
                    },
                );
            }
        }
        let Some(tests) = self.tests.violated(&actions) else {
            return Ok(());
        };
        let deadlock = stuck && {
            self.store.load(root, &mut self.tuple);
            !self.termination.is_terminal(&self.tuple)
        };
        let slot = if deadlock {
            &mut self.deadlock
        } else {
            &mut self.other
        };
        if slot.is_none() {
            *slot = Some((Goal { members, deadlock }, tests, actions));
        }
        Ok(())
    }
}

/// The error for a count past 32 bits.
fn too_many(kind: &'static str) -> ComposeError {
    guarantor_lts::LtsError::from(guarantor_lts::IdOverflow {
        kind,
        index: u32::MAX as usize,
        limit: u32::MAX as usize,
    })
    .into()
}

/// Reverses the order of the `width`-wide rows of `rows`.
fn reverse_rows(rows: &mut [StateId], width: usize) {
    if width == 0 {
        return;
    }
    let n = rows.len() / width;
    for i in 0..n / 2 {
        let (a, b) = (i * width, (n - 1 - i) * width);
        for k in 0..width {
            rows.swap(a + k, b + k);
        }
    }
}

/// A shortest run from the initial state (number 0) to a state of `goal`, by breadth-first
/// search over the numbered states; returns its visible actions and the state it reaches.
fn run_into<S: Store>(
    product: &Product<'_>,
    store: &S,
    goal: &[u32],
    budget: &mut Budget<'_>,
) -> Result<(Vec<String>, u32), ComposeError> {
    let goal: FxHashSet<u32> = goal.iter().copied().collect();
    let n = store.len();
    budget.check_states(n + Config::units_for_bytes(n * 12))?;
    let mut parent = vec![(u32::MAX, ActionId::TAU); n];
    let mut queue = std::collections::VecDeque::from([0u32]);
    parent[0] = (0, ActionId::TAU);
    let mut tuple = product.initial();
    let mut scratch = Scratch::new();
    let mut reached = goal.contains(&0).then_some(0);
    while reached.is_none() {
        let Some(s) = queue.pop_front() else {
            break;
        };
        budget.tick()?;
        store.load(s, &mut tuple);
        let flow = product.for_each_successor(&tuple, &mut scratch, |action, target| {
            let Some(t) = store.find(target) else {
                return ControlFlow::Continue(());
            };
            if parent[t as usize].0 != u32::MAX {
                return ControlFlow::Continue(());
            }
            parent[t as usize] = (s, action);
            if goal.contains(&t) {
                return ControlFlow::Break(t);
            }
            queue.push_back(t);
            ControlFlow::Continue(())
        });
        if let ControlFlow::Break(t) = flow {
            reached = Some(t);
        }
    }
    let entry = reached.expect("the goal was reached by the walk");
    let mut actions = Vec::new();
    let mut at = entry;
    while at != 0 {
        let (p, a) = parent[at as usize];
        actions.push(a);
        at = p;
    }
    Ok((visible_names(product, actions.into_iter().rev()), entry))
}

/// A shortest cycle inside `members` from `entry` back to it (empty if `entry` has no
/// transition).
fn cycle_through<S: Store>(
    product: &Product<'_>,
    store: &S,
    members: &[u32],
    entry: u32,
    budget: &mut Budget<'_>,
) -> Result<Vec<String>, ComposeError> {
    let inside: FxHashSet<u32> = members.iter().copied().collect();
    let mut parent: FxHashMap<u32, (u32, ActionId)> = FxHashMap::default();
    let mut queue = std::collections::VecDeque::from([entry]);
    let mut tuple = product.initial();
    let mut scratch = Scratch::new();
    let mut closed = false;
    while let Some(s) = queue.pop_front() {
        budget.tick()?;
        store.load(s, &mut tuple);
        let flow = product.for_each_successor(&tuple, &mut scratch, |action, target| {
            let Some(t) = store.find(target).filter(|t| inside.contains(t)) else {
                return ControlFlow::Continue(());
            };
            if t == entry {
                parent.insert(entry, (s, action));
                return ControlFlow::Break(());
            }
            if let std::collections::hash_map::Entry::Vacant(e) = parent.entry(t) {
                e.insert((s, action));
                queue.push_back(t);
            }
            ControlFlow::Continue(())
        });
        if flow.is_break() {
            closed = true;
            break;
        }
    }
    if !closed {
        return Ok(Vec::new());
    }
    let mut actions = Vec::new();
    let mut at = entry;
    loop {
        let (p, a) = parent[&at];
        actions.push(a);
        at = p;
        if at == entry {
            break;
        }
    }
    Ok(visible_names(product, actions.into_iter().rev()))
}

fn visible_names(product: &Product<'_>, actions: impl Iterator<Item = ActionId>) -> Vec<String> {
    actions
        .filter(|a| !a.is_tau())
        .map(|a| product.action_name(a).to_owned())
        .collect()
}

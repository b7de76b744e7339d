//! [`Method`]: one shape for every way of deciding whether components satisfy safety properties.
//!
//! The monolithic search of this crate and every compositional method of the workspace (learned
//! assumptions, quotients, circular reasoning, a user's own) answer the same question: given a
//! [`Problem`] — named components, named properties, what else to look for — and a [`Config`] of
//! budgets, is some error reachable? This module gives that question one type and its answer one
//! shape, so that a checker, a portfolio, a test suite or a refinement loop can run any method
//! without knowing which it is:
//!
//! - [`Problem`]: the system, with typed [`ComponentId`]s and [`PropertyId`]s and the names that go
//!   with them. A method receives the user's components unchanged; whatever it does to them first
//!   (grouping, merging properties, turning `ERROR` states into actions) is its own business, and
//!   its verdict is about the problem as given.
//! - [`Method`]: `name` and `check`. Implemented on a value that carries the method's own settings,
//!   so a method has as many switches as it needs and none leak into the others.
//! - [`MethodReport`]: the [`Verdict`] with its evidence, the [`Stats`] of the largest search, and
//!   the method's own [`Counter`]s (queries, iterations, ...), named, in the order it chose.
//! - [`MethodError`]: says whether the check ran out of a budget, which one
//!   ([`MethodError::budget_kind`]) and how far it got ([`MethodError::partial_stats`]).
//!
//! [`Monolithic`] is the reference implementation: an on-the-fly search of the whole product.
//!
//! ```
//! use guarantor_compose::method::{Method, Monolithic, Problem};
//! use guarantor_compose::Config;
//! use guarantor_lts::Lts;
//!
//! let input = Lts::from_edges([(0, "input", 1), (1, "send", 2), (2, "ack", 0)])?;
//! let output = Lts::from_edges([(0, "send", 1), (1, "output", 2), (2, "ack", 0)])?;
//! let order = Lts::from_edges([(0, "input", 1), (1, "output", 0)])?;
//! let problem = Problem::new()
//!     .with_component("Input", input)
//!     .with_component("Output", output)
//!     .with_property("Order", order);
//! let report = Monolithic::new().check(&problem, &Config::default())?;
//! assert!(report.verdict.is_holds());
//! assert_eq!(report.stats.states, 4);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

use guarantor_lts::{ComponentId, Lts, PropertyId, StateId};

use crate::checkpoint::Checkpointing;
use crate::config::Config;
use crate::error::{BudgetKind, ComposeError};
use crate::monitor::{Monitor, MonitorSnapshot};
use crate::priority::Priority;
use crate::progress::{ProgressOptions, ProgressReport, ProgressTest, check_progress};
use crate::safety::Stats;
use crate::system::{SearchOrder, SystemOptions, check_system};
use crate::verdict::Verdict;

/// A boxed error of any method, kept whole so that its source chain is not lost.
pub type BoxError = Box<dyn std::error::Error + Send + Sync + 'static>;

/// One component of a [`Problem`].
#[derive(Clone, Debug)]
struct Component {
    name: String,
    lts: Lts,
    /// The state that stands for successful termination (FSP's `END`), if any.
    end: Option<StateId>,
}

/// A verification problem: components composed in parallel, safety properties they must satisfy,
/// and what else counts as an error.
///
/// Components and properties keep the order they were added in; their ids are their positions.
#[derive(Clone, Debug, Default)]
pub struct Problem {
    components: Vec<Component>,
    properties: Vec<(String, Lts)>,
    priority: Option<Priority>,
    deadlock: bool,
}

impl Problem {
    /// A problem with no components and no properties.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a component and returns its id.
    ///
    /// # Panics
    /// Panics past `u32::MAX` components.
    pub fn add_component(&mut self, name: impl Into<String>, lts: Lts) -> ComponentId {
        self.add_component_with_end(name, lts, None)
    }

    /// Adds a component whose state `end` means successful termination: a product state in which
    /// every component has terminated is not a deadlock.
    ///
    /// # Panics
    /// Panics past `u32::MAX` components.
    pub fn add_component_with_end(
        &mut self,
        name: impl Into<String>,
        lts: Lts,
        end: Option<StateId>,
    ) -> ComponentId {
        let id = ComponentId::must(self.components.len());
        self.components.push(Component {
            name: name.into(),
            lts,
            end,
        });
        id
    }

    /// Adds a safety property (a deterministic LTS) and returns its id.
    ///
    /// # Panics
    /// Panics past `u32::MAX` properties.
    pub fn add_property(&mut self, name: impl Into<String>, lts: Lts) -> PropertyId {
        let id = PropertyId::must(self.properties.len());
        self.properties.push((name.into(), lts));
        id
    }

    /// [`Problem::add_component`] in builder style.
    #[must_use]
    pub fn with_component(mut self, name: impl Into<String>, lts: Lts) -> Self {
        self.add_component(name, lts);
        self
    }

    /// [`Problem::add_property`] in builder style.
    #[must_use]
    pub fn with_property(mut self, name: impl Into<String>, lts: Lts) -> Self {
        self.add_property(name, lts);
        self
    }

    /// Sets action priority over the whole product (FSP's `<<` and `>>`). Methods that cannot
    /// honour it refuse the problem ([`MethodError::Unsupported`]).
    #[must_use]
    pub fn with_priority(mut self, priority: Option<Priority>) -> Self {
        self.priority = priority;
        self
    }

    /// Makes a reachable deadlock (a state with no successor in which not every component has
    /// terminated) an error too, as LTSA's safety check does.
    #[must_use]
    pub fn with_deadlock(mut self, on: bool) -> Self {
        self.deadlock = on;
        self
    }

    /// The number of components.
    pub fn num_components(&self) -> usize {
        self.components.len()
    }

    /// The number of properties.
    pub fn num_properties(&self) -> usize {
        self.properties.len()
    }

    /// The components' ids, in order.
    pub fn component_ids(&self) -> impl ExactSizeIterator<Item = ComponentId> + Clone {
        ComponentId::range(self.components.len())
    }

    /// The components with their ids and names, in order.
    pub fn components(&self) -> impl ExactSizeIterator<Item = (ComponentId, &str, &Lts)> {
        self.components
            .iter()
            .enumerate()
            .map(|(i, c)| (ComponentId::must(i), c.name.as_str(), &c.lts))
    }

    /// The properties with their ids and names, in order.
    pub fn properties(&self) -> impl ExactSizeIterator<Item = (PropertyId, &str, &Lts)> {
        self.properties
            .iter()
            .enumerate()
            .map(|(i, (n, l))| (PropertyId::must(i), n.as_str(), l))
    }

    /// The LTS of a component.
    ///
    /// # Panics
    /// Panics if `id` is not a component of this problem.
    pub fn component(&self, id: ComponentId) -> &Lts {
        &self.components[id.index()].lts
    }

    /// The name of a component.
    ///
    /// # Panics
    /// Panics if `id` is not a component of this problem.
    pub fn component_name(&self, id: ComponentId) -> &str {
        &self.components[id.index()].name
    }

    /// The LTS of a property.
    ///
    /// # Panics
    /// Panics if `id` is not a property of this problem.
    pub fn property(&self, id: PropertyId) -> &Lts {
        &self.properties[id.index()].1
    }

    /// The name of a property.
    ///
    /// # Panics
    /// Panics if `id` is not a property of this problem.
    pub fn property_name(&self, id: PropertyId) -> &str {
        &self.properties[id.index()].0
    }

    /// The component with this name, if there is one (the first, if several share it).
    pub fn component_named(&self, name: &str) -> Option<ComponentId> {
        self.components
            .iter()
            .position(|c| c.name == name)
            .map(ComponentId::must)
    }

    /// The components' LTSs in order, as the slice-taking functions of the method crates want them.
    pub fn component_lts(&self) -> Vec<&Lts> {
        self.components.iter().map(|c| &c.lts).collect()
    }

    /// The properties' LTSs in order, as the slice-taking functions of the method crates want them.
    pub fn property_lts(&self) -> Vec<&Lts> {
        self.properties.iter().map(|(_, l)| l).collect()
    }

    /// Per component, its successful-termination state, if any.
    pub fn end_states(&self) -> impl ExactSizeIterator<Item = Option<StateId>> + '_ {
        self.components.iter().map(|c| c.end)
    }

    /// The action priority over the whole product, if any.
    pub fn priority(&self) -> Option<&Priority> {
        self.priority.as_ref()
    }

    /// Whether a reachable deadlock counts as an error.
    pub fn deadlock(&self) -> bool {
        self.deadlock
    }

    /// Options for [`Method::check_progress`]: these tests (none: the default progress
    /// property) and internal action names, with the problem's end states and priority.
    pub fn progress_options(
        &self,
        tests: Vec<ProgressTest>,
        internal: Vec<String>,
    ) -> ProgressOptions {
        ProgressOptions::default()
            .with_tests(tests)
            .with_end_states(self.end_states().collect())
            .with_priority(self.priority().cloned())
            .with_internal(internal)
    }

    /// For a method that reasons about traces only (every assume-guarantee rule): `Ok` if the
    /// problem asks for nothing else, else [`MethodError::Unsupported`] naming what it cannot
    /// decide (action priority, deadlock detection).
    pub fn require_traces_only(&self, method: &str) -> Result<(), MethodError> {
        let reason = if self.priority.is_some() {
            "action priority (only the monolithic check honours it)"
        } else if self.deadlock {
            "deadlock detection (run a deadlock search beside it)"
        } else {
            return Ok(());
        };
        Err(MethodError::Unsupported {
            method: method.to_owned(),
            reason: reason.to_owned(),
        })
    }

    /// The deadlock question of this problem on its own: the components (with their end states
    /// and the priority), no property (a property's error form never blocks; the actions only
    /// properties have, always possible, are offered by one more component named
    /// [`PROPERTIES_OWN_ACTIONS`]), deadlocks asked for. With `safety_holds` (the safety question of this problem was answered `holds`), every
    /// move into a component's `ERROR` is dropped too: none can happen in the product, so the
    /// reachable states and deadlocks are the same, and a search that keeps such moves in view
    /// (the stubborn sets of `guarantor-por`) need not.
    ///
    /// ```
    /// use guarantor_compose::Problem;
    /// use guarantor_lts::Lts;
    /// let mut b = guarantor_lts::LtsBuilder::new();
    /// let [s0, s1] = [b.add_state()?, b.add_state()?];
    /// b.add_transition_named(s0, "a", s0)?;
    /// b.add_transition_named(s0, "b", s1)?;
    /// b.set_error(s1)?;
    /// let problem = Problem::new().with_component("C", b.build()?).with_property("P", Lts::from_edges([(0, "a", 0)])?);
    /// let question = problem.deadlock_question(true);
    /// assert!(question.deadlock() && question.num_properties() == 0);
    /// assert_eq!(question.component_lts()[0].num_transitions(), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn deadlock_question(&self, safety_holds: bool) -> Problem {
        let mut question = Problem::new()
            .with_priority(self.priority.clone())
            .with_deadlock(true);
        for c in &self.components {
            let lts = if safety_holds {
                without_error_moves(&c.lts)
            } else {
                c.lts.clone()
            };
            question.add_component_with_end(c.name.clone(), lts, c.end);
        }
        // An action only a property has is always possible (a property's error form offers
        // every action of its alphabet), so it keeps the system from deadlocking: one state
        // that offers those actions stands in for the properties.
        if let Some(own) = self.properties_own_actions() {
            question.add_component(PROPERTIES_OWN_ACTIONS, own);
        }
        question
    }

    /// One state with a self-loop on every action some property has and no component has, if
    /// there are any.
    fn properties_own_actions(&self) -> Option<Lts> {
        let mine = |name: &str| {
            self.components
                .iter()
                .any(|c| c.lts.alphabet().get(name).is_some())
        };
        let own: std::collections::BTreeSet<&str> = self
            .properties
            .iter()
            .flat_map(|(_, p)| {
                p.alphabet()
                    .iter()
                    .filter(|(a, _)| !a.is_tau())
                    .map(|(_, n)| n)
            })
            .filter(|n| !mine(n))
            .collect();
        if own.is_empty() {
            return None;
        }
        Lts::from_edges(own.into_iter().map(|a| (0, a, 0))).ok()
    }

    /// A `holds` certificate of `rule` about this problem's model ([`Problem::certify_model`]),
    /// with no premise yet: what every rule's certificate starts from (the `proof` module adds
    /// the premises; it lives beside this one so that neither needs the other's help).
    pub fn holds_certificate(
        &self,
        rule: guarantor_certify::format::Rule,
    ) -> guarantor_certify::Certificate {
        let (fingerprint, print) =
            guarantor_certify::fingerprint::model_print(&self.certify_model());
        guarantor_certify::Certificate::new(
            guarantor_certify::format::VerdictKind::Holds,
            rule,
            fingerprint,
            print,
        )
    }

    /// The model a certificate about this problem is checked against: the components (with
    /// their end states) and properties by name, for `guarantor_certify::check`.
    pub fn certify_model(&self) -> guarantor_certify::Model {
        let mut model = guarantor_certify::Model::new();
        for ((_, name, lts), end) in self.components().zip(self.end_states()) {
            model = match end {
                Some(end) => model.component_with_end(name, lts.clone(), end),
                None => model.component(name, lts.clone()),
            };
        }
        for (_, name, lts) in self.properties() {
            model = model.property(name, lts.clone());
        }
        model
    }

    /// The options of [`check_system`] that say what this problem looks for (priority, deadlock
    /// and end states), with breadth-first search.
    pub fn system_options(&self) -> SystemOptions {
        let mut options = SystemOptions::default();
        if let Some(p) = &self.priority {
            options = options.with_priority(p.clone());
        }
        if self.deadlock {
            options = options.with_deadlock(self.end_states().collect());
        }
        options
    }
}

/// The name of the component [`Problem::deadlock_question`] adds for the actions only properties
/// have (not a name FSP can give a process).
pub const PROPERTIES_OWN_ACTIONS: &str = "(the properties' own actions)";

/// `lts` without its moves into its error state (the same LTS when it has none).
fn without_error_moves(lts: &Lts) -> Lts {
    let Some(error) = lts.error_state() else {
        return lts.clone();
    };
    let rebuilt = (|| {
        let mut b = guarantor_lts::LtsBuilder::with_alphabet(lts.alphabet().clone());
        b.ensure_states(lts.num_states())?;
        b.set_initial(lts.initial())?;
        for t in lts.transitions().filter(|t| t.target != error) {
            b.add_transition(t.source, t.action, t.target)?;
        }
        b.build()
    })();
    // The same states and actions as `lts`, so building cannot fail.
    rebuilt.unwrap_or_else(|_: guarantor_lts::LtsError| lts.clone())
}

/// A way to decide whether a [`Problem`]'s components satisfy its properties, under a budget.
///
/// Implement it on a value that carries the method's settings; the value is then run by anything
/// that runs methods (the facade's `Checker`, its portfolio, the manifest test suite). The
/// contract every implementation keeps:
///
/// - **The verdict is about the problem as given.** Every `ERROR` state of a component, every
///   property, and (when [`Problem::deadlock`] is set) every deadlock counts. A method that cannot
///   decide some part returns [`MethodError::Unsupported`] rather than ignore it.
/// - **Evidence.** A [`Verdict::Violated`] carries a trace of visible actions that is a run of the
///   components and reaches the violation it names; a [`Verdict::Holds`] carries the method's
///   certificate (empty for a monolithic search).
/// - **Budgets.** Every exploration runs under `config` (states, deadline, cancel flag, monitor);
///   running out ends in an error for which [`MethodError::is_budget`] is true. A check starts
///   the timeout's clock with [`Config::started`] on entry, so that all its explorations share
///   one deadline.
/// - **Statistics.** [`MethodReport::stats`] is the largest search the method ran; a method that
///   runs many searches wraps them in [`monitored`], which sees every search and, on a budget
///   error, fills in how far the method got.
///
/// A method that decomposes checks parts of the problem: [`Problem::restrict_to_components`] and
/// [`Problem::with_only_properties`] build a part (a [`SubProblem`](crate::SubProblem)) and map
/// its answer back to the problem's own ids. Here, one property at a time:
///
/// ```
/// use std::borrow::Cow;
/// use guarantor_compose::method::{
///     Method, MethodError, MethodReport, Monolithic, Problem, monitored,
/// };
/// use guarantor_compose::{Certificate, Config, Stats, Verdict, Violation};
/// use guarantor_lts::{Lts, PropertyId};
///
/// #[derive(Debug)]
/// struct OnePropertyAtATime;
///
/// impl Method for OnePropertyAtATime {
///     fn name(&self) -> Cow<'_, str> {
///         Cow::Borrowed("one-at-a-time")
///     }
///
///     fn check(&self, problem: &Problem, config: &Config) -> Result<MethodReport, MethodError> {
///         // One deadline for every search below: the clock starts now, not per search.
///         let config = config.started();
///         // `monitored` sees every search and reports the largest (also on a budget error).
///         let (verdict, seen) = monitored(&config, |config| {
///             for (id, _, _) in problem.properties() {
///                 let part = problem.with_only_properties([id])?;
///                 let report = Monolithic::new().check(part.problem(), config)?;
///                 // The part's property 0 is the problem's `id`: `lift` renumbers.
///                 let report = part.lift(report);
///                 if report.verdict.is_violated() {
///                     return Ok(report.verdict);
///                 }
///             }
///             Ok(Verdict::Holds(Certificate::monolithic()))
///         })?;
///         let stats = Stats::new(seen.largest_states, 0);
///         Ok(MethodReport::new(verdict, stats))
///     }
/// }
///
/// let p = Lts::from_edges([(0, "a", 1), (1, "b", 0)])?;
/// let problem = Problem::new()
///     .with_component("P", p.clone())
///     .with_property("AB", p)
///     .with_property("BA", Lts::from_edges([(0, "b", 1), (1, "a", 0)])?);
/// let report = OnePropertyAtATime.check(&problem, &Config::default())?;
/// let cex = report.verdict.counterexample().ok_or("expected a violation")?;
/// assert_eq!(cex.violation, Violation::Property { property: PropertyId::must(1) });
/// assert_eq!(report.stats.states, 2);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait Method: fmt::Debug + Send + Sync {
    /// The method's short name, as a command line would spell it (`mono`, `circ`, ...).
    fn name(&self) -> Cow<'_, str>;

    /// Decides the problem.
    fn check(&self, problem: &Problem, config: &Config) -> Result<MethodReport, MethodError>;

    /// Whether the method searches for deadlocks itself when [`Problem::deadlock`] is set (in the
    /// same walk as its safety check, as [`Monolithic`] does). The default, `false`, is right for
    /// every method that reasons about traces: a checker that is asked for deadlocks then gives
    /// it a problem without them and searches for deadlocks separately after a `holds`.
    fn searches_deadlocks(&self) -> bool {
        false
    }

    /// Answers LTSA's progress question ([`crate::progress`]) on the problem's components and
    /// properties: `options` carries the tests and the internal action names, and the problem's
    /// end states and priority ([`Problem::progress_options`] makes such options). A violation
    /// comes with its run and cycle, as [`check_progress`] gives them.
    ///
    /// The default refuses the question ([`MethodError::Unsupported`]): a method that reasons
    /// about traces has nothing to say about what recurs under fair choice, and a checker or
    /// portfolio then asks a method that does ([`Method::answers_progress`]).
    fn check_progress(
        &self,
        problem: &Problem,
        options: &ProgressOptions,
        config: &Config,
    ) -> Result<ProgressReport, MethodError> {
        let _ = (problem, options, config);
        Err(MethodError::Unsupported {
            method: self.name().into_owned(),
            reason: "it answers no progress question".to_owned(),
        })
    }

    /// Whether [`Method::check_progress`] answers (the default, `false`, refuses).
    fn answers_progress(&self) -> bool {
        false
    }

    /// The certificate of a `holds` this method reported for `problem` (`report` is what
    /// [`Method::check`] returned), in the format of the independent checker
    /// `guarantor-certify`, which re-checks it against the problem's components and properties
    /// ([`Problem::certify_model`]) without trusting the method. A method proves its answer with
    /// its own rule, so it writes the premises itself; `config` bounds any work that takes.
    ///
    /// The default, `Ok(None)`, writes none: a checker then says that the method's `holds`
    /// cannot be certified. A violation needs no hook: its run is certified from the
    /// counterexample. [`crate::proof`] has the pieces every rule's certificate is made of.
    fn certificate(
        &self,
        problem: &Problem,
        report: &MethodReport,
        config: &Config,
    ) -> Result<Option<guarantor_certify::Certificate>, MethodError> {
        let _ = (problem, report, config);
        Ok(None)
    }

    /// How a program's abstract system (predicate abstraction, `guarantor-predabs`) is best
    /// grouped into the components this method checks. The default, [`Grouping::Grouped`], gives
    /// one component per program component; a method that composes everything anyway says
    /// [`Grouping::Separate`], and computed weakest assumptions need
    /// [`Grouping::GroupedWithContext`].
    fn program_grouping(&self) -> Grouping {
        Grouping::Grouped
    }

    /// The proof rule of `guarantor-certify` this method's certificates name (also a
    /// `violated` one, whose counterexample a checker writes itself). The default, `None`,
    /// names none; a checker then writes rule `mono` on a violation's certificate.
    fn proof_rule(&self) -> Option<guarantor_certify::format::Rule> {
        None
    }
}

/// `Method` for a reference or smart pointer to a method: every call goes to the method.
macro_rules! forward_method {
    ($($pointer:ty),*) => {$(
        impl<M: Method + ?Sized> Method for $pointer {
            fn name(&self) -> Cow<'_, str> {
                (**self).name()
            }
            fn check(&self, problem: &Problem, config: &Config) -> Result<MethodReport, MethodError> {
                (**self).check(problem, config)
            }
            fn searches_deadlocks(&self) -> bool {
                (**self).searches_deadlocks()
            }
            fn check_progress(
                &self,
                problem: &Problem,
                options: &ProgressOptions,
                config: &Config,
            ) -> Result<ProgressReport, MethodError> {
                (**self).check_progress(problem, options, config)
            }
            fn answers_progress(&self) -> bool {
                (**self).answers_progress()
            }
            fn certificate(
                &self,
                problem: &Problem,
                report: &MethodReport,
                config: &Config,
            ) -> Result<Option<guarantor_certify::Certificate>, MethodError> {
                (**self).certificate(problem, report, config)
            }
            fn proof_rule(&self) -> Option<guarantor_certify::format::Rule> {
                (**self).proof_rule()
            }
            fn program_grouping(&self) -> Grouping {
                (**self).program_grouping()
            }
        }
    )*};
}

forward_method!(&M, Box<M>, Arc<M>);

/// How a program's abstract system (predicate abstraction: one LTS per program component and
/// one two-state process per shared predicate) becomes the components a method checks
/// ([`Method::program_grouping`]; `guarantor-predabs` builds the groups, its module `groups`
/// says how and why).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Grouping {
    /// Every component and every shared-predicate process on its own (for the monolithic method,
    /// which composes everything anyway).
    Separate,
    /// Each shared-predicate process composed into the component it synchronises with most: one
    /// component per program component. Default.
    #[default]
    Grouped,
    /// [`Grouping::Grouped`], each group with its context; for computed weakest assumptions.
    GroupedWithContext,
}

/// A named figure a method measured (membership queries, iterations, SAT calls, ...).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct Counter {
    /// The figure's name, in `snake_case` (it becomes a JSON field).
    pub name: Cow<'static, str>,
    /// Its value.
    pub value: u64,
}

impl Counter {
    /// A counter called `name` (`snake_case`) with this value (saturating at `u64::MAX`).
    ///
    /// ```
    /// use guarantor_compose::method::Counter;
    /// let c = Counter::new("bytes_sent", 42usize);
    /// assert_eq!(Counter::find(&[c], "bytes_sent"), Some(42));
    /// ```
    pub fn new(name: impl Into<Cow<'static, str>>, value: impl TryInto<u64>) -> Self {
        Self {
            name: name.into(),
            value: value.try_into().unwrap_or(u64::MAX),
        }
    }

    /// The value of the counter called `name` among `counters`, if there is one.
    pub fn find(counters: &[Counter], name: &str) -> Option<u64> {
        counters.iter().find(|c| c.name == name).map(|c| c.value)
    }
}

/// What a [`Method`] found and what it cost.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct MethodReport {
    /// Holds (with the method's certificate) or violated (with a counterexample).
    pub verdict: Verdict,
    /// States and transitions of the largest single search the method ran.
    pub stats: Stats,
    /// The method's own figures, in the order it reports them.
    pub counters: Vec<Counter>,
    /// For a method that runs others (a portfolio): the name of the one whose verdict this is.
    pub answered_by: Option<String>,
    /// Free-form remarks for people (for a portfolio: how far each other member got).
    pub notes: Vec<String>,
    /// For a method that answered the deadlock question in a second phase (a portfolio whose
    /// `holds` for the safety question came from a member that does not search deadlocks): that
    /// phase. [`MethodReport::verdict`] is already the whole answer; [`MethodReport::stats`]
    /// and [`MethodReport::answered_by`] are the first phase's.
    pub deadlock_phase: Option<Box<DeadlockPhase>>,
}

/// The second phase of a report ([`MethodReport::deadlock_phase`]): the deadlock question alone
/// ([`Problem::deadlock_question`]), who answered it, and how long it took.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct DeadlockPhase {
    /// The report of the phase (its verdict: a deadlock, or holds).
    pub report: MethodReport,
    /// The method that answered it.
    pub method: String,
    /// Its wall-clock time.
    pub elapsed: std::time::Duration,
}

impl DeadlockPhase {
    /// The phase `method` answered with `report` in `elapsed`.
    pub fn new(
        report: MethodReport,
        method: impl Into<String>,
        elapsed: std::time::Duration,
    ) -> Self {
        Self {
            report,
            method: method.into(),
            elapsed,
        }
    }
}

impl MethodReport {
    /// A report with this verdict and these statistics, and no counters.
    pub fn new(verdict: Verdict, stats: Stats) -> Self {
        Self {
            verdict,
            stats,
            counters: Vec::new(),
            answered_by: None,
            notes: Vec::new(),
            deadlock_phase: None,
        }
    }

    /// Adds a counter (any integer that fits in a `u64`; larger values saturate).
    #[must_use]
    pub fn with_counter(
        mut self,
        name: impl Into<Cow<'static, str>>,
        value: impl TryInto<u64>,
    ) -> Self {
        self.counters.push(Counter {
            name: name.into(),
            value: value.try_into().unwrap_or(u64::MAX),
        });
        self
    }

    /// The value of the counter with this name, if the method reported one.
    pub fn counter(&self, name: &str) -> Option<u64> {
        Counter::find(&self.counters, name)
    }
}

/// Why a [`Method`] gave no verdict.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum MethodError {
    /// A budget ran out (states, time, memory, cancellation, or a method's own limit: queries,
    /// SAT conflicts, iterations).
    #[error("{source}")]
    Budget {
        /// Which budget ran out.
        kind: BudgetKind,
        /// The method's own error, which says more (the limit, the method's words).
        #[source]
        source: BoxError,
        /// How far the method got: the largest search it ran before it stopped.
        partial: Stats,
    },
    /// The method cannot decide this problem (for instance action priority, or deadlocks, in a
    /// method that reasons about traces only).
    #[error("{method} cannot check this problem: {reason}")]
    Unsupported {
        /// The method's name.
        method: String,
        /// What it cannot handle.
        reason: String,
    },
    /// The method's settings do not fit the problem (a split naming a component the problem does
    /// not have, ...).
    #[error("{0}")]
    BadSettings(String),
    /// The method failed for another reason (a property that is not deterministic, ...).
    #[error(transparent)]
    Failed(BoxError),
}

impl MethodError {
    /// A budget error: which budget, the method's own error, and how far it got.
    pub fn budget(kind: BudgetKind, source: impl Into<BoxError>, partial: Stats) -> Self {
        Self::Budget {
            kind,
            source: source.into(),
            partial,
        }
    }

    /// An error that is not about budgets.
    pub fn failed(source: impl Into<BoxError>) -> Self {
        Self::Failed(source.into())
    }

    /// Wraps a method crate's error: a budget error of this kind if `budget` is some (what the
    /// crate's error answers to `budget_kind()`), else a failure.
    ///
    /// ```
    /// use guarantor_compose::{BudgetKind, ComposeError, MethodError};
    /// let e = ComposeError::Deadline;
    /// let kind = e.budget_kind();
    /// assert_eq!(MethodError::classify(e, kind).budget_kind(), Some(BudgetKind::Time));
    /// ```
    pub fn classify(source: impl Into<BoxError>, budget: Option<BudgetKind>) -> Self {
        match budget {
            Some(kind) => Self::budget(kind, source, Stats::default()),
            None => Self::failed(source),
        }
    }

    /// Whether the check ended because a budget ran out.
    pub fn is_budget(&self) -> bool {
        matches!(self, Self::Budget { .. })
    }

    /// Which budget ran out, if one did.
    pub fn budget_kind(&self) -> Option<BudgetKind> {
        match self {
            Self::Budget { kind, .. } => Some(*kind),
            _ => None,
        }
    }

    /// For a budget error, how far the method got.
    pub fn partial_stats(&self) -> Option<&Stats> {
        match self {
            Self::Budget { partial, .. } => Some(partial),
            _ => None,
        }
    }

    /// The same error with its partial statistics raised to at least `seen` (what a monitor saw
    /// of the searches the method ran).
    #[must_use]
    pub fn with_partial_at_least(mut self, seen: Stats) -> Self {
        if let Self::Budget { partial, .. } = &mut self {
            partial.states = partial.states.max(seen.states);
            partial.transitions = partial.transitions.max(seen.transitions);
        }
        self
    }
}

impl From<ComposeError> for MethodError {
    fn from(e: ComposeError) -> Self {
        let kind = e.budget_kind();
        Self::classify(e, kind)
    }
}

/// Runs `run` under `config` with a fresh monitor that forwards to `config`'s own, and returns
/// what the monitor saw beside the result: the largest search a method ran, even a method that
/// only ran many small ones. A budget error comes back with its partial statistics filled in.
pub fn monitored<T>(
    config: &Config,
    run: impl FnOnce(&Config) -> Result<T, MethodError>,
) -> Result<(T, MonitorSnapshot), MethodError> {
    let monitor = Arc::new(Monitor::child_of(config.monitor.clone()));
    let watched = config.clone().with_monitor(Arc::clone(&monitor));
    match run(&watched) {
        Ok(value) => Ok((value, monitor.snapshot())),
        Err(e) => {
            let seen = Stats {
                states: monitor.snapshot().largest_states,
                transitions: 0,
            };
            Err(e.with_partial_at_least(seen))
        }
    }
}

/// The monolithic check: an on-the-fly search of the whole product for a property violation, a
/// component's `ERROR` state or (when the problem asks) a deadlock. The reference every other
/// method is tested against; it honours action priority.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Monolithic {
    /// The search order. Breadth first (the default) gives shortest counterexamples; depth first
    /// finds deep violations much sooner.
    pub search: SearchOrder,
    /// Checkpoints of the (breadth-first) search, or the one to resume from. Default: `None`.
    pub checkpoint: Option<Checkpointing>,
}

impl Monolithic {
    /// A breadth-first monolithic check.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the search order.
    #[must_use]
    pub fn with_search(mut self, search: SearchOrder) -> Self {
        self.search = search;
        self
    }

    /// Writes checkpoints of the search, or resumes from one, as `plan` says
    /// ([`SystemOptions::checkpoint`]).
    #[must_use]
    pub fn with_checkpoint(mut self, plan: Checkpointing) -> Self {
        self.checkpoint = Some(plan);
        self
    }
}

impl Method for Monolithic {
    fn name(&self) -> Cow<'_, str> {
        Cow::Borrowed("mono")
    }

    /// Rule `mono`: one `monolithic` premise, which the independent checker decides by
    /// exploring the product itself. It certifies the properties and `ERROR` states (the
    /// version-1 monolithic premise does not look for deadlocks); action priority cannot be
    /// written in version 1, so a prioritised problem gets none.
    fn certificate(
        &self,
        problem: &Problem,
        report: &MethodReport,
        _config: &Config,
    ) -> Result<Option<guarantor_certify::Certificate>, MethodError> {
        if !report.verdict.is_holds() || problem.priority().is_some() {
            return Ok(None);
        }
        Ok(Some(
            problem
                .holds_certificate(guarantor_certify::format::Rule::Mono)
                .with_premise(guarantor_certify::format::Premise::Monolithic),
        ))
    }

    fn proof_rule(&self) -> Option<guarantor_certify::format::Rule> {
        Some(guarantor_certify::format::Rule::Mono)
    }

    /// It composes everything anyway: the abstract LTSs as they are.
    fn program_grouping(&self) -> Grouping {
        Grouping::Separate
    }

    fn searches_deadlocks(&self) -> bool {
        true
    }

    fn answers_progress(&self) -> bool {
        true
    }

    /// The progress check of the whole product ([`check_progress`]).
    fn check_progress(
        &self,
        problem: &Problem,
        options: &ProgressOptions,
        config: &Config,
    ) -> Result<ProgressReport, MethodError> {
        let (report, _) = monitored(&config.started(), |config| {
            Ok(check_progress(
                &problem.component_lts(),
                &problem.property_lts(),
                options,
                config,
            )?)
        })?;
        Ok(report)
    }

    fn check(&self, problem: &Problem, config: &Config) -> Result<MethodReport, MethodError> {
        let mut options = problem.system_options().with_search(self.search);
        options.checkpoint.clone_from(&self.checkpoint);
        let (report, _) = monitored(&config.started(), |config| {
            Ok(check_system(
                &problem.component_lts(),
                &problem.property_lts(),
                &options,
                config,
            )?)
        })?;
        Ok(MethodReport::new(report.verdict, report.stats))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verdict::Violation;

    fn lts(edges: &[(usize, &str, usize)]) -> Lts {
        Lts::from_edges(edges.iter().copied()).unwrap()
    }

    #[test]
    fn ids_follow_the_order_of_addition_and_names_find_them() {
        let mut problem = Problem::new();
        let a = problem.add_component("A", lts(&[(0, "x", 0)]));
        let b = problem.add_component("B", lts(&[(0, "y", 0)]));
        let p = problem.add_property("P", lts(&[(0, "x", 0)]));
        assert_eq!((a.index(), b.index(), p.index()), (0, 1, 0));
        assert_eq!(problem.component_named("B"), Some(b));
        assert_eq!(problem.component_name(a), "A");
        assert_eq!(problem.property_name(p), "P");
        assert_eq!(problem.component_ids().collect::<Vec<_>>(), [a, b]);
    }

    #[test]
    fn monolithic_finds_a_deadlock_only_when_asked() {
        let stop = lts(&[(0, "a", 1)]);
        let problem = Problem::new().with_component("P", stop);
        let report = Monolithic::new()
            .check(&problem, &Config::default())
            .unwrap();
        assert!(report.verdict.is_holds());
        let report = Monolithic::new()
            .check(&problem.with_deadlock(true), &Config::default())
            .unwrap();
        let cex = report.verdict.counterexample().unwrap();
        assert_eq!(cex.violation, Violation::Deadlock);
        assert_eq!(cex.trace, ["a"]);
    }

    #[test]
    fn a_budget_error_says_so_and_how_far_it_got() {
        let counter = lts(&[(0, "a", 1), (1, "a", 2), (2, "a", 3), (3, "a", 0)]);
        let problem = Problem::new().with_component("C", counter);
        let err = Monolithic::new()
            .check(&problem, &Config::default().with_max_states(2))
            .unwrap_err();
        assert!(err.is_budget(), "{err}");
        assert_eq!(err.budget_kind(), Some(BudgetKind::States));
        assert!(err.partial_stats().is_some());
    }

    #[test]
    fn counters_are_found_by_name() {
        let report = MethodReport::new(
            Verdict::Holds(crate::Certificate::monolithic()),
            Stats::default(),
        )
        .with_counter("iterations", 3_usize)
        .with_counter("sat_calls", 7_u32);
        assert_eq!(report.counter("sat_calls"), Some(7));
        assert_eq!(report.counter("queries"), None);
    }
}

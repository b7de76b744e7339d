//! Learner configuration ([`LearnerConfig`], [`LearnerKind`], [`CexStrategy`]) and query statistics ([`Stats`]).

/// How a counterexample is turned into new rows or columns of the observation table.
///
/// All three are implemented in one place (`Learner`'s counterexample phase) over the same cached
/// membership oracle, so switching strategies changes nothing else.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum CexStrategy {
    /// Rivest and Schapire: binary search for the index where replacing the prefix by the
    /// hypothesis's access word flips the answer; add the one suffix after it to the columns E.
    /// Needs about log2 of the counterexample's length membership queries; keeps every row of S
    /// distinct, so the table never becomes inconsistent.
    #[default]
    RivestSchapire,
    /// Angluin's original: add every prefix of the counterexample to the rows S, then restore
    /// consistency by adding distinguishing columns.
    Angluin,
    /// Maler and Pnueli: add every suffix of the counterexample to the columns E.
    MalerPnueli,
}

/// Which learning algorithm a [`Learner`](crate::Learner) runs. Both answer through the same
/// [`Step`](crate::Step)s and take the same [`LearnerConfig`], so every teacher, driver and
/// assume-guarantee rule runs either.
///
/// ```
/// use guarantor_lstar::{learn, Dfa, DfaTeacher, Learner, LearnerConfig, LearnerKind, Outcome};
/// // Words over {0, 1} whose number of 0s is divisible by 3.
/// let target = Dfa::new(2, vec![vec![1, 0], vec![2, 1], vec![0, 2]], vec![true, false, false])?;
/// let config = LearnerConfig::default().with_kind(LearnerKind::LSharp);
/// let mut learner = Learner::new(2, config);
/// let Outcome::Learned(dfa) = learn(&mut learner, &mut DfaTeacher::new(target.clone()))? else {
///     unreachable!("a DfaTeacher never stops")
/// };
/// assert!(dfa.shortest_difference(&target).is_none());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum LearnerKind {
    /// Angluin's L* with an observation table (rows x distinguishing suffixes), counterexamples
    /// analysed as [`CexStrategy`] says.
    #[default]
    LStar,
    /// L# (Vaandrager, Garhewal, Rot, Wissmann, TACAS 2022): an observation tree, apartness, and
    /// counterexamples processed by binary search on the counterexample (the paper's
    /// `ProcCounterEx`; [`LearnerConfig::strategy`] does not apply). Asks fewer membership
    /// queries than L*, typically for more equivalence queries.
    LSharp,
}

/// How the learner works and when it gives up. Setters by value; [`Default`] gives the values in
/// brackets.
///
/// ```
/// use guarantor_lstar::{CexStrategy, LearnerConfig};
/// let config = LearnerConfig::default()
///     .with_strategy(CexStrategy::MalerPnueli)
///     .with_prefix_closed(true)
///     .with_max_rounds(50);
/// assert_eq!(config.max_rounds, Some(50));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct LearnerConfig {
    /// The learning algorithm. [default: [`LearnerKind::LStar`]]
    pub kind: LearnerKind,
    /// Counterexample analysis of L*. [default: [`CexStrategy::RivestSchapire`]]
    pub strategy: CexStrategy,
    /// The target is known to be prefix-closed: a word with a rejected prefix is rejected and a
    /// prefix of an accepted word is accepted without asking; counterexamples are cut at their first
    /// disagreement; hypotheses are prefix-closed with one rejecting sink. [default: `false`]
    pub prefix_closed: bool,
    /// Before handing out a hypothesis, compare it with every answer already known and use a
    /// disagreement as a free counterexample. [default: `true`]
    pub check_known: bool,
    /// At most this many hypotheses (equivalence queries). [default: `None`]
    pub max_rounds: Option<usize>,
    /// At most this many membership queries sent to the teacher. [default: `None`]
    pub max_membership_queries: Option<u64>,
    /// At most this many states in a hypothesis. [default: `None`]
    pub max_hypothesis_states: Option<usize>,
}

impl Default for LearnerConfig {
    fn default() -> Self {
        Self {
            kind: LearnerKind::LStar,
            strategy: CexStrategy::RivestSchapire,
            prefix_closed: false,
            check_known: true,
            max_rounds: None,
            max_membership_queries: None,
            max_hypothesis_states: None,
        }
    }
}

impl LearnerConfig {
    /// Sets the learning algorithm.
    #[must_use]
    pub fn with_kind(mut self, kind: LearnerKind) -> Self {
        self.kind = kind;
        self
    }

    /// Sets the counterexample analysis (of L*).
    #[must_use]
    pub fn with_strategy(mut self, strategy: CexStrategy) -> Self {
        self.strategy = strategy;
        self
    }

    /// Declares the target prefix-closed (or not).
    #[must_use]
    pub fn with_prefix_closed(mut self, yes: bool) -> Self {
        self.prefix_closed = yes;
        self
    }

    /// Turns the check of hypotheses against known answers on or off.
    #[must_use]
    pub fn with_check_known(mut self, yes: bool) -> Self {
        self.check_known = yes;
        self
    }

    /// Limits the number of hypotheses.
    #[must_use]
    pub fn with_max_rounds(mut self, limit: usize) -> Self {
        self.max_rounds = Some(limit);
        self
    }

    /// Limits the number of membership queries sent to the teacher.
    #[must_use]
    pub fn with_max_membership_queries(mut self, limit: u64) -> Self {
        self.max_membership_queries = Some(limit);
        self
    }

    /// Limits the size of hypotheses.
    #[must_use]
    pub fn with_max_hypothesis_states(mut self, limit: usize) -> Self {
        self.max_hypothesis_states = Some(limit);
        self
    }
}

/// What a learning run asked and how much of it the cache answered.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Stats {
    /// Membership queries sent to the teacher. Answers are cached, so these are distinct words.
    pub membership_queries: u64,
    /// Total length of the words sent to the teacher.
    pub symbols: u64,
    /// Membership answers the algorithm needed, whether the teacher, the cache or prefix-closure
    /// inference supplied them.
    pub lookups: u64,
    /// Answers supplied by prefix-closure inference (prefix-closed mode) instead of the teacher.
    pub inferred: u64,
    /// Hypotheses handed to the teacher (equivalence queries).
    pub equivalence_queries: u64,
    /// Counterexamples found by comparing a hypothesis with known answers, without the teacher.
    pub free_counterexamples: u64,
    /// The size of every hypothesis handed out, in order.
    pub hypothesis_sizes: Vec<usize>,
}

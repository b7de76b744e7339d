//! Rule ASYM (Cobleigh, Giannakopoulou, Pasareanu 2003): `<A> M1 <P>` and `<true> M2 <A>` give
//! `<true> M1 || M2 <P>`, with `A` learned by L* over `Sigma = (alpha M1 u alpha P) n alpha M2`.
//!
//! [`AsymTeacher`] answers a membership query for a word by simulating it on `M1 || P_err` (true iff
//! pi stays unreachable), and a conjecture with Oracle 1 (`<A_i> M1 <P>`; a violation's projection
//! is a word the assumption must drop) and Oracle 2 (`<true> M2 <A_i>`; holds: the property holds
//! with certificate `A_i`). A violation of Oracle 2 is analysed by a membership query: if `M1` stays
//! safe on the trace, the assumption is too strong and the trace goes back to L*; otherwise the
//! `M2` trace and the `M1 || P_err` run are interleaved into a real counterexample of `M1 || M2`.

use guarantor_compose::{
    Assumption, Certificate, Config, Counterexample, Verdict, check_safety, check_triple,
};
use guarantor_lts::Lts;

use super::{AgConfig, AgReport, chain, merge, names, project};
use crate::dfa::{Dfa, Symbol};
use crate::error::{LearnError, LstarError};
use crate::learner::Learner;
use crate::teacher::{EqAnswer, Outcome, Teacher, learn};

/// The teacher of rule ASYM for `M1 || M2 |= P`.
#[derive(Debug)]
pub struct AsymTeacher<'a> {
    m1: &'a Lts,
    m2: &'a Lts,
    property: &'a Lts,
    interface: Vec<String>,
    config: Config,
    /// The size of each conjectured assumption (as a safety LTS).
    sizes: Vec<usize>,
}

impl<'a> AsymTeacher<'a> {
    /// A teacher for `m1 || m2 |= property`; model checks run within `config`'s budgets.
    ///
    /// # Errors
    /// [`LstarError::Unsupported`] if `m2` has an error state (its violations would need a second
    /// property; LTSA components with `ERROR` belong in the `m1` position).
    pub fn new(
        m1: &'a Lts,
        m2: &'a Lts,
        property: &'a Lts,
        config: Config,
    ) -> Result<Self, LstarError> {
        if m2.error_state().is_some() {
            return Err(LstarError::Unsupported(
                "an ERROR state in M2 under rule ASYM",
            ));
        }
        let interface = names(m2)
            .filter(|n| m1.alphabet().contains(n) || property.alphabet().contains(n))
            .map(str::to_owned)
            .collect();
        Ok(Self {
            m1,
            m2,
            property,
            interface,
            config,
            sizes: Vec::new(),
        })
    }

    /// The interface alphabet `Sigma`; symbol `i` of the learner is `interface()[i]`.
    pub fn interface(&self) -> &[String] {
        &self.interface
    }

    /// A run of `M1 || P_err` that follows `word` on the interface and reaches a violation, if any.
    ///
    /// # Errors
    /// Budget errors of the model check.
    pub fn simulate(&self, word: &[Symbol]) -> Result<Option<Counterexample>, LstarError> {
        let spelled = chain(word, &self.interface)?;
        let report = check_safety(&[self.m1, &spelled], &[self.property], &self.config)?;
        Ok(report.verdict.counterexample().cloned())
    }

    /// Oracle 2's counterexample analysis: weaken the assumption, or report a real violation.
    fn analyse(&self, env_trace: &[String]) -> Result<EqAnswer<Verdict>, LstarError> {
        let word = project(env_trace, &self.interface);
        Ok(match self.simulate(&word)? {
            None => EqAnswer::Counterexample(word),
            Some(witness) => {
                let trace = merge(&witness.trace, env_trace, &self.interface);
                EqAnswer::Stop(Verdict::Violated(Counterexample::new(
                    trace,
                    witness.violation,
                )))
            }
        })
    }
}

impl Teacher for AsymTeacher<'_> {
    type Verdict = Verdict;
    type Error = LstarError;

    fn membership(&mut self, word: &[Symbol]) -> Result<bool, LstarError> {
        Ok(self.simulate(word)?.is_none())
    }

    fn equivalence(&mut self, hypothesis: &Dfa) -> Result<EqAnswer<Verdict>, LstarError> {
        if !hypothesis.accepts(&[]) {
            // The learner rejects the empty word only if the teacher did: M1 reaches a violation
            // through its own actions, which no environment can block. That run is the verdict.
            return self.analyse(&[]);
        }
        let assumption = hypothesis.to_safety_lts(&self.interface)?;
        self.sizes.push(assumption.num_states());
        // Oracle 1: is the assumption strong enough to keep M1 safe?
        let premise1 = check_triple(&assumption, self.m1, self.property, &self.config)?;
        if let Some(cex) = premise1.verdict.counterexample() {
            return Ok(EqAnswer::Counterexample(project(
                &cex.trace,
                &self.interface,
            )));
        }
        // Oracle 2: does M2 guarantee it?
        let premise2 = check_safety(&[self.m2], &[&assumption], &self.config)?;
        match premise2.verdict.counterexample() {
            Some(cex) => self.analyse(&cex.trace),
            None => Ok(EqAnswer::Stop(Verdict::Holds(Certificate {
                assumptions: vec![Assumption {
                    component: "1".to_owned(),
                    lts: assumption,
                }],
            }))),
        }
    }
}

/// Checks `m1 || m2 |= property` with rule ASYM, learning the assumption about `m2` with L*.
///
/// On [`Verdict::Holds`] the certificate holds one assumption (component `"1"`, i.e. `m2`
/// guarantees it) over the interface alphabet, such that `<A> m1 <property>` and
/// `<true> m2 <A>` hold. On [`Verdict::Violated`] the counterexample is a run of `m1 || m2` (it
/// replays in both) that drives the property's error LTS to pi, or `m1` into its `ERROR`.
///
/// ```
/// use guarantor_lstar::ag::{check_asym, AgConfig};
/// use guarantor_lts::{Lts, LtsBuilder, StateId};
/// fn cycle(actions: &[&str]) -> Lts {
///     let mut b = LtsBuilder::new();
///     b.ensure_states(actions.len()).unwrap();
///     for (i, a) in actions.iter().enumerate() {
///         let next = StateId::must((i + 1) % actions.len());
///         b.add_transition_named(StateId::must(i), a, next).unwrap();
///     }
///     b.build().unwrap()
/// }
/// let input = cycle(&["input", "send", "ack"]);
/// let output = cycle(&["send", "output", "ack"]);
/// let order = cycle(&["input", "output"]);
/// let report = check_asym(&input, &output, &order, &AgConfig::default())?;
/// assert!(report.verdict.is_holds());
/// assert_eq!(report.interface, ["send", "output", "ack"]);
/// assert_eq!(report.assumption_sizes, [1, 2]); // the paper's A1, then A2
/// # Ok::<(), guarantor_lstar::LstarError>(())
/// ```
///
/// # Errors
/// Budgets of the learner ([`AgConfig::learner`]) or of a model check ([`AgConfig::compose`];
/// [`LstarError::Compose`] with [`ComposeError::is_budget`](guarantor_compose::ComposeError::is_budget));
/// a nondeterministic property; an `ERROR` state in `m2` ([`LstarError::Unsupported`]).
pub fn check_asym(
    m1: &Lts,
    m2: &Lts,
    property: &Lts,
    config: &AgConfig,
) -> Result<AgReport, LstarError> {
    let mut teacher = AsymTeacher::new(m1, m2, property, config.compose.clone())?;
    let mut learner = Learner::new(teacher.interface.len(), config.learner.clone());
    let outcome = learn(&mut learner, &mut teacher).map_err(flatten)?;
    let Outcome::Stopped { verdict, .. } = outcome else {
        // The ASYM teacher never answers "equivalent": it stops with a verdict instead.
        return Err(LstarError::Unsupported(
            "a teacher that accepts a hypothesis under ASYM",
        ));
    };
    Ok(AgReport {
        verdict,
        stats: learner.stats().clone(),
        assumption_sizes: teacher.sizes,
        interface: teacher.interface,
    })
}

/// Merges the driver's two error layers (the teacher's error is already an [`LstarError`]).
pub(crate) fn flatten(e: LearnError<LstarError>) -> LstarError {
    match e {
        LearnError::Learner(e) | LearnError::Teacher(e) => e,
    }
}

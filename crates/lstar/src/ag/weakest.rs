//! The weakest assumption of one component alone (Cobleigh et al. 2003, section 5): L* with the
//! membership teacher of rule ASYM and, in place of Oracle 2 (which needs `M2`), a W-method
//! conformance test of each conjecture against membership queries ([`WMethod`], the public
//! oracle of [`oracle`](crate::oracle)).
//!
//! The W-method (Chow 1978) checks a hypothesis `H` with `n` states against a black box with at
//! most `n + extra` states by running every word `p · m · w`: `p` from the transition cover of `H`
//! (access words and their one-symbol extensions), `m` any word of length at most `extra`, `w`
//! from a characterisation set of `H` (one separating word per pair of states) or empty. When the
//! weakest assumption has at most `n + extra` states the result is exact; otherwise it is the best
//! conjecture the tests could not refute — every intermediate assumption is usable (anytime).

use guarantor_lts::Lts;

use super::{AgConfig, AsymTeacher};
use crate::config::Stats;
use crate::dfa::{Dfa, Symbol};
use crate::error::LstarError;
use crate::learner::{Learner, Step};
use crate::oracle::{EquivalenceOracle, Interrupted, WMethod};
use crate::teacher::Teacher;

/// A learned weakest assumption.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct WeakestAssumption {
    /// The assumption as a complete DFA over [`WeakestAssumption::interface`].
    pub dfa: Dfa,
    /// The assumption as a safety LTS (the DFA without its rejecting sink).
    pub lts: Lts,
    /// The interface alphabet; symbol `i` is `interface[i]`.
    pub interface: Vec<String>,
    /// The learner's queries. The conformance tests' own membership checks are not included
    /// (they read the learner's cache first and ask the teacher only for unknown words).
    pub stats: Stats,
}

/// Learns the weakest assumption of `m1` for `property` over `interface`: the traces over the
/// interface that cannot drive `m1 || property_err` to pi. Conjectures are tested with the
/// W-method for `extra_states` states beyond each conjecture's size.
///
/// ```
/// use guarantor_lstar::ag::{weakest_assumption, AgConfig};
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
/// let order = cycle(&["input", "output"]);
/// let interface = ["send", "output", "ack"].map(String::from);
/// let weakest = weakest_assumption(&input, &order, &interface, 2, &AgConfig::default())?;
/// assert_eq!(weakest.lts.num_states(), 4);
/// # Ok::<(), guarantor_lstar::LstarError>(())
/// ```
///
/// # Errors
/// Budgets of the learner or of the model checks; a nondeterministic property.
pub fn weakest_assumption(
    m1: &Lts,
    property: &Lts,
    interface: &[String],
    extra_states: usize,
    config: &AgConfig,
) -> Result<WeakestAssumption, LstarError> {
    // An environment that declares exactly the interface: the teacher only uses it to fix Sigma.
    let env = interface_lts(interface)?;
    let mut teacher =
        AsymTeacher::new(m1, &[&env], property, config)?.with_interface(interface.to_vec());
    let mut learner = Learner::new(interface.len(), config.learner.clone());
    let dfa = loop {
        let h = match learner.step()? {
            Step::Queries(words) => {
                let mut answers = Vec::with_capacity(words.len());
                for w in words.iter() {
                    answers.push(teacher.membership(w)?);
                }
                learner.answer(&answers)?;
                continue;
            }
            Step::Hypothesis(h) => h.clone(),
        };
        // The oracle sees only "interrupted"; the model checker's error is kept here.
        let mut failure = None;
        let found = WMethod::new(extra_states).find_counterexample(&h, &mut |w| {
            answer(&mut learner, &mut teacher, w).map_err(|e| {
                failure = Some(e);
                Interrupted
            })
        });
        match (found, failure) {
            (_, Some(e)) => return Err(e),
            (Ok(Some(cex)), None) => learner.counterexample(cex)?,
            (Ok(None) | Err(Interrupted), None) => break h,
        }
    };
    let lts = dfa.to_safety_lts(interface)?;
    Ok(WeakestAssumption {
        dfa,
        lts,
        interface: interface.to_vec(),
        stats: learner.stats().clone(),
    })
}

/// An LTS with one state declaring `interface` and offering nothing.
fn interface_lts(interface: &[String]) -> Result<Lts, LstarError> {
    let mut b = guarantor_lts::LtsBuilder::new();
    b.add_state()?;
    for name in interface {
        b.action(name)?;
    }
    Ok(b.build()?)
}

/// A membership answer for the conformance test: from the learner's cache if known, else from the
/// teacher.
fn answer(
    learner: &mut Learner,
    teacher: &mut AsymTeacher<'_>,
    w: &[Symbol],
) -> Result<bool, LstarError> {
    match learner.known(w) {
        Some(a) => Ok(a),
        None => teacher.membership(w),
    }
}

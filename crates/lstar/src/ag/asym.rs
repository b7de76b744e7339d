//! Rule ASYM (Cobleigh, Giannakopoulou, Pasareanu 2003): `<A> M1 <P>` and `<true> M2 <A>` give
//! `<true> M1 || M2 <P>`, with `A` learned by L* over `Sigma = (alpha M1 u alpha P) n alpha M2`.
//!
//! [`AsymTeacher`] answers a membership query for a word by simulating it on `M1 || P_err` (true iff
//! pi stays unreachable), and a conjecture with Oracle 1 (`<A_i> M1 <P>`; a violation's projection
//! is a word the assumption must drop) and Oracle 2 (`<true> M2 <A_i>`; holds: the property holds
//! with certificate `A_i`). A violation of Oracle 2 is analysed by a membership query: if `M1` stays
//! safe on the trace, the assumption is too strong and the trace goes back to L*; otherwise the
//! `M2` trace and the `M1 || P_err` run are interleaved into a real counterexample of `M1 || M2`.
//!
//! **Alphabet refinement** ([`AgConfig::alphabet_refinement`]; Gheorghiu, Giannakopoulou,
//! Pasareanu, TACAS 2007). Learning starts over `Sigma_A`, the interface actions the property
//! mentions (in the interface's order), instead of the whole interface `Sigma_I`. The queries are
//! the same over the smaller alphabet: a membership word spells `Sigma_A` only, so `M1`'s actions
//! in `Sigma_I \ Sigma_A` interleave freely, and Oracle 1 composes an assumption that declares
//! `Sigma_A` only. Both premises therefore stay sound for any `Sigma_A`: an assumption over fewer
//! actions simply constrains fewer. What changes is Oracle 2's analysis: `M1` failing on the
//! `Sigma_A` projection of the environment's trace `t` may be an artefact of the small alphabet,
//! so the trace is checked again over `Sigma_I` (the classic analysis). A failure there is a real
//! counterexample; otherwise it is spurious. The `M1 || P_err` run `w` found over `Sigma_A`
//! follows `t` on `Sigma_A` up to its violation; if neither took an action of
//! `Sigma_I \ Sigma_A`, `w` would follow `t` on `Sigma_I` too and the second check would have
//! found it. So one of them does, and every such action either trace takes joins `Sigma_A` (the
//! simplest sound choice; the paper's "forward" choice, only the actions at the first position
//! where the two differ on `Sigma_I`, took more refinements on the benchmark families and ended
//! with the same or larger alphabets: docs/benchmarks/notebook/alphabet.md). Learning then
//! restarts from scratch over the larger alphabet: the learner's table is keyed by the old
//! symbols, and answers over the old alphabet are not answers over the new one (a word that
//! omits an action now forbids it). `Sigma_A` only grows, so after at most `|Sigma_I|`
//! refinements it is `Sigma_I` and the rule is the classic one; "holds" always comes with both
//! premises proved for the final assumption, "violated" with a trace of the real components. In
//! the n-way rule each premise-2 check of a level starts from the alphabet the previous check of
//! that level ended with ([`check_asym_n`]).

use guarantor_compose::threads::Threads;
use guarantor_compose::{
    Assumption, Certificate, Counterexample, Verdict, check_safety, check_triple,
};
use guarantor_lts::{ComponentId, Lts};

use super::{AgConfig, AgReport, AlphabetStats, add_stats, chain, merge, names, project};
use crate::config::Stats;
use crate::dfa::{Dfa, Symbol};
use crate::error::{LearnError, LstarError};
use crate::learner::Learner;
use crate::queries::Queries;
use crate::teacher::{EqAnswer, Outcome, Teacher, learn};

/// The teacher of rule ASYM for `M1 || E |= P`, where the environment `E` is one component
/// (`M2`) or, for n-way checks, the composition of several, which is never built: premise 2 on
/// several components is checked by recursion ([`check_asym_n`]).
#[derive(Debug)]
pub struct AsymTeacher<'a> {
    m1: &'a Lts,
    env: Vec<&'a Lts>,
    property: &'a Lts,
    /// The alphabet the assumption ranges over now (`Sigma_A`): the interface, or with alphabet
    /// refinement the part of it learned so far; always in the interface's order.
    interface: Vec<String>,
    /// The whole interface alphabet `Sigma_I`, against which counterexamples are confirmed.
    full: Vec<String>,
    config: AgConfig,
    /// The size of each conjectured assumption (as a safety LTS).
    sizes: Vec<usize>,
    /// Queries of the learners of recursive premise-2 checks.
    nested: Stats,
    /// Alphabet refinements of recursive premise-2 checks.
    nested_refinements: usize,
    /// The alphabets the levels of the last premise-2 check ended with, outermost first: the next
    /// check starts from them (see [`check_asym_n`]).
    deeper: Vec<Vec<String>>,
    /// Where a batch of membership queries is answered (the config's threads, shared by every
    /// teacher of the check, the recursive ones of n-way checks too).
    threads: Threads,
}

impl<'a> AsymTeacher<'a> {
    /// A teacher for `m1 || env[0] || env[1] || ... |= property`; model checks run within
    /// `config.compose`'s budgets, recursive premise-2 learners with `config.learner`.
    ///
    /// # Errors
    /// [`LstarError::Unsupported`] if `env` is empty or an environment component has an error
    /// state (its violations are not violations of the property, which is all the teacher sees;
    /// [`check_asym_n`] checks such systems monolithically).
    pub fn new(
        m1: &'a Lts,
        env: &[&'a Lts],
        property: &'a Lts,
        config: &AgConfig,
    ) -> Result<Self, LstarError> {
        if env.is_empty() {
            return Err(LstarError::Unsupported("rule ASYM without an environment"));
        }
        if env.iter().any(|m| m.error_state().is_some()) {
            return Err(LstarError::Unsupported(
                "an ERROR state in an environment component under rule ASYM",
            ));
        }
        let mut interface: Vec<String> = Vec::new();
        for name in env.iter().flat_map(|m| names(m)) {
            let relevant = m1.alphabet().contains(name) || property.alphabet().contains(name);
            if relevant && !interface.iter().any(|n| n == name) {
                interface.push(name.to_owned());
            }
        }
        // Alphabet refinement starts from what the property can see: the actions that decide
        // whether it fails. The rest of the interface only matters through M1's behaviour, which
        // spurious counterexamples reveal.
        let initial = if config.alphabet_refinement {
            interface
                .iter()
                .filter(|n| property.alphabet().contains(n))
                .cloned()
                .collect()
        } else {
            interface.clone()
        };
        Ok(Self {
            m1,
            env: env.to_vec(),
            property,
            interface: initial,
            full: interface,
            config: config.clone(),
            sizes: Vec::new(),
            nested: Stats::default(),
            nested_refinements: 0,
            deeper: Vec::new(),
            threads: Threads::for_config(&config.compose),
        })
    }

    /// Replaces the interface alphabet (for the weakest-assumption learner, whose interface is
    /// given rather than derived from an environment).
    /// No alphabet refinement then: the given interface is the assumption's alphabet.
    pub(crate) fn with_interface(mut self, interface: Vec<String>) -> Self {
        self.full.clone_from(&interface);
        self.interface = interface;
        self
    }

    /// The alphabet the assumption ranges over now; symbol `i` of the learner is
    /// `interface()[i]`. Without alphabet refinement this is the interface alphabet `Sigma`.
    pub fn interface(&self) -> &[String] {
        &self.interface
    }

    /// The whole interface alphabet `Sigma_I = (alpha M1 u alpha P) n alpha env`.
    pub fn full_interface(&self) -> &[String] {
        &self.full
    }

    /// Adds `actions` (of the interface) to the assumption's alphabet, keeping the interface's
    /// order. A learner over the old alphabet no longer fits: start a new one.
    pub fn extend_interface(&mut self, actions: &[String]) {
        self.interface = self
            .full
            .iter()
            .filter(|n| self.interface.contains(n) || actions.contains(n))
            .cloned()
            .collect();
    }

    /// A run of `M1 || P_err` that follows `word` on the interface and reaches a violation, if any.
    ///
    /// # Errors
    /// Budget errors of the model check.
    pub fn simulate(&self, word: &[Symbol]) -> Result<Option<Counterexample>, LstarError> {
        let spelled = chain(word, &self.interface)?;
        let report = check_safety(&[self.m1, &spelled], &[self.property], &self.config.compose)?;
        Ok(report.verdict.counterexample().cloned())
    }

    /// A run of `M1 || P_err` that follows `word` (over the whole interface) and reaches a
    /// violation, if any.
    fn simulate_full(&self, word: &[Symbol]) -> Result<Option<Counterexample>, LstarError> {
        let spelled = chain(word, &self.full)?;
        let report = check_safety(&[self.m1, &spelled], &[self.property], &self.config.compose)?;
        Ok(report.verdict.counterexample().cloned())
    }

    /// Oracle 2's counterexample analysis: weaken the assumption, report a real violation, or
    /// (alphabet refinement) ask for a larger alphabet.
    fn analyse(&self, env_trace: &[String]) -> Result<EqAnswer<AsymAnswer>, LstarError> {
        let word = project(env_trace, &self.interface);
        let Some(witness) = self.simulate(&word)? else {
            return Ok(EqAnswer::Counterexample(word));
        };
        let real = |run: Counterexample| {
            let trace = merge(&run.trace, env_trace, &self.full);
            EqAnswer::Stop(AsymAnswer::Decided(Verdict::Violated(Counterexample::new(
                trace,
                run.violation,
            ))))
        };
        if self.interface.len() == self.full.len() {
            return Ok(real(witness));
        }
        // Over the whole interface M1's run must follow the environment's trace exactly; over a
        // smaller alphabet it may have taken other interface actions in between.
        Ok(match self.simulate_full(&project(env_trace, &self.full))? {
            Some(run) => real(run),
            None => EqAnswer::Stop(AsymAnswer::Refine(
                self.distinguishing(&witness.trace, env_trace),
            )),
        })
    }

    /// The actions outside the assumption's alphabet that tell a spurious counterexample apart
    /// (see the module docs): every interface action outside it that `witness` (a run of
    /// `M1 || P_err` over the current alphabet) or `env_trace` takes, in the interface's order.
    /// Never empty when the two agree on the current alphabet but not on the interface.
    fn distinguishing(&self, witness: &[String], env_trace: &[String]) -> Vec<String> {
        let taken = |a: &String| witness.contains(a) || env_trace.contains(a);
        self.full
            .iter()
            .filter(|a| !self.interface.contains(a) && taken(a))
            .cloned()
            .collect()
    }
}

/// How an [`AsymTeacher`] ends a learning run.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum AsymAnswer {
    /// The check is decided: holds with the learned assumption, or a real counterexample.
    Decided(Verdict),
    /// Alphabet refinement: a counterexample was spurious, and these interface actions (not yet
    /// in the assumption's alphabet) tell it apart. Add them
    /// ([`AsymTeacher::extend_interface`]) and learn again.
    Refine(Vec<String>),
}

impl Teacher for AsymTeacher<'_> {
    type Verdict = AsymAnswer;
    type Error = LstarError;

    fn membership(&mut self, word: &[Symbol]) -> Result<bool, LstarError> {
        Ok(self.simulate(word)?.is_none())
    }

    /// Each query is a model check of `M1 || word || P_err` of its own, so a batch is answered on
    /// up to [`Config::thread_count`](guarantor_compose::Config::thread_count) threads; the
    /// answers are collected in order and are those of [`Teacher::membership`].
    fn memberships(&mut self, words: &Queries, answers: &mut Vec<bool>) -> Result<(), LstarError> {
        answers.clear();
        if !self.threads.is_concurrent() {
            for word in words.iter() {
                answers.push(self.simulate(word)?.is_none());
            }
            return Ok(());
        }
        let words: Vec<&[Symbol]> = words.iter().collect();
        let this = &*self;
        let each: Vec<Result<bool, LstarError>> = this
            .threads
            .map_in_order(words.len(), |i| Ok(this.simulate(words[i])?.is_none()));
        for answer in each {
            answers.push(answer?);
        }
        Ok(())
    }

    fn equivalence(&mut self, hypothesis: &Dfa) -> Result<EqAnswer<AsymAnswer>, LstarError> {
        if !hypothesis.accepts(&[]) {
            // The learner rejects the empty word only if the teacher did: M1 reaches a violation
            // through its own actions, which no environment can block. That run is the verdict.
            return self.analyse(&[]);
        }
        let assumption = hypothesis.to_safety_lts(&self.interface)?;
        self.sizes.push(assumption.num_states());
        super::note_conjecture(
            &self.config.compose,
            "ASYM",
            self.sizes.len(),
            assumption.num_states(),
        );
        // Oracle 1: is the assumption strong enough to keep M1 safe?
        let premise1 = check_triple(&assumption, self.m1, self.property, &self.config.compose)?;
        if let Some(cex) = premise1.verdict.counterexample() {
            return Ok(EqAnswer::Counterexample(project(
                &cex.trace,
                &self.interface,
            )));
        }
        // Oracle 2: does the environment guarantee it? (Recursively for several components; the
        // environment has no ERROR states, so this is the rule again, not a monolithic check.)
        let premise2 = asym_levels(&self.env, &assumption, &self.config, &mut self.deeper)?;
        add_stats(&mut self.nested, &premise2.stats);
        self.nested_refinements += premise2.alphabet.refinements;
        match premise2.verdict {
            Verdict::Violated(cex) => self.analyse(&cex.trace),
            Verdict::Holds(nested) => {
                let environment = (1..=self.env.len()).map(ComponentId::must);
                let mut assumptions = vec![Assumption::new(environment, assumption)];
                // Assumptions of the nested proof count the environment's components from 0;
                // renumber them for the whole system.
                assumptions.extend(nested.assumptions.into_iter().map(|a| {
                    let shifted = a
                        .components
                        .iter()
                        .map(|c| ComponentId::must(c.index() + 1));
                    Assumption::new(shifted, a.lts)
                }));
                Ok(EqAnswer::Stop(AsymAnswer::Decided(Verdict::Holds(
                    Certificate::new(assumptions),
                ))))
            }
            _ => Err(LstarError::Unsupported(
                "an unknown verdict from a nested check",
            )),
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
/// a nondeterministic property.
///
/// `ERROR` states: one in `m1` is a violation that membership queries and premise 1 see, so the
/// certificate holds for the caller's components. One in `m2` is not a violation of the property
/// the assumption is learned for, so the rule cannot see it: then `m1 || m2` is checked
/// monolithically, and the certificate is empty ([`Certificate::monolithic`]), since no
/// assumption was used. (Rewriting the `ERROR` as an action the property forbids, as
/// [`check_sym`](super::check_sym) does, makes every learned assumption track where `m1` allows
/// it, which costs far more than the search.) A counterexample is a run of the caller's
/// `m1 || m2`, ending where the property fails or a component reaches its `ERROR`.
pub fn check_asym(
    m1: &Lts,
    m2: &Lts,
    property: &Lts,
    config: &AgConfig,
) -> Result<AgReport, LstarError> {
    check_asym_n(&[m1, m2], property, config)
}

/// Checks `components[0] || components[1] || ... |= property` with rule ASYM applied recursively
/// (Cobleigh et al. 2003, section 5): an assumption about `components[1..]` is learned for
/// `components[0]`, and the premise "the rest guarantees the assumption" is itself checked by
/// [`check_asym_n`] on `components[1..]` with the assumption as property. No two concrete
/// components are ever composed; a single component is checked directly.
///
/// The certificate lists the assumption of every level: the first is about components `"1,2,..."`,
/// the next about `"2,..."`, and so on. Query statistics are summed over all levels;
/// `assumption_sizes` are those of the outermost learner.
///
/// `ERROR` states are handled as by [`check_asym`]: one in the first component is seen by the
/// rule, one in any other makes the check monolithic.
///
/// # Errors
/// As [`check_asym`]; an empty `components` is [`LstarError::Unsupported`].
pub fn check_asym_n(
    components: &[&Lts],
    property: &Lts,
    config: &AgConfig,
) -> Result<AgReport, LstarError> {
    asym_levels(components, property, config, &mut Vec::new())
}

/// [`check_asym_n`], with the alphabets an earlier check of the same components ended with:
/// `alphabets[0]` for this level, `alphabets[1..]` for the deeper ones; on return they are this
/// check's. With alphabet refinement, each premise-2 check of a level (one per conjecture of the
/// level above) starts from what the previous one learned instead of from the property's actions
/// alone. Any start inside the interface is sound, and the premise-2 checks of one level differ
/// only in their property (the level above's conjecture), so the actions that separated spurious
/// counterexamples last time mostly do again. Re-learning them each time made most of the n-way
/// rule's refinements: Client-Server SYS N = 4 went from 24 refinements and 0.50 s to 8 and
/// 0.15 s, MER SYS N = 2 from 36 and 3.7 s to 12 and 1.7 s (docs/benchmarks/notebook/alphabet.md).
fn asym_levels(
    components: &[&Lts],
    property: &Lts,
    config: &AgConfig,
    alphabets: &mut Vec<Vec<String>>,
) -> Result<AgReport, LstarError> {
    recursive_rule(components, property, config, |m1, env| {
        let mut teacher = AsymTeacher::new(m1, env, property, config)?;
        let mut hints = std::mem::take(alphabets).into_iter();
        if let Some(start) = hints.next() {
            // Without refinement the alphabet is the whole interface already.
            teacher.extend_interface(&start);
        }
        teacher.deeper = hints.collect();
        let mut stats = Stats::default();
        let mut refinements = 0;
        // One learning run per alphabet; a refinement restarts learning over the larger one.
        let verdict = loop {
            let mut learner = Learner::new(teacher.interface.len(), config.learner.clone());
            let outcome = learn(&mut learner, &mut teacher).map_err(flatten)?;
            add_stats(&mut stats, learner.stats());
            let Outcome::Stopped { verdict, .. } = outcome else {
                // The ASYM teacher never answers "equivalent": it stops with a verdict instead.
                return Err(LstarError::Unsupported(
                    "a teacher that accepts a hypothesis under ASYM",
                ));
            };
            match verdict {
                AsymAnswer::Decided(verdict) => break verdict,
                AsymAnswer::Refine(actions) => {
                    let before = teacher.interface.len();
                    teacher.extend_interface(&actions);
                    if teacher.interface.len() == before {
                        // The module docs show a spurious counterexample always names a new
                        // action; without one the loop would not terminate.
                        return Err(LstarError::Unsupported(
                            "an alphabet refinement that adds no action",
                        ));
                    }
                    refinements += 1;
                }
            }
        };
        add_stats(&mut stats, &teacher.nested);
        alphabets.push(teacher.interface.clone());
        alphabets.append(&mut teacher.deeper);
        Ok(AgReport {
            verdict,
            stats,
            assumption_sizes: teacher.sizes,
            alphabet: AlphabetStats {
                refinements: refinements + teacher.nested_refinements,
                assumption_alphabet: teacher.interface.len(),
                interface_alphabet: teacher.full.len(),
            },
            fallback: None,
            interface: teacher.interface,
        })
    })
}

/// A rule for `n` components, as the recursive ASYM variants share it: no components is
/// unsupported, a single one is checked directly, and so is a system with an `ERROR` state after
/// the first component (see below); otherwise `general` gets the first component and the
/// environment.
///
/// An environment's `ERROR` is not a violation of the property an assumption is made for, so the
/// rules cannot see it. Rewriting it as an action the property forbids (`ErrorActions`, as rule
/// SYM does) puts that action in every level's interface, and each assumption must then track
/// where the first component allows it: measured in a debug build, learned ASYM on
/// mk-ornamental-garden (`ERROR` in the last of five components) ran over 120 s and the computed
/// form on gas BUGGY N = 4 took 26.6 s, where this search takes 0.001 s and 0.02 s (moving the
/// failing component first: still over 30 s on the garden). Searching the composition for the
/// `ERROR` alone and then making assumptions about an environment without its `ERROR`
/// transitions, the other way out, gives certificates about components the caller did not
/// write. So the composition is checked with the property, and the empty certificate
/// ([`Certificate::monolithic`]) says that no assumption was used.
pub(crate) fn recursive_rule(
    components: &[&Lts],
    property: &Lts,
    config: &AgConfig,
    general: impl FnOnce(&Lts, &[&Lts]) -> Result<AgReport, LstarError>,
) -> Result<AgReport, LstarError> {
    match components {
        [] => Err(LstarError::Unsupported("an empty system")),
        [m1, env @ ..] if !env.is_empty() && env.iter().all(|m| m.error_state().is_none()) => {
            general(m1, env)
        }
        // One component, or an environment with an ERROR state (see above).
        _ => {
            let report = check_safety(components, &[property], &config.compose)?;
            let mut report = AgReport::without_assumptions(report.verdict);
            report.fallback = Some(if components.len() == 1 {
                "a single component"
            } else {
                "an ERROR state in an environment component, which rule ASYM cannot see"
            });
            Ok(report)
        }
    }
}

/// Adds `by` to every index in a comma-separated component list.
/// Merges the driver's two error layers (the teacher's error is already an [`LstarError`]).
pub(crate) fn flatten(e: LearnError<LstarError>) -> LstarError {
    match e {
        LearnError::Learner(e) | LearnError::Teacher(e) => e,
    }
}

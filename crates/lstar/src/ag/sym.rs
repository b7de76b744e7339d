//! Rule SYM (Chaki, Clarke, Giannakopoulou, Pasareanu 2004, Rule 2): `<A1> M1 <P>`, `<A2> M2 <P>`
//! and `L(coA1 || coA2) ⊆ L(P)` give `<true> M1 || M2 <P>`, both assumptions over
//! `alpha A = (alpha M1 n alpha M2) u alpha P`.
//!
//! Two L* learners run side by side, which is where the sans-IO [`Learner`] pays off: each learns
//! the weakest assumption of its own component (membership: simulate the word on `Mi || P_err`),
//! premises 1 and 2 reject assumptions that let their component fail, and premise 3 — a search of
//! the product of both complements and `P` for a word outside `L(P)` — either proves the property or
//! yields a word `t` that is analysed as the paper says: if `M1 || [t] |= P` it refines `A1`, else
//! if `M2 || [t] |= P` it refines `A2`, else both components fail on `t` and their two runs merge
//! into a real counterexample (the shorter run's interface prefix is followed by both).

use std::collections::VecDeque;

use rustc_hash::FxHashMap;

use guarantor_compose::{
    Assumption, Certificate, ComposeError, Config, Counterexample, Verdict, Violation,
    check_safety, check_triple,
};
use guarantor_lts::{ComponentId, Lts};

use super::{AgConfig, AgReport, AlphabetStats, add_stats, chain, merge, names, project};
use crate::config::Stats;
use crate::dfa::{Dfa, Symbol, Word};
use crate::error::LstarError;
use crate::learner::{Learner, Step};

/// One side of rule SYM: a component, its learner and its premise.
#[derive(Debug)]
struct Side<'a> {
    component: &'a Lts,
    /// 0 for `M1`, 1 for `M2`: how violations of this component are named in `M1 || M2`.
    index: usize,
    learner: Learner,
}

/// What driving one side produced.
enum Driven {
    /// A hypothesis that satisfies this side's premise, with its safety LTS.
    Ready(Dfa, Lts),
    /// The component violates the property whatever its partner does.
    Violated(Counterexample),
}

/// The outcome of analysing a word that premise 3 rejects.
enum Analysis {
    /// Side `i`'s assumption was too strong; its learner got the word.
    Refine(usize),
    /// Both components fail on the word: a real counterexample.
    Violated(Counterexample),
}

/// The shared part of a SYM run.
struct Sym<'a> {
    property: &'a Lts,
    interface: Vec<String>,
    config: &'a Config,
    sizes: Vec<usize>,
}

impl Sym<'_> {
    /// A run of `Mi || P_err` following `word` on the interface into a violation, if any, with the
    /// violation renamed for `M1 || M2`.
    fn simulate(
        &self,
        component: &Lts,
        index: usize,
        word: &[Symbol],
    ) -> Result<Option<Counterexample>, LstarError> {
        let spelled = chain(word, &self.interface)?;
        let report = check_safety(&[component, &spelled], &[self.property], self.config)?;
        Ok(report.verdict.counterexample().map(|c| {
            let violation = match c.violation {
                Violation::ErrorState { .. } => Violation::ErrorState {
                    component: ComponentId::must(index),
                },
                v => v,
            };
            Counterexample::new(c.trace.clone(), violation)
        }))
    }

    /// The paper's premise-3 analysis of `t`: refine `A1` if `M1` is safe on it, else `A2` if `M2`
    /// is, else merge the two failing runs (the one that fails earlier on the interface leads).
    fn analyse(&self, sides: &mut [Side<'_>], t: &[Symbol]) -> Result<Analysis, LstarError> {
        let mut witnesses = Vec::with_capacity(sides.len());
        for (i, side) in sides.iter_mut().enumerate() {
            match self.simulate(side.component, side.index, t)? {
                None => {
                    side.learner.counterexample(t.to_vec())?;
                    return Ok(Analysis::Refine(i));
                }
                Some(w) => witnesses.push(w),
            }
        }
        let shared = |c: &Counterexample| {
            c.trace
                .iter()
                .filter(|a| self.interface.contains(a))
                .count()
        };
        // The run that fails first on the interface leads; the others' own actions are inserted
        // before each interface action it takes (each of them follows at least that far).
        witnesses.sort_by_key(shared);
        let first = &witnesses[0];
        let trace = witnesses[1..].iter().fold(first.trace.clone(), |acc, w| {
            merge(&acc, &w.trace, &self.interface)
        });
        Ok(Analysis::Violated(Counterexample::new(
            trace,
            first.violation,
        )))
    }

    /// Runs one learner until its hypothesis satisfies `<Ai> Mi <P>`.
    fn drive(&mut self, side: &mut Side<'_>) -> Result<Driven, LstarError> {
        let (component, index) = (side.component, side.index);
        loop {
            // Learning may take many rounds between model checks: honour the deadline and the
            // cancel flag here too, not only inside compose.
            self.config.budget()?;
            let h = match side.learner.step()? {
                Step::Queries(words) => {
                    let mut answers = Vec::with_capacity(words.len());
                    for w in words.iter() {
                        answers.push(self.simulate(component, index, w)?.is_none());
                    }
                    side.learner.answer(&answers)?;
                    continue;
                }
                Step::Hypothesis(h) => h.clone(),
            };
            if !h.accepts(&[]) {
                // The component fails through its own actions alone; no partner can prevent it.
                let witness =
                    self.simulate(component, index, &[])?
                        .ok_or(LstarError::Unsupported(
                            "a learner rejected the empty word the teacher accepted",
                        ))?;
                return Ok(Driven::Violated(witness));
            }
            let assumption = h.to_safety_lts(&self.interface)?;
            self.sizes.push(assumption.num_states());
            super::note_conjecture(
                self.config,
                "SYM",
                self.sizes.len(),
                assumption.num_states(),
            );
            let premise = check_triple(&assumption, side.component, self.property, self.config)?;
            match premise.verdict.counterexample() {
                Some(cex) => side
                    .learner
                    .counterexample(project(&cex.trace, &self.interface))?,
                None => return Ok(Driven::Ready(h, assumption)),
            }
        }
    }
}

/// The property as a complete DFA over `interface`: actions outside its alphabet leave it where it
/// is, a refused action leads to a rejecting sink.
fn property_dfa(p: &Lts, interface: &[String]) -> Result<Dfa, LstarError> {
    if let Some((s, a)) = p.first_nondeterminism() {
        return Err(LstarError::Compose(
            ComposeError::PropertyNotDeterministic {
                state: s.index(),
                action: p.action_name(a).to_owned(),
            },
        ));
    }
    let n = p.num_states();
    let renumber = |s: usize| match s {
        s if s == p.initial().index() => 0,
        0 => p.initial().index(),
        s => s,
    };
    let mut delta = vec![vec![n; interface.len()]; n + 1];
    for s in p.states() {
        let q = renumber(s.index());
        for (i, name) in interface.iter().enumerate() {
            delta[q][i] = match p.alphabet().get(name).filter(|a| !a.is_tau()) {
                None => q,
                Some(a) => p.successors(s, a).next().map_or(n, |t| renumber(t.index())),
            };
        }
    }
    let mut accepting = vec![true; n + 1];
    accepting[n] = false;
    Dfa::new(interface.len(), delta, accepting)
}

/// A search node of [`last_premise`]: a tuple of states and the edge that reached it.
type SearchNode = (Vec<usize>, Option<(usize, Symbol)>);

/// A shortest word rejected by every assumption and by `p` (the last premise fails on it), if
/// any: breadth-first search over tuples of their states, symbols in order. The tuples can be
/// exponentially many in the number of components, so the search runs under `config`'s budgets
/// like any other product.
fn last_premise(
    assumptions: &[&Dfa],
    p: &Dfa,
    config: &Config,
) -> Result<Option<Word>, LstarError> {
    let mut budget = config.budget()?;
    let machines: Vec<&Dfa> = assumptions.iter().copied().chain([p]).collect();
    let mut index: FxHashMap<Vec<usize>, usize> = FxHashMap::default();
    let mut nodes: Vec<SearchNode> = vec![(vec![0; machines.len()], None)];
    index.insert(nodes[0].0.clone(), 0);
    let mut queue = VecDeque::from([0]);
    while let Some(i) = queue.pop_front() {
        budget.tick()?;
        let tuple = nodes[i].0.clone();
        if machines
            .iter()
            .zip(&tuple)
            .all(|(m, &q)| !m.is_accepting(q))
        {
            let mut w = Vec::new();
            let mut node = i;
            while let Some((prev, a)) = nodes[node].1 {
                w.push(a);
                node = prev;
            }
            w.reverse();
            return Ok(Some(w));
        }
        for a in Symbol::all(p.num_symbols()) {
            let next: Vec<usize> = machines
                .iter()
                .zip(&tuple)
                .map(|(m, &q)| m.successor(q, a))
                .collect();
            if !index.contains_key(&next) {
                index.insert(next.clone(), nodes.len());
                queue.push_back(nodes.len());
                nodes.push((next, Some((i, a))));
                budget.check_states(nodes.len())?;
            }
        }
    }
    Ok(None)
}

/// Checks `m1 || m2 |= property` with rule SYM, learning one assumption per component.
///
/// On [`Verdict::Holds`] the certificate holds `A1` (component `"0"`) and `A2` (component `"1"`)
/// over the interface `(alpha m1 n alpha m2) u alpha property`, with `<A1> m1 <P>`, `<A2> m2 <P>`
/// and every word outside both in `L(P)`. On [`Verdict::Violated`] the counterexample is a run of
/// `m1 || m2` that violates the property.
///
/// ```
/// use guarantor_lstar::ag::{check_sym, AgConfig};
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
/// let report = check_sym(&input, &output, &order, &AgConfig::default())?;
/// assert!(report.verdict.is_holds());
/// # Ok::<(), guarantor_lstar::LstarError>(())
/// ```
///
/// # Errors
/// As [`check_asym`](super::check_asym).
pub fn check_sym(
    m1: &Lts,
    m2: &Lts,
    property: &Lts,
    config: &AgConfig,
) -> Result<AgReport, LstarError> {
    check_sym_n(&[m1, m2], property, config)
}

/// Checks `components[0] || ... || components[n-1] |= property` with the n-way form of rule SYM:
/// premises `<Ai> Mi <P>` for every component and `L(coA1 || ... || coAn) ⊆ L(P)`, all
/// assumptions over the shared actions (those of at least two components) and `alpha P`. A word
/// breaking the last premise refines the first assumption whose component is safe on it; if no
/// component is, the components' failing runs merge into a real counterexample. Certificates name
/// assumption `i` by component index `"i"`.
///
/// Components with `ERROR` states are checked as the [module docs of `ag`](super) say: the rule
/// reasons about the property's language only, so each `ERROR` becomes a private action the
/// property forbids, and the counterexample is a run of `components` that ends in the `ERROR`.
///
/// # Errors
/// As [`check_sym`]; an empty `components` is [`LstarError::Unsupported`].
pub fn check_sym_n(
    components: &[&Lts],
    property: &Lts,
    config: &AgConfig,
) -> Result<AgReport, LstarError> {
    super::with_error_actions(components, property, |components, property| {
        sym_n(components, property, config)
    })
}

/// [`check_sym_n`] on a system without `ERROR` states.
fn sym_n(components: &[&Lts], property: &Lts, config: &AgConfig) -> Result<AgReport, LstarError> {
    if components.is_empty() {
        return Err(LstarError::Unsupported("an empty system"));
    }
    let interface = sym_interface(components, property);
    let mut sym = Sym {
        property,
        interface,
        config: &config.compose,
        sizes: Vec::new(),
    };
    let p_dfa = property_dfa(property, &sym.interface)?;
    let k = sym.interface.len();
    let mut sides: Vec<Side<'_>> = components
        .iter()
        .enumerate()
        .map(|(index, &component)| Side {
            component,
            index,
            learner: Learner::new(k, config.learner.clone()),
        })
        .collect();
    // The hypotheses that satisfy their premise; a side is driven again only once refined.
    let mut ready: Vec<Option<(Dfa, Lts)>> = vec![None; sides.len()];
    let verdict = 'run: loop {
        for (side, slot) in sides.iter_mut().zip(&mut ready) {
            if slot.is_none() {
                match sym.drive(side)? {
                    Driven::Ready(h, lts) => *slot = Some((h, lts)),
                    Driven::Violated(cex) => break 'run Verdict::Violated(cex),
                }
            }
        }
        let hypotheses: Vec<&Dfa> = ready.iter().flatten().map(|(h, _)| h).collect();
        let Some(t) = last_premise(&hypotheses, &p_dfa, &config.compose)? else {
            let assumptions = ready
                .into_iter()
                .flatten()
                .enumerate()
                .map(|(i, (_, lts))| Assumption::new([ComponentId::must(i)], lts));
            break Verdict::Holds(Certificate::new(assumptions));
        };
        match sym.analyse(&mut sides, &t)? {
            Analysis::Refine(i) => ready[i] = None,
            Analysis::Violated(cex) => break Verdict::Violated(cex),
        }
    };
    let mut stats = Stats::default();
    for side in &sides {
        add_stats(&mut stats, side.learner.stats());
    }
    Ok(AgReport {
        verdict,
        stats,
        assumption_sizes: sym.sizes,
        alphabet: AlphabetStats {
            refinements: 0,
            assumption_alphabet: sym.interface.len(),
            interface_alphabet: sym.interface.len(),
        },
        fallback: None,
        interface: sym.interface,
    })
}

/// The assumption alphabet of rule SYM: the actions of at least two components, and those of
/// `p`, in the order they first appear in the components and then `p`.
fn sym_interface(components: &[&Lts], p: &Lts) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for name in components.iter().flat_map(|m| names(m)).chain(names(p)) {
        let owners = components
            .iter()
            .filter(|m| m.alphabet().contains(name))
            .count();
        if (owners >= 2 || p.alphabet().contains(name)) && !out.iter().any(|n| n == name) {
            out.push(name.to_owned());
        }
    }
    out
}

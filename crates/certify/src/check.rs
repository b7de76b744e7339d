//! The checker: [`check`] re-checks a [`Certificate`] against the user's [`Model`].
//!
//! The checks run in this order and stop at the first that fails:
//! 1. format and version ([`CertifyError`]), names and determinism of the model's properties;
//! 2. the model: the same component and property names, the same fingerprints, the same top-level
//!    fingerprint ([`Rejection::Model`], [`Rejection::Fingerprint`]);
//! 3. the transformations, replayed on the model ([`Rejection::Transformation`]);
//! 4. the assumptions: well-formed LTSs over their declared alphabets ([`Rejection::Assumption`],
//!    [`Rejection::Alphabet`]);
//! 5. for `holds`: every premise in order ([`Rejection::Premise`], with the premise's own
//!    counterexample), then whether the premises form an instance of the rule
//!    ([`Rejection::Rule`], [`Rejection::Alphabet`] for a rule's alphabet condition);
//! 6. for `violated`: the counterexample, replayed step by step ([`Rejection::Replay`]).

use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap};

use crate::failures::{deadlock, refinement, with_end};
use crate::fingerprint::model_print;
use crate::format::{
    Certificate, Counterexample, FORMAT, Guarantee, LtsData, ModelPrint, Premise, Rule,
    Transformation, VERSION, VerdictKind, ViolationClaim,
};
use crate::inclusion::inclusion;
use crate::machine::{Act, Actions, Kind, Machine, Member, TAU};
use crate::model::Model;
use crate::reduction::{self, Context, Reductions};
use crate::report::{CertifyError, Outcome, Rejection, Report};
use crate::search::{Circular, search};

/// The largest number of states an assumption may declare (as for JSON LTSs: 2^26).
const MAX_STATES: u64 = 1 << 26;

/// Checks `certificate` against `model`.
///
/// Returns a [`Report`] whose outcome is [`Outcome::Accepted`] when the verdict follows from the
/// certificate, or names the first failing check ([`Rejection`]). Never panics, whatever the input.
///
/// # Errors
/// [`CertifyError`] when the certificate or the model cannot be interpreted: another format or
/// version, a model with two parts of one name or a nondeterministic property, or a `holds` of
/// rule `program` (checked against its program by [`crate::program::check_program`]).
pub fn check(certificate: &Certificate, model: &Model) -> Result<Report, CertifyError> {
    if certificate.format != FORMAT {
        return Err(CertifyError::Format {
            found: certificate.format.clone(),
        });
    }
    if certificate.version != VERSION {
        return Err(CertifyError::Version {
            found: certificate.version,
        });
    }
    if certificate.rule == Rule::Program && certificate.verdict == VerdictKind::Holds {
        return Err(CertifyError::Unsupported {
            rule: Rule::Program.name().to_owned(),
            against: "an LTS model".to_owned(),
        });
    }
    validate_model(model)?;
    let mut checker = Checker::new(certificate, model);
    let outcome = match checker.run() {
        Ok(()) => Outcome::Accepted,
        Err(r) => Outcome::Rejected(r),
    };
    Ok(Report {
        verdict: certificate.verdict,
        rule: certificate.rule,
        outcome,
        premises_checked: checker.premises_checked,
        states: checker.states,
        obligations: 0,
        backend: None,
        deadlock_free: checker.deadlock_free,
    })
}

/// Reads a certificate from JSON and [`check`]s it.
///
/// # Errors
/// [`CertifyError::Json`] for text that is not a certificate, then as [`check`].
pub fn check_json(text: &str, model: &Model) -> Result<Report, CertifyError> {
    let certificate = Certificate::from_json(text)?;
    check(&certificate, model)
}

/// Unique names, deterministic properties.
fn validate_model(model: &Model) -> Result<(), CertifyError> {
    let mut names = BTreeSet::new();
    let all = model
        .components()
        .iter()
        .map(|c| &c.name)
        .chain(model.properties().iter().map(|p| &p.name));
    for name in all {
        if !names.insert(name.as_str()) {
            return Err(CertifyError::DuplicateName { name: name.clone() });
        }
    }
    crate::model::deterministic(model.properties())
}

/// Whether `p` belongs to the deadlock rule (checked beside the safety rule).
fn is_deadlock_premise(p: &Premise) -> bool {
    matches!(
        p,
        Premise::DeadlockFree { .. } | Premise::FailureRefinement { .. }
    )
}

/// Why a premise fails: the reason and, when the failure is a run, its visible actions.
type Fail = (String, Option<Vec<String>>);

/// What the checker needs to reach the top-level goal of a derivation.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Goal {
    /// These (leaf) properties hold.
    Props(BTreeSet<String>),
    /// The components satisfy this assumption.
    Assumption(usize),
}

/// The state of one check.
struct Checker<'a> {
    cert: &'a Certificate,
    model: &'a Model,
    actions: Actions,
    /// Every component, of the model or derived, by name.
    components: HashMap<String, Machine>,
    /// Every property, of the model or derived, by name: its leaf properties.
    properties: HashMap<String, Vec<String>>,
    /// The leaf properties (as given: deterministic, without pi).
    leaves: HashMap<String, Machine>,
    /// The system after the transformations.
    final_components: Vec<String>,
    final_properties: Vec<String>,
    assumptions: Vec<Machine>,
    premises_checked: usize,
    states: usize,
    /// Whether the deadlock premises formed the deadlock rule ([`Report::deadlock_free`]).
    deadlock_free: bool,
    /// Which assumptions [`Self::derive`] has derived (or failed to).
    derived: RefCell<HashMap<usize, bool>>,
    /// The `reduction` premises checked so far (rule `reduce`).
    reductions: Reductions,
}

impl<'a> Checker<'a> {
    fn new(cert: &'a Certificate, model: &'a Model) -> Self {
        Self {
            cert,
            model,
            actions: Actions::new(),
            components: HashMap::new(),
            properties: HashMap::new(),
            leaves: HashMap::new(),
            final_components: Vec::new(),
            final_properties: Vec::new(),
            assumptions: Vec::new(),
            premises_checked: 0,
            states: 0,
            deadlock_free: false,
            derived: RefCell::new(HashMap::new()),
            reductions: Reductions::new(
                cert.premises
                    .iter()
                    .any(|p| matches!(p, Premise::NoDeadlock)),
            ),
        }
    }

    /// What the `reduce` rule's checks need of this checker.
    fn reduction_context(&mut self) -> Context<'_> {
        Context {
            model: self.model,
            components: &self.components,
            properties: &self.leaves,
            actions: &mut self.actions,
        }
    }

    fn run(&mut self) -> Result<(), Rejection> {
        self.check_model()?;
        self.load_model();
        for (i, t) in self.cert.transformations.iter().enumerate() {
            self.transform(t)
                .map_err(|reason| Rejection::Transformation { index: i, reason })?;
        }
        for (i, a) in self.cert.assumptions.iter().enumerate() {
            let m = self.load_assumption(i, &a.alphabet, &a.lts)?;
            for c in &a.components {
                if !self.components.contains_key(c) {
                    return Err(Rejection::Assumption {
                        index: i,
                        reason: format!("it stands for {c:?}, which is not a component"),
                    });
                }
            }
            self.assumptions.push(m);
        }
        match self.cert.verdict {
            VerdictKind::Holds => {
                if self.cert.counterexample.is_some() {
                    return Err(self.rule_error("a `holds` certificate has no counterexample"));
                }
                for (i, p) in self.cert.premises.iter().enumerate() {
                    self.premise(p)
                        .map_err(|(reason, trace)| Rejection::Premise {
                            index: i,
                            kind: p.kind().to_owned(),
                            reason,
                            trace,
                        })?;
                    self.premises_checked += 1;
                }
                self.rule()
            }
            VerdictKind::Violated => {
                if !self.cert.premises.is_empty() {
                    return Err(self.rule_error("a `violated` certificate has no premises"));
                }
                match &self.cert.counterexample {
                    Some(c) => self.replay(c),
                    None => Err(Rejection::Replay {
                        step: 0,
                        reason: "a `violated` certificate needs a counterexample".to_owned(),
                    }),
                }
            }
        }
    }

    // ---- 2. the model ----

    fn check_model(&self) -> Result<(), Rejection> {
        let (top, print) = model_print(self.model);
        compare_print(self.cert, &top, &print, "model")
    }

    /// The model's machines; the system in the certificate's order.
    fn load_model(&mut self) {
        for c in self.model.components() {
            let m = Machine::from_lts(&c.lts, &mut self.actions);
            self.components.insert(c.name.clone(), m);
        }
        for p in self.model.properties() {
            let m = Machine::from_lts(&p.lts, &mut self.actions);
            self.leaves.insert(p.name.clone(), m);
            self.properties.insert(p.name.clone(), vec![p.name.clone()]);
        }
        self.final_components = self
            .cert
            .model
            .components
            .iter()
            .map(|n| n.name.clone())
            .collect();
        self.final_properties = self
            .cert
            .model
            .properties
            .iter()
            .map(|n| n.name.clone())
            .collect();
    }

    // ---- 3. transformations ----

    fn fresh(&self, name: &str) -> Result<(), String> {
        if self.components.contains_key(name) || self.properties.contains_key(name) {
            Err(format!("the name {name:?} is already taken"))
        } else {
            Ok(())
        }
    }

    fn transform(&mut self, t: &Transformation) -> Result<(), String> {
        match t {
            Transformation::ErrorAsAction {
                component,
                action,
                result,
                property,
            } => {
                let pos = self
                    .final_components
                    .iter()
                    .position(|c| c == component)
                    .ok_or_else(|| format!("{component:?} is not a component of the system"))?;
                let m = &self.components[component];
                let e = m
                    .error
                    .ok_or_else(|| format!("{component:?} has no ERROR state"))?;
                if self.actions.get(action).is_some() {
                    return Err(format!("the action {action:?} is not fresh"));
                }
                self.fresh(result)?;
                self.fresh(property)?;
                if result == property {
                    return Err("the component and the property need two names".to_owned());
                }
                let mut rewritten = m.clone();
                let a = self.actions.id(action);
                rewritten.error = None;
                rewritten.alphabet.insert(a);
                rewritten.edges[e] = vec![(a, e)];
                let forbid = Machine {
                    alphabet: BTreeSet::from([a]),
                    initial: 0,
                    edges: vec![Vec::new()],
                    error: None,
                };
                self.components.insert(result.clone(), rewritten);
                self.final_components[pos].clone_from(result);
                self.leaves.insert(property.clone(), forbid);
                self.properties
                    .insert(property.clone(), vec![property.clone()]);
                self.final_properties.push(property.clone());
            }
            Transformation::MergeProperties { properties, result } => {
                if properties.is_empty() {
                    return Err("nothing to merge".to_owned());
                }
                self.fresh(result)?;
                let mut leaves = Vec::new();
                for p in properties {
                    let pos = self
                        .final_properties
                        .iter()
                        .position(|q| q == p)
                        .ok_or_else(|| format!("{p:?} is not a property of the system"))?;
                    self.final_properties.remove(pos);
                    leaves.extend(self.properties[p].iter().cloned());
                }
                self.properties.insert(result.clone(), leaves);
                self.final_properties.push(result.clone());
            }
            Transformation::Environment { actions, result } => {
                self.fresh(result)?;
                let alphabet: BTreeSet<Act> = actions
                    .iter()
                    .map(|a| {
                        if a == "tau" {
                            Err("tau cannot be an action of the environment".to_owned())
                        } else {
                            Ok(self.actions.id(a))
                        }
                    })
                    .collect::<Result<_, _>>()?;
                let edges = vec![alphabet.iter().map(|&a| (a, 0)).collect()];
                let env = Machine {
                    alphabet,
                    initial: 0,
                    edges,
                    error: None,
                };
                self.components.insert(result.clone(), env);
                self.final_components.push(result.clone());
            }
        }
        Ok(())
    }

    // ---- 4. assumptions ----

    fn load_assumption(
        &mut self,
        index: usize,
        alphabet: &[String],
        lts: &LtsData,
    ) -> Result<Machine, Rejection> {
        let alpha_err = |reason: String| Rejection::Alphabet {
            assumption: index,
            reason,
        };
        let lts_err = |reason: String| Rejection::Assumption { index, reason };
        let mut declared = BTreeSet::new();
        for name in alphabet {
            if name == "tau" {
                return Err(alpha_err("declares tau".to_owned()));
            }
            if !declared.insert(self.actions.id(name)) {
                return Err(alpha_err(format!("declares {name:?} twice")));
            }
        }
        if lts.states == 0 || lts.states > MAX_STATES {
            return Err(lts_err(format!(
                "{} states (must be 1 ..= {MAX_STATES})",
                lts.states
            )));
        }
        let n = usize::try_from(lts.states).unwrap_or(usize::MAX);
        let index_of = |s: u64, what: &str| {
            usize::try_from(s)
                .ok()
                .filter(|&s| s < n)
                .ok_or_else(|| lts_err(format!("{what} {s} is not a state (it has {n})")))
        };
        let initial = index_of(lts.initial, "initial state")?;
        // Only states that are initial or on a transition get a slot: the others are isolated and
        // unreachable, and a small certificate must not make the checker allocate gigabytes.
        let mut used = initial;
        for (s, _, t) in &lts.transitions {
            used = used
                .max(index_of(*s, "source")?)
                .max(index_of(*t, "target")?);
        }
        let mut edges = vec![Vec::new(); used + 1];
        for (s, a, t) in &lts.transitions {
            let (s, t) = (index_of(*s, "source")?, index_of(*t, "target")?);
            let act = match self.actions.get(a) {
                Some(TAU) => TAU,
                Some(x) if declared.contains(&x) => x,
                _ => {
                    return Err(alpha_err(format!(
                        "a transition uses {a:?}, which the alphabet does not declare"
                    )));
                }
            };
            edges[s].push((act, t));
        }
        for e in &mut edges {
            e.sort_unstable();
            e.dedup();
        }
        Ok(Machine {
            alphabet: declared,
            initial,
            edges,
            error: None,
        })
    }

    // ---- 5. premises ----

    fn component(&self, name: &str) -> Result<&Machine, Fail> {
        self.components
            .get(name)
            .ok_or_else(|| (format!("{name:?} is not a component"), None))
    }

    fn assumption(&self, i: usize) -> Result<&Machine, Fail> {
        self.assumptions
            .get(i)
            .ok_or_else(|| (format!("there is no assumption {i}"), None))
    }

    /// The error machines of a guarantee, with a label for each.
    fn guarantee(&self, g: &Guarantee) -> Result<Vec<(String, Machine)>, Fail> {
        match g {
            Guarantee::Properties(names) => {
                let mut out = Vec::new();
                for name in names {
                    let leaves = self
                        .properties
                        .get(name)
                        .ok_or_else(|| (format!("{name:?} is not a property"), None))?;
                    for leaf in leaves {
                        let m = self.leaves.get(leaf).and_then(|m| m.error_machine().ok());
                        let m =
                            m.ok_or_else(|| (format!("property {leaf:?} is not usable"), None))?;
                        out.push((format!("property {leaf:?}"), m));
                    }
                }
                Ok(out)
            }
            Guarantee::Assumption(i) => {
                Ok(vec![(format!("assumption {i}"), self.assumption_err(*i)?)])
            }
        }
    }

    /// The error machine of assumption `i` used as a guarantee.
    fn assumption_err(&self, i: usize) -> Result<Machine, Fail> {
        self.assumption(i)?.error_machine().map_err(|(s, a)| {
            (
                format!(
                    "assumption {i} is a guarantee but not deterministic (state {s}, action {:?})",
                    self.actions.name(a)
                ),
                None,
            )
        })
    }

    /// Searches `comps || asms || guarantees` and turns a violation into a premise failure.
    fn safety(
        &mut self,
        comps: &[String],
        asms: &[usize],
        guarantees: &[(String, Machine)],
        circular: bool,
    ) -> Result<(), Fail> {
        let comp_ms = comps
            .iter()
            .map(|c| self.component(c))
            .collect::<Result<Vec<_>, _>>()?;
        let asm_ms = asms
            .iter()
            .map(|&a| self.assumption(a))
            .collect::<Result<Vec<_>, _>>()?;
        let mut members: Vec<Member> = comp_ms
            .iter()
            .map(|&m| Member {
                machine: m,
                kind: Kind::Component,
            })
            .collect();
        members.extend(asm_ms.iter().map(|&m| Member {
            machine: m,
            kind: Kind::Assumption,
        }));
        members.extend(guarantees.iter().map(|(_, m)| Member {
            machine: m,
            kind: Kind::Guarantee,
        }));
        let circ = circular.then(|| Circular {
            group: (0..comps.len()).collect(),
            guarantee: members.len() - 1,
        });
        let (found, states) = search(&members, circ.as_ref());
        self.states += states;
        match found {
            None => Ok(()),
            Some(f) => {
                let what = if f.member < comps.len() {
                    format!("component {:?} reaches its ERROR state", comps[f.member])
                } else if f.member >= comps.len() + asms.len() {
                    let (label, _) = &guarantees[f.member - comps.len() - asms.len()];
                    format!("{label} is violated")
                } else {
                    "an assumption reaches an error state".to_owned()
                };
                let visible: Vec<Act> = f.trace.into_iter().filter(|&a| a != TAU).collect();
                Err((what, Some(self.actions.names(&visible))))
            }
        }
    }

    fn premise(&mut self, p: &Premise) -> Result<(), Fail> {
        match p {
            Premise::Monolithic => {
                let comps = self.final_components.clone();
                let g = self.guarantee(&Guarantee::Properties(self.final_properties.clone()))?;
                self.safety(&comps, &[], &g, false)
            }
            Premise::Triple {
                assumptions,
                components,
                guarantee,
            } => {
                let g = self.guarantee(guarantee)?;
                self.safety(components, assumptions, &g, false)
            }
            Premise::Circular {
                assumptions,
                components,
                guarantee,
            } => {
                let g = vec![(
                    format!("guarantee {guarantee}"),
                    self.assumption_err(*guarantee)?,
                )];
                self.safety(components, assumptions, &g, true)
            }
            Premise::Inclusion {
                assumptions,
                properties,
            } => {
                let asms = assumptions
                    .iter()
                    .map(|&a| self.assumption(a))
                    .collect::<Result<Vec<_>, _>>()?;
                let g = self.guarantee(&Guarantee::Properties(properties.clone()))?;
                let props: Vec<&Machine> = g.iter().map(|(_, m)| m).collect();
                let (found, states) = inclusion(&asms, &props);
                self.states += states;
                match found {
                    None => Ok(()),
                    Some(trace) => Err((
                        "every assumption rejects this word and a property is violated".to_owned(),
                        Some(self.actions.names(&trace)),
                    )),
                }
            }
            Premise::Homomorphism {
                component,
                assumption,
                classes,
            } => {
                let n = self.component(component)?;
                let a = self.assumption(*assumption)?;
                let declared = self
                    .cert
                    .assumptions
                    .get(*assumption)
                    .map_or(0, |x| x.lts.states);
                homomorphism(n, a, declared, classes, &self.actions).map_err(|r| (r, None))
            }
            Premise::Reduction { .. } => self.reduction_premise(p),
            Premise::NoDeadlock => self.reductions.no_deadlock().map_err(|r| (r, None)),
            Premise::DeadlockFree {
                assumption,
                components,
                end_action,
            } => {
                let mut members = self.ended(components, end_action)?;
                members.push(self.assumption(*assumption)?.clone());
                let refs: Vec<&Machine> = members.iter().collect();
                let (found, states) = deadlock(&refs);
                self.states += states;
                found.map_or(Ok(()), |trace| {
                    Err((
                        "a reachable state of the components with the assumption has no move"
                            .to_owned(),
                        Some(self.actions.names(&trace)),
                    ))
                })
            }
            Premise::FailureRefinement {
                assumption,
                components,
                end_action,
            } => {
                let members = self.ended(components, end_action)?;
                let refs: Vec<&Machine> = members.iter().collect();
                let (found, states) = refinement(&refs, self.assumption(*assumption)?);
                self.states += states;
                found.map_or(Ok(()), |trace| {
                    Err((
                        "after this trace the components reach a stable state whose refusal the assumption does not allow"
                            .to_owned(),
                        Some(self.actions.names(&trace)),
                    ))
                })
            }
        }
    }

    /// The named components of the model, each declaring `end` with a self-loop on it at its end
    /// state (the reading of the deadlock premises). `end` must be no model action.
    fn ended(&mut self, names: &[String], end: &str) -> Result<Vec<Machine>, Fail> {
        let taken = self
            .model
            .components()
            .iter()
            .map(|c| &c.lts)
            .chain(self.model.properties().iter().map(|p| &p.lts));
        if end == "tau" || taken.into_iter().any(|l| l.alphabet().contains(end)) {
            return Err((
                format!("the end action {end:?} is an action of the model"),
                None,
            ));
        }
        let act = self.actions.id(end);
        let can_end = self.can_terminate();
        let mut out = Vec::new();
        for name in names {
            let Some(c) = self.model.components().iter().find(|c| &c.name == name) else {
                return Err((format!("{name:?} is not a component of the model"), None));
            };
            let m = self.component(name)?;
            out.push(match c.end {
                Some(e) if can_end => with_end(m, Some(e.index()), act),
                _ => m.clone(),
            });
        }
        Ok(out)
    }

    /// LTSA's rule 1 for the model: some component can end (its end state is not its initial
    /// state) and every action of the others and of the properties is an action of one that
    /// can. Only then do end states count (as in the replay of a deadlock claim).
    fn can_terminate(&self) -> bool {
        let machine = |c: &crate::model::Component| self.components.get(&c.name);
        let can_end = |c: &crate::model::Component| {
            c.end
                .is_some_and(|e| machine(c).is_some_and(|m| e.index() != m.initial))
        };
        let ending: BTreeSet<Act> = self
            .model
            .components()
            .iter()
            .filter(|c| can_end(c))
            .filter_map(machine)
            .flat_map(|m| m.alphabet.iter().copied())
            .collect();
        let covered = |m: &Machine| m.alphabet.is_subset(&ending);
        self.model.components().iter().any(can_end)
            && self
                .model
                .components()
                .iter()
                .filter(|c| !can_end(c))
                .filter_map(machine)
                .all(covered)
            && self.leaves.values().all(covered)
    }

    /// A `reduction` premise of rule `reduce` ([`crate::reduction`]).
    fn reduction_premise(&mut self, p: &Premise) -> Result<(), Fail> {
        let Premise::Reduction {
            of,
            hidden,
            alphabet,
            result,
            error,
            ended,
            map,
        } = p
        else {
            return Ok(());
        };
        let premise = reduction::Premise {
            of,
            hidden,
            alphabet,
            result,
            error: *error,
            ended,
            map,
        };
        let mut reductions = std::mem::take(&mut self.reductions);
        let walked = reductions.reduction(&mut self.reduction_context(), &premise);
        self.reductions = reductions;
        self.states += walked.map_err(|r| (r, None))?;
        Ok(())
    }

    // ---- 5b. the rule ----

    fn rule_error(&self, reason: &str) -> Rejection {
        Rejection::Rule {
            rule: self.cert.rule.name().to_owned(),
            reason: reason.to_owned(),
        }
    }

    /// The leaf properties of the named properties (unknown names contribute nothing).
    fn leaves_of(&self, names: &[String]) -> BTreeSet<String> {
        names
            .iter()
            .filter_map(|n| self.properties.get(n))
            .flatten()
            .cloned()
            .collect()
    }

    fn covers(&self, g: &Guarantee, goal: &Goal) -> bool {
        match (g, goal) {
            (Guarantee::Properties(names), Goal::Props(want)) => {
                want.is_subset(&self.leaves_of(names))
            }
            (Guarantee::Assumption(i), Goal::Assumption(j)) => i == j,
            _ => false,
        }
    }

    fn stands_for(&self, a: usize, cs: &BTreeSet<&str>) -> bool {
        self.cert.assumptions.get(a).is_some_and(|x| {
            x.components.len() == cs.len() && x.components.iter().all(|c| cs.contains(c.as_str()))
        })
    }

    /// Whether the premises derive `goal` for the components `cs` by triples (ASYM and its
    /// recursion), homomorphisms and the monolithic premise. Every recursive call has fewer
    /// components, so this terminates.
    fn derive(&self, cs: &BTreeSet<&str>, goal: &Goal) -> bool {
        if let Goal::Assumption(a) = goal {
            // The components of an assumption's goal are the ones it stands for, so the answer
            // depends on `a` alone: remember it (shared sub-derivations stay linear).
            if !self.stands_for(*a, cs) {
                return false;
            }
            if let Some(&known) = self.derived.borrow().get(a) {
                return known;
            }
            let result = self.derive_uncached(cs, goal);
            self.derived.borrow_mut().insert(*a, result);
            return result;
        }
        self.derive_uncached(cs, goal)
    }

    /// [`Self::derive`] without the memo.
    fn derive_uncached(&self, cs: &BTreeSet<&str>, goal: &Goal) -> bool {
        let all: BTreeSet<&str> = self.final_components.iter().map(String::as_str).collect();
        self.cert.premises.iter().any(|p| match p {
            Premise::Monolithic => {
                *cs == all
                    && matches!(goal, Goal::Props(want) if want.is_subset(&self.leaves_of(&self.final_properties)))
            }
            Premise::Triple {
                assumptions,
                components,
                guarantee,
            } => {
                let ms: BTreeSet<&str> = components.iter().map(String::as_str).collect();
                if !self.covers(guarantee, goal) || ms.len() != components.len() || !ms.is_subset(cs) {
                    return false;
                }
                if assumptions.is_empty() {
                    return ms == *cs;
                }
                let rest: BTreeSet<&str> = cs.difference(&ms).copied().collect();
                !ms.is_empty()
                    && !rest.is_empty()
                    && assumptions
                        .iter()
                        .all(|&a| self.derive(&rest, &Goal::Assumption(a)))
            }
            Premise::Homomorphism {
                component,
                assumption,
                ..
            } => *goal == Goal::Assumption(*assumption) && cs.len() == 1 && cs.contains(component.as_str()),
            Premise::Circular { .. }
            | Premise::Inclusion { .. }
            | Premise::Reduction { .. }
            | Premise::NoDeadlock
            | Premise::DeadlockFree { .. }
            | Premise::FailureRefinement { .. } => false,
        })
    }

    fn rule(&mut self) -> Result<(), Rejection> {
        let cert = self.cert;
        let (deadlock, ps): (Vec<&Premise>, Vec<&Premise>) =
            cert.premises.iter().partition(|p| is_deadlock_premise(p));
        if !deadlock.is_empty() {
            self.deadlock_rule(&deadlock)?;
            self.deadlock_free = true;
        }
        let count = |kind: &str| ps.iter().filter(|p| p.kind() == kind).count();
        let goal = Goal::Props(self.leaves_of(&self.final_properties));
        let all: BTreeSet<&str> = self.final_components.iter().map(String::as_str).collect();
        match self.cert.rule {
            Rule::Mono => {
                let ok = ps.len() == 1
                    && match ps[0] {
                        Premise::Monolithic => true,
                        Premise::Triple { assumptions, .. } => assumptions.is_empty(),
                        _ => false,
                    };
                if !ok {
                    return Err(self.rule_error("needs exactly one monolithic premise"));
                }
            }
            Rule::Asym if ps.len() != 2 || count("triple") != 2 => {
                return Err(self.rule_error("needs exactly two triples"));
            }
            Rule::AsymN | Rule::Weakest if ps.is_empty() || count("triple") != ps.len() => {
                return Err(self.rule_error("needs triples only"));
            }
            Rule::Quotient if count("homomorphism") != 1 || count("triple") != ps.len() - 1 => {
                return Err(self.rule_error("needs one homomorphism and triples"));
            }
            Rule::Reduce => {
                self.reduce()?;
                // Its `no-deadlock` premise, checked on the last result, proves deadlock freedom.
                self.deadlock_free = self.reductions.claims_deadlock();
                return Ok(());
            }
            Rule::Sym => return self.sym(&goal),
            Rule::Circ => return self.circ(&goal),
            Rule::Program => {
                return Err(self.rule_error("program certificates are not checkable"));
            }
            _ => {}
        }
        if self.derive(&all, &goal) {
            Ok(())
        } else {
            Err(self.rule_error(
                "the premises do not derive the properties for the whole system \
                 (a triple's components, assumptions or guarantee do not fit)",
            ))
        }
    }

    /// Rule `reduce` ([`crate::reduction`]): reductions only (and `no-deadlock`), on the model as
    /// given.
    fn reduce(&self) -> Result<(), Rejection> {
        if !self.cert.transformations.is_empty() || !self.cert.assumptions.is_empty() {
            return Err(self.rule_error("takes no transformations and no assumptions"));
        }
        let others = self
            .cert
            .premises
            .iter()
            .any(|p| !matches!(p, Premise::Reduction { .. } | Premise::NoDeadlock));
        if others {
            return Err(self.rule_error("takes reduction and no-deadlock premises only"));
        }
        let cx = Context {
            model: self.model,
            components: &self.components,
            properties: &self.leaves,
            actions: &mut Actions::new(),
        };
        self.reductions.rule(&cx).map_err(|r| self.rule_error(&r))
    }

    /// The deadlock rule: one `deadlock-free` premise for `M1 || A` and one
    /// `failure-refinement` premise for `M2` against the same assumption `A`, with the same end
    /// action, `M1` and `M2` splitting the model's components, `A` standing for `M2` and
    /// declaring exactly the interface `alpha M1 n alpha M2`, the end action counted where the
    /// components declare it (as the premises read them; a smaller
    /// alphabet would let `M1` move freely where `M2` can block it, a larger one let `A` move
    /// alone). No transformations: the premises read the model's own components.
    fn deadlock_rule(&mut self, premises: &[&Premise]) -> Result<(), Rejection> {
        let (mut free, mut refined) = (None, None);
        for p in premises {
            match p {
                Premise::DeadlockFree {
                    assumption,
                    components,
                    end_action,
                } if free.is_none() => free = Some((*assumption, components, end_action)),
                Premise::FailureRefinement {
                    assumption,
                    components,
                    end_action,
                } if refined.is_none() => refined = Some((*assumption, components, end_action)),
                _ => {
                    return Err(self.rule_error(
                        "the deadlock rule needs one deadlock-free and one failure-refinement premise",
                    ));
                }
            }
        }
        let (Some((a, m1, end)), Some((a2, m2, end2))) = (free, refined) else {
            return Err(self.rule_error(
                "the deadlock rule needs one deadlock-free and one failure-refinement premise",
            ));
        };
        if a != a2 || end != end2 || !self.cert.transformations.is_empty() {
            return Err(self.rule_error(
                "the deadlock premises must share their assumption and end action, on the model's own components",
            ));
        }
        let g1: BTreeSet<&str> = m1.iter().map(String::as_str).collect();
        let g2: BTreeSet<&str> = m2.iter().map(String::as_str).collect();
        let all: BTreeSet<&str> = self.final_components.iter().map(String::as_str).collect();
        let split = g1.len() == m1.len()
            && g2.len() == m2.len()
            && !g1.is_empty()
            && !g2.is_empty()
            && g1.is_disjoint(&g2)
            && g1.union(&g2).copied().collect::<BTreeSet<_>>() == all;
        if !split || !self.stands_for(a, &g2) {
            return Err(self.rule_error(
                "the deadlock premises' components must split the system, and the assumption stand for the second group",
            ));
        }
        let mut alphabet = |names: &[String]| -> Result<BTreeSet<Act>, Rejection> {
            let ended = self
                .ended(names, end)
                .map_err(|(reason, _)| self.rule_error(&reason))?;
            Ok(ended
                .iter()
                .flat_map(|m| m.alphabet.iter().copied())
                .collect())
        };
        let (alpha1, alpha2) = (alphabet(m1)?, alphabet(m2)?);
        let interface: BTreeSet<Act> = alpha1.intersection(&alpha2).copied().collect();
        if self.assumptions.get(a).map(|m| &m.alphabet) != Some(&interface) {
            return Err(Rejection::Alphabet {
                assumption: a,
                reason: "a failure assumption must declare exactly the interface of the two groups and the end action".to_owned(),
            });
        }
        Ok(())
    }

    /// Whether every name is a component of the system after the transformations.
    fn in_system(&self, cs: &BTreeSet<&str>) -> bool {
        cs.iter()
            .all(|c| self.final_components.iter().any(|f| f == c))
    }

    fn no_error_states(&self, why: &str) -> Result<(), Rejection> {
        match self
            .final_components
            .iter()
            .find(|c| self.components.get(*c).is_some_and(|m| m.error.is_some()))
        {
            Some(c) => Err(self.rule_error(&format!("component {c:?} has an ERROR state; {why}"))),
            None => Ok(()),
        }
    }

    fn sym(&self, goal: &Goal) -> Result<(), Rejection> {
        self.no_error_states("SYM needs it rewritten by error-as-action first")?;
        let mut triple_assumptions = BTreeSet::new();
        let mut inclusions = Vec::new();
        for p in &self.cert.premises {
            match p {
                Premise::Triple {
                    assumptions,
                    components,
                    guarantee,
                } => {
                    let cs: BTreeSet<&str> = components.iter().map(String::as_str).collect();
                    if !self.in_system(&cs) {
                        return Err(self.rule_error(
                            "a triple names a component that is not in the (transformed) system",
                        ));
                    }
                    if assumptions.len() != 1 || !self.covers(guarantee, goal) {
                        return Err(self.rule_error(
                            "each triple has one assumption and guarantees the properties",
                        ));
                    }
                    if !self.stands_for(assumptions[0], &cs) {
                        return Err(self.rule_error(
                            "an assumption does not stand for the components of its triple",
                        ));
                    }
                    triple_assumptions.insert(assumptions[0]);
                }
                Premise::Inclusion {
                    assumptions,
                    properties,
                } => inclusions.push((assumptions, properties)),
                _ => return Err(self.rule_error("needs triples and one inclusion")),
            }
        }
        let [(asms, props)] = inclusions.as_slice() else {
            return Err(self.rule_error("needs exactly one inclusion"));
        };
        if !asms.iter().all(|a| triple_assumptions.contains(a)) {
            return Err(self.rule_error("the inclusion uses an assumption no triple justifies"));
        }
        if !self.covers(&Guarantee::Properties((*props).clone()), goal) {
            return Err(self.rule_error("the inclusion does not cover every property"));
        }
        Ok(())
    }

    fn circ(&self, goal: &Goal) -> Result<(), Rejection> {
        let mut needed = BTreeSet::new();
        for p in &self.cert.premises {
            if let Premise::Circular { guarantee, .. } = p
                && !needed.insert(*guarantee)
            {
                return Err(self.rule_error("two circular premises for one guarantee"));
            }
        }
        let mut covered: BTreeSet<&str> = BTreeSet::new();
        let mut last = 0;
        for p in &self.cert.premises {
            match p {
                Premise::Circular {
                    assumptions,
                    components,
                    guarantee,
                } => {
                    let cs: BTreeSet<&str> = components.iter().map(String::as_str).collect();
                    if !assumptions.iter().all(|a| needed.contains(a)) {
                        return Err(self.rule_error(
                            "a circular premise assumes a guarantee no premise establishes",
                        ));
                    }
                    if !self.in_system(&cs) {
                        return Err(self.rule_error(
                            "a premise names a component that is not in the (transformed) system",
                        ));
                    }
                    if cs.is_empty() || !self.stands_for(*guarantee, &cs) {
                        return Err(self.rule_error(
                            "a guarantee does not stand for the components of its premise",
                        ));
                    }
                    let alpha: BTreeSet<Act> = cs
                        .iter()
                        .filter_map(|c| self.components.get(*c))
                        .flat_map(|m| m.alphabet.iter().copied())
                        .collect();
                    let g = self.assumptions.get(*guarantee).map(|m| &m.alphabet);
                    if let Some(a) = g.and_then(|g| g.iter().find(|a| !alpha.contains(a))) {
                        return Err(Rejection::Alphabet {
                            assumption: *guarantee,
                            reason: format!(
                                "guarantee action {:?} is not in the alphabet of its components",
                                self.actions.name(*a)
                            ),
                        });
                    }
                    covered.extend(cs);
                }
                Premise::Triple {
                    assumptions,
                    components,
                    guarantee,
                } if components.is_empty() => {
                    if !assumptions.iter().all(|a| needed.contains(a))
                        || !self.covers(guarantee, goal)
                    {
                        return Err(self.rule_error(
                            "the last premise must use established guarantees and cover every property",
                        ));
                    }
                    last += 1;
                }
                _ => {
                    return Err(self
                        .rule_error("needs circular premises and one triple without components"));
                }
            }
        }
        if last != 1 {
            return Err(self.rule_error("needs exactly one triple without components (G |= P)"));
        }
        if let Some(c) = self.final_components.iter().find(|c| {
            !covered.contains(c.as_str())
                && self.components.get(*c).is_some_and(|m| m.error.is_some())
        }) {
            return Err(self.rule_error(&format!(
                "component {c:?} has an ERROR state but no circular premise"
            )));
        }
        Ok(())
    }

    // ---- 6. counterexample replay ----

    fn replay(&self, cex: &Counterexample) -> Result<(), Rejection> {
        let mut run = Run {
            comps: self
                .cert
                .model
                .components
                .iter()
                .filter_map(|n| {
                    let m = self.components.get(&n.name)?;
                    let end = self
                        .model
                        .components()
                        .iter()
                        .find(|c| c.name == n.name)?
                        .end;
                    Some((n.name.as_str(), m, end.map(guarantor_lts::StateId::index)))
                })
                .collect(),
            props: self
                .cert
                .model
                .properties
                .iter()
                .filter_map(|n| {
                    let m = self.leaves.get(&n.name)?.error_machine().ok()?;
                    Some((n.name.as_str(), m))
                })
                .collect(),
            cs: Vec::new(),
            ps: Vec::new(),
        };
        run.cs = run.comps.iter().map(|c| c.1.initial).collect();
        run.ps = run.props.iter().map(|p| p.1.initial).collect();
        for (i, step) in cex.steps.iter().enumerate() {
            run.step(&self.actions, step)
                .map_err(|reason| Rejection::Replay { step: i, reason })?;
        }
        run.claim(&cex.violation)
            .map_err(|reason| Rejection::Replay {
                step: cex.steps.len(),
                reason,
            })
    }
}

/// LTSA's rule 1 for end states: some component can end (its end state is not its initial
/// state), and every action of the components that cannot, and of the properties, belongs to
/// one that can. `comps` are the components with their end states.
pub(crate) fn can_terminate(comps: &[(&Machine, Option<usize>)], props: &[&Machine]) -> bool {
    let can_end = |c: &(&Machine, Option<usize>)| c.1.is_some_and(|e| e != c.0.initial);
    let ending: BTreeSet<Act> = comps
        .iter()
        .filter(|c| can_end(c))
        .flat_map(|c| c.0.alphabet.iter().copied())
        .collect();
    let covered = |m: &Machine| m.alphabet.is_subset(&ending);
    comps.iter().any(can_end)
        && comps.iter().filter(|c| !can_end(c)).all(|c| covered(c.0))
        && props.iter().all(|p| covered(p))
}

/// A counterexample being replayed: the model's components (name, machine, end state) and
/// properties (name, error machine), and where each is.
struct Run<'a> {
    comps: Vec<(&'a str, &'a Machine, Option<usize>)>,
    props: Vec<(&'a str, Machine)>,
    cs: Vec<usize>,
    ps: Vec<usize>,
}

impl Run<'_> {
    /// Whether the run stopped in an end state by LTSA's rule: some component can end (its end
    /// state is not its initial state); every action of the components that cannot, and of the
    /// properties, belongs to one that can; and every component with an end state is at it.
    fn terminated(&self) -> bool {
        let comps: Vec<(&Machine, Option<usize>)> = self.comps.iter().map(|c| (c.1, c.2)).collect();
        let props: Vec<&Machine> = self.props.iter().map(|p| &p.1).collect();
        can_terminate(&comps, &props)
            && self
                .comps
                .iter()
                .zip(&self.cs)
                .all(|(c, &s)| c.2.is_none_or(|e| e == s))
    }

    /// Whether some component is at its `ERROR` or some property at pi.
    fn violated(&self) -> bool {
        self.comps
            .iter()
            .zip(&self.cs)
            .any(|(c, &s)| c.1.error == Some(s))
            || self
                .props
                .iter()
                .zip(&self.ps)
                .any(|(p, &s)| p.1.error == Some(s))
    }

    /// Replays one step.
    fn step(&mut self, actions: &Actions, step: &crate::format::Step) -> Result<(), String> {
        if self.violated() {
            return Err("the run has already violated before this step".to_owned());
        }
        if step.states.len() != self.comps.len() {
            return Err(format!(
                "{} states given for {} components",
                step.states.len(),
                self.comps.len()
            ));
        }
        let next: Vec<usize> = step
            .states
            .iter()
            .map(|&s| usize::try_from(s).unwrap_or(usize::MAX))
            .collect();
        if step.action == "tau" {
            let moved: Vec<usize> = (0..next.len()).filter(|&c| next[c] != self.cs[c]).collect();
            let ok = match moved.as_slice() {
                [c] => {
                    self.comps[*c].1.has_edge(self.cs[*c], TAU, next[*c])
                        && (step.components.is_empty() || step.components == [self.comps[*c].0])
                }
                [] => self.comps.iter().zip(&self.cs).any(|(c, &s)| {
                    c.1.has_edge(s, TAU, s)
                        && (step.components.is_empty() || step.components == [c.0])
                }),
                _ => false,
            };
            if !ok {
                return Err(if step.components.is_empty() {
                    "no component makes this tau step".to_owned()
                } else {
                    format!("{:?} do not make this tau step", step.components)
                });
            }
            self.cs = next;
            return Ok(());
        }
        let unknown = || format!("no component or property has {:?}", step.action);
        let a = actions.get(&step.action).ok_or_else(unknown)?;
        let mut anyone = false;
        for (c, (name, m, _)) in self.comps.iter().enumerate() {
            if m.alphabet.contains(&a) {
                anyone = true;
                if !m.has_edge(self.cs[c], a, next[c]) {
                    return Err(format!(
                        "{name:?} has no {:?} move from {} to {}",
                        step.action, self.cs[c], step.states[c]
                    ));
                }
            } else if next[c] != self.cs[c] {
                return Err(format!(
                    "{name:?} does not have {:?} but changes state",
                    step.action
                ));
            }
        }
        for (p, (_, m)) in self.props.iter().enumerate() {
            if m.alphabet.contains(&a) {
                anyone = true;
                // P_err is deterministic and complete outside pi.
                self.ps[p] = m.successors(self.ps[p], a).next().unwrap_or(self.ps[p]);
            }
        }
        if !anyone {
            return Err(unknown());
        }
        if !step.components.is_empty() {
            let taking_part: Vec<&str> = self
                .comps
                .iter()
                .filter(|(_, m, _)| m.alphabet.contains(&a))
                .map(|(name, _, _)| *name)
                .collect();
            if step.components != taking_part {
                return Err(format!(
                    "the step names {:?} as taking part in {:?}, but {taking_part:?} do",
                    step.components, step.action
                ));
            }
        }
        self.cs = next;
        Ok(())
    }

    /// Checks the claim about the end of the run.
    fn claim(&self, violation: &ViolationClaim) -> Result<(), String> {
        match violation {
            ViolationClaim::Property { property } => {
                let at_pi = self
                    .props
                    .iter()
                    .zip(&self.ps)
                    .any(|((n, m), &s)| n == property && m.error == Some(s));
                if !at_pi {
                    return Err(format!("property {property:?} is not violated at the end"));
                }
            }
            ViolationClaim::ErrorState { component } => {
                let at_error = self
                    .comps
                    .iter()
                    .zip(&self.cs)
                    .any(|((n, m, _), &s)| n == component && m.error == Some(s));
                if !at_error {
                    return Err(format!(
                        "component {component:?} is not at its ERROR state at the end"
                    ));
                }
            }
            ViolationClaim::Deadlock => {
                if self.violated() {
                    return Err("the run ends in an error, not a deadlock".to_owned());
                }
                let members: Vec<Member> = self
                    .comps
                    .iter()
                    .map(|c| Member {
                        machine: c.1,
                        kind: Kind::Component,
                    })
                    .collect();
                let all: Vec<usize> = (0..members.len()).collect();
                if crate::search::can_move(&members, &all, &self.cs) {
                    return Err("a move is still possible at the end".to_owned());
                }
                if self.terminated() {
                    return Err("the system has terminated (LTSA's END): not a deadlock".to_owned());
                }
            }
        }
        Ok(())
    }
}

/// Checks that `classes` is a homomorphism from `n` into `a`: same alphabet, total, initial to
/// initial, every transition onto a transition with the same action (a tau step inside one class
/// may map to no step). `n` may not have an `ERROR` state.
fn homomorphism(
    n: &Machine,
    a: &Machine,
    declared: u64,
    classes: &[u64],
    actions: &Actions,
) -> Result<(), String> {
    if n.error.is_some() {
        return Err(
            "the component has an ERROR state; rewrite it with error-as-action first".to_owned(),
        );
    }
    if n.alphabet != a.alphabet {
        return Err("the quotient's alphabet differs from the component's".to_owned());
    }
    if classes.len() != n.len() {
        return Err(format!("{} classes for {} states", classes.len(), n.len()));
    }
    let class = |s: usize| -> Result<usize, String> {
        let c = classes.get(s).copied().unwrap_or(u64::MAX);
        usize::try_from(c)
            .ok()
            .filter(|_| c < declared)
            .ok_or_else(|| format!("state {s} maps to {c}, which is not a state of the quotient"))
    };
    for s in 0..n.len() {
        class(s)?;
    }
    if class(n.initial)? != a.initial {
        return Err("the initial state does not map to the quotient's initial state".to_owned());
    }
    for (s, out) in n.edges.iter().enumerate() {
        for &(act, t) in out {
            let (cs, ct) = (class(s)?, class(t)?);
            if !(a.has_edge(cs, act, ct) || (act == TAU && cs == ct)) {
                return Err(format!(
                    "transition {s} -{}-> {t} has no image {cs} -{}-> {ct}",
                    actions.name(act),
                    actions.name(act)
                ));
            }
        }
    }
    Ok(())
}

/// Checks the certificate's fingerprints against those computed for the `whole` (`"model"` or
/// `"program"`) it is checked against: each part listed once, none missing or extra, each part's
/// fingerprint equal, then the whole's.
pub(crate) fn compare_print(
    cert: &Certificate,
    top: &str,
    print: &ModelPrint,
    whole: &str,
) -> Result<(), Rejection> {
    for (what, listed, computed) in [
        ("component", &cert.model.components, &print.components),
        ("property", &cert.model.properties, &print.properties),
    ] {
        let mut seen = BTreeSet::new();
        for n in listed {
            if !seen.insert(n.name.as_str()) {
                return Err(Rejection::Model {
                    reason: format!("the certificate lists the {what} {:?} twice", n.name),
                });
            }
            let Some(c) = computed.iter().find(|c| c.name == n.name) else {
                return Err(Rejection::Model {
                    reason: format!("the {whole} has no {what} {:?}", n.name),
                });
            };
            if c.fingerprint != n.fingerprint {
                return Err(Rejection::Fingerprint {
                    name: n.name.clone(),
                    certificate: n.fingerprint.clone(),
                    computed: c.fingerprint.clone(),
                });
            }
        }
        if let Some(c) = computed.iter().find(|c| !seen.contains(c.name.as_str())) {
            return Err(Rejection::Model {
                reason: format!("the certificate does not list the {what} {:?}", c.name),
            });
        }
    }
    if cert.fingerprint != top {
        return Err(Rejection::Fingerprint {
            name: format!("<{whole}>"),
            certificate: cert.fingerprint.clone(),
            computed: top.to_owned(),
        });
    }
    Ok(())
}

//! Programs: certificates of rule `program` (predicate abstraction), checked against the program.
//!
//! The checker does not parse guarded-command programs (that would make it depend on the
//! front end it checks). The caller gives the program as a [`ProgramModel`]: variables, and per
//! component its locations and transitions, whose guards and right-hand sides are SMT-LIB2 terms
//! over the variables (quoted symbols, `(<= |x| 3)`), and the properties as LTSs. The facade
//! translates a parsed `.gc` program into one (`guarantor::program_certificate`).
//!
//! [`check_program`] accepts a certificate when:
//! 1. its fingerprints are the program's ([`program_print`]);
//! 2. the abstract system it records is the one its obligations talk about, built the way
//!    docs/formats.md ("Programs") says from the program, the predicates, the abstract states and
//!    the kept transitions: every component's edges are exactly its kept transitions with the
//!    copies under other components' variant labels (and a hub's copies), every alphabet is the
//!    program's with the variants, every shared-predicate process and every property is exactly
//!    the one the variants give;
//! 3. it lists exactly one obligation per abstract initial state set, per shared predicate with a
//!    known initial value, and per (abstract state, concrete transition from its location), each
//!    with the script the checker derives itself ([`fill_scripts`] is the same derivation, for
//!    producers);
//! 4. the certificate of the abstract check (`inner`) is accepted by [`crate::check()`] against
//!    the abstract system;
//! 5. the solver ([`Solver`], `z3 -in -smt2` by default) answers `unsat` to every script.
//!
//! Together these make the abstract system simulate the program (docs/formats.md gives the
//! argument), so the abstract system's `holds` is the program's.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write as _;

use guarantor_lts::{Lts, LtsBuilder, StateId};

use crate::check::{check, compare_print};
use crate::fingerprint::{Fnv1a, fingerprint, model_fingerprint};
use crate::format::{
    AbstractComponent, AbstractLts, Certificate, FORMAT, ModelPrint, Named, Obligation,
    ProgramEvidence, Rule, StateMeaning, VERSION, VerdictKind,
};
use crate::model::{Model, Property};
use crate::report::{CertifyError, Outcome, Rejection, Report};
use crate::smt::{self, Answer, Solver};

/// The sort of a program variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Sort {
    /// Mathematical integers (`Int`).
    Int,
    /// Booleans (`Bool`).
    Bool,
}

impl Sort {
    /// The SMT-LIB2 sort.
    pub fn smt(self) -> &'static str {
        match self {
            Self::Int => "Int",
            Self::Bool => "Bool",
        }
    }
}

/// A program variable.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Variable {
    /// Its name (referred to as `|name|` in terms).
    pub name: String,
    /// Its sort.
    pub sort: Sort,
    /// Its initial value as an SMT-LIB2 term (`0`, `(- 3)`, `true`), or `None` for any value.
    pub init: Option<String>,
}

/// A guarded command `from -> to on label when guard do x := e, ..`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Transition {
    /// Source location.
    pub from: usize,
    /// Target location.
    pub to: usize,
    /// Its label: the action, or a label no other component has for an internal step.
    pub label: String,
    /// The guard, an SMT-LIB2 boolean term over the pre-state.
    pub guard: String,
    /// Simultaneous assignments `(variable, term over the pre-state)`.
    pub updates: Vec<(String, String)>,
}

impl Transition {
    /// A transition.
    pub fn new(
        from: usize,
        to: usize,
        label: impl Into<String>,
        guard: impl Into<String>,
        updates: Vec<(String, String)>,
    ) -> Self {
        Self {
            from,
            to,
            label: label.into(),
            guard: guard.into(),
            updates,
        }
    }
}

/// One sequential component of a program.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ProgramComponent {
    /// Its name.
    pub name: String,
    /// Its control locations, by name.
    pub locations: Vec<String>,
    /// The initial location.
    pub initial: usize,
    /// The error locations (reaching one is a violation).
    pub errors: Vec<usize>,
    /// The transitions.
    pub transitions: Vec<Transition>,
}

impl ProgramComponent {
    /// A component without transitions.
    pub fn new(
        name: impl Into<String>,
        locations: Vec<String>,
        initial: usize,
        errors: Vec<usize>,
    ) -> Self {
        Self {
            name: name.into(),
            locations,
            initial,
            errors,
            transitions: Vec::new(),
        }
    }

    /// Adds a transition.
    #[must_use]
    pub fn transition(mut self, t: Transition) -> Self {
        self.transitions.push(t);
        self
    }

    /// Its labels (its alphabet in the program's semantics).
    pub fn labels(&self) -> BTreeSet<&str> {
        self.transitions.iter().map(|t| t.label.as_str()).collect()
    }
}

/// A program as the checker sees it: variables, components and safety properties. A transition
/// on a label synchronises with every other component and property whose alphabet has it
/// (LTSA's semantics); a component at an error location is a violation.
#[derive(Clone, Debug, Default)]
pub struct ProgramModel {
    variables: Vec<Variable>,
    components: Vec<ProgramComponent>,
    properties: Vec<Property>,
}

impl ProgramModel {
    /// An empty program.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a variable.
    #[must_use]
    pub fn variable(mut self, name: impl Into<String>, sort: Sort, init: Option<String>) -> Self {
        self.variables.push(Variable {
            name: name.into(),
            sort,
            init,
        });
        self
    }

    /// Adds a component.
    #[must_use]
    pub fn component(mut self, c: ProgramComponent) -> Self {
        self.components.push(c);
        self
    }

    /// Adds a property.
    #[must_use]
    pub fn property(mut self, name: impl Into<String>, lts: Lts) -> Self {
        self.properties.push(Property {
            name: name.into(),
            lts,
        });
        self
    }

    /// The variables.
    pub fn variables(&self) -> &[Variable] {
        &self.variables
    }

    /// The components.
    pub fn components(&self) -> &[ProgramComponent] {
        &self.components
    }

    /// The properties.
    pub fn properties(&self) -> &[Property] {
        &self.properties
    }
}

/// Appends `<byte length>:<bytes>`.
fn string(out: &mut String, s: &str) {
    let _ = write!(out, "{}:{s}", s.len());
}

fn hash(text: &str) -> String {
    let mut h = Fnv1a::new();
    h.write(text.as_bytes());
    h.hex()
}

/// The canonical text of a component (docs/formats.md, "Programs").
fn component_form(c: &ProgramComponent) -> String {
    let mut out = String::from("guarantor-program-component-v1\n");
    let _ = writeln!(out, "locations {}", c.locations.len());
    for l in &c.locations {
        string(&mut out, l);
        out.push('\n');
    }
    let _ = writeln!(out, "initial {}", c.initial);
    let _ = write!(out, "errors {}", c.errors.len());
    for e in &c.errors {
        let _ = write!(out, " {e}");
    }
    let _ = writeln!(out, "\ntransitions {}", c.transitions.len());
    for t in &c.transitions {
        let _ = write!(out, "{} {} ", t.from, t.to);
        string(&mut out, &t.label);
        out.push(' ');
        string(&mut out, &t.guard);
        let _ = write!(out, " {}", t.updates.len());
        for (x, e) in &t.updates {
            out.push(' ');
            string(&mut out, x);
            out.push(' ');
            string(&mut out, e);
        }
        out.push('\n');
    }
    out
}

/// The fingerprints of a program: of each component (FNV-1a of its canonical text) and property
/// (its LTS fingerprint), and of the whole program (its variables and its parts'
/// fingerprints): what a producer writes into `"model"` and `"fingerprint"`.
pub fn program_print(program: &ProgramModel) -> (String, ModelPrint) {
    let print = ModelPrint::new(
        program
            .components
            .iter()
            .map(|c| Named::new(c.name.clone(), hash(&component_form(c))))
            .collect(),
        program
            .properties
            .iter()
            .map(|p| Named::new(p.name.clone(), fingerprint(&p.lts)))
            .collect(),
    );
    let mut text = String::from("guarantor-program-v1\n");
    for v in &program.variables {
        text.push_str("variable ");
        string(&mut text, &v.name);
        let _ = write!(text, " {} ", v.sort.smt());
        string(&mut text, v.init.as_deref().unwrap_or("-"));
        text.push('\n');
    }
    text.push_str(&model_fingerprint(&print));
    (hash(&text), print)
}

/// Derives the script of every obligation of `evidence` (docs/formats.md, "Programs"), the
/// scripts the checker will compare with its own: producers fill the abstraction and the
/// obligations' other fields, then call this.
///
/// # Errors
/// An obligation that names no component, state, transition, predicate or variant.
pub fn fill_scripts(evidence: &mut ProgramEvidence, program: &ProgramModel) -> Result<(), String> {
    let scripts = {
        let view = View::new(program, evidence)?;
        evidence
            .obligations
            .iter()
            .map(|o| view.script(o))
            .collect::<Result<Vec<_>, _>>()?
    };
    for (o, s) in evidence.obligations.iter_mut().zip(scripts) {
        *o.script_mut() = s;
    }
    Ok(())
}

/// Checks a `program` certificate against the program, discharging its obligations with
/// `solver`.
///
/// # Errors
/// [`CertifyError`] for what cannot be interpreted: another format or version, a certificate of
/// another rule ([`CertifyError::Unsupported`]), a malformed program, a malformed inner
/// certificate, or a solver that cannot be run ([`CertifyError::Solver`]).
pub fn check_program(
    certificate: &Certificate,
    program: &ProgramModel,
    solver: &Solver,
) -> Result<Report, CertifyError> {
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
    if certificate.rule != Rule::Program {
        return Err(CertifyError::Unsupported {
            rule: certificate.rule.name().to_owned(),
            against: "a program".to_owned(),
        });
    }
    validate_program(program)?;
    let mut report = Report {
        verdict: certificate.verdict,
        rule: Rule::Program,
        outcome: Outcome::Accepted,
        premises_checked: 0,
        states: 0,
        obligations: 0,
        backend: None,
        deadlock_free: false,
    };
    if let Err(r) = check_evidence(certificate, program, solver, &mut report)? {
        report.outcome = Outcome::Rejected(r);
    }
    Ok(report)
}

/// Reads a certificate from JSON and [`check_program`]s it.
///
/// # Errors
/// [`CertifyError::Json`] for text that is not a certificate, then as [`check_program`].
pub fn check_program_json(
    text: &str,
    program: &ProgramModel,
    solver: &Solver,
) -> Result<Report, CertifyError> {
    check_program(&Certificate::from_json(text)?, program, solver)
}

fn bad_program(reason: String) -> CertifyError {
    CertifyError::Program { reason }
}

/// Unique names, indices in range, valid terms over declared variables, deterministic properties.
fn validate_program(p: &ProgramModel) -> Result<(), CertifyError> {
    let mut names = BTreeSet::new();
    let parts = p
        .components
        .iter()
        .map(|c| &c.name)
        .chain(p.properties.iter().map(|q| &q.name));
    for name in parts {
        if !names.insert(name.as_str()) {
            return Err(CertifyError::DuplicateName { name: name.clone() });
        }
    }
    let mut vars = BTreeSet::new();
    for v in &p.variables {
        if v.name.is_empty() || v.name.contains(['|', '\'', '\\']) || !v.name.is_ascii() {
            return Err(bad_program(format!(
                "the variable name {:?} cannot be an SMT-LIB symbol",
                v.name
            )));
        }
        if !vars.insert(v.name.as_str()) {
            return Err(bad_program(format!("two variables are named {:?}", v.name)));
        }
        if let Some(init) = &v.init {
            smt::validate_term(init).map_err(bad_program)?;
        }
    }
    let term = |t: &str| -> Result<(), CertifyError> {
        smt::validate_term(t).map_err(bad_program)?;
        match smt::variables(t)
            .into_iter()
            .find(|x| !vars.contains(x.as_str()))
        {
            Some(x) => Err(bad_program(format!(
                "{t:?} uses the undeclared variable {x:?}"
            ))),
            None => Ok(()),
        }
    };
    for c in &p.components {
        let n = c.locations.len();
        if c.initial >= n || c.errors.iter().any(|&e| e >= n) {
            return Err(bad_program(format!("{}: a location out of range", c.name)));
        }
        for t in &c.transitions {
            if t.from >= n || t.to >= n {
                return Err(bad_program(format!(
                    "{}: a transition's location is out of range",
                    c.name
                )));
            }
            if t.label.is_empty() || t.label == "tau" {
                return Err(bad_program(format!(
                    "{}: a transition needs a label other than tau",
                    c.name
                )));
            }
            term(&t.guard)?;
            let mut written = BTreeSet::new();
            for (x, e) in &t.updates {
                if !vars.contains(x.as_str()) || !written.insert(x) {
                    return Err(bad_program(format!(
                        "{}: the update of {x:?} is not one of a declared variable",
                        c.name
                    )));
                }
                term(e)?;
            }
        }
    }
    crate::model::deterministic(&p.properties)
}

/// The certificate's claims about the program, in the checker's terms.
struct View<'a> {
    program: &'a ProgramModel,
    ev: &'a ProgramEvidence,
    /// Component index by name.
    component: HashMap<&'a str, usize>,
    /// Variant index by label.
    variant: HashMap<&'a str, usize>,
    /// The component owning the variants of each base label.
    owner: HashMap<&'a str, usize>,
    /// Variants by base label.
    by_base: HashMap<&'a str, Vec<usize>>,
}

fn abstraction(reason: String) -> Rejection {
    Rejection::Abstraction { reason }
}

impl<'a> View<'a> {
    /// Indexes the evidence; fails on names that do not resolve.
    fn new(program: &'a ProgramModel, ev: &'a ProgramEvidence) -> Result<Self, String> {
        let component: HashMap<&str, usize> = program
            .components
            .iter()
            .enumerate()
            .map(|(i, c)| (c.name.as_str(), i))
            .collect();
        let labels: BTreeSet<&str> = program
            .components
            .iter()
            .flat_map(ProgramComponent::labels)
            .collect();
        let mut variant = HashMap::new();
        let mut owner: HashMap<&str, usize> = HashMap::new();
        let mut by_base: HashMap<&str, Vec<usize>> = HashMap::new();
        for (i, v) in ev.variants.iter().enumerate() {
            if variant.insert(v.name.as_str(), i).is_some() {
                return Err(format!("two variants are labelled {:?}", v.name));
            }
            if labels.contains(v.name.as_str()) || v.name == "tau" {
                return Err(format!(
                    "the variant label {:?} is a label of the program",
                    v.name
                ));
            }
            let &c = component
                .get(v.owner.as_str())
                .ok_or_else(|| format!("variant {:?}: {:?} is not a component", v.name, v.owner))?;
            if !program.components[c].labels().contains(v.base.as_str()) {
                return Err(format!(
                    "variant {:?}: {:?} has no transition labelled {:?}",
                    v.name, v.owner, v.base
                ));
            }
            if *owner.entry(v.base.as_str()).or_insert(c) != c {
                return Err(format!("the variants of {:?} have two owners", v.base));
            }
            for side in [&v.pre, &v.post] {
                let mut seen = BTreeSet::new();
                for &(k, _) in side {
                    if k >= ev.predicates.shared.len() || !seen.insert(k) {
                        return Err(format!(
                            "variant {:?}: shared predicate {k} does not exist or is given twice",
                            v.name
                        ));
                    }
                }
            }
            by_base.entry(v.base.as_str()).or_default().push(i);
        }
        if ev.predicates.local.len() != program.components.len() {
            return Err(format!(
                "{} lists of local predicates for {} components",
                ev.predicates.local.len(),
                program.components.len()
            ));
        }
        if ev.components.len() != program.components.len() {
            return Err(format!(
                "{} abstract components for {} components",
                ev.components.len(),
                program.components.len()
            ));
        }
        Ok(Self {
            program,
            ev,
            component,
            variant,
            owner,
            by_base,
        })
    }

    fn comp(&self, name: &str) -> Result<usize, String> {
        self.component
            .get(name)
            .copied()
            .ok_or_else(|| format!("{name:?} is not a component"))
    }

    fn meaning(&self, c: usize, s: u64) -> Result<&'a StateMeaning, String> {
        usize::try_from(s)
            .ok()
            .and_then(|s| self.ev.components[c].states.get(s))
            .ok_or_else(|| {
                format!(
                    "{} has no abstract state {s}",
                    self.program.components[c].name
                )
            })
    }

    /// The valuation formula of a state (`true` for the error state), at the pre- or post-state.
    fn valuation(&self, c: usize, m: &StateMeaning, post: bool) -> Result<String, String> {
        match m {
            StateMeaning::At { valuation, .. } => {
                let preds = &self.ev.predicates.local[c];
                if valuation.len() != preds.len() {
                    return Err(format!(
                        "a valuation of {} has {} values for {} predicates",
                        self.program.components[c].name,
                        valuation.len(),
                        preds.len()
                    ));
                }
                let lits: Vec<String> = preds
                    .iter()
                    .zip(valuation)
                    .map(|(p, &b)| smt::literal(&at(p, post), b))
                    .collect();
                Ok(smt::and(&lits))
            }
            StateMeaning::Error => Ok("true".to_owned()),
            StateMeaning::Hub => Err("the hub stands for no valuation".to_owned()),
        }
    }

    fn header(&self, out: &mut String, comment: &str, post: bool) {
        let clean: String = comment
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        let _ = writeln!(out, "; guarantor-certificate obligation: {clean}");
        out.push_str("(set-logic QF_LIA)\n");
        for v in &self.program.variables {
            let _ = writeln!(
                out,
                "(declare-const {} {})",
                smt::symbol(&v.name, false),
                v.sort.smt()
            );
            if post {
                let _ = writeln!(
                    out,
                    "(declare-const {} {})",
                    smt::symbol(&v.name, true),
                    v.sort.smt()
                );
            }
        }
    }

    fn init(&self) -> String {
        let eqs: Vec<String> = self
            .program
            .variables
            .iter()
            .filter_map(|v| {
                v.init
                    .as_ref()
                    .map(|i| format!("(= {} {i})", smt::symbol(&v.name, false)))
            })
            .collect();
        smt::and(&eqs)
    }

    /// The script of an obligation.
    #[allow(clippy::many_single_char_names)] // c, t, m: component, transition, meaning, as in the docs
    fn script(&self, o: &Obligation) -> Result<String, String> {
        let mut out = String::new();
        match o {
            Obligation::Initial { component, .. } => {
                let c = self.comp(component)?;
                self.header(&mut out, &format!("initial states of {component}"), false);
                let mut options = Vec::new();
                for &s in &self.ev.components[c].initial {
                    options.push(self.valuation(c, self.meaning(c, s)?, false)?);
                }
                let _ = writeln!(out, "(assert {})", self.init());
                let _ = writeln!(out, "(assert (not {}))", smt::or(&options));
            }
            Obligation::SharedInitial { shared, .. } => {
                let p = self
                    .ev
                    .predicates
                    .shared
                    .get(*shared)
                    .ok_or_else(|| format!("there is no shared predicate {shared}"))?;
                let value = self
                    .ev
                    .shared
                    .get(*shared)
                    .map(|s| s.lts.initial == 0)
                    .ok_or_else(|| format!("there is no shared process {shared}"))?;
                self.header(
                    &mut out,
                    &format!("initial value of shared predicate {shared}"),
                    false,
                );
                let _ = writeln!(out, "(assert {})", self.init());
                let _ = writeln!(out, "(assert {})", smt::literal(p, !value));
            }
            Obligation::Transition {
                component,
                state,
                transition,
                kept,
                ..
            } => {
                let c = self.comp(component)?;
                let comp = &self.program.components[c];
                let t = comp
                    .transitions
                    .get(*transition)
                    .ok_or_else(|| format!("{component} has no transition {transition}"))?;
                let m = self.meaning(c, *state)?;
                let loc = |l: usize| comp.locations.get(l).map_or("?", String::as_str);
                self.header(
                    &mut out,
                    &format!(
                        "transition {transition} of {component} ({} -> {} on {}) from abstract state {state}",
                        loc(t.from),
                        loc(t.to),
                        t.label
                    ),
                    true,
                );
                let _ = writeln!(out, "(assert {})", self.valuation(c, m, false)?);
                let _ = writeln!(out, "(assert {})", t.guard);
                let havoc = self.havoc(c, &t.label);
                for v in &self.program.variables {
                    let next = smt::symbol(&v.name, true);
                    match t.updates.iter().find(|(x, _)| *x == v.name) {
                        Some((_, e)) => {
                            let _ = writeln!(out, "(assert (= {next} {e}))");
                        }
                        None if havoc.contains(v.name.as_str()) => {}
                        None => {
                            let _ = writeln!(
                                out,
                                "(assert (= {next} {}))",
                                smt::symbol(&v.name, false)
                            );
                        }
                    }
                }
                let responsible = self.owner.get(t.label.as_str()).is_none_or(|&d| d == c);
                let mut options = Vec::new();
                for (label, target) in kept {
                    let mut parts = vec![self.valuation(c, self.meaning(c, *target)?, true)?];
                    if responsible {
                        parts.extend(self.shared_step(label));
                    }
                    options.push(smt::and(&parts));
                }
                let _ = writeln!(out, "(assert (not {}))", smt::or(&options));
            }
        }
        out.push_str("(check-sat)\n");
        Ok(out)
    }

    /// Variables that other components' transitions with this label write.
    fn havoc(&self, c: usize, label: &str) -> BTreeSet<&'a str> {
        self.program
            .components
            .iter()
            .enumerate()
            .filter(|&(d, _)| d != c)
            .flat_map(|(_, d)| d.transitions.iter())
            .filter(|t| t.label == label)
            .flat_map(|t| t.updates.iter().map(|(x, _)| x.as_str()))
            .collect()
    }

    /// What a step labelled `label` says about the shared predicates: a variant's pre and post
    /// values, and every shared predicate it does not write keeps its value.
    fn shared_step(&self, label: &str) -> Vec<String> {
        let shared = &self.ev.predicates.shared;
        let mut parts = Vec::new();
        let mut written = BTreeSet::new();
        if let Some(&i) = self.variant.get(label) {
            let v = &self.ev.variants[i];
            for &(k, b) in &v.pre {
                parts.push(smt::literal(&shared[k], b));
            }
            for &(k, b) in &v.post {
                parts.push(smt::literal(&smt::post(&shared[k]), b));
                written.insert(k);
            }
        }
        for (k, p) in shared.iter().enumerate() {
            if !written.contains(&k) {
                parts.push(format!("(= {} {})", smt::post(p), p));
            }
        }
        parts
    }

    /// The base label of a label (a variant's base, or itself).
    fn base(&self, label: &'a str) -> &'a str {
        self.variant
            .get(label)
            .map_or(label, |&i| self.ev.variants[i].base.as_str())
    }

    /// The variants of `base` that components other than `c` own.
    fn foreign_variants(&self, c: usize, base: &str) -> Vec<&'a str> {
        match (self.owner.get(base), self.by_base.get(base)) {
            (Some(&d), Some(vs)) if d != c => vs
                .iter()
                .map(|&i| self.ev.variants[i].name.as_str())
                .collect(),
            _ => Vec::new(),
        }
    }

    /// Every variant of `base`.
    fn all_variants(&self, base: &str) -> Vec<&'a str> {
        self.by_base.get(base).map_or_else(Vec::new, |vs| {
            vs.iter()
                .map(|&i| self.ev.variants[i].name.as_str())
                .collect()
        })
    }
}

/// A predicate at the pre- or post-state.
fn at(p: &str, post: bool) -> String {
    if post { smt::post(p) } else { p.to_owned() }
}

type Edges = BTreeSet<(u64, String, u64)>;

/// The LTS of an abstract LTS's data, or why it is malformed.
fn lts_of(a: &AbstractLts) -> Result<Lts, String> {
    let n = a.lts.states;
    if n == 0 || n > 1 << 26 {
        return Err(format!("{}: {n} states", a.name));
    }
    let state = |s: u64| {
        (s < n)
            .then(|| StateId::must(s as usize))
            .ok_or_else(|| format!("{}: {s} is not a state", a.name))
    };
    let mut b = LtsBuilder::new();
    b.ensure_states(n as usize).map_err(|e| e.to_string())?;
    let mut declared = BTreeSet::new();
    for x in &a.alphabet {
        if x == "tau" || !declared.insert(x.as_str()) {
            return Err(format!(
                "{}: the alphabet declares {x:?} twice or declares tau",
                a.name
            ));
        }
        b.action(x).map_err(|e| e.to_string())?;
    }
    for (s, x, t) in &a.lts.transitions {
        if !declared.contains(x.as_str()) {
            return Err(format!(
                "{}: a transition uses {x:?}, which the alphabet does not declare",
                a.name
            ));
        }
        b.add_transition_named(state(*s)?, x, state(*t)?)
            .map_err(|e| e.to_string())?;
    }
    b.set_initial(state(a.lts.initial)?)
        .map_err(|e| e.to_string())?;
    if let Some(e) = a.error {
        b.set_error(state(e)?).map_err(|e| e.to_string())?;
    }
    b.build().map_err(|e| e.to_string())
}

fn edges_of(a: &AbstractLts) -> Edges {
    a.lts.transitions.iter().cloned().collect()
}

fn alphabet_of(a: &AbstractLts) -> BTreeSet<&str> {
    a.alphabet.iter().map(String::as_str).collect()
}

/// The first difference between an LTS's edges and the expected ones.
fn compare_edges(name: &str, actual: &Edges, expected: &Edges) -> Result<(), Rejection> {
    if let Some((s, a, t)) = actual.difference(expected).next() {
        return Err(abstraction(format!(
            "{name} has the transition ({s}, {a}, {t}), which no kept transition gives"
        )));
    }
    if let Some((s, a, t)) = expected.difference(actual).next() {
        return Err(abstraction(format!(
            "{name} lacks the transition ({s}, {a}, {t}), which the kept transitions give"
        )));
    }
    Ok(())
}

fn compare_alphabet(
    name: &str,
    actual: &BTreeSet<&str>,
    expected: &BTreeSet<&str>,
) -> Result<(), Rejection> {
    if actual != expected {
        let extra: Vec<&&str> = actual.difference(expected).collect();
        let missing: Vec<&&str> = expected.difference(actual).collect();
        return Err(abstraction(format!(
            "the alphabet of {name} is not the program's: extra {extra:?}, missing {missing:?}"
        )));
    }
    Ok(())
}

/// Describes obligation `i` for a rejection.
fn describe(i: usize, o: &Obligation) -> String {
    match o {
        Obligation::Initial { component, .. } => format!("{i} (initial, {component})"),
        Obligation::SharedInitial { shared, .. } => {
            format!("{i} (shared-initial, predicate {shared})")
        }
        Obligation::Transition {
            component,
            state,
            transition,
            ..
        } => format!("{i} (transition {transition} of {component} from state {state})"),
    }
}

/// Everything but the premises of the inner certificate and the solver's answers; then those.
/// The outer `Result` is for what cannot be interpreted, the inner one for a rejection.
fn check_evidence(
    cert: &Certificate,
    program: &ProgramModel,
    solver: &Solver,
    report: &mut Report,
) -> Result<Result<(), Rejection>, CertifyError> {
    let (top, print) = program_print(program);
    if let Err(r) = compare_print(cert, &top, &print, "program") {
        return Ok(Err(r));
    }
    if cert.verdict != VerdictKind::Holds
        || cert.counterexample.is_some()
        || !cert.premises.is_empty()
    {
        return Ok(Err(Rejection::Rule {
            rule: "program".to_owned(),
            reason: "version 1 certifies a program's holds only, by its program evidence (no premises, no counterexample)".to_owned(),
        }));
    }
    let Some(ev) = cert.program.as_deref() else {
        return Ok(Err(Rejection::Rule {
            rule: "program".to_owned(),
            reason: "the certificate has no program evidence".to_owned(),
        }));
    };
    let view = match View::new(program, ev) {
        Ok(v) => v,
        Err(reason) => return Ok(Err(abstraction(reason))),
    };
    let scripts = match structure(&view) {
        Ok(s) => s,
        Err(r) => return Ok(Err(r)),
    };
    // The abstract check, by the checker's own explorer.
    let mut model = Model::new();
    for a in ev.components.iter().map(|c| &c.lts).chain(&ev.shared) {
        match lts_of(a) {
            Ok(l) => model = model.component(a.name.clone(), l),
            Err(reason) => return Ok(Err(abstraction(reason))),
        }
    }
    for a in &ev.properties {
        match lts_of(a) {
            Ok(l) => model = model.property(a.name.clone(), l),
            Err(reason) => return Ok(Err(abstraction(reason))),
        }
    }
    if ev.inner.verdict != VerdictKind::Holds {
        return Ok(Err(Rejection::AbstractCheck(Box::new(Rejection::Rule {
            rule: ev.inner.rule.name().to_owned(),
            reason: "the abstract check must be a holds".to_owned(),
        }))));
    }
    let inner = check(&ev.inner, &model)?;
    report.premises_checked = inner.premises_checked;
    report.states = inner.states;
    if let Outcome::Rejected(r) = inner.outcome {
        return Ok(Err(Rejection::AbstractCheck(Box::new(r))));
    }
    // The obligations, by the solver.
    let answers = solver
        .discharge(&scripts)
        .map_err(|reason| CertifyError::Solver {
            command: solver.name(),
            reason,
        })?;
    report.obligations = scripts.len();
    report.backend = Some(solver.name());
    for (i, (o, a)) in ev.obligations.iter().zip(answers).enumerate() {
        let reason = match a {
            Answer::Unsat => continue,
            Answer::Sat => match o {
                Obligation::Transition { .. } => "the solver answered sat: a concrete step from this abstract state leaves every kept transition".to_owned(),
                Obligation::Initial { .. } => "the solver answered sat: a concrete initial state lies in no abstract initial state".to_owned(),
                Obligation::SharedInitial { .. } => "the solver answered sat: the predicate's initial value is not the one its process starts in".to_owned(),
            },
            Answer::Other(text) => format!("the solver did not answer unsat: {text}"),
        };
        return Ok(Err(Rejection::Obligation {
            what: describe(i, o),
            reason,
        }));
    }
    Ok(Ok(()))
}

/// The obligations of a certificate by what they are about: a component's initial states, a
/// shared predicate's initial value, a (component, abstract state, transition) step.
struct ObligationKeys {
    initial: BTreeMap<usize, usize>,
    shared: BTreeMap<usize, usize>,
    step: BTreeMap<(usize, u64, usize), usize>,
}

/// Checks the abstract system against the program and the obligations, and returns the scripts
/// to discharge (the certificate's, once each is found equal to the derived one). One step per
/// part of the abstract system, in the documented order.
fn structure(view: &View<'_>) -> Result<Vec<String>, Rejection> {
    let (program, ev) = (view.program, view.ev);
    check_predicates(view)?;
    let keys = obligation_keys(view)?;
    let mut expected_obligations = keys.initial.len() + keys.shared.len();
    for (c, (comp, ac)) in program.components.iter().zip(&ev.components).enumerate() {
        let hub = check_component_states(view, c, comp, ac, &keys)?;
        let own = kept_edges(view, c, comp, ac, &keys, &mut expected_obligations)?;
        check_component_edges(view, c, ac, hub, &own)?;
    }
    check_shared_processes(view, &keys)?;
    check_properties(view)?;
    if expected_obligations != ev.obligations.len() {
        return Err(abstraction("an obligation names a pair of abstract state and transition the abstraction does not have".to_owned()));
    }
    derived_scripts(view)
}

/// Predicates: valid terms over declared variables; local ones not written behind the
/// component's back.
fn check_predicates(view: &View<'_>) -> Result<(), Rejection> {
    let (program, ev) = (view.program, view.ev);
    let declared: BTreeSet<&str> = program.variables.iter().map(|v| v.name.as_str()).collect();
    let predicate = |p: &str| -> Result<(), Rejection> {
        smt::validate_term(p).map_err(|e| abstraction(format!("predicate: {e}")))?;
        match smt::variables(p)
            .into_iter()
            .find(|x| !declared.contains(x.as_str()))
        {
            Some(x) => Err(abstraction(format!(
                "the predicate {p:?} uses the undeclared variable {x:?}"
            ))),
            None => Ok(()),
        }
    };
    for p in &ev.predicates.shared {
        predicate(p)?;
    }
    for (c, preds) in ev.predicates.local.iter().enumerate() {
        let labels = program.components[c].labels();
        let foreign: BTreeSet<&str> = program
            .components
            .iter()
            .enumerate()
            .filter(|&(d, _)| d != c)
            .flat_map(|(_, d)| d.transitions.iter())
            .filter(|t| !labels.contains(t.label.as_str()))
            .flat_map(|t| t.updates.iter().map(|(x, _)| x.as_str()))
            .collect();
        for p in preds {
            predicate(p)?;
            if let Some(x) = smt::variables(p)
                .into_iter()
                .find(|x| foreign.contains(x.as_str()))
            {
                return Err(abstraction(format!(
                    "the local predicate {p:?} of {} reads {x:?}, which other components write in steps {} does not take part in",
                    program.components[c].name, program.components[c].name
                )));
            }
        }
    }
    Ok(())
}

/// The certificate's obligations by key, each listed once.
fn obligation_keys(view: &View<'_>) -> Result<ObligationKeys, Rejection> {
    let ev = view.ev;
    let mut initial_of: BTreeMap<usize, usize> = BTreeMap::new();
    let mut shared_of: BTreeMap<usize, usize> = BTreeMap::new();
    let mut step_of: BTreeMap<(usize, u64, usize), usize> = BTreeMap::new();
    for (i, o) in ev.obligations.iter().enumerate() {
        let fresh = match o {
            Obligation::Initial { component, .. } => {
                let c = view
                    .comp(component)
                    .map_err(|reason| Rejection::Obligation {
                        what: describe(i, o),
                        reason,
                    })?;
                initial_of.insert(c, i).is_none()
            }
            Obligation::SharedInitial { shared, .. } => shared_of.insert(*shared, i).is_none(),
            Obligation::Transition {
                component,
                state,
                transition,
                ..
            } => {
                let c = view
                    .comp(component)
                    .map_err(|reason| Rejection::Obligation {
                        what: describe(i, o),
                        reason,
                    })?;
                step_of.insert((c, *state, *transition), i).is_none()
            }
        };
        if !fresh {
            return Err(Rejection::Obligation {
                what: describe(i, o),
                reason: "the certificate lists this obligation twice".to_owned(),
            });
        }
    }
    Ok(ObligationKeys {
        initial: initial_of,
        shared: shared_of,
        step: step_of,
    })
}

/// Abstract component `c`: its name, alphabet, what each state stands for, its error state and
/// its initial states; returns whether its initial state is a hub.
fn check_component_states(
    view: &View<'_>,
    c: usize,
    comp: &ProgramComponent,
    ac: &AbstractComponent,
    keys: &ObligationKeys,
) -> Result<bool, Rejection> {
    let ev = view.ev;
    let initial_of = &keys.initial;
    let name = &comp.name;
    if ac.lts.name != *name {
        return Err(abstraction(format!(
            "abstract component {c} is named {:?}, not {name:?}",
            ac.lts.name
        )));
    }
    lts_of(&ac.lts).map_err(abstraction)?;
    let labels = comp.labels();
    let mut alphabet: BTreeSet<&str> = labels.clone();
    for l in &labels {
        alphabet.extend(view.all_variants(l));
    }
    compare_alphabet(name, &alphabet_of(&ac.lts), &alphabet)?;
    if ac.states.len() as u64 != ac.lts.lts.states {
        return Err(abstraction(format!(
            "{name}: {} meanings for {} states",
            ac.states.len(),
            ac.lts.lts.states
        )));
    }
    let n_local = ev.predicates.local[c].len();
    for (s, m) in ac.states.iter().enumerate() {
        let s = s as u64;
        match m {
            StateMeaning::At {
                location,
                valuation,
            } => {
                if *location >= comp.locations.len()
                    || comp.errors.contains(location)
                    || valuation.len() != n_local
                {
                    return Err(abstraction(format!(
                        "{name}: state {s} stands for no location and valuation of it"
                    )));
                }
            }
            StateMeaning::Hub => {
                if s != ac.lts.lts.initial {
                    return Err(abstraction(format!(
                        "{name}: the hub {s} is not the initial state"
                    )));
                }
            }
            StateMeaning::Error => {
                if ac.lts.error != Some(s) {
                    return Err(abstraction(format!(
                        "{name}: state {s} stands for an error location but is not the error state"
                    )));
                }
            }
        }
    }
    if let Some(e) = ac.lts.error
        && view.meaning(c, e).ok() != Some(&StateMeaning::Error)
    {
        return Err(abstraction(format!(
            "{name}: the error state {e} stands for no error location"
        )));
    }
    let at_location = |s: u64, l: usize| stands_for(view, c, comp, s, l);
    let hub = matches!(view.meaning(c, ac.lts.lts.initial), Ok(StateMeaning::Hub));
    let starts_right = if hub {
        !ac.initial.is_empty() && ac.initial.iter().all(|&s| at_location(s, comp.initial))
    } else {
        ac.initial == [ac.lts.lts.initial] && at_location(ac.lts.lts.initial, comp.initial)
    };
    if !starts_right {
        return Err(abstraction(format!(
            "{name}: the initial states do not stand for the initial location"
        )));
    }
    if !initial_of.contains_key(&c) {
        return Err(Rejection::Obligation {
            what: format!("initial, {name}"),
            reason: "missing".to_owned(),
        });
    }
    Ok(hub)
}

/// Whether abstract state `s` of component `c` stands for location `l` of `comp`.
fn stands_for(view: &View<'_>, c: usize, comp: &ProgramComponent, s: u64, l: usize) -> bool {
    match view.meaning(c, s) {
        Ok(StateMeaning::At { location, .. }) => *location == l && !comp.errors.contains(&l),
        Ok(StateMeaning::Error) => comp.errors.contains(&l),
        _ => false,
    }
}

/// The transitions the obligations of component `c` keep, as edges of its abstraction; counts
/// each transition obligation it meets into `expected_obligations`.
fn kept_edges(
    view: &View<'_>,
    c: usize,
    comp: &ProgramComponent,
    ac: &AbstractComponent,
    keys: &ObligationKeys,
    expected_obligations: &mut usize,
) -> Result<Edges, Rejection> {
    let ev = view.ev;
    let name = &comp.name;
    let step_of = &keys.step;
    let at_location = |s: u64, l: usize| stands_for(view, c, comp, s, l);
    // The kept transitions, and the edges they give.
    let mut own: Edges = BTreeSet::new();
    for (s, m) in ac.states.iter().enumerate() {
        let StateMeaning::At { location, .. } = m else {
            continue;
        };
        let s = s as u64;
        for (ti, t) in comp.transitions.iter().enumerate() {
            if t.from != *location {
                continue;
            }
            let Some(&i) = step_of.get(&(c, s, ti)) else {
                return Err(Rejection::Obligation {
                    what: format!("transition {ti} of {name} from state {s}"),
                    reason: "missing".to_owned(),
                });
            };
            *expected_obligations += 1;
            let Obligation::Transition { kept, .. } = &ev.obligations[i] else {
                continue;
            };
            for (label, target) in kept {
                let own_label = *label == t.label
                    || view.variant.get(label.as_str()).is_some_and(|&v| {
                        ev.variants[v].base == t.label
                            && view.owner.get(t.label.as_str()) == Some(&c)
                    });
                if !own_label {
                    return Err(Rejection::Obligation {
                        what: describe(i, &ev.obligations[i]),
                        reason: format!(
                            "the kept label {label:?} is neither {:?} nor a variant of it",
                            t.label
                        ),
                    });
                }
                if !at_location(*target, t.to) {
                    return Err(Rejection::Obligation {
                        what: describe(i, &ev.obligations[i]),
                        reason: format!(
                            "the kept target {target} does not stand for location {}",
                            t.to
                        ),
                    });
                }
                own.insert((s, label.clone(), *target));
            }
        }
    }
    Ok(own)
}

/// The edges of abstract component `c`: the kept ones, their foreign variants, and the hub's
/// copies of the initial states' edges.
fn check_component_edges(
    view: &View<'_>,
    c: usize,
    ac: &AbstractComponent,
    hub: bool,
    own: &Edges,
) -> Result<(), Rejection> {
    let name = &view.program.components[c].name;
    let mut expected = own.clone();
    for (s, label, t) in own {
        for v in view.foreign_variants(c, view.base(label)) {
            if label == view.base(label) {
                expected.insert((*s, v.to_owned(), *t));
            }
        }
    }
    if hub {
        let from_initial: Vec<(String, u64)> = expected
            .iter()
            .filter(|(s, _, _)| ac.initial.contains(s))
            .map(|(_, a, t)| (a.clone(), *t))
            .collect();
        for (a, t) in from_initial {
            expected.insert((ac.lts.lts.initial, a, t));
        }
    }
    compare_edges(name, &edges_of(&ac.lts), &expected)?;
    Ok(())
}

/// Shared-predicate processes: one per shared predicate, two or three states, moved by the
/// variants that test or set it.
fn check_shared_processes(view: &View<'_>, keys: &ObligationKeys) -> Result<(), Rejection> {
    let ev = view.ev;
    let shared_of = &keys.shared;
    if ev.shared.len() != ev.predicates.shared.len() {
        return Err(abstraction(format!(
            "{} shared processes for {} shared predicates",
            ev.shared.len(),
            ev.predicates.shared.len()
        )));
    }
    for (k, sp) in ev.shared.iter().enumerate() {
        lts_of(sp).map_err(abstraction)?;
        let (n, init) = (sp.lts.states, sp.lts.initial);
        if sp.error.is_some() || !(n == 2 && init < 2 || n == 3 && init == 2) {
            return Err(abstraction(format!(
                "the process of shared predicate {k} has {n} states, initial {init}"
            )));
        }
        let mut alphabet = BTreeSet::new();
        let mut expected: Edges = BTreeSet::new();
        let state = |b: bool| u64::from(!b);
        for v in &ev.variants {
            let pre = v.pre.iter().find(|x| x.0 == k).map(|x| x.1);
            let post = v.post.iter().find(|x| x.0 == k).map(|x| x.1);
            let (froms, to): (&[bool], bool) = match (pre, post) {
                (Some(b), post) => (if b { &[true] } else { &[false] }, post.unwrap_or(b)),
                (None, Some(b)) => (&[true, false], b),
                (None, None) => continue,
            };
            alphabet.insert(v.name.as_str());
            for &f in froms {
                expected.insert((state(f), v.name.clone(), state(to)));
            }
            if n == 3 {
                expected.insert((2, v.name.clone(), state(to)));
            }
        }
        compare_alphabet(&sp.name, &alphabet_of(sp), &alphabet)?;
        compare_edges(&sp.name, &edges_of(sp), &expected)?;
        if (init < 2) != shared_of.contains_key(&k) {
            return Err(Rejection::Obligation {
                what: format!("shared-initial, predicate {k}"),
                reason: if init < 2 {
                    "missing"
                } else {
                    "its process starts in the unknown state"
                }
                .to_owned(),
            });
        }
    }
    if shared_of.keys().any(|&k| k >= ev.shared.len()) {
        return Err(abstraction(
            "an obligation names a shared predicate that does not exist".to_owned(),
        ));
    }
    Ok(())
}

/// Properties: the program's, with copies under the variants.
fn check_properties(view: &View<'_>) -> Result<(), Rejection> {
    let (program, ev) = (view.program, view.ev);
    if ev.properties.len() != program.properties.len() {
        return Err(abstraction(format!(
            "{} abstract properties for {} properties",
            ev.properties.len(),
            program.properties.len()
        )));
    }
    for (p, ap) in program.properties.iter().zip(&ev.properties) {
        if ap.name != p.name {
            return Err(abstraction(format!(
                "abstract property {:?} is not {:?}",
                ap.name, p.name
            )));
        }
        let mut alphabet: BTreeSet<&str> = p.lts.alphabet().iter().map(|(_, a)| a).collect();
        for (_, a) in p.lts.alphabet().iter() {
            alphabet.extend(view.all_variants(a));
        }
        compare_alphabet(&p.name, &alphabet_of(ap), &alphabet)?;
        let mut expected: Edges = BTreeSet::new();
        for t in p.lts.transitions() {
            let a = p.lts.action_name(t.action);
            let (s, d) = (u64::from(t.source.as_u32()), u64::from(t.target.as_u32()));
            expected.insert((s, a.to_owned(), d));
            for v in view.all_variants(a) {
                expected.insert((s, v.to_owned(), d));
            }
        }
        let same = ap.lts.states == p.lts.num_states() as u64
            && ap.lts.initial == u64::from(p.lts.initial().as_u32())
            && ap.error == p.lts.error_state().map(|e| u64::from(e.as_u32()));
        if !same {
            return Err(abstraction(format!(
                "{}: not the program's property (states, initial or error state)",
                p.name
            )));
        }
        compare_edges(&p.name, &edges_of(ap), &expected)?;
    }
    Ok(())
}

/// The scripts, each equal to the one derived from the program and the abstraction.
fn derived_scripts(view: &View<'_>) -> Result<Vec<String>, Rejection> {
    let ev = view.ev;
    let mut scripts = Vec::with_capacity(ev.obligations.len());
    for (i, o) in ev.obligations.iter().enumerate() {
        let derived = view.script(o).map_err(|reason| Rejection::Obligation {
            what: describe(i, o),
            reason,
        })?;
        if derived != o.script() {
            return Err(Rejection::Obligation {
                what: describe(i, o),
                reason: "the script is not the one the checker derives from the program and the abstraction".to_owned(),
            });
        }
        scripts.push(derived);
    }
    Ok(scripts)
}

//! The certificate format, version 1, as Rust types (serde, JSON).
//!
//! The checker owns the format: producers (the facade, or any other tool) build these plain values
//! and serialise them with [`Certificate::to_json`]; [`Certificate::from_json`] reads them back.
//! docs/formats.md ("Certificates (version 1)") is the normative description; the short version:
//!
//! ```json
//! {
//!   "format": "guarantor-certificate",
//!   "version": 1,
//!   "verdict": "holds",
//!   "rule": "asym",
//!   "fingerprint": "…16 hex digits…",
//!   "model": {
//!     "components": [{"name": "Input", "fingerprint": "..."}, {"name": "Output", "fingerprint": "..."}],
//!     "properties": [{"name": "Order", "fingerprint": "..."}]
//!   },
//!   "transformations": [],
//!   "assumptions": [{
//!     "components": ["Output"], "role": "assumption", "alphabet": ["send", "output", "ack"],
//!     "lts": {"states": 2, "initial": 0, "transitions": [[0, "send", 1], [1, "output", 1]]}
//!   }],
//!   "premises": [
//!     {"kind": "triple", "assumptions": [0], "components": ["Input"], "guarantee": {"properties": ["Order"]}},
//!     {"kind": "triple", "assumptions": [], "components": ["Output"], "guarantee": {"assumption": 0}}
//!   ]
//! }
//! ```
//!
//! Every type here is `#[non_exhaustive]` so that later versions can add fields and kinds; build
//! them with the constructors. Unknown fields are rejected when reading (`deny_unknown_fields`), so
//! a certificate written by a newer producer is refused rather than half-read.

use serde::{Deserialize, Serialize};

/// The value of the top-level `"format"` field.
pub const FORMAT: &str = "guarantor-certificate";

/// The format version this crate writes and checks.
pub const VERSION: u32 = 1;

/// A certificate: everything needed to re-check a verdict without the method that produced it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct Certificate {
    /// Always [`FORMAT`].
    pub format: String,
    /// The format version ([`VERSION`]).
    pub version: u32,
    /// What the certificate claims.
    pub verdict: VerdictKind,
    /// The proof rule whose premises are listed (for a violation: the method that found it).
    pub rule: Rule,
    /// The fingerprint of the whole model (see [`crate::fingerprint`]): 16 lowercase hex digits.
    pub fingerprint: String,
    /// The fingerprint of each component and property, by name.
    pub model: ModelPrint,
    /// Rewritings applied to the model before the rule, in order.
    #[serde(default)]
    pub transformations: Vec<Transformation>,
    /// The assumptions (and guarantees) the premises refer to, by index.
    #[serde(default)]
    pub assumptions: Vec<Assumption>,
    /// The premises of the rule, each checked on its own.
    #[serde(default)]
    pub premises: Vec<Premise>,
    /// For a `violated` certificate: the run that violates.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counterexample: Option<Counterexample>,
    /// For rule `program`: the predicates, the abstract system, the abstraction's proof
    /// obligations and the certificate of the abstract system's check.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub program: Option<Box<ProgramEvidence>>,
}

impl Certificate {
    /// An empty certificate of the current format and version for `verdict` by `rule`, with the
    /// model's fingerprints (see [`crate::fingerprint::model_print`]). Add the rest with the
    /// `with_*` methods or by pushing onto the public fields.
    pub fn new(verdict: VerdictKind, rule: Rule, fingerprint: String, model: ModelPrint) -> Self {
        Self {
            format: FORMAT.to_owned(),
            version: VERSION,
            verdict,
            rule,
            fingerprint,
            model,
            transformations: Vec::new(),
            assumptions: Vec::new(),
            premises: Vec::new(),
            counterexample: None,
            program: None,
        }
    }

    /// Adds a transformation.
    #[must_use]
    pub fn with_transformation(mut self, t: Transformation) -> Self {
        self.transformations.push(t);
        self
    }

    /// Adds an assumption; premises refer to it by its index (the number of assumptions before it).
    #[must_use]
    pub fn with_assumption(mut self, a: Assumption) -> Self {
        self.assumptions.push(a);
        self
    }

    /// Adds a premise.
    #[must_use]
    pub fn with_premise(mut self, p: Premise) -> Self {
        self.premises.push(p);
        self
    }

    /// Sets the counterexample (for a `violated` certificate).
    #[must_use]
    pub fn with_counterexample(mut self, c: Counterexample) -> Self {
        self.counterexample = Some(c);
        self
    }

    /// Sets the program evidence (for rule `program`).
    #[must_use]
    pub fn with_program(mut self, p: ProgramEvidence) -> Self {
        self.program = Some(Box::new(p));
        self
    }

    /// The certificate as pretty-printed JSON.
    ///
    /// # Errors
    /// Only if `serde_json` fails, which it does not for these types.
    pub fn to_json(&self) -> Result<String, serde_json::Error> {
        serde_json::to_string_pretty(self)
    }

    /// Reads a certificate from JSON. Only the syntax is checked here; [`crate::check()`] checks the
    /// rest (format, version, fingerprints, premises).
    ///
    /// # Errors
    /// Malformed JSON, a missing field, an unknown field or kind.
    pub fn from_json(text: &str) -> Result<Self, serde_json::Error> {
        serde_json::from_str(text)
    }
}

/// What a certificate claims.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum VerdictKind {
    /// Every property holds and no component reaches its `ERROR` state.
    Holds,
    /// The counterexample violates a property, reaches an `ERROR` state, or deadlocks.
    Violated,
}

/// The proof rule of a `holds` certificate (for `violated`, the method that found the run).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Rule {
    /// The whole composition against the properties: one `monolithic` premise.
    Mono,
    /// Rule ASYM (Cobleigh et al. 2003): `<A> M1 <P>` and `<true> M2 <A>`.
    Asym,
    /// ASYM applied recursively: one assumption per level.
    AsymN,
    /// ASYM recursively with computed (weakest) assumptions; same premises as `asym-n`.
    Weakest,
    /// Rule SYM (Chaki et al. 2004): `<Ai> Mi <P>` for every i and the inclusion of the
    /// complements' product in `P`.
    Sym,
    /// CIRC-AG_N (Elkader et al. 2016): circular premises `Mi |= Gi > gi` and `g |= P`.
    Circ,
    /// A component replaced by its quotient (Finkbeiner, Schewe, Brill 2006): a homomorphism and
    /// a triple with the quotient as assumption.
    Quotient,
    /// A guarded-command program checked by predicate abstraction: the abstraction's proof
    /// obligations (SMT-LIB2, discharged by an SMT solver) and a certificate of the abstract
    /// system's check ([`ProgramEvidence`]); checked by [`crate::program::check_program`] against
    /// the program.
    Program,
    /// Compositional minimisation: a tree of `reduction` premises, each a part (a component, a
    /// property's error form, or the product of two earlier parts) with some actions hidden,
    /// mapped onto a smaller LTS; the last part reaches no error, and with a `no-deadlock`
    /// premise has no deadlock ([`crate::reduction`]).
    Reduce,
}

impl Rule {
    /// The name as written in the JSON.
    pub fn name(self) -> &'static str {
        match self {
            Self::Mono => "mono",
            Self::Asym => "asym",
            Self::AsymN => "asym-n",
            Self::Weakest => "weakest",
            Self::Sym => "sym",
            Self::Circ => "circ",
            Self::Quotient => "quotient",
            Self::Program => "program",
            Self::Reduce => "reduce",
        }
    }
}

/// The fingerprints of the model's parts, by name.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct ModelPrint {
    /// One entry per component, in the model's order.
    pub components: Vec<Named>,
    /// One entry per property, in the model's order.
    pub properties: Vec<Named>,
}

impl ModelPrint {
    /// A model print from its two lists.
    pub fn new(components: Vec<Named>, properties: Vec<Named>) -> Self {
        Self {
            components,
            properties,
        }
    }
}

/// A name with the fingerprint of its LTS.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct Named {
    /// The component's or property's name.
    pub name: String,
    /// Its fingerprint: 16 lowercase hex digits (see [`crate::fingerprint`]).
    pub fingerprint: String,
}

impl Named {
    /// A name and a fingerprint.
    pub fn new(name: impl Into<String>, fingerprint: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            fingerprint: fingerprint.into(),
        }
    }
}

/// A rewriting of the model applied before the rule. Each adds derived components or properties
/// that premises may name; the checker builds them itself from the model, so a transformation is
/// never trusted, only replayed. All three preserve the verdict (docs/formats.md says why).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
#[non_exhaustive]
pub enum Transformation {
    /// Component `component`'s `ERROR` state loses its moves and its error mark and gets one loop
    /// on the fresh action `action`; the result is the component `result`, which replaces
    /// `component` in the system. The property `property` (one state, alphabet `{action}`,
    /// offering nothing) is added to the properties: reaching `ERROR` becomes a violation of it.
    ErrorAsAction {
        /// The component with an `ERROR` state.
        component: String,
        /// The fresh action (in no alphabet of the model or of earlier transformations).
        action: String,
        /// The name of the rewritten component.
        result: String,
        /// The name of the forbidding property.
        property: String,
    },
    /// The properties `properties` are replaced by one property `result`, their composition.
    MergeProperties {
        /// The properties merged (at least one).
        properties: Vec<String>,
        /// The name of the merged property.
        result: String,
    },
    /// A component `result` with one state looping on every action of `actions` is added (circ's
    /// `env`, for property actions no component has). It never blocks a component.
    Environment {
        /// Its actions.
        actions: Vec<String>,
        /// Its name.
        result: String,
    },
}

/// What an assumption is in its rule (informational: the premises say how it is used).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Role {
    /// An assumption about the environment of a premise (ASYM, ASYM-N, SYM).
    Assumption,
    /// A guarantee of a component that other premises may assume (CIRC-AG_N).
    Guarantee,
    /// A quotient of a component (the quotient rule).
    Quotient,
    /// A failure assumption of the deadlock rule, read by its stable failures (tau steps are
    /// meaningful): the `deadlock-free` and `failure-refinement` premises use it.
    Failures,
}

/// One assumption: a safety LTS standing for some components.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct Assumption {
    /// The components (or derived components) it stands for: those of the premise that
    /// discharges it.
    pub components: Vec<String>,
    /// Its role in the rule.
    pub role: Role,
    /// Its declared alphabet (visible actions; no `"tau"`, no duplicates).
    pub alphabet: Vec<String>,
    /// The LTS. Every state accepts and none is an error state: rejecting sinks of learned DFAs
    /// are left out (a missing transition is a refusal).
    pub lts: LtsData,
}

impl Assumption {
    /// An assumption.
    pub fn new(components: Vec<String>, role: Role, alphabet: Vec<String>, lts: LtsData) -> Self {
        Self {
            components,
            role,
            alphabet,
            lts,
        }
    }
}

/// An LTS as plain data: exactly `{"states", "initial", "transitions"}` with transitions as
/// `[source, "action", target]` triples (`"tau"` is the internal action).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct LtsData {
    /// The number of states, numbered `0..states` (at least one).
    pub states: u64,
    /// The initial state.
    pub initial: u64,
    /// The transitions.
    pub transitions: Vec<(u64, String, u64)>,
}

impl LtsData {
    /// An LTS from its three fields.
    pub fn new(states: u64, initial: u64, transitions: Vec<(u64, String, u64)>) -> Self {
        Self {
            states,
            initial,
            transitions,
        }
    }

    /// The data of a `guarantor_lts::Lts` (its error state and accepting set are not kept: write
    /// the safety reading of an assumption, without rejecting states).
    pub fn from_lts(lts: &guarantor_lts::Lts) -> Self {
        Self {
            states: lts.num_states() as u64,
            initial: u64::from(lts.initial().as_u32()),
            transitions: lts
                .transitions()
                .map(|t| {
                    (
                        u64::from(t.source.as_u32()),
                        lts.action_name(t.action).to_owned(),
                        u64::from(t.target.as_u32()),
                    )
                })
                .collect(),
        }
    }
}

/// What a premise guarantees: properties of the model (or derived ones), or an assumption.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
#[non_exhaustive]
pub enum Guarantee {
    /// These properties, all at once (`{"properties": ["P", "Q"]}`).
    Properties(Vec<String>),
    /// The assumption with this index (`{"assumption": 0}`); it must be deterministic.
    Assumption(usize),
}

/// One premise of a rule. docs/formats.md gives the exact semantics of each kind.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
#[non_exhaustive]
pub enum Premise {
    /// The whole system (every component after the transformations) against every property:
    /// the triple `<true> C1 || .. || Cn <P1, .., Pk>`.
    Monolithic,
    /// `<A1 || .. || Aj> M1 || .. || Mm <G>`: in the composition of the components, the
    /// assumptions and the error LTS of the guarantee, no error state is reachable (the
    /// guarantee's pi, or a component's `ERROR`).
    Triple {
        /// Indices of the assumptions (empty: `true`).
        assumptions: Vec<usize>,
        /// Names of the components (may be empty: the assumptions alone imply the guarantee).
        components: Vec<String>,
        /// The guarantee.
        guarantee: Guarantee,
    },
    /// The circular premise `M |= G > g` of CIRC-AG_N: as a triple, but the last step of `M`
    /// need not be allowed by the assumptions (the `err_a` labelling).
    Circular {
        /// Indices of the assumptions `G` (other components' guarantees).
        assumptions: Vec<usize>,
        /// The components `M`.
        components: Vec<String>,
        /// Index of the guarantee `g` (deterministic, alphabet inside the components').
        guarantee: usize,
    },
    /// SYM's last premise: no word over the union of the alphabets is rejected by every
    /// assumption and violates the properties (`L(coA1 || .. || coAn) ⊆ L(P)`).
    Inclusion {
        /// Indices of the assumptions.
        assumptions: Vec<usize>,
        /// Names of the properties.
        properties: Vec<String>,
    },
    /// `classes` maps every state of `component` onto a state of assumption `assumption`,
    /// initial to initial and every transition onto a transition with the same action, so
    /// `L(component) ⊆ L(assumption)`.
    Homomorphism {
        /// The component replaced.
        component: String,
        /// Index of its quotient.
        assumption: usize,
        /// The class of each state of the component.
        classes: Vec<u64>,
    },
    /// Deadlock freedom of `components || assumption`: no reachable state of the composition
    /// without a move (tau included), where each component (of the model) also offers
    /// `end_action` as a self-loop at its end state and declares it in any case, so that a state
    /// where every component has terminated has a move when the assumption offers `end_action`
    /// too. The assumption is read in its failure reading (docs/formats.md).
    DeadlockFree {
        /// Index of the failure assumption.
        assumption: usize,
        /// The components (of the model).
        components: Vec<String>,
        /// The name that stands for termination (declared by no component of the model).
        end_action: String,
    },
    /// Stable-failures refinement on the assumption's alphabet: whenever `components` (with
    /// `end_action` as in `deadlock-free`, every action outside the assumption's alphabet
    /// hidden) can do a trace and reach a stable state (no tau, no hidden move) offering `Y`,
    /// the assumption can do the same trace and reach a stable state offering a subset of `Y`.
    FailureRefinement {
        /// Index of the failure assumption.
        assumption: usize,
        /// The components (of the model).
        components: Vec<String>,
        /// The name that stands for termination.
        end_action: String,
    },
    /// Rule `reduce`: the part `of`, with the actions `hidden` made internal, is mapped by `map`
    /// onto `result`, an LTS over `alphabet` (the part's visible actions minus `hidden`) with
    /// its error state and the states where the system may have ended (LTSA's `END` rule). The
    /// map sends the part's initial state to `result`'s, every step to a weak step on the same
    /// action (a hidden step to tau steps), the error to the error; under `no-deadlock` every
    /// stable state (no tau step) to a stable state offering the same actions and ended alike.
    /// So `result` has every run, error and deadlock of the part in any context
    /// ([`crate::reduction`] gives the argument).
    Reduction {
        /// What is reduced.
        of: Reduced,
        /// The actions made internal; none may be used by a component or property outside the
        /// part.
        hidden: Vec<String>,
        /// The visible alphabet of `result`.
        alphabet: Vec<String>,
        /// The smaller LTS.
        result: LtsData,
        /// Its error state, if the part can reach an error.
        error: Option<u64>,
        /// Its states where the system may have ended, ascending.
        ended: Vec<u64>,
        /// One entry per reachable, non-error state of the part: `[state, image]` for a
        /// component or property (the property's own states; its pi maps to the error), `[left,
        /// right, image]` for a pair (the states of the two earlier results).
        map: Vec<Vec<u64>>,
    },
    /// Rule `reduce`: the last `reduction`'s result has no deadlock (a reachable state without
    /// moves that is neither the error nor ended), so neither has the system.
    NoDeadlock,
}

/// What a `reduction` premise reduces.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
#[non_exhaustive]
pub enum Reduced {
    /// A component of the model, by name (`{"component": "P"}`).
    Component(String),
    /// The error form of a property of the model, by name (`{"property": "Safe"}`).
    Property(String),
    /// The product of the results of two earlier `reduction` premises, by index
    /// (`{"pair": [0, 3]}`).
    Pair([usize; 2]),
}

impl Premise {
    /// The kind as written in the JSON.
    pub fn kind(&self) -> &'static str {
        match self {
            Self::Monolithic => "monolithic",
            Self::Triple { .. } => "triple",
            Self::Circular { .. } => "circular",
            Self::Inclusion { .. } => "inclusion",
            Self::Homomorphism { .. } => "homomorphism",
            Self::Reduction { .. } => "reduction",
            Self::NoDeadlock => "no-deadlock",
            Self::DeadlockFree { .. } => "deadlock-free",
            Self::FailureRefinement { .. } => "failure-refinement",
        }
    }
}

/// A run of the model that violates, with every component's state after every step.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct Counterexample {
    /// The steps, tau steps included (a tau step moves one component).
    pub steps: Vec<Step>,
    /// What the run ends in.
    pub violation: ViolationClaim,
}

impl Counterexample {
    /// A counterexample.
    pub fn new(steps: Vec<Step>, violation: ViolationClaim) -> Self {
        Self { steps, violation }
    }
}

/// One step of a counterexample.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct Step {
    /// The action (`"tau"` for an internal step).
    pub action: String,
    /// The state of every component after the step, in the order of `model.components`.
    pub states: Vec<u64>,
    /// The components that take part in the step, by name, in the order of `model.components`:
    /// for a visible action every component whose alphabet has it, for `tau` the one component
    /// that moves. Optional (certificates written before it existed have none, and are read as
    /// before); when given, the checker checks it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub components: Vec<String>,
}

impl Step {
    /// A step.
    pub fn new(action: impl Into<String>, states: Vec<u64>) -> Self {
        Self {
            action: action.into(),
            states,
            components: Vec::new(),
        }
    }

    /// The same step, naming the components that take part in it.
    #[must_use]
    pub fn with_components(mut self, components: Vec<String>) -> Self {
        self.components = components;
        self
    }
}

/// What a counterexample's run ends in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
#[non_exhaustive]
pub enum ViolationClaim {
    /// The property (of the model) refuses the last step.
    Property {
        /// Its name.
        property: String,
    },
    /// The component is at its `ERROR` state after the last step.
    ErrorState {
        /// Its name.
        component: String,
    },
    /// No step is possible and not every component is at its end state.
    Deadlock,
}

/// The evidence of a `program` certificate: how the program was abstracted, the proof obligations
/// that make the abstraction sound, and the certificate of the abstract system's check.
/// docs/formats.md ("Programs") gives the exact meaning of each field and the shape of each
/// obligation's script.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct ProgramEvidence {
    /// The predicates, as SMT-LIB2 terms over the program's variables.
    pub predicates: PredicateData,
    /// One abstract LTS per program component, in program order.
    pub components: Vec<AbstractComponent>,
    /// One two-state process per shared predicate, in the order of `predicates.shared`.
    pub shared: Vec<AbstractLts>,
    /// The program's properties with copies of their edges under the variant labels.
    pub properties: Vec<AbstractLts>,
    /// The variant labels `base@n` of transitions that read or write shared predicates.
    #[serde(default)]
    pub variants: Vec<VariantData>,
    /// The proof obligations, each an SMT-LIB2 script that must be unsatisfiable.
    pub obligations: Vec<Obligation>,
    /// The certificate of the abstract system's check: its model is the abstract system
    /// (`components`, then `shared`, as components; `properties` as properties).
    pub inner: Box<Certificate>,
}

impl ProgramEvidence {
    /// Evidence from its parts; `obligations` may be left with empty scripts and filled with
    /// [`crate::program::fill_scripts`].
    #[allow(clippy::too_many_arguments)] // one argument per field of the format
    pub fn new(
        predicates: PredicateData,
        components: Vec<AbstractComponent>,
        shared: Vec<AbstractLts>,
        properties: Vec<AbstractLts>,
        variants: Vec<VariantData>,
        obligations: Vec<Obligation>,
        inner: Certificate,
    ) -> Self {
        Self {
            predicates,
            components,
            shared,
            properties,
            variants,
            obligations,
            inner: Box::new(inner),
        }
    }
}

/// The predicates of an abstraction: SMT-LIB2 boolean terms whose variables are the program's,
/// written as quoted symbols (`(<= |x| 3)`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct PredicateData {
    /// Predicates over global variables, each tracked by a process of its own.
    pub shared: Vec<String>,
    /// Per program component (in program order), the predicates tracked in its abstract states.
    pub local: Vec<Vec<String>>,
}

impl PredicateData {
    /// The predicates.
    pub fn new(shared: Vec<String>, local: Vec<Vec<String>>) -> Self {
        Self { shared, local }
    }
}

/// An LTS of the abstract system, with what plain [`LtsData`] does not say: its name, its
/// declared alphabet (actions it blocks without a transition count) and its error state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct AbstractLts {
    /// Its name in the abstract system (a program component's or property's name, or
    /// `[predicate]` for a shared predicate's process).
    pub name: String,
    /// The visible actions it declares (no `"tau"`).
    pub alphabet: Vec<String>,
    /// The error state, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<u64>,
    /// States, initial state and transitions.
    pub lts: LtsData,
}

impl AbstractLts {
    /// An abstract LTS.
    pub fn new(
        name: impl Into<String>,
        alphabet: Vec<String>,
        error: Option<u64>,
        lts: LtsData,
    ) -> Self {
        Self {
            name: name.into(),
            alphabet,
            error,
            lts,
        }
    }

    /// The data of a `guarantor_lts::Lts` named `name`.
    pub fn from_lts(name: impl Into<String>, lts: &guarantor_lts::Lts) -> Self {
        Self {
            name: name.into(),
            alphabet: lts.alphabet().iter().map(|(_, a)| a.to_owned()).collect(),
            error: lts.error_state().map(|e| u64::from(e.as_u32())),
            lts: LtsData::from_lts(lts),
        }
    }
}

/// The abstraction of one program component: its LTS and what each state stands for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct AbstractComponent {
    /// The LTS (named after the program component), with copies of its edges under the variant
    /// labels other components own.
    pub lts: AbstractLts,
    /// What each state stands for, indexed by state.
    pub states: Vec<StateMeaning>,
    /// The states the initial state stands for: the initial state itself, or, when it is a
    /// hub, every abstract initial state whose moves it offers.
    pub initial: Vec<u64>,
}

impl AbstractComponent {
    /// An abstract component.
    pub fn new(lts: AbstractLts, states: Vec<StateMeaning>, initial: Vec<u64>) -> Self {
        Self {
            lts,
            states,
            initial,
        }
    }
}

/// What an abstract state stands for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
#[non_exhaustive]
pub enum StateMeaning {
    /// A fresh initial state offering the moves of every abstract initial state.
    Hub,
    /// A control location and a truth value for each of the component's local predicates.
    At {
        /// The location (index into the program component's locations).
        location: usize,
        /// One value per local predicate, in order.
        valuation: Vec<bool>,
    },
    /// Any error location (with any valuation).
    Error,
}

/// A label `base@n` standing for the transitions on `base` that read the shared predicates
/// `pre` with these values and give the shared predicates `post` these values.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct VariantData {
    /// The label.
    pub name: String,
    /// The action (or internal label) it refines.
    pub base: String,
    /// The program component whose transitions carry it.
    pub owner: String,
    /// `(shared predicate index, value)` before the step.
    pub pre: Vec<(usize, bool)>,
    /// `(shared predicate index, value)` after the step.
    pub post: Vec<(usize, bool)>,
}

impl VariantData {
    /// A variant.
    pub fn new(
        name: impl Into<String>,
        base: impl Into<String>,
        owner: impl Into<String>,
        pre: Vec<(usize, bool)>,
        post: Vec<(usize, bool)>,
    ) -> Self {
        Self {
            name: name.into(),
            base: base.into(),
            owner: owner.into(),
            pre,
            post,
        }
    }
}

/// One proof obligation of the abstraction: an SMT-LIB2 script that must be unsatisfiable.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
#[non_exhaustive]
pub enum Obligation {
    /// Every concrete initial state lies in one of the component's abstract initial states.
    Initial {
        /// The program component.
        component: String,
        /// The script.
        script: String,
    },
    /// The initial value of a shared predicate is the one its process starts in.
    SharedInitial {
        /// The shared predicate's index.
        shared: usize,
        /// The script.
        script: String,
    },
    /// Transition `transition` of `component` from abstract state `state`: the abstract
    /// transitions `kept` were kept, every other one was omitted, and the script (the pre-state's
    /// valuation, the guard and update, and a post-state in none of the kept transitions) is
    /// unsatisfiable.
    Transition {
        /// The program component.
        component: String,
        /// The abstract source state.
        state: u64,
        /// The concrete transition (index into the component's transitions).
        transition: usize,
        /// The kept abstract transitions `[label, target]` (the label is the transition's or
        /// one of its variants).
        kept: Vec<(String, u64)>,
        /// The script.
        script: String,
    },
}

impl Obligation {
    /// The kind as written in the JSON.
    pub fn kind(&self) -> &'static str {
        match self {
            Self::Initial { .. } => "initial",
            Self::SharedInitial { .. } => "shared-initial",
            Self::Transition { .. } => "transition",
        }
    }

    /// The script.
    pub fn script(&self) -> &str {
        match self {
            Self::Initial { script, .. }
            | Self::SharedInitial { script, .. }
            | Self::Transition { script, .. } => script,
        }
    }

    /// The script, to fill in.
    pub fn script_mut(&mut self) -> &mut String {
        match self {
            Self::Initial { script, .. }
            | Self::SharedInitial { script, .. }
            | Self::Transition { script, .. } => script,
        }
    }
}

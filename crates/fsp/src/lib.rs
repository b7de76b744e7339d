//! # guarantor-fsp: LTSA's FSP language
//!
//! A front end for the FSP dialect of LTSA (Magee & Kramer, *Concurrency: State Models and Java
//! Programs*): lexer, parser and elaborator. It turns a target composite into its *leaf
//! components* — one [`Lts`] per primitive process instance, already relabelled, prefixed and with
//! its own hiding applied — plus what must happen to their product: composite-level hiding and
//! priority. Composing is the job of `guarantor-compose`; this crate depends on `guarantor-lts` only.
//!
//! ## Semantics (LTSA's)
//! - Relabelling, prefixing (`a:P`) and sharing (`{a,b}::P`) written on a composite are pushed down
//!   onto each component before composing, so a many-to-one relabelling makes components
//!   synchronise on the merged label.
//! - Hiding written on the target composite is returned in [`System::hiding`], to apply after
//!   composing; hiding on a nested composite renames its hidden actions to fresh names
//!   ([`System::is_hidden`] says which names are internal).
//! - A nested composite that LTSA composes first — `minimal`, prioritised, or a named composite
//!   relabelled so that labels merge — is returned as a [`Nested`] part of the composition tree
//!   ([`System::nested`]): the caller composes its parts, calls [`Nested::finish`] (hiding,
//!   weak-bisimulation minimisation, the enclosing prefixes and relabellings) and uses the result
//!   as one more component. Everything else stays flat in [`System::components`].
//! - A `minimal` target: [`System::finish`] hides and minimises the product as LTSA reports it.
//! - Every local process instance is compiled, reachable or not, and unreachable states are pruned
//!   afterwards, so the actions of unreachable instances stay declared (LTSA's rule).
//! - An out-of-range local process index becomes `ERROR`, with a [`Warning`].
//! - `property` processes are returned as written (deterministic), flagged
//!   [`Component::is_property`]; the checker builds their error form (pi plus a transition to pi for
//!   every action of the property's alphabet a state does not offer), which is what LTSA does when
//!   it compiles a property.
//! - `progress` tests are elaborated into [`ProgressTest`]s ([`Model::progress_tests`],
//!   [`System::progress`]) for LTSA's progress check (`guarantor_compose::progress`); a safety
//!   check does not check them, so they are listed in [`System::unchecked`] too.
//! - `fluent`, `assert` and `constraint` definitions are elaborated into [`Fluent`]s and
//!   [`Assertion`]s over concrete names ([`Model::fluents`], [`Model::assertions`],
//!   [`System::fluents`], [`System::assertions`]; `forall`/`exists`, indices and ranges expanded
//!   as LTSA expands them), in `guarantor-ltl-core`'s vocabulary ([`Ltl`], re-exported here),
//!   which the `guarantor-ltl` crate checks as they are; assertions are listed in
//!   [`System::unchecked`] too, since a safety check does not check them.
//! - `menu` and `animation` are parsed and ignored with a warning, and listed in
//!   [`System::unchecked`] so that a verdict can say what it did not check.
//!
//! ## Error handling
//! Malformed input never panics: [`parse`] and [`Model::elaborate`] return an [`FspError`] whose
//! `Display` names the file, line and column and quotes the line with a caret. Nesting, recursion
//! and state-space sizes are bounded ([`Limits`]).
//!
//! ## Example
//! ```
//! let model = guarantor_fsp::parse(
//!     "SWITCH = (on -> off -> SWITCH).\n||TWO = (a:SWITCH || b:SWITCH).",
//!     "switch.lts",
//! )?;
//! assert_eq!(model.default_target(), Some("TWO"));
//! let system = model.elaborate("TWO")?;
//! assert_eq!(system.components.len(), 2);
//! assert_eq!(system.components[0].lts.num_states(), 2);
//! assert!(system.components[1].lts.alphabet().contains("b.on"));
//! # Ok::<(), guarantor_fsp::FspError>(())
//! ```
//!
//! Building a nested composite with `guarantor-compose` (a dev-dependency here; the facade does the
//! same):
//!
//! ```
//! use guarantor_compose::{compose, error_lts, Config};
//! use guarantor_lts::Lts;
//! fn build(n: &guarantor_fsp::Nested) -> Lts {
//!     let mut parts: Vec<Lts> = n.components.iter()
//!         .map(|c| if c.is_property { error_lts(&c.lts).unwrap() } else { c.lts.clone() })
//!         .collect();
//!     parts.extend(n.nested.iter().map(build));
//!     let refs: Vec<&Lts> = parts.iter().collect();
//!     // (a prioritised one would use compose_with_priority with n.priority)
//!     n.finish(&compose(&refs, &Config::default()).unwrap()).unwrap()
//! }
//! let model = guarantor_fsp::parse(
//!     "P = (a -> tau_ish -> b -> P).\nminimal ||M = (P) \\ {tau_ish}.\n||S = (x:M || y:M).",
//!     "m.lts",
//! )?;
//! let system = model.elaborate("S")?;
//! assert_eq!((system.components.len(), system.nested.len()), (0, 2));
//! let m = build(&system.nested[0]);
//! assert_eq!(m.num_states(), 2); // a -> b, the hidden step minimised away
//! assert!(m.alphabet().contains("x.a"));
//! # Ok::<(), guarantor_fsp::FspError>(())
//! ```

mod ast;
mod composite;
mod ctx;
pub mod error;
mod eval;
mod labels;
mod lexer;
mod ltl;
mod machine;
mod parser;
mod process;
mod progress;
mod reduce;
mod stack;

use std::sync::Arc;

use guarantor_lts::{Lts, StateId};

pub use error::{ErrorKind, FspError, Location, Warning};
pub use guarantor_ltl_core::{Fluent, Formula, Ltl, Prop, PropId};
pub use ltl::Assertion;
pub use progress::ProgressTest;

use ast::{CompositeDef, ConstDef, ProcessDef};
use composite::Comp;
use ctx::Ctx;
use error::{RawError, SourceMap};
use eval::{Env, Globals, Value};
use labels::{FRESH_MARK, Hider};

/// LTSA's target for a file without composites: every process of the file composed in parallel
/// (`P = (a->b->P). Q = (b->c->Q).` gives 4 states and 5 transitions).
pub const DEFAULT_TARGET: &str = "DEFAULT";

/// Size limits for elaboration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Limits {
    /// Most states one primitive process may have. Default: 4,000,000.
    pub max_states: usize,
    /// Most transitions one primitive process may have. Default: 16,000,000.
    pub max_transitions: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_states: 4_000_000,
            max_transitions: 16_000_000,
        }
    }
}

impl Limits {
    /// These limits with another state limit.
    #[must_use]
    pub fn with_max_states(self, max_states: usize) -> Self {
        Self { max_states, ..self }
    }

    /// These limits with another transition limit.
    #[must_use]
    pub fn with_max_transitions(self, max_transitions: usize) -> Self {
        Self {
            max_transitions,
            ..self
        }
    }
}

/// A parsed FSP file: its constants evaluated, its definitions ready to elaborate.
#[derive(Debug)]
pub struct Model {
    map: SourceMap,
    globals: Globals,
    processes: Vec<ProcessDef>,
    composites: Vec<CompositeDef>,
    warnings: Vec<Warning>,
    unchecked: Vec<Unchecked>,
    progress: Vec<ProgressTest>,
    fluents: Vec<Fluent>,
    assertions: Vec<Assertion>,
}

/// A definition the front end parses but does not check (`progress`, `assert`, `fluent`,
/// `constraint`, `menu`, `animation`): a check's verdict says nothing about it, and reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Unchecked {
    /// The definition's keyword (`progress`, `assert`, ...).
    pub keyword: String,
    /// The defined name (empty for a definition without one).
    pub name: String,
    /// Where it is defined.
    pub location: Location,
}

impl std::fmt::Display for Unchecked {
    /// `progress P`, `assert SAFE` (the keyword alone for a definition without a name).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.name.is_empty() {
            f.write_str(&self.keyword)
        } else {
            write!(f, "{} {}", self.keyword, self.name)
        }
    }
}

/// One leaf component of a system.
#[derive(Clone, Debug)]
pub struct Component {
    /// A readable name: the process with its arguments and the labels applied (`a:P(1)`).
    pub name: String,
    /// The component, after its relabelling, prefixing and hiding.
    pub lts: Lts,
    /// Whether this is a safety property (to be turned into its error form by the checker).
    pub is_property: bool,
    /// The state standing for `END` (successful termination), if the process can terminate.
    pub end_state: Option<StateId>,
}

/// Hiding to apply to the product of a composite.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Hiding {
    /// `\{...}`: these labels (and every action they prefix) become tau.
    Hide(Vec<String>),
    /// `@{...}`: every action except these labels (and the actions they prefix) becomes tau.
    Keep(Vec<String>),
}

/// Priority on a composite: `<<{...}` (high) or `>>{...}` (low).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompositePriority {
    /// `true` for `<<` (these actions are preferred), `false` for `>>` (these are avoided).
    pub high: bool,
    /// The labels; each also covers the actions it prefixes.
    pub actions: Vec<String>,
}

impl CompositePriority {
    /// Whether `action` is one of the listed actions.
    pub fn lists(&self, action: &str) -> bool {
        prefix_listed(&self.actions, action)
    }
}

fn prefix_listed(list: &[String], action: &str) -> bool {
    list.iter().any(|l| {
        action == l || (action.starts_with(l.as_str()) && action[l.len()..].starts_with('.'))
    })
}

/// A nested composite that must be composed before the composite that contains it, because
/// LTSA does so: it is `minimal` (tau-reduced and minimised after its hiding), has a
/// priority, or is relabelled so that two of its labels merge (pushing such a relabelling down
/// would make its parts synchronise on the merged label).
///
/// To use one, compose its [`components`](Self::components) (error forms of properties) and its
/// built [`nested`](Self::nested) parts under its [`priority`](Self::priority), then call
/// [`finish`](Self::finish) on the product: it hides, minimises and applies what the enclosing
/// composites wrote (prefixes, sharing, relabelling). The result is one more component of the
/// parent. See the crate docs for a ten-line builder.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Nested {
    /// A readable name (`RPORT`, or the parts when an enclosing relabelling forced nesting).
    pub name: String,
    /// Its leaf components.
    pub components: Vec<Component>,
    /// Its own nested composites, to build first.
    pub nested: Vec<Nested>,
    /// Priority written on it, to apply while composing it.
    pub priority: Option<CompositePriority>,
    /// Whether it is minimised (observational equivalence) after hiding.
    pub minimal: bool,
    /// Whether it is determinised after hiding (LTSA's trace minimisation: `deterministic`, or
    /// a `property` composite).
    pub deterministic: bool,
    /// A `property` composite: its finished product is a property of the parent, to be put in
    /// its error form like a primitive property.
    pub is_property: bool,
    hide: Option<Hiding>,
    renames: Vec<composite::Rename>,
}

impl Nested {
    /// Whether `action` of its product becomes tau: hidden by its own hiding, or internal to a
    /// composite nested inside it.
    pub fn is_hidden(&self, action: &str) -> bool {
        hidden_by(self.hide.as_ref(), action)
    }

    /// Turns the product of the parts into the component the parent composes: hides, determinises
    /// if `deterministic` (LTSA's trace minimisation; a `property` composite is determinised too),
    /// else minimises by weak bisimulation if `minimal` (after LTSA's tau reduction, which merges
    /// a move into a state offering only tau moves with those moves), then applies the enclosing
    /// composites' renaming. A [`Nested::is_property`] result is a property of the parent.
    ///
    /// # Errors
    /// An [`LtsError`](guarantor_lts::LtsError) if the renamed alphabet does not fit in 32-bit ids.
    pub fn finish(&self, product: &Lts) -> Result<Lts, guarantor_lts::LtsError> {
        let hidden: Vec<&str> = product
            .alphabet()
            .iter()
            .map(|(_, n)| n)
            .filter(|n| self.is_hidden(n))
            .collect();
        let mut lts = guarantor_lts::ops::hide(product, hidden);
        if self.deterministic {
            // LTSA determinises instead of minimising when both are asked.
            lts = trace_minimise(&lts)?;
        } else if self.minimal {
            lts = guarantor_lts::ops::minimize_weak(&reduce::ltsa_tau_reduction(&lts)?);
        }
        for step in &self.renames {
            lts = rename_lts(&lts, |n| step.apply(n))?;
        }
        Ok(lts)
    }
}

/// `lts` with every visible action `a` replaced by the actions `f(a)` (several: one transition
/// each; the declared alphabet follows).
fn rename_lts(lts: &Lts, f: impl Fn(&str) -> Vec<String>) -> Result<Lts, guarantor_lts::LtsError> {
    let mut b = guarantor_lts::LtsBuilder::new();
    let mut map = vec![Vec::new(); lts.alphabet().id_bound()];
    for (a, name) in lts.alphabet().iter() {
        for n in f(name) {
            map[a.index()].push(b.action(&n)?);
        }
    }
    b.ensure_states(lts.num_states())?;
    for t in lts.transitions() {
        if t.action.is_tau() {
            b.add_transition(t.source, t.action, t.target)?;
        }
        if !t.action.is_tau() {
            for &a in &map[t.action.index()] {
                b.add_transition(t.source, a, t.target)?;
            }
        }
    }
    b.set_initial(lts.initial())?;
    if let Some(e) = lts.error_state() {
        b.set_error(e)?;
    }
    b.build()
}

/// Whether `action` is a name the elaborator made up for an action hidden inside a nested
/// composite (see [`System::is_hidden`]): it stands for tau, whatever the target's own hiding.
pub fn is_internal(action: &str) -> bool {
    action.contains(FRESH_MARK)
}

fn hidden_by(hiding: Option<&Hiding>, action: &str) -> bool {
    if action.contains(FRESH_MARK) {
        return true;
    }
    match hiding {
        Some(Hiding::Hide(list)) => prefix_listed(list, action),
        Some(Hiding::Keep(list)) => !prefix_listed(list, action),
        None => false,
    }
}

/// A target elaborated into leaf components plus what to apply to their product.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct System {
    /// The target's name.
    pub name: String,
    /// The leaf components, in the order they are written.
    pub components: Vec<Component>,
    /// Nested composites to compose (and minimise, relabel) first; each then is one more
    /// component, after [`Self::components`]. Empty unless the target nests a `minimal` or
    /// prioritised composite, or relabels one so that labels merge.
    pub nested: Vec<Nested>,
    /// Hiding written on the target composite, to apply after composing.
    pub hiding: Option<Hiding>,
    /// Priority written on the target composite, to apply while composing.
    pub priority: Option<CompositePriority>,
    /// The target was declared `minimal` (LTSA minimises the product).
    pub minimal: bool,
    /// The target was declared `deterministic` (LTSA determinises the product).
    pub deterministic: bool,
    /// The target was declared `property`.
    pub property: bool,
    /// Warnings from parsing and elaboration.
    pub warnings: Vec<Warning>,
    /// The definitions of the file that were parsed but are not checked (`progress`, `assert`,
    /// ...), in source order: a verdict about this system says nothing about them.
    pub unchecked: Vec<Unchecked>,
    /// The file's progress tests, in source order (an indexed test gives one test per value);
    /// empty when the file declares none (LTSA then checks its default progress property).
    pub progress: Vec<ProgressTest>,
    /// The file's fluents, in source order (an indexed fluent gives one per value).
    pub fluents: Vec<Fluent>,
    /// The file's `assert` and `constraint` definitions, expanded, in source order.
    pub assertions: Vec<Assertion>,
    /// The `constraint`s the target's composites name as processes (`||S = (P || C)`), in order:
    /// LTSA composes each formula's safety automaton, without its `ERROR` state, as one more
    /// component; the caller builds it from [`System::assertions`] (the facade does). A prefix,
    /// relabelling or sharing written around the name is not applied to it.
    pub constraints: Vec<String>,
}

impl System {
    /// Whether `action` of the product must become tau: hidden by the target's hiding, or internal
    /// to a nested composite (a name made fresh by the elaborator).
    pub fn is_hidden(&self, action: &str) -> bool {
        hidden_by(self.hiding.as_ref(), action)
    }

    /// The LTS LTSA reports for the target, from the product of all its components: hidden
    /// actions become tau, and a `minimal` target is minimised by weak bisimulation, after LTSA's
    /// tau reduction (`a -> (tau -> P | tau -> Q)` becomes `a -> P | a -> Q`, as LTSA does by
    /// default; it is coarser than observational equivalence). A `deterministic` target is
    /// replaced by its minimal deterministic LTS with the same traces (LTSA's trace
    /// minimisation: tau removed by subset construction, one `ERROR` state); a `property` target
    /// is determinised too and then put in its error form, every missing action of a state going
    /// to `ERROR`, as LTSA's Compose shows it.
    ///
    /// # Panics
    /// Only if determinising a `deterministic` target would pass 2^32 states (memory runs out
    /// long before); the reduction of a `minimal` one only removes states and transitions.
    pub fn finish(&self, product: &Lts) -> Lts {
        let hidden: Vec<&str> = product
            .alphabet()
            .iter()
            .map(|(_, n)| n)
            .filter(|n| self.is_hidden(n))
            .collect();
        let lts = guarantor_lts::ops::hide(product, hidden);
        if self.deterministic {
            let min = trace_minimise(&lts).expect("fewer than 2^32 subsets");
            if self.property {
                return property_error_form(&min).expect("one more state than a minimal DFA");
            }
            return min;
        }
        if self.minimal {
            // The reduction only removes states and moves, so it cannot overflow an id.
            let reduced = reduce::ltsa_tau_reduction(&lts).expect("no larger than its input");
            guarantor_lts::ops::minimize_weak(&reduced)
        } else {
            lts
        }
    }
}

/// LTSA's trace minimisation (`Minimiser.trace_minimise`): an LTS with tau or a nondeterministic
/// choice is determinised and minimised; one that is already deterministic is left as it is,
/// states LTSA would not merge included (`(c -> Q | d -> STOP)` with a stuck `Q` stays 3 states).
pub(crate) fn trace_minimise(lts: &Lts) -> Result<Lts, guarantor_lts::LtsError> {
    if lts.is_deterministic() {
        return Ok(lts.clone());
    }
    guarantor_lts::ops::minimize_dfa(&guarantor_lts::ops::determinize(lts)?)
}

/// LTSA's `makeProperty` on a finished `property` composite: every visible action of the
/// alphabet that a state does not offer leads to `ERROR` (one error state, the existing one if
/// the LTS has it), so that `export` and the counts show the property as LTSA's Compose does.
fn property_error_form(lts: &Lts) -> Result<Lts, guarantor_lts::LtsError> {
    let mut b = lts.to_builder();
    let error = match lts.error_state() {
        Some(e) => e,
        None => b.add_state()?,
    };
    for s in lts.states().filter(|&s| !lts.is_error(s)) {
        for a in lts.alphabet().visible() {
            if lts.outgoing_on(s, a).is_empty() {
                b.add_transition(s, a, error)?;
            }
        }
    }
    b.set_error(error)?;
    b.build()
}

/// Parses an FSP source; `file` is the name used in error messages.
///
/// # Errors
/// A located [`FspError`] for a lexical or syntax error, or an error in a `const`, `range` or `set`
/// definition (undefined name, overflow, division by zero, duplicate name).
pub fn parse(source: &str, file: &str) -> Result<Model, FspError> {
    parse_with_constants(source, file, &[])
}

/// [`parse_with_constants`] of a file's bytes as LTSA reads them: UTF-8 when the bytes are UTF-8,
/// otherwise Latin-1 (every byte one character, as LTSA's Java reader on a Latin-1 platform), with
/// a warning at the first byte that is not UTF-8. Old coursework models carry accented letters
/// in comments in Latin-1.
///
/// ```
/// // "(* Pr\xe9 *)" in Latin-1: LTSA reads it, and so do we, with a warning.
/// let model = guarantor_fsp::parse_bytes(b"// Pr\xe9\nP = (a -> P).\n", "t.lts", &[])?;
/// assert_eq!(model.warnings().len(), 1);
/// assert_eq!(model.warnings()[0].location.line, 1);
/// # Ok::<(), guarantor_fsp::FspError>(())
/// ```
///
/// # Errors
/// As [`parse_with_constants`].
pub fn parse_bytes(
    source: &[u8],
    file: &str,
    constants: &[(&str, i64)],
) -> Result<Model, FspError> {
    let bad = match std::str::from_utf8(source) {
        Ok(text) => return parse_with_constants(text, file, constants),
        Err(e) => e.valid_up_to(),
    };
    let text: String = source.iter().map(|&b| char::from(b)).collect();
    let mut model = parse_with_constants(&text, file, constants)?;
    // Byte `bad` is character `bad` too: everything before it is ASCII or whole UTF-8
    // sequences, which Latin-1 reads byte by byte, so count characters up to it in `text`.
    let pos = text.char_indices().nth(bad).map_or(text.len(), |(i, _)| i);
    let warning = model.map.warning(
        format!(
            "byte 0x{:02X} is not UTF-8: the file is read as Latin-1, as LTSA reads it",
            source[bad]
        ),
        u32::try_from(pos).unwrap_or(u32::MAX),
    );
    model.warnings.insert(0, warning);
    Ok(model)
}

/// [`parse`] with some `const` definitions given other values (the command line's
/// `--const N=5`): each named constant takes the given value wherever the file defines it, and
/// the definitions after it see the new value.
///
/// # Errors
/// As [`parse`]; and an unlocated [`ErrorKind::Undefined`] (with the nearest constant as its
/// suggestion) if a name is not a `const` of the file.
pub fn parse_with_constants(
    source: &str,
    file: &str,
    constants: &[(&str, i64)],
) -> Result<Model, FspError> {
    stack::on_deep_stack(|| parse_here(source, file, constants))
}

/// [`parse_with_constants`] on the calling thread.
fn parse_here(source: &str, file: &str, constants: &[(&str, i64)]) -> Result<Model, FspError> {
    let map = SourceMap {
        file: file.to_string(),
        source: Arc::from(source),
    };
    let tokens = lexer::lex(source).map_err(|e| map.error(e))?;
    let parsed = parser::parse_tokens(&tokens).map_err(|e| map.error(e))?;
    let defined: Vec<&str> = parsed
        .consts
        .iter()
        .filter_map(|(d, _)| match d {
            ConstDef::Const(n, _) => Some(n.as_str()),
            _ => None,
        })
        .collect();
    if let Some((name, _)) = constants.iter().find(|(n, _)| !defined.contains(n)) {
        return Err(FspError {
            kind: ErrorKind::Undefined {
                what: "constant",
                name: (*name).to_owned(),
                suggestion: closest(name, &defined).map(str::to_owned),
            },
            location: None,
        });
    }
    let globals = build_globals(&parsed.consts, constants).map_err(|e| map.error(e))?;
    check_names(&parsed.processes, &parsed.composites).map_err(|e| map.error(e))?;
    let progress = progress::elaborate(&globals, &parsed.progress).map_err(|e| map.error(e))?;
    let fluents = ltl::elaborate_fluents(&globals, &parsed.fluents).map_err(|e| map.error(e))?;
    let assertions =
        ltl::elaborate_assertions(&globals, &fluents, &parsed.asserts).map_err(|e| map.error(e))?;
    let warnings = parsed
        .warnings
        .iter()
        .map(|(m, p)| map.warning(m.clone(), *p))
        .collect();
    let unchecked = parsed
        .skipped
        .iter()
        .map(|(keyword, name, p)| Unchecked {
            keyword: keyword.clone(),
            name: name.clone(),
            location: map.locate(*p),
        })
        .collect();
    Ok(Model {
        map,
        globals,
        processes: parsed.processes,
        composites: parsed.composites,
        warnings,
        unchecked,
        progress,
        fluents,
        assertions,
    })
}

/// Converts elaborated components into leaf components and nested composites.
fn split(comps: Vec<Comp>) -> Result<(Vec<Component>, Vec<Nested>), RawError> {
    let mut leaves = Vec::new();
    let mut nested = Vec::new();
    for c in comps {
        if let Some(n) = c.nested {
            let n = std::sync::Arc::unwrap_or_clone(n);
            let (components, inner) = split(n.parts)?;
            nested.push(Nested {
                name: c.name,
                components,
                nested: inner,
                priority: n.priority,
                minimal: n.minimal,
                deterministic: n.deterministic,
                is_property: c.property,
                hide: n.hide.map(|(names, keep)| {
                    if keep {
                        Hiding::Keep(names)
                    } else {
                        Hiding::Hide(names)
                    }
                }),
                renames: n.renames,
            });
            continue;
        }
        let lts = c.m.to_lts().map_err(|k| RawError::new(k, 0))?;
        leaves.push(Component {
            name: c.name,
            lts,
            is_property: c.property,
            end_state: c.m.end.map(StateId::from_u32),
        });
    }
    Ok((leaves, nested))
}

fn build_globals(
    defs: &[(ConstDef, error::Pos)],
    overrides: &[(&str, i64)],
) -> Result<Globals, RawError> {
    let mut g = Globals::default();
    for (def, pos) in defs {
        let name = match def {
            ConstDef::Const(n, _) | ConstDef::Range(n, _, _) | ConstDef::Set(n, _) => n,
        };
        if g.consts.contains_key(name) || g.ranges.contains_key(name) || g.sets.contains_key(name) {
            return Err(RawError::new(
                ErrorKind::Duplicate {
                    what: "constant",
                    name: name.clone(),
                },
                *pos,
            ));
        }
        match def {
            ConstDef::Const(n, e) => {
                let given = overrides.iter().find(|(o, _)| *o == n.as_str());
                let v = match given {
                    Some(&(_, v)) => Value::Int(v),
                    None => Env::new(&g).eval(e)?,
                };
                g.consts.insert(n.clone(), v);
            }
            ConstDef::Range(n, lo, hi) => {
                let env = Env::new(&g);
                let r = (env.eval_int(lo)?, env.eval_int(hi)?);
                g.ranges.insert(n.clone(), r);
            }
            ConstDef::Set(n, s) => {
                let v = Env::new(&g).set(s)?;
                g.sets.insert(n.clone(), std::sync::Arc::new(v));
            }
        }
    }
    Ok(g)
}

fn check_names(ps: &[ProcessDef], cs: &[CompositeDef]) -> Result<(), RawError> {
    let mut seen = std::collections::HashSet::new();
    let names = ps
        .iter()
        .map(|p| (&p.name, p.pos))
        .chain(cs.iter().map(|c| (&c.name, c.pos)));
    for (name, pos) in names {
        if !seen.insert(name.as_str()) {
            return Err(RawError::new(
                ErrorKind::Duplicate {
                    what: "process",
                    name: name.clone(),
                },
                pos,
            ));
        }
    }
    Ok(())
}

impl Model {
    /// The names of the composites (`||C`), in source order.
    pub fn composite_names(&self) -> Vec<&str> {
        self.composites.iter().map(|c| c.name.as_str()).collect()
    }

    /// The names of the primitive processes, in source order.
    pub fn process_names(&self) -> Vec<&str> {
        self.processes.iter().map(|p| p.name.as_str()).collect()
    }

    /// The target checked when none is named: the last composite of the file; in a file without
    /// composites, LTSA's [`DEFAULT_TARGET`] (every process composed), or the only process.
    ///
    /// LTSA's window offers the targets sorted by name and selects the first; we take the last
    /// composite written, which in a model ending with its system is the system. Name the target
    /// (`--target`) when it matters.
    pub fn default_target(&self) -> Option<&str> {
        match (self.composites.last(), self.processes.as_slice()) {
            (Some(c), _) => Some(c.name.as_str()),
            (None, []) => None,
            (None, [one]) => Some(one.name.as_str()),
            (None, _) => Some(DEFAULT_TARGET),
        }
    }

    /// Every name [`Self::elaborate`] accepts: the composites, the processes, and
    /// [`DEFAULT_TARGET`] in a file without composites.
    pub fn targets(&self) -> Vec<&str> {
        let mut names = self.composite_names();
        names.extend(self.process_names());
        if self.composites.is_empty() && !names.contains(&DEFAULT_TARGET) {
            names.push(DEFAULT_TARGET);
        }
        names
    }

    /// Warnings from parsing (ignored definitions).
    pub fn warnings(&self) -> &[Warning] {
        &self.warnings
    }

    /// The definitions parsed but not checked (`progress`, `assert`, ...), in source order.
    pub fn unchecked(&self) -> &[Unchecked] {
        &self.unchecked
    }

    /// The file's progress tests (`progress P = {..}`, `progress P = if {..} then {..}`,
    /// `progress P[i:R] = ..` as `P.v`), in source order.
    ///
    /// ```
    /// let model = guarantor_fsp::parse(
    ///     "progress GO[i:1..2] = {go[i]}\nprogress C = if {a} then {b, c}\nP = (go[1] -> P).",
    ///     "p.lts",
    /// )?;
    /// let names: Vec<_> = model.progress_tests().iter().map(|t| t.name.as_str()).collect();
    /// assert_eq!(names, ["GO.1", "GO.2", "C"]);
    /// assert_eq!(model.progress_tests()[0].actions, ["go.1"]);
    /// assert_eq!(model.progress_tests()[2].condition.as_deref(), Some(&["a".to_string()][..]));
    /// # Ok::<(), guarantor_fsp::FspError>(())
    /// ```
    pub fn progress_tests(&self) -> &[ProgressTest] {
        &self.progress
    }

    /// The file's fluents (`fluent F[i:R] = <{..}, {..}> initially E` as `F.v`), in source order.
    ///
    /// ```
    /// let model = guarantor_fsp::parse(
    ///     "fluent C[i:1..2] = <p[i].enter, p[i].exit>\nP = (p[1..2].enter -> P).",
    ///     "f.lts",
    /// )?;
    /// assert_eq!(model.fluents()[1].name, "C.2");
    /// assert_eq!(model.fluents()[1].initiating, ["p.2.enter"]);
    /// # Ok::<(), guarantor_fsp::FspError>(())
    /// ```
    pub fn fluents(&self) -> &[Fluent] {
        &self.fluents
    }

    /// The file's assertions and constraints, expanded, in source order.
    ///
    /// ```
    /// use guarantor_fsp::{Formula, Prop, PropId};
    /// let model = guarantor_fsp::parse(
    ///     "fluent C[i:1..2] = <p[i].enter, p[i].exit>\n\
    ///      assert M = []!exists[i:1..2] C[i]\nP = (p[1..2].enter -> P).",
    ///     "f.lts",
    /// )?;
    /// let m = &model.assertions()[0];
    /// // Its propositions: the fluents C.1 and C.2, in the order the formula uses them.
    /// let c = |i: usize| Box::new(Formula::Prop(PropId::new(i)));
    /// assert_eq!(
    ///     *m.formula.formula(),
    ///     Formula::Always(Box::new(Formula::Not(Box::new(Formula::Or(c(0), c(1))))))
    /// );
    /// assert_eq!(m.formula.props()[1], Prop::Fluent(model.fluents()[1].clone()));
    /// assert_eq!(m.formula.to_string(), "[]!(C.1 || C.2)");
    /// # Ok::<(), guarantor_fsp::FspError>(())
    /// ```
    pub fn assertions(&self) -> &[Assertion] {
        &self.assertions
    }

    /// The action names a set of FSP labels stands for, with this model's `const`, `range` and
    /// `set` definitions in scope: `text` is a set literal (`{send, ack}`, `{phil[i:P].eat}`,
    /// `{a.[1..2]}`), the name of a `set` of the model, or the elements of a literal without
    /// their braces (`send, ack`), as LTSA's hiding `\{...}` and a command line's `--hide` write
    /// them. `file` names the text in error messages.
    ///
    /// ```
    /// let model = guarantor_fsp::parse("const N = 2\nrange R = 0..N-1\nset S = {x, y}\n", "m.lts")?;
    /// assert_eq!(model.action_set("{a[i:R].go, b}", "--hide")?, ["a.0.go", "a.1.go", "b"]);
    /// assert_eq!(model.action_set("S", "--hide")?, ["x", "y"]);
    /// assert_eq!(model.action_set("c[0..1], d", "--hide")?, ["c.0", "c.1", "d"]);
    /// let err = model.action_set("{a[i:Q]}", "--hide").unwrap_err();
    /// assert!(err.to_string().contains("Q"), "{err}");
    /// # Ok::<(), guarantor_fsp::FspError>(())
    /// ```
    ///
    /// # Errors
    /// A located [`FspError`] (in `text`): a syntax error, an undefined name, an arithmetic error.
    pub fn action_set(&self, text: &str, file: &str) -> Result<Vec<String>, FspError> {
        let trimmed = text.trim_start();
        let braced = trimmed.starts_with('{') || trimmed.starts_with(|c: char| c.is_uppercase());
        let source = if braced {
            text.to_owned()
        } else {
            format!("{{{text}}}")
        };
        let map = SourceMap {
            file: file.to_string(),
            source: Arc::from(source.as_str()),
        };
        let tokens = lexer::lex(&source).map_err(|e| map.error(e))?;
        let set = parser::parse_set_tokens(&tokens).map_err(|e| map.error(e))?;
        eval::Env::new(&self.globals)
            .set(&set)
            .map_err(|e| map.error(e))
    }

    /// Elaborates a composite or process into its leaf components, with default [`Limits`].
    ///
    /// # Errors
    /// A located [`FspError`]: undefined names, wrong arity, arithmetic errors, unguarded or
    /// unbounded recursion, or a size limit exceeded.
    pub fn elaborate(&self, target: &str) -> Result<System, FspError> {
        self.elaborate_with(target, Limits::default())
    }

    /// [`Self::elaborate`] with explicit limits.
    ///
    /// # Errors
    /// As [`Self::elaborate`].
    pub fn elaborate_with(&self, target: &str, limits: Limits) -> Result<System, FspError> {
        stack::on_deep_stack(|| self.elaborate_here(target, limits))
    }

    /// [`Self::elaborate_with`] on the calling thread.
    fn elaborate_here(&self, target: &str, limits: Limits) -> Result<System, FspError> {
        let mut targets = self.targets();
        if !targets.contains(&target) {
            // A name from the command line: no place in the file to point at, so the targets.
            targets.sort_unstable();
            return Err(FspError {
                kind: ErrorKind::NoTarget {
                    name: target.to_owned(),
                    file: self.map.file.clone(),
                    suggestion: closest(target, &targets).map(str::to_owned),
                    targets: targets.into_iter().map(str::to_owned).collect(),
                },
                location: None,
            });
        }
        let ctx = Ctx::new(
            &self.globals,
            &self.processes,
            &self.composites,
            limits.max_states,
            limits.max_transitions,
        )
        .with_constraints(
            self.assertions
                .iter()
                .filter(|a| a.constraint)
                .map(|a| a.name.clone()),
        );
        let result = self.elaborate_in(&ctx, target);
        let mut warnings = self.warnings.clone();
        warnings.extend(
            ctx.take_warnings()
                .into_iter()
                .map(|(m, p)| self.map.warning(m, p)),
        );
        let mut system = result.map_err(|e| self.map.error(e))?;
        system.warnings = warnings;
        system.unchecked.clone_from(&self.unchecked);
        system.progress.clone_from(&self.progress);
        system.fluents.clone_from(&self.fluents);
        system.assertions.clone_from(&self.assertions);
        system.constraints = ctx.take_constraints();
        Ok(system)
    }

    fn elaborate_in(&self, ctx: &Ctx<'_>, target: &str) -> Result<System, RawError> {
        let mut system = System {
            name: target.to_string(),
            components: Vec::new(),
            nested: Vec::new(),
            hiding: None,
            priority: None,
            minimal: false,
            deterministic: false,
            property: false,
            warnings: Vec::new(),
            unchecked: Vec::new(),
            progress: Vec::new(),
            fluents: Vec::new(),
            assertions: Vec::new(),
            constraints: Vec::new(),
        };
        let mut comps: Vec<Comp> = Vec::new();
        if let Some(def) = self.composites.iter().find(|c| c.name == target) {
            let vals = composite::composite_defaults(&self.globals, def)?;
            let env = composite::bind_params(&self.globals, def, &vals);
            ctx.cbody(&def.body, &env, &mut comps, 0)?;
            if let Some(h) = &def.hide {
                let (names, keep) = Hider::new(&env, h)?.into_parts();
                system.hiding = Some(if keep {
                    Hiding::Keep(names)
                } else {
                    Hiding::Hide(names)
                });
            }
            if let Some(p) = &def.priority {
                system.priority = Some(CompositePriority {
                    high: p.high,
                    actions: env.set(&p.set)?,
                });
            }
            system.minimal = def.flags.minimal;
            // LTSA: a `property` composite is determinised, then made a property.
            system.deterministic = def.flags.deterministic || def.flags.property;
            system.property = def.flags.property;
        } else if let Some(def) = self.processes.iter().find(|p| p.name == target) {
            let vals: Vec<Value> = composite::process_defaults(&self.globals, def)?;
            let m = process::compile(ctx, def, &vals, 0)?;
            comps.push(Comp {
                name: target.to_string(),
                m,
                property: def.flags.property,
                nested: None,
            });
            system.minimal = def.flags.minimal;
            system.deterministic = def.flags.deterministic;
        } else if target == DEFAULT_TARGET && self.composites.is_empty() {
            // LTSA composes every process of a file that has no composite.
            for def in &self.processes {
                let vals: Vec<Value> = composite::process_defaults(&self.globals, def)?;
                let m = process::compile(ctx, def, &vals, 0)?;
                comps.push(Comp {
                    name: def.name.clone(),
                    m,
                    property: def.flags.property,
                    nested: None,
                });
            }
        } else {
            return Err(RawError::new(
                ErrorKind::Undefined {
                    what: "composite or process",
                    name: target.to_string(),
                    suggestion: None,
                },
                0,
            ));
        }
        (system.components, system.nested) = split(comps)?;
        Ok(system)
    }
}

/// The name among `names` nearest to `name`, for a did-you-mean hint: at most one edit (a
/// letter added, removed, changed, or two neighbours swapped) per three letters, case ignored;
/// names shorter than three letters only match up to case.
pub(crate) fn closest<'a>(name: &str, names: &[&'a str]) -> Option<&'a str> {
    let limit = name.chars().count() / 3;
    let lower = name.to_lowercase();
    names
        .iter()
        .filter(|&&n| n != name)
        .map(|&n| (edit_distance(&lower, &n.to_lowercase()), n))
        .filter(|&(d, _)| d <= limit)
        .min_by_key(|&(d, _)| d)
        .map(|(_, n)| n)
}

/// Edit distance with adjacent transpositions (optimal string alignment), over characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[a.len()][b.len()]
}

/// The example of this crate's README.md, compiled and run as a doc-test so it cannot rot.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

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
//! - An out-of-range local process index becomes `ERROR`, with a [`Warning`].
//! - `property` processes are returned as written (deterministic), flagged
//!   [`Component::is_property`]; the checker builds their error form (pi plus a transition to pi for
//!   every action of the property's alphabet a state does not offer), which is what LTSA does when
//!   it compiles a property.
//! - `progress`, `menu`, `fluent`, `assert` and `animation` are parsed and ignored with a warning.
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

mod ast;
mod composite;
pub mod error;
mod eval;
mod lexer;
mod machine;
mod parser;
mod process;

use std::sync::Arc;

use guarantor_lts::{Lts, StateId};

pub use error::{ErrorKind, FspError, Location, Warning};

use ast::{CompositeDef, ConstDef, ProcessDef};
use composite::{Comp, Ctx, FRESH_MARK, Hider};
use error::{RawError, SourceMap};
use eval::{Env, Globals, Value};

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
    pub fn max_states(self, max_states: usize) -> Self {
        Self { max_states, ..self }
    }

    /// These limits with another transition limit.
    #[must_use]
    pub fn max_transitions(self, max_transitions: usize) -> Self {
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
pub struct Priority {
    /// `true` for `<<` (these actions are preferred), `false` for `>>` (these are avoided).
    pub high: bool,
    /// The labels; each also covers the actions it prefixes.
    pub actions: Vec<String>,
}

impl Priority {
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

/// A target elaborated into leaf components plus what to apply to their product.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct System {
    /// The target's name.
    pub name: String,
    /// The leaf components, in the order they are written.
    pub components: Vec<Component>,
    /// Hiding written on the target composite, to apply after composing.
    pub hiding: Option<Hiding>,
    /// Priority written on the target composite, to apply while composing.
    pub priority: Option<Priority>,
    /// The target was declared `minimal` (LTSA minimises the product).
    pub minimal: bool,
    /// The target was declared `deterministic` (LTSA determinises the product).
    pub deterministic: bool,
    /// The target was declared `property`.
    pub property: bool,
    /// Warnings from parsing and elaboration.
    pub warnings: Vec<Warning>,
}

impl System {
    /// Whether `action` of the product must become tau: hidden by the target's hiding, or internal
    /// to a nested composite (a name made fresh by the elaborator).
    pub fn is_hidden(&self, action: &str) -> bool {
        if action.contains(FRESH_MARK) {
            return true;
        }
        match &self.hiding {
            Some(Hiding::Hide(list)) => prefix_listed(list, action),
            Some(Hiding::Keep(list)) => !prefix_listed(list, action),
            None => false,
        }
    }
}

/// Parses an FSP source; `file` is the name used in error messages.
///
/// # Errors
/// A located [`FspError`] for a lexical or syntax error, or an error in a `const`, `range` or `set`
/// definition (undefined name, overflow, division by zero, duplicate name).
pub fn parse(source: &str, file: &str) -> Result<Model, FspError> {
    let map = SourceMap {
        file: file.to_string(),
        source: Arc::from(source),
    };
    let tokens = lexer::lex(source).map_err(|e| map.error(e))?;
    let parsed = parser::parse_tokens(&tokens).map_err(|e| map.error(e))?;
    let globals = build_globals(&parsed.consts).map_err(|e| map.error(e))?;
    check_names(&parsed.processes, &parsed.composites).map_err(|e| map.error(e))?;
    let warnings = parsed
        .warnings
        .iter()
        .map(|(m, p)| map.warning(m.clone(), *p))
        .collect();
    Ok(Model {
        map,
        globals,
        processes: parsed.processes,
        composites: parsed.composites,
        warnings,
    })
}

fn build_globals(defs: &[(ConstDef, error::Pos)]) -> Result<Globals, RawError> {
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
                let v = Env::new(&g).eval(e)?;
                g.consts.insert(n.clone(), v);
            }
            ConstDef::Range(n, lo, hi) => {
                let env = Env::new(&g);
                let r = (env.eval_int(lo)?, env.eval_int(hi)?);
                g.ranges.insert(n.clone(), r);
            }
            ConstDef::Set(n, s) => {
                let v = Env::new(&g).set(s)?;
                g.sets.insert(n.clone(), std::rc::Rc::new(v));
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

    /// What LTSA compiles by default: the last composite, or the last process if there is none.
    pub fn default_target(&self) -> Option<&str> {
        self.composites
            .last()
            .map(|c| c.name.as_str())
            .or_else(|| self.processes.last().map(|p| p.name.as_str()))
    }

    /// Warnings from parsing (ignored definitions).
    pub fn warnings(&self) -> &[Warning] {
        &self.warnings
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
        let ctx = Ctx::new(
            &self.globals,
            &self.processes,
            &self.composites,
            limits.max_states,
            limits.max_transitions,
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
        Ok(system)
    }

    fn elaborate_in(&self, ctx: &Ctx<'_>, target: &str) -> Result<System, RawError> {
        let mut system = System {
            name: target.to_string(),
            components: Vec::new(),
            hiding: None,
            priority: None,
            minimal: false,
            deterministic: false,
            property: false,
            warnings: Vec::new(),
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
                system.priority = Some(Priority {
                    high: p.high,
                    actions: env.set(&p.set)?,
                });
            }
            system.minimal = def.flags.minimal;
            system.deterministic = def.flags.deterministic;
            system.property = def.flags.property;
        } else if let Some(def) = self.processes.iter().find(|p| p.name == target) {
            let vals: Vec<Value> = composite::process_defaults(&self.globals, def)?;
            let m = process::compile(ctx, def, &vals, 0)?;
            comps.push(Comp {
                name: target.to_string(),
                m,
                property: def.flags.property,
            });
            system.minimal = def.flags.minimal;
            system.deterministic = def.flags.deterministic;
        } else {
            return Err(RawError::new(
                ErrorKind::Undefined {
                    what: "composite or process",
                    name: target.to_string(),
                },
                0,
            ));
        }
        for c in comps {
            let lts = c.m.to_lts().map_err(|k| RawError::new(k, 0))?;
            let end_state = c.m.end.map(StateId::from_u32);
            system.components.push(Component {
                name: c.name,
                lts,
                is_property: c.property,
                end_state,
            });
        }
        Ok(system)
    }
}

//! Elaborating composites into leaf components, LTSA-style.
//!
//! LTSA pushes the relabelling, prefixing and sharing written on a composite down onto each of its
//! component machines before composing, so that is what happens here: a composite elaborates to a
//! flat list of components, each renamed. Hiding written on a *nested* composite cannot be pushed
//! down (hiding before composing would change what synchronises), so its hidden actions are renamed
//! to fresh names that no other component uses (`name#k`); such names synchronise exactly as inside
//! the nested product and are treated as hidden by [`System::is_hidden`](crate::System::is_hidden).
//! Relabelling and prefixing never touch these fresh names (in LTSA they are already tau).

use std::sync::Arc;

use crate::ast::{CBody, CompositeDef, ProcessDef};
use crate::ctx::{Ctx, param_values};
use crate::error::{ErrorKind, Pos, RawError};
use crate::eval::{Env, Globals, Value};
use crate::labels::{FRESH_MARK, Hider, Relabelling};
use crate::machine::Machine;
use crate::process::compile;

/// How many composite levels (references and nested bodies) may nest.
const MAX_COMPOSITE_DEPTH: usize = 100;

/// One component during elaboration: a machine, or a nested composite to compose first.
#[derive(Debug, Clone)]
pub(crate) struct Comp {
    pub(crate) name: String,
    /// The machine (empty for a nested composite).
    pub(crate) m: Arc<Machine>,
    pub(crate) property: bool,
    /// A nested composite that must be composed before its parent (see [`NestedComp`]).
    pub(crate) nested: Option<Arc<NestedComp>>,
}

/// A nested composite that LTSA composes before its parent: `minimal`, prioritised, or relabelled
/// so that labels merge. Its parts are elaborated as usual; what its parent does to it (prefixing,
/// sharing, relabelling, hiding into fresh names) is recorded in `renames`, to apply to its product.
#[derive(Debug, Clone)]
pub(crate) struct NestedComp {
    pub(crate) parts: Vec<Comp>,
    /// Hiding written on the composite: (labels, whether it is an interface `@`).
    pub(crate) hide: Option<(Vec<String>, bool)>,
    pub(crate) priority: Option<crate::CompositePriority>,
    pub(crate) minimal: bool,
    /// `deterministic` or `property`: its product is determinised (LTSA's trace minimisation).
    pub(crate) deterministic: bool,
    pub(crate) renames: Vec<Rename>,
}

/// One renaming step applied by an enclosing composite.
#[derive(Debug, Clone)]
pub(crate) enum Rename {
    Relabel(Arc<Relabelling>),
    Prefix(String),
    Share(Vec<String>),
    /// Hidden by a flattened enclosing composite: made fresh with this number.
    Fresh(Arc<Hider>, u32),
}

impl Rename {
    /// The new names of action `x` (fresh, internal names are never renamed).
    pub(crate) fn apply(&self, x: &str) -> Vec<String> {
        if x.contains(FRESH_MARK) {
            return vec![x.to_string()];
        }
        match self {
            Rename::Relabel(rel) => rel.apply(x),
            Rename::Prefix(p) => vec![format!("{p}.{x}")],
            Rename::Share(names) => names.iter().map(|p| format!("{p}.{x}")).collect(),
            Rename::Fresh(hider, k) => vec![if hider.hides(x) {
                format!("{x}{FRESH_MARK}{k}")
            } else {
                x.to_string()
            }],
        }
    }
}

impl Comp {
    /// This component renamed by `step`: a machine at once, a nested composite after composing.
    fn renamed(self, step: Rename, name: String) -> Comp {
        match self.nested {
            Some(n) => {
                let mut n = (*n).clone();
                n.renames.push(step);
                Comp {
                    name,
                    nested: Some(Arc::new(n)),
                    ..self
                }
            }
            None => Comp {
                name,
                m: Arc::new(self.m.rename(|x| step.apply(x))),
                ..self
            },
        }
    }
}

impl<'m> Ctx<'m> {
    /// Elaborates a composite body into leaf components appended to `out`.
    pub(crate) fn cbody(
        &self,
        body: &'m CBody,
        env: &Env<'m>,
        out: &mut Vec<Comp>,
        depth: usize,
    ) -> Result<(), RawError> {
        if depth > MAX_COMPOSITE_DEPTH {
            return Err(RawError::new(
                ErrorKind::TooDeep(format!(
                    "composites nest more than {MAX_COMPOSITE_DEPTH} deep (unbounded recursion?)"
                )),
                cbody_pos(body),
            ));
        }
        match body {
            CBody::Ref { name, args, pos } => self.reference(name, args, env, *pos, out, depth),
            CBody::Par(parts) => {
                for p in parts {
                    self.cbody(p, env, out, depth + 1)?;
                }
                Ok(())
            }
            CBody::Forall(ix, inner) => {
                for (_, binds) in env.index_combos(ix)? {
                    self.cbody(inner, &env.with(&binds), out, depth + 1)?;
                }
                Ok(())
            }
            CBody::If(c, then, other) => {
                if env.eval_int(c)? != 0 {
                    self.cbody(then, env, out, depth + 1)
                } else if let Some(o) = other {
                    self.cbody(o, env, out, depth + 1)
                } else {
                    Ok(())
                }
            }
            CBody::Labelled { label, share, body } => {
                self.labelled(label, *share, body, env, out, depth)
            }
            CBody::Relabel(inner, items) => {
                let rel = Arc::new(Relabelling::new(env, items)?);
                let mut tmp = Vec::new();
                self.cbody(inner, env, &mut tmp, depth + 1)?;
                let named_composite =
                    matches!(&**inner, CBody::Ref { name, .. } if self.composite(name).is_some());
                if (rel.merges() || merges_actions(&rel, &tmp)) && tmp.len() > 1 && named_composite
                {
                    // LTSA composes a named composite whose relabelling merges labels first:
                    // pushed down, the merged label would make its parts synchronise. A
                    // parenthesised body (`(a:P)/{x/a.y}`) is pushed down, as in LTSA.
                    tmp = vec![nest(tmp, None, None, false)];
                }
                for c in tmp {
                    let name = c.name.clone();
                    out.push(c.renamed(Rename::Relabel(Arc::clone(&rel)), name));
                }
                Ok(())
            }
        }
    }

    fn labelled(
        &self,
        label: &'m crate::ast::Label,
        share: bool,
        body: &'m CBody,
        env: &Env<'m>,
        out: &mut Vec<Comp>,
        depth: usize,
    ) -> Result<(), RawError> {
        let labels = env.expand(label)?;
        if share {
            let names: Vec<String> = labels.into_iter().map(|(n, _)| n).collect();
            let mut tmp = Vec::new();
            self.cbody(body, env, &mut tmp, depth + 1)?;
            let shown = format!("{{{}}}", names.join(","));
            for c in tmp {
                let name = format!("{shown}::{}", c.name);
                out.push(c.renamed(Rename::Share(names.clone()), name));
            }
            return Ok(());
        }
        for (p, binds) in labels {
            let mut tmp = Vec::new();
            self.cbody(body, &env.with(&binds), &mut tmp, depth + 1)?;
            for c in tmp {
                let name = format!("{p}:{}", c.name);
                out.push(c.renamed(Rename::Prefix(p.clone()), name));
            }
        }
        Ok(())
    }

    fn reference(
        &self,
        name: &str,
        args: &[crate::ast::Expr],
        env: &Env<'m>,
        pos: Pos,
        out: &mut Vec<Comp>,
        depth: usize,
    ) -> Result<(), RawError> {
        if let Some(def) = self.process(name) {
            let vals = param_values(self.globals, &def.params, name, args, env, pos)?;
            let m = compile(self, def, &vals, 0)?;
            if def.flags.deterministic && m.end.is_some() {
                self.warn(
                    format!(
                        "'deterministic' on '{name}' is not applied: the process can reach END"
                    ),
                    pos,
                );
            }
            out.push(Comp {
                name: display_name(name, &vals),
                m,
                property: def.flags.property,
                nested: None,
            });
            return Ok(());
        }
        if self.is_constraint(name) && self.composite(name).is_none() {
            // LTSA composes a constraint's automaton as a process; the caller builds it from the
            // formula (System::constraints), as written: no prefix, relabelling or sharing.
            if !args.is_empty() {
                return Err(RawError::new(
                    ErrorKind::Semantic(format!("constraint {name} takes no arguments here")),
                    pos,
                ));
            }
            self.use_constraint(name);
            return Ok(());
        }
        let Some(def) = self.composite(name) else {
            return Err(RawError::new(
                ErrorKind::Undefined {
                    what: "process",
                    name: name.to_string(),
                    suggestion: self.suggest_process(name),
                },
                pos,
            ));
        };
        let vals = param_values(self.globals, &def.params, name, args, env, pos)?;
        let inner_env = bind_params(self.globals, def, &vals);
        let mut tmp = Vec::new();
        self.cbody(&def.body, &inner_env, &mut tmp, depth + 1)?;
        let flags = def.flags;
        if flags.minimal || flags.deterministic || flags.property || def.priority.is_some() {
            // Minimising, determinising or prioritising changes the composite itself, and a
            // property composite is one property: compose it first.
            let hide = match &def.hide {
                Some(h) => Some(Hider::new(&inner_env, h)?.into_parts()),
                None => None,
            };
            let priority = match &def.priority {
                Some(p) => Some(crate::CompositePriority {
                    high: p.high,
                    actions: inner_env.set(&p.set)?,
                }),
                None => None,
            };
            let mut c = nest(tmp, hide, priority, flags.minimal);
            if let Some(n) = c.nested.as_mut().and_then(Arc::get_mut) {
                n.deterministic = flags.deterministic || flags.property;
            }
            c.property = flags.property;
            c.name = display_name(name, &vals);
            out.push(c);
            return Ok(());
        }
        if let Some(h) = &def.hide {
            let hider = Arc::new(Hider::new(&inner_env, h)?);
            let k = self.next_fresh();
            tmp = tmp
                .into_iter()
                .map(|c| {
                    let name = c.name.clone();
                    c.renamed(Rename::Fresh(Arc::clone(&hider), k), name)
                })
                .collect();
        }
        out.extend(tmp);
        Ok(())
    }
}

/// Whether relabelling the leaves `comps` with `rel` gives two of their actions one name (LTSA's
/// `relabelDuplicates`): `/{c/d}` on a composite that has both `c` and `d` merges them, though the
/// relabelling alone maps no two names together. Nested parts count by the relabelling alone.
fn merges_actions(rel: &Relabelling, comps: &[Comp]) -> bool {
    let mut source_of: std::collections::HashMap<String, &str> = std::collections::HashMap::new();
    for c in comps.iter().filter(|c| c.nested.is_none()) {
        for name in c.m.visible() {
            for new in rel.apply(name) {
                if *source_of.entry(new).or_insert(name) != name {
                    return true;
                }
            }
        }
    }
    false
}

/// Wraps `parts` into one nested component, composed before its parent.
fn nest(
    parts: Vec<Comp>,
    hide: Option<(Vec<String>, bool)>,
    priority: Option<crate::CompositePriority>,
    minimal: bool,
) -> Comp {
    let names: Vec<&str> = parts.iter().map(|c| c.name.as_str()).collect();
    Comp {
        name: format!("({})", names.join(" || ")),
        m: Arc::new(Machine::default()),
        property: false,
        nested: Some(Arc::new(NestedComp {
            parts,
            hide,
            priority,
            minimal,
            deterministic: false,
            renames: Vec::new(),
        })),
    }
}

/// The environment of a composite's body: its parameters bound to `vals`.
pub(crate) fn bind_params<'m>(globals: &'m Globals, def: &CompositeDef, vals: &[Value]) -> Env<'m> {
    let mut env = Env::new(globals);
    for (p, v) in def.params.iter().zip(vals) {
        env.vars.push((Arc::from(p.name.as_str()), v.clone()));
    }
    env
}

/// Default parameter values of a composite.
pub(crate) fn composite_defaults(
    globals: &Globals,
    def: &CompositeDef,
) -> Result<Vec<Value>, RawError> {
    param_values(
        globals,
        &def.params,
        &def.name,
        &[],
        &Env::new(globals),
        def.pos,
    )
}

fn display_name(name: &str, vals: &[Value]) -> String {
    if vals.is_empty() {
        name.to_string()
    } else {
        let v: Vec<String> = vals.iter().map(ToString::to_string).collect();
        format!("{name}({})", v.join(","))
    }
}

fn cbody_pos(b: &CBody) -> Pos {
    match b {
        CBody::Ref { pos, .. } => *pos,
        CBody::Par(ps) => ps.first().map_or(0, cbody_pos),
        CBody::Forall(_, b) | CBody::Relabel(b, _) => cbody_pos(b),
        CBody::If(c, _, _) => c.pos,
        CBody::Labelled { label, .. } => label.pos,
    }
}

/// Default parameter values of a primitive process.
pub(crate) fn process_defaults(
    globals: &Globals,
    def: &ProcessDef,
) -> Result<Vec<Value>, RawError> {
    param_values(
        globals,
        &def.params,
        &def.name,
        &[],
        &Env::new(globals),
        def.pos,
    )
}

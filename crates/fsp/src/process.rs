//! Compiling one primitive process definition (with its local processes) into a [`Machine`].
//!
//! Each local process instance (`P[2][1]`) is one state, keyed as LTSA keys it: by its name and
//! index values joined with dots (`P.2.1`), so an index that is itself a dotted label (`PORT[t]`
//! with `t` from a set of two-part labels) lands on the same instance as LTSA's. Every `->` after
//! the first action of a prefix gets a fresh intermediate state. A reference to an instance that
//! does not exist (an index out of range) becomes `ERROR`, with a warning, as in LTSA.
//!
//! Work is done from an explicit queue rather than by recursion over prefixes, so a process with a
//! long chain of actions cannot overflow the stack. Recursion remains only along aliases
//! (`P = Q`), conditionals and sequential composition, each with a depth limit.

use std::collections::HashMap;
use std::sync::Arc;

use crate::ast::{Branch, ProcessDef, Term};
use crate::ctx::Ctx;
use crate::error::{ErrorKind, Pos, RawError};
use crate::eval::{Binding, Env, Value};
use crate::labels::{Hider, Relabelling};
use crate::machine::{Machine, TAU};

/// How long a chain of aliases (`P = Q, Q = R, ...`) may be.
const MAX_ALIAS_DEPTH: usize = 1000;
/// How deeply sequential compositions may nest across definitions.
pub(crate) const MAX_SEQ_DEPTH: usize = 64;

/// Compiles `def` applied to `args` (already checked for arity) into a machine, including its
/// alphabet extension, relabelling and hiding. Property processes are returned as they are
/// written (the caller flags them).
pub(crate) fn compile(
    ctx: &Ctx<'_>,
    def: &ProcessDef,
    args: &[Value],
    depth: usize,
) -> Result<Arc<Machine>, RawError> {
    let key = (def.name.clone(), args.to_vec());
    if let Some(m) = ctx.cache.borrow().get(&key) {
        return Ok(m.clone());
    }
    if depth > MAX_SEQ_DEPTH {
        return Err(too_deep(ctx, def));
    }
    let _compiling = Compiling::enter(ctx, def, args);
    let mut base = Env::new(ctx.globals);
    for (p, v) in def.params.iter().zip(args) {
        base.vars.push((Arc::from(p.name.as_str()), v.clone()));
    }
    // Boxed: compile recurses through sequential composition, and the compiler is large.
    let mut c = Box::new(Compiler {
        ctx,
        def,
        base: base.clone(),
        instances: HashMap::new(),
        order: Vec::new(),
        state_of: HashMap::new(),
        resolving: Vec::new(),
        m: Machine::default(),
        stop: None,
        work: Vec::new(),
        depth,
    });
    c.enumerate_instances()?;
    let init = c.state_for_key(&def.name, def.pos, 0)?;
    c.m.initial = init;
    c.drain()?;
    c.compile_unreachable()?;
    c.m.keep_reachable();
    let m = finish_process(ctx, def, &base, std::mem::take(&mut c.m))?;
    let m = finish_flags(def, m)?;
    let m = Arc::new(m);
    ctx.cache.borrow_mut().insert(key, m.clone());
    Ok(m)
}

/// The error for processes nested past [`MAX_SEQ_DEPTH`], naming the cause: a process calling
/// itself with new arguments (`P(N) = (a -> P(N+1))`: every value is a new process), or a
/// sequential composition that never ends.
fn too_deep(ctx: &Ctx<'_>, def: &ProcessDef) -> RawError {
    let stack = ctx.compiling.borrow();
    let calls: Vec<String> = stack
        .iter()
        .filter(|(name, args)| *name == def.name && !args.is_empty())
        .take(3)
        .map(|(name, args)| {
            let args: Vec<String> = args.iter().map(ToString::to_string).collect();
            format!("{name}({})", args.join(","))
        })
        .collect();
    let message = if calls.len() == 3 {
        format!(
            "unbounded parameter recursion: '{}' calls itself with new arguments ({}, ...), a new process for each value, more than {MAX_SEQ_DEPTH} deep; bound it with a condition, or recurse through an indexed local process (P(N=1) = Q[N], Q[i:1..M] = (a -> Q[i+1]))",
            def.name,
            calls.join(", ")
        )
    } else {
        format!("unbounded recursion: sequential composition nests more than {MAX_SEQ_DEPTH} deep")
    };
    RawError::new(ErrorKind::TooDeep(message), def.pos)
}

/// What a definition's flags ask of the compiled machine: a `property` must be deterministic, a
/// `minimal` process is minimised. Kept out of [`compile`], whose frame every level of a deep
/// sequential composition pays for.
#[inline(never)]
fn finish_flags(def: &ProcessDef, mut m: Machine) -> Result<Machine, RawError> {
    if def.flags.property {
        check_deterministic(def, &m)?;
    }
    if def.flags.minimal {
        // LTSA: observational equivalence, which is strong bisimulation when there is no tau.
        let has_tau = m.trans.iter().any(|t| t.1 == 0);
        m = if has_tau {
            m.minimise_weak()
        } else {
            m.minimise()
        }
        .map_err(|k| RawError::new(k, def.pos))?;
    }
    if def.flags.deterministic && m.end.is_none() {
        // LTSA determinises a `deterministic` process wherever it is used.
        m = m.determinise().map_err(|k| RawError::new(k, def.pos))?;
    }
    Ok(m)
}

/// LTSA's rule: a primitive `property` process must be deterministic (no tau, no two moves on one
/// action from one state), or its error form would not say which traces are allowed.
fn check_deterministic(def: &ProcessDef, m: &Machine) -> Result<(), RawError> {
    // Two identical moves are one (LTSA's `(d -> P | d -> P)` is deterministic).
    let mut seen = std::collections::HashMap::new();
    for &(s, a, t) in &m.trans {
        if a == 0 || *seen.entry((s, a)).or_insert(t) != t {
            let what = if a == 0 {
                "a tau move".to_owned()
            } else {
                format!("two moves on '{}' from one state", m.actions[a as usize])
            };
            return Err(RawError::semantic(
                format!(
                    "primitive property processes must be deterministic (LTSA): '{}' has {what}",
                    def.name
                ),
                def.pos,
            ));
        }
    }
    Ok(())
}

/// A process on [`Ctx::compiling`] while it compiles (popped when dropped, on every return).
struct Compiling<'c, 'm>(&'c Ctx<'m>);

impl<'c, 'm> Compiling<'c, 'm> {
    fn enter(ctx: &'c Ctx<'m>, def: &ProcessDef, args: &[Value]) -> Self {
        ctx.compiling
            .borrow_mut()
            .push((def.name.clone(), args.to_vec()));
        Self(ctx)
    }
}

impl Drop for Compiling<'_, '_> {
    fn drop(&mut self) {
        self.0.compiling.borrow_mut().pop();
    }
}

enum Work<'a> {
    /// Add the transitions of a choice to `state`.
    Choice {
        state: u32,
        branches: &'a [Branch],
        env: Vec<Binding>,
    },
    /// Add the transitions for action `k` of `branch` to `state`.
    Chain {
        state: u32,
        branch: &'a Branch,
        k: usize,
        env: Vec<Binding>,
    },
}

struct Compiler<'a, 'c> {
    ctx: &'a Ctx<'c>,
    def: &'a ProcessDef,
    base: Env<'c>,
    /// Instance key -> (index of the local definition, its index bindings).
    instances: HashMap<String, (usize, Vec<Binding>)>,
    /// The instance keys in definition order (for a deterministic numbering).
    order: Vec<String>,
    state_of: HashMap<String, u32>,
    /// Keys whose alias chain is being resolved (to detect `P = Q, Q = P`).
    resolving: Vec<String>,
    m: Machine,
    stop: Option<u32>,
    work: Vec<Work<'a>>,
    depth: usize,
}

fn instance_key(name: &str, values: &[Value]) -> String {
    let mut k = name.to_string();
    for v in values {
        k.push('.');
        k.push_str(&v.to_string());
    }
    k
}

impl<'a> Compiler<'a, '_> {
    fn enumerate_instances(&mut self) -> Result<(), RawError> {
        for (i, local) in self.def.locals.iter().enumerate() {
            for (vals, binds) in self.base.index_combos(&local.indices)? {
                let key = instance_key(&local.name, &vals);
                self.order.push(key.clone());
                if self.instances.insert(key.clone(), (i, binds)).is_some() {
                    return Err(RawError::new(
                        ErrorKind::Duplicate {
                            what: "local process",
                            name: key,
                        },
                        local.pos,
                    ));
                }
                if self.instances.len() > self.ctx.max_states {
                    return Err(self.ctx.state_limit(local.pos));
                }
            }
        }
        Ok(())
    }

    /// Compiles every local instance the initial state does not reach. LTSA builds all of them
    /// and prunes unreachable states only afterwards, so their actions stay in the alphabet: in
    /// `VAR[i:0..3] = (r[i] -> VAR[i] | w[j:0..2] -> VAR[j])` from `VAR[0]`, `r[3]` is declared
    /// (and therefore blocked) although `VAR[3]` is never reached.
    fn compile_unreachable(&mut self) -> Result<(), RawError> {
        let order = std::mem::take(&mut self.order);
        for key in &order {
            if !self.state_of.contains_key(key) {
                self.state_for_key(key, self.def.pos, 0)?;
                self.drain()?;
            }
        }
        self.order = order;
        Ok(())
    }

    fn new_state(&mut self, pos: Pos) -> Result<u32, RawError> {
        if self.m.num_states as usize >= self.ctx.max_states {
            return Err(self.ctx.state_limit(pos));
        }
        self.m.num_states += 1;
        Ok(self.m.num_states - 1)
    }

    fn error_state(&mut self, pos: Pos) -> Result<u32, RawError> {
        if let Some(e) = self.m.error {
            return Ok(e);
        }
        let e = self.new_state(pos)?;
        self.m.error = Some(e);
        Ok(e)
    }

    fn stop_state(&mut self, pos: Pos) -> Result<u32, RawError> {
        if let Some(s) = self.stop {
            return Ok(s);
        }
        let s = self.new_state(pos)?;
        self.stop = Some(s);
        Ok(s)
    }

    fn end_state(&mut self, pos: Pos) -> Result<u32, RawError> {
        if let Some(e) = self.m.end {
            return Ok(e);
        }
        let e = self.new_state(pos)?;
        self.m.end = Some(e);
        Ok(e)
    }

    fn env(&self, binds: &[Binding]) -> Env<'a> {
        // The base environment lives as long as the context; rebuild it with the bindings.
        let mut e = Env::new(self.ctx.globals);
        e.vars.extend(self.base.vars.iter().cloned());
        e.vars.extend(binds.iter().cloned());
        e
    }

    /// The state of a local process instance, creating it (and queueing its body) if needed.
    fn state_for_key(&mut self, key: &str, pos: Pos, depth: usize) -> Result<u32, RawError> {
        if let Some(&s) = self.state_of.get(key) {
            return Ok(s);
        }
        let Some((li, binds)) = self.instances.get(key).cloned() else {
            self.ctx.warn(
                format!("process '{key}' is not defined (index out of range): ERROR"),
                pos,
            );
            return self.error_state(pos);
        };
        if self.resolving.iter().any(|k| k == key) {
            return Err(RawError::semantic(
                format!("definition of '{key}' is not guarded (it only renames itself)"),
                pos,
            ));
        }
        if depth > MAX_ALIAS_DEPTH {
            return Err(RawError::new(
                ErrorKind::TooDeep(format!("alias chain longer than {MAX_ALIAS_DEPTH}")),
                pos,
            ));
        }
        let def: &'a ProcessDef = self.def;
        let body = &def.locals[li].body;
        self.resolving.push(key.to_string());
        let s = self.resolve(body, &binds, depth + 1, Some(key));
        self.resolving.pop();
        let s = s?;
        self.state_of.insert(key.to_string(), s);
        Ok(s)
    }

    /// The state a term stands for. `owner` is the instance key being defined, if the term is a
    /// whole local definition body (so a choice can record its state before its body is built).
    fn resolve(
        &mut self,
        term: &'a Term,
        binds: &[Binding],
        depth: usize,
        owner: Option<&str>,
    ) -> Result<u32, RawError> {
        match term {
            // LTSA gives a process one STOP state, however many times STOP is written.
            Term::Stop(pos) => self.stop_state(*pos),
            Term::End(pos) => self.end_state(*pos),
            Term::Error(pos) => self.error_state(*pos),
            Term::Choice(branches, pos) => {
                let s = self.new_state(*pos)?;
                if let Some(k) = owner {
                    self.state_of.insert(k.to_string(), s);
                }
                self.work.push(Work::Choice {
                    state: s,
                    branches,
                    env: binds.to_vec(),
                });
                Ok(s)
            }
            Term::If(cond, then, other) => {
                if self.env(binds).eval_int(cond)? != 0 {
                    self.resolve(then, binds, depth + 1, owner)
                } else if let Some(o) = other {
                    self.resolve(o, binds, depth + 1, owner)
                } else {
                    self.stop_state(cond.pos)
                }
            }
            Term::Ref {
                name,
                indices,
                args,
                pos,
            } => {
                if args.is_none() {
                    let env = self.env(binds);
                    let vals = indices
                        .iter()
                        .map(|e| env.eval(e))
                        .collect::<Result<Vec<_>, _>>()?;
                    let key = instance_key(name, &vals);
                    if self.def.locals.iter().any(|l| &l.name == name) {
                        return self.state_for_key(&key, *pos, depth + 1);
                    }
                    return self.undefined_local(name, &key, *pos);
                }
                let cont = self.end_state(*pos)?;
                self.embed(term, binds, cont, None)
            }
            Term::Seq(parts, pos) => {
                // The first process guards the rest, so `P = Q;P` is fine: the state of the owner
                // is made first and becomes the copy of Q's initial state.
                let first = match owner {
                    Some(k) => {
                        let s = self.new_state(*pos)?;
                        self.state_of.insert(k.to_string(), s);
                        Some(s)
                    }
                    None => None,
                };
                let (last, firsts) = parts.split_last().expect("a sequence has parts");
                let mut cont = match last {
                    // The last part may be another process too (`P = Q;R`): embedded, ending in END.
                    Term::Ref { name, args, .. }
                        if args.is_none()
                            && !self.def.locals.iter().any(|l| &l.name == name)
                            && self.ctx.process(name).is_some() =>
                    {
                        let end = self.end_state(*pos)?;
                        self.embed(last, binds, end, None)?
                    }
                    _ => self.resolve(last, binds, depth + 1, None)?,
                };
                for (i, part) in firsts.iter().enumerate().rev() {
                    cont = self.embed(part, binds, cont, if i == 0 { first } else { None })?;
                }
                Ok(cont)
            }
        }
    }

    /// A name that is not a local process of this definition: `ERROR` with LTSA's warning (and a
    /// hint: another process is reached by sequential composition; or the nearest local name).
    /// Kept out of [`Self::resolve`], whose frame every level of a deep composition pays for.
    #[inline(never)]
    fn undefined_local(&mut self, name: &str, key: &str, pos: Pos) -> Result<u32, RawError> {
        // LTSA's rule: a process body names only its own local processes (another
        // process is reached by sequential composition, P;Q); anything else is ERROR.
        let hint = if self.ctx.process(name).is_some() {
            format!(
                " ('{name}' is another process: a body names only its own local processes; compose them with ||, or write {name};... for sequential composition)"
            )
        } else {
            let locals: Vec<&str> = self.def.locals.iter().map(|l| l.name.as_str()).collect();
            crate::closest(name, &locals)
                .map(|l| format!("; did you mean '{l}'?"))
                .unwrap_or_default()
        };
        self.ctx
            .warn(format!("{key} defined to be ERROR{hint}"), pos);
        self.error_state(pos)
    }

    /// Copies another process into this machine, its `END` becoming `cont`; returns the copy of
    /// its initial state.
    fn embed(
        &mut self,
        term: &'a Term,
        binds: &[Binding],
        cont: u32,
        init: Option<u32>,
    ) -> Result<u32, RawError> {
        let Term::Ref {
            name,
            indices,
            args,
            pos,
        } = term
        else {
            return Err(RawError::semantic(
                "sequential composition needs process names (P;Q)",
                term_pos(term),
            ));
        };
        if !indices.is_empty() {
            return Err(RawError::semantic(
                "sequential composition of an indexed process",
                *pos,
            ));
        }
        let Some(def) = self.ctx.process(name) else {
            return Err(RawError::new(
                ErrorKind::Undefined {
                    what: "process",
                    name: name.clone(),
                    suggestion: self.ctx.suggest_process(name),
                },
                *pos,
            ));
        };
        let env = self.env(binds);
        let args = self.ctx.args(
            def,
            &name.clone(),
            args.as_deref().unwrap_or(&[]),
            &env,
            *pos,
        )?;
        let sub = compile(self.ctx, def, &args, self.depth + 1)?;
        let mut map = Vec::with_capacity(sub.num_states as usize);
        for s in 0..sub.num_states {
            let t = if Some(s) == sub.end {
                cont
            } else if s == sub.initial && init.is_some() {
                init.expect("checked")
            } else if Some(s) == sub.error {
                self.error_state(*pos)?
            } else {
                self.new_state(*pos)?
            };
            map.push(t);
        }
        let acts: Vec<u32> = sub.actions.iter().map(|a| self.m.action(a)).collect();
        for &(s, a, t) in &sub.trans {
            self.m
                .trans
                .push((map[s as usize], acts[a as usize], map[t as usize]));
        }
        Ok(map[sub.initial as usize])
    }

    fn drain(&mut self) -> Result<(), RawError> {
        while let Some(w) = self.work.pop() {
            match w {
                Work::Choice {
                    state,
                    branches,
                    env,
                } => {
                    for branch in branches {
                        if let Some(g) = &branch.guard
                            && self.env(&env).eval_int(g)? == 0
                        {
                            continue;
                        }
                        self.work.push(Work::Chain {
                            state,
                            branch,
                            k: 0,
                            env: env.clone(),
                        });
                    }
                }
                Work::Chain {
                    state,
                    branch,
                    k,
                    env,
                } => self.chain(state, branch, k, &env)?,
            }
            if self.m.trans.len() > self.ctx.max_transitions {
                return Err(self.ctx.state_limit(self.def.pos));
            }
        }
        Ok(())
    }

    fn chain(
        &mut self,
        state: u32,
        branch: &'a Branch,
        k: usize,
        env: &[Binding],
    ) -> Result<(), RawError> {
        let label = &branch.actions[k];
        let expanded = self.env(env).expand(label)?;
        // Each expansion gets its own continuation, as in LTSA: `{a,b} -> c -> P` has two states
        // before `c`, not one.
        for (name, extra) in expanded {
            let mut env2 = env.to_vec();
            env2.extend(extra);
            let target = if k + 1 < branch.actions.len() {
                let t = self.new_state(label.pos)?;
                self.work.push(Work::Chain {
                    state: t,
                    branch,
                    k: k + 1,
                    env: env2,
                });
                t
            } else {
                self.resolve(&branch.target, &env2, 0, None)?
            };
            let a = self.m.action(&name);
            self.m.trans.push((state, a, target));
        }
        Ok(())
    }
}

fn term_pos(t: &Term) -> Pos {
    match t {
        Term::Stop(p) | Term::End(p) | Term::Error(p) | Term::Choice(_, p) | Term::Seq(_, p) => *p,
        Term::Ref { pos, .. } => *pos,
        Term::If(c, _, _) => c.pos,
    }
}

/// Applies a process definition's alphabet extension, relabelling and hiding, in LTSA's order.
pub(crate) fn finish_process(
    _ctx: &Ctx<'_>,
    def: &ProcessDef,
    env: &Env<'_>,
    mut m: Machine,
) -> Result<Machine, RawError> {
    if let Some(ext) = &def.alpha_ext {
        for name in env.set(ext)? {
            m.action(&name);
        }
    }
    if !def.relabel.is_empty() {
        let rel = Relabelling::new(env, &def.relabel)?;
        m = m.rename(|n| rel.apply(n));
    }
    if let Some(h) = &def.hide {
        let hider = Hider::new(env, h)?;
        m = m.rename(|n| {
            vec![if hider.hides(n) {
                TAU.to_string()
            } else {
                n.to_string()
            }]
        });
    }
    Ok(m)
}

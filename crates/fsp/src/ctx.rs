//! The shared state of one elaboration ([`Ctx`]): the definitions by name, the cache of compiled
//! processes, warnings and limits. Both halves of the elaborator use it: `process` (primitive
//! processes) and `composite` (which compiles processes through `process`), so it sits below both.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::sync::Arc;

use crate::ast::{CompositeDef, ProcessDef};
use crate::error::{ErrorKind, Pos, RawError};
use crate::eval::{Env, Globals, Value};
use crate::machine::Machine;

/// A compiled process: its name and argument values.
pub(crate) type CacheKey = (String, Vec<Value>);

/// Shared state of one elaboration: definitions, caches, warnings, limits.
#[derive(Debug)]
pub(crate) struct Ctx<'m> {
    pub(crate) globals: &'m Globals,
    processes: HashMap<&'m str, &'m ProcessDef>,
    composites: HashMap<&'m str, &'m CompositeDef>,
    pub(crate) cache: RefCell<HashMap<CacheKey, Arc<Machine>>>,
    warnings: RefCell<Vec<(String, Pos)>>,
    warned: RefCell<std::collections::HashSet<(String, Pos)>>,
    pub(crate) max_states: usize,
    pub(crate) max_transitions: usize,
    fresh: Cell<u32>,
    /// The processes being compiled, outermost first (a sequential composition or a call with
    /// arguments compiles another inside), to name the cause when they nest too deep.
    pub(crate) compiling: RefCell<Vec<(String, Vec<Value>)>>,
    /// The file's `constraint` names, and those the target's composites name, in order.
    constraints: std::collections::HashSet<String>,
    used_constraints: RefCell<Vec<String>>,
}

impl<'m> Ctx<'m> {
    pub(crate) fn new(
        globals: &'m Globals,
        processes: &'m [ProcessDef],
        composites: &'m [CompositeDef],
        max_states: usize,
        max_transitions: usize,
    ) -> Self {
        Self {
            globals,
            processes: processes.iter().map(|p| (p.name.as_str(), p)).collect(),
            composites: composites.iter().map(|c| (c.name.as_str(), c)).collect(),
            cache: RefCell::default(),
            warnings: RefCell::default(),
            warned: RefCell::default(),
            max_states,
            max_transitions,
            fresh: Cell::new(0),
            compiling: RefCell::default(),
            constraints: std::collections::HashSet::new(),
            used_constraints: RefCell::default(),
        }
    }

    /// The same context knowing the file's `constraint` names.
    #[must_use]
    pub(crate) fn with_constraints(mut self, names: impl IntoIterator<Item = String>) -> Self {
        self.constraints = names.into_iter().collect();
        self
    }

    /// Whether `name` is a `constraint` of the file.
    pub(crate) fn is_constraint(&self, name: &str) -> bool {
        self.constraints.contains(name)
    }

    /// Records that a composite names the constraint `name` (once).
    pub(crate) fn use_constraint(&self, name: &str) {
        let mut used = self.used_constraints.borrow_mut();
        if !used.iter().any(|n| n == name) {
            used.push(name.to_owned());
        }
    }

    /// The constraints the composites named, in order.
    pub(crate) fn take_constraints(&self) -> Vec<String> {
        std::mem::take(&mut self.used_constraints.borrow_mut())
    }

    pub(crate) fn process(&self, name: &str) -> Option<&'m ProcessDef> {
        self.processes.get(name).copied()
    }

    pub(crate) fn composite(&self, name: &str) -> Option<&'m CompositeDef> {
        self.composites.get(name).copied()
    }

    /// The defined process or composite nearest to a misspelt `name`, for a did-you-mean.
    pub(crate) fn suggest_process(&self, name: &str) -> Option<String> {
        let mut names: Vec<&str> = self.processes.keys().copied().collect();
        names.extend(self.composites.keys().copied());
        names.sort_unstable();
        crate::closest(name, &names).map(str::to_owned)
    }

    pub(crate) fn warn(&self, msg: String, pos: Pos) {
        // The same problem in many instances is reported once; a set, because a model with many
        // out-of-range instances warns thousands of times (a linear scan made that quadratic).
        if self.warned.borrow_mut().insert((msg.clone(), pos)) {
            self.warnings.borrow_mut().push((msg, pos));
        }
    }

    /// A number for the fresh names of one nested composite's hidden actions, unused so far.
    pub(crate) fn next_fresh(&self) -> u32 {
        let k = self.fresh.get();
        self.fresh.set(k + 1);
        k
    }

    pub(crate) fn take_warnings(&self) -> Vec<(String, Pos)> {
        std::mem::take(&mut self.warnings.borrow_mut())
    }

    pub(crate) fn state_limit(&self, pos: Pos) -> RawError {
        RawError::new(
            ErrorKind::Limit(format!(
                "elaboration exceeds the limit of {} states or {} transitions in one process",
                self.max_states, self.max_transitions
            )),
            pos,
        )
    }

    /// Evaluates arguments (or the defaults when none are given) for a definition's parameters.
    pub(crate) fn args(
        &self,
        def_params: &ProcessDef,
        name: &str,
        args: &[crate::ast::Expr],
        env: &Env<'_>,
        pos: Pos,
    ) -> Result<Vec<Value>, RawError> {
        param_values(self.globals, &def_params.params, name, args, env, pos)
    }
}

/// The values of `params` for a use with `args` (the defaults when none are given).
pub(crate) fn param_values(
    globals: &Globals,
    params: &[crate::ast::Param],
    name: &str,
    args: &[crate::ast::Expr],
    env: &Env<'_>,
    pos: Pos,
) -> Result<Vec<Value>, RawError> {
    if args.is_empty() {
        let mut d = Env::new(globals);
        let mut out = Vec::new();
        for p in params {
            let v = d.eval(&p.default)?;
            d.vars.push((Arc::from(p.name.as_str()), v.clone()));
            out.push(v);
        }
        return Ok(out);
    }
    if args.len() != params.len() {
        return Err(RawError::new(
            ErrorKind::Arity {
                name: name.to_string(),
                expected: params.len(),
                found: args.len(),
            },
            pos,
        ));
    }
    args.iter().map(|a| env.eval(a)).collect()
}

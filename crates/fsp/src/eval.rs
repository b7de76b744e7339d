//! Evaluation of expressions, ranges, sets and action labels under variable bindings.
//!
//! FSP values are integers or labels (`'x`, or members of a label set bound by `[x:S]`). Integers
//! are 64-bit with checked arithmetic: an overflow is a located error rather than a silent wrap.
//! Expanding a label such as `a[i:0..2].{x,y}` yields every concrete action name with the bindings
//! it introduces, because later parts of a prefix (`a[i:R] -> b[i] -> P[i]`) depend on them.

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use crate::ast::{BinOp, Expr, ExprKind, Index, Label, RangeSpec, Seg, SetExpr, UnOp};
use crate::error::{ErrorKind, Pos, RawError};

/// The most values one range, set or label expansion may produce.
pub(crate) const MAX_EXPANSION: usize = 1 << 22;

/// An FSP value.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Value {
    Int(i64),
    Label(Arc<str>),
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Int(n) => write!(f, "{n}"),
            Value::Label(s) => f.write_str(s),
        }
    }
}

/// Constants, ranges and sets declared at the top of a file.
#[derive(Debug, Default)]
pub(crate) struct Globals {
    pub(crate) consts: HashMap<String, Value>,
    pub(crate) ranges: HashMap<String, (i64, i64)>,
    pub(crate) sets: HashMap<String, Arc<Vec<String>>>,
}

/// A variable binding.
pub(crate) type Binding = (Arc<str>, Value);

/// One value of an index, with the variable it binds (if any).
pub(crate) type IndexValue = (Value, Option<Arc<str>>);

/// Index values with the bindings they introduce.
pub(crate) type Combos = Vec<(Vec<Value>, Vec<Binding>)>;

/// Expanded action names with the bindings each introduces.
/// The choices of one level of a nested expansion, given the bindings so far, each with the
/// binding it introduces ([`Env::count_leaves`]).
type LevelValues<'f> = dyn Fn(&Env<'_>, usize) -> Result<Vec<Option<Binding>>, RawError> + 'f;

pub(crate) type Expansion = Vec<(String, Vec<Binding>)>;

/// An evaluation environment: the globals plus a stack of bindings (later ones shadow earlier).
#[derive(Clone, Debug)]
pub(crate) struct Env<'g> {
    pub(crate) globals: &'g Globals,
    pub(crate) vars: Vec<Binding>,
}

impl<'g> Env<'g> {
    pub(crate) fn new(globals: &'g Globals) -> Self {
        Self {
            globals,
            vars: Vec::new(),
        }
    }

    /// This environment with extra bindings.
    pub(crate) fn with(&self, extra: &[Binding]) -> Self {
        let mut e = self.clone();
        e.vars.extend(extra.iter().cloned());
        e
    }

    fn lookup(&self, name: &str) -> Option<&Value> {
        self.vars
            .iter()
            .rev()
            .find(|(n, _)| &**n == name)
            .map(|(_, v)| v)
            .or_else(|| self.globals.consts.get(name))
    }

    /// Whether `name` is a range or set that is not shadowed by a value.
    fn is_collection(&self, name: &str) -> bool {
        self.lookup(name).is_none()
            && (self.globals.ranges.contains_key(name) || self.globals.sets.contains_key(name))
    }

    // ---- expressions ----

    pub(crate) fn eval(&self, e: &Expr) -> Result<Value, RawError> {
        match &e.kind {
            ExprKind::Int(n) => Ok(Value::Int(*n)),
            ExprKind::Quote(s) => Ok(Value::Label(Arc::from(s.as_str()))),
            ExprKind::Ident(name) => self.lookup(name).cloned().ok_or_else(|| {
                let what = if self.is_collection(name) {
                    return RawError::new(
                        ErrorKind::Type(format!("'{name}' is a range or set, not a value")),
                        e.pos,
                    );
                } else if name.starts_with(|c: char| c.is_ascii_uppercase()) {
                    "constant"
                } else {
                    "variable"
                };
                RawError::new(
                    ErrorKind::Undefined {
                        what,
                        name: name.clone(),
                        suggestion: None,
                    },
                    e.pos,
                )
            }),
            ExprKind::Unary(op, a) => {
                let v = self.eval_int(a)?;
                let r = match op {
                    UnOp::Neg => v
                        .checked_neg()
                        .ok_or(RawError::new(ErrorKind::Overflow, e.pos))?,
                    UnOp::Not => i64::from(v == 0),
                };
                Ok(Value::Int(r))
            }
            ExprKind::Binary(op, a, b) => self.eval_binary(*op, a, b, e.pos),
            ExprKind::Cond(c, a, b) => {
                if self.eval_int(c)? != 0 {
                    self.eval(a)
                } else {
                    self.eval(b)
                }
            }
        }
    }

    pub(crate) fn eval_int(&self, e: &Expr) -> Result<i64, RawError> {
        match self.eval(e)? {
            Value::Int(n) => Ok(n),
            Value::Label(s) => Err(RawError::new(
                ErrorKind::Type(format!("expected a number, found label '{s}'")),
                e.pos,
            )),
        }
    }

    fn eval_binary(&self, op: BinOp, lhs: &Expr, rhs: &Expr, pos: Pos) -> Result<Value, RawError> {
        let overflow = || RawError::new(ErrorKind::Overflow, pos);
        match op {
            BinOp::And => {
                let r = self.eval_int(lhs)? != 0 && self.eval_int(rhs)? != 0;
                return Ok(Value::Int(i64::from(r)));
            }
            BinOp::Or => {
                let r = self.eval_int(lhs)? != 0 || self.eval_int(rhs)? != 0;
                return Ok(Value::Int(i64::from(r)));
            }
            BinOp::Eq | BinOp::Ne => {
                let eq = self.eval(lhs)? == self.eval(rhs)?;
                return Ok(Value::Int(i64::from(eq == matches!(op, BinOp::Eq))));
            }
            _ => {}
        }
        let (x, y) = (self.eval_int(lhs)?, self.eval_int(rhs)?);
        let r = match op {
            BinOp::Add => x.checked_add(y).ok_or_else(overflow)?,
            BinOp::Sub => x.checked_sub(y).ok_or_else(overflow)?,
            BinOp::Mul => x.checked_mul(y).ok_or_else(overflow)?,
            BinOp::Div | BinOp::Rem => {
                if y == 0 {
                    return Err(RawError::new(ErrorKind::DivisionByZero, pos));
                }
                let r = if matches!(op, BinOp::Div) {
                    x.checked_div(y)
                } else {
                    x.checked_rem(y)
                };
                r.ok_or_else(overflow)?
            }
            BinOp::BitAnd => x & y,
            BinOp::BitXor => x ^ y,
            BinOp::Shl | BinOp::Shr => {
                let sh = u32::try_from(y)
                    .ok()
                    .filter(|&s| s < 64)
                    .ok_or_else(overflow)?;
                if matches!(op, BinOp::Shl) {
                    x.checked_shl(sh).ok_or_else(overflow)?
                } else {
                    x >> sh
                }
            }
            BinOp::Lt => i64::from(x < y),
            BinOp::Le => i64::from(x <= y),
            BinOp::Gt => i64::from(x > y),
            BinOp::Ge => i64::from(x >= y),
            BinOp::And | BinOp::Or | BinOp::Eq | BinOp::Ne => unreachable!("handled above"),
        };
        Ok(Value::Int(r))
    }

    // ---- ranges, sets, indices ----

    fn int_range(lo: i64, hi: i64, pos: Pos) -> Result<Vec<Value>, RawError> {
        let len = i128::from(hi) - i128::from(lo) + 1;
        if len > MAX_EXPANSION as i128 {
            return Err(RawError::new(
                ErrorKind::Limit(format!(
                    "range {lo}..{hi} has more than {MAX_EXPANSION} values"
                )),
                pos,
            ));
        }
        Ok((lo..=hi).map(Value::Int).collect())
    }

    fn named_values(&self, name: &str, pos: Pos) -> Result<Vec<Value>, RawError> {
        if let Some(&(lo, hi)) = self.globals.ranges.get(name) {
            return Self::int_range(lo, hi, pos);
        }
        if let Some(set) = self.globals.sets.get(name) {
            return Ok(set
                .iter()
                .map(|s| Value::Label(Arc::from(s.as_str())))
                .collect());
        }
        Err(RawError::new(
            ErrorKind::Undefined {
                what: "range or set",
                name: name.into(),
                suggestion: None,
            },
            pos,
        ))
    }

    pub(crate) fn range_values(&self, spec: &RangeSpec) -> Result<Vec<Value>, RawError> {
        match spec {
            RangeSpec::Named(name, pos) => self.named_values(name, *pos),
            RangeSpec::Bounds(lo, hi) => {
                Self::int_range(self.eval_int(lo)?, self.eval_int(hi)?, lo.pos)
            }
            RangeSpec::Set(s) => Ok(self
                .set(s)?
                .into_iter()
                .map(|l| Value::Label(l.into()))
                .collect()),
        }
    }

    /// The values of one index, each with the binding it introduces (if any).
    pub(crate) fn index_values(&self, ix: &Index) -> Result<Vec<IndexValue>, RawError> {
        let plain = |vs: Vec<Value>| vs.into_iter().map(|v| (v, None)).collect();
        match ix {
            Index::Binder(var, spec) => {
                let var: Arc<str> = Arc::from(var.as_str());
                Ok(self
                    .range_values(spec)?
                    .into_iter()
                    .map(|v| (v, Some(var.clone())))
                    .collect())
            }
            Index::Range(lo, hi) => Ok(plain(Self::int_range(
                self.eval_int(lo)?,
                self.eval_int(hi)?,
                lo.pos,
            )?)),
            Index::Set(s) => Ok(plain(
                self.set(s)?
                    .into_iter()
                    .map(|l| Value::Label(l.into()))
                    .collect(),
            )),
            Index::Expr(e) => match &e.kind {
                ExprKind::Ident(name) if self.is_collection(name) => {
                    Ok(plain(self.named_values(name, e.pos)?))
                }
                _ => Ok(vec![(self.eval(e)?, None)]),
            },
        }
    }

    /// Every combination of values of `indices`, each with the bindings it introduces. Later
    /// indices may use variables bound by earlier ones.
    pub(crate) fn index_combos(&self, indices: &[Index]) -> Result<Combos, RawError> {
        let mut total = 0;
        self.count_leaves(indices.len(), &mut Vec::new(), &mut total, 0, &|env, k| {
            env.index_values(&indices[k])
                .map(|vs| vs.into_iter().map(|(v, var)| var.map(|n| (n, v))).collect())
        })?;
        let mut acc: Vec<(Vec<Value>, Vec<Binding>)> = vec![(Vec::new(), Vec::new())];
        for ix in indices {
            let mut next = Vec::new();
            for (vals, binds) in &acc {
                for (v, var) in self.with(binds).index_values(ix)? {
                    let mut vals = vals.clone();
                    vals.push(v.clone());
                    let mut binds = binds.clone();
                    if let Some(var) = var {
                        binds.push((var, v));
                    }
                    next.push((vals, binds));
                }
            }
            check_size(next.len(), 0)?;
            acc = next;
        }
        Ok(acc)
    }

    /// The labels of a set, in order, without duplicates.
    pub(crate) fn set(&self, s: &SetExpr) -> Result<Vec<String>, RawError> {
        match s {
            SetExpr::Named(name, pos) => Ok(self
                .named_values(name, *pos)?
                .iter()
                .map(ToString::to_string)
                .collect()),
            SetExpr::Literal(labels) => {
                let mut out = Vec::new();
                let mut seen = std::collections::HashSet::new();
                for elem in labels {
                    let minus: std::collections::HashSet<String> = match &elem.minus {
                        Some(m) => self.set(m)?.into_iter().collect(),
                        None => std::collections::HashSet::new(),
                    };
                    for (name, _) in self.expand(&elem.label)? {
                        if !minus.contains(&name) && seen.insert(name.clone()) {
                            out.push(name);
                        }
                    }
                }
                Ok(out)
            }
        }
    }

    /// Every concrete action name a label stands for, with the bindings each introduces.
    pub(crate) fn expand(&self, label: &Label) -> Result<Expansion, RawError> {
        // Count first: `a[i:0..30][j:0..30][k:0..30][l:0..30][m:0..30]` has 28 M names, and
        // building the levels before the last already takes gigabytes.
        let mut total = 0;
        self.count_leaves(
            label.segs.len(),
            &mut Vec::new(),
            &mut total,
            label.pos,
            &|env, k| {
                env.segment(&label.segs[k])
                    .map(|vs| vs.into_iter().map(|(_, bound)| bound).collect())
            },
        )?;
        let mut acc: Vec<(String, Vec<Binding>)> = vec![(String::new(), Vec::new())];
        for seg in &label.segs {
            let mut next = Vec::new();
            for (name, binds) in &acc {
                let env = self.with(binds);
                for (part, bound) in env.segment(seg)? {
                    let mut binds = binds.clone();
                    binds.extend(bound);
                    let full = if name.is_empty() {
                        part
                    } else {
                        format!("{name}.{part}")
                    };
                    next.push((full, binds));
                }
            }
            check_size(next.len(), label.pos)?;
            acc = next;
        }
        Ok(acc)
    }

    fn segment(&self, seg: &Seg) -> Result<Vec<(String, Option<Binding>)>, RawError> {
        match seg {
            Seg::Name(n, pos) if n.starts_with(|c: char| c.is_ascii_uppercase()) => Ok(self
                .named_values(n, *pos)?
                .iter()
                .map(|v| (v.to_string(), None))
                .collect()),
            Seg::Name(n, _) => Ok(vec![(n.clone(), None)]),
            Seg::Set(s) => Ok(self.set(s)?.into_iter().map(|l| (l, None)).collect()),
            Seg::Index(ix) => {
                let vals = self.index_values(ix)?;
                if vals.is_empty() {
                    // LTSA refuses an action label over an empty range ("Range not defined")
                    // rather than silently dropping the choice.
                    return Err(RawError::semantic(
                        "empty range in an action label (LTSA: Range not defined)",
                        index_pos(ix),
                    ));
                }
                Ok(vals
                    .into_iter()
                    .map(|(v, var)| (v.to_string(), var.map(|n| (n, v))))
                    .collect())
            }
        }
    }
}

impl Env<'_> {
    /// Counts the combinations of `levels` nested choices, depth first and without building
    /// them, into `total`; fails with the expansion limit as soon as the count passes it.
    /// `values(env, k)` gives the choices of level `k` under the bindings so far (each with the
    /// binding it introduces), so later levels may depend on earlier ones.
    fn count_leaves(
        &self,
        levels: usize,
        binds: &mut Vec<Binding>,
        total: &mut usize,
        pos: Pos,
        values: &LevelValues<'_>,
    ) -> Result<(), RawError> {
        self.count_from(0, levels, binds, total, pos, values)
    }

    fn count_from(
        &self,
        k: usize,
        levels: usize,
        binds: &mut Vec<Binding>,
        total: &mut usize,
        pos: Pos,
        values: &LevelValues<'_>,
    ) -> Result<(), RawError> {
        if k == levels {
            *total += 1;
            return check_size(*total, pos);
        }
        let choices = values(&self.with(binds), k)?;
        if k + 1 == levels {
            *total += choices.len();
            return check_size(*total, pos);
        }
        for bound in choices {
            let pushed = bound.is_some();
            if let Some(b) = bound {
                binds.push(b);
            }
            self.count_from(k + 1, levels, binds, total, pos, values)?;
            if pushed {
                binds.pop();
            }
        }
        Ok(())
    }
}

/// Where an index is written, for errors about its values.
fn index_pos(ix: &Index) -> Pos {
    match ix {
        Index::Binder(_, RangeSpec::Named(_, pos)) => *pos,
        Index::Binder(_, RangeSpec::Bounds(lo, _)) | Index::Range(lo, _) | Index::Expr(lo) => {
            lo.pos
        }
        Index::Binder(_, RangeSpec::Set(s)) | Index::Set(s) => set_pos(s),
    }
}

fn set_pos(s: &SetExpr) -> Pos {
    match s {
        SetExpr::Named(_, pos) => *pos,
        SetExpr::Literal(elems) => elems.first().map_or(0, |e| e.label.pos),
    }
}

fn check_size(n: usize, pos: Pos) -> Result<(), RawError> {
    if n > MAX_EXPANSION {
        Err(RawError::new(
            ErrorKind::Limit(format!("expansion has more than {MAX_EXPANSION} elements")),
            pos,
        ))
    } else {
        Ok(())
    }
}

/// A file-level definition that may be indexed (`progress P[i:R] = ...`, `fluent F[i:R] = ...`):
/// it stands for one instance per value of its indices.
pub(crate) trait IndexedDefinition {
    /// The name as written.
    fn name(&self) -> &str;
    /// Where the definition starts.
    fn pos(&self) -> Pos;
    /// The indices after the name.
    fn indices(&self) -> &[Index];
}

/// Calls `each(env, name, def)` for every instance of every definition of `defs`, in source
/// order: one per value of its indices, with the indices bound in `env` and named `NAME.v.w` as
/// LTSA names them. Two definitions of one name are an error naming `what` they are.
pub(crate) fn each_instance<D: IndexedDefinition>(
    globals: &Globals,
    defs: &[D],
    what: &'static str,
    mut each: impl FnMut(&Env, String, &D) -> Result<(), RawError>,
) -> Result<(), RawError> {
    let env = Env::new(globals);
    let mut names = std::collections::HashSet::new();
    for def in defs {
        if !names.insert(def.name()) {
            return Err(RawError::new(
                ErrorKind::Duplicate {
                    what,
                    name: def.name().to_owned(),
                },
                def.pos(),
            ));
        }
        for (values, binds) in env.index_combos(def.indices())? {
            let env = env.with(&binds);
            let name = std::iter::once(def.name().to_owned())
                .chain(values.iter().map(ToString::to_string))
                .collect::<Vec<_>>()
                .join(".");
            each(&env, name, def)?;
        }
    }
    Ok(())
}

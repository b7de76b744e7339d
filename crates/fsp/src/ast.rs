//! The syntax tree of an FSP file, as the parser builds it.
//!
//! The tree keeps expressions and labels unevaluated: constants, ranges and parameters are only
//! known at elaboration, and the same definition is instantiated many times with different
//! arguments. Every node that can be blamed for an error carries its byte offset.

use crate::error::Pos;

/// An integer or label expression.
#[derive(Clone, Debug)]
pub(crate) struct Expr {
    pub(crate) kind: ExprKind,
    pub(crate) pos: Pos,
}

/// Expression forms.
#[derive(Clone, Debug)]
pub(crate) enum ExprKind {
    Int(i64),
    /// `'name`: a label constant.
    Quote(String),
    /// A variable (lower case) or a constant, parameter, range or set name (upper case).
    Ident(String),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
}

/// Unary operators.
#[derive(Clone, Copy, Debug)]
pub(crate) enum UnOp {
    Neg,
    Not,
}

/// Binary operators.
#[derive(Clone, Copy, Debug)]
pub(crate) enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    And,
    Or,
    BitAnd,
    BitXor,
    Shl,
    Shr,
}

/// The range of a binder or expansion: `R`, `lo..hi`, or a set.
#[derive(Clone, Debug)]
pub(crate) enum RangeSpec {
    /// A named range or set (or, by mistake, a constant — reported at elaboration).
    Named(String, Pos),
    Bounds(Expr, Expr),
    Set(SetExpr),
}

/// What can stand between `[` and `]`.
#[derive(Clone, Debug)]
pub(crate) enum Index {
    /// `[i:R]`: binds `i` to each value of `R`.
    Binder(String, RangeSpec),
    /// `[lo..hi]`: expands to each value.
    Range(Expr, Expr),
    /// `[e]`: one value, or every value if `e` is a range or set name.
    Expr(Expr),
    /// `[{a,b}]`: every label of the set.
    Set(SetExpr),
}

/// One part of an action label.
#[derive(Clone, Debug)]
pub(crate) enum Seg {
    /// A lower-case name, or an upper-case set name (expands).
    Name(String, Pos),
    /// `{...}`: each member.
    Set(SetExpr),
    /// `[...]`.
    Index(Index),
}

/// An action label such as `a.b[i:R].{x,y}`.
#[derive(Clone, Debug)]
pub(crate) struct Label {
    pub(crate) segs: Vec<Seg>,
    pub(crate) pos: Pos,
}

/// One element of a set literal: a label, minus a set (`{Players\\{[P]}}`).
#[derive(Clone, Debug)]
pub(crate) struct SetElem {
    pub(crate) label: Label,
    pub(crate) minus: Option<SetExpr>,
}

/// A set of labels: `{...}` or a set name.
#[derive(Clone, Debug)]
pub(crate) enum SetExpr {
    Literal(Vec<SetElem>),
    Named(String, Pos),
}

/// One relabelling item: `new/old` or `forall[i:R] {items}`.
#[derive(Clone, Debug)]
pub(crate) enum RelabelItem {
    Pair { new: Label, old: Label },
    Forall(Vec<Index>, Vec<RelabelItem>),
}

/// Hiding `\S` or interface `@S`.
#[derive(Clone, Debug)]
pub(crate) enum HideSpec {
    Hide(SetExpr),
    Interface(SetExpr),
}

/// A local process expression (the right-hand side of a local definition or the target of `->`).
#[derive(Clone, Debug)]
pub(crate) enum Term {
    Stop(Pos),
    End(Pos),
    Error(Pos),
    /// `P[e]...` (local), or `P(args)` (another process, only in sequences).
    Ref {
        name: String,
        indices: Vec<Expr>,
        args: Option<Vec<Expr>>,
        pos: Pos,
    },
    Choice(Vec<Branch>, Pos),
    If(Expr, Box<Term>, Option<Box<Term>>),
    /// `P;Q;R`: all but the last are processes ending in `END`.
    Seq(Vec<Term>, Pos),
}

/// One alternative of a choice: `when (g) a -> b -> T`.
#[derive(Clone, Debug)]
pub(crate) struct Branch {
    pub(crate) guard: Option<Expr>,
    pub(crate) actions: Vec<Label>,
    pub(crate) target: Term,
}

/// `Name[indices] = term` inside a process definition.
#[derive(Clone, Debug)]
pub(crate) struct LocalDef {
    pub(crate) name: String,
    pub(crate) indices: Vec<Index>,
    pub(crate) body: Term,
    pub(crate) pos: Pos,
}

/// Flags written before a definition.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Flags {
    pub(crate) property: bool,
    pub(crate) minimal: bool,
    pub(crate) deterministic: bool,
}

/// A parameter `N=3`.
#[derive(Clone, Debug)]
pub(crate) struct Param {
    pub(crate) name: String,
    pub(crate) default: Expr,
}

/// A primitive process definition.
#[derive(Clone, Debug)]
pub(crate) struct ProcessDef {
    pub(crate) name: String,
    pub(crate) pos: Pos,
    pub(crate) flags: Flags,
    pub(crate) params: Vec<Param>,
    /// The first entry is the process itself (no indices).
    pub(crate) locals: Vec<LocalDef>,
    pub(crate) alpha_ext: Option<SetExpr>,
    pub(crate) relabel: Vec<RelabelItem>,
    pub(crate) hide: Option<HideSpec>,
}

/// A composite body.
#[derive(Clone, Debug)]
pub(crate) enum CBody {
    Ref {
        name: String,
        args: Vec<Expr>,
        pos: Pos,
    },
    Par(Vec<CBody>),
    Forall(Vec<Index>, Box<CBody>),
    If(Expr, Box<CBody>, Option<Box<CBody>>),
    /// `label:B` (prefix, `share == false`) or `label::B` (sharing).
    Labelled {
        label: Label,
        share: bool,
        body: Box<CBody>,
    },
    Relabel(Box<CBody>, Vec<RelabelItem>),
}

/// Priority `<< S` (high) or `>> S` (low).
#[derive(Clone, Debug)]
pub(crate) struct PrioritySpec {
    pub(crate) high: bool,
    pub(crate) set: SetExpr,
}

/// A composite definition `||C(params) = body ...`.
#[derive(Clone, Debug)]
pub(crate) struct CompositeDef {
    pub(crate) name: String,
    pub(crate) pos: Pos,
    pub(crate) flags: Flags,
    pub(crate) params: Vec<Param>,
    pub(crate) body: CBody,
    pub(crate) priority: Option<PrioritySpec>,
    pub(crate) hide: Option<HideSpec>,
}

/// A top-level definition of constants, ranges and sets.
#[derive(Clone, Debug)]
pub(crate) enum ConstDef {
    Const(String, Expr),
    Range(String, Expr, Expr),
    Set(String, SetExpr),
}

/// A progress test `progress NAME[i:R].. = [if C then] A`: a terminal set of states violates it
/// when it has no action of `A` (and, with a condition, has some action of `C`).
#[derive(Clone, Debug)]
pub(crate) struct ProgressDef {
    pub(crate) name: String,
    pub(crate) pos: Pos,
    /// `[i:R]...` after the name: one test `NAME.v` per value.
    pub(crate) indices: Vec<Index>,
    /// `if C then`: the condition's actions.
    pub(crate) condition: Option<Label>,
    /// The actions that must be able to occur.
    pub(crate) actions: Label,
}

//! LTSA's action priority on a composition ([`Priority`]): `||S = (...) << {hi}` or `>> {lo}`.
//!
//! Priority prunes the product's transitions state by state: with high priority actions `H`, a
//! product state that has a transition on an action of `H` keeps only those; with low priority
//! actions `L`, a state that has a transition on an action outside `L` (tau included) drops its
//! transitions on `L`. States where nothing is preferred keep all their transitions. tau is never a
//! high priority action, and never a low one. Because pruning can make states unreachable and can
//! remove transitions to `ERROR`, verdicts of prioritised systems differ from unprioritised ones;
//! [`Product::with_priority`](crate::product::Product::with_priority) applies it during
//! exploration, so every check built on a product honours it.
//!
//! Names are matched as FSP labels: an entry `a` covers the action `a` and every action it prefixes
//! (`a.b`, `a.1.c`), so callers can pass the set as written in the model.

/// A priority on the actions of a composition.
///
/// ```
/// use guarantor_compose::Priority;
/// let p = Priority::high(["go"]);
/// assert!(p.is_high());
/// assert!(p.lists("go") && p.lists("go.1") && !p.lists("gone") && !p.lists("tau"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Priority {
    high: bool,
    actions: Vec<String>,
}

impl Priority {
    /// High priority (`<<`): in a state where one of `actions` is possible, only they are.
    pub fn high<S: Into<String>>(actions: impl IntoIterator<Item = S>) -> Self {
        Self {
            high: true,
            actions: actions.into_iter().map(Into::into).collect(),
        }
    }

    /// Low priority (`>>`): in a state where some other action is possible, `actions` are not.
    pub fn low<S: Into<String>>(actions: impl IntoIterator<Item = S>) -> Self {
        Self {
            high: false,
            actions: actions.into_iter().map(Into::into).collect(),
        }
    }

    /// Whether this is a high (`<<`) rather than a low (`>>`) priority.
    pub fn is_high(&self) -> bool {
        self.high
    }

    /// The listed labels.
    pub fn actions(&self) -> &[String] {
        &self.actions
    }

    /// Whether the action named `name` is listed (equal to a label, or prefixed by one and a dot).
    /// `tau` is never listed.
    pub fn lists(&self, name: &str) -> bool {
        name != "tau"
            && self.actions.iter().any(|l| {
                name.strip_prefix(l.as_str())
                    .is_some_and(|rest| rest.is_empty() || rest.starts_with('.'))
            })
    }

    /// Whether a transition on `name` is *preferred*: kept whenever it is possible, pruning the
    /// unpreferred transitions of the same state.
    pub fn prefers(&self, name: &str) -> bool {
        self.lists(name) == self.high
    }
}

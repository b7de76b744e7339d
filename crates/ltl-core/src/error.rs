//! The crate's error type, [`FormulaError`]: what makes a formula and its proposition table
//! inconsistent. (Checking a formula can fail in other ways; `guarantor-ltl` says how.)

/// Why [`crate::Ltl::new`] refused a formula.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum FormulaError {
    /// The formula names proposition `index`, outside its table.
    #[error("the formula names proposition {index}, which the table does not have")]
    UnknownProp {
        /// The index.
        index: usize,
    },
    /// A fluent's initiating and terminating sets share an action.
    #[error("fluent {fluent}: the initiating and terminating sets share {action:?}")]
    FluentNotDisjoint {
        /// The fluent.
        fluent: String,
        /// The shared action.
        action: String,
    },
}

//! # guarantor
//!
//! The facade: one checker over every method of the Guarantor workspace.

pub use guarantor_compose as compose;
pub use guarantor_lts as lts;

//! Models shared by the integration tests and the examples.

pub(crate) mod swp;

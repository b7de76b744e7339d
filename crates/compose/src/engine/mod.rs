//! The engine below the crate's vocabulary: how a product is explored. Nothing here is public;
//! the checks above (`safety`, `system`, `progress`, `compose`, `ag`) and the premise checks of
//! the method crates reach it through them.
//!
//! - [`explore`]: the one breadth-first loop (and its checkpointed and parallel forms) behind
//!   every check and the eager composition; [`dfs`]: the depth-first one.
//! - [`store`], [`compact`], [`sharded`]: the visited-state stores (packed keys in hash tables,
//!   compact hashing, shards for parallel workers), one packing layout ([`store::Fields`]).
//! - [`moves`]: successor enumeration shared by the loops; [`stats`]: what a walk counts.

pub(crate) mod compact;
pub(crate) mod dfs;
pub(crate) mod explore;
pub(crate) mod moves;
pub(crate) mod sharded;
pub(crate) mod stats;
pub(crate) mod store;

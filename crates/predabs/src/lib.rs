//! # guarantor-predabs
//!
//! Predicate abstraction of infinite-state component programs into LTSs, with counterexample-guided
//! refinement (Chaki et al. 2004; Bensalem, Lakhnech, Owre 1998). Not yet written; see the project's
//! issue tracker.

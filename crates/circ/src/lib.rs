//! # guarantor-circ
//!
//! The n-way circular assume-guarantee rule CIRC-AG_N (Elkader, Grumberg, Pasareanu, Shoham 2016):
//! minimal deterministic assumptions synthesised by SAT, rule simplification and alphabet refinement.
//! Not yet written; see the project's issue tracker.

//! # guarantor-quotient
//!
//! Assumption synthesis as a quotient (Finkbeiner, Schewe, Brill, FORTE 2006): the assumption for a
//! component N against the rest M and property P is N divided by forward and backward equivalences
//! computed over M || P_err, against a modal abstraction of M refined step by step. Not yet written;
//! see the project's issue tracker.

//! # guarantor-lstar
//!
//! Angluin's L* with Rivest-Schapire counterexample analysis behind a `Teacher` trait, and teachers
//! for the learning-based assume-guarantee rules (Cobleigh et al. 2003, Chaki et al. 2004). Not yet
//! written; see the project's issue tracker.

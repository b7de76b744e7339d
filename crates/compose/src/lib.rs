//! # guarantor-compose
//!
//! Parallel composition, error LTSs, safety checking and assume-guarantee triples.

//! # guarantor-fsp
//!
//! A front end for LTSA's FSP language: lexer, parser and elaborator producing the leaf component LTSs
//! of a composite. Depends on `guarantor-lts` only; composing is `guarantor-compose`'s job.

//! Criterion benchmarks of the Guarantor workspace live in `benches/benches/`; peer comparison
//! scripts live in `benches/compare/`. This library is empty on purpose.

//! Criterion benchmarks of the Guarantor workspace live in `benches/benches/`; peer comparison
//! scripts live in `benches/compare/`. This library holds only the generators of the synthetic
//! systems the benchmarks share ([`systems`]), so that a bench and the memory-measuring example
//! that goes with it explore exactly the same state space.

pub mod systems;

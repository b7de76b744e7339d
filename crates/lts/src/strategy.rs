//! Proptest strategies for random LTSs and random deterministic properties (feature `proptest`).

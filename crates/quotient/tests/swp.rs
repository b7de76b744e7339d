//! The sliding window protocol benchmark (paper, section 7) as a test: verdicts of properties A-D
//! with the receiver replaced by its quotient, against the monolithic checker; the assumption sizes
//! against the paper's (8, 1, 8, 1 states). Timing is measured by `examples/swp.rs` in release mode.

mod common;

use common::swp;
use guarantor_compose::{Config, check_safety, replay};
use guarantor_lts::ComponentId;
use guarantor_quotient::{QuotientConfig, check_homomorphism, check_with_quotient};

#[test]
fn properties_a_to_d() {
    let (m, n) = (swp::sender(), swp::receiver());
    // The paper's sizes. D fails: the lower labels witness the error path, and the one-class
    // quotient (invertible for a violated property) is the assumption.
    let paper = [8, 1, 8, 1];
    for ((name, p, holds), paper_states) in swp::properties().into_iter().zip(paper) {
        let mono = check_safety(&[&m, &n], &[&p], &Config::default()).unwrap();
        assert_eq!(mono.verdict.is_holds(), holds, "property {name}");
        let report = check_with_quotient(
            &[&m, &n],
            &[&p],
            ComponentId::must(1),
            &QuotientConfig::default(),
        )
        .unwrap();
        assert_eq!(report.verdict.is_holds(), holds, "property {name}");
        let s = &report.stages[0].synthesis;
        check_homomorphism(&n, &s.assumption, &s.homomorphism).unwrap();
        assert!(s.converged);
        assert!(
            s.assumption.num_states() <= paper_states,
            "property {name}: {} states, paper {paper_states}",
            s.assumption.num_states()
        );
        if let Some(cex) = report.verdict.counterexample() {
            replay::replay(&[&m, &n], &cex.trace).unwrap();
            assert!(replay::violates(&[&m, &n], &[&p], &cex.trace).unwrap());
        }
    }
}

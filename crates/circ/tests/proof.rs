//! The method writes its own `holds` certificates (`Method::certificate`, module `proof`): on
//! random problems (components with `ERROR` states, zero to two properties), every `holds` of
//! `Circ` (every premise policy) comes with a certificate of rule `circ` (or `mono` where nothing was
//! assumed) that the independent checker of `guarantor-certify` accepts, and a violation with
//! none. The checker shares no code with the method, so it is the oracle.

use guarantor_certify::format::Rule;
use guarantor_circ::{Circ, CircConfig, Policy};
use guarantor_compose::method::Method;
use guarantor_compose::strategy::{own_certificates_are_sound, problem_of};
use guarantor_lts::strategy::{LtsStrategyConfig, arb_deterministic_property, arb_system_with};
use proptest::collection::vec;
use proptest::prelude::*;

fn methods() -> Vec<Box<dyn Method>> {
    vec![
        Box::new(Circ::new()),
        Box::new(Circ::new().with_config(CircConfig::new().with_policy(Policy::Neighbours))),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn every_holds_is_certified_and_accepted(
        sys in arb_system_with(3, LtsStrategyConfig::new(3, &["a", "b", "c"]).with_error_state(true)),
        ps in vec(arb_deterministic_property(2, &["a", "b", "z"]), 0..=2),
    ) {
        let problem = problem_of(&sys, &ps);
        for method in methods() {
            prop_assert_eq!(method.proof_rule(), Some(Rule::Circ));
            own_certificates_are_sound(method.as_ref(), &problem, |r| r == Rule::Circ || r == Rule::Mono)?;
        }
    }
}

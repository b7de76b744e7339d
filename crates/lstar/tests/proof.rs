//! The learning rules write their own `holds` certificates (`Method::certificate`, module
//! `proof`): on random problems (components with `ERROR` states, zero to two properties), every
//! `holds` of `Asym`, `AsymN`, `AsymWeakest` and `Sym` comes with a certificate of the method's
//! rule that the independent checker of `guarantor-certify` accepts, and a violation with none.
//! The checker shares no code with the rules, so it is the oracle.

use guarantor_certify::format::Rule;
use guarantor_compose::method::Method;
use guarantor_compose::strategy::{own_certificates_are_sound, problem_of};
use guarantor_compose::{Config, Priority};
use guarantor_lstar::{Asym, AsymN, AsymWeakest, Sym};
use guarantor_lts::Lts;
use guarantor_lts::strategy::{LtsStrategyConfig, arb_deterministic_property, arb_system_with};
use proptest::collection::vec;
use proptest::prelude::*;

fn methods() -> Vec<Box<dyn Method>> {
    vec![
        Box::new(Asym::new()),
        Box::new(AsymN::new()),
        Box::new(AsymWeakest::new()),
        Box::new(Sym::new()),
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
            let rule = method.proof_rule().unwrap();
            // `asym` with several assumptions is written as `asym-n`; no assumption as `mono`.
            own_certificates_are_sound(method.as_ref(), &problem, |r| {
                r == rule || r == Rule::Mono || (rule == Rule::Asym && r == Rule::AsymN)
            })?;
        }
    }
}

#[test]
fn a_prioritised_problem_gets_no_certificate() {
    let m = Lts::from_edges([(0, "a", 0)]).unwrap();
    let plain = problem_of(&[m.clone(), m], &[]);
    let report = Asym::new().check(&plain, &Config::default()).unwrap();
    let prioritised = plain.with_priority(Some(Priority::high(["a"])));
    let written = Asym::new()
        .certificate(&prioritised, &report, &Config::default())
        .unwrap();
    assert!(written.is_none());
}

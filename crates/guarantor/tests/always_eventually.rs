//! `[]<>A` assertions answered through the progress check (crates/guarantor/src/liveness.rs) give
//! the Büchi check's verdict: random systems (tau, `ERROR` states, deadlocks, properties), a random
//! action set `A` (an action the system lacks included: LTSA lets it happen freely), the facade's
//! `check_assertion` with `mono`, `reduce` and `auto` against the same check of `[]([]<>A)`,
//! a formula of another shape, which the Büchi check answers; and on the systems that have every
//! action of `A`, against guarantor-ltl's `check_ltl` on the members directly.

use guarantor::compose::strategy::arb_problem;
use guarantor::compose::{Config, error_lts::error_ltss};
use guarantor::ltl::{check_ltl, parse};
use guarantor::{Checker, registry};
use guarantor_lts::Lts;
use proptest::prelude::*;

const ACTIONS: &[&str] = &["a", "b", "c", "d"];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn always_eventually_agrees_with_the_buchi_check(
        problem in arb_problem(ACTIONS, ACTIONS),
        chosen in prop::sample::subsequence(ACTIONS, 1..=2),
    ) {
        let text = format!("[]<>({})", chosen.join(" || "));
        let components: Vec<&Lts> = problem.component_lts();
        let properties = problem.property_lts();
        let every: Vec<&str> = components
            .iter()
            .copied()
            .chain(properties.iter().copied())
            .flat_map(|l| l.alphabet().iter().filter(|(a, _)| !a.is_tau()).map(|(_, n)| n))
            .collect();
        let ltl = parse(&text, &[]).unwrap().with_extension(every.iter().copied());
        let errs = error_ltss(properties.iter().copied()).unwrap();
        let all: Vec<&Lts> = components.iter().copied().chain(&errs).collect();
        let has_all = chosen.iter().all(|a| every.contains(a));
        let direct = check_ltl(&all, None, &ltl, &Config::default()).unwrap();
        for method in ["mono", "reduce", "auto"] {
            let mut checker = Checker::new().with_method(registry::method_named(method).unwrap());
            for (_, name, lts) in problem.components() {
                checker = checker.component(name.to_owned(), lts.clone());
            }
            for (_, name, lts) in problem.properties() {
                checker = checker.property(name.to_owned(), lts.clone());
            }
            let ours = checker.check_assertion("L", &parse(&text, &[]).unwrap()).unwrap();
            let other_shape = format!("[]({text})");
            let buchi = checker.check_assertion("L", &parse(&other_shape, &[]).unwrap()).unwrap();
            prop_assert_eq!(
                ours.holds(),
                buchi.holds(),
                "{} on {}: ours {:?}, Büchi {:?}",
                method,
                text,
                ours.verdict,
                buchi.verdict
            );
            if has_all {
                prop_assert_eq!(ours.holds(), direct.verdict.is_holds(), "{} on {}", method, text);
            }
        }
    }
}

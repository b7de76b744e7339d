//! Shared helpers of the certify tests: small LTSs, Cobleigh's Input/Output/Order model, and
//! certificates for it.
#![allow(dead_code, unreachable_pub)]

use guarantor_certify::format::{
    Assumption, Certificate, Guarantee, LtsData, Premise, Role, Rule, VerdictKind,
};
use guarantor_certify::{Model, Rejection, Report, fingerprint::model_print};
use guarantor_lts::io::aut::parse_aut;
use guarantor_lts::{Lts, LtsBuilder, StateId};

/// An LTS with `n` states, initial 0, the given edges, extra declared actions and an optional
/// error state.
pub fn lts(n: usize, edges: &[(usize, &str, usize)], extra: &[&str], error: Option<usize>) -> Lts {
    let mut b = LtsBuilder::new();
    b.ensure_states(n).unwrap();
    for &(s, a, t) in edges {
        b.add_transition_named(StateId::must(s), a, StateId::must(t))
            .unwrap();
    }
    for a in extra {
        b.action(a).unwrap();
    }
    if let Some(e) = error {
        b.set_error(StateId::must(e)).unwrap();
    }
    b.build().unwrap()
}

/// An `.aut` file of examples/order (read at compile time, so the test runs from the package too).
pub fn order_file(name: &str) -> Lts {
    let text = match name {
        "Input" => include_str!("data/Input.aut"),
        "Output" => include_str!("data/Output.aut"),
        "OutputBad" => include_str!("data/OutputBad.aut"),
        "Order" => include_str!("data/Order.aut"),
        _ => panic!("no file {name}"),
    };
    parse_aut(text).unwrap()
}

/// `Input || Output |= Order` (holds).
pub fn order_model() -> Model {
    Model::new()
        .component("Input", order_file("Input"))
        .component("Output", order_file("Output"))
        .property("Order", order_file("Order"))
}

/// `Input || OutputBad |= Order` (violated: `OutputBad` outputs first).
pub fn bad_order_model() -> Model {
    Model::new()
        .component("Input", order_file("Input"))
        .component("Output", order_file("OutputBad"))
        .property("Order", order_file("Order"))
}

/// An empty certificate for `model`.
pub fn blank(model: &Model, verdict: VerdictKind, rule: Rule) -> Certificate {
    let (fp, print) = model_print(model);
    Certificate::new(verdict, rule, fp, print)
}

/// Owned names.
pub fn names(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| (*s).to_owned()).collect()
}

/// An assumption from edges.
pub fn assumption(
    components: &[&str],
    role: Role,
    alphabet: &[&str],
    states: u64,
    edges: &[(u64, &str, u64)],
) -> Assumption {
    Assumption::new(
        names(components),
        role,
        names(alphabet),
        LtsData::new(
            states,
            0,
            edges
                .iter()
                .map(|&(s, a, t)| (s, a.to_owned(), t))
                .collect(),
        ),
    )
}

/// A triple premise.
pub fn triple(assumptions: &[usize], components: &[&str], guarantee: Guarantee) -> Premise {
    Premise::Triple {
        assumptions: assumptions.to_vec(),
        components: names(components),
        guarantee,
    }
}

/// The guarantee "these properties".
pub fn props(p: &[&str]) -> Guarantee {
    Guarantee::Properties(names(p))
}

/// Cobleigh's ASYM proof: A = (send -> output -> ack -> A) about Output;
/// `<A> Input <Order>`, `<true> Output <A>`.
pub fn asym_cert() -> Certificate {
    blank(&order_model(), VerdictKind::Holds, Rule::Asym)
        .with_assumption(assumption(
            &["Output"],
            Role::Assumption,
            &["send", "output", "ack"],
            3,
            &[(0, "send", 1), (1, "output", 2), (2, "ack", 0)],
        ))
        .with_premise(triple(&[0], &["Input"], props(&["Order"])))
        .with_premise(triple(&[], &["Output"], Guarantee::Assumption(0)))
}

/// The rejection of a report, or a panic naming the report.
pub fn rejection(report: &Report) -> &Rejection {
    report
        .rejection()
        .unwrap_or_else(|| panic!("expected a rejection: {report:?}"))
}

/// Asserts acceptance, printing the rejection otherwise.
pub fn assert_accepted(report: &Report) {
    assert!(report.is_accepted(), "rejected: {:?}", report.rejection());
}

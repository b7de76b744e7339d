//! Fuzz target `certify_check`: `guarantor_certify::check_json` must never panic, whatever the
//! certificate text: every input ends in a [`Report`](guarantor_certify::Report) or a typed
//! [`CertifyError`](guarantor_certify::CertifyError).
//!
//! Each input is checked against two fixed models so that mutated real certificates get past the
//! fingerprints into the premises, rules and replay: Cobleigh et al.'s Input/Output/Order example
//! (`examples/order`, the property holds) and the same with `OutputBad` (it is violated).
//! Certificates written by the CLI for these models seed the corpus (fuzz/README.md). As an oracle,
//! the checker must never accept a `holds` certificate for the violated model, nor a `violated` one
//! for the model where the property holds. Non-UTF-8 bytes are replaced (lossy), so every input
//! reaches the JSON reader.

#![no_main]

use std::sync::LazyLock;

use guarantor_certify::format::VerdictKind;
use guarantor_certify::{Model, check_json};
use guarantor_lts::Lts;
use guarantor_lts::io::aut::parse_aut;
use libfuzzer_sys::fuzz_target;

fn aut(text: &str) -> Lts {
    parse_aut(text).expect("examples/order parses")
}

/// (model, the verdict that is true of it).
static MODELS: LazyLock<[(Model, VerdictKind); 2]> = LazyLock::new(|| {
    let input = aut(include_str!("../../examples/order/Input.aut"));
    let order = aut(include_str!("../../examples/order/Order.aut"));
    let good = Model::new()
        .component("Input", input.clone())
        .component(
            "Output",
            aut(include_str!("../../examples/order/Output.aut")),
        )
        .property("Order", order.clone());
    let bad = Model::new()
        .component("Input", input)
        .component(
            "OutputBad",
            aut(include_str!("../../examples/order/OutputBad.aut")),
        )
        .property("Order", order);
    [(good, VerdictKind::Holds), (bad, VerdictKind::Violated)]
});

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for (model, truth) in MODELS.iter() {
        match check_json(&text, model) {
            Ok(report) => {
                assert!(
                    !report.is_accepted() || report.verdict == *truth,
                    "accepted a {:?} certificate for a model where the verdict is {truth:?}",
                    report.verdict
                );
                if let Some(rejection) = report.rejection() {
                    let _ = rejection.to_string();
                }
            }
            Err(e) => {
                let _ = e.to_string();
            }
        }
    }
});

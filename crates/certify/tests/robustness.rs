//! The checker never panics: random bytes, random JSON, and valid certificates with random parts
//! replaced.

mod common;

use common::*;
use guarantor_certify::check_json;
use proptest::prelude::*;
use serde_json::Value;

/// Random JSON values, small.
fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        (0u64..8).prop_map(Value::from),
        Just(Value::from(u64::MAX)),
        "[a-z]{0,6}".prop_map(Value::String),
        prop_oneof![
            Just("tau"),
            Just("send"),
            Just("ack"),
            Just("Input"),
            Just("Output"),
            Just("Order"),
            Just("triple"),
            Just("circular"),
            Just("inclusion"),
            Just("homomorphism"),
            Just("monolithic"),
            Just("reduction"),
            Just("no-deadlock"),
        ]
        .prop_map(|s| Value::String(s.to_owned())),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec(("[a-z]{1,6}", inner), 0..4)
                .prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
}

/// Replaces the `pick`-th node (in preorder, modulo the node count) of `v` by `with`.
fn replace_node(v: &mut Value, pick: usize, with: Value) {
    fn count(v: &Value) -> usize {
        1 + match v {
            Value::Array(a) => a.iter().map(count).sum(),
            Value::Object(o) => o.values().map(count).sum(),
            _ => 0,
        }
    }
    fn walk(v: &mut Value, k: &mut usize, with: &mut Option<Value>) {
        if *k == 0 {
            if let Some(w) = with.take() {
                *v = w;
            }
            return;
        }
        *k -= 1;
        match v {
            Value::Array(a) => a.iter_mut().for_each(|x| walk(x, k, with)),
            Value::Object(o) => o.values_mut().for_each(|x| walk(x, k, with)),
            _ => {}
        }
    }
    let mut k = pick % count(v);
    walk(v, &mut k, &mut Some(with));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        let text = String::from_utf8_lossy(&bytes);
        let _ = check_json(&text, &order_model());
    }

    #[test]
    fn random_json_never_panics(v in json_value()) {
        let _ = check_json(&v.to_string(), &order_model());
    }

    #[test]
    fn mutated_certificates_never_panic(
        picks in prop::collection::vec((any::<usize>(), json_value()), 1..4),
        violated in any::<bool>(),
    ) {
        let (model, cert) = if violated {
            (bad_order_model(), serde_json::to_value(violated_cert()).unwrap())
        } else {
            (order_model(), serde_json::to_value(asym_cert()).unwrap())
        };
        let mut v = cert;
        for (pick, with) in picks {
            replace_node(&mut v, pick, with);
        }
        let _ = check_json(&v.to_string(), &model);
    }
}

fn violated_cert() -> guarantor_certify::Certificate {
    use guarantor_certify::format::{Counterexample, Rule, Step, VerdictKind, ViolationClaim};
    blank(&bad_order_model(), VerdictKind::Violated, Rule::Mono).with_counterexample(
        Counterexample::new(
            vec![Step::new("output", vec![0, 1])],
            ViolationClaim::Property {
                property: "Order".into(),
            },
        ),
    )
}

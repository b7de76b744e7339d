//! JSON I/O tests (feature `serde`): the documented shape is what is written, and reading it back
//! is the identity, including what `.aut` cannot express (unused actions, accepting states).

#![cfg(all(feature = "serde", feature = "proptest"))]

use guarantor_lts::Lts;
use guarantor_lts::io::aut::parse_aut;
use guarantor_lts::io::json::{JsonError, from_json, to_json};
use guarantor_lts::strategy::{LtsStrategyConfig, arb_lts_with};
use proptest::prelude::*;

#[test]
fn the_written_shape_is_the_documented_one() {
    let lts = parse_aut("des(0,3,2)\n(0,a,1)\n(1,tau,0)\n(1,b,-1)").unwrap();
    let value: serde_json::Value = serde_json::from_str(&to_json(&lts)).unwrap();
    let expected = serde_json::json!({
        "alphabet": ["a", "b"],
        "initial": 0,
        "states": 3,
        "error": 2,
        "accepting": null,
        "transitions": [[0, "a", 1], [1, "tau", 0], [1, "b", 2]],
    });
    assert_eq!(value, expected);
}

#[test]
fn malformed_documents_are_typed_errors() {
    let cases = [
        (
            r#"{"alphabet":["a","a"],"initial":0,"states":1,"error":null,"accepting":null,"transitions":[]}"#,
            "BadAlphabetEntry",
        ),
        (
            r#"{"alphabet":["tau"],"initial":0,"states":1,"error":null,"accepting":null,"transitions":[]}"#,
            "BadAlphabetEntry",
        ),
        (
            r#"{"alphabet":[],"initial":1,"states":1,"error":null,"accepting":null,"transitions":[]}"#,
            "StateOutOfRange",
        ),
        (
            r#"{"alphabet":[],"initial":0,"states":1,"error":3,"accepting":null,"transitions":[]}"#,
            "StateOutOfRange",
        ),
        (
            r#"{"alphabet":[],"initial":0,"states":1,"error":null,"accepting":[1],"transitions":[]}"#,
            "StateOutOfRange",
        ),
        (
            r#"{"alphabet":[],"initial":0,"states":0,"error":null,"accepting":null,"transitions":[]}"#,
            "StateCount",
        ),
        (
            r#"{"alphabet":[],"initial":0,"states":1,"error":null,"accepting":null,"transitions":[[0,"x",0]]}"#,
            "UnknownLabel",
        ),
        (r#"{"alphabet":[],"initial":0,"states":1}"#, "Syntax"),
        (
            r#"{"alphabet":[],"initial":-1,"states":1,"error":null,"accepting":null,"transitions":[]}"#,
            "Syntax",
        ),
        ("\u{0}garbage", "Syntax"),
    ];
    for (text, expected) in cases {
        let err = from_json(text).unwrap_err();
        let variant = format!("{err:?}");
        assert!(variant.starts_with(expected), "{text}: got {variant}");
        // The serde impl rejects the same documents.
        assert!(serde_json::from_str::<Lts>(text).is_err(), "{text}");
    }
    assert!(matches!(from_json("[").unwrap_err(), JsonError::Syntax(_)));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn json_round_trips_everything(
        lts in arb_lts_with(
            LtsStrategyConfig::new(6, &["a", "q\"", "unused", "é\n"]).with_error_state(true).with_accepting(true),
        )
    ) {
        let back = from_json(&to_json(&lts)).unwrap();
        prop_assert_eq!(back.accepting_set(), lts.accepting_set());
        prop_assert_eq!(&back, &lts);
        let via_serde: Lts = serde_json::from_value(serde_json::to_value(&lts).unwrap()).unwrap();
        prop_assert_eq!(via_serde, lts);
    }
}

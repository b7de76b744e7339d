//! Fluents, assertions and constraints are elaborated as LTSA expands them (issue 16).

use guarantor_fsp::{Formula, Prop, PropId, parse};

const CH14: &str =
    "tests/data/asifmahmuddev-ltsa/src/main/resources/ic/doc/ltsa/example/chapter14_lts";

fn model(file: &str) -> guarantor_fsp::Model {
    let path = format!("{}/{CH14}/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    parse(&text, &path).unwrap()
}

fn names(m: &guarantor_fsp::Model) -> Vec<&str> {
    m.assertions().iter().map(|a| a.name.as_str()).collect()
}

#[test]
fn the_book_models_elaborate() {
    let m = model("SingleLaneBridge_fluent.lts");
    assert_eq!(
        names(&m),
        [
            "ONEWAY",
            "ONEWAY_",
            "FIRSTRED",
            "REDCROSS",
            "BLUECROSS",
            "CROSS",
            "STRONGRED",
            "REDEXIT"
        ]
    );
    let fluents: Vec<&str> = m.fluents().iter().map(|f| f.name.as_str()).collect();
    assert_eq!(fluents, ["RED.1", "RED.2", "BLUE.1", "BLUE.2"]);
    // REDCROSS = []<>red[ID].enter: one action proposition over both cars.
    let p = |i: usize| Box::new(Formula::Prop(PropId::new(i)));
    let redcross = &m.assertions()[3].formula;
    assert_eq!(
        *redcross.formula(),
        Formula::Always(Box::new(Formula::Eventually(p(0))))
    );
    assert_eq!(
        redcross.props(),
        [Prop::Actions(vec![
            "red.1.enter".into(),
            "red.2.enter".into()
        ])]
    );
    // CROSS = (REDCROSS && BLUECROSS): the assertions inlined.
    let cross = &m.assertions()[5].formula;
    let Formula::And(l, _) = cross.formula() else {
        panic!()
    };
    assert_eq!(**l, *redcross.formula());
    assert_eq!(cross.props()[0], redcross.props()[0]);
    // ONEWAY_ = []!(RED[ID] && BLUE[ID]): a range index is the disjunction of its fluents.
    let oneway = &m.assertions()[1].formula;
    assert_eq!(
        *oneway.formula(),
        Formula::Always(Box::new(Formula::Not(Box::new(Formula::And(
            Box::new(Formula::Or(p(0), p(1))),
            Box::new(Formula::Or(p(2), p(3)))
        )))))
    );
    let props: Vec<String> = oneway.props().iter().map(Prop::name).collect();
    assert_eq!(props, ["RED.1", "RED.2", "BLUE.1", "BLUE.2"]);
    assert!(
        oneway
            .props()
            .iter()
            .all(|p| matches!(p, Prop::Fluent(f) if m.fluents().contains(f)))
    );

    let m = model("DatabaseRing.lts");
    assert_eq!(m.fluents().len(), 3 + 9);
    // VALUE[i][c] ends on a change to any other colour.
    let v = m
        .fluents()
        .iter()
        .find(|f| f.name == "VALUE.1.red")
        .unwrap();
    assert_eq!(v.initiating, ["node.1.change.red"]);
    assert_eq!(v.terminating, ["node.1.change.green", "node.1.change.blue"]);
    assert_eq!(
        names(&m),
        [
            "QUIESCENT",
            "CONSISTENT",
            "SAFE",
            "LIVE",
            "WITNESS_LIVE",
            "WITNESS_SAFE"
        ]
    );

    let m = model("Mutex_fluent.lts");
    assert_eq!(names(&m), ["MUTEX", "MUTEX_N"]);
}

#[test]
fn initially_extension_and_constraint() {
    let m = parse(
        "const T = 1\nfluent F = <a, b> initially T\nfluent G = <{c}, {a, b}>\n\
         assert A = (F U G) + {d}\nconstraint C = [](F -> !X c)\n\
         assert I = (F <-> G)\nassert W = (F W !G)\nP = (a -> b -> P).",
        "x.lts",
    )
    .unwrap();
    assert!(m.fluents()[0].initially && !m.fluents()[1].initially);
    let a = &m.assertions()[0];
    assert_eq!(a.extension, ["d"]);
    assert!(!a.constraint && m.assertions()[1].constraint);
    assert!(matches!(a.formula.formula(), Formula::Until(..)));
    assert!(a.formula.observes("d"));
    assert!(matches!(
        m.assertions()[2].formula.formula(),
        Formula::Iff(..)
    ));
    assert!(matches!(
        m.assertions()[3].formula.formula(),
        Formula::WeakUntil(..)
    ));
    // Still listed as not checked by a safety check.
    assert!(m.unchecked().iter().any(|u| u.keyword == "constraint"));
}

#[test]
fn errors_are_located() {
    let e = parse("assert A = []<>NOPE\nP = (a -> P).", "x.lts").unwrap_err();
    assert!(
        e.to_string()
            .contains("undefined fluent or assertion 'NOPE'"),
        "{e}"
    );
    let e = parse("fluent F = <a, a>\nP = (a -> P).", "x.lts").unwrap_err();
    assert!(e.to_string().contains("disjoint"), "{e}");
    let e = parse("assert A = B\nassert B = A\nP = (a -> P).", "x.lts").unwrap_err();
    assert!(e.to_string().contains("in terms of itself"), "{e}");
    let e = parse("assert A = [](a &&)\nP = (a -> P).", "x.lts").unwrap_err();
    assert!(e.to_string().contains("LTL formula"), "{e}");
}

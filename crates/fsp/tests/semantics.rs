//! Small elaboration cases whose answer is fixed by LTSA's compiler, each reduced from a golden
//! row that once differed.

fn component(src: &str, target: &str) -> guarantor_lts::Lts {
    let sys = guarantor_fsp::parse(src, "t.lts")
        .unwrap()
        .elaborate(target)
        .unwrap();
    sys.components[0].lts.clone()
}

/// LTSA compiles every local process instance, then prunes unreachable states: the actions of
/// unreachable instances stay declared, so the composite blocks them (tx3's `VAR`).
#[test]
fn unreachable_local_instances_declare_their_actions() {
    let lts = component(
        "VAR = VAR[0], VAR[i:0..3] = (r[i] -> VAR[i] | w[j:0..2] -> VAR[j]).",
        "VAR",
    );
    assert_eq!(lts.num_states(), 3);
    assert!(lts.alphabet().contains("r.3"));
    assert!(!lts.alphabet().contains("w.3"));
    // A local process nobody refers to also contributes its actions.
    let lts = component("P = (a -> P), Q = (b -> Q).", "P");
    assert_eq!(lts.num_states(), 1);
    assert!(lts.alphabet().contains("b"));
}

/// LTSA reduces a `minimal` composite before minimising it: a move into a state that offers only
/// tau moves is redirected to that state's tau successors (bufferimpl's `Eqivalent`, 22 states).
/// Observational equivalence alone keeps `a.(tau.b + tau.c)` at 5 states; LTSA reports
/// `a.b + a.c`: 4 states, 4 transitions.
#[test]
fn minimal_composite_bypasses_tau_only_states() {
    let sys = guarantor_fsp::parse(
        "P = (a -> (h1 -> b -> STOP | h2 -> c -> STOP)).\nminimal ||M = (P) \\ {h1, h2}.",
        "t.lts",
    )
    .unwrap()
    .elaborate("M")
    .unwrap();
    let shown = sys.finish(&sys.components[0].lts);
    assert_eq!((shown.num_states(), shown.num_transitions()), (4, 4));
    assert!(!shown.has_tau());
}

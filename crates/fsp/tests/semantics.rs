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

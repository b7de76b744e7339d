//! Snapshot tests of the DOT writer: a small LTS with every feature the drawing distinguishes.

use guarantor_lts::io::aut::parse_aut;
use guarantor_lts::io::dot::{DotOptions, to_dot_string};
use guarantor_lts::{ActionId, LtsBuilder, StateId};

fn snapshot(name: &str, dot: &str) {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("data/snapshots");
    settings.bind(|| insta::assert_snapshot!(name, dot));
}

#[test]
fn ltsa_property_with_error_state_and_merged_edges() {
    let lts = parse_aut(
        "des (1, 6, 3)\n(0, a, 1)\n(0, \"b \\\"q\\\"\", 1)\n(1, tau, 2)\n(1, c, -1)\n(2, d, 0)\n(2, \"back\\\\slash\", 0)\n",
    )
    .unwrap();
    let dot = to_dot_string(&lts, &DotOptions::default());
    snapshot("dot_property", &dot);
    let unmerged = to_dot_string(
        &lts,
        &DotOptions::default()
            .with_merge_edges(false)
            .with_left_to_right(false),
    );
    snapshot("dot_property_unmerged", &unmerged);
}

#[test]
fn fsm_accepting_states_are_double_circles() {
    let mut b = LtsBuilder::new();
    b.ensure_states(3).unwrap();
    b.add_transition_named(StateId::must(0), "x", StateId::must(1))
        .unwrap();
    b.add_transition(StateId::must(1), ActionId::TAU, StateId::must(2))
        .unwrap();
    b.set_accepting(StateId::must(2), true).unwrap();
    let dot = to_dot_string(
        &b.build().unwrap(),
        &DotOptions::default().with_graph_name("co\"A"),
    );
    snapshot("dot_fsm", &dot);
}

//! Lemma-level tests of constraint reuse (section 7.1, Lemmas 6(2) and 8).
//!
//! Lemma 6(2) says every constraint holds for the abstraction `g_j = M_j|alpha g_j`; Lemma 8 says
//! which constraints *stay* valid when the alphabet `A` grows. The end-to-end tests
//! (`tests/random.rs`) only see verdicts, so a reuse rule that kept a wrong constraint could hide
//! behind a lucky search. Here the run records, at every refinement, the constraints it re-seeds
//! the new synthesiser with, and each one is evaluated against the components' own projections,
//! computed by a breadth-first search over `(state, position)` pairs of the raw component — not
//! by the crate's `in_projection`. The constraints the rule *drops* (Lemma 4(1), resting on
//! membership checks over the old alphabet) are re-projected the same way, to show that some of
//! them do become false: the rule is not vacuous.

use guarantor_compose::Config;
use guarantor_lts::Lts;
use guarantor_lts::strategy::{LtsStrategyConfig, arb_deterministic_property, arb_system_with};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::TestRunner;

use super::{Acr, View};
use crate::config::{CircConfig, Decomposition};
use crate::encode::{Atom, Constraint};
use crate::system::{PreparedSystem, prepare};

/// The constraints of one synthesiser start, under that start's alphabets.
#[derive(Debug)]
struct Round {
    /// `letters[j][a]`: global id of letter `a` of assumption `j`.
    letters: Vec<Vec<u32>>,
    /// Reused by the Lemma 8 rule.
    kept: Vec<Constraint>,
    /// The Lemma 4(1) constraints found so far, re-projected onto this alphabet (not reused).
    dropped: Vec<Constraint>,
}

/// What a run recorded for these tests.
#[derive(Debug, Default)]
pub(super) struct AuditLog {
    /// Lemma 4(1) atoms `+(trace|g_j, j)` so far, as `(j, global trace)`.
    membership: Vec<(usize, Vec<u32>)>,
    rounds: Vec<Round>,
}

impl AuditLog {
    pub(super) fn refined(&mut self, view: &View, kept: &[Constraint]) {
        let dropped = self
            .membership
            .iter()
            .map(|(j, t)| Constraint(vec![view.plus(*j, t)]))
            .collect();
        self.rounds.push(Round {
            letters: view.letters.clone(),
            kept: kept.to_vec(),
            dropped,
        });
    }

    pub(super) fn membership(&mut self, atoms: impl IntoIterator<Item = (usize, Vec<u32>)>) {
        self.membership.extend(atoms);
    }
}

/// Whether `word` (global ids) is a trace of component `j` projected on `visible` (global ids):
/// breadth-first search over `(state, matched prefix length)`, every other action (tau included)
/// moving freely.
fn in_own_projection(sys: &PreparedSystem, j: usize, visible: &[u32], word: &[u32]) -> bool {
    let m = &sys.components()[j];
    let name = |a: u32| sys.action_names()[a as usize].as_str();
    let is_visible = |label: &str| visible.iter().any(|&a| name(a) == label);
    let mut seen = vec![vec![false; word.len() + 1]; m.num_states()];
    let mut stack = vec![(m.initial(), 0usize)];
    seen[m.initial().index()][0] = true;
    while let Some((s, p)) = stack.pop() {
        if p == word.len() {
            return true;
        }
        for e in m.outgoing(s) {
            let label = m.action_name(e.action);
            let next = if e.action.is_tau() || !is_visible(label) {
                Some(p)
            } else if label == name(word[p]) {
                Some(p + 1)
            } else {
                None
            };
            if let Some(q) = next
                && !seen[e.target.index()][q]
            {
                seen[e.target.index()][q] = true;
                stack.push((e.target, q));
            }
        }
    }
    false
}

/// Evaluates a constraint with `g_j := M_j|alpha g_j` for every `j`.
fn holds_for_projections(sys: &PreparedSystem, letters: &[Vec<u32>], c: &Constraint) -> bool {
    c.0.iter().any(|atom: &Atom| {
        let visible = &letters[atom.assumption];
        let word: Vec<u32> = atom.word.iter().map(|&a| visible[a as usize]).collect();
        in_own_projection(sys, atom.assumption, visible, &word) == atom.positive
    })
}

/// Runs ACR on the system and returns its prepared form with the audit log.
fn audited(comps: &[Lts], prop: &Lts, config: &CircConfig) -> (PreparedSystem, AuditLog) {
    let refs: Vec<&Lts> = comps.iter().collect();
    let props = [prop];
    let sys = prepare(&refs, &props, &config.mode, &Config::default()).unwrap();
    let mut acr = Acr::new(&sys, config).unwrap();
    acr.run((&refs, &props)).unwrap();
    let log = std::mem::take(&mut acr.audit);
    (sys, log)
}

/// Counts over one audited run: (kept constraints after a refinement, kept ones violated,
/// dropped ones violated).
fn tally(sys: &PreparedSystem, log: &AuditLog) -> (usize, usize, usize) {
    let (mut kept, mut kept_bad, mut dropped_bad) = (0, 0, 0);
    for round in &log.rounds {
        for c in &round.kept {
            kept += 1;
            kept_bad += usize::from(!holds_for_projections(sys, &round.letters, c));
        }
        for c in &round.dropped {
            dropped_bad += usize::from(!holds_for_projections(sys, &round.letters, c));
        }
    }
    (kept, kept_bad, dropped_bad)
}

const POOL: [&str; 5] = ["a", "b", "c", "d", "e"];

fn system() -> impl Strategy<Value = (Vec<Lts>, Lts)> {
    let comp = LtsStrategyConfig::new(4, &POOL)
        .with_max_transitions(8)
        .with_tau(false);
    (
        arb_system_with(4, comp).prop_filter("two or more components", |s| s.len() >= 2),
        arb_deterministic_property(3, &POOL[..2])
            .prop_map(|p| if p.num_transitions() < 2 { order() } else { p }),
    )
}

/// `P = (a -> b -> P)`: a property whose checks usually need the components' synchronisation on
/// the other actions, hence refinements.
fn order() -> Lts {
    let mut b = guarantor_lts::LtsBuilder::new();
    b.ensure_states(2).unwrap();
    b.add_transition_named(
        guarantor_lts::StateId::must(0),
        "a",
        guarantor_lts::StateId::must(1),
    )
    .unwrap();
    b.add_transition_named(
        guarantor_lts::StateId::must(1),
        "b",
        guarantor_lts::StateId::must(0),
    )
    .unwrap();
    b.build().unwrap()
}

/// NW+AR, 2W+AR, and NW+AR with only default constraints (which are all reused, so many more
/// kept constraints are audited); all synthesising every guarantee (the projections would answer
/// most of these small systems without a constraint to audit).
fn configs() -> [CircConfig; 3] {
    let base = CircConfig::default()
        .with_max_iterations(2_000)
        .with_max_projection_states(0);
    [
        base.clone(),
        base.clone()
            .with_mode(Decomposition::TwoWay { first: None }),
        base.with_strong_constraints(false),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Lemmas 6(2) and 8: after every refinement, each reused constraint holds for the
    /// components' own projections onto the new assumption alphabets.
    #[test]
    fn reused_constraints_hold_for_the_projections((comps, prop) in system()) {
        for config in configs() {
            let (sys, log) = audited(&comps, &prop, &config);
            for round in &log.rounds {
                for c in &round.kept {
                    prop_assert!(
                        holds_for_projections(&sys, &round.letters, c),
                        "kept constraint {:?} is false for the projections (letters {:?})",
                        c,
                        round.letters
                    );
                }
            }
        }
    }
}

/// Client-Server with `n` clients (server `request_i -> grant_i -> release_i`, client
/// `request_i -> grant_i -> use_i -> release_i`, uses mutually exclusive): every run refines the
/// alphabet two or three times and reuses dozens of constraints.
fn client_server(n: usize) -> (Vec<Lts>, Lts) {
    fn lts(edges: &[(usize, String, usize)]) -> Lts {
        let mut b = guarantor_lts::LtsBuilder::new();
        for (s, a, t) in edges {
            b.ensure_states(s.max(t) + 1).unwrap();
            b.add_transition_named(
                guarantor_lts::StateId::must(*s),
                a,
                guarantor_lts::StateId::must(*t),
            )
            .unwrap();
        }
        b.build().unwrap()
    }
    let mut server = Vec::new();
    let mut mutex = Vec::new();
    let mut comps = Vec::new();
    for i in 0..n {
        let s = 1 + 2 * i;
        server.extend([
            (0, format!("request_{i}"), s),
            (s, format!("grant_{i}"), s + 1),
            (s + 1, format!("release_{i}"), 0),
        ]);
        mutex.extend([
            (0, format!("use_{i}"), i + 1),
            (i + 1, format!("release_{i}"), 0),
        ]);
        comps.push(lts(&[
            (0, format!("request_{i}"), 1),
            (1, format!("grant_{i}"), 2),
            (2, format!("use_{i}"), 3),
            (3, format!("release_{i}"), 0),
        ]));
    }
    comps.insert(0, lts(&server));
    (comps, lts(&mutex))
}

#[test]
fn reused_constraints_hold_on_client_server() {
    for n in 2..=3 {
        let (comps, prop) = client_server(n);
        for config in configs() {
            let (sys, log) = audited(&comps, &prop, &config);
            let (kept, kept_bad, _) = tally(&sys, &log);
            assert!(log.rounds.len() >= 2, "n = {n}: no refinement");
            assert!(kept > 0, "n = {n}: nothing reused");
            assert_eq!(kept_bad, 0, "n = {n}: reused constraints violated");
        }
    }
}

/// The rule is not vacuous: over a fixed sample of random systems (about one run in twenty
/// refines), the constraints reused after refinements hold, while some of the Lemma 4(1)
/// constraints the rule drops are false for the projections onto the refined alphabets — reusing
/// them could exclude the abstraction `M_j|alpha g_j` and, with it, the minimal assumptions.
#[test]
fn dropped_membership_constraints_can_become_false() {
    let mut runner = TestRunner::deterministic();
    let strategy = system();
    let (mut kept, mut kept_bad, mut dropped_bad) = (0, 0, 0);
    for _ in 0..150 {
        let (comps, prop) = strategy.new_tree(&mut runner).unwrap().current();
        for config in configs() {
            let (sys, log) = audited(&comps, &prop, &config);
            let (k, kb, db) = tally(&sys, &log);
            kept += k;
            kept_bad += kb;
            dropped_bad += db;
        }
    }
    assert_eq!(kept_bad, 0, "reused constraints violated");
    assert!(kept > 0, "no reused constraint to test");
    assert!(
        dropped_bad > 0,
        "no dropped constraint ever became false: the reuse rule could keep them"
    );
}

//! `minimal` processes and weak minimisation against a naive reference (issue 26, departure 1).
//!
//! LTSA minimises a `minimal` primitive process by observational equivalence (weak bisimulation)
//! of the process as compiled. The reference here is written to be obviously right rather than
//! fast: the tau closure by repeated squaring of a boolean matrix, the saturated moves as sets,
//! then partition refinement by signatures until no class splits. Random processes with hidden
//! actions, tau loops, `ERROR` and `END` are minimised by the front end (`minimal P = ...`) and by
//! `guarantor_lts::ops::minimize_weak` (what `export --minimise` runs), and each result must be
//! weakly bisimilar to its input with one state per weak-bisimulation class.

use std::collections::BTreeSet;

use guarantor_lts::Lts;
use proptest::prelude::*;

/// A label of the reference: `None` is tau, `Some(name)` a visible action.
type Label = Option<String>;

/// An LTS as the reference sees it: states `0..n`, moves, the initial state, and `mark[s]` set for
/// the error state, which is apart from all others from the start. `END` gets a marker self-loop,
/// as LTSA's minimiser gives it, so that a state silently reaching `END` may join it.
#[derive(Clone, Debug)]
struct Plain {
    n: usize,
    moves: Vec<(usize, Label, usize)>,
    initial: usize,
    mark: Vec<bool>,
}

impl Plain {
    /// `lts` with its error state marked and `end` (if any) given the marker loop.
    fn of(lts: &Lts, end: Option<usize>) -> Plain {
        let n = lts.num_states();
        let mut mark = vec![false; n];
        if let Some(e) = lts.error_state() {
            mark[e.index()] = true;
        }
        let mut moves: Vec<(usize, Label, usize)> = lts
            .transitions()
            .map(|t| {
                let label = (!t.action.is_tau()).then(|| lts.alphabet().name(t.action).to_owned());
                (t.source.index(), label, t.target.index())
            })
            .collect();
        moves.extend(end.map(|e| (e, Some("@end".to_owned()), e)));
        Plain {
            n,
            moves,
            initial: lts.initial().index(),
            mark,
        }
    }

    /// The disjoint union of `self` and `other` (other's states shifted by `self.n`).
    fn union(&self, other: &Plain) -> Plain {
        let shift = self.n;
        let mut moves = self.moves.clone();
        moves.extend(
            other
                .moves
                .iter()
                .map(|(s, a, t)| (s + shift, a.clone(), t + shift)),
        );
        let mut mark = self.mark.clone();
        mark.extend(&other.mark);
        Plain {
            n: self.n + other.n,
            moves,
            initial: self.initial,
            mark,
        }
    }

    /// The states reachable from `from`.
    fn reachable(&self, from: usize) -> BTreeSet<usize> {
        let mut seen = BTreeSet::from([from]);
        let mut todo = vec![from];
        while let Some(s) = todo.pop() {
            for (_, _, t) in self.moves.iter().filter(|m| m.0 == s) {
                if seen.insert(*t) {
                    todo.push(*t);
                }
            }
        }
        seen
    }

    /// `closure[s][t]`: `s` reaches `t` by zero or more tau moves.
    fn tau_closure(&self) -> Vec<Vec<bool>> {
        let mut c = vec![vec![false; self.n]; self.n];
        for (s, row) in c.iter_mut().enumerate() {
            row[s] = true;
        }
        for (s, a, t) in &self.moves {
            if a.is_none() {
                c[*s][*t] = true;
            }
        }
        // Floyd-Warshall on booleans.
        for k in 0..self.n {
            let through_k = c[k].clone();
            for row in &mut c {
                if row[k] {
                    for (cell, &via) in row.iter_mut().zip(&through_k) {
                        *cell |= via;
                    }
                }
            }
        }
        c
    }

    /// The weak moves `s =a=> t` (tau: `s tau* t`; visible `a`: `s tau* a tau* t`).
    fn saturated(&self) -> Vec<BTreeSet<(Label, usize)>> {
        let c = self.tau_closure();
        let mut out = vec![BTreeSet::new(); self.n];
        for s in 0..self.n {
            for mid in (0..self.n).filter(|&m| c[s][m]) {
                out[s].insert((None, mid));
                for (_, a, u) in self.moves.iter().filter(|m| m.0 == mid && m.1.is_some()) {
                    for t in (0..self.n).filter(|&t| c[*u][t]) {
                        out[s].insert((a.clone(), t));
                    }
                }
            }
        }
        out
    }

    /// The weak-bisimulation class of every state: refine by (mark, weak moves into classes)
    /// until the number of classes stops growing.
    fn weak_classes(&self) -> Vec<usize> {
        let sat = self.saturated();
        let mut class: Vec<usize> = self.mark.iter().map(|&m| usize::from(m)).collect();
        let mut count = 0;
        loop {
            let signatures: Vec<(usize, BTreeSet<(Label, usize)>)> = (0..self.n)
                .map(|s| {
                    let moves = sat[s].iter().map(|(a, t)| (a.clone(), class[*t])).collect();
                    (class[s], moves)
                })
                .collect();
            let distinct: Vec<_> = signatures
                .iter()
                .collect::<BTreeSet<_>>()
                .into_iter()
                .collect();
            class = signatures
                .iter()
                .map(|sig| distinct.binary_search(&sig).unwrap())
                .collect();
            if distinct.len() == count {
                return class;
            }
            count = distinct.len();
        }
    }
}

/// `min` is weakly bisimilar to `original` and no two of its reachable states are.
fn assert_weakly_minimal(original: &Plain, min: &Plain) -> Result<(), TestCaseError> {
    let both = original.union(min);
    let classes = both.weak_classes();
    prop_assert_eq!(
        classes[original.initial],
        classes[original.n + min.initial],
        "not weakly bisimilar to the original"
    );
    let reach = min.reachable(min.initial);
    prop_assert_eq!(reach.len(), min.n, "unreachable states left");
    let own = min.weak_classes();
    let distinct: BTreeSet<usize> = reach.iter().map(|&s| own[s]).collect();
    prop_assert_eq!(distinct.len(), min.n, "two states of one weak class");
    let in_original: BTreeSet<usize> = original
        .reachable(original.initial)
        .iter()
        .map(|&s| classes[s])
        .collect();
    prop_assert_eq!(in_original.len(), min.n, "not one state per class");
    Ok(())
}

/// One local process of a random FSP process: its choices (action, target local process or one
/// of `STOP`, `ERROR`, `END`).
#[derive(Clone, Debug)]
struct Local {
    choices: Vec<(usize, usize)>,
}

const ACTIONS: [&str; 4] = ["a", "b", "h", "k"];

fn arb_process() -> impl Strategy<Value = Vec<Local>> {
    (1usize..6).prop_flat_map(|n| {
        let choice = (0..ACTIONS.len(), 0..n + 3);
        let local = prop::collection::vec(choice, 0..4).prop_map(|choices| Local { choices });
        prop::collection::vec(local, n)
    })
}

/// FSP text of the process: local process `i` is `P` for 0 and `Pi` otherwise; targets past
/// the locals are `STOP`, `ERROR` and `END`; `h` and `k` are hidden.
fn fsp_text(locals: &[Local], minimal: bool) -> String {
    let name = |t: usize| match t.checked_sub(locals.len()) {
        Some(0) => "STOP".to_owned(),
        Some(1) => "ERROR".to_owned(),
        Some(_) => "END".to_owned(),
        None if t == 0 => "P".to_owned(),
        None => format!("P{t}"),
    };
    let body = |l: &Local| {
        if l.choices.is_empty() {
            return "STOP".to_owned();
        }
        let arms: Vec<String> = l
            .choices
            .iter()
            .map(|&(a, t)| format!("{} -> {}", ACTIONS[a], name(t)))
            .collect();
        format!("({})", arms.join(" | "))
    };
    let defs: Vec<String> = locals
        .iter()
        .enumerate()
        .map(|(i, l)| format!("{} = {}", name(i), body(l)))
        .collect();
    let flag = if minimal { "minimal " } else { "" };
    format!("{flag}{}\\{{h, k}}.\n", defs.join(",\n  "))
}

/// The compiled process `P` of `src`, with its `END` state.
fn compile(src: &str) -> (Lts, Option<usize>) {
    let system = guarantor_fsp::parse(src, "t.lts")
        .and_then(|m| m.elaborate("P"))
        .unwrap_or_else(|e| panic!("{src}: {e}"));
    let c = &system.components[0];
    (
        c.lts.clone(),
        c.end_state.map(guarantor_lts::StateId::index),
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// `minimal P` is weakly bisimilar to `P` and has one state per weak class of `P`.
    #[test]
    fn minimal_processes_are_weakly_minimal(locals in arb_process()) {
        let (plain, end) = compile(&fsp_text(&locals, false));
        let (min, min_end) = compile(&fsp_text(&locals, true));
        assert_weakly_minimal(&Plain::of(&plain, end), &Plain::of(&min, min_end))?;
    }

    /// `minimize_weak` (`export --minimise`) is weakly minimal too, `END` unmarked.
    #[test]
    fn minimize_weak_is_weakly_minimal(locals in arb_process()) {
        let (plain, _) = compile(&fsp_text(&locals, false));
        let min = guarantor_lts::ops::minimize_weak(&plain);
        assert_weakly_minimal(&Plain::of(&plain, None), &Plain::of(&min, None))?;
    }
}

/// Issue 26, departure 1: LTSA keeps `a -> (tau -> v | tau -> d)` apart from
/// `a -> v | a -> d`: 4 states, 5 transitions (a, tau, tau, v, d).
#[test]
fn a_hidden_choice_after_a_is_kept() {
    let (min, _) = compile("minimal P = (a -> (b -> v -> P | e -> d -> P)) \\ {b, e}.\n");
    assert_eq!((min.num_states(), min.num_transitions()), (4, 5));
    let taus = min.transitions().filter(|t| t.action.is_tau()).count();
    assert_eq!(taus, 2);
}

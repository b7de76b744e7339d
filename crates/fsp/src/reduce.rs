//! LTSA's tau reduction, applied to a `minimal` composite before it is minimised.
//!
//! LTSA's compiler does not minimise the hidden product as it is: it first rewrites it with
//! `removeNonDetTau` (on by default), which is *not* observational-equivalence preserving: a move
//! `s -a-> t` into a state `t` (other than the initial one) that offers only tau moves is replaced
//! by `s -a-> u` for every tau successor `u` of `t`, so `a.(tau.P + tau.Q)` becomes `a.P + a.Q`.
//! The rewrite repeats, pruning states left unreachable, until a round removes no state. Only
//! then does weak bisimulation minimisation run. Without this step our `minimal` composites are
//! weakly bisimilar to the product but larger than LTSA's (bufferimpl's `Eqivalent`: 65 states
//! instead of LTSA's 22).

use guarantor_lts::{ActionId, Lts, LtsBuilder, LtsError, StateId};

/// One state's outgoing moves: (action, target index).
type Row = Vec<(ActionId, usize)>;

/// `lts` after LTSA's tau reduction (module docs), restricted to its reachable states.
pub(crate) fn ltsa_tau_reduction(lts: &Lts) -> Result<Lts, LtsError> {
    let init = lts.initial().index();
    let mut rows: Vec<Row> = lts
        .states()
        .map(|s| {
            lts.outgoing(s)
                .iter()
                .map(|e| (e.action, e.target.index()))
                .collect()
        })
        .collect();
    let mut alive = reachable(&rows, init);
    if lts.has_tau() {
        loop {
            let before = alive.iter().filter(|&&a| a).count();
            for (s, row) in rows.iter_mut().enumerate() {
                row.retain(|&(a, t)| !(a.is_tau() && t == s));
            }
            let tau_only: Vec<bool> = rows
                .iter()
                .enumerate()
                .map(|(s, r)| {
                    alive[s] && s != init && !r.is_empty() && r.iter().all(|(a, _)| a.is_tau())
                })
                .collect();
            if !tau_only.contains(&true) {
                break;
            }
            let snapshot = rows.clone();
            for (s, row) in rows.iter_mut().enumerate() {
                if alive[s] && !tau_only[s] {
                    *row = bypass(row, &snapshot, &tau_only, init);
                }
            }
            alive = reachable(&rows, init);
            if alive.iter().filter(|&&a| a).count() == before {
                break;
            }
        }
    }
    rebuild(lts, &rows, &alive)
}

/// `row` with every move into a tau-only state replaced by moves to that state's tau successors.
fn bypass(row: &Row, rows: &[Row], tau_only: &[bool], init: usize) -> Row {
    let mut out = Row::new();
    for &(a, t) in row {
        if t != init && tau_only[t] {
            out.extend(rows[t].iter().map(|&(_, u)| (a, u)));
        } else {
            out.push((a, t));
        }
    }
    out.sort_unstable_by_key(|&(a, t)| (a.index(), t));
    out.dedup();
    out
}

fn reachable(rows: &[Row], init: usize) -> Vec<bool> {
    let mut seen = vec![false; rows.len()];
    let mut stack = vec![init];
    seen[init] = true;
    while let Some(s) = stack.pop() {
        for &(_, t) in &rows[s] {
            if !seen[t] {
                seen[t] = true;
                stack.push(t);
            }
        }
    }
    seen
}

/// The LTS of the alive rows, keeping `lts`'s alphabet, initial and error state.
fn rebuild(lts: &Lts, rows: &[Row], alive: &[bool]) -> Result<Lts, LtsError> {
    let mut b = LtsBuilder::with_alphabet(lts.alphabet().clone());
    b.ensure_states(lts.num_states())?;
    for (s, row) in rows.iter().enumerate().filter(|(s, _)| alive[*s]) {
        for &(a, t) in row {
            b.add_transition(StateId::must(s), a, StateId::must(t))?;
        }
    }
    b.set_initial(lts.initial())?;
    if let Some(e) = lts.error_state() {
        b.set_error(e)?;
    }
    Ok(guarantor_lts::ops::trim(&b.build()?))
}

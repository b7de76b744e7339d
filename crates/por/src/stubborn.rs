//! Stubborn sets (Valmari) for a network of synchronising LTSs: which transitions of a tuple
//! suffice to keep every reachable deadlock.
//!
//! A set `S` of keys is stubborn in a tuple when it is closed under two rules:
//! - for an *enabled* key in `S`, every key that any component it involves offers in its current
//!   local state is in `S` (those are all the transitions that could take a component away from
//!   under the key, or compete with it);
//! - for a *disabled* key in `S`, all the keys of one component that blocks it (is involved but
//!   cannot take part now) are in `S` (only a move of that component can enable the key).
//!
//! Then no sequence of transitions outside `S` enables or disables a key of `S` (they touch none
//! of its components, or not the blocking one), and an enabled key of `S` stays enabled along
//! any such sequence: Valmari's conditions D1 and D2, under which exploring only the enabled keys
//! of a stubborn set (one that holds an enabled key whenever the tuple has one) reaches every
//! deadlock of the full product. Deadlocks need no cycle proviso.
//!
//! Each enabled key seeds one closure; the one with the fewest enabled keys wins.

use guarantor_lts::StateId;

use crate::network::{Key, Network};

/// The enabled keys of a stubborn set of `tuple` (empty exactly when `tuple` has no move).
pub(crate) fn stubborn(net: &Network<'_>, tuple: &[StateId]) -> Vec<Key> {
    let enabled = enabled_keys(net, tuple);
    let mut best: Option<Vec<Key>> = None;
    for &seed in &enabled {
        let chosen = closure(net, tuple, seed, best.as_ref().map_or(usize::MAX, Vec::len));
        if let Some(chosen) = chosen {
            let done = chosen.len() == 1;
            best = Some(chosen);
            if done {
                break;
            }
        }
    }
    best.unwrap_or(enabled)
}

/// Every enabled key of `tuple`, without repeats.
fn enabled_keys(net: &Network<'_>, tuple: &[StateId]) -> Vec<Key> {
    let mut keys: Vec<Key> = (0..net.comps.len())
        .flat_map(|i| net.offers(i, tuple[i]))
        .filter(|&k| net.enabled(k, tuple))
        .collect();
    keys.sort_unstable();
    keys.dedup();
    keys
}

/// The enabled keys of the closure from `seed`, or `None` once it holds `limit` or more enabled
/// keys (a better set is already known).
fn closure(net: &Network<'_>, tuple: &[StateId], seed: Key, limit: usize) -> Option<Vec<Key>> {
    let mut set: Vec<Key> = vec![seed];
    for (i, &state) in tuple.iter().enumerate() {
        for key in net.towards_error(i, state) {
            if !set.contains(&key) {
                set.push(key);
            }
        }
    }
    let mut added = vec![false; net.comps.len()];
    let mut enabled = Vec::new();
    let mut done = 0;
    while let Some(&key) = set.get(done) {
        done += 1;
        if net.enabled(key, tuple) {
            enabled.push(key);
            if enabled.len() >= limit {
                return None;
            }
            let involved: Vec<usize> = net.involved(key).collect();
            for i in involved {
                add_component(net, tuple, i, &mut added, &mut set);
            }
        } else if let Some(i) = blocker(net, tuple, key) {
            add_component(net, tuple, i, &mut added, &mut set);
        }
    }
    Some(enabled)
}

/// Adds the keys component `i` offers (once per closure).
fn add_component(
    net: &Network<'_>,
    tuple: &[StateId],
    i: usize,
    added: &mut [bool],
    set: &mut Vec<Key>,
) {
    if std::mem::replace(&mut added[i], true) {
        return;
    }
    for key in net.offers(i, tuple[i]) {
        if !set.contains(&key) {
            set.push(key);
        }
    }
}

/// The involved component that blocks the disabled `key` with the fewest moves of its own.
fn blocker(net: &Network<'_>, tuple: &[StateId], key: Key) -> Option<usize> {
    net.involved(key)
        .filter(|&i| !net.locally_enabled(key, i, tuple[i]))
        .min_by_key(|&i| net.comps[i].outgoing(tuple[i]).len())
}

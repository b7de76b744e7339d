//! Progress tests that a symmetry of the system makes the same: one per orbit is asked.
//!
//! FSP families are built from indexed copies: users `u[0..N-1]` of an arbiter, data values
//! `0..N-1` of a protocol. Renaming such an index (swapping the values `v` and `w` wherever they
//! fill one *slot* of the action names) often maps the system onto itself. When a renaming `π`
//! maps every part (component or property) onto a strongly bisimilar part, one each, the
//! product is bisimilar to its own renaming (renaming distributes over composition, and
//! bisimilarity is a congruence), so a progress test `{a}` holds exactly when `{π(a)}` does.
//! Nothing is assumed: each renaming is checked on every part before it is used, and a model
//! without symmetries asks every test as before.
//!
//! - A *slot* is a position of a numeric field in the names of one *shape* (`u.#.grant.#` has two
//!   slots). Slots over the same set of values (every slot of the users' numbers, say) form a
//!   candidate domain; its renamings are the transpositions of its first value with each other
//!   one, which generate every permutation of the domain.
//! - Orbits are the classes of "a renaming maps one to the other" over the checked renamings.
//!
//! On MER (N users) a user's tests stand for every user's; on the sliding-window protocol a data
//! value's for every value. Parts with end states (LTSA's `END`) are left alone: the end rule
//! would have to be mapped too.

use std::collections::{BTreeMap, BTreeSet};

use guarantor_lts::ops::{relabel, strong_bisimulation_classes};
use guarantor_lts::{Lts, LtsBuilder, LtsError, StateId};

use crate::order::visible_names;

/// The tests of `tests` to ask, one per orbit of the checked symmetries of `parts` (module docs):
/// the first of each orbit, in `tests`' order.
pub(crate) fn one_per_orbit(parts: &[&Lts], tests: Vec<String>) -> Vec<String> {
    let alphabets: Vec<BTreeSet<String>> =
        parts.iter().map(|p| visible_names(p).collect()).collect();
    let alphabet: BTreeSet<String> = alphabets.iter().flatten().cloned().collect();
    let mut orbit = Orbits::new(&alphabet);
    for renaming in candidate_renamings(&alphabet) {
        if is_symmetry(parts, &alphabets, &renaming) {
            for (from, to) in &renaming {
                orbit.join(from, to);
            }
        }
    }
    let mut seen = BTreeSet::new();
    tests
        .into_iter()
        .filter(|t| seen.insert(orbit.root(t)))
        .collect()
}

/// A renaming of action names: each name that changes, to its image.
type Renaming = BTreeMap<String, String>;

/// Whether a token of a dotted name is a numeric field.
fn is_number(token: &str) -> bool {
    !token.is_empty() && token.bytes().all(|b| b.is_ascii_digit())
}

/// A name's shape (numeric fields replaced by `#`) and its numeric fields.
fn shape_of(name: &str) -> (String, Vec<&str>) {
    let mut shape = Vec::new();
    let mut fields = Vec::new();
    for token in name.split('.') {
        if is_number(token) {
            shape.push("#");
            fields.push(token);
        } else {
            shape.push(token);
        }
    }
    (shape.join("."), fields)
}

/// The transpositions of each candidate domain's first value with each other value (module
/// docs), as renamings of the alphabet; a transposition that leads out of the alphabet is not
/// offered.
fn candidate_renamings(alphabet: &BTreeSet<String>) -> Vec<Renaming> {
    let shaped: Vec<(&String, (String, Vec<&str>))> =
        alphabet.iter().map(|name| (name, shape_of(name))).collect();
    // The values of each slot `(shape, field)`.
    let mut values: BTreeMap<(String, usize), BTreeSet<String>> = BTreeMap::new();
    for (_, (shape, fields)) in &shaped {
        for (i, v) in fields.iter().enumerate() {
            values
                .entry((shape.clone(), i))
                .or_default()
                .insert((*v).to_owned());
        }
    }
    // Domains: the slots with one value set.
    let mut domains: BTreeMap<BTreeSet<String>, BTreeSet<(String, usize)>> = BTreeMap::new();
    for (slot, vals) in values {
        if vals.len() > 1 {
            domains.entry(vals).or_default().insert(slot);
        }
    }
    let mut renamings = Vec::new();
    for (vals, slots) in &domains {
        let mut vals = vals.iter();
        let Some(first) = vals.next() else { continue };
        for other in vals {
            let renaming = transposition(&shaped, &slots_of(slots), first, other);
            if renaming.values().all(|to| alphabet.contains(to)) {
                renamings.push(renaming);
            }
        }
    }
    renamings
}

fn slots_of(slots: &BTreeSet<(String, usize)>) -> BTreeMap<&str, BTreeSet<usize>> {
    let mut by_shape: BTreeMap<&str, BTreeSet<usize>> = BTreeMap::new();
    for (shape, i) in slots {
        by_shape.entry(shape).or_default().insert(*i);
    }
    by_shape
}

/// The renaming that swaps `v` and `w` in the given slots of every name (each with its
/// [`shape_of`]).
fn transposition(
    shaped: &[(&String, (String, Vec<&str>))],
    slots: &BTreeMap<&str, BTreeSet<usize>>,
    v: &str,
    w: &str,
) -> Renaming {
    let mut renaming = Renaming::new();
    for (name, (shape, _)) in shaped {
        let Some(here) = slots.get(shape.as_str()) else {
            continue;
        };
        let mut field = 0;
        let image: Vec<&str> = name
            .split('.')
            .map(|token| {
                if !is_number(token) {
                    return token;
                }
                let swapped = if here.contains(&field) && token == v {
                    w
                } else if here.contains(&field) && token == w {
                    v
                } else {
                    token
                };
                field += 1;
                swapped
            })
            .collect();
        let image = image.join(".");
        if image != **name {
            renaming.insert((*name).clone(), image);
        }
    }
    renaming
}

/// Whether `renaming` maps every part onto a strongly bisimilar part with the renamed alphabet,
/// each part used once (`alphabets`: each part's visible names).
fn is_symmetry(parts: &[&Lts], alphabets: &[BTreeSet<String>], renaming: &Renaming) -> bool {
    let pairs: Vec<(&str, &str)> = renaming
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    let mut used = vec![false; parts.len()];
    for part in parts {
        let Ok(image) = relabel(part, &pairs) else {
            return false;
        };
        let names: BTreeSet<String> = visible_names(&image).collect();
        let matched = parts.iter().enumerate().position(|(j, other)| {
            !used[j] && alphabets[j] == names && bisimilar(&image, other).unwrap_or(false)
        });
        match matched {
            Some(j) => used[j] = true,
            None => return false,
        }
    }
    true
}

/// Whether the initial states of `a` and `b` are strongly bisimilar (their error states
/// counted as one).
fn bisimilar(a: &Lts, b: &Lts) -> Result<bool, LtsError> {
    let mut union = LtsBuilder::new();
    let offset = a.num_states();
    union.ensure_states(offset + b.num_states() + 1)?;
    let error = StateId::must(offset + b.num_states());
    let place = |lts: &Lts, s: StateId, base: usize| {
        if lts.is_error(s) {
            error
        } else {
            StateId::must(base + s.index())
        }
    };
    for (lts, base) in [(a, 0), (b, offset)] {
        for t in lts.transitions() {
            let name = lts.alphabet().name(t.action);
            union.add_transition_named(
                place(lts, t.source, base),
                name,
                place(lts, t.target, base),
            )?;
        }
    }
    union.set_error(error)?;
    let classes = strong_bisimulation_classes(&union.build()?);
    Ok(classes[place(a, a.initial(), 0).index()] == classes[place(b, b.initial(), offset).index()])
}

/// Union-find over action names.
struct Orbits {
    index: BTreeMap<String, usize>,
    parent: Vec<usize>,
}

impl Orbits {
    fn new(alphabet: &BTreeSet<String>) -> Self {
        Self {
            index: alphabet.iter().cloned().zip(0..).collect(),
            parent: (0..alphabet.len()).collect(),
        }
    }

    fn find(&mut self, mut i: usize) -> usize {
        while self.parent[i] != i {
            self.parent[i] = self.parent[self.parent[i]];
            i = self.parent[i];
        }
        i
    }

    fn join(&mut self, a: &str, b: &str) {
        if let (Some(&i), Some(&j)) = (self.index.get(a), self.index.get(b)) {
            let (ri, rj) = (self.find(i), self.find(j));
            self.parent[ri.max(rj)] = ri.min(rj);
        }
    }

    /// The orbit of `name` (a name outside the alphabet is its own orbit).
    fn root(&mut self, name: &str) -> Result<usize, String> {
        match self.index.get(name) {
            Some(&i) => Ok(self.find(i)),
            None => Err(name.to_owned()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lts(edges: &[(usize, &str, usize)]) -> Lts {
        Lts::from_edges(edges.iter().map(|&(s, a, t)| (s, a.to_owned(), t))).unwrap()
    }

    fn tests(names: &[&str]) -> Vec<String> {
        names.iter().map(|n| (*n).to_owned()).collect()
    }

    #[test]
    fn renamed_copies_ask_one_test_per_orbit() {
        let u0 = lts(&[(0, "u.0.req", 1), (1, "u.0.rel", 0)]);
        let u1 = lts(&[(0, "u.1.req", 1), (1, "u.1.rel", 0)]);
        let lock = lts(&[
            (0, "u.0.req", 1),
            (1, "u.0.rel", 0),
            (0, "u.1.req", 2),
            (2, "u.1.rel", 0),
        ]);
        let asked = tests(&["u.0.req", "u.1.req", "u.1.rel"]);
        let one_each = one_per_orbit(&[&u0, &u1, &lock], asked.clone());
        assert_eq!(one_each, tests(&["u.0.req", "u.1.rel"]));
        // A lock that lets user 1 in but never out again: no symmetry, every test asked.
        let unfair = lts(&[(0, "u.0.req", 1), (1, "u.0.rel", 0), (0, "u.1.req", 2)]);
        assert_eq!(one_per_orbit(&[&u0, &u1, &unfair], asked.clone()), asked);
    }
}

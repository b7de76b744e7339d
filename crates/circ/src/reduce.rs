//! Shrinking the environment of a premise check before exploring it, and remembering premises
//! that held.
//!
//! A premise `M |= g_1 || ... || g_m > g` (or the last premise `g_1 || ... || g_m |= P`) depends
//! on the assumptions only through the language of their composition projected onto the actions
//! of the checked side `M` (resp. `P`): a violating run of the product projects onto a trace of
//! `M` and a word of each `g_j`, and any such words that agree on shared actions interleave into
//! a run again. So the explorer may be given any environment with that projected language. The
//! plain product is exponential in `m` whenever the assumptions move independently (client
//! guarantees that each cycle through private actions multiply, `3^m` states for `m` clients,
//! while the server they talk to has a handful), and that product is rebuilt at every iteration.
//!
//! [`reduce`] applies language-preserving steps until none applies:
//! - *hide*: an action that neither the checked side nor another environment part has becomes
//!   tau, and the part is determinised and minimised (a guarantee over `grant, enter, exit` seen
//!   from the server keeps `grant` only);
//! - *drop*: a part left without actions constrains nothing;
//! - *merge*: two parts sharing an action that only they have (and the checked side has not) are
//!   composed, that action is hidden, and the result is minimised; the merge is kept only if it has
//!   at most as many states as the two parts together, so the environment never grows.
//!
//! The reduced environment decides whether the premise holds. Its counterexamples lack the hidden
//! actions, which the constraint analysis needs (it projects the run onto every assumption), so
//! [`Reduced::lift`] puts them back by walking the reduction backwards: a part's word is embedded
//! breadth-first into the LTS it was minimised from (inserting the hidden actions), a merged
//! part's run is split onto its two halves, and the halves' runs are interleaved again (they agree
//! on their shared actions, and the actions hidden inside a half are that half's alone). This
//! costs the word's length times the parts' sizes, never the product of the original assumptions.
//!
//! [`ReduceMemo`] remembers the results of the two expensive steps across premises and
//! iterations: `shrink(hide(l, hidden))` per (content of `l`, hidden names) and the merge of a pair
//! per (contents of both, hidden names). Most guarantees do not change from one iteration to the
//! next, so most steps are looked up. The keys are the parts' full contents and the hidden sets
//! (which is where the visible alphabet enters), so a changed guarantee or a changed alphabet can
//! only miss, never hit a stale entry; the memo is still cleared on alphabet refinement to bound
//! its size. It stores what the lifting needs (the merge's product), so a memoised reduction lifts
//! exactly like a fresh one.
//!
//! The memo is shared by the premise checks of one iteration, which may run on several threads
//! (`crate::premises`): its tables sit behind one lock that is held only to look an entry up or
//! to store one, never while a step is computed, so two threads may compute the same entry at
//! once and store equal results (the steps are deterministic). Which of them counts the miss
//! depends on timing, so the hit and miss counts are figures, never part of a report.
//!
//! [`PremiseCache`] remembers premises that held, keyed by the premise and the exact guarantees
//! it was checked with: the check is deterministic, so the same inputs hold again. A premise whose
//! own guarantee or any assumed guarantee changed is a different key and is checked afresh.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use guarantor_compose::replay::{Fill, embed};
use guarantor_compose::{Budget, ComposeError, Config, compose};
use guarantor_lts::Lts;
use guarantor_lts::ops::{determinize_with_limit, hide, minimize_dfa};
use rustc_hash::{FxHashMap, FxHashSet};

/// States a determinised part may reach before the reduction gives up on it.
const DETERMINISE_LIMIT: usize = 4_096;

/// Entries [`ReduceMemo`] holds before it starts afresh (a bound on memory; entries are small).
const MEMO_LIMIT: usize = 100_000;

/// A memoised hiding: the operand's id and the hidden names (sorted).
type HideKey = (u64, Vec<String>);
/// A memoised merge: both operands' ids and the hidden names (sorted).
type MergeKey = (u64, u64, Vec<String>);
/// A merge's result: the merged part's id, the product and the merged part.
type Merged = (u64, Arc<Lts>, Arc<Lts>);

/// Results of reduction steps, reused across premises and iterations (see the module docs).
///
/// Every LTS a step sees (an original assumption or a step's result) has an id interned from its
/// content (see [`key`]): equal ids mean equal contents, so steps are keyed by ids. Interning the
/// results too lets a chain of merges hit again after a changed guarantee whenever an
/// intermediate result comes out the same. Shared by reference between threads: the tables are
/// behind a lock taken only for lookups and stores.
#[derive(Debug, Default)]
pub(crate) struct ReduceMemo {
    tables: Mutex<Tables>,
    /// Steps answered from the memo.
    hits: AtomicUsize,
    /// Steps computed.
    misses: AtomicUsize,
}

/// The memo's tables.
#[derive(Debug, Default)]
struct Tables {
    /// Ids of the LTSs seen, by content.
    ids: FxHashMap<Vec<u32>, u64>,
    /// `shrink(hide(l, hidden))` and its id; `None` when the budget ran out.
    hidden: FxHashMap<HideKey, Option<(u64, Arc<Lts>)>>,
    /// `a || b`, `shrink(hide(a || b, hidden))` and the latter's id; `None` when a budget ran out.
    merged: FxHashMap<MergeKey, Option<Merged>>,
    /// The next fresh id.
    next: u64,
}

impl Tables {
    /// Forgets every entry (`next` keeps counting, so an id is never reused).
    fn clear(&mut self) {
        self.ids.clear();
        self.hidden.clear();
        self.merged.clear();
    }

    /// The id of the content `k`: the interned one, or a fresh one, starting afresh when the memo
    /// is full. An id handed out before such a restart stays unique: a stale id can only miss.
    fn intern(&mut self, k: Vec<u32>) -> u64 {
        if let Some(&id) = self.ids.get(&k) {
            return id;
        }
        if self.ids.len() + self.hidden.len() + self.merged.len() >= MEMO_LIMIT {
            self.clear();
        }
        self.next += 1;
        self.ids.insert(k, self.next);
        self.next
    }
}

impl ReduceMemo {
    /// Forgets everything (the alphabet changed; the keys would miss anyway).
    pub(crate) fn clear(&self) {
        self.tables().clear();
    }

    /// Steps answered from the memo so far.
    #[cfg(test)]
    pub(crate) fn hits(&self) -> usize {
        self.hits.load(Ordering::Relaxed)
    }

    /// Steps computed so far.
    #[cfg(test)]
    pub(crate) fn misses(&self) -> usize {
        self.misses.load(Ordering::Relaxed)
    }

    /// The tables, locked. A panic while the lock was held cannot leave them inconsistent (each
    /// store is one insert), so a poisoned lock is used as it is.
    fn tables(&self) -> MutexGuard<'_, Tables> {
        self.tables.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The id of `l`'s content.
    fn id(&self, l: &Lts) -> u64 {
        let k = key(l);
        self.tables().intern(k)
    }

    /// Counts a lookup: a hit when `found`.
    fn count(&self, found: bool) {
        let counter = if found { &self.hits } else { &self.misses };
        counter.fetch_add(1, Ordering::Relaxed);
    }

    /// `shrink(hide(l, hidden))` and its id, memoised (`id` is `l`'s).
    fn hide_shrink(&self, id: u64, l: &Lts, hidden: &[String]) -> Option<(u64, Arc<Lts>)> {
        let k = (id, sorted(hidden));
        let known = self.tables().hidden.get(&k).cloned();
        self.count(known.is_some());
        if let Some(r) = known {
            return r;
        }
        let r =
            shrink(&hide(l, hidden.iter().map(String::as_str))).map(|m| (self.id(&m), Arc::new(m)));
        self.tables().hidden.insert(k, r.clone());
        r
    }

    /// `a || b`, `shrink(hide(a || b, hidden))` and the latter's id, memoised.
    fn merge(&self, a: (u64, &Lts), b: (u64, &Lts), hidden: &[String]) -> Option<Merged> {
        let k = (a.0, b.0, sorted(hidden));
        let known = self.tables().merged.get(&k).cloned();
        self.count(known.is_some());
        if let Some(r) = known {
            return r;
        }
        // No product is larger than this: the limit only guards against overflow. The state
        // budget also counts stored transitions (Config::max_states), so they are bounded the
        // same way: every pair of moves synchronised, or one moving while the other stays.
        let (sa, sb) = (a.1.num_states(), b.1.num_states());
        let (ta, tb) = (a.1.num_transitions(), b.1.num_transitions());
        let transitions = ta
            .saturating_mul(tb)
            .saturating_add(ta.saturating_mul(sb))
            .saturating_add(tb.saturating_mul(sa));
        let limit = sa
            .saturating_mul(sb)
            .max(1)
            .saturating_add(Config::units_for_bytes(
                transitions.saturating_mul(Config::TRANSITION_BYTES),
            ));
        let config = Config::new().with_max_states(limit);
        let r = compose(&[a.1, b.1], &config).ok().and_then(|product| {
            let merged = shrink(&hide(&product, hidden.iter().map(String::as_str)))?;
            Some((self.id(&merged), Arc::new(product), Arc::new(merged)))
        });
        self.tables().merged.insert(k, r.clone());
        r
    }
}

/// `names` sorted, so that the order the names were found in does not split memo entries.
fn sorted(names: &[String]) -> Vec<String> {
    let mut v = names.to_vec();
    v.sort_unstable();
    v
}

/// An LTS of the reduced environment: an original assumption, or one a step made (shared with
/// the memo).
#[derive(Debug, Clone)]
enum Shared<'a> {
    Env(&'a Lts),
    Made(Arc<Lts>),
}

impl std::ops::Deref for Shared<'_> {
    type Target = Lts;
    fn deref(&self) -> &Lts {
        match self {
            Self::Env(l) => l,
            Self::Made(l) => l,
        }
    }
}

/// How a part of the reduced environment was made, so that its words can be lifted back to words
/// of the original assumptions.
#[derive(Debug)]
enum Origin<'a> {
    /// Original assumption `j` (index into the environment given to [`reduce`]).
    Leaf(usize),
    /// `shrink(hide(inner, hidden))`.
    Hidden {
        inner: Box<Part<'a>>,
        hidden: Vec<String>,
    },
    /// `shrink(hide(product, hidden))` with `product = a || b`.
    Merged {
        a: Box<Part<'a>>,
        b: Box<Part<'a>>,
        product: Arc<Lts>,
        hidden: Vec<String>,
    },
}

/// One part of the reduced environment.
#[derive(Debug)]
pub(crate) struct Part<'a> {
    lts: Shared<'a>,
    /// The memo's id of `lts`.
    id: u64,
    origin: Origin<'a>,
}

/// A reduced environment: its parts, and how they came from the original assumptions.
#[derive(Debug)]
pub(crate) struct Reduced<'a> {
    parts: Vec<Part<'a>>,
    /// The original assumptions' alphabets.
    alphas: Vec<FxHashSet<String>>,
}

impl Reduced<'_> {
    /// The parts, to be explored instead of the original environment.
    pub(crate) fn parts(&self) -> Vec<&Lts> {
        self.parts.iter().map(|p| &*p.lts).collect()
    }

    /// Whether no part is left (the environment constrains nothing).
    pub(crate) fn is_empty(&self) -> bool {
        self.parts.is_empty()
    }

    /// Lifts a run `trace` of `checked || parts` (names; `own` = the checked side's alphabet)
    /// to a run of `checked || original environment`: every hidden action is put back, each
    /// original assumption follows its own word. `None` if some step fails (not expected: every
    /// reduction step keeps the projected language).
    ///
    /// # Errors
    /// The budget's, while hidden steps are filled in.
    pub(crate) fn lift(
        &self,
        trace: &[String],
        own: &dyn Fn(&str) -> bool,
        budget: &mut Budget<'_>,
    ) -> Result<Option<Vec<String>>, ComposeError> {
        let mut out: Vec<String> = trace.to_vec();
        let mut seen: FxHashSet<String> = self
            .parts
            .iter()
            .flat_map(|p| p.lts.alphabet().iter().map(|(_, n)| n.to_owned()))
            .collect();
        for p in &self.parts {
            let word: Vec<String> = trace
                .iter()
                .filter(|n| p.lts.alphabet().contains(n))
                .cloned()
                .collect();
            let Some(lifted) = self.lift_part(p, &word, budget)? else {
                return Ok(None);
            };
            let sub = self.subtree_alphabet(p);
            let merged = merge2(&out, &lifted, &|n| own(n) || seen.contains(n), &|n| {
                sub.contains(n)
            });
            let Some(merged) = merged else {
                return Ok(None);
            };
            out = merged;
            seen.extend(sub);
        }
        Ok(Some(out))
    }

    /// The union of the original alphabets below `p`.
    fn subtree_alphabet(&self, p: &Part) -> FxHashSet<String> {
        match &p.origin {
            Origin::Leaf(j) => self.alphas[*j].clone(),
            Origin::Hidden { inner, .. } => self.subtree_alphabet(inner),
            Origin::Merged { a, b, .. } => {
                let mut s = self.subtree_alphabet(a);
                s.extend(self.subtree_alphabet(b));
                s
            }
        }
    }

    /// A run of the original assumptions below `p` whose projection onto `p`'s alphabet is
    /// `word`.
    fn lift_part(
        &self,
        p: &Part,
        word: &[String],
        budget: &mut Budget<'_>,
    ) -> Result<Option<Vec<String>>, ComposeError> {
        match &p.origin {
            Origin::Leaf(_) => Ok(Some(word.to_vec())),
            Origin::Hidden { inner, hidden } => match embed_word(&inner.lts, word, hidden, budget)?
            {
                Some(s) => self.lift_part(inner, &s, budget),
                None => Ok(None),
            },
            Origin::Merged {
                a,
                b,
                product,
                hidden,
            } => {
                let Some(s) = embed_word(product, word, hidden, budget)? else {
                    return Ok(None);
                };
                let on = |l: &Lts| -> Vec<String> {
                    s.iter()
                        .filter(|n| l.alphabet().contains(n))
                        .cloned()
                        .collect()
                };
                let Some(la) = self.lift_part(a, &on(&a.lts), budget)? else {
                    return Ok(None);
                };
                let Some(lb) = self.lift_part(b, &on(&b.lts), budget)? else {
                    return Ok(None);
                };
                let (sa, sb) = (self.subtree_alphabet(a), self.subtree_alphabet(b));
                Ok(merge2(&la, &lb, &|n| sa.contains(n), &|n| sb.contains(n)))
            }
        }
    }
}

/// A path of `l` from its initial state whose labels, without those in `hidden` (and tau), are
/// `word`, with the fewest moves (`guarantor_compose::replay::embed`), so few hidden actions are
/// inserted. Its labels (tau omitted).
fn embed_word(
    l: &Lts,
    word: &[String],
    hidden: &[String],
    budget: &mut Budget<'_>,
) -> Result<Option<Vec<String>>, ComposeError> {
    let run = embed(
        l.initial(),
        word.len(),
        |&s, read, out| {
            for e in l.outgoing(s) {
                let name = l.action_name(e.action);
                if e.action.is_tau() || hidden.iter().any(|h| h == name) {
                    out.push((Fill::Hidden, e.action, e.target));
                } else if word.get(read).is_some_and(|w| w == name) {
                    out.push((Fill::Letter, e.action, e.target));
                }
            }
        },
        |_| true,
        budget,
    )?;
    Ok(run.map(|run| {
        run.into_iter()
            .filter(|(a, _)| !a.is_tau())
            .map(|(a, _)| l.action_name(a).to_owned())
            .collect()
    }))
}

/// Interleaves `x` (over `in_x`) and `y` (over `in_y`) so that each is the projection of the
/// result on its alphabet; `None` when they disagree on a shared action.
fn merge2(
    x: &[String],
    y: &[String],
    in_x: &dyn Fn(&str) -> bool,
    in_y: &dyn Fn(&str) -> bool,
) -> Option<Vec<String>> {
    let (mut i, mut j) = (0, 0);
    let mut out = Vec::with_capacity(x.len() + y.len());
    loop {
        match (x.get(i), y.get(j)) {
            (None, None) => return Some(out),
            (Some(a), _) if !in_y(a) => {
                out.push(a.clone());
                i += 1;
            }
            (_, Some(b)) if !in_x(b) => {
                out.push(b.clone());
                j += 1;
            }
            (Some(a), Some(b)) if a == b => {
                out.push(a.clone());
                i += 1;
                j += 1;
            }
            _ => return None,
        }
    }
}

/// The environment `env` with the same language projected onto the actions for which
/// `visible` is true (see the module docs). `None` when a step would exceed its budget (the caller
/// then checks the original environment). Steps already done are taken from `memo`.
pub(crate) fn reduce<'a>(
    env: &[&'a Lts],
    visible: &dyn Fn(&str) -> bool,
    memo: &ReduceMemo,
) -> Option<Reduced<'a>> {
    let alphas = env
        .iter()
        .map(|l| l.alphabet().iter().map(|(_, n)| n.to_owned()).collect())
        .collect();
    // How many parts have each action.
    let mut count: FxHashMap<String, usize> = FxHashMap::default();
    for l in env {
        for (_, n) in l.alphabet().iter() {
            *count.entry(n.to_owned()).or_default() += 1;
        }
    }
    let private = |l: &Lts, count: &FxHashMap<String, usize>| -> Vec<String> {
        l.alphabet()
            .iter()
            .map(|(_, n)| n)
            .filter(|&n| !visible(n) && count.get(n) == Some(&1))
            .map(str::to_owned)
            .collect()
    };
    let mut parts: Vec<Part<'a>> = Vec::with_capacity(env.len());
    for (j, &l) in env.iter().enumerate() {
        let leaf = Part {
            lts: Shared::Env(l),
            id: memo.id(l),
            origin: Origin::Leaf(j),
        };
        let hidden = private(l, &count);
        parts.push(if hidden.is_empty() {
            leaf
        } else {
            let (id, lts) = memo.hide_shrink(leaf.id, l, &hidden)?;
            Part {
                lts: Shared::Made(lts),
                id,
                origin: Origin::Hidden {
                    inner: Box::new(leaf),
                    hidden,
                },
            }
        });
    }
    merge_pairs(&mut parts, &mut count, visible, memo)?;
    parts.retain(|p| !p.lts.alphabet().is_empty());
    Some(Reduced { parts, alphas })
}

/// Merges pairs of parts that alone share an invisible action, as long as that does not grow the
/// environment; `count` says how many parts have each action. `None` on an exceeded budget.
fn merge_pairs(
    parts: &mut Vec<Part<'_>>,
    count: &mut FxHashMap<String, usize>,
    visible: &dyn Fn(&str) -> bool,
    memo: &ReduceMemo,
) -> Option<()> {
    // Pairs (by position, reset when positions shift) tried in vain.
    let mut rejected: FxHashSet<(usize, usize)> = FxHashSet::default();
    'merging: loop {
        for a in 0..parts.len() {
            let candidates: Vec<usize> = parts[a]
                .lts
                .alphabet()
                .iter()
                .map(|(_, n)| n)
                .filter(|&n| !visible(n) && count.get(n) == Some(&2))
                .filter_map(|n| (a + 1..parts.len()).find(|&b| parts[b].lts.alphabet().contains(n)))
                .collect();
            for b in candidates {
                if rejected.contains(&(a, b)) {
                    continue;
                }
                let (la, lb) = (&parts[a].lts, &parts[b].lts);
                let shared: Vec<String> = la
                    .alphabet()
                    .iter()
                    .map(|(_, n)| n)
                    .filter(|&n| lb.alphabet().contains(n))
                    .map(str::to_owned)
                    .collect();
                let hidden: Vec<String> = shared
                    .iter()
                    .filter(|n| !visible(n) && count.get(*n) == Some(&2))
                    .cloned()
                    .collect();
                let (id, product, merged) =
                    memo.merge((parts[a].id, la), (parts[b].id, lb), &hidden)?;
                if merged.num_states() > la.num_states() + lb.num_states() {
                    rejected.insert((a, b));
                    continue;
                }
                for n in &shared {
                    if let Some(c) = count.get_mut(n) {
                        *c -= 1;
                    }
                }
                for n in &hidden {
                    count.remove(n);
                }
                let pb = parts.remove(b);
                let pa = std::mem::replace(
                    &mut parts[a],
                    Part {
                        lts: Shared::Made(merged),
                        id,
                        origin: Origin::Leaf(usize::MAX),
                    },
                );
                parts[a].origin = Origin::Merged {
                    a: Box::new(pa),
                    b: Box::new(pb),
                    product,
                    hidden,
                };
                rejected.clear();
                continue 'merging;
            }
        }
        break;
    }
    Some(())
}

/// Determinise (after hiding) and minimise.
fn shrink(l: &Lts) -> Option<Lts> {
    minimize_dfa(&determinize_with_limit(l, DETERMINISE_LIMIT).ok()?).ok()
}

/// A key identifying an LTS up to its state and action numbering as built: states, initial
/// state, then `(source, action name index, target)` per transition, the error state and the
/// accepting states, with the action names.
pub(crate) fn key(l: &Lts) -> Vec<u32> {
    let mut out = vec![l.num_states() as u32, l.initial().index() as u32];
    let names: Vec<&str> = l.alphabet().iter().map(|(_, n)| n).collect();
    for t in l.transitions() {
        out.extend([
            t.source.index() as u32,
            t.action.index() as u32,
            t.target.index() as u32,
        ]);
    }
    // The error state and the accepting states (if any) are part of what the LTS means.
    out.push(u32::MAX);
    out.push(l.error_state().map_or(u32::MAX, |e| e.index() as u32));
    out.push(u32::from(l.accepting_set().is_some()));
    if let Some(acc) = l.accepting_set() {
        out.extend(acc.iter().map(|s| s as u32));
    }
    // The names fix what the action indices mean; hash them into the key.
    for n in names {
        out.push(u32::MAX);
        out.extend(n.bytes().map(u32::from));
    }
    out
}

/// A premise-cache key: the premise (the last premise is `n`) and the [`key`]s of the guarantees
/// it was checked with (its own first, then the assumed ones in order).
pub(crate) type PremiseKey = (usize, Vec<Vec<u32>>);

/// Premises (by index; the last premise is `n`) known to hold for given guarantees.
#[derive(Debug, Default)]
pub(crate) struct PremiseCache {
    held: FxHashSet<PremiseKey>,
    /// Lookups answered from the cache.
    pub(crate) hits: usize,
}

impl PremiseCache {
    /// The cache key of premise `premise` checked with the guarantees `involved` (its own first,
    /// then the assumed ones in order).
    pub(crate) fn key(premise: usize, involved: &[&Lts]) -> PremiseKey {
        (premise, involved.iter().map(|l| key(l)).collect())
    }

    /// Whether the premise with this key is known to hold. Not counted: the caller counts a hit
    /// in [`PremiseCache::hits`] when it takes the answer (the premises of one iteration are
    /// looked up before they are taken in order, and some are never taken).
    pub(crate) fn knows(&self, k: &PremiseKey) -> bool {
        self.held.contains(k)
    }

    /// Records that the premise with this key holds.
    pub(crate) fn insert(&mut self, k: PremiseKey) {
        self.held.insert(k);
    }

    /// Forgets everything (the alphabet changed, so the guarantees mean something else).
    pub(crate) fn clear(&mut self) {
        self.held.clear();
    }
}

#[cfg(test)]
mod tests {
    use guarantor_compose::ag::check_circular_premise;
    use guarantor_lts::ops::accepts_trace_named;
    use guarantor_lts::{LtsBuilder, StateId};

    use super::*;

    fn lts(edges: &[(usize, &str, usize)]) -> Lts {
        let mut b = LtsBuilder::new();
        b.ensure_states(1).unwrap();
        for &(s, a, t) in edges {
            b.ensure_states(s.max(t) + 1).unwrap();
            b.add_transition_named(StateId::must(s), a, StateId::must(t))
                .unwrap();
        }
        b.build().unwrap()
    }

    /// A server serialising `m` clients whose guarantees cycle through private actions: the
    /// reduced environment seen from one client is tiny, the plain product is exponential, and
    /// both decide the premise the same way.
    #[test]
    fn reduction_keeps_the_projected_language_and_shrinks() {
        let m = 6;
        let server_edges: Vec<(usize, String, usize)> = (0..m)
            .flat_map(|j| [(0, format!("g{j}"), j + 1), (j + 1, format!("r{j}"), 0)])
            .collect();
        let server = lts(&server_edges
            .iter()
            .map(|(s, a, t)| (*s, a.as_str(), *t))
            .collect::<Vec<_>>());
        let clients: Vec<Lts> = (0..m)
            .map(|j| {
                let (g, e, x, r) = (
                    format!("g{j}"),
                    format!("e{j}"),
                    format!("x{j}"),
                    format!("r{j}"),
                );
                lts(&[(0, &g, 1), (1, &e, 2), (2, &x, 3), (3, &r, 0)])
            })
            .collect();
        // Seen from client 0: the environment is the server and clients 1..m.
        let mut env: Vec<&Lts> = vec![&server];
        env.extend(clients[1..].iter());
        let visible = |n: &str| ["g0", "e0", "x0", "r0"].contains(&n);
        // The second reduction is the memo's (every step a hit); it must lift all the same.
        let memo = ReduceMemo::default();
        let fresh = reduce(&env, &visible, &memo).unwrap();
        let misses = memo.misses();
        let reduced = reduce(&env, &visible, &memo).unwrap();
        assert!(memo.hits() > 0 && memo.misses() == misses);
        assert_eq!(keys(&reduced), keys(&fresh));
        let states: usize = reduced.parts().iter().map(|l| l.num_states()).sum();
        assert!(states <= 2, "reduced to {states} states");
        // Client 0 guarantees g0 e0 x0 r0 cyclically (holds); a guarantee forbidding a second
        // g0 does not (violated). Both environments agree.
        let good = lts(&[(0, "g0", 1), (1, "e0", 2), (2, "x0", 3), (3, "r0", 0)]);
        let bad = lts(&[(0, "g0", 1), (1, "e0", 2), (2, "x0", 3), (3, "r0", 4)]);
        for (g, holds) in [(&good, true), (&bad, false)] {
            let config = Config::new();
            let plain = check_circular_premise(&clients[0], &env, g, &config).unwrap();
            let small = check_circular_premise(&clients[0], &reduced.parts(), g, &config).unwrap();
            assert_eq!(plain.verdict.is_holds(), holds);
            assert_eq!(small.verdict.is_holds(), holds);
            assert!(small.stats.states <= plain.stats.states);
            if let Some(cex) = small.verdict.counterexample() {
                // The lifted run is a run of every original assumption (last step excepted).
                let (last, prefix) = cex.trace.split_last().unwrap();
                let mut budget = config.budget().unwrap();
                let mut full = reduced
                    .lift(prefix, &visible, &mut budget)
                    .unwrap()
                    .unwrap();
                for l in &env {
                    let word: Vec<&str> = full
                        .iter()
                        .filter(|n| l.alphabet().contains(n))
                        .map(String::as_str)
                        .collect();
                    assert!(accepts_trace_named(l, &word), "{word:?}");
                }
                let own: Vec<&str> = full
                    .iter()
                    .filter(|n| visible(n))
                    .map(String::as_str)
                    .collect();
                assert_eq!(
                    own,
                    prefix
                        .iter()
                        .filter(|n| visible(n))
                        .map(String::as_str)
                        .collect::<Vec<_>>()
                );
                full.push(last.clone());
                // ... and client 0 does it, then steps outside its guarantee.
                let on = |l: &Lts| -> Vec<&str> {
                    full.iter()
                        .filter(|n| l.alphabet().contains(n))
                        .map(String::as_str)
                        .collect()
                };
                assert!(accepts_trace_named(&clients[0], &on(&clients[0])));
                assert!(!accepts_trace_named(g, &on(g)));
            }
        }
    }

    /// Two parts sharing an action the checked side has are not merged: it stays visible.
    #[test]
    fn visible_shared_actions_are_kept() {
        let a = lts(&[(0, "s", 1), (1, "p", 0)]);
        let b = lts(&[(0, "s", 0)]);
        let reduced = reduce(&[&a, &b], &|n| n == "s", &ReduceMemo::default()).unwrap();
        assert_eq!(reduced.parts().len(), 2);
        assert!(reduced.parts().iter().all(|l| l.alphabet().contains("s")));
        assert!(reduced.parts().iter().all(|l| !l.alphabet().contains("p")));
    }

    fn keys(r: &Reduced) -> Vec<Vec<u32>> {
        r.parts().iter().map(|l| key(l)).collect()
    }

    /// A changed assumption or a changed visible alphabet never hits a stale memo entry: the
    /// memoised reduction equals a fresh one, and the changed steps are recomputed.
    #[test]
    fn memo_misses_on_a_changed_guarantee_or_alphabet() {
        // `s` is visible; `p`, `r` and `q` are shared by two parts only (merged, hidden); `x`,
        // `z` and `y` are private (hidden).
        let a = lts(&[
            (0, "s", 1),
            (1, "p", 2),
            (2, "r", 3),
            (3, "x", 4),
            (4, "z", 0),
        ]);
        let a2 = lts(&[
            (0, "s", 1),
            (1, "p", 2),
            (2, "r", 3),
            (3, "x", 4),
            (4, "z", 1),
        ]);
        let b = lts(&[(0, "p", 1), (1, "r", 2), (2, "q", 0)]);
        let c = lts(&[(0, "q", 1), (1, "y", 0)]);
        let vis_s = |n: &str| n == "s";
        let fresh = |env: &[&Lts], vis: &dyn Fn(&str) -> bool| {
            keys(&reduce(env, vis, &ReduceMemo::default()).unwrap())
        };
        let memo = ReduceMemo::default();
        let first = keys(&reduce(&[&a, &b, &c], &vis_s, &memo).unwrap());
        assert_eq!(first, fresh(&[&a, &b, &c], &vis_s));
        let misses = memo.misses();
        assert!(misses > 0);
        // The guarantee `a` changes (same alphabet, other language).
        let changed = keys(&reduce(&[&a2, &b, &c], &vis_s, &memo).unwrap());
        assert_eq!(changed, fresh(&[&a2, &b, &c], &vis_s));
        assert_ne!(changed, first);
        assert!(memo.misses() > misses);
        // The visible alphabet changes (as on alphabet refinement; the memo is not cleared):
        // with `r` visible, the same pair is merged hiding `p` only; with `x` visible, `a` hides
        // `z` only.
        for vis in [
            &(|n: &str| n == "s" || n == "r") as &dyn Fn(&str) -> bool,
            &|n: &str| n == "s" || n == "x",
        ] {
            let misses = memo.misses();
            let wider = keys(&reduce(&[&a, &b, &c], vis, &memo).unwrap());
            assert_eq!(wider, fresh(&[&a, &b, &c], vis));
            assert_ne!(wider, first);
            assert!(memo.misses() > misses);
        }
        // Back to the first inputs: all hits, same result; and after a clear, all misses again.
        let (hits, misses) = (memo.hits(), memo.misses());
        assert_eq!(keys(&reduce(&[&a, &b, &c], &vis_s, &memo).unwrap()), first);
        assert!(memo.hits() > hits);
        assert_eq!(memo.misses(), misses);
        memo.clear();
        assert_eq!(keys(&reduce(&[&a, &b, &c], &vis_s, &memo).unwrap()), first);
        assert!(memo.misses() > misses);
    }

    /// The cache answers only for the exact guarantees it was told about.
    #[test]
    fn cache_is_keyed_by_every_guarantee() {
        let g = lts(&[(0, "a", 1)]);
        let h = lts(&[(0, "a", 0)]);
        let other = lts(&[(0, "b", 0)]);
        let mut cache = PremiseCache::default();
        cache.insert(PremiseCache::key(0, &[&g, &other]));
        assert!(cache.knows(&PremiseCache::key(0, &[&g, &other])));
        assert!(!cache.knows(&PremiseCache::key(0, &[&h, &other])));
        assert!(!cache.knows(&PremiseCache::key(0, &[&g, &h])));
        assert!(!cache.knows(&PremiseCache::key(1, &[&g, &other])));
        cache.clear();
        assert!(!cache.knows(&PremiseCache::key(0, &[&g, &other])));
    }
}

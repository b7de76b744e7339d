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
//!
//! The closures run once per expanded tuple and per seed, so their sets are marks indexed by
//! [`Network::key_index`] and by component, renewed by bumping a stamp rather than cleared, and
//! every list is a buffer kept between tuples ([`Stubborn`]).

use guarantor_lts::StateId;

use crate::network::{Key, Network};

/// The stubborn-set computation with its buffers, kept between tuples.
pub(crate) struct Stubborn {
    /// Per key index: the stamp of the closure that holds the key.
    in_set: Vec<u32>,
    /// Per component: the stamp of the closure that added its keys.
    added: Vec<u32>,
    stamp: u32,
    /// The closure being built, in order of addition.
    set: Vec<Key>,
    /// Its enabled keys.
    enabled: Vec<Key>,
    /// The enabled keys of the best closure so far.
    best: Vec<Key>,
    /// The enabled keys of the base closure ([`Stubborn::of`]).
    base_enabled: Vec<Key>,
    /// Every enabled key of the tuple.
    all: Vec<Key>,
    /// Components a key involves (reused).
    involved: Vec<usize>,
}

impl Stubborn {
    /// Buffers sized for `net`.
    pub(crate) fn new(net: &Network<'_>) -> Self {
        Self {
            in_set: vec![0; net.num_keys()],
            added: vec![0; net.comps.len()],
            stamp: 0,
            set: Vec::new(),
            enabled: Vec::new(),
            best: Vec::new(),
            base_enabled: Vec::new(),
            all: Vec::new(),
            involved: Vec::new(),
        }
    }

    /// The enabled keys of a stubborn set of `tuple` (empty exactly when `tuple` has no move).
    ///
    /// Every closure holds the moves towards `ERROR`, so their closure (the *base*) is built once
    /// per tuple and each seed's closure only adds to it: the union of two closed sets is closed,
    /// so the base's keys need no second look, and a seed inside the base gives the base itself.
    pub(crate) fn of(&mut self, net: &Network<'_>, tuple: &[StateId]) -> &[Key] {
        if self.stamp > u32::MAX - 2 - net.num_keys() as u32 {
            // Stamps would wrap within this tuple: start them again from a clean slate.
            self.in_set.fill(0);
            self.added.fill(0);
            self.stamp = 0;
        }
        self.enabled_keys(net, tuple);
        let base = self.base(net, tuple);
        let mut found = false;
        for k in 0..self.all.len() {
            let seed = self.all[k];
            let limit = if found { self.best.len() } else { usize::MAX };
            if self.in_set[net.key_index(seed)] == base {
                if self.base_enabled.len() < limit {
                    found = true;
                    self.best.clone_from(&self.base_enabled);
                }
            } else if self.closure(net, tuple, seed, base, limit) {
                found = true;
                self.best.clone_from(&self.base_enabled);
                self.best.extend_from_slice(&self.enabled);
            }
            if found && self.best.len() == 1 {
                break;
            }
        }
        if found { &self.best } else { &self.all }
    }

    /// A fresh stamp: every mark of an older one reads as absent.
    fn next_stamp(&mut self) -> u32 {
        self.stamp += 1;
        self.stamp
    }

    /// Every enabled key of `tuple`, without repeats, in key order (into `all`).
    fn enabled_keys(&mut self, net: &Network<'_>, tuple: &[StateId]) {
        let stamp = self.next_stamp();
        self.all.clear();
        for (i, &state) in tuple.iter().enumerate() {
            for key in net.offers(i, state) {
                let at = net.key_index(key);
                if self.in_set[at] != stamp && net.enabled(key, tuple) {
                    self.in_set[at] = stamp;
                    self.all.push(key);
                }
            }
        }
        self.all.sort_unstable();
    }

    /// The closure of the moves towards `ERROR` (its enabled keys into `base_enabled`); returns
    /// the stamp that marks it.
    fn base(&mut self, net: &Network<'_>, tuple: &[StateId]) -> u32 {
        let stamp = self.next_stamp();
        self.set.clear();
        if net.any_doomed() {
            for (i, &state) in tuple.iter().enumerate() {
                for key in net.towards_error(i, state) {
                    self.push(net, key, stamp, stamp);
                }
            }
        }
        self.enabled.clear();
        self.close(net, tuple, stamp, stamp, usize::MAX);
        std::mem::swap(&mut self.base_enabled, &mut self.enabled);
        stamp
    }

    /// The closure from `seed` beyond the base (marked `base`), its new enabled keys left in
    /// `enabled`; false once it holds `limit` or more enabled keys with the base's (a better set
    /// is already known).
    fn closure(
        &mut self,
        net: &Network<'_>,
        tuple: &[StateId],
        seed: Key,
        base: u32,
        limit: usize,
    ) -> bool {
        let stamp = self.next_stamp();
        self.set.clear();
        self.enabled.clear();
        self.push(net, seed, stamp, base);
        let limit = limit.saturating_sub(self.base_enabled.len());
        self.close(net, tuple, stamp, base, limit)
    }

    /// Closes `set` under the two rules (module docs), marking with `stamp` what neither it nor
    /// `base` marks; its enabled keys go to `enabled`. False once they reach `limit`.
    fn close(
        &mut self,
        net: &Network<'_>,
        tuple: &[StateId],
        stamp: u32,
        base: u32,
        limit: usize,
    ) -> bool {
        let mut done = 0;
        while let Some(&key) = self.set.get(done) {
            done += 1;
            if net.enabled(key, tuple) {
                self.enabled.push(key);
                if self.enabled.len() >= limit {
                    return false;
                }
                self.involved.clear();
                self.involved.extend(net.involved(key));
                for k in 0..self.involved.len() {
                    let i = self.involved[k];
                    self.add_component(net, tuple, i, stamp, base);
                }
            } else if let Some(i) = blocker(net, tuple, key) {
                self.add_component(net, tuple, i, stamp, base);
            }
        }
        true
    }

    /// Adds `key` to the closure unless it or the base holds it.
    fn push(&mut self, net: &Network<'_>, key: Key, stamp: u32, base: u32) {
        let at = net.key_index(key);
        if self.in_set[at] != stamp && self.in_set[at] != base {
            self.in_set[at] = stamp;
            self.set.push(key);
        }
    }

    /// Adds the keys component `i` offers (once per closure, and not again for the base's).
    fn add_component(
        &mut self,
        net: &Network<'_>,
        tuple: &[StateId],
        i: usize,
        stamp: u32,
        base: u32,
    ) {
        if self.added[i] == stamp || self.added[i] == base {
            return;
        }
        self.added[i] = stamp;
        for key in net.offers(i, tuple[i]) {
            self.push(net, key, stamp, base);
        }
    }
}

/// The involved component that blocks the disabled `key` with the fewest moves of its own.
fn blocker(net: &Network<'_>, tuple: &[StateId], key: Key) -> Option<usize> {
    net.involved(key)
        .filter(|&i| !net.locally_enabled(key, i, tuple[i]))
        .min_by_key(|&i| net.comps[i].outgoing(tuple[i]).len())
}

//! The two sides of one synthesis problem, over one shared action numbering.
//!
//! [`Env`] is the environment `Q = M || P_err`: the rest of the system `M` as an explicit LTS (its
//! states are what the modal abstraction merges) and the error LTS of the properties. [`Subject`] is
//! the component being divided, `N` (or its forward quotient `N_F`), with its transitions split into
//! moves that synchronise with `Q` and *local* moves (tau, and actions outside `alpha Q`) that `N`
//! makes alone. Actions are numbered once, by name, in [`Env::alphabet`] (tau is 0); a subject's
//! action outside that alphabet is local.
//!
//! Transitions out of error states are dropped here once: a tuple holding an error state has no
//! successors (LTSA's semantics), so no fixpoint ever needs to look at them.

use guarantor_compose::error_lts::error_ltss;
use guarantor_compose::{ComposeError, Config, compose};
use guarantor_lts::{ActionId, Alphabet, Lts, LtsBuilder, StateId};

use crate::bits::Csr;

/// `M` and the combined `P_err` over one action numbering.
#[derive(Debug)]
pub(crate) struct Env<'a> {
    /// The rest of the system, explicit.
    pub(crate) m: &'a Lts,
    /// The product of the properties' error LTSs (one error state), or a one-state LTS.
    pub(crate) p: Lts,
    /// Names of `alpha M` union `alpha P`; tau is 0.
    pub(crate) alphabet: Alphabet,
    /// `M`'s local action id to the shared id.
    pub(crate) g_of_m: Vec<u32>,
    /// Shared id to `P`'s local action, if `P` has it.
    pub(crate) p_of_g: Vec<Option<ActionId>>,
    /// Per state of `P`: its moves on actions outside `alpha M` (it makes them without `M`).
    pub(crate) p_alone: Csr<(u32, u32)>,
}

impl<'a> Env<'a> {
    /// Sets up `M || P_err` for `m` and `properties`.
    pub(crate) fn new(
        m: &'a Lts,
        properties: &[&Lts],
        config: &Config,
    ) -> Result<Self, ComposeError> {
        let p = property_error_lts(properties, config)?;
        let mut alphabet = Alphabet::new();
        let intern = |alphabet: &mut Alphabet, lts: &Lts| -> Result<Vec<u32>, ComposeError> {
            std::iter::once(Ok(0))
                .chain(lts.alphabet().iter().map(|(_, name)| {
                    alphabet
                        .intern(name)
                        .map(ActionId::as_u32)
                        .map_err(|e| ComposeError::Lts(e.into()))
                }))
                .collect()
        };
        let g_of_m = intern(&mut alphabet, m)?;
        let g_of_p = intern(&mut alphabet, &p)?;
        let mut p_of_g = vec![None; alphabet.id_bound()];
        for (local, &g) in g_of_p.iter().enumerate().skip(1) {
            p_of_g[g as usize] = Some(ActionId::must(local));
        }
        let m_has = |g: u32| {
            m.alphabet()
                .get(alphabet.name(ActionId::from_u32(g)))
                .is_some()
        };
        let mut alone = Vec::new();
        for t in p.transitions().filter(|t| !p.is_error(t.source)) {
            let g = g_of_p[t.action.index()];
            if !m_has(g) {
                alone.push((t.source.as_u32(), (g, t.target.as_u32())));
            }
        }
        let p_alone = Csr::from_pairs(p.num_states(), &alone);
        Ok(Self {
            m,
            p,
            alphabet,
            g_of_m,
            p_of_g,
            p_alone,
        })
    }

    /// `P`'s successor of `p` on shared action `g`: `Some(p)` itself if `P` does not observe `g`,
    /// `None` if `P` observes `g` and refuses it (not the case for an error LTS's non-error states).
    #[inline]
    pub(crate) fn p_step(&self, p: u32, g: u32) -> Option<u32> {
        match self.p_of_g[g as usize] {
            None => Some(p),
            Some(a) => self
                .p
                .successors(StateId::from_u32(p), a)
                .next()
                .map(StateId::as_u32),
        }
    }
}

/// The product of the error LTSs of `properties`: deterministic, with one error state. Without
/// properties, a single state with an empty alphabet (nothing can go wrong).
fn property_error_lts(properties: &[&Lts], config: &Config) -> Result<Lts, ComposeError> {
    let errs = error_ltss(properties.iter().copied())?;
    if errs.is_empty() {
        let mut b = LtsBuilder::new();
        b.add_state()?;
        return Ok(b.build()?);
    }
    let refs: Vec<&Lts> = errs.iter().collect();
    compose(&refs, config)
}

/// The component being divided, with its moves split into synchronised and local ones.
#[derive(Clone, Debug)]
pub(crate) struct Subject {
    /// The number of states.
    pub(crate) n: usize,
    /// The initial state.
    pub(crate) initial: u32,
    /// The error state, if any.
    pub(crate) error: Option<u32>,
    /// Per shared action id: whether the subject synchronises on it.
    pub(crate) syncs: Vec<bool>,
    /// Per state: synchronised moves `(g, target)`, sorted by `g`.
    pub(crate) out: Csr<(u32, u32)>,
    /// Per state: targets of local moves.
    pub(crate) local_out: Csr<u32>,
    /// Per state: synchronised moves into it `(g, source)`, sorted by `g`.
    pub(crate) inc: Csr<(u32, u32)>,
    /// Per state: sources of local moves into it.
    pub(crate) local_in: Csr<u32>,
    /// Per `(g, state)`: the bitsets of its `g`-successors and `g`-predecessors, when they fit in
    /// [`IMAGE_WORDS`] words each (label propagation then ORs a row per state instead of
    /// searching the move lists).
    pub(crate) images: Option<Images>,
}

/// The largest image table [`Subject::images`] holds, in 64-bit words (2 MiB).
const IMAGE_WORDS: usize = 1 << 18;

/// Successor and predecessor bitsets per `(shared action, state)`.
#[derive(Clone, Debug)]
pub(crate) struct Images {
    words: usize,
    n: usize,
    succ: Vec<u64>,
    pred: Vec<u64>,
}

impl Images {
    fn build(n: usize, actions: usize, moves: &[(u32, (u32, u32))]) -> Option<Self> {
        let words = n.div_ceil(64);
        let size = actions.checked_mul(n)?.checked_mul(words)?;
        if size > IMAGE_WORDS {
            return None;
        }
        let (mut succ, mut pred) = (vec![0; size], vec![0; size]);
        for &(s, (g, d)) in moves {
            let (g, s, d) = (g as usize, s as usize, d as usize);
            succ[(g * n + s) * words + (d >> 6)] |= 1 << (d & 63);
            pred[(g * n + d) * words + (s >> 6)] |= 1 << (s & 63);
        }
        Some(Self {
            words,
            n,
            succ,
            pred,
        })
    }

    /// The `g`-successors of `s`.
    #[inline]
    pub(crate) fn succ(&self, g: u32, s: u32) -> &[u64] {
        let at = (g as usize * self.n + s as usize) * self.words;
        &self.succ[at..at + self.words]
    }

    /// The `g`-predecessors of `t`.
    #[inline]
    pub(crate) fn pred(&self, g: u32, t: u32) -> &[u64] {
        let at = (g as usize * self.n + t as usize) * self.words;
        &self.pred[at..at + self.words]
    }
}

impl Subject {
    /// Splits the moves of `lts` against the shared numbering `alphabet`.
    pub(crate) fn new(lts: &Lts, alphabet: &Alphabet) -> Self {
        let g_of: Vec<Option<u32>> = std::iter::once(None)
            .chain(
                lts.alphabet()
                    .iter()
                    .map(|(_, name)| alphabet.get(name).map(ActionId::as_u32)),
            )
            .collect();
        let mut syncs = vec![false; alphabet.id_bound()];
        for g in g_of.iter().flatten() {
            syncs[*g as usize] = true;
        }
        let (mut out, mut local_out, mut inc, mut local_in) = (vec![], vec![], vec![], vec![]);
        for t in lts.transitions().filter(|t| !lts.is_error(t.source)) {
            let (s, d) = (t.source.as_u32(), t.target.as_u32());
            if let Some(g) = g_of[t.action.index()] {
                out.push((s, (g, d)));
                inc.push((d, (g, s)));
            } else {
                local_out.push((s, d));
                local_in.push((d, s));
            }
        }
        let images = Images::build(lts.num_states(), alphabet.id_bound(), &out);
        let n = lts.num_states();
        Self {
            n,
            initial: lts.initial().as_u32(),
            error: lts.error_state().map(StateId::as_u32),
            syncs,
            out: by_state_then_action(n, &out),
            local_out: Csr::from_pairs(n, &local_out),
            inc: by_state_then_action(n, &inc),
            local_in: Csr::from_pairs(n, &local_in),
            images,
        }
    }

    /// The targets of `s` on shared action `g` (which the subject synchronises on).
    #[inline]
    pub(crate) fn succ(&self, s: u32, g: u32) -> impl Iterator<Item = u32> + '_ {
        on(self.out.of(s), g)
    }

    /// The sources of moves on shared action `g` into `t`.
    #[inline]
    pub(crate) fn pred(&self, t: u32, g: u32) -> impl Iterator<Item = u32> + '_ {
        on(self.inc.of(t), g)
    }
}

/// Moves grouped by state (a counting sort), each state's sorted by action: the rows are short, so
/// this is linear in practice where one sort of all moves is not.
fn by_state_then_action(n: usize, moves: &[(u32, (u32, u32))]) -> Csr<(u32, u32)> {
    let mut csr = Csr::from_pairs(n, moves);
    csr.sort_rows();
    csr
}

/// The second components of the pairs of a `g`-sorted slice whose first component is `g`.
fn on(list: &[(u32, u32)], g: u32) -> impl Iterator<Item = u32> + '_ {
    let lo = list.partition_point(|&(h, _)| h < g);
    list[lo..]
        .iter()
        .take_while(move |&&(h, _)| h == g)
        .map(|&(_, x)| x)
}

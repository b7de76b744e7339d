//! [`Machine`]: the elaborator's working form of one component, with named actions.
//!
//! Components are renamed many times on the way to the final system (relabelling, prefixing,
//! sharing, hiding), each time by name. Keeping names as strings here and interning them into an
//! [`Lts`] alphabet only at the end keeps those steps one simple function ([`Machine::rename`]).

use std::collections::HashMap;

use guarantor_lts::{Lts, LtsBuilder, StateId};

use crate::error::ErrorKind;

/// The name of the internal action.
pub(crate) const TAU: &str = "tau";

/// A name no FSP action can have (actions start with a lower-case letter), for the self-loop that
/// keeps `END` apart from other states while a process is minimised weakly.
const END_MARKER: &str = "@end";

/// A component under construction: states `0..num_states`, named actions, markers.
#[derive(Clone, Debug)]
pub(crate) struct Machine {
    /// Action names; index 0 is tau. Every other entry belongs to the declared alphabet.
    pub(crate) actions: Vec<String>,
    index: HashMap<String, u32>,
    pub(crate) num_states: u32,
    pub(crate) trans: Vec<(u32, u32, u32)>,
    pub(crate) initial: u32,
    pub(crate) error: Option<u32>,
    pub(crate) end: Option<u32>,
}

impl Default for Machine {
    fn default() -> Self {
        let mut index = HashMap::new();
        index.insert(TAU.to_string(), 0);
        Self {
            actions: vec![TAU.to_string()],
            index,
            num_states: 0,
            trans: Vec::new(),
            initial: 0,
            error: None,
            end: None,
        }
    }
}

impl Machine {
    /// Interns an action name (declaring it).
    pub(crate) fn action(&mut self, name: &str) -> u32 {
        if let Some(&a) = self.index.get(name) {
            return a;
        }
        let a = self.actions.len() as u32;
        self.actions.push(name.to_string());
        self.index.insert(name.to_string(), a);
        a
    }

    /// Renames every visible action to the names `f` gives (several: one-to-many; `"tau"`:
    /// hidden). Actions mapped to nothing disappear with their transitions.
    pub(crate) fn rename(&self, mut f: impl FnMut(&str) -> Vec<String>) -> Machine {
        let mut out = Machine {
            actions: Vec::new(),
            index: HashMap::new(),
            ..self.clone()
        };
        out.actions.push(TAU.to_string());
        out.index.insert(TAU.to_string(), 0);
        let map: Vec<Vec<u32>> = self
            .actions
            .iter()
            .enumerate()
            .map(|(i, name)| {
                if i == 0 {
                    vec![0]
                } else {
                    f(name).iter().map(|n| out.action(n)).collect()
                }
            })
            .collect();
        out.trans = Vec::with_capacity(self.trans.len());
        for &(s, a, t) in &self.trans {
            for &b in &map[a as usize] {
                out.trans.push((s, b, t));
            }
        }
        out
    }

    /// Drops the states the initial state does not reach, renumbering the rest in discovery
    /// order; the declared alphabet is kept whole (LTSA's `reachable()` after compiling).
    pub(crate) fn keep_reachable(&mut self) {
        let n = self.num_states.max(1) as usize;
        let mut out: Vec<Vec<(u32, u32)>> = vec![Vec::new(); n];
        for &(s, a, t) in &self.trans {
            out[s as usize].push((a, t));
        }
        let mut map = vec![u32::MAX; n];
        let mut order = vec![self.initial];
        map[self.initial as usize] = 0;
        let mut head = 0;
        while head < order.len() {
            let s = order[head] as usize;
            head += 1;
            for &(_, t) in &out[s] {
                if map[t as usize] == u32::MAX {
                    map[t as usize] = order.len() as u32;
                    order.push(t);
                }
            }
        }
        if order.len() == n {
            return;
        }
        let mut trans = Vec::with_capacity(self.trans.len());
        for &s in &order {
            for &(a, t) in &out[s as usize] {
                trans.push((map[s as usize], a, map[t as usize]));
            }
        }
        let keep = |s: Option<u32>| s.map(|s| map[s as usize]).filter(|&m| m != u32::MAX);
        self.error = keep(self.error);
        self.end = keep(self.end);
        self.initial = 0;
        self.num_states = order.len() as u32;
        self.trans = trans;
    }

    /// The visible action names.
    pub(crate) fn visible(&self) -> impl Iterator<Item = &str> {
        self.actions.iter().skip(1).map(String::as_str)
    }

    /// Converts to an [`Lts`] (alphabet in interning order; duplicates merged).
    pub(crate) fn to_lts(&self) -> Result<Lts, ErrorKind> {
        let limit = |e: guarantor_lts::LtsError| ErrorKind::Limit(e.to_string());
        let mut b = LtsBuilder::new();
        for name in self.visible() {
            b.action(name).map_err(limit)?;
        }
        b.ensure_states(self.num_states.max(1) as usize)
            .map_err(limit)?;
        for &(s, a, t) in &self.trans {
            b.add_transition(
                StateId::from_u32(s),
                guarantor_lts::ActionId::from_u32(a),
                StateId::from_u32(t),
            )
            .map_err(limit)?;
        }
        b.set_initial(StateId::from_u32(self.initial))
            .map_err(limit)?;
        if let Some(e) = self.error {
            b.set_error(StateId::from_u32(e)).map_err(limit)?;
        }
        b.build().map_err(limit)
    }
}

impl Machine {
    /// Minimises as LTSA's `minimal` does on a primitive process: observational equivalence (weak
    /// bisimulation) of the machine as compiled, with no tau reduction first (LTSA applies its
    /// tau reduction to `minimal` *composites* only, `CompositeState.minimise`; on a process it
    /// would merge states that observational equivalence keeps apart, as in
    /// `a -> (tau -> v | tau -> d)`). `END` is kept apart from `STOP` as LTSA's minimiser does:
    /// a marker self-loop on it, which a state that silently reaches `END` also gets by
    /// saturation. The declared alphabet stays.
    pub(crate) fn minimise_weak(&self) -> Result<Machine, ErrorKind> {
        let mut with_loop = self.clone();
        let marker = self.end.map(|end| {
            let a = with_loop.action(END_MARKER);
            with_loop.trans.push((end, a, end));
            a
        });
        let min = guarantor_lts::ops::minimize_weak(&with_loop.to_lts()?);
        self.rebuilt_from(&min, marker.is_some())
    }

    /// LTSA's `deterministic` on a primitive process (`Minimiser.trace_minimise`): the minimal
    /// deterministic LTS with the same traces, tau removed by the subset construction. For a
    /// machine without `END` (the caller warns otherwise); the declared alphabet stays.
    pub(crate) fn determinise(&self) -> Result<Machine, ErrorKind> {
        let limit = |e: guarantor_lts::LtsError| ErrorKind::Limit(e.to_string());
        let min = crate::trace_minimise(&self.to_lts()?).map_err(limit)?;
        self.rebuilt_from(&min, false)
    }

    /// A machine with this one's declared alphabet and the states and moves of `min` (a
    /// minimised form of it); with `end_marker`, the source of the [`END_MARKER`] loop is the
    /// end state and the loop goes.
    fn rebuilt_from(&self, min: &Lts, end_marker: bool) -> Result<Machine, ErrorKind> {
        let mut out = Machine::default();
        for name in self.visible() {
            out.action(name);
        }
        out.num_states = u32::try_from(min.num_states()).map_err(|_| {
            ErrorKind::Limit("a minimised process has more than 2^32 states".to_owned())
        })?;
        for t in min.transitions() {
            let name = min.alphabet().name(t.action);
            if end_marker && name == END_MARKER {
                out.end = Some(t.source.as_u32());
                continue;
            }
            let a = if t.action.is_tau() {
                0
            } else {
                out.action(name)
            };
            out.trans.push((t.source.as_u32(), a, t.target.as_u32()));
        }
        out.initial = min.initial().as_u32();
        out.error = min.error_state().map(StateId::as_u32);
        Ok(out)
    }

    /// Minimises by strong bisimulation (LTSA's `minimal`, which is observational equivalence, is
    /// the same thing when there is no tau; with tau this is coarser-than-nothing but finer than
    /// LTSA's, and the caller warns). `END` and `ERROR` stay apart from every other state.
    pub(crate) fn minimise(&self) -> Result<Machine, ErrorKind> {
        let mut lts = self.to_lts()?.to_builder();
        if let Some(e) = self.end {
            // Marking END as the only accepting state keeps it in a class of its own.
            for s in 0..self.num_states.max(1) {
                lts.set_accepting(StateId::from_u32(s), s == e)
                    .map_err(|e| ErrorKind::Limit(e.to_string()))?;
            }
        }
        let lts = lts.build().map_err(|e| ErrorKind::Limit(e.to_string()))?;
        let classes = guarantor_lts::ops::strong_bisimulation_classes(&lts);
        let class = |s: u32| classes[s as usize];
        let mut out = self.clone();
        out.num_states = classes.iter().max().map_or(1, |&m| m + 1);
        out.trans = self
            .trans
            .iter()
            .map(|&(s, a, t)| (class(s), a, class(t)))
            .collect();
        out.trans.sort_unstable();
        out.trans.dedup();
        out.initial = class(self.initial);
        out.error = self.error.map(class);
        out.end = self.end.map(class);
        Ok(out)
    }
}

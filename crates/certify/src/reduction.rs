//! Rule `reduce`: certificates of compositional minimisation, checked without trusting it.
//!
//! A method that builds the system bottom-up (compose two parts, hide what no other part uses,
//! minimise) proves its `holds` on the last, small part. Re-running its minimisation would trust
//! the very code under test, so a certificate instead records, per step, the part it reduced, the
//! actions it hid, the smaller LTS `R` it got, and a map from the part's states onto `R`'s. This
//! module checks each map with a walk of the part (`reduction` premises), and then that the steps
//! form a tree over the whole model whose root reaches no error and, with a `no-deadlock` premise,
//! has no deadlock.
//!
//! # Why the checks suffice
//! Write `P` for a step's part after hiding and `f` for its map. The checks are:
//! 1. `f` sends `P`'s initial state to `R`'s, every step `p -a-> p'` to a weak step
//!    `f(p) =a=> f(p')` of `R` (tau steps to zero or more tau steps), and `P`'s error to `R`'s;
//! 2. under `no-deadlock`, every *stable* state `p` of `P` (no tau step) to a stable state of `R`
//!    that offers exactly `p`'s actions and is ended exactly when `p` is;
//! 3. `R`'s alphabet is `P`'s visible alphabet minus the hidden actions, and no hidden action
//!    belongs to a component or property outside the part.
//!
//! Map the whole system's states up the tree (a tuple of leaf states to the image of its images).
//! By 1, and because composition and hiding keep weak steps, every run of the system is sent to
//! a run of the root's `R`, and a run to an error to a run to its error. A deadlock of the
//! system is a stable state that offers nothing and is not ended; its tuple's members are stable
//! in their parts and offer what they offered there, so by 2, step by step up the tree, its image
//! is stable, offers the same (nothing) and is not ended: a deadlock of the root. 3 makes the
//! products of the `R`s synchronise on the same actions as the products of the parts they stand
//! for. Divergence needs no check: a state with a tau step is never a deadlock.
//!
//! So if the root reaches neither its error nor a deadlock, the system reaches neither.

use std::collections::{BTreeSet, HashMap};

use crate::format::{LtsData, Reduced};
use crate::machine::{Act, Actions, Machine, TAU};
use crate::model::Model;

/// The largest number of states a `reduction`'s result may declare (as for assumptions: 2^26).
const MAX_STATES: u64 = 1 << 26;

/// The most states the walk of one part may visit.
const MAX_PART_STATES: usize = 1 << 26;

/// What the reduction checks need of the checker: the model's machines, by name.
pub(crate) struct Context<'a> {
    pub(crate) model: &'a Model,
    pub(crate) components: &'a HashMap<String, Machine>,
    pub(crate) properties: &'a HashMap<String, Machine>,
    pub(crate) actions: &'a mut Actions,
}

/// One checked `reduction`: its result and what the tree check needs.
struct Step {
    result: Machine,
    ended: Vec<bool>,
    /// The model's components and properties inside the part.
    leaves: BTreeSet<String>,
    hidden: BTreeSet<Act>,
    children: Vec<usize>,
}

/// The `reduction` premises checked so far, in order.
#[derive(Default)]
pub(crate) struct Reductions {
    steps: Vec<Step>,
    /// Whether the certificate claims deadlock freedom (a `no-deadlock` premise): then every
    /// step's stable states are checked too.
    deadlock: bool,
    /// Whether the `no-deadlock` premise has been checked.
    deadlock_checked: bool,
}

/// The fields of one `reduction` premise.
pub(crate) struct Premise<'p> {
    pub(crate) of: &'p Reduced,
    pub(crate) hidden: &'p [String],
    pub(crate) alphabet: &'p [String],
    pub(crate) result: &'p LtsData,
    pub(crate) error: Option<u64>,
    pub(crate) ended: &'p [u64],
    pub(crate) map: &'p [Vec<u64>],
}

impl Reductions {
    /// Ready for a certificate whose premises claim deadlock freedom or not.
    pub(crate) fn new(deadlock: bool) -> Self {
        Self {
            deadlock,
            ..Self::default()
        }
    }

    /// Checks one `reduction` premise (checks 1 and 2 of the module docs); returns the number of
    /// the part's states it walked.
    pub(crate) fn reduction(
        &mut self,
        cx: &mut Context<'_>,
        p: &Premise<'_>,
    ) -> Result<usize, String> {
        let (part, leaves, children) = self.part(cx, p.of)?;
        let hidden: BTreeSet<Act> = p.hidden.iter().map(|a| cx.actions.id(a)).collect();
        let alphabet: BTreeSet<Act> = p.alphabet.iter().map(|a| cx.actions.id(a)).collect();
        let visible: BTreeSet<Act> = part.alphabet.difference(&hidden).copied().collect();
        if alphabet != visible {
            return Err(format!(
                "the result's alphabet {:?} is not the part's visible alphabet {:?}",
                cx.actions
                    .names(&alphabet.iter().copied().collect::<Vec<_>>()),
                cx.actions
                    .names(&visible.iter().copied().collect::<Vec<_>>()),
            ));
        }
        let result = load_result(p.result, p.error, alphabet, cx.actions)?;
        let ended = flags(p.ended, result.len())?;
        let walked = Walk {
            part: &part,
            hidden: &hidden,
            result: &result,
            result_ended: &ended,
            deadlock: self.deadlock,
            closure: HashMap::new(),
        }
        .run(p.map)?;
        self.steps.push(Step {
            result,
            ended,
            leaves,
            hidden,
            children,
        });
        Ok(walked)
    }

    /// Whether the certificate claims deadlock freedom (has a `no-deadlock` premise).
    pub(crate) fn claims_deadlock(&self) -> bool {
        self.deadlock
    }

    /// Checks the `no-deadlock` premise on the last reduction's result.
    pub(crate) fn no_deadlock(&mut self) -> Result<(), String> {
        let root = self.steps.last().ok_or("no reduction comes before it")?;
        if let Some(s) = reachable(&root.result).into_iter().find(|&s| {
            root.result.edges[s].is_empty() && Some(s) != root.result.error && !root.ended[s]
        }) {
            return Err(format!("state {s} of the last result is a deadlock"));
        }
        self.deadlock_checked = true;
        Ok(())
    }

    /// The rule: the steps form one tree over every component and property, each hiding only
    /// actions of its own part (check 3), and the root reaches no error.
    pub(crate) fn rule(&self, cx: &Context<'_>) -> Result<(), String> {
        let root = self
            .steps
            .len()
            .checked_sub(1)
            .ok_or("needs reduction premises")?;
        if self.deadlock && !self.deadlock_checked {
            return Err("the no-deadlock premise must follow the reductions".to_owned());
        }
        let mut used = vec![false; self.steps.len()];
        for step in &self.steps {
            for &c in &step.children {
                used[c] = true;
            }
        }
        if let Some(i) = (0..root).find(|&i| !used[i]) {
            return Err(format!("reduction {i} is part of no later reduction"));
        }
        let everything: BTreeSet<String> = cx
            .model
            .components()
            .iter()
            .map(|c| c.name.clone())
            .chain(cx.model.properties().iter().map(|p| p.name.clone()))
            .collect();
        if self.steps[root].leaves != everything {
            return Err(
                "the last reduction is not the whole system with its properties".to_owned(),
            );
        }
        for (i, step) in self.steps.iter().enumerate() {
            Self::hides_own(cx, i, step)?;
        }
        let r = &self.steps[root].result;
        if r.error.is_some_and(|e| reachable(r).contains(&e)) {
            return Err("the last result reaches its error state".to_owned());
        }
        Ok(())
    }

    /// Check 3's second half for step `i`.
    fn hides_own(cx: &Context<'_>, i: usize, step: &Step) -> Result<(), String> {
        let outside = cx
            .components
            .iter()
            .chain(cx.properties.iter())
            .filter(|(name, _)| !step.leaves.contains(*name));
        for (name, m) in outside {
            if let Some(&a) = step.hidden.intersection(&m.alphabet).next() {
                return Err(format!(
                    "reduction {i} hides {:?}, an action of {name:?} outside its part",
                    cx.actions.name(a)
                ));
            }
        }
        Ok(())
    }

    /// The part a premise reduces (before hiding), the names inside it, and its children.
    fn part(
        &self,
        cx: &Context<'_>,
        of: &Reduced,
    ) -> Result<(Part, BTreeSet<String>, Vec<usize>), String> {
        let can_end = can_terminate(cx);
        match of {
            Reduced::Component(name) => {
                let m = cx
                    .components
                    .get(name)
                    .ok_or_else(|| format!("no component {name:?}"))?;
                self.unused_leaf(name)?;
                let end = cx
                    .model
                    .components()
                    .iter()
                    .find(|c| &c.name == name)
                    .and_then(|c| c.end)
                    .map(guarantor_lts::StateId::index);
                let ended = (0..m.len())
                    .map(|s| can_end && end.is_none_or(|e| e == s))
                    .collect();
                Ok((
                    Part::leaf(m.clone(), ended),
                    [name.clone()].into(),
                    Vec::new(),
                ))
            }
            Reduced::Property(name) => {
                let p = cx
                    .properties
                    .get(name)
                    .ok_or_else(|| format!("no property {name:?}"))?;
                self.unused_leaf(name)?;
                let m = p
                    .error_machine()
                    .map_err(|_| format!("property {name:?} is not deterministic"))?;
                let ended = vec![can_end; m.len()];
                Ok((Part::leaf(m, ended), [name.clone()].into(), Vec::new()))
            }
            Reduced::Pair([a, b]) => {
                let [x, y] = [*a, *b].map(|i| self.steps.get(i));
                let (Some(x), Some(y)) = (x, y) else {
                    return Err(format!("pair [{a}, {b}] names a reduction not before it"));
                };
                if a == b || self.is_child(*a) || self.is_child(*b) {
                    return Err(format!("pair [{a}, {b}] uses a reduction twice"));
                }
                let leaves = x.leaves.union(&y.leaves).cloned().collect();
                let part = Part::pair(x, y)?;
                Ok((part, leaves, vec![*a, *b]))
            }
        }
    }

    fn is_child(&self, i: usize) -> bool {
        self.steps.iter().any(|s| s.children.contains(&i))
    }

    fn unused_leaf(&self, name: &str) -> Result<(), String> {
        if self
            .steps
            .iter()
            .any(|s| s.children.is_empty() && s.leaves.contains(name))
        {
            return Err(format!("{name:?} is reduced twice"));
        }
        Ok(())
    }
}

/// LTSA's rule 1 for end states (see `check::Run::terminated`): some component can end, and every
/// action of the components that cannot, and of the properties, belongs to one that can.
fn can_terminate(cx: &Context<'_>) -> bool {
    let comps: Vec<(&Machine, Option<usize>)> = cx
        .model
        .components()
        .iter()
        .filter_map(|c| {
            let m = cx.components.get(&c.name)?;
            Some((m, c.end.map(guarantor_lts::StateId::index)))
        })
        .collect();
    let props: Vec<&Machine> = cx.properties.values().collect();
    crate::check::can_terminate(&comps, &props)
}

/// A part before hiding: an explicit LTS with the states the map names.
struct Part {
    alphabet: BTreeSet<Act>,
    initial: usize,
    edges: Vec<Vec<(Act, usize)>>,
    error: Option<usize>,
    ended: Vec<bool>,
    /// How the map names each state (none for the error state of a pair).
    keys: Vec<Option<Vec<u64>>>,
}

impl Part {
    /// A component or a property's error form; the map names its states by number (the error
    /// state, a component's `ERROR` or a property's pi, maps to the result's error whatever the
    /// map says).
    fn leaf(m: Machine, ended: Vec<bool>) -> Self {
        let keys = (0..m.len()).map(|s| Some(vec![s as u64])).collect();
        Self {
            alphabet: m.alphabet,
            initial: m.initial,
            edges: m.edges,
            error: m.error,
            ended,
            keys,
        }
    }

    /// The reachable product of two results; a pair with an error member is one error state.
    fn pair(x: &Step, y: &Step) -> Result<Self, String> {
        let alphabet = x
            .result
            .alphabet
            .union(&y.result.alphabet)
            .copied()
            .collect();
        let mut product = Product {
            x,
            y,
            index: HashMap::new(),
            queue: Vec::new(),
            part: Self {
                alphabet,
                initial: 0,
                edges: Vec::new(),
                error: None,
                ended: Vec::new(),
                keys: Vec::new(),
            },
        };
        product.part.initial = product.state(x.result.initial, y.result.initial)?;
        while let Some((s, a, b)) = product.queue.pop() {
            let mut out = Vec::new();
            for (act, targets) in pair_moves(x, y, a, b) {
                for (a2, b2) in targets {
                    out.push((act, product.state(a2, b2)?));
                }
            }
            out.sort_unstable();
            out.dedup();
            product.part.edges[s] = out;
        }
        Ok(product.part)
    }
}

/// The walk that builds a pair's product.
struct Product<'x> {
    x: &'x Step,
    y: &'x Step,
    index: HashMap<(usize, usize), usize>,
    /// States to expand: number and pair.
    queue: Vec<(usize, usize, usize)>,
    part: Part,
}

impl Product<'_> {
    /// The number of the pair `(a, b)`, new ones queued.
    fn state(&mut self, a: usize, b: usize) -> Result<usize, String> {
        let part = &mut self.part;
        if Some(a) == self.x.result.error || Some(b) == self.y.result.error {
            return Ok(*part.error.get_or_insert_with(|| {
                part.edges.push(Vec::new());
                part.ended.push(false);
                part.keys.push(None);
                part.edges.len() - 1
            }));
        }
        if let Some(&s) = self.index.get(&(a, b)) {
            return Ok(s);
        }
        if part.edges.len() >= MAX_PART_STATES {
            return Err(format!(
                "the product has more than {MAX_PART_STATES} states"
            ));
        }
        let s = part.edges.len();
        self.index.insert((a, b), s);
        part.edges.push(Vec::new());
        part.ended.push(self.x.ended[a] && self.y.ended[b]);
        part.keys.push(Some(vec![a as u64, b as u64]));
        self.queue.push((s, a, b));
        Ok(s)
    }
}

/// The moves of the pair `(a, b)`: each side alone on tau and on its own actions, both together on
/// shared ones.
fn pair_moves(x: &Step, y: &Step, a: usize, b: usize) -> Vec<(Act, Vec<(usize, usize)>)> {
    let (mx, my) = (&x.result, &y.result);
    let mut moves = Vec::new();
    for &(act, a2) in &mx.edges[a] {
        if act == TAU || !my.alphabet.contains(&act) {
            moves.push((act, vec![(a2, b)]));
        } else {
            moves.push((act, my.successors(b, act).map(|b2| (a2, b2)).collect()));
        }
    }
    for &(act, b2) in &my.edges[b] {
        if act == TAU || !mx.alphabet.contains(&act) {
            moves.push((act, vec![(a, b2)]));
        }
    }
    moves
}

/// The result's LTS data as a machine over `alphabet`, with its error state.
fn load_result(
    data: &LtsData,
    error: Option<u64>,
    alphabet: BTreeSet<Act>,
    actions: &mut Actions,
) -> Result<Machine, String> {
    if data.states == 0 || data.states > MAX_STATES {
        return Err(format!("the result declares {} states", data.states));
    }
    let n = data.states as usize;
    let state = |s: u64| -> Result<usize, String> {
        if s < data.states {
            Ok(s as usize)
        } else {
            Err(format!("state {s} is out of range"))
        }
    };
    let mut edges = vec![Vec::new(); n];
    for (s, a, t) in &data.transitions {
        let act = actions.id(a);
        if act != TAU && !alphabet.contains(&act) {
            return Err(format!("the result's action {a:?} is not in its alphabet"));
        }
        edges[state(*s)?].push((act, state(*t)?));
    }
    for e in &mut edges {
        e.sort_unstable();
        e.dedup();
    }
    let error = error.map(state).transpose()?;
    if error.is_some_and(|e| !edges[e].is_empty()) {
        return Err("the result's error state has moves".to_owned());
    }
    Ok(Machine {
        alphabet,
        initial: state(data.initial)?,
        edges,
        error,
    })
}

/// The flags of `n` states from the list of those set.
fn flags(set: &[u64], n: usize) -> Result<Vec<bool>, String> {
    let mut flags = vec![false; n];
    for &s in set {
        *flags
            .get_mut(usize::try_from(s).unwrap_or(usize::MAX))
            .ok_or_else(|| format!("ended state {s} is out of range"))? = true;
    }
    Ok(flags)
}

/// Checks 1 and 2 of the module docs for one part and its map.
struct Walk<'w> {
    part: &'w Part,
    hidden: &'w BTreeSet<Act>,
    result: &'w Machine,
    result_ended: &'w [bool],
    deadlock: bool,
    /// Memo of weak successors in the result: `(state, action)` to the states `=a=>` reaches.
    closure: HashMap<(usize, Act), BTreeSet<usize>>,
}

impl Walk<'_> {
    /// Walks the part's reachable states; returns how many.
    fn run(mut self, map: &[Vec<u64>]) -> Result<usize, String> {
        let images = self.images(map)?;
        let image = |s: usize| -> Result<usize, String> {
            images[s]
                .ok_or_else(|| format!("the map has no image for state {:?}", self.part.keys[s]))
        };
        let part = self.part;
        if image(part.initial)? != self.result.initial {
            return Err("the initial state is not mapped to the result's".to_owned());
        }
        let mut seen = vec![false; part.edges.len()];
        let mut stack = vec![part.initial];
        seen[part.initial] = true;
        let mut walked = 0;
        while let Some(s) = stack.pop() {
            walked += 1;
            let from = image(s)?;
            let mut stable = true;
            for &(act, t) in &part.edges[s] {
                let act = if self.hidden.contains(&act) { TAU } else { act };
                stable &= act != TAU;
                let to = image(t)?;
                if !self.weak_step(from, act, to) {
                    return Err(format!(
                        "a step of state {:?} has no weak step from {from} to {to} in the result",
                        part.keys[s]
                    ));
                }
                if !seen[t] {
                    seen[t] = true;
                    stack.push(t);
                }
            }
            if self.deadlock && stable && Some(s) != part.error {
                self.same_offers(s, from)?;
            }
        }
        Ok(walked)
    }

    /// The image of every state of the part (error states map to the result's error).
    fn images(&self, map: &[Vec<u64>]) -> Result<Vec<Option<usize>>, String> {
        let by_key: HashMap<&[u64], usize> = self
            .part
            .keys
            .iter()
            .enumerate()
            .filter_map(|(s, k)| Some((k.as_deref()?, s)))
            .collect();
        let mut images = vec![None; self.part.edges.len()];
        for entry in map {
            let (image, key) = entry.split_last().ok_or("an empty map entry")?;
            let Some(&s) = by_key.get(key) else {
                continue; // a state the walk does not reach from the part's initial state
            };
            if *image >= self.result.len() as u64 {
                return Err(format!("the image {image} of {key:?} is out of range"));
            }
            images[s] = Some(*image as usize);
        }
        if let Some(e) = self.part.error {
            // Unreachable errors need no image; a reachable one without a result error is
            // reported by the walk as a state without an image.
            images[e] = self.result.error;
        }
        for (s, image) in images.iter().enumerate() {
            if Some(s) != self.part.error && image.is_some() && *image == self.result.error {
                return Err(format!(
                    "state {:?} is not an error but maps to the result's error",
                    self.part.keys[s]
                ));
            }
        }
        Ok(images)
    }

    /// Check 2 for the stable state `s` with image `r`.
    fn same_offers(&self, s: usize, r: usize) -> Result<(), String> {
        let offers =
            |edges: &[(Act, usize)]| -> BTreeSet<Act> { edges.iter().map(|e| e.0).collect() };
        let hidden_free: BTreeSet<Act> = offers(&self.part.edges[s]);
        let mine = offers(&self.result.edges[r]);
        if mine.contains(&TAU) || mine != hidden_free || self.result_ended[r] != self.part.ended[s]
        {
            return Err(format!(
                "stable state {:?} offers or ends otherwise than its image {r}",
                self.part.keys[s]
            ));
        }
        Ok(())
    }

    /// Whether `from =act=> to` in the result (`act` tau: zero or more tau steps).
    fn weak_step(&mut self, from: usize, act: Act, to: usize) -> bool {
        if act == TAU && from == to || self.result.has_edge(from, act, to) {
            return true;
        }
        let result = self.result;
        self.closure
            .entry((from, act))
            .or_insert_with(|| weak_successors(result, from, act))
            .contains(&to)
    }
}

/// The states `from` reaches by tau* `act` tau* (by tau* alone when `act` is tau).
fn weak_successors(m: &Machine, from: usize, act: Act) -> BTreeSet<usize> {
    let before = tau_closure(m, [from]);
    if act == TAU {
        return before;
    }
    let after: Vec<usize> = before.iter().flat_map(|&s| m.successors(s, act)).collect();
    tau_closure(m, after)
}

/// The states reachable from `start` by tau steps.
fn tau_closure(m: &Machine, start: impl IntoIterator<Item = usize>) -> BTreeSet<usize> {
    let mut seen: BTreeSet<usize> = BTreeSet::new();
    let mut stack: Vec<usize> = start.into_iter().collect();
    while let Some(s) = stack.pop() {
        if seen.insert(s) {
            stack.extend(m.successors(s, TAU));
        }
    }
    seen
}

/// The states of `m` reachable from its initial state.
fn reachable(m: &Machine) -> Vec<usize> {
    let mut seen = vec![false; m.len()];
    let mut stack = vec![m.initial];
    let mut order = Vec::new();
    seen[m.initial] = true;
    while let Some(s) = stack.pop() {
        order.push(s);
        for &(_, t) in &m.edges[s] {
            if !seen[t] {
                seen[t] = true;
                stack.push(t);
            }
        }
    }
    order
}

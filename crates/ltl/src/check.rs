//! Checking a formula on a system under LTSA's fair-choice assumption ([`check_ltl`]), with a lasso
//! counterexample.
//!
//! ## What is checked
//! As LTSA's *Check > LTL property*, runs are taken under *fair choice*: a run eventually stays in
//! a terminal set of states of the system (a strongly connected component that no transition
//! leaves) and takes each of its transitions infinitely often. The formula is violated when some
//! such fair run, seen through the formula's alphabet ([`crate::formula`]), does not satisfy it.
//! A run that ends (a deadlock, or every component at `END`), or that goes on with actions the
//! formula does not observe, is read as its observed prefix followed by its last letter forever.
//! Action priority (FSP's `<<`, `>>`) is applied to the system first, so a transition the priority
//! removes is never taken: `P = (a -> P | b -> P)` with `P << {a}` never does `b`, and
//! `[]<>b` is violated (LTSA's own automaton stops following the system there and says it passes).
//!
//! ## How
//! The system is composed ([`guarantor_compose::compose_with_priority`]); an `ERROR` state reachable
//! in it makes the answer [`LtlVerdict::Unsafe`] with a shortest run to it (the liveness question
//! is then moot, as in LTSA). Otherwise the product of the system, the fluents' values and the
//! Büchi automaton of the negated formula ([`crate::automaton::Gba`]) is explored; an observed
//! action moves the automaton on the new letter, any other action leaves it where it is. A
//! strongly connected component of the product witnesses a violation when it lies in a terminal
//! set `S` of the system, its internal transitions cover every transition of `S` (fairness), and
//! either they meet every acceptance set (when `S` observes actions) or the automaton accepts the
//! component's constant letter forever from its state (when it does not, including a deadlock).
//! The lasso is a shortest run into the component and a cycle through it that meets every
//! acceptance set: a run that violates the formula. (The fair run the verdict is about stays in
//! the component and takes all of its transitions; the cycle shown is a short one, as LTSA's.) Memory: the product's states and transitions, counted against the
//! config's state limit.

use std::collections::VecDeque;

use guarantor_compose::{Config, Priority, compose, compose_with_priority};
use guarantor_lts::{ActionId, Lts, StateId};
use rustc_hash::FxHashMap;

use crate::automaton::{Gba, sccs};
use crate::error::LtlError;
use crate::formula::Ltl;

/// A counterexample to a liveness check: a run into a cycle, both as action names.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Lasso {
    /// The run from the initial state to the cycle.
    pub prefix: Vec<String>,
    /// The cycle, repeated forever; empty when the run stops there (a deadlock or `END`).
    pub cycle: Vec<String>,
}

impl Lasso {
    /// A lasso from its prefix and cycle.
    pub fn new(prefix: Vec<String>, cycle: Vec<String>) -> Self {
        Self { prefix, cycle }
    }
}

/// The answer of [`check_ltl`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum LtlVerdict {
    /// Every fair run satisfies the formula.
    Holds,
    /// A fair run violates it.
    Violated(Lasso),
    /// An `ERROR` state of the system is reachable: this shortest run reaches it.
    Unsafe(Vec<String>),
}

impl LtlVerdict {
    /// Whether the formula holds.
    pub fn is_holds(&self) -> bool {
        matches!(self, LtlVerdict::Holds)
    }
}

/// The result of [`check_ltl`] with what it built.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct LtlReport {
    /// The verdict.
    pub verdict: LtlVerdict,
    /// States of the composed system.
    pub system_states: usize,
    /// States of the product with the fluents and the automaton.
    pub product_states: usize,
    /// States of the Büchi automaton of the negation.
    pub automaton_states: usize,
}

/// Checks `ltl` on the composition of `components` under `priority`, if any (see the module
/// documentation). Actions the formula does not observe (tau, FSP's fresh hidden names) are
/// shown in the lasso as the system names them.
///
/// ```
/// use guarantor_compose::{Config, Priority};
/// use guarantor_ltl::{check_ltl, parse, LtlVerdict};
/// use guarantor_lts::Lts;
/// let p = Lts::from_edges([(0, "a", 0), (0, "b", 0)])?;
/// let always_b = parse("[]<>b", &[])?;
/// // Under fair choice b keeps happening.
/// let r = check_ltl(&[&p], None, &always_b, &Config::default())?;
/// assert!(r.verdict.is_holds());
/// // With a preferred to b, b never happens.
/// let r = check_ltl(&[&p], Some(&Priority::high(["a"])), &always_b, &Config::default())?;
/// let LtlVerdict::Violated(lasso) = r.verdict else { panic!() };
/// assert_eq!(lasso.cycle, ["a"]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// Budget errors of `config`, and the formula's own ([`LtlError`]).
pub fn check_ltl(
    components: &[&Lts],
    priority: Option<&Priority>,
    ltl: &Ltl,
    config: &Config,
) -> Result<LtlReport, LtlError> {
    let system = match priority {
        Some(p) => compose_with_priority(components, p, config)?.into_lts(),
        None => compose(components, config)?,
    };
    check_ltl_on(&system, ltl, config)
}

/// [`check_ltl`] on an already composed system.
///
/// # Errors
/// As [`check_ltl`].
pub fn check_ltl_on(system: &Lts, ltl: &Ltl, config: &Config) -> Result<LtlReport, LtlError> {
    let gba = Gba::of_within(&ltl.negated().formula().clone(), config)?;
    let mut report = LtlReport {
        verdict: LtlVerdict::Holds,
        system_states: system.num_states(),
        product_states: 0,
        automaton_states: gba.num_states(),
    };
    if let Some(err) = system.error_state()
        && let Some(path) = shortest_path(system, system.initial(), |s| s == err)
    {
        report.verdict = LtlVerdict::Unsafe(names(system, &path));
        return Ok(report);
    }
    let product = Product::build(system, ltl, &gba, config)?;
    report.product_states = product.states.len();
    report.verdict = product.find(system, &gba);
    Ok(report)
}

fn names(system: &Lts, path: &[ActionId]) -> Vec<String> {
    path.iter()
        .map(|&a| system.action_name(a).to_string())
        .collect()
}

/// A shortest path (its actions) in `system` from `from` to a state satisfying `goal`.
fn shortest_path(
    system: &Lts,
    from: StateId,
    goal: impl Fn(StateId) -> bool,
) -> Option<Vec<ActionId>> {
    let mut parent: FxHashMap<StateId, (StateId, ActionId)> = FxHashMap::default();
    let mut queue = VecDeque::from([from]);
    let mut seen = vec![false; system.num_states()];
    seen[from.index()] = true;
    while let Some(s) = queue.pop_front() {
        if goal(s) {
            let mut path = Vec::new();
            let mut cur = s;
            while cur != from {
                let (p, a) = parent[&cur];
                path.push(a);
                cur = p;
            }
            path.reverse();
            return Some(path);
        }
        for e in system.outgoing(s) {
            if !seen[e.target.index()] {
                seen[e.target.index()] = true;
                parent.insert(e.target, (s, e.action));
                queue.push_back(e.target);
            }
        }
    }
    None
}

/// One transition of the product.
#[derive(Clone, Copy, Debug)]
struct PEdge {
    target: u32,
    /// The system transition: its index in the system's global edge numbering.
    sys_edge: u32,
    acc: u64,
    observed: bool,
}

/// The explicit product system x fluent values x automaton.
#[derive(Debug)]
struct Product {
    /// (system state, valuation id, automaton state)
    states: Vec<(u32, u32, u32)>,
    edges: Vec<Vec<PEdge>>,
    valuations: Vec<Vec<bool>>,
    /// The system's actions each global edge number has.
    edge_action: Vec<ActionId>,
}

impl Product {
    fn build(system: &Lts, ltl: &Ltl, gba: &Gba, config: &Config) -> Result<Self, LtlError> {
        let mut budget = config.budget()?;
        let mut edge_base = Vec::with_capacity(system.num_states());
        let mut edge_action = Vec::new();
        for s in system.states() {
            edge_base.push(edge_action.len() as u32);
            edge_action.extend(system.outgoing(s).iter().map(|e| e.action));
        }
        let observed: Vec<bool> = (0..system.alphabet().id_bound())
            .map(|i| {
                let a = ActionId::must(i);
                a != ActionId::TAU && ltl.observes(system.action_name(a))
            })
            .collect();
        let mut vals: FxHashMap<Vec<bool>, u32> = FxHashMap::default();
        let mut valuations = Vec::new();
        let mut intern = |v: Vec<bool>, valuations: &mut Vec<Vec<bool>>| -> u32 {
            let n = vals.len() as u32;
            *vals.entry(v.clone()).or_insert_with(|| {
                valuations.push(v);
                n
            })
        };
        let v0 = intern(ltl.initial_valuation(), &mut valuations);
        let mut index: FxHashMap<(u32, u32, u32), u32> = FxHashMap::default();
        let mut states = vec![(system.initial().as_u32(), v0, 0)];
        index.insert(states[0], 0);
        let mut edges: Vec<Vec<PEdge>> = Vec::new();
        // Successor valuations per (valuation, action), computed once.
        let mut steps: FxHashMap<(u32, ActionId), u32> = FxHashMap::default();
        let mut next = 0;
        let mut transitions = 0usize;
        while next < states.len() {
            let (s, v, q) = states[next];
            let mut out = Vec::new();
            let sid = StateId::from_u32(s);
            for (k, e) in system.outgoing(sid).iter().enumerate() {
                budget.tick()?;
                let sys_edge = edge_base[s as usize] + k as u32;
                let mut push = |key: (u32, u32, u32), acc: u64, obs: bool, out: &mut Vec<PEdge>| {
                    let n = states.len() as u32;
                    let target = *index.entry(key).or_insert_with(|| {
                        states.push(key);
                        n
                    });
                    out.push(PEdge {
                        target,
                        sys_edge,
                        acc,
                        observed: obs,
                    });
                };
                if observed[e.action.index()] {
                    let v2 = match steps.get(&(v, e.action)) {
                        Some(&v2) => v2,
                        None => {
                            let nv =
                                ltl.step(&valuations[v as usize], system.action_name(e.action));
                            let v2 = intern(nv, &mut valuations);
                            steps.insert((v, e.action), v2);
                            v2
                        }
                    };
                    for ge in gba.edges(q) {
                        if ge.allows(&valuations[v2 as usize]) {
                            push((e.target.as_u32(), v2, ge.target), ge.acc, true, &mut out);
                        }
                    }
                } else {
                    push((e.target.as_u32(), v, q), 0, false, &mut out);
                }
            }
            // A product state costs about one unit of the state limit (its tuple, its index entry),
            // a stored transition (24 bytes) half of one.
            transitions += out.len();
            budget.check_states(states.len() + transitions / 2)?;
            edges.push(out);
            next += 1;
        }
        Ok(Self {
            states,
            edges,
            valuations,
            edge_action,
        })
    }

    /// The first violating component, as a lasso.
    fn find(&self, system: &Lts, gba: &Gba) -> LtlVerdict {
        // Terminal sets of the system.
        let n = system.num_states();
        let scomp = sccs(n, |s| {
            system
                .outgoing(StateId::must(s))
                .iter()
                .map(|e| e.target.index())
        });
        let ns = scomp.iter().copied().max().map_or(0, |m| m + 1);
        let mut terminal = vec![true; ns];
        let mut sys_edges = vec![0usize; ns];
        for s in system.states() {
            for e in system.outgoing(s) {
                if scomp[s.index()] == scomp[e.target.index()] {
                    sys_edges[scomp[s.index()]] += 1;
                } else {
                    terminal[scomp[s.index()]] = false;
                }
            }
        }
        let pcomp = sccs(self.states.len(), |p| {
            self.edges[p].iter().map(|e| e.target as usize)
        });
        let np = pcomp.iter().copied().max().map_or(0, |m| m + 1);
        let mut members: Vec<Vec<u32>> = vec![Vec::new(); np];
        for (p, &c) in pcomp.iter().enumerate() {
            members[c].push(p as u32);
        }
        let full = gba.full();
        for (c, mem) in members.iter().enumerate() {
            let first = mem[0] as usize;
            let sc = scomp[self.states[first].0 as usize];
            if !terminal[sc] {
                continue;
            }
            let mut covered: rustc_hash::FxHashSet<u32> = rustc_hash::FxHashSet::default();
            let mut acc = 0u64;
            let mut any_observed = false;
            for &p in mem {
                for e in &self.edges[p as usize] {
                    if pcomp[e.target as usize] == c {
                        covered.insert(e.sys_edge);
                        acc |= e.acc;
                        any_observed |= e.observed;
                    }
                }
            }
            if covered.len() < sys_edges[sc] {
                continue;
            }
            let accepting = if any_observed {
                acc & full == full
            } else {
                let (_, v, q) = self.states[first];
                gba.accepts_constant(q, &self.valuations[v as usize])
            };
            if accepting {
                return LtlVerdict::Violated(self.lasso(system, &pcomp, c, any_observed, full));
            }
        }
        LtlVerdict::Holds
    }

    /// A shortest path (product edges) from `from` to a state in `goal`, within `allowed`.
    fn path(
        &self,
        from: u32,
        goal: impl Fn(u32) -> bool,
        allowed: impl Fn(u32) -> bool,
    ) -> Vec<PEdge> {
        let mut parent: FxHashMap<u32, (u32, PEdge)> = FxHashMap::default();
        let mut seen = rustc_hash::FxHashSet::default();
        seen.insert(from);
        let mut queue = VecDeque::from([from]);
        while let Some(p) = queue.pop_front() {
            if goal(p) {
                let mut out = Vec::new();
                let mut cur = p;
                while cur != from {
                    let (pp, e) = parent[&cur];
                    out.push(e);
                    cur = pp;
                }
                out.reverse();
                return out;
            }
            for e in &self.edges[p as usize] {
                if allowed(e.target) && seen.insert(e.target) {
                    parent.insert(e.target, (p, *e));
                    queue.push_back(e.target);
                }
            }
        }
        Vec::new()
    }

    /// A shortest run into component `c`, then a cycle through it that meets every acceptance set
    /// (when the component observes actions): from each point, a shortest walk to the nearest
    /// internal transition of a set not met yet. A component without transitions (a deadlock)
    /// has an empty cycle.
    fn lasso(&self, system: &Lts, pcomp: &[usize], c: usize, observed: bool, full: u64) -> Lasso {
        let name = |e: &PEdge| {
            system
                .action_name(self.edge_action[e.sys_edge as usize])
                .to_string()
        };
        let inside = |p: u32| pcomp[p as usize] == c;
        let internal = |p: u32| {
            self.edges[p as usize]
                .iter()
                .copied()
                .filter(move |e| pcomp[e.target as usize] == c)
        };
        let prefix = self.path(0, inside, |_| true);
        let start = prefix.last().map_or(0, |e| e.target);
        let mut cycle = Vec::new();
        if internal(start).next().is_some() {
            let mut cur = start;
            let mut met = 0u64;
            let mut first = true;
            loop {
                let missing = if observed { full & !met } else { 0 };
                if missing == 0 && !first {
                    break;
                }
                let wanted = |e: &PEdge| (first && missing == 0) || e.acc & missing != 0;
                let walk = self.path(cur, |p| internal(p).any(|e| wanted(&e)), inside);
                cycle.extend(walk.iter().map(name));
                let at = walk.last().map_or(cur, |e| e.target);
                let Some(e) = internal(at).find(|e| wanted(e)) else {
                    break;
                };
                cycle.push(name(&e));
                met |= e.acc;
                cur = e.target;
                first = false;
            }
            cycle.extend(self.path(cur, |p| p == start, inside).iter().map(name));
        }
        Lasso {
            prefix: prefix.iter().map(name).collect(),
            cycle,
        }
    }
}

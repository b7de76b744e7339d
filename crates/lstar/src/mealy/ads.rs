//! Adaptive distinguishing sequences over the observation tree, for L#'s identification of a
//! frontier node among several candidate basis nodes (Vaandrager, Garhewal, Rot and Wissmann,
//! TACAS 2022, section 4).
//!
//! An ADS is a decision tree: each inner node names an input, each edge an output. It is built
//! from what the tree already knows below the candidates: at a block of nodes (where the
//! candidates are after the inputs so far, split by the outputs seen) the input is chosen that
//! maximises the paper's expected number of candidates the answer rules out,
//! `score(U) = max over inputs i of sum over outputs o of |U_io| (|U_i| - |U_io| + score(U_io)) / |U_i|`,
//! where `U_i` is the block's nodes that know `i` and `U_io` those answering `o` (moved on by
//! `i`). Run on the system as one query that chooses each input after seeing the last output
//! ([`Cache::adaptive`]), it tells the frontier node apart from every candidate whose known
//! answers it leaves, which for many candidates is far more than one preset word does.
//!
//! The exact score looks at every input at every block, which on a trie holding a conformance
//! test suite is a large search; a budget of blocks bounds it, after which each block takes the
//! input with the best one-step split (the paper's score without the recursive term).

use crate::dfa::Symbol;
use crate::mealy::cache::{Cache, NodeId};
use crate::mealy::machine::OutputId;

/// Blocks scored exactly per ADS (see the module doc).
const BUDGET: usize = 256;

/// One node of an ADS: the input to send (none at a leaf) and the node after each output.
#[derive(Clone, Debug)]
struct AdsNode {
    input: Option<Symbol>,
    children: Vec<(OutputId, u32)>,
}

/// An adaptive distinguishing sequence, as an arena of decision nodes, [`Ads::ROOT`] first.
#[derive(Clone, Debug)]
pub(crate) struct Ads {
    nodes: Vec<AdsNode>,
}

/// The search's tree, flattened into an [`Ads`] once chosen.
struct Tree {
    input: Option<Symbol>,
    score: f64,
    children: Vec<(OutputId, Tree)>,
}

impl Tree {
    fn leaf() -> Self {
        Tree {
            input: None,
            score: 0.0,
            children: Vec::new(),
        }
    }
}

/// A block's nodes split by their output on one input, each moved on by it.
type Parts = Vec<(OutputId, Vec<NodeId>)>;

/// The block's nodes that know input `a`, moved on by it and grouped by their output (in order
/// of first appearance, so the search is deterministic).
fn partition(cache: &Cache<'_>, block: &[NodeId], a: Symbol) -> Parts {
    let mut parts: Parts = Vec::new();
    for &n in block {
        if let Some(c) = cache.child(n, a) {
            let o = cache.output(c);
            match parts.iter_mut().find(|(p, _)| *p == o) {
                Some((_, v)) => v.push(c),
                None => parts.push((o, vec![c])),
            }
        }
    }
    parts
}

/// The search's buffers, reused across its blocks: allocation was most of the search's cost on
/// small models (an ADS is built for most identification queries).
#[derive(Default)]
struct Scratch {
    /// Outputs with how many nodes of the block give them, for one input.
    counts: Vec<(OutputId, usize)>,
    /// Spare input lists (one is in use per level of the recursion).
    options: Vec<Vec<(f64, usize, Symbol)>>,
}

/// The best tree for `block` within `budget` exactly scored blocks.
#[allow(clippy::cast_precision_loss)] // block sizes are far below 2^52
fn search(cache: &Cache<'_>, block: &[NodeId], budget: &mut usize, scratch: &mut Scratch) -> Tree {
    if block.len() < 2 {
        return Tree::leaf();
    }
    // Each input with its one-step score and how many nodes know it; the parts themselves are
    // made only for the inputs searched further.
    let mut counts = std::mem::take(&mut scratch.counts);
    let mut options = scratch.options.pop().unwrap_or_default();
    options.clear();
    for a in Symbol::all(cache.num_inputs()) {
        counts.clear();
        for &n in block {
            if let Some(c) = cache.child(n, a) {
                let o = cache.output(c);
                match counts.iter_mut().find(|(p, _)| *p == o) {
                    Some((_, k)) => *k += 1,
                    None => counts.push((o, 1)),
                }
            }
        }
        let u: usize = counts.iter().map(|&(_, k)| k).sum();
        if u >= 2 {
            let base = counts
                .iter()
                .map(|&(_, k)| (k * (u - k)) as f64)
                .sum::<f64>()
                / u as f64;
            options.push((base, u, a));
        }
    }
    scratch.counts = counts;
    options.sort_by(|x, y| y.0.total_cmp(&x.0).then(y.1.cmp(&x.1)));
    let max = (block.len() - 1) as f64;
    let mut best: Option<Tree> = None;
    for &(_, u, a) in &options {
        if let Some(b) = &best {
            // Nothing beats the maximum; an input scores at most `u - 1`.
            if *budget == 0 || b.score >= max {
                break;
            }
            if (u - 1) as f64 <= b.score {
                continue;
            }
        }
        *budget = budget.saturating_sub(1);
        let parts = partition(cache, block, a);
        let mut score = 0.0;
        let mut children = Vec::with_capacity(parts.len());
        for (o, part) in parts {
            let sub = search(cache, &part, budget, scratch);
            score += part.len() as f64 * ((u - part.len()) as f64 + sub.score) / u as f64;
            children.push((o, sub));
        }
        if best.as_ref().is_none_or(|b| score > b.score) {
            best = Some(Tree {
                input: Some(a),
                score,
                children,
            });
        }
    }
    scratch.options.push(options);
    best.unwrap_or_else(Tree::leaf)
}

impl Ads {
    /// The first decision node.
    pub(crate) const ROOT: usize = 0;

    /// An ADS for telling a node apart from the `candidates` (tree nodes), if what the tree
    /// knows below them can tell any two of them apart (a positive score).
    pub(crate) fn new(cache: &Cache<'_>, candidates: &[NodeId]) -> Option<Ads> {
        let mut budget = BUDGET;
        let tree = search(cache, candidates, &mut budget, &mut Scratch::default());
        if tree.score <= 0.0 {
            return None;
        }
        let mut ads = Ads { nodes: Vec::new() };
        ads.flatten(tree);
        Some(ads)
    }

    /// Appends `t` and its subtrees; `t`'s index.
    fn flatten(&mut self, t: Tree) -> u32 {
        let me = self.nodes.len();
        self.nodes.push(AdsNode {
            input: t.input,
            children: Vec::with_capacity(t.children.len()),
        });
        for (o, sub) in t.children {
            let c = self.flatten(sub);
            self.nodes[me].children.push((o, c));
        }
        u32::try_from(me).expect("fewer than 2^32 ADS nodes")
    }

    /// The input to send at decision node `at`; `None` at a leaf.
    pub(crate) fn input(&self, at: usize) -> Option<Symbol> {
        self.nodes[at].input
    }

    /// The decision node after answer `o` at `at`; `None` if the ADS does not go on (a leaf, or
    /// an answer no candidate gives, which already rules them all out).
    pub(crate) fn after(&self, at: usize, o: OutputId) -> Option<usize> {
        self.nodes[at]
            .children
            .iter()
            .find(|(p, _)| *p == o)
            .map(|&(_, c)| c as usize)
    }
}

#[cfg(test)]
mod tests {
    use std::fmt::Write as _;

    use super::*;
    use crate::mealy::{Mealy, Phase, Simulated};

    /// A counter modulo 4: `a` counts, `b` tells the parity, `c` whether it is zero.
    fn counter() -> Mealy {
        let mut text = String::from("digraph g {\n");
        for s in 0..4 {
            let parity = if s % 2 == 0 { "even" } else { "odd" };
            let zero = if s == 0 { "zero" } else { "nonzero" };
            let next = (s + 1) % 4;
            writeln!(text, "s{s} -> s{next} [label=\"a/x\"];").unwrap();
            writeln!(text, "s{s} -> s{s} [label=\"b/{parity}\"];").unwrap();
            writeln!(text, "s{s} -> s{s} [label=\"c/{zero}\"];").unwrap();
        }
        text += "__start0 -> s0;\n}\n";
        Mealy::from_dot(&text).unwrap()
    }

    #[test]
    fn an_ads_tells_a_node_apart_from_every_candidate_but_its_own_in_one_query() {
        let target = counter();
        let mut cache = Cache::new(Simulated::new(&target), target.input_names());
        let (count, parity, zero) = (Symbol::new(0), Symbol::new(1), Symbol::new(2));
        let mut nodes = Vec::new();
        for n in 0..4 {
            let access: Vec<Symbol> = std::iter::repeat_n(count, n).collect();
            for suffix in [&[parity, zero][..], &[zero]] {
                let mut word = access.clone();
                word.extend_from_slice(suffix);
                cache.ensure(&word).unwrap();
            }
            nodes.push(cache.ensure(&access).unwrap());
        }
        let ads = Ads::new(&cache, &nodes).expect("b and c tell the four apart");
        let before = cache.counts(Phase::Learning);
        let four = [count; 4];
        let end = cache.adaptive(&four, &ads).unwrap();
        assert_eq!(cache.counts(Phase::Learning).queries, before.queries + 1);
        // The run below `aaaa` answers as the initial state does and unlike the three others.
        let run = &cache.word(end)[4..];
        let outputs = |cache: &Cache<'_>, n: NodeId| -> Vec<OutputId> {
            let mut n = n;
            run.iter()
                .map(|&x| {
                    n = cache.child(n, x).unwrap();
                    cache.output(n)
                })
                .collect()
        };
        let mine = outputs(&cache, cache.walk(NodeId::ROOT, &four).unwrap());
        assert_eq!(mine, outputs(&cache, nodes[0]));
        for &other in &nodes[1..] {
            assert_ne!(mine, outputs(&cache, other));
        }
        // Asked again, the trie answers.
        cache.adaptive(&four, &ads).unwrap();
        assert_eq!(cache.counts(Phase::Learning).queries, before.queries + 1);
    }

    #[test]
    fn no_ads_where_the_tree_knows_nothing_apart() {
        let target = counter();
        let mut cache = Cache::new(Simulated::new(&target), target.input_names());
        let nodes = [
            NodeId::ROOT,
            cache.ensure(&[Symbol::new(0)]).unwrap(),
            cache.ensure(&[Symbol::new(0), Symbol::new(0)]).unwrap(),
        ];
        assert!(Ads::new(&cache, &nodes).is_none());
    }
}

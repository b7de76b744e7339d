//! The caching layer between the learners (and oracles) and a [`Sul`]: a trie of every word the
//! system has answered, with the output of every step. It answers any prefix of a word it has seen
//! without asking the system, counts the words, steps and resets that do reach the system (per
//! [`Phase`], so learning and testing are reported apart, as AALpy reports them), and checks each
//! new answer against what it knows: a system that answers one word two ways is reported as
//! [`MealyError::NonDeterministic`] naming the word, never learned.
//!
//! The trie is also L#'s observation tree: the learners read it directly (nodes, children,
//! outputs), so an answer is stored once. Each node also knows the length of the longest word
//! stored below it ([`Cache::height`]), which L#'s probes follow to compare a new node with a
//! candidate as far as the candidate is known.

use std::error::Error;
use std::fmt;

use rustc_hash::FxHashMap;

use crate::dfa::{Symbol, Word};
use crate::mealy::MealyError;
#[cfg(test)]
use crate::mealy::ads::Ads;
use crate::mealy::machine::{Mealy, OutputId, StateId};
use crate::mealy::sul::Sul;

/// Who is asking: the learner, or an equivalence oracle testing a hypothesis.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Phase {
    /// The learner's queries.
    #[default]
    Learning,
    /// An equivalence oracle's tests.
    Testing,
}

/// What reached the system in one [`Phase`], and what the cache answered itself.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Counts {
    /// Words sent to the system (each one reset plus its steps).
    pub queries: u64,
    /// Inputs the system processed.
    pub steps: u64,
    /// Resets of the system.
    pub resets: u64,
    /// Words answered from the cache without the system.
    pub cache_hits: u64,
}

impl fmt::Display for Counts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} queries, {} steps, {} resets, {} cache hits",
            self.queries, self.steps, self.resets, self.cache_hits
        )
    }
}

/// A node of the trie: the word spelled by the path from the root.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
pub(crate) struct NodeId(u32);

impl NodeId {
    pub(crate) const ROOT: NodeId = NodeId(0);

    pub(crate) const fn index(self) -> usize {
        self.0 as usize
    }
}

const NONE: u32 = u32::MAX;

#[derive(Clone, Copy, Debug)]
struct Node {
    /// The value of [`Cache::version`] when the node's subtree last grew.
    modified: u32,
    parent: u32,
    input: u32,
    output: u32,
    /// The length of the longest stored word below the node.
    height: u32,
    /// The only child while there is one (`NONE` before and once there are two or more).
    only: u32,
    /// The node's block of [`Cache::children`] once it has two or more children, else `NONE`.
    block: u32,
}

impl Node {
    fn new(modified: u32, parent: u32, input: u32, output: u32) -> Self {
        Self {
            modified,
            parent,
            input,
            output,
            height: 0,
            only: NONE,
            block: NONE,
        }
    }
}

/// An adaptive query's strategy ([`Cache::probe`]): it chooses each input after seeing the output
/// of the last one, and may be run twice (on the trie, then on the system if the trie does not
/// know the whole run), so it starts over at [`Probe::restart`].
pub(crate) trait Probe {
    /// Back to the first input.
    fn restart(&mut self);
    /// The next input, given the last input and its output (`None` at the start); `None` ends
    /// the query.
    fn next(&mut self, cache: &Cache<'_>, last: Option<(Symbol, OutputId)>) -> Option<Symbol>;
}

/// Runs an [`Ads`] as a [`Probe`] (the ADS tests' query).
#[cfg(test)]
struct AdsProbe<'a> {
    ads: &'a Ads,
    at: Option<usize>,
}

#[cfg(test)]
impl Probe for AdsProbe<'_> {
    fn restart(&mut self) {
        self.at = Some(Ads::ROOT);
    }

    fn next(&mut self, _: &Cache<'_>, last: Option<(Symbol, OutputId)>) -> Option<Symbol> {
        if let Some((_, o)) = last {
            self.at = self.at.and_then(|x| self.ads.after(x, o));
        }
        self.ads.input(self.at?)
    }
}

/// A [`Sul`] with its outputs interned to [`OutputId`]s, behind a trait object so the cache, the
/// learners and the oracles are not generic over the system.
trait Erased {
    fn query(
        &mut self,
        word: &[Symbol],
        out: &mut Vec<OutputId>,
    ) -> Result<(), Box<dyn Error + Send + Sync>>;
    fn reset(&mut self) -> Result<(), Box<dyn Error + Send + Sync>>;
    fn step(&mut self, a: Symbol) -> Result<OutputId, Box<dyn Error + Send + Sync>>;
    fn names(&self) -> &[String];
}

struct Interning<S: Sul> {
    sul: S,
    ids: FxHashMap<S::Output, OutputId>,
    /// `numbered[n]`: the id of the output the system numbers `n` ([`Sul::output_number`]).
    numbered: Vec<Option<OutputId>>,
    names: Vec<String>,
    buf: Vec<S::Output>,
}

impl<S: Sul> Interning<S> {
    /// The id of output `o`, giving it one if it is new.
    #[inline]
    fn intern(&mut self, o: S::Output) -> OutputId {
        let number = S::output_number(&o);
        if let Some(Some(id)) = number.and_then(|n| self.numbered.get(n)) {
            return *id;
        }
        self.intern_new(o, number)
    }

    /// [`Interning::intern`] for an output not in the table (yet).
    #[cold]
    fn intern_new(&mut self, o: S::Output, number: Option<usize>) -> OutputId {
        let next = OutputId::new(self.names.len());
        let id = *self.ids.entry(o).or_insert_with_key(|o| {
            self.names.push(o.to_string());
            next
        });
        if let Some(n) = number {
            if self.numbered.len() <= n {
                self.numbered.resize(n + 1, None);
            }
            self.numbered[n] = Some(id);
        }
        id
    }
}

impl<S: Sul> Erased for Interning<S> {
    fn query(
        &mut self,
        word: &[Symbol],
        out: &mut Vec<OutputId>,
    ) -> Result<(), Box<dyn Error + Send + Sync>> {
        let mut buf = std::mem::take(&mut self.buf);
        self.sul.query(word, &mut buf)?;
        out.clear();
        out.reserve(buf.len());
        // By reference, no draining: most of a simulated step's cost is this loop's.
        for o in &buf {
            let number = S::output_number(o);
            let id = match number.and_then(|n| self.numbered.get(n).copied().flatten()) {
                Some(id) => id,
                None => self.intern_new(o.clone(), number),
            };
            out.push(id);
        }
        buf.clear();
        self.buf = buf;
        Ok(())
    }

    fn reset(&mut self) -> Result<(), Box<dyn Error + Send + Sync>> {
        Ok(self.sul.reset()?)
    }

    fn step(&mut self, a: Symbol) -> Result<OutputId, Box<dyn Error + Send + Sync>> {
        let o = self.sul.step(a)?;
        Ok(self.intern(o))
    }

    fn names(&self) -> &[String] {
        &self.names
    }
}

/// The caching, counting, determinism-checking layer over a system under learning.
///
/// ```
/// use guarantor_lstar::mealy::{system, Cache};
/// use guarantor_lstar::word;
/// let sys = system(["a", "b"], || 0u32, |n: u32, i: &str| {
///     let n = n + u32::from(i == "a");
///     (n, n % 2)
/// });
/// let mut cache = Cache::new(sys, ["a", "b"]);
/// let out = cache.outputs(&word(&[0, 1, 0]))?;
/// assert_eq!(cache.output_name(out[2]), "0");
/// cache.outputs(&word(&[0, 1]))?; // a prefix: answered without the system
/// assert_eq!(cache.counts(Default::default()).queries, 1);
/// assert_eq!(cache.counts(Default::default()).cache_hits, 1);
/// # Ok::<(), guarantor_lstar::mealy::MealyError>(())
/// ```
pub struct Cache<'a> {
    sul: Box<dyn Erased + 'a>,
    inputs: Vec<String>,
    nodes: Vec<Node>,
    counts: [Counts; 2],
    phase: Phase,
    max_queries: Option<u64>,
    buf: Vec<OutputId>,
    /// Scratch for [`Cache::ensure`].
    path: Vec<NodeId>,
    /// Counts the answers stored; see [`Cache::modified`].
    version: u32,
    /// `children[block * k + input]`: the child, or `NONE`, of the node whose
    /// [`block`](Node::block) is `block`. Dense, one memory access per step of a walk, but only
    /// for the nodes with two or more children: most of the trie is the oracle's test words'
    /// tails, chains of one child each, which keep it in [`Node::only`]. One block per node (k
    /// slots) made a run's trie 2-3 times larger (OpenSSH: 170 MB), and filling fresh memory
    /// (page faults) a fifth of the run; sibling lists or a hash map were slower.
    children: Vec<u32>,
}

impl fmt::Debug for Cache<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Cache")
            .field("inputs", &self.inputs)
            .field("nodes", &self.nodes.len())
            .field("counts", &self.counts)
            .finish_non_exhaustive()
    }
}

impl<'a> Cache<'a> {
    /// A cache in front of `sul`, whose inputs are named `inputs` (symbol `i` is the `i`-th name).
    pub fn new<S, N, I>(sul: S, inputs: I) -> Self
    where
        S: Sul + 'a,
        N: AsRef<str>,
        I: IntoIterator<Item = N>,
    {
        let sul = Interning {
            sul,
            ids: FxHashMap::default(),
            numbered: Vec::new(),
            names: Vec::new(),
            buf: Vec::new(),
        };
        let inputs: Vec<String> = inputs.into_iter().map(|s| s.as_ref().to_owned()).collect();
        Self {
            sul: Box::new(sul),
            inputs,
            nodes: vec![Node::new(0, NONE, NONE, NONE)],
            counts: [Counts::default(); 2],
            phase: Phase::Learning,
            max_queries: None,
            buf: Vec::new(),
            path: Vec::new(),
            version: 0,
            children: Vec::new(),
        }
    }

    /// Limits the words the learner may send to the system (the [`Phase::Learning`] queries);
    /// one more is [`MealyError::QueryLimit`].
    pub fn set_max_queries(&mut self, limit: Option<u64>) {
        self.max_queries = limit;
    }

    /// From now on, counts go to `phase`.
    pub fn set_phase(&mut self, phase: Phase) {
        self.phase = phase;
    }

    /// What reached the system in `phase`.
    pub fn counts(&self, phase: Phase) -> Counts {
        self.counts[phase as usize]
    }

    /// The number of inputs.
    pub fn num_inputs(&self) -> usize {
        self.inputs.len()
    }

    /// The input names, in symbol order.
    pub fn input_names(&self) -> &[String] {
        &self.inputs
    }

    /// The names of the outputs met so far, in [`OutputId`] order.
    pub fn output_names(&self) -> &[String] {
        self.sul.names()
    }

    /// The name of an output met so far.
    ///
    /// # Panics
    /// Panics if `o` was not returned by this cache.
    pub fn output_name(&self, o: OutputId) -> &str {
        &self.sul.names()[o.index()]
    }

    /// The number of words (trie nodes, the empty word included) the cache knows.
    pub fn num_known(&self) -> usize {
        self.nodes.len()
    }

    /// The outputs of the system on `word`, from the cache if it knows the word (or a longer one),
    /// else from the system.
    ///
    /// # Errors
    /// [`MealyError::NonDeterministic`] when the system contradicts an earlier answer,
    /// [`MealyError::System`] when it fails, [`MealyError::QueryLimit`] past the budget.
    pub fn outputs(&mut self, word: &[Symbol]) -> Result<Vec<OutputId>, MealyError> {
        let node = self.ensure(word)?;
        Ok(self.path_outputs(node))
    }

    /// The position of the first input of `word` on which the system's output differs from
    /// `hyp`'s (asked through the cache); `None` if they agree on all of it, or if `hyp` cannot
    /// run `word`. What a learner makes of an equivalence query's counterexample starts here.
    ///
    /// # Errors
    /// As [`Cache::outputs`].
    pub(crate) fn first_disagreement(
        &mut self,
        hyp: &Mealy,
        word: &[Symbol],
    ) -> Result<Option<usize>, MealyError> {
        let out = self.outputs(word)?;
        let Some(expected) = hyp.outputs(word) else {
            return Ok(None);
        };
        Ok(out.iter().zip(&expected).position(|(x, y)| x != y))
    }

    /// The outputs on `word` if the cache knows them.
    pub fn known(&self, word: &[Symbol]) -> Option<Vec<OutputId>> {
        self.walk(NodeId::ROOT, word).map(|n| self.path_outputs(n))
    }

    /// The outputs along the path to `n`, root first.
    fn path_outputs(&self, mut n: NodeId) -> Vec<OutputId> {
        let mut out = Vec::new();
        while n != NodeId::ROOT {
            let node = self.nodes[n.index()];
            out.push(OutputId::new(node.output as usize));
            n = NodeId(node.parent);
        }
        out.reverse();
        out
    }

    /// Counts a word answered from the trie by a caller that walked it itself.
    pub(crate) fn count_hit(&mut self) {
        self.counts[self.phase as usize].cache_hits += 1;
    }

    /// The node of `word`, asking the system if the cache does not know it.
    pub(crate) fn ensure(&mut self, word: &[Symbol]) -> Result<NodeId, MealyError> {
        let mut path = std::mem::take(&mut self.path);
        let end = self.ensure_path(word, &mut path);
        self.path = path;
        end
    }

    /// As [`Cache::ensure`], writing into `path` the node of every non-empty prefix of `word`
    /// (shortest first): one walk down the trie whether the word is known or not.
    pub(crate) fn ensure_path(
        &mut self,
        word: &[Symbol],
        path: &mut Vec<NodeId>,
    ) -> Result<NodeId, MealyError> {
        path.clear();
        let mut n = NodeId::ROOT;
        for &a in word {
            match self.child(n, a) {
                Some(c) => {
                    path.push(c);
                    n = c;
                }
                None => return self.send(word, path),
            }
        }
        self.counts[self.phase as usize].cache_hits += 1;
        Ok(n)
    }

    /// Sends `word` to the system, counted as one query, one reset and its steps; the outputs
    /// come in the reused buffer (to be put back in `self.buf`).
    fn ask(&mut self, word: &[Symbol]) -> Result<Vec<OutputId>, MealyError> {
        self.check_budget()?;
        let c = &mut self.counts[self.phase as usize];
        c.queries += 1;
        c.resets += 1;
        c.steps += word.len() as u64;
        let mut out = std::mem::take(&mut self.buf);
        self.sul.query(word, &mut out).map_err(MealyError::System)?;
        if out.len() != word.len() {
            return Err(MealyError::System(
                format!("{} outputs for a word of {} inputs", out.len(), word.len()).into(),
            ));
        }
        Ok(out)
    }

    /// Sends `word` to the system and stores the answer; `path` holds the nodes of the prefixes
    /// the cache knows, and gets the rest.
    fn send(&mut self, word: &[Symbol], path: &mut Vec<NodeId>) -> Result<NodeId, MealyError> {
        let out = self.ask(word)?;
        // The known prefix must be answered as before.
        if let Some(i) = path
            .iter()
            .zip(&out)
            .position(|(&c, &o)| self.output(c) != o)
        {
            return Err(MealyError::NonDeterministic {
                word: word[..=i]
                    .iter()
                    .map(|a| self.inputs[a.index()].clone())
                    .collect(),
                first: self.output_name(self.output(path[i])).to_owned(),
                second: self.output_name(out[i]).to_owned(),
            });
        }
        self.version += 1;
        let mut n = path.last().copied().unwrap_or(NodeId::ROOT);
        for i in path.len()..word.len() {
            n = self.add_child(n, word[i], out[i]);
            path.push(n);
        }
        self.raise_heights(n);
        self.buf = out;
        Ok(n)
    }

    /// Sends `word` to the system when the trie knows its first `depth` inputs, ending at node
    /// `at`, and not the next one: what [`Cache::ensure`] does after its walk down, for a caller
    /// that walked there itself (the conformance suites compare their tests with the trie from
    /// the node of a shared prefix, and would otherwise walk each new test again from the root).
    /// The known prefix is checked against the answer going up from `at`. The system's outputs
    /// stay readable as [`Cache::last_outputs`] until the next query.
    pub(crate) fn send_from(
        &mut self,
        word: &[Symbol],
        at: NodeId,
        depth: usize,
    ) -> Result<NodeId, MealyError> {
        debug_assert!(depth < word.len() && self.child(at, word[depth]).is_none());
        let out = self.ask(word)?;
        // One walk up from `at`: each known output checked against the answer, each node
        // stamped as grown (see `Node::modified`) and its height raised to the new word's
        // length below it. A contradiction found half way leaves some nodes stamped: a stamp
        // only makes a later apartness check look again.
        self.version += 1;
        let len = word.len() as u32;
        let mut up = at;
        for i in (0..depth).rev() {
            let node = &mut self.nodes[up.index()];
            node.modified = self.version;
            node.height = node.height.max(len - i as u32 - 1);
            if node.output != out[i].index() as u32 {
                let first = OutputId::new(node.output as usize);
                let err = self.non_deterministic(&word[..=i], first, out[i]);
                self.buf = out;
                return Err(err);
            }
            up = NodeId(node.parent);
        }
        let root = &mut self.nodes[NodeId::ROOT.index()];
        root.modified = self.version;
        root.height = root.height.max(len);
        // The new part: a chain, each node the only child of the one before.
        let first = self.nodes.len();
        let mut n = at;
        for i in depth..word.len() {
            let id = NodeId(u32::try_from(self.nodes.len()).expect("fewer than 2^32 cached words"));
            let mut node = Node::new(
                self.version,
                n.0,
                word[i].index() as u32,
                out[i].index() as u32,
            );
            node.height = len - i as u32 - 1;
            self.nodes.push(node);
            if n.index() >= first {
                self.nodes[n.index()].only = id.0;
            } else {
                self.link(n, word[i], id);
            }
            n = id;
        }
        self.buf = out;
        Ok(n)
    }

    /// Makes room for `additional` more trie nodes, for a caller about to send many words (a
    /// conformance suite): the trie then grows once instead of doubling (and copying itself)
    /// several times on the way.
    pub(crate) fn reserve(&mut self, additional: usize) {
        self.nodes.reserve(additional);
    }

    /// The node `up` inputs above `n` (`n` at least that deep).
    pub(crate) fn ancestor(&self, mut n: NodeId, up: usize) -> NodeId {
        for _ in 0..up {
            n = NodeId(self.nodes[n.index()].parent);
        }
        n
    }

    /// The system's outputs on the word last sent by [`Cache::send_from`].
    pub(crate) fn last_outputs(&self) -> &[OutputId] {
        &self.buf
    }

    /// The error for a system that answered `word`'s last input with `second` where the trie
    /// has `first`.
    fn non_deterministic(&self, word: &[Symbol], first: OutputId, second: OutputId) -> MealyError {
        MealyError::NonDeterministic {
            word: word
                .iter()
                .map(|a| self.inputs[a.index()].clone())
                .collect(),
            first: self.output_name(first).to_owned(),
            second: self.output_name(second).to_owned(),
        }
    }

    /// An adaptive query: the node of `prefix`, then the inputs `ads` chooses by the outputs
    /// seen, until it has nothing more to ask (see [`Cache::probe`]). The node where the run
    /// ended.
    #[cfg(test)]
    pub(crate) fn adaptive(&mut self, prefix: &[Symbol], ads: &Ads) -> Result<NodeId, MealyError> {
        self.probe(
            prefix,
            &mut AdsProbe {
                ads,
                at: Some(Ads::ROOT),
            },
        )
    }

    /// An adaptive query: the node of `prefix`, then the inputs `probe` chooses by the outputs
    /// seen, until it ends. Answered from the trie when it knows the whole run (a cache hit),
    /// else sent to the system as one query (one reset, its steps), each output checked against
    /// what the trie knows. The node where the run ended.
    pub(crate) fn probe(
        &mut self,
        prefix: &[Symbol],
        probe: &mut dyn Probe,
    ) -> Result<NodeId, MealyError> {
        if let Some(mut n) = self.walk(NodeId::ROOT, prefix) {
            probe.restart();
            let mut last = None;
            let known = loop {
                let Some(a) = probe.next(self, last) else {
                    break true;
                };
                let Some(c) = self.child(n, a) else {
                    break false;
                };
                n = c;
                last = Some((a, self.output(c)));
            };
            if known {
                self.counts[self.phase as usize].cache_hits += 1;
                return Ok(n);
            }
        }
        self.check_budget()?;
        self.counts[self.phase as usize].queries += 1;
        self.counts[self.phase as usize].resets += 1;
        self.version += 1;
        self.sul.reset().map_err(MealyError::System)?;
        let mut n = NodeId::ROOT;
        let mut word: Word = Vec::with_capacity(prefix.len());
        for &a in prefix {
            n = self.system_step(n, a, &mut word)?;
        }
        probe.restart();
        let mut last = None;
        while let Some(a) = probe.next(self, last) {
            n = self.system_step(n, a, &mut word)?;
            last = Some((a, self.output(n)));
        }
        if self.height(n) == 0 {
            self.raise_heights(n);
        }
        Ok(n)
    }

    /// One input sent to the system from node `n` (whose word is `word`), its output checked
    /// against the trie's or stored; the node reached.
    fn system_step(&mut self, n: NodeId, a: Symbol, word: &mut Word) -> Result<NodeId, MealyError> {
        self.counts[self.phase as usize].steps += 1;
        word.push(a);
        let o = self.sul.step(a).map_err(MealyError::System)?;
        match self.child(n, a) {
            Some(c) if self.output(c) == o => Ok(c),
            Some(c) => Err(MealyError::NonDeterministic {
                word: word
                    .iter()
                    .map(|a| self.inputs[a.index()].clone())
                    .collect(),
                first: self.output_name(self.output(c)).to_owned(),
                second: self.output_name(o).to_owned(),
            }),
            None => Ok(self.add_child(n, a, o)),
        }
    }

    /// [`MealyError::QueryLimit`] if the learner may send no more words.
    fn check_budget(&self) -> Result<(), MealyError> {
        if self.phase == Phase::Learning
            && let Some(limit) = self.max_queries
            && self.counts[0].queries >= limit
        {
            return Err(MealyError::QueryLimit { limit });
        }
        Ok(())
    }

    fn add_child(&mut self, n: NodeId, a: Symbol, o: OutputId) -> NodeId {
        let id = u32::try_from(self.nodes.len()).expect("fewer than 2^32 cached words");
        self.nodes.push(Node::new(
            self.version,
            n.0,
            a.index() as u32,
            o.index() as u32,
        ));
        // Stamp the ancestors; those above one stamped in this query already are.
        let mut up = n.0;
        while up != NONE && self.nodes[up as usize].modified != self.version {
            self.nodes[up as usize].modified = self.version;
            up = self.nodes[up as usize].parent;
        }
        self.link(n, a, NodeId(id));
        NodeId(id)
    }

    /// Makes `c` the child of `n` on `a` (which had none).
    fn link(&mut self, n: NodeId, a: Symbol, c: NodeId) {
        let k = self.inputs.len();
        let parent = &mut self.nodes[n.index()];
        if parent.block != NONE {
            self.children[parent.block as usize * k + a.index()] = c.0;
        } else if parent.only == NONE {
            parent.only = c.0;
        } else {
            // The second child: the node gets a block, holding both.
            let first = parent.only;
            let block = u32::try_from(self.children.len() / k).expect("fewer than 2^32 blocks");
            parent.only = NONE;
            parent.block = block;
            let first_input = self.nodes[first as usize].input as usize;
            let at = self.children.len();
            self.children.extend(std::iter::repeat_n(NONE, k));
            self.children[at + first_input] = first;
            self.children[at + a.index()] = c.0;
        }
    }

    /// Raises the heights above the new leaf `n` (once per stored word, not per node: a new path
    /// of `l` nodes would otherwise be climbed `l` times); they stop growing where a longer word
    /// was stored before.
    fn raise_heights(&mut self, n: NodeId) {
        let (mut up, mut height) = (self.nodes[n.index()].parent, 1);
        while up != NONE && self.nodes[up as usize].height < height {
            self.nodes[up as usize].height = height;
            up = self.nodes[up as usize].parent;
            height += 1;
        }
    }

    /// The child of `n` on `a`, if known.
    #[inline]
    pub(crate) fn child(&self, n: NodeId, a: Symbol) -> Option<NodeId> {
        let node = &self.nodes[n.index()];
        let c = if node.block != NONE {
            self.children[node.block as usize * self.inputs.len() + a.index()]
        } else if node.only != NONE && self.nodes[node.only as usize].input == a.index() as u32 {
            node.only
        } else {
            NONE
        };
        (c != NONE).then_some(NodeId(c))
    }

    /// The child of `n` on `a` with its output, if known: [`Cache::child`] and
    /// [`Cache::output`] in one read of the child (the suites' walks take both at every step).
    #[inline]
    pub(crate) fn step(&self, n: NodeId, a: Symbol) -> Option<(NodeId, OutputId)> {
        let node = &self.nodes[n.index()];
        let c = if node.block == NONE {
            node.only
        } else {
            self.children[node.block as usize * self.inputs.len() + a.index()]
        };
        if c == NONE {
            return None;
        }
        let child = &self.nodes[c as usize];
        (child.input == a.index() as u32).then(|| (NodeId(c), OutputId::new(child.output as usize)))
    }

    /// The known children of `n` with their inputs, in input order.
    pub(crate) fn children(&self, n: NodeId) -> impl Iterator<Item = (Symbol, NodeId)> + '_ {
        let k = self.inputs.len();
        let node = &self.nodes[n.index()];
        let block: &[u32] = if node.block == NONE {
            &[]
        } else {
            &self.children[node.block as usize * k..(node.block as usize + 1) * k]
        };
        let only = (node.only != NONE).then(|| {
            let c = node.only;
            (
                Symbol::new(self.nodes[c as usize].input as usize),
                NodeId(c),
            )
        });
        block
            .iter()
            .enumerate()
            .filter(|&(_, &c)| c != NONE)
            .map(|(a, &c)| (Symbol::new(a), NodeId(c)))
            .chain(only)
    }

    /// Whether some word known below both `p` and `q` is answered differently at its last
    /// input, looking only at pairs of nodes one of which was stored (or grew) after version
    /// `since` (L#'s incremental apartness check, `lsharp::apart_since`). Here rather than
    /// in L# so that the walk reads the child slots directly: a node with one child is looked
    /// up in the other's block, two blocks are compared slot by slot. `stack` is scratch.
    pub(crate) fn apart_since(
        &self,
        p: NodeId,
        q: NodeId,
        since: u32,
        stack: &mut Vec<(NodeId, NodeId)>,
    ) -> bool {
        if p == q {
            return false;
        }
        let k = self.inputs.len();
        stack.clear();
        stack.push((p, q));
        while let Some((x, y)) = stack.pop() {
            let (nx, ny) = (self.nodes[x.index()], self.nodes[y.index()]);
            let pair = match (nx.block != NONE, ny.block != NONE) {
                (false, _) if nx.only == NONE => continue,
                (_, false) if ny.only == NONE => continue,
                (false, _) => {
                    let a = Symbol::new(self.nodes[nx.only as usize].input as usize);
                    self.child(y, a).map(|cy| (NodeId(nx.only), cy))
                }
                (true, false) => {
                    let a = Symbol::new(self.nodes[ny.only as usize].input as usize);
                    self.child(x, a).map(|cx| (cx, NodeId(ny.only)))
                }
                (true, true) => {
                    let bx = &self.children[nx.block as usize * k..][..k];
                    let by = &self.children[ny.block as usize * k..][..k];
                    for (&cx, &cy) in bx.iter().zip(by) {
                        if cx != NONE && cy != NONE && self.pair_apart(cx, cy, since, stack) {
                            return true;
                        }
                    }
                    None
                }
            };
            if let Some((cx, cy)) = pair
                && self.pair_apart(cx.0, cy.0, since, stack)
            {
                return true;
            }
        }
        false
    }

    /// One pair of children for [`Cache::apart_since`]: true if their outputs differ; else
    /// pushed to be searched below if one of them grew after `since`.
    #[inline]
    fn pair_apart(&self, cx: u32, cy: u32, since: u32, stack: &mut Vec<(NodeId, NodeId)>) -> bool {
        let (nx, ny) = (&self.nodes[cx as usize], &self.nodes[cy as usize]);
        if nx.modified <= since && ny.modified <= since {
            return false;
        }
        if nx.output != ny.output {
            return true;
        }
        stack.push((NodeId(cx), NodeId(cy)));
        false
    }

    /// The version (a count of stored answers) when `n`'s subtree last grew: a learner that
    /// compared two subtrees at version `v` need not compare them again while neither has grown.
    pub(crate) fn modified(&self, n: NodeId) -> u32 {
        self.nodes[n.index()].modified
    }

    /// The length of the longest word stored below `n`.
    pub(crate) fn height(&self, n: NodeId) -> u32 {
        self.nodes[n.index()].height
    }

    /// The current version (see [`Cache::modified`]).
    pub(crate) fn version(&self) -> u32 {
        self.version
    }

    /// The output of the last step of `n`'s word (`n` not the root).
    pub(crate) fn output(&self, n: NodeId) -> OutputId {
        OutputId::new(self.nodes[n.index()].output as usize)
    }

    /// The node of `n`'s word followed by `w`, if known.
    pub(crate) fn walk(&self, mut n: NodeId, w: &[Symbol]) -> Option<NodeId> {
        for &a in w {
            n = self.child(n, a)?;
        }
        Some(n)
    }

    /// A word the cache knows on which `hyp` emits a different output (the shortest prefix of
    /// it that differs), if any. Every answer the system gave is evidence, the oracle's tests
    /// included, so a hypothesis is checked against all of it before an equivalence query is
    /// spent on it. One pass over the nodes in the order they were stored (a parent before its
    /// children), each taking the hypothesis state of its parent one input further: sequential
    /// memory, no scan of empty child slots; the word found is the earliest stored.
    pub(crate) fn disagreement(&self, hyp: &Mealy) -> Option<Word> {
        let mut state: Vec<u32> = Vec::with_capacity(self.nodes.len());
        state.push(hyp.initial().index() as u32);
        for (i, node) in self.nodes.iter().enumerate().skip(1) {
            let q = StateId::new(state[node.parent as usize] as usize);
            match hyp.transition(q, Symbol::new(node.input as usize)) {
                Some((r, o)) if o.index() as u32 == node.output => state.push(r.index() as u32),
                _ => return Some(self.word(NodeId(i as u32))),
            }
        }
        None
    }

    /// For L#'s tours ([`super::tour`]): `None` if `hyp` contradicts a stored answer, else which
    /// words of two inputs the cache knows from a node in each hypothesis state:
    /// `tested[(q * k + a) * k + b]` for `k` inputs. One pass over the nodes in the order they
    /// were stored, as [`Cache::disagreement`].
    #[allow(clippy::many_single_char_names)] // k inputs; states p, q, g; output o
    pub(crate) fn known_pairs(&self, hyp: &Mealy) -> Option<Vec<bool>> {
        let k = self.inputs.len();
        let mut tested = vec![false; hyp.num_states() * k * k];
        let mut state: Vec<u32> = Vec::with_capacity(self.nodes.len());
        state.push(hyp.initial().index() as u32);
        for node in self.nodes.iter().skip(1) {
            let p = node.parent as usize;
            let q = StateId::new(state[p] as usize);
            match hyp.transition(q, Symbol::new(node.input as usize)) {
                Some((r, o)) if o.index() as u32 == node.output => state.push(r.index() as u32),
                _ => return None,
            }
            if p != NodeId::ROOT.index() {
                let parent = &self.nodes[p];
                let g = state[parent.parent as usize] as usize;
                tested[(g * k + parent.input as usize) * k + node.input as usize] = true;
            }
        }
        Some(tested)
    }

    /// The word of node `n`.
    pub(crate) fn word(&self, mut n: NodeId) -> Word {
        let mut w = Vec::new();
        while n != NodeId::ROOT {
            let node = self.nodes[n.index()];
            w.push(Symbol::new(node.input as usize));
            n = NodeId(node.parent);
        }
        w.reverse();
        w
    }
}

//! [`embed`]: an observed word embedded in a graph of moves, the hidden steps in between filled
//! in: one shortest fill-in, breadth-first, within a [`Budget`].
//!
//! A counterexample is found on an abstraction (a reduced part, a component's projection, a
//! quotient) and must be told as a run of the concrete system: the abstraction's word stays, and
//! between its letters the concrete system may take steps the abstraction hid (tau, hidden
//! actions, another component's private actions). Each method used to search for such a run
//! itself; this one search serves them all. Nodes are the caller's (a state, a product tuple);
//! the search runs over pairs (node, letters matched so far), remembers each pair once, and
//! keeps for each the pair and move it was first reached by, so the run it returns has the
//! fewest moves. With an empty word it is a shortest path to a node `end` accepts.

use std::collections::VecDeque;
use std::hash::Hash;

use rustc_hash::FxHashSet;

use crate::config::Budget;
use crate::error::ComposeError;

/// What a move of an [`embed`] search does with the word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Fill {
    /// It is the word's next letter: the search moves on in the word.
    Letter,
    /// It is a hidden step filled in between letters.
    Hidden,
}

/// A pair the search reached: the node, how many letters were matched, and the pair and move it
/// was first reached by (none for the start).
struct Reached<N, L> {
    node: N,
    matched: usize,
    from: Option<(usize, L)>,
}

/// A run from `start` that reads a word of `len` letters and ends in a node `end` accepts, with
/// the fewest moves, as the moves' labels and the nodes they lead to; `Ok(None)` if there is
/// none.
///
/// `moves(node, matched, out)` pushes the moves from `node` when `matched` letters of the word
/// are read: a [`Fill::Letter`] move must be the word's letter `matched` (so none when `matched`
/// is `len`), a [`Fill::Hidden`] one anything the word does not see. Each pair (node, letters
/// read) is expanded once, in breadth-first order, and its moves in the order `moves` gives them;
/// the first pair found with the whole word read and `end` accepting ends the search.
///
/// ```
/// use guarantor_compose::Config;
/// use guarantor_compose::replay::{embed, Fill};
/// // 0 -a-> 1 -h-> 2 -b-> 3, and 1 -b-> 0: the word "a b" with `h` hidden.
/// let edges = [(0, "a", 1), (1, "h", 2), (2, "b", 3), (1, "c", 0)];
/// let word = ["a", "b"];
/// let config = Config::default();
/// let run = embed(
///     0,
///     word.len(),
///     |&s, read, out| {
///         for &(from, label, to) in &edges {
///             if from != s {
///                 continue;
///             }
///             if label == "h" {
///                 out.push((Fill::Hidden, label, to));
///             } else if word.get(read) == Some(&label) {
///                 out.push((Fill::Letter, label, to));
///             }
///         }
///     },
///     |_| true,
///     &mut config.budget()?,
/// )?;
/// assert_eq!(run, Some(vec![("a", 1), ("h", 2), ("b", 3)]));
/// # Ok::<(), guarantor_compose::ComposeError>(())
/// ```
///
/// # Errors
/// The budget's: [`ComposeError::StateLimit`] when the pairs remembered exceed its state limit,
/// the deadline, cancellation.
pub fn embed<N, L>(
    start: N,
    len: usize,
    mut moves: impl FnMut(&N, usize, &mut Vec<(Fill, L, N)>),
    mut end: impl FnMut(&N) -> bool,
    budget: &mut Budget<'_>,
) -> Result<Option<Vec<(L, N)>>, ComposeError>
where
    N: Clone + Eq + Hash,
    L: Clone,
{
    if len == 0 && end(&start) {
        return Ok(Some(Vec::new()));
    }
    let mut seen: FxHashSet<(N, usize)> = FxHashSet::default();
    seen.insert((start.clone(), 0));
    let mut reached = vec![Reached {
        node: start,
        matched: 0,
        from: None,
    }];
    let mut queue = VecDeque::from([0usize]);
    let mut out = Vec::new();
    while let Some(at) = queue.pop_front() {
        budget.tick()?;
        out.clear();
        let matched = reached[at].matched;
        moves(&reached[at].node, matched, &mut out);
        for (fill, label, node) in out.drain(..) {
            let read = match fill {
                Fill::Letter if matched < len => matched + 1,
                Fill::Letter => continue, // no letter left to read
                Fill::Hidden => matched,
            };
            if !seen.insert((node.clone(), read)) {
                continue;
            }
            let goal = read == len && end(&node);
            reached.push(Reached {
                node,
                matched: read,
                from: Some((at, label)),
            });
            if goal {
                return Ok(Some(run_to(reached)));
            }
            queue.push_back(reached.len() - 1);
        }
        budget.check_states(reached.len())?;
    }
    Ok(None)
}

/// The moves from the start to the last pair reached, in order.
fn run_to<N: Clone, L>(mut reached: Vec<Reached<N, L>>) -> Vec<(L, N)> {
    let mut run = Vec::new();
    let mut at = reached.len() - 1;
    while let Some((from, label)) = reached[at].from.take() {
        run.push((label, reached[at].node.clone()));
        at = from;
    }
    run.reverse();
    run
}

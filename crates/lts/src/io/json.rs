//! JSON I/O and the serde implementations of [`Lts`] (feature `serde`).
//!
//! Unlike `.aut`, the JSON shape keeps everything an [`Lts`] carries: the declared alphabet
//! (including actions offered nowhere), the error state and the accepting states.
//!
//! ```json
//! {
//!   "alphabet": ["send", "ack"],
//!   "initial": 0,
//!   "states": 3,
//!   "error": 2,
//!   "accepting": null,
//!   "transitions": [[0, "send", 1], [1, "tau", 0], [1, "ack", 2]]
//! }
//! ```
//!
//! - `alphabet`: the visible actions, in id order (tau excluded; `"tau"` and duplicates are errors).
//! - `initial`, `states`: the initial state and the number of states (states are `0..states`).
//! - `error`: the error state or `null`.
//! - `accepting`: the accepting states of a finite-state machine, or `null` for "every state accepts".
//! - `transitions`: `[source, label, target]` triples; a label is `"tau"` or a name of `alphabet`.
//!
//! Reading validates like the `.aut` reader: labels must be declared, states must be in range, and
//! `states` is limited (by default to [`DEFAULT_MAX_STATES`]) so that a tiny document cannot ask for
//! gigabytes. [`Lts`] implements [`serde::Serialize`] and [`serde::Deserialize`] with this shape, so it
//! can be embedded in other serde documents; [`to_json`] and [`from_json`] are the direct entry points.
//!
//! ```
//! use guarantor_lts::io::json::{from_json, to_json};
//! let text = r#"{"alphabet":["a","unused"],"initial":0,"states":2,"error":null,
//!                "accepting":null,"transitions":[[0,"a",1],[1,"tau",0]]}"#;
//! let lts = from_json(text)?;
//! assert_eq!(lts.alphabet().len(), 2); // "unused" is declared but offered nowhere
//! assert_eq!(from_json(&to_json(&lts))?, lts);
//! # Ok::<(), guarantor_lts::io::json::JsonError>(())
//! ```

use serde::ser::SerializeStruct;
use serde::{Deserialize, Serialize};

use crate::alphabet::{Alphabet, TAU_NAME};
use crate::builder::LtsBuilder;
use crate::error::LtsError;
use crate::id::{ActionId, StateId};
use crate::lts::Lts;

/// The largest `states` that [`from_json`] and the [`Deserialize`] impl accept.
pub const DEFAULT_MAX_STATES: usize = 1 << 26;

/// What can go wrong reading an LTS from JSON.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum JsonError {
    /// The text is not JSON of the expected shape (the message of `serde_json` has line and column).
    #[error("invalid JSON: {0}")]
    Syntax(#[from] serde_json::Error),
    /// An action is listed twice in `alphabet`, or `"tau"` is listed.
    #[error("alphabet entry {index} ({name:?}) is a duplicate or the reserved name \"tau\"")]
    BadAlphabetEntry {
        /// Its position in `alphabet`.
        index: usize,
        /// The name.
        name: String,
    },
    /// A transition's label is neither `"tau"` nor in `alphabet`.
    #[error("transition {index} has label {label:?}, which is not in the alphabet")]
    UnknownLabel {
        /// The position of the transition in `transitions`.
        index: usize,
        /// The label.
        label: String,
    },
    /// A state number is not below `states`.
    #[error("{field} names state {state}, but there are {states} states")]
    StateOutOfRange {
        /// Where the number occurs (`"initial"`, `"error"`, `"accepting"`, `"transitions[3]"`).
        field: String,
        /// The number.
        state: u64,
        /// The declared number of states.
        states: usize,
    },
    /// `states` is zero or above the limit.
    #[error("\"states\" is {states}; it must be between 1 and {limit}")]
    StateCount {
        /// The declared number.
        states: u64,
        /// The limit.
        limit: usize,
    },
    /// Building the LTS failed (too many actions for 32-bit ids, say).
    #[error(transparent)]
    Lts(#[from] LtsError),
}

/// Writes `lts` as pretty-printed JSON in the documented shape.
pub fn to_json(lts: &Lts) -> String {
    // Serializing this shape cannot fail: every key is a string and every value is plain data.
    serde_json::to_string_pretty(lts).unwrap_or_default()
}

/// Reads an LTS from JSON in the documented shape, with the default state limit.
///
/// # Errors
/// [`JsonError::Syntax`] for malformed JSON or a wrong shape (unknown fields are errors); the other
/// variants for a document that does not describe a valid LTS.
pub fn from_json(text: &str) -> Result<Lts, JsonError> {
    from_json_with_limit(text, DEFAULT_MAX_STATES)
}

/// Reads an LTS from JSON, accepting at most `max_states` states.
///
/// # Errors
/// As [`from_json`].
pub fn from_json_with_limit(text: &str, max_states: usize) -> Result<Lts, JsonError> {
    let data: LtsData = serde_json::from_str(text)?;
    data.into_lts(max_states)
}

/// The deserialized shape, before validation.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LtsData {
    alphabet: Vec<String>,
    initial: u64,
    states: u64,
    error: Option<u64>,
    accepting: Option<Vec<u64>>,
    transitions: Vec<(u64, String, u64)>,
}

impl LtsData {
    fn into_lts(self, max_states: usize) -> Result<Lts, JsonError> {
        let states = usize::try_from(self.states)
            .ok()
            .filter(|&n| n >= 1 && n <= max_states && n < StateId::LIMIT)
            .ok_or(JsonError::StateCount {
                states: self.states,
                limit: max_states,
            })?;
        let mut b = LtsBuilder::with_alphabet(alphabet(&self.alphabet)?);
        b.ensure_states(states)?;
        let state = |field: &dyn Fn() -> String, n: u64| {
            usize::try_from(n)
                .ok()
                .filter(|&i| i < states)
                .map(StateId::must)
                .ok_or_else(|| JsonError::StateOutOfRange {
                    field: field(),
                    state: n,
                    states,
                })
        };
        b.set_initial(state(&|| "initial".to_owned(), self.initial)?)?;
        if let Some(e) = self.error {
            b.set_error(state(&|| "error".to_owned(), e)?)?;
        }
        for (i, &s) in self.accepting.iter().flatten().enumerate() {
            b.set_accepting(state(&|| format!("accepting[{i}]"), s)?, true)?;
        }
        if self.accepting.as_ref().is_some_and(Vec::is_empty) {
            // An empty list still makes an FSM (one that accepts nothing): mark and unmark a state.
            b.set_accepting(StateId::must(0), false)?;
        }
        for (i, (src, label, dst)) in self.transitions.iter().enumerate() {
            let field = || format!("transitions[{i}]");
            let a = b
                .alphabet()
                .get(label)
                .ok_or_else(|| JsonError::UnknownLabel {
                    index: i,
                    label: label.clone(),
                })?;
            b.add_transition(state(&field, *src)?, a, state(&field, *dst)?)?;
        }
        Ok(b.build()?)
    }
}

/// The alphabet of `names`, rejecting duplicates and `"tau"`.
fn alphabet(names: &[String]) -> Result<Alphabet, JsonError> {
    let mut sigma = Alphabet::new();
    for (index, name) in names.iter().enumerate() {
        if name == TAU_NAME || sigma.get(name).is_some() {
            return Err(JsonError::BadAlphabetEntry {
                index,
                name: name.clone(),
            });
        }
        sigma.intern(name).map_err(LtsError::from)?;
    }
    Ok(sigma)
}

impl Serialize for Lts {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("Lts", 6)?;
        let names: Vec<&str> = self.alphabet().iter().map(|(_, n)| n).collect();
        st.serialize_field("alphabet", &names)?;
        st.serialize_field("initial", &self.initial())?;
        st.serialize_field("states", &self.num_states())?;
        st.serialize_field("error", &self.error_state())?;
        let accepting: Option<Vec<usize>> = self.accepting_set().map(|set| set.iter().collect());
        st.serialize_field("accepting", &accepting)?;
        st.serialize_field("transitions", &Transitions(self))?;
        st.end()
    }
}

/// Serializes the transitions of an LTS as `[source, label, target]` triples without collecting them.
struct Transitions<'a>(&'a Lts);

impl Serialize for Transitions<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let lts = self.0;
        s.collect_seq(
            lts.transitions()
                .map(|t| (t.source, label(lts, t.action), t.target)),
        )
    }
}

fn label(lts: &Lts, a: ActionId) -> &str {
    if a.is_tau() {
        TAU_NAME
    } else {
        lts.action_name(a)
    }
}

impl<'de> Deserialize<'de> for Lts {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        LtsData::deserialize(d)?
            .into_lts(DEFAULT_MAX_STATES)
            .map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn everything_survives_a_round_trip() {
        let mut b = LtsBuilder::new();
        b.ensure_states(3).unwrap();
        b.action("never").unwrap();
        b.add_transition_named(StateId::must(0), "a", StateId::must(2))
            .unwrap();
        b.add_transition(StateId::must(1), ActionId::TAU, StateId::must(0))
            .unwrap();
        b.set_error(StateId::must(2)).unwrap();
        b.set_accepting(StateId::must(1), true).unwrap();
        b.set_initial(StateId::must(1)).unwrap();
        let lts = b.build().unwrap();
        let back = from_json(&to_json(&lts)).unwrap();
        assert_eq!(back, lts);
        assert_eq!(back.accepting_set(), lts.accepting_set());
    }

    #[test]
    fn validation_errors_are_typed() {
        let doc = |body: &str| {
            format!(
                r#"{{"alphabet":["a"],"initial":0,"states":2,"error":null,"accepting":null,{body}}}"#
            )
        };
        let e = from_json(&doc(r#""transitions":[[0,"b",1]]"#)).unwrap_err();
        assert!(matches!(e, JsonError::UnknownLabel { index: 0, .. }), "{e}");
        let e = from_json(&doc(r#""transitions":[[0,"a",2]]"#)).unwrap_err();
        assert!(
            matches!(
                e,
                JsonError::StateOutOfRange {
                    state: 2,
                    states: 2,
                    ..
                }
            ),
            "{e}"
        );
        let e = from_json(&doc(r#""transitions":[], "extra": 1"#)).unwrap_err();
        assert!(matches!(e, JsonError::Syntax(_)), "{e}");
    }

    #[test]
    fn huge_state_counts_are_refused() {
        let text = r#"{"alphabet":[],"initial":0,"states":4000000000,"error":null,"accepting":null,"transitions":[]}"#;
        assert!(matches!(
            from_json(text).unwrap_err(),
            JsonError::StateCount { .. }
        ));
    }
}

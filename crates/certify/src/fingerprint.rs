//! Fingerprints: a stable 64-bit FNV-1a hash of an LTS's canonical form, and of a whole model.
//!
//! The canonical form of an LTS is a byte string (docs/formats.md, "Fingerprints", is the
//! normative text, so that other tools can compute the same values):
//!
//! 1. Only the states reachable from the initial state count. They are renumbered breadth first
//!    from the initial state (number 0): a state's outgoing transitions are visited sorted by
//!    action name (bytewise; the internal action is named `tau`) and then by the target's original
//!    number, and each target not yet numbered gets the next number.
//! 2. The form is, with every string written as `<byte length>:<bytes>`:
//!    ```text
//!    guarantor-lts-v1\n
//!    alphabet <n>\n            then one line per visible action, sorted bytewise: <len>:<name>\n
//!    states <m>\n              (reachable states)
//!    error <k>\n               (the error state's canonical number, or `-` if none is reachable)
//!    transitions <t>\n         then one line per transition, sorted by (source, action name, target):
//!    <source> <len>:<action> <target>\n
//!    ```
//! 3. The fingerprint is FNV-1a 64 (offset basis `0xcbf29ce484222325`, prime `0x100000001b3`) of
//!    that string, written as 16 lowercase hex digits.
//!
//! The model's fingerprint hashes `guarantor-model-v1\n` followed by one line per component,
//! `component <len>:<name> <fingerprint>\n`, sorted by name, then one per property,
//! `property <len>:<name> <fingerprint>\n`, sorted by name.
//!
//! Accepting sets are not part of the form (components and properties are plain LTSs). The form is
//! canonical up to isomorphism for deterministic LTSs; for nondeterministic ones, ties between
//! targets of one action are broken by the original numbering, so the fingerprint identifies the
//! LTS as written, which is what a certificate needs.

use std::collections::VecDeque;
use std::fmt::Write as _;

use guarantor_lts::{Lts, StateId};

use crate::format::{ModelPrint, Named};

/// FNV-1a, 64 bits.
#[derive(Clone, Copy, Debug)]
pub struct Fnv1a(u64);

impl Default for Fnv1a {
    fn default() -> Self {
        Self::new()
    }
}

impl Fnv1a {
    /// The hash of the empty string.
    pub fn new() -> Self {
        Self(0xcbf2_9ce4_8422_2325)
    }

    /// Feeds bytes.
    pub fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }

    /// The hash so far.
    pub fn finish(self) -> u64 {
        self.0
    }

    /// The hash so far as 16 lowercase hex digits.
    pub fn hex(self) -> String {
        format!("{:016x}", self.0)
    }
}

/// Appends `<byte length>:<bytes>`.
fn string(out: &mut String, s: &str) {
    let _ = write!(out, "{}:{s}", s.len());
}

/// The canonical form of `lts` (see the module docs).
pub fn canonical_form(lts: &Lts) -> String {
    let mut number: Vec<Option<usize>> = vec![None; lts.num_states()];
    let mut order: Vec<StateId> = Vec::new();
    let mut queue = VecDeque::new();
    number[lts.initial().index()] = Some(0);
    order.push(lts.initial());
    queue.push_back(lts.initial());
    // Transitions in canonical numbering, collected while numbering.
    let mut transitions: Vec<(usize, &str, usize)> = Vec::new();
    while let Some(s) = queue.pop_front() {
        let mut out: Vec<(&str, StateId)> = lts
            .outgoing(s)
            .iter()
            .map(|e| (lts.action_name(e.action), e.target))
            .collect();
        out.sort_unstable();
        let src = number[s.index()].unwrap_or(0);
        for (action, target) in out {
            let t = match number[target.index()] {
                Some(t) => t,
                None => {
                    let t = order.len();
                    number[target.index()] = Some(t);
                    order.push(target);
                    queue.push_back(target);
                    t
                }
            };
            transitions.push((src, action, t));
        }
    }
    transitions.sort_unstable();
    let mut names: Vec<&str> = lts
        .alphabet()
        .visible()
        .map(|a| lts.action_name(a))
        .collect();
    names.sort_unstable();
    let mut out = String::from("guarantor-lts-v1\n");
    let _ = writeln!(out, "alphabet {}", names.len());
    for n in names {
        string(&mut out, n);
        out.push('\n');
    }
    let _ = writeln!(out, "states {}", order.len());
    match lts.error_state().and_then(|e| number[e.index()]) {
        Some(e) => {
            let _ = writeln!(out, "error {e}");
        }
        None => out.push_str("error -\n"),
    }
    let _ = writeln!(out, "transitions {}", transitions.len());
    for (s, a, t) in transitions {
        let _ = write!(out, "{s} ");
        string(&mut out, a);
        let _ = writeln!(out, " {t}");
    }
    out
}

/// The fingerprint of `lts`: FNV-1a 64 of its canonical form, as 16 hex digits.
pub fn fingerprint(lts: &Lts) -> String {
    let mut h = Fnv1a::new();
    h.write(canonical_form(lts).as_bytes());
    h.hex()
}

/// The fingerprint of a model from the fingerprints of its parts (see the module docs).
pub fn model_fingerprint(print: &ModelPrint) -> String {
    let mut lines = String::from("guarantor-model-v1\n");
    for (tag, list) in [
        ("component", &print.components),
        ("property", &print.properties),
    ] {
        let mut sorted: Vec<&Named> = list.iter().collect();
        sorted.sort_by(|a, b| a.name.cmp(&b.name));
        for n in sorted {
            let _ = write!(lines, "{tag} ");
            string(&mut lines, &n.name);
            let _ = writeln!(lines, " {}", n.fingerprint);
        }
    }
    let mut h = Fnv1a::new();
    h.write(lines.as_bytes());
    h.hex()
}

/// The fingerprints of a model's components and properties, in its order, and of the whole model:
/// what a producer writes into `"model"` and `"fingerprint"`.
pub fn model_print(model: &crate::Model) -> (String, ModelPrint) {
    let print = ModelPrint::new(
        model
            .components()
            .iter()
            .map(|c| Named::new(c.name.clone(), fingerprint(&c.lts)))
            .collect(),
        model
            .properties()
            .iter()
            .map(|p| Named::new(p.name.clone(), fingerprint(&p.lts)))
            .collect(),
    );
    (model_fingerprint(&print), print)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a_known_values() {
        // Published FNV-1a 64 test vectors.
        let h = |s: &str| {
            let mut f = Fnv1a::new();
            f.write(s.as_bytes());
            f.finish()
        };
        assert_eq!(h(""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(h("a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(h("foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn canonical_form_renumbers_and_drops_unreachable_states() {
        // 2 -b-> 0 -a-> 2, state 1 unreachable, initial 2.
        let mut b = guarantor_lts::LtsBuilder::new();
        b.ensure_states(3).unwrap();
        b.add_transition_named(StateId::must(2), "b", StateId::must(0))
            .unwrap();
        b.add_transition_named(StateId::must(0), "a", StateId::must(2))
            .unwrap();
        b.add_transition_named(StateId::must(1), "c", StateId::must(1))
            .unwrap();
        b.set_initial(StateId::must(2)).unwrap();
        let lts = b.build().unwrap();
        assert_eq!(
            canonical_form(&lts),
            "guarantor-lts-v1\nalphabet 3\n1:a\n1:b\n1:c\nstates 2\nerror -\n\
             transitions 2\n0 1:b 1\n1 1:a 0\n"
        );
        let same = Lts::from_edges([(0, "b", 1), (1, "a", 0), (1, "c", 2)]).unwrap();
        // Same reachable shape but `c` is reachable here: different.
        assert_ne!(fingerprint(&lts), fingerprint(&same));
        let iso = Lts::from_edges([(0, "b", 1), (1, "a", 0)]).unwrap();
        let mut b = iso.to_builder();
        b.action("c").unwrap();
        assert_eq!(fingerprint(&lts), fingerprint(&b.build().unwrap()));
    }
}

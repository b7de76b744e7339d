//! The sliding window protocol of the paper's section 7, built as LTSs in code.
//!
//! Three message colours (`red`, `white`, `blue`), a window of two, sequence numbers modulo four
//! (go-back-N), an unreliable network. The paper's Promela model is not published, so this is our
//! reading of its description:
//!
//! - **Sender** (`M`), state `(base, buffer)`: `base` is the oldest unacknowledged sequence
//!   number, `buffer` the unacknowledged messages (at most two). `in_c` reads a message of colour
//!   `c` when the buffer has room; `send_s_c` (re)transmits buffered message number `s` at any
//!   time; `ack_e` (cumulative: "I expect `e` next") slides the window when `e` acknowledges one or
//!   two buffered messages and is ignored otherwise.
//! - **Receiver** (`N`), state `(expected, pending)`: `expected` is the next sequence number it
//!   accepts, `pending` the accepted messages not yet delivered (at most two). On `send_s_c` it may
//!   accept the message (if `s == expected` and there is room) or drop it — the nondeterministic
//!   drop is the network losing it, and also covers duplicates. `out_c` delivers the oldest pending
//!   message; `ack_e` (for `e == expected`) may be sent at any time, and not sending it is a lost
//!   acknowledgment.
//!
//! Properties (white is the colour that must not be invented): **A** no `out_white` before
//! `in_white`; **B** no `send_s_white` before `in_white`; **C** no `out_white` before some
//! `send_s_white`; **D** no `out_c` at all (false: the protocol delivers).

#![allow(dead_code)]

use guarantor_lts::{Lts, LtsBuilder, StateId};

/// The message colours.
pub(crate) const COLOURS: [&str; 3] = ["red", "white", "blue"];
/// Sequence numbers are taken modulo this.
pub(crate) const SEQ: usize = 4;
/// The window size.
pub(crate) const WINDOW: usize = 2;

/// All buffers of at most `WINDOW` colours (colour indices), shortest first.
fn buffers() -> Vec<Vec<usize>> {
    let mut all = vec![vec![]];
    let mut layer = vec![vec![]];
    for _ in 0..WINDOW {
        let next: Vec<Vec<usize>> = layer
            .iter()
            .flat_map(|b: &Vec<usize>| {
                (0..COLOURS.len()).map(move |c| {
                    let mut b = b.clone();
                    b.push(c);
                    b
                })
            })
            .collect();
        all.extend(next.iter().cloned());
        layer = next;
    }
    all
}

/// A builder over the states `(seq, buffer)`, numbered `seq * buffers + index(buffer)`.
struct Space {
    buffers: Vec<Vec<usize>>,
    b: LtsBuilder,
}

impl Space {
    fn new() -> Self {
        let buffers = buffers();
        let mut b = LtsBuilder::new();
        b.ensure_states(SEQ * buffers.len()).unwrap();
        Self { buffers, b }
    }

    fn id(&self, seq: usize, buffer: &[usize]) -> StateId {
        let i = self.buffers.iter().position(|x| x == buffer).unwrap();
        StateId::must(seq * self.buffers.len() + i)
    }

    fn edge(&mut self, from: StateId, action: &str, to: StateId) {
        self.b.add_transition_named(from, action, to).unwrap();
    }
}

/// The sender.
pub(crate) fn sender() -> Lts {
    let mut sp = Space::new();
    for base in 0..SEQ {
        for buf in sp.buffers.clone() {
            let here = sp.id(base, &buf);
            if buf.len() < WINDOW {
                for (c, name) in COLOURS.iter().enumerate() {
                    let mut more = buf.clone();
                    more.push(c);
                    let to = sp.id(base, &more);
                    sp.edge(here, &format!("in_{name}"), to);
                }
            }
            for (k, &c) in buf.iter().enumerate() {
                sp.edge(
                    here,
                    &format!("send_{}_{}", (base + k) % SEQ, COLOURS[c]),
                    here,
                );
            }
            for e in 0..SEQ {
                let k = (e + SEQ - base) % SEQ;
                let to = if (1..=buf.len()).contains(&k) {
                    sp.id(e, &buf[k..])
                } else {
                    here
                };
                sp.edge(here, &format!("ack_{e}"), to);
            }
        }
    }
    sp.b.build().unwrap()
}

/// The receiver.
pub(crate) fn receiver() -> Lts {
    let mut sp = Space::new();
    for exp in 0..SEQ {
        for buf in sp.buffers.clone() {
            let here = sp.id(exp, &buf);
            for s in 0..SEQ {
                for (c, name) in COLOURS.iter().enumerate() {
                    let action = format!("send_{s}_{name}");
                    sp.edge(here, &action, here); // lost, or a duplicate
                    if s == exp && buf.len() < WINDOW {
                        let mut more = buf.clone();
                        more.push(c);
                        let to = sp.id((exp + 1) % SEQ, &more);
                        sp.edge(here, &action, to);
                    }
                }
            }
            if let Some((&c, rest)) = buf.split_first() {
                let to = sp.id(exp, rest);
                sp.edge(here, &format!("out_{}", COLOURS[c]), to);
            }
            sp.edge(here, &format!("ack_{exp}"), here);
        }
    }
    for e in 0..SEQ {
        sp.b.action(&format!("ack_{e}")).unwrap();
    }
    sp.b.build().unwrap()
}

/// A two-state property: `trigger` actions move from 0 to 1 (where everything is allowed);
/// `forbidden` actions are allowed only in state 1.
fn before(trigger: &[String], forbidden: &[String]) -> Lts {
    let mut b = LtsBuilder::new();
    b.ensure_states(2).unwrap();
    let (s0, s1) = (StateId::must(0), StateId::must(1));
    for t in trigger {
        b.add_transition_named(s0, t, s1).unwrap();
        b.add_transition_named(s1, t, s1).unwrap();
    }
    for f in forbidden {
        b.add_transition_named(s1, f, s1).unwrap();
    }
    b.build().unwrap()
}

fn white_sends() -> Vec<String> {
    (0..SEQ).map(|s| format!("send_{s}_white")).collect()
}

/// Property A: the protocol does not invent white messages.
pub(crate) fn property_a() -> Lts {
    before(&["in_white".into()], &["out_white".into()])
}

/// Property B: the sender does not invent white messages.
pub(crate) fn property_b() -> Lts {
    before(&["in_white".into()], &white_sends())
}

/// Property C: the receiver does not invent white messages.
pub(crate) fn property_c() -> Lts {
    before(&white_sends(), &["out_white".into()])
}

/// Property D: the receiver never outputs (violated).
pub(crate) fn property_d() -> Lts {
    let mut b = LtsBuilder::new();
    b.add_state().unwrap();
    for c in COLOURS {
        b.action(&format!("out_{c}")).unwrap();
    }
    b.build().unwrap()
}

/// The four properties with their names and whether they hold.
pub(crate) fn properties() -> Vec<(&'static str, Lts, bool)> {
    vec![
        ("A", property_a(), true),
        ("B", property_b(), true),
        ("C", property_c(), true),
        ("D", property_d(), false),
    ]
}

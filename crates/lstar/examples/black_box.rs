//! Learning a black box in a few lines: a membership function over action names, an equivalence
//! oracle, and the learner. The system here is a closure; in practice it runs a program, drives a
//! device or calls a service. `cargo run -p guarantor-lstar --example black_box`
//!
//! Both functions are `pub(crate)` so that tests/oracle.rs can compile this file in and check
//! that the learned DFA is the system's language.

use guarantor_lstar::oracle::WpMethod;
use guarantor_lstar::{Alphabet, LearnerConfig};

/// The black box: words over {a, b} with an even number of a's and no "bb".
pub(crate) fn system(w: &[&str]) -> bool {
    w.iter().filter(|&&x| x == "a").count() % 2 == 0 && !w.windows(2).any(|p| p == ["b", "b"])
}

pub(crate) fn main() -> Result<(), Box<dyn std::error::Error>> {
    let alphabet = Alphabet::new(["a", "b"]);
    // Wp-method conformance tests: exact for systems with up to 2 states more than a hypothesis.
    let mut teacher = alphabet.teacher(system, WpMethod::new(2));
    let dfa = teacher.learn(LearnerConfig::default())?;
    println!("learned a DFA with {} states", dfa.num_states());
    let aba = alphabet.word(&["a", "b", "a"]).ok_or("unknown name")?;
    println!("accepts a b a: {}", dfa.accepts(&aba));
    println!("{}", teacher.counters());
    Ok(())
}

//! Safety formulas as deterministic property automata ([`compile_safety`]), so that every method
//! that checks `property` LTSs checks them, compositional ones included.
//!
//! A formula is taken as safety when its negation normal form has no until
//! ([`is_safety`], the syntactic fragment: `[]`, `W`, `X`, boolean connectives, and `<>`/`U` only
//! under a negation that turns them into `[]`/`R`). Every violation of such a formula has a finite
//! *bad prefix*, after which no continuation can satisfy it.
//!
//! The property LTS is a subset construction over the formula's Büchi automaton
//! ([`crate::automaton::Gba`]) restricted to its live states (those from which some infinite word is
//! accepted), with the fluents' values in the state: a state is `(valuation, set of automaton
//! states)`; on an observed action the valuation moves (fluents start and end, action
//! propositions hold just after their action) and the set follows the edges the new letter
//! allows. A move that leaves the set empty is a bad prefix and is left out: as for every
//! `property` process, a missing move is a move to `ERROR`. Actions the formula does not observe
//! are outside the LTS's alphabet, so they never constrain the system.
//!
//! As LTSA's safety check of a safety `assert`, a violation is a reachable bad prefix: a run that
//! stops (or goes on with actions the formula does not observe) after a prefix that is not yet bad
//! is not a violation. The Büchi route ([`crate::check`]) reads such a run as its prefix followed
//! by the last letter forever, so on systems where every run observes infinitely many actions the
//! two agree (a property test checks it); on others LTSA's reading is the one kept here.
//!
//! A `constraint` is the same LTS used as a component instead of a property: its missing moves
//! block the system rather than leading to `ERROR`.

use std::collections::VecDeque;

use guarantor_compose::Config;
use guarantor_lts::{Lts, LtsBuilder, StateId};
use rustc_hash::FxHashMap;

use crate::automaton::{Gba, is_syntactic_safety};
use crate::error::LtlError;
use crate::formula::Ltl;

/// Whether `ltl` is in the syntactic safety fragment.
///
/// ```
/// use guarantor_ltl::{is_safety, parse};
/// let fluents = [guarantor_ltl::Fluent::new("CRIT", ["enter"], ["exit"])];
/// assert!(is_safety(&parse("[]!CRIT", &fluents)?));
/// assert!(!is_safety(&parse("[]<>enter", &fluents)?));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn is_safety(ltl: &Ltl) -> bool {
    is_syntactic_safety(ltl.formula())
}

/// The deterministic property LTS of a safety formula: its alphabet is the formula's, its missing
/// moves are the bad prefixes (see the module documentation). The state limit of `config` bounds
/// the construction. In a composition the property moves alone on an action of its alphabet that
/// no component has (FSP's semantics, and LTSA's answer for its assertions: such actions are
/// free); to ignore such actions instead, compile [`Ltl::within`] the system's actions.
///
/// ```
/// use guarantor_ltl::{compile_safety, parse, Fluent};
/// use guarantor_compose::Config;
/// let fluents = [Fluent::new("CRIT.1", ["p1.enter"], ["p1.exit"]),
///                Fluent::new("CRIT.2", ["p2.enter"], ["p2.exit"])];
/// let mutex = parse("[]!(CRIT.1 && CRIT.2)", &fluents)?;
/// let prop = compile_safety(&mutex, &Config::default())?;
/// assert_eq!(prop.num_states(), 3); // neither, 1 inside, 2 inside
/// assert!(prop.is_deterministic());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`LtlError::NotSafety`] outside the safety fragment; budget errors from `config`.
pub fn compile_safety(ltl: &Ltl, config: &Config) -> Result<Lts, LtlError> {
    /// A state: the fluents' values and the automaton states still possible.
    type Key = (Vec<bool>, Vec<u32>);
    if !is_safety(ltl) {
        return Err(LtlError::NotSafety {
            formula: ltl.to_string(),
        });
    }
    let gba = Gba::of_within(ltl.formula(), config)?;
    let live = gba.live();
    let budget = config.budget()?;
    let alphabet: Vec<&str> = ltl.alphabet().collect();
    let mut b = LtsBuilder::new();
    for a in &alphabet {
        b.action(a)?;
    }
    let mut ids: FxHashMap<Key, StateId> = FxHashMap::default();
    let mut queue: VecDeque<Key> = VecDeque::new();
    let init: Key = (
        ltl.initial_valuation(),
        if live[0] { vec![0] } else { Vec::new() },
    );
    // The initial set may be empty (an unsatisfiable formula): every first action is bad.
    let s0 = b.add_state()?;
    ids.insert(init.clone(), s0);
    queue.push_back(init);
    let mut budget = budget;
    while let Some(key) = queue.pop_front() {
        budget.tick()?;
        let from = ids[&key];
        for a in &alphabet {
            let v = ltl.step(&key.0, a);
            let mut next: Vec<u32> = key
                .1
                .iter()
                .flat_map(|&q| gba.edges(q))
                .filter(|e| live[e.target as usize] && e.allows(&v))
                .map(|e| e.target)
                .collect();
            if next.is_empty() {
                continue;
            }
            next.sort_unstable();
            next.dedup();
            let k: Key = (v, next);
            let to = match ids.get(&k) {
                Some(&s) => s,
                None => {
                    let s = b.add_state()?;
                    budget.check_states(ids.len() + 1)?;
                    ids.insert(k.clone(), s);
                    queue.push_back(k);
                    s
                }
            };
            b.add_transition_named(from, a, to)?;
        }
    }
    b.set_initial(s0)?;
    let lts = b.build()?;
    Ok(guarantor_lts::ops::minimize_dfa(&lts)?)
}

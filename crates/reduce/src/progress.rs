//! Progress by compositional minimisation: LTSA's progress question answered on the reduced
//! system.
//!
//! A progress test `progress P = {A}` holds when every terminal set of the product (a strongly
//! connected component no move leaves) has an action of `A`. Every state reaches a terminal set,
//! and a terminal set can never be left, so that is the same as: from every reachable state an
//! action of `A` can still happen (`AG EF A`). A conditional test `if {C} then {A}` is violated
//! by a terminal set with an action of `C` and none of `A`: by the same argument, by a reachable
//! state from which every reachable state can still do `C` and none can do `A`. Both are
//! statements about the reachable states and what they can reach, which weak bisimulation keeps
//! as long as the actions of `A` and `C` stay visible; the divergence- and termination-sensitive
//! minimisation of [`crate::minimise`] is finer still. So the construction of [`crate::Reduce`],
//! with the tests' actions kept visible (every action, for the default property), leaves a last
//! part whose terminal sets answer each test as the whole product's would.
//!
//! A `holds` is that answer. A violation (or an `ERROR` state or property violation reached,
//! which makes the progress question moot) is handed to the monolithic progress check for its
//! evidence: the shortest run into the terminal set and its cycle, as LTSA gives them; a
//! construction that disagreed with it would be an error, never a verdict.

use std::collections::BTreeSet;

use guarantor_compose::method::monitored;
use guarantor_compose::progress::{
    ProgressOptions, ProgressReport, ProgressTest, ProgressVerdict, check_progress,
};
use guarantor_compose::{BudgetKind, Config, MethodError, Problem, Stats, error_lts};
use guarantor_lts::Lts;
use guarantor_lts::ops::strongly_connected;

use crate::Reduce;
use crate::error::ReduceError;
use crate::implied::representatives;
use crate::method::{Outcome, run};
use crate::minimise::{Flagged, reaches_error};
use crate::order::visible_names;
use crate::symmetry::one_per_orbit;

/// [`Reduce`]'s answer to the progress question (module docs).
pub(crate) fn check(
    reduce: &Reduce,
    problem: &Problem,
    options: &ProgressOptions,
    config: &Config,
) -> Result<ProgressReport, MethodError> {
    if problem.priority().is_some() {
        return Err(MethodError::Unsupported {
            method: "reduce".to_owned(),
            reason: "action priority is not preserved by minimisation".to_owned(),
        });
    }
    let config = &config.started();
    let mut queue = questions(problem, options)?;
    let mut largest = Stats::default();
    let mut terminal_sets = 0;
    while let Some((tests, keep)) = queue.pop() {
        let batched = tests.len() > 1;
        let limits = if batched {
            reduce.with_max_part_states(reduce.max_part_states.min(reduce.max_batch_states))
        } else {
            *reduce
        };
        let outcome = monitored(config, |config| {
            Ok(run(problem, config, &limits, &keep, true)?)
        });
        let (outcome, _) = match outcome {
            Err(e) if batched && e.budget_kind() == Some(BudgetKind::States) => {
                queue.extend(halves(tests));
                continue;
            }
            other => other.map_err(|e| e.with_partial_at_least(largest))?,
        };
        let Outcome {
            last,
            largest: here,
            ..
        } = outcome;
        largest.states = largest.states.max(here.states);
        largest.transitions = largest.transitions.max(here.transitions);
        let sets = TerminalSets::of(&last);
        terminal_sets = terminal_sets.max(sets.actions.len());
        if reaches_error(&last.lts) || sets.violate(&tests, &options.internal) {
            return confirm(problem, options, config, largest);
        }
    }
    Ok(ProgressReport::new(
        ProgressVerdict::Holds,
        largest,
        terminal_sets,
    ))
}

/// `tests` in two batches, each keeping the actions its tests name: tried again when the batch
/// met [`Reduce::max_batch_states`].
fn halves(mut tests: Vec<ProgressTest>) -> [Question; 2] {
    let second = tests.split_off(tests.len() / 2);
    [tests, second].map(question)
}

/// One construction to run: the tests it answers, and the actions it keeps visible.
type Question = (Vec<ProgressTest>, BTreeSet<String>);

/// The constructions to start from, each with the tests it answers and the actions it keeps
/// visible. Declared tests are answered together, with their actions visible. The default
/// property (every action can always eventually occur) is one test per action: the property
/// holds exactly when each of them does. Only the tests of [`crate::implied::representatives`]
/// are asked (the others follow from them), one per orbit of the system's checked symmetries
/// ([`crate::symmetry`]; the others are the same test renamed), first all in one construction;
/// [`check`] halves a batch that meets [`Reduce::max_batch_states`], down to one test per
/// construction, which hides nearly everything (one with every action visible hides nothing:
/// the dining philosophers' default property builds the whole product that way).
fn questions(problem: &Problem, options: &ProgressOptions) -> Result<Vec<Question>, MethodError> {
    if !options.tests.is_empty() {
        return Ok(vec![question(options.tests.clone())]);
    }
    let properties: Vec<Lts> = problem
        .property_lts()
        .into_iter()
        .map(error_lts)
        .collect::<Result<_, _>>()?;
    let parts: Vec<&Lts> = problem
        .component_lts()
        .into_iter()
        .chain(&properties)
        .collect();
    // Every visible action of the components and the properties' error forms. (Keeping a
    // component's actions visible together instead, one construction per component, was slower
    // on the dining philosophers: 46 s against 18 s, its parts 16 times larger, as actions a
    // part could have hidden stay visible.)
    let required: BTreeSet<String> = parts
        .iter()
        .flat_map(|part| visible_names(part))
        .filter(|a| !options.internal.contains(a))
        .collect();
    let mut actions = representatives(&problem.component_lts(), &required);
    if problem.end_states().all(|end| end.is_none()) {
        actions = one_per_orbit(&parts, actions);
    }
    let tests = actions
        .into_iter()
        .map(|a| ProgressTest::new(a.clone(), [a]))
        .collect();
    // With no action at all the one construction asks no test: only an error reached (which
    // makes the question moot) is left to find.
    Ok(vec![question(tests)])
}

/// The construction answering `tests`: it keeps every action they name visible.
fn question(tests: Vec<ProgressTest>) -> Question {
    let keep = tests
        .iter()
        .flat_map(|t| t.actions.iter().chain(t.condition.iter().flatten()))
        .cloned()
        .collect();
    (tests, keep)
}

/// The terminal sets of the last part, each with its visible actions.
struct TerminalSets {
    /// Per terminal set, the names of the visible actions on its moves.
    actions: Vec<BTreeSet<String>>,
}

impl TerminalSets {
    /// The terminal sets reachable in `part` (a minimised part is trimmed: every state is).
    fn of(part: &Flagged) -> Self {
        let lts = &part.lts;
        let sccs = strongly_connected(lts, |_| true);
        let terminal = sccs.terminal(lts, |_| true);
        let mut actions: Vec<Option<BTreeSet<String>>> = vec![None; sccs.count()];
        for s in lts.states() {
            let c = sccs.of(s);
            if !terminal[c] || lts.is_error(s) {
                continue;
            }
            let set = actions[c].get_or_insert_with(BTreeSet::new);
            for e in lts.outgoing(s).iter().filter(|e| !e.action.is_tau()) {
                set.insert(lts.alphabet().name(e.action).to_owned());
            }
        }
        TerminalSets {
            actions: actions.into_iter().flatten().collect(),
        }
    }

    /// Whether some terminal set violates a test, internal names not counting as actions.
    fn violate(&self, tests: &[ProgressTest], internal: &[String]) -> bool {
        let counts = |a: &String| !internal.contains(a);
        self.actions.iter().any(|set| {
            let has =
                |names: &[String]| names.iter().filter(|a| counts(a)).any(|a| set.contains(a));
            tests.iter().any(|t| {
                let applies = t.condition.as_deref().is_none_or(has);
                applies && !has(&t.actions)
            })
        })
    }
}

/// The monolithic progress check's verdict and evidence for a violation the construction found.
fn confirm(
    problem: &Problem,
    options: &ProgressOptions,
    config: &Config,
    largest: Stats,
) -> Result<ProgressReport, MethodError> {
    let report = check_progress(
        &problem.component_lts(),
        &problem.property_lts(),
        options,
        config,
    )
    .map_err(|e| MethodError::from(e).with_partial_at_least(largest))?;
    if report.verdict.is_holds() {
        return Err(MethodError::failed(ReduceError::Disagreement));
    }
    Ok(report)
}

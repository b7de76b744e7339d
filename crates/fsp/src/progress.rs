//! LTSA's progress tests: `progress NAME = {..}`, `progress NAME = if {..} then {..}` and the
//! indexed `progress NAME[i:R] = ...`, elaborated into [`ProgressTest`]s of concrete action names.
//!
//! Progress tests belong to the file, not to a composite (LTSA checks every test against whatever
//! composite is analysed), so they are elaborated once, with the file's constants. An indexed test
//! gives one test per value, named `NAME.v` (`NAME.v.w` for two indices), as LTSA names them.
//! Action names are kept as written: a name that is not in the analysed system's alphabet is
//! simply never seen there (LTSA ignores it too).

use std::collections::HashSet;

use crate::ast::{Label, ProgressDef};
use crate::error::{ErrorKind, RawError};
use crate::eval::{Env, Globals};

/// One progress test, with its index values substituted.
///
/// A terminal set of states (a strongly connected set of reachable states that no transition
/// leaves) *violates* the test when it contains no action of [`actions`](Self::actions) and,
/// for a conditional test, contains some action of its [`condition`](Self::condition).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ProgressTest {
    /// The test's name (`P`, or `P.1` for a value of an indexed test).
    pub name: String,
    /// `if C then ...`: the condition's actions; `None` for an unconditional test.
    pub condition: Option<Vec<String>>,
    /// The actions of which some must always eventually be possible.
    pub actions: Vec<String>,
}

impl ProgressTest {
    /// An unconditional test: some action of `actions` can always eventually occur.
    pub fn new<S: Into<String>>(
        name: impl Into<String>,
        actions: impl IntoIterator<Item = S>,
    ) -> Self {
        Self {
            name: name.into(),
            condition: None,
            actions: actions.into_iter().map(Into::into).collect(),
        }
    }

    /// This test made conditional: it only applies to terminal sets with an action of `condition`.
    #[must_use]
    pub fn with_condition<S: Into<String>>(
        mut self,
        condition: impl IntoIterator<Item = S>,
    ) -> Self {
        self.condition = Some(condition.into_iter().map(Into::into).collect());
        self
    }
}

/// Elaborates the progress definitions of a file, in source order.
pub(crate) fn elaborate(
    globals: &Globals,
    defs: &[ProgressDef],
) -> Result<Vec<ProgressTest>, RawError> {
    let env = Env::new(globals);
    let mut tests = Vec::new();
    let mut names = HashSet::new();
    for def in defs {
        if !names.insert(def.name.as_str()) {
            return Err(RawError::new(
                ErrorKind::Duplicate {
                    what: "progress test",
                    name: def.name.clone(),
                },
                def.pos,
            ));
        }
        for (values, binds) in env.index_combos(&def.indices)? {
            let env = env.with(&binds);
            let name = std::iter::once(def.name.clone())
                .chain(values.iter().map(ToString::to_string))
                .collect::<Vec<_>>()
                .join(".");
            let condition = match &def.condition {
                Some(c) => Some(names_of(&env, c)?),
                None => None,
            };
            tests.push(ProgressTest {
                name,
                condition,
                actions: names_of(&env, &def.actions)?,
            });
        }
    }
    Ok(tests)
}

/// The action names a label stands for, in order, without duplicates.
fn names_of(env: &Env<'_>, label: &Label) -> Result<Vec<String>, RawError> {
    let mut seen = HashSet::new();
    Ok(env
        .expand(label)?
        .into_iter()
        .map(|(name, _)| name)
        .filter(|n| seen.insert(n.clone()))
        .collect())
}

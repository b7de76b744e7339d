//! LTSA's progress tests: `progress NAME = {..}`, `progress NAME = if {..} then {..}` and the
//! indexed `progress NAME[i:R] = ...`, elaborated into [`ProgressTest`]s of concrete action names.
//!
//! Progress tests belong to the file, not to a composite (LTSA checks every test against whatever
//! composite is analysed), so they are elaborated once, with the file's constants. An indexed test
//! gives one test per value, named `NAME.v` (`NAME.v.w` for two indices), as LTSA names them.
//! Action names are kept as written: a name that is not in the analysed system's alphabet is
//! simply never seen there (LTSA ignores it too).

use std::collections::HashSet;

use crate::ast::{Index, Label, ProgressDef};
use crate::error::{Pos, RawError};
use crate::eval::{Env, Globals, IndexedDefinition, each_instance};

pub use guarantor_lts::ProgressTest;

/// Elaborates the progress definitions of a file, in source order.
pub(crate) fn elaborate(
    globals: &Globals,
    defs: &[ProgressDef],
) -> Result<Vec<ProgressTest>, RawError> {
    let mut tests = Vec::new();
    each_instance(globals, defs, "progress test", |env, name, def| {
        let test = ProgressTest::new(name, names_of(env, &def.actions)?);
        tests.push(match &def.condition {
            Some(c) => test.with_condition(names_of(env, c)?),
            None => test,
        });
        Ok(())
    })?;
    Ok(tests)
}

impl IndexedDefinition for ProgressDef {
    fn name(&self) -> &str {
        &self.name
    }
    fn pos(&self) -> Pos {
        self.pos
    }
    fn indices(&self) -> &[Index] {
        &self.indices
    }
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

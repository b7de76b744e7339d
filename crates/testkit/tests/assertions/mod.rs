//! The manifest's `asserts` compiled as the facade compiles them: the FSP assertion's formula (the
//! front end elaborates it into `guarantor-ltl`'s vocabulary), if it is a safety formula, into its
//! deterministic property LTS (`guarantor::ltl::compile_safety`), as
//! `Checker::check_assertion` does before it hands the property to the checker's method.

use guarantor::compose::Config;
use guarantor::ltl::{compile_safety, is_safety};
use guarantor_fsp::Ltl;
use guarantor_lts::Lts;
use guarantor_testkit::AssertionError;

/// The property LTS of a safety assertion (`guarantor_testkit::CompileAssertion`).
pub(crate) fn compile(ltl: &Ltl) -> Result<Lts, AssertionError> {
    if !is_safety(ltl) {
        return Err(AssertionError::NotSafety(ltl.to_string()));
    }
    compile_safety(ltl, &Config::default()).map_err(|e| AssertionError::Failed(e.to_string()))
}

//! The manifest's `asserts` compiled as the facade compiles them: the FSP assertion converted into
//! a formula of `guarantor-ltl` (`guarantor::assertion::convert`), then, if it is a safety formula,
//! into its deterministic property LTS (`guarantor::ltl::compile_safety`), as
//! `Checker::check_assertion` does before it hands the property to the checker's method.

use guarantor::compose::Config;
use guarantor::ltl::{compile_safety, is_safety};
use guarantor_fsp::{Assertion, Fluent};
use guarantor_lts::Lts;
use guarantor_testkit::AssertionError;

/// The property LTS of a safety assertion (`guarantor_testkit::CompileAssertion`).
pub(crate) fn compile(assertion: &Assertion, fluents: &[Fluent]) -> Result<Lts, AssertionError> {
    let ltl = guarantor::assertion::convert(assertion, fluents)
        .map_err(|e| AssertionError::Failed(e.to_string()))?;
    if !is_safety(&ltl) {
        return Err(AssertionError::NotSafety(ltl.to_string()));
    }
    compile_safety(&ltl, &Config::default()).map_err(|e| AssertionError::Failed(e.to_string()))
}

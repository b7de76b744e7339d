//! The built-in methods by name: the one list the command line, `auto` and the test suite read.
//!
//! Every method of the workspace is a value implementing [`Method`]; this module names the
//! built-in ones ([`BUILTIN`]), makes them with their default settings ([`method_named`]), and
//! builds the default portfolio ([`auto`]). Adding a method to the workspace is one line here (and
//! a row in README's table); a method of a user's own needs no line anywhere: hand its value to
//! [`Checker::with_method`](crate::Checker::with_method), a [`Portfolio`] or the manifest suite.
//!
//! ```
//! use guarantor::compose::Method;
//! use guarantor::registry;
//! let circ = registry::method_named("circ").expect("a built-in method");
//! assert_eq!(circ.name(), "circ");
//! assert!(registry::BUILTIN.iter().any(|entry| entry.name == "auto"));
//! ```

use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

use guarantor_certify::Certificate;
use guarantor_certify::format::Rule;
use guarantor_circ::{Circ, CircConfig, Policy};
use guarantor_compose::method::{Method, MethodError, MethodReport, Monolithic, Problem};
use guarantor_compose::progress::{ProgressOptions, ProgressReport};
use guarantor_compose::proof::WriteError;
use guarantor_compose::{Assumption, Config};
use guarantor_lstar::{Asym, AsymN, AsymWeakest, Sym};
use guarantor_por::Por;
use guarantor_quotient::Quotient;
use guarantor_reduce::Reduce;

use crate::portfolio::Portfolio;

/// One built-in method: its command-line name, what it does in one line, and its default value.
#[derive(Clone, Copy)]
#[non_exhaustive]
pub struct Entry {
    /// The command-line name (`--method NAME`).
    pub name: &'static str,
    /// What the method does, in one line (for `--help` and docs).
    pub summary: &'static str,
    make: fn() -> Arc<dyn Method>,
}

impl Entry {
    /// The method with its default settings.
    pub fn make(&self) -> Arc<dyn Method> {
        (self.make)()
    }
}

impl fmt::Debug for Entry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Entry")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

/// Every built-in method, in the order the command line lists them.
pub static BUILTIN: &[Entry] = &[
    Entry {
        name: "mono",
        summary: "on-the-fly search of the whole product (the reference)",
        make: || Arc::new(Monolithic::new()),
    },
    Entry {
        name: "lstar",
        summary: "rule ASYM with a learned assumption about all but the first component (Cobleigh et al. 2003)",
        make: || Arc::new(Asym::new()),
    },
    Entry {
        name: "lstar-sym",
        summary: "rule SYM: one learned assumption per component, with complements (Chaki et al. 2004)",
        make: || Arc::new(Sym::new()),
    },
    Entry {
        name: "lstar-nway",
        summary: "rule ASYM applied recursively over every component, assumptions learned",
        make: || Arc::new(AsymN::new()),
    },
    Entry {
        name: "lstar-weakest",
        summary: "rule ASYM applied recursively, each weakest assumption computed by subset construction",
        make: || Arc::new(AsymWeakest::new()),
    },
    Entry {
        name: "quotient",
        summary: "the largest component replaced by its quotient assumption (Finkbeiner, Schewe, Brill 2006)",
        make: || Arc::new(Quotient::new()),
    },
    Entry {
        name: "circ",
        summary: "circular n-way assume-guarantee with SAT-synthesised assumptions (Elkader et al. 2016)",
        make: || Arc::new(Circ::new()),
    },
    Entry {
        name: "circ-neighbours",
        summary: "circ whose premises assume only their neighbours' guarantees",
        make: circ_neighbours,
    },
    Entry {
        name: "reduce",
        summary: "compositional minimisation: groups composed, hidden and minimised bottom-up (safety and deadlock)",
        make: || Arc::new(Reduce::new()),
    },
    Entry {
        name: "por",
        summary: "deadlock search with stubborn sets: the product with independent moves explored once (deadlock question only)",
        make: || Arc::new(Por::new()),
    },
    Entry {
        name: "auto",
        summary: "a portfolio: the methods above raced on threads, the first verdict wins",
        make: || Arc::new(auto()),
    },
];

/// The built-in method with this command-line name, with its default settings.
pub fn method_named(name: &str) -> Option<Arc<dyn Method>> {
    let name = if name == "monolithic" { "mono" } else { name };
    BUILTIN.iter().find(|e| e.name == name).map(Entry::make)
}

/// The default portfolio, in the order its members start: the monolithic search (the fastest
/// wherever the product fits), circ with the neighbours policy (MER: answers where mono runs out),
/// the stubborn-set deadlock search (the deadlock question alone; it refuses properties at
/// once), compositional minimisation (which answers deadlocks too), circ with every guarantee
/// (Client-Server, the sliding window protocol), then n-way learning and the quotient. On a
/// two-core machine the first two run at once and the others start as those give up. Asked for
/// deadlocks as well, the members that search them race on the whole question and the others on
/// its safety half; a `holds` of one of the latter is followed by a race of the former on the
/// deadlock question alone ([`Portfolio`]), where `por` usually answers in a fraction of a
/// second.
pub fn auto() -> Portfolio {
    Portfolio::new([
        Arc::new(Monolithic::new()) as Arc<dyn Method>,
        circ_neighbours(),
        Arc::new(Por::new()),
        Arc::new(Reduce::new()),
        Arc::new(Circ::new()),
        Arc::new(AsymN::new()),
        Arc::new(Quotient::new()),
    ])
}

fn circ_neighbours() -> Arc<dyn Method> {
    Arc::new(Named::new(
        "circ-neighbours",
        Circ::new().with_config(CircConfig::new().with_policy(Policy::Neighbours)),
    ))
}

/// A method under another name: two settings of one method told apart in a portfolio's report.
#[derive(Clone, Debug)]
pub struct Named<M> {
    name: Cow<'static, str>,
    method: M,
}

impl<M: Method> Named<M> {
    /// `method`, reporting itself as `name`.
    pub fn new(name: impl Into<Cow<'static, str>>, method: M) -> Self {
        Self {
            name: name.into(),
            method,
        }
    }
}

impl<M: Method> Method for Named<M> {
    fn name(&self) -> Cow<'_, str> {
        Cow::Borrowed(&self.name)
    }

    fn check(&self, problem: &Problem, config: &Config) -> Result<MethodReport, MethodError> {
        self.method.check(problem, config)
    }

    fn searches_deadlocks(&self) -> bool {
        self.method.searches_deadlocks()
    }

    fn check_progress(
        &self,
        problem: &Problem,
        options: &ProgressOptions,
        config: &Config,
    ) -> Result<ProgressReport, MethodError> {
        self.method.check_progress(problem, options, config)
    }

    fn answers_progress(&self) -> bool {
        self.method.answers_progress()
    }

    fn certificate(
        &self,
        problem: &Problem,
        report: &MethodReport,
        config: &Config,
    ) -> Result<Option<Certificate>, MethodError> {
        self.method.certificate(problem, report, config)
    }

    fn proof_rule(&self) -> Option<Rule> {
        self.method.proof_rule()
    }
}

/// The `holds` certificate of `rule` over these assumptions, written by the method crate whose
/// rule it is, exactly as its method writes its own verdict's: how a proof skeleton written by
/// hand names a rule and becomes a certificate ([`crate::skeleton`]). No assumptions give rule
/// `mono`.
///
/// # Errors
/// [`WriteError::Shape`] if the assumptions do not fit the rule (any for a rule that takes none).
pub(crate) fn write_rule(
    problem: &Problem,
    rule: Rule,
    assumptions: &[Assumption],
) -> Result<Certificate, WriteError> {
    match rule {
        _ if assumptions.is_empty() => Ok(guarantor_compose::proof::monolithic(problem)),
        Rule::Asym | Rule::AsymN | Rule::Weakest => {
            guarantor_lstar::proof::chain(problem, rule, assumptions)
        }
        Rule::Sym => guarantor_lstar::proof::sym(problem, assumptions),
        Rule::Circ => guarantor_circ::proof::circ(problem, assumptions),
        Rule::Quotient => guarantor_quotient::proof::quotient(problem, assumptions),
        _ => Err(WriteError::shape(
            rule,
            "a rule without assumptions was given some",
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_is_found_by_its_name_and_reports_it() {
        for entry in BUILTIN {
            let method = method_named(entry.name).unwrap();
            assert_eq!(method.name(), entry.name);
        }
        assert_eq!(method_named("monolithic").unwrap().name(), "mono");
        assert!(method_named("nope").is_none());
    }
}

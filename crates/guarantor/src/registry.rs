//! The built-in methods by name: the one list the command line, `auto` and the test suite read.
//!
//! Every method of the workspace is a value implementing [`Method`]; this module names the
//! built-in ones ([`BUILTIN`], their names as constants: [`MONO`], [`CIRC`], ...; the alias
//! [`MONO_ALIAS`] is read in [`entry`] alone), makes them with their default settings
//! ([`method_named`], or by the typed handle [`MethodKind`]), builds the default portfolio
//! ([`auto`]), and says which value the command line runs on a program's abstract systems
//! ([`program_method_named`]). It is the only file of the facade that names a built-in method:
//! whatever else the facade needs to know of a method, the method says itself (its certificate,
//! its proof rule, its program grouping). Proof skeletons written by hand reach the rule writers of
//! the method crates through here too (`write_rule`). Adding a method to the workspace is one
//! entry here (and a row in README's table); a method of a user's own needs no line anywhere: hand
//! its value to [`Checker::with_method`](crate::Checker::with_method), a [`Portfolio`] or the
//! manifest suite.
//!
//! ```
//! use guarantor::compose::Method;
//! use guarantor::registry;
//! let circ = registry::method_named(registry::CIRC).expect("a built-in method");
//! assert_eq!(circ.name(), "circ");
//! assert!(registry::BUILTIN.iter().any(|entry| entry.name == registry::AUTO));
//! ```

use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

use guarantor_certify::Certificate;
use guarantor_certify::format::Rule;
use guarantor_circ::{Circ, CircConfig, Policy};
use guarantor_compose::method::{Grouping, Method, MethodError, MethodReport, Monolithic, Problem};
use guarantor_compose::progress::{ProgressOptions, ProgressReport};
use guarantor_compose::proof::WriteError;
use guarantor_compose::{Assumption, Config};
use guarantor_lstar::{Asym, AsymN, AsymWeakest, Sym};
use guarantor_lts::ComponentId;
use guarantor_por::Por;
use guarantor_quotient::Quotient;
use guarantor_reduce::Reduce;

use crate::portfolio::Portfolio;

/// `mono`: the monolithic search ([`Monolithic`]).
pub const MONO: &str = "mono";
/// The other spelling of [`MONO`] the command line accepts ([`entry`] reads it).
pub const MONO_ALIAS: &str = "monolithic";
/// `lstar`: rule ASYM with a learned assumption ([`Asym`]).
pub const LSTAR: &str = "lstar";
/// `lstar-sym`: rule SYM ([`Sym`]).
pub const LSTAR_SYM: &str = "lstar-sym";
/// `lstar-nway`: rule ASYM recursively ([`AsymN`]).
pub const LSTAR_NWAY: &str = "lstar-nway";
/// `lstar-weakest`: rule ASYM recursively with computed weakest assumptions ([`AsymWeakest`]).
pub const LSTAR_WEAKEST: &str = "lstar-weakest";
/// `quotient`: a component replaced by its quotient ([`Quotient`]).
pub const QUOTIENT: &str = "quotient";
/// `circ`: circular assume-guarantee ([`Circ`]).
pub const CIRC: &str = "circ";
/// `circ-neighbours`: circ whose premises assume only their neighbours' guarantees.
pub const CIRC_NEIGHBOURS: &str = "circ-neighbours";
/// `reduce`: compositional minimisation ([`Reduce`]).
pub const REDUCE: &str = "reduce";
/// `por`: the stubborn-set deadlock search ([`Por`]).
pub const POR: &str = "por";
/// `auto`: the default portfolio ([`auto`]).
pub const AUTO: &str = "auto";
/// `dist`: the monolithic search on the distributed engine (feature `dist`).
pub const DIST: &str = "dist";

/// A built-in method chosen by a typed handle rather than a name (a method of the user's own is
/// given as a value with [`Checker::with_method`](crate::Checker::with_method)). Each kind is a
/// handle on its entry of [`BUILTIN`], which gives its name and value.
///
/// ```
/// use guarantor::MethodKind;
/// use guarantor::registry;
/// assert_eq!(MethodKind::Circ.name(), registry::CIRC);
/// assert_eq!(MethodKind::from_name(registry::MONO_ALIAS), Some(MethodKind::Monolithic));
/// assert!(MethodKind::all().any(|(kind, _)| kind == MethodKind::Auto));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum MethodKind {
    /// Build the product on the fly and search it breadth-first (the reference method; depth first
    /// with [`Monolithic::with_search`] given to
    /// [`Checker::with_method`](crate::Checker::with_method)).
    #[default]
    Monolithic,
    /// Learned assumptions, rule ASYM, two groups (Cobleigh et al. 2003).
    Lstar,
    /// Learned assumptions, rule SYM over every component (Chaki et al. 2004, rule 2).
    LstarSym,
    /// Learned assumptions, rule ASYM applied recursively over every component.
    LstarNway,
    /// One component replaced by its quotient assumption (Finkbeiner, Schewe, Brill 2006).
    Quotient,
    /// Circular n-way assume-guarantee with SAT-synthesised assumptions (Elkader et al. 2016).
    Circ,
    /// A portfolio: the methods raced on threads, the first verdict wins ([`auto`]).
    Auto,
}

impl MethodKind {
    /// The kind's entry of [`BUILTIN`].
    fn entry(self) -> Option<&'static Entry> {
        BUILTIN.iter().find(|e| e.kind == Some(self))
    }

    /// The method's name as the command line spells it.
    pub fn name(self) -> &'static str {
        self.entry().map_or("?", |e| e.name)
    }

    /// Parses a command-line method name ([`MONO_ALIAS`] is accepted for [`MONO`]); `None` for
    /// a name that is not a built-in method or a built-in method without a kind.
    pub fn from_name(name: &str) -> Option<MethodKind> {
        entry(name)?.kind
    }

    /// Every kind with its command-line name, in the order the command line lists them.
    pub fn all() -> impl Iterator<Item = (MethodKind, &'static str)> {
        BUILTIN.iter().filter_map(|e| Some((e.kind?, e.name)))
    }

    /// The method with its default settings.
    pub fn make(self) -> Arc<dyn Method> {
        self.entry().map_or_else(
            || Arc::new(Monolithic::new()) as Arc<dyn Method>,
            Entry::make,
        )
    }
}

/// One built-in method: its command-line name, what it does in one line, and its default value.
#[derive(Clone, Copy)]
#[non_exhaustive]
pub struct Entry {
    /// The command-line name (`--method NAME`).
    pub name: &'static str,
    /// What the method does, in one line (for `--help` and docs).
    pub summary: &'static str,
    /// The typed handle that chooses it, if it has one ([`MethodKind`]).
    pub kind: Option<MethodKind>,
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
        name: MONO,
        summary: "on-the-fly search of the whole product (the reference)",
        kind: Some(MethodKind::Monolithic),
        make: || Arc::new(Monolithic::new()),
    },
    Entry {
        name: LSTAR,
        summary: "rule ASYM with a learned assumption about all but the first component (Cobleigh et al. 2003)",
        kind: Some(MethodKind::Lstar),
        make: || Arc::new(Asym::new()),
    },
    Entry {
        name: LSTAR_SYM,
        summary: "rule SYM: one learned assumption per component, with complements (Chaki et al. 2004)",
        kind: Some(MethodKind::LstarSym),
        make: || Arc::new(Sym::new()),
    },
    Entry {
        name: LSTAR_NWAY,
        summary: "rule ASYM applied recursively over every component, assumptions learned",
        kind: Some(MethodKind::LstarNway),
        make: || Arc::new(AsymN::new()),
    },
    Entry {
        name: LSTAR_WEAKEST,
        summary: "rule ASYM applied recursively, each weakest assumption computed by subset construction",
        kind: None,
        make: || Arc::new(AsymWeakest::new()),
    },
    Entry {
        name: QUOTIENT,
        summary: "the largest component replaced by its quotient assumption (Finkbeiner, Schewe, Brill 2006)",
        kind: Some(MethodKind::Quotient),
        make: || Arc::new(Quotient::new()),
    },
    Entry {
        name: CIRC,
        summary: "circular n-way assume-guarantee with SAT-synthesised assumptions (Elkader et al. 2016)",
        kind: Some(MethodKind::Circ),
        make: || Arc::new(Circ::new()),
    },
    Entry {
        name: CIRC_NEIGHBOURS,
        summary: "circ whose premises assume only their neighbours' guarantees",
        kind: None,
        make: circ_neighbours,
    },
    Entry {
        name: REDUCE,
        summary: "compositional minimisation: groups composed, hidden and minimised bottom-up (safety and deadlock)",
        kind: None,
        make: || Arc::new(Reduce::new()),
    },
    Entry {
        name: POR,
        summary: "deadlock search with stubborn sets: the product with independent moves explored once (deadlock question only)",
        kind: None,
        make: || Arc::new(Por::new()),
    },
    #[cfg(feature = "dist")]
    Entry {
        name: DIST,
        summary: "the monolithic breadth-first search on the distributed engine (timely dataflow), in this process or across several",
        kind: None,
        make: || Arc::new(guarantor_dist::Distributed::default()),
    },
    Entry {
        name: AUTO,
        summary: "a portfolio: the methods above raced on threads, the first verdict wins",
        kind: Some(MethodKind::Auto),
        make: || Arc::new(auto()),
    },
];

/// The built-in method with this command-line name, with its default settings.
pub fn method_named(name: &str) -> Option<Arc<dyn Method>> {
    entry(name).map(Entry::make)
}

/// The built-in entry with this command-line name ([`MONO_ALIAS`] is [`MONO`]'s, the one alias).
pub fn entry(name: &str) -> Option<&'static Entry> {
    let name = if name == MONO_ALIAS { MONO } else { name };
    BUILTIN.iter().find(|e| e.name == name)
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
    .with_name(AUTO)
}

fn circ_neighbours() -> Arc<dyn Method> {
    Arc::new(Named::new(
        CIRC_NEIGHBOURS,
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

    fn program_grouping(&self) -> Grouping {
        self.method.program_grouping()
    }
}

/// The built-in method with this command-line name as it checks a program's abstract systems
/// (`guarantor check --program`; [`crate::program`]): `lstar` puts the first half of the
/// components in its first group, every other method is [`method_named`]'s. How
/// the abstract system is grouped each method says itself ([`Method::program_grouping`]).
pub fn program_method_named(name: &str) -> Option<Arc<dyn Method>> {
    let method = method_named(name)?;
    if method.name() == LSTAR {
        return Some(Arc::new(Halves));
    }
    Some(method)
}

/// Rule ASYM with the first half of the components (rounded down, at least one) against the
/// rest: on a program, so that neither side holds almost the whole system (which keeps memory
/// low; a split given with `Asym::with_split` chooses otherwise: the first component alone is
/// faster on the philosophers but composes all the others, see docs/benchmarks.md).
#[derive(Clone, Copy, Debug)]
struct Halves;

impl Halves {
    fn asym(problem: &Problem) -> Asym {
        let n = problem.num_components();
        if n > 2 {
            Asym::new().with_split(ComponentId::range(n / 2))
        } else {
            Asym::new()
        }
    }
}

impl Method for Halves {
    fn name(&self) -> Cow<'_, str> {
        Cow::Borrowed(LSTAR)
    }

    fn check(&self, problem: &Problem, config: &Config) -> Result<MethodReport, MethodError> {
        Self::asym(problem).check(problem, config)
    }

    fn certificate(
        &self,
        problem: &Problem,
        report: &MethodReport,
        config: &Config,
    ) -> Result<Option<Certificate>, MethodError> {
        Self::asym(problem).certificate(problem, report, config)
    }

    fn proof_rule(&self) -> Option<Rule> {
        Asym::new().proof_rule()
    }

    fn program_grouping(&self) -> Grouping {
        Asym::new().program_grouping()
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
        assert_eq!(method_named(MONO_ALIAS).unwrap().name(), MONO);
        assert!(method_named("nope").is_none());
    }

    #[test]
    fn every_kind_has_one_entry_whose_name_parses_back() {
        let kinds: Vec<MethodKind> = MethodKind::all().map(|(kind, _)| kind).collect();
        assert_eq!(kinds.len(), 7);
        for (kind, name) in MethodKind::all() {
            assert_eq!(kind.name(), name);
            assert_eq!(MethodKind::from_name(name), Some(kind));
            assert_eq!(kind.make().name(), name);
            assert_eq!(BUILTIN.iter().filter(|e| e.kind == Some(kind)).count(), 1);
        }
        assert_eq!(
            MethodKind::from_name(MONO_ALIAS),
            Some(MethodKind::Monolithic)
        );
        assert_eq!(MethodKind::from_name(POR), None);
    }
}

//! # guarantor: compositional verification of concurrent systems
//!
//! The facade of the Guarantor workspace: one [`Checker`] over every verification method, and the
//! sub-crates re-exported as modules ([`lts`], [`compose`], [`fsp`], ...), so that one dependency
//! gives the whole toolbox.
//!
//! A system is a set of components (labelled transition systems, [`lts::Lts`]) composed in
//! parallel with LTSA's semantics: shared actions synchronise, the others interleave. A safety
//! property is a deterministic LTS; the system violates it when some run, projected on the
//! property's alphabet, leaves the property's behaviour (or a component reaches its `ERROR`
//! state). A check answers `holds` or `violated`, with evidence either way.
//!
//! ## Should I use this crate?
//! Use it when you want "check this system against this property" and do not mind which method does
//! it. Depend on a single method crate (`guarantor-lstar`, `guarantor-quotient`, ...) when you embed
//! one method in a larger tool, or on `guarantor-lts` alone when you only need LTSs.
//!
//! ## A first check
//! Three Aldebaran `.aut` texts (the example of Cobleigh et al., TACAS 2003, section 4.3): `Input`
//! reads an input and sends it, `Output` outputs what was sent, and the property `Order` says that
//! inputs and outputs alternate, input first.
//! ```
//! use guarantor::{Checker, MethodKind};
//! use guarantor::lts::io::aut::parse_aut;
//!
//! let input = parse_aut("des (0, 3, 3)\n(0, input, 1)\n(1, send, 2)\n(2, ack, 0)\n")?;
//! let output = parse_aut("des (0, 3, 3)\n(0, send, 1)\n(1, output, 2)\n(2, ack, 0)\n")?;
//! let order = parse_aut("des (0, 2, 2)\n(0, input, 1)\n(1, output, 0)\n")?;
//! let outcome = Checker::new()
//!     .component("Input", input)
//!     .component("Output", output)
//!     .property("Order", order)
//!     .method(MethodKind::Monolithic)
//!     .check()?;
//! assert!(outcome.verdict.is_holds());
//! println!("{} states explored in {:?}", outcome.states, outcome.elapsed);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//! [`Checker`] is a builder: add named components and properties, pick a method (a
//! [`MethodKind`] with its defaults, or any [`Method`] value with its settings), set budgets
//! ([`compose::Config`]), then [`Checker::check`] returns an
//! [`Outcome`]. A verdict is never an error: `Err` means bad input or an exhausted budget
//! ([`CheckError`]).
//!
//! ## Loading models
//! - **Aldebaran `.aut`**: [`lts::io::aut::parse_aut`] for a string (above), [`model::load_aut`]
//!   for a file.
//! - **LTSs built in code**: [`lts::LtsBuilder`].
//! - **Programs** with integer variables (the guarded-command language of docs/formats.md) go
//!   through predicate abstraction instead: see [Programs](#programs) below.
//! - **FSP** (LTSA's language), in one call: [`Checker::from_fsp_str`] parses the text, elaborates
//!   a composite (default: the last one) and makes the checker. As LTSA's Check Safety (and the
//!   command line on an FSP file), the check then also searches for deadlocks: the textbook
//!   dining philosophers need no property to fail.
//!
//! ```
//! use guarantor::Checker;
//! use guarantor::compose::{Verdict, Violation};
//!
//! let dining = "
//!     const N = 3
//!     range P = 0..N-1
//!     PHIL(I=0) = (phil[I].getleft -> phil[I].getright -> phil[I].eat
//!                    -> phil[I].putright -> phil[I].putleft -> PHIL).
//!     FORK(F=0) = ( phil[F].getleft -> phil[F].putleft -> FORK
//!                 | phil[(F+N-1)%N].getright -> phil[(F+N-1)%N].putright -> FORK).
//!     ||DINING = (forall [i:P] (PHIL(i) || FORK(i))).
//! ";
//! let outcome = Checker::from_fsp_str(dining, None)?.check()?;
//! let cex = outcome.verdict.counterexample().ok_or("expected a deadlock")?;
//! assert_eq!(cex.violation, Violation::Deadlock);
//! assert_eq!(cex.trace.len(), 3); // every philosopher holds a left fork
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! - **FSP, step by step**: [`fsp::parse`] a string (or [`model::load_fsp`] a file), elaborate
//!   a composite, and [`Checker::from_fsp`] makes its processes the components (with their `END`
//!   states) and its `property` processes the properties:
//!
//! ```
//! use guarantor::Checker;
//! use guarantor::compose::Config;
//!
//! let source = "
//!     INPUT  = (input -> send -> ack -> INPUT).
//!     OUTPUT = (send -> output -> ack -> OUTPUT).
//!     property ORDER = (input -> output -> ORDER).
//!     ||SYS = (INPUT || OUTPUT || ORDER).
//! ";
//! let model = guarantor::fsp::parse(source, "order.lts")?;
//! let system = model.elaborate("SYS")?; // or model.default_target(): the last composite
//! let checker = Checker::from_fsp(&system, &Config::default())?;
//! let names: Vec<&str> = checker.components().map(|(name, _)| name).collect();
//! assert_eq!(names, ["INPUT", "OUTPUT"]);
//! assert_eq!(checker.properties().len(), 1);
//! assert!(checker.check()?.verdict.is_holds());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The config given to [`Checker::from_fsp`] bounds the composition of nested composites and
//! becomes the checker's budget. FSP priorities (`<<`, `>>`) are kept, and only the monolithic
//! method accepts them. Warnings of the elaboration are in `system.warnings`.
//!
//! ## Defaults: the library and the command line agree
//! One table for both, so that a model gives the same verdict through either:
//!
//! | input | deadlocks searched | turn it around |
//! |---|---|---|
//! | FSP ([`Checker::from_fsp`], [`Checker::from_fsp_str`]; `guarantor check M.lts`) | yes, as LTSA's Check Safety | [`Checker::deadlock`]`(false)`; `--no-deadlock` |
//! | LTSs given one by one ([`Checker::new`]; `.aut` files) | no: properties and `ERROR` states only | [`Checker::deadlock`]`(true)`; `--deadlock` |
//!
//! Deadlocks are searched whatever the method: in the method's own run when it answers deadlock
//! questions (`mono`, `reduce`, `auto`), or, after a `holds` of a method that reasons about traces,
//! in a deadlock phase of its own, raced by the methods that do ([`Checker::check`] says how).
//! With only deadlocks to look for (no property, no `ERROR` state), that phase runs alone and
//! [`Outcome::notes`] says so. [`Outcome::phases`] lists what ran: each question, its method, its
//! time and its largest product. Other defaults shared by both: the monolithic method, breadth-first
//! search (shortest counterexamples), no budget, every core ([`compose::Config`]).
//!
//! ## Choosing a method
//! Every method is a value implementing the [`Method`] trait; [`registry`] names the built-in ones.
//! The quickest way to choose one is [`MethodKind`], a typed handle on a registry entry with its
//! command-line name ([`MethodKind::name`], [`MethodKind::from_name`], [`MethodKind::all`]). The default is
//! [`MethodKind::Monolithic`]: an on-the-fly search of the whole product, usually the fastest
//! method where the product fits in memory. The compositional methods ([`MethodKind::Lstar`],
//! [`MethodKind::LstarSym`], [`MethodKind::LstarNway`], [`MethodKind::Quotient`],
//! [`MethodKind::Circ`]) check the components one at a time against assumptions about the others;
//! [`MethodKind::Auto`] races the monolithic search, `circ` with both premise policies,
//! `lstar-nway` and `quotient` on threads ([`Portfolio`]), and [`Outcome::method`] says which
//! one answered. Any other method value, with settings of your choice or written by you, runs
//! through [`Checker::with_method`]. docs/methods.md in the repository says what each method
//! does, when it pays (with measured figures) and what its evidence contains.
//!
//! A method's settings travel with its value: each method crate's type has its own `with_*`
//! setters ([`lstar::Asym::with_split`], [`quotient::Quotient::with_component`],
//! [`circ::Circ::with_config`], [`compose::method::Monolithic::with_search`], ...), and
//! [`Checker::with_method`] runs the value.
//!
//! ```
//! use guarantor::{Checker, MethodKind};
//! use guarantor::lstar::AsymWeakest;
//! use guarantor::lts::ComponentId;
//! use guarantor::quotient::{Quotient, QuotientConfig};
//! use guarantor::lts::io::aut::parse_aut;
//! # let input = parse_aut("des (0, 3, 3)\n(0, input, 1)\n(1, send, 2)\n(2, ack, 0)\n")?;
//! # let output = parse_aut("des (0, 3, 3)\n(0, send, 1)\n(1, output, 2)\n(2, ack, 0)\n")?;
//! # let order = parse_aut("des (0, 2, 2)\n(0, input, 1)\n(1, output, 0)\n")?;
//! let checker = Checker::new()
//!     .component("Input", input)
//!     .component("Output", output)
//!     .property("Order", order);
//!
//! // Rule ASYM recursively, each level's weakest assumption computed rather than learned.
//! let checker = checker.with_method(AsymWeakest::new());
//! assert!(checker.check()?.verdict.is_holds());
//!
//! // Replace component 1 ("Output") by its quotient, splitting on every useful edge per step.
//! let quotient = Quotient::new()
//!     .with_component(ComponentId::must(1))
//!     .with_config(QuotientConfig::new().with_split_all(true));
//! let checker = checker.with_method(quotient);
//! assert!(checker.check()?.verdict.is_holds());
//!
//! // A built-in method with its defaults, by command-line name.
//! let method = MethodKind::from_name(guarantor::registry::CIRC).ok_or("no such method")?;
//! let outcome = checker.method(method).check()?;
//! assert_eq!(outcome.method, method.name());
//! assert!(outcome.verdict.is_holds());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## Budgets and cancellation
//! Budgets live in a [`compose::Config`] given with [`Checker::config`] and are shared by every
//! model check the method runs:
//! - [`Config::with_max_states`](compose::Config::with_max_states): the most product states *one*
//!   exploration may discover (for a compositional method, each of its many model checks);
//! - [`Config::with_timeout`](compose::Config::with_timeout): one time budget for the whole
//!   check, whose clock starts when [`Checker::check`] starts (not when `with_timeout` is called:
//!   a config built early and checked later still gets its whole budget), and is shared by every
//!   model check the method runs; [`with_deadline`](compose::Config::with_deadline) gives a fixed
//!   instant instead;
//! - [`Config::with_cancel`](compose::Config::with_cancel): an `Arc<AtomicBool>` that another
//!   thread sets to stop the check;
//! - [`Config::with_monitor`](compose::Config::with_monitor): a [`compose::Monitor`] another thread
//!   can read for progress (explorations finished, the largest product so far, the method's note).
//!
//! An exhausted budget is an `Err` for which [`CheckError::is_budget`] is true (the command line's
//! exit code 3), never a verdict.
//!
//! ```
//! use std::sync::Arc;
//! use std::sync::atomic::{AtomicBool, Ordering};
//! use std::time::Duration;
//! use guarantor::Checker;
//! use guarantor::compose::{Config, Monitor};
//! use guarantor::lts::io::aut::parse_aut;
//! # let input = parse_aut("des (0, 3, 3)\n(0, input, 1)\n(1, send, 2)\n(2, ack, 0)\n")?;
//! # let output = parse_aut("des (0, 3, 3)\n(0, send, 1)\n(1, output, 2)\n(2, ack, 0)\n")?;
//! # let order = parse_aut("des (0, 2, 2)\n(0, input, 1)\n(1, output, 0)\n")?;
//! let checker = Checker::new()
//!     .component("Input", input)
//!     .component("Output", output)
//!     .property("Order", order);
//!
//! // Too few states: the check stops with a budget error.
//! let checker = checker.config(Config::new().with_max_states(2));
//! let error = checker.check().unwrap_err();
//! assert!(error.is_budget());
//!
//! // A cancel flag, raised here before the check (usually from another thread, or a Ctrl-C
//! // handler); explorations look at it every few thousand states.
//! let cancel = Arc::new(AtomicBool::new(false));
//! let config = Config::new().with_cancel(Arc::clone(&cancel));
//! let checker = checker.config(config);
//! cancel.store(true, Ordering::Relaxed);
//! let error = checker.check().unwrap_err();
//! assert!(error.is_budget());
//! assert!(error.to_string().contains("cancelled"), "{error}");
//!
//! // A timeout, and a monitor that a progress thread could read while the check runs.
//! let monitor = Arc::new(Monitor::new());
//! let config = Config::new()
//!     .with_timeout(Duration::from_secs(10))
//!     .with_monitor(Arc::clone(&monitor));
//! let outcome = checker.config(config).check()?;
//! assert!(outcome.verdict.is_holds());
//! assert!(monitor.snapshot().explorations >= 1);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## Reading a counterexample
//! A violation is [`compose::Verdict::Violated`] with a [`compose::Counterexample`]: `trace`, the
//! visible actions of a run of the whole system (tau steps left out), and `violation`, what the run
//! ends in: [`compose::Violation::Property`] with the [`lts::PropertyId`] of the property (they
//! count in the order the properties were added), [`compose::Violation::ErrorState`] with the
//! [`lts::ComponentId`] of a component that reached its `ERROR` state, or
//! [`compose::Violation::Deadlock`]. Whatever the method, the checker replays the
//! trace on the original components and properties before returning it and names the violation
//! from that replay; a method whose trace violates nothing is reported as
//! [`CheckError::BadEvidence`], not as a verdict. [`Checker::property_name`] and
//! [`Checker::component_name`] turn the ids back into names, [`Checker::describe`] the whole
//! violation into words.
//!
//! ```
//! use guarantor::{Checker, MethodKind};
//! use guarantor::compose::{Verdict, Violation};
//! use guarantor::lts::io::aut::parse_aut;
//!
//! let input = parse_aut("des (0, 3, 3)\n(0, input, 1)\n(1, send, 2)\n(2, ack, 0)\n")?;
//! // Outputs before anything was sent.
//! let eager = parse_aut("des (0, 3, 3)\n(0, output, 1)\n(1, send, 2)\n(2, ack, 0)\n")?;
//! let order = parse_aut("des (0, 2, 2)\n(0, input, 1)\n(1, output, 0)\n")?;
//! let checker = Checker::new()
//!     .component("Input", input)
//!     .component("Output", eager)
//!     .property("Order", order)
//!     .method(MethodKind::Monolithic); // breadth first: a shortest counterexample
//! let outcome = checker.check()?;
//! let Verdict::Violated(cex) = &outcome.verdict else {
//!     panic!("expected a violation");
//! };
//! assert_eq!(cex.trace, ["output"]);
//! let Violation::Property { property } = cex.violation else {
//!     panic!("expected a property violation");
//! };
//! assert_eq!(checker.property_name(property), "Order");
//! // Or in words, as the command line prints it:
//! assert_eq!(checker.describe(&cex.violation), "property Order");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! To handle every verdict, `match` on it. [`compose::Verdict`] is `#[non_exhaustive]` (a later
//! version may add a kind of answer without breaking your code), so a `match` outside its crate
//! needs a last `_` arm; without it the compiler stops with "non-exhaustive patterns". Each
//! counterexample step also names the components that take part in it ([`Outcome::steps`]).
//!
//! ```
//! use guarantor::Checker;
//! use guarantor::compose::Verdict;
//!
//! let checker = Checker::from_fsp_str(
//!     "P = (a -> b -> P).\nQ = (b -> c -> Q).\nproperty SAFE = (a -> c -> SAFE).\n||S = (P || Q || SAFE).",
//!     None,
//! )?;
//! let outcome = checker.check()?;
//! match &outcome.verdict {
//!     Verdict::Holds(_) => println!("holds"),
//!     Verdict::Violated(cex) => {
//!         println!("violated: {}", outcome.violated.as_deref().unwrap_or("?"));
//!         assert_eq!(cex.trace, ["a", "b", "a"]);
//!         for step in &outcome.steps {
//!             println!("  {} by {}", step.action, step.names.join(", "));
//!         }
//!         assert_eq!(outcome.steps[1].names, ["P", "Q"]); // `b` is shared
//!     }
//!     // Verdict is #[non_exhaustive]: a kind of answer added later lands here.
//!     _ => println!("another kind of answer"),
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Deadlocks: see [Defaults](#defaults-the-library-and-the-command-line-agree);
//! [`Checker::find_deadlock`] searches for one on its own.
//!
//! ## Pictures: a report page and the animator
//! [`Checker::report`] turns an outcome into a [`view::page::Report`]: one self-contained HTML
//! page (no network access when opened) with the verdict and what the check measured, the
//! counterexample as a message sequence chart (one lane per component and property, each step
//! across the lanes of the components that take part), every component, property and assumption
//! drawn with the run's path highlighted, and LTSA's animator, which computes the product step by
//! step in the browser. [`Checker::progress_report`] does the same for a progress check (a lasso
//! with its cycle marked) and [`Checker::animator`] makes the animator alone. The command line's
//! `check --html FILE` and `animate --html FILE` write these pages.
//!
//! ```
//! use guarantor::Checker;
//! let checker = Checker::from_fsp_str(
//!     "P = (a -> b -> P).\nQ = (b -> c -> Q).\nproperty SAFE = (a -> c -> SAFE).\n||S = (P || Q || SAFE).",
//!     None,
//! )?;
//! let outcome = checker.check()?;
//! let html = checker.report(&outcome, "P || Q against SAFE").to_html();
//! assert!(html.contains("class=\"verdict violated\""));
//! // One chart lane per component and property, one step per action of the trace.
//! assert_eq!(html.matches("<g class=\"lane ").count(), 3);
//! assert_eq!(html.matches("<g class=\"step").count(), 3);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## What a `holds` carries
//! [`compose::Verdict::Holds`] carries the method's evidence, a [`compose::Certificate`]: the
//! assumptions the method proved the property with, each an [`compose::Assumption`] (which
//! component or group it is about, and the assumption as an LTS). The monolithic method needs
//! none (its evidence is the exhaustive search, and [`Outcome::states`] says how large it was).
//! [`Outcome::assumptions`] lists the same assumptions by size, with component numbers replaced
//! by names.
//!
//! To keep a verdict and have it re-checked by code that shares nothing with the methods, write a
//! certificate file, a [`certify::Certificate`]: [`Checker::certificate`] makes one from any
//! built-in method's outcome (the rule, its premises and the assumptions, or the counterexample
//! as a run with every component's state), and [`Checker::verify`] re-checks it with
//! [`certify`]'s independent checker; module [`mod@certificate`] says what each method's file
//! contains. Assumptions written by hand become a file the same way:
//! [`Checker::certificate_from_assumptions`] with the rule, or a proof skeleton file (the rule
//! and where each assumption is) with [`Checker::skeleton_certificate`] ([`mod@skeleton`]).
//!
//! Single premises can also be checked with [`compose::check_triple`] (rule ASYM),
//! [`compose::check_circular_premise`] (`circ`) or [`quotient::check_homomorphism`] (`quotient`,
//! with the classes from [`Checker::quotient_assumption`]).
//!
//! ```
//! use guarantor::{Checker, MethodKind};
//! use guarantor::compose::{Config, check_safety, check_triple};
//! use guarantor::lts::io::aut::{AutWriteOptions, parse_aut, to_aut_string};
//! # let input = parse_aut("des (0, 3, 3)\n(0, input, 1)\n(1, send, 2)\n(2, ack, 0)\n")?;
//! # let output = parse_aut("des (0, 3, 3)\n(0, send, 1)\n(1, output, 2)\n(2, ack, 0)\n")?;
//! # let order = parse_aut("des (0, 2, 2)\n(0, input, 1)\n(1, output, 0)\n")?;
//! let outcome = Checker::new()
//!     .component("Input", input.clone())
//!     .component("Output", output.clone())
//!     .property("Order", order.clone())
//!     .method(MethodKind::Lstar)
//!     .check()?;
//! // Rule ASYM: one assumption, about the second group (here `Output`).
//! assert_eq!(outcome.assumptions.len(), 1);
//! assert_eq!(outcome.assumptions[0].label, "Output");
//! let certificate = outcome.verdict.certificate().ok_or("expected holds")?;
//! let assumption = &certificate.assumptions[0].lts;
//!
//! // Keep it, for instance as .aut text (`write_aut` writes to a file) ...
//! let text = to_aut_string(assumption, &AutWriteOptions::default());
//! assert_eq!(parse_aut(&text)?.num_states(), assumption.num_states());
//!
//! // ... and re-check the rule's two premises: <A> Input <Order> and <true> Output <A>.
//! let config = Config::default();
//! assert!(check_triple(assumption, &input, &order, &config)?.verdict.is_holds());
//! assert!(check_safety(&[&output], &[assumption], &config)?.verdict.is_holds());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! `.aut` keeps only the actions that label a transition; an assumption whose alphabet has an
//! action it never allows needs the JSON form (`lts::io::json`, with `guarantor-lts`'s `serde`
//! feature) to be kept exactly.
//!
//! An assumption can also be asked for directly: [`Checker::weakest_assumption`] (learned) and
//! [`Checker::quotient_assumption`] (with the class of each of the component's states).
//!
//! ## Programs
//! A component program with integer and boolean variables ([`predabs::Program`]) is checked by
//! predicate abstraction with counterexample-guided refinement: each component is abstracted to
//! an LTS, the abstract system is checked with the [`MethodKind`] you choose, and an abstract
//! counterexample is either confirmed on the concrete program (a trace with values) or refines
//! the predicates. [`program::check_program`] runs the loop with a built-in method;
//! [`program::check_program_with_method`] with any [`Method`] ([`program::ProgramMethod`] says
//! how the abstract LTSs are grouped for it).
//!
//! ```
//! use guarantor::MethodKind;
//! use guarantor::predabs::{Program, ProgramVerdict};
//! use guarantor::program::check_program;
//!
//! // Two processes taking turns through a shared variable; the property: their critical
//! // sections do not overlap.
//! let source = "
//!     global turn: int = 0;
//!     component P0 { loc idle, crit;
//!       idle -> crit on enter0 when turn == 0;
//!       crit -> idle on exit0 do turn := 1; }
//!     component P1 { loc idle, crit;
//!       idle -> crit on enter1 when turn == 1;
//!       crit -> idle on exit1 do turn := 0; }
//!     property Mutex { s0 -> s1 on enter0; s1 -> s0 on exit0;
//!                      s0 -> s2 on enter1; s2 -> s0 on exit1; }
//! ";
//! let program = Program::parse(source, "turns.gc")?;
//! let report = check_program(
//!     &program,
//!     &guarantor::predabs::Config::default(),
//!     MethodKind::Lstar,
//!     &guarantor::compose::Config::default(),
//! )?;
//! assert_eq!(report.predabs.verdict, ProgramVerdict::Holds);
//! let loop_report = &report.predabs;
//! println!("{} iterations, {} predicates", loop_report.iterations, loop_report.predicates.len());
//!
//! // P1 no longer waits for its turn: a concrete counterexample, with the values on the way.
//! let buggy = Program::parse(&source.replace("when turn == 1", "when turn >= 0"), "bug.gc")?;
//! let report = check_program(
//!     &buggy,
//!     &guarantor::predabs::Config::default(),
//!     MethodKind::Monolithic,
//!     &guarantor::compose::Config::default(),
//! )?;
//! let ProgramVerdict::Violated(trace) = &report.predabs.verdict else {
//!     panic!("expected a violation");
//! };
//! assert_eq!(trace.labels().len(), 2); // both enter
//! println!("{}", trace.display(&buggy));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! [`program::check_program`] takes two configs: [`predabs::Config`] for the abstraction (mode,
//! prover, extra predicates) and the loop's budgets (iterations, abstract states, a deadline),
//! and a [`compose::Config`] for each check of an abstract system. The report also lists the final
//! predicates, each refinement, and what the method said about the last abstract system
//! ([`program::ProgramReport::last_check`]: its components and assumptions).

pub mod assertion;
mod assume;
pub mod certificate;
mod checker;
mod error;
pub mod json;
mod liveness;
pub mod model;
pub mod phase;
pub mod portfolio;
pub mod program;
pub mod program_certificate;
pub mod progress;
pub mod registry;
mod report;
pub mod skeleton;

pub use assume::ComponentAssumption;

pub use checker::{AssumptionSummary, CheckError, Checker, Outcome, Step};
pub use guarantor_certify as certify;
pub use guarantor_circ as circ;
pub use guarantor_compose as compose;
pub use guarantor_compose::BudgetKind;
pub use guarantor_compose::method::{Method, MethodError, MethodReport, Problem};
/// The distributed engine (feature `dist`): its method [`Distributed`](guarantor_dist::Distributed)
/// is the registry's `dist`, or a value with its processes given to [`Checker::with_method`].
#[cfg(feature = "dist")]
pub use guarantor_dist as dist;
pub use guarantor_fsp as fsp;
pub use guarantor_lstar as lstar;
pub use guarantor_ltl as ltl;
pub use guarantor_lts as lts;
pub use guarantor_predabs as predabs;
pub use guarantor_quotient as quotient;
pub use guarantor_view as view;
pub use phase::{Phase, Question};
pub use portfolio::Portfolio;
pub use registry::MethodKind;

/// The example of this crate's README.md, compiled and run as a doc-test so it cannot rot (the
/// workspace README's examples run as doc-tests of the unpublished `guarantor-testkit`, so that
/// this package reads no file outside itself).
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

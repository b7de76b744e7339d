//! The `guarantor` command-line tool: loads models, runs a [`guarantor::Checker`], prints the
//! verdict as text or one JSON object, and exits with a code scripts can rely on.
//!
//! Exit codes: 0 holds, 1 violated or deadlocked (deadlocks are searched by default on FSP input,
//! as LTSA's Check Safety, and with `--deadlock` on .aut input), 2 bad input or usage, or nothing to
//! check (no property, no ERROR state, no deadlock search), 3 budget exceeded. clap already exits
//! with 2 on usage errors, which is why bad input uses 2 as well.

mod assert_check;
#[cfg(feature = "dist")]
mod dist;
#[cfg(not(feature = "dist"))]
#[path = "no_dist.rs"]
mod dist;
mod hide;
mod html;
mod learn;
mod methods;
mod output;
mod program;
mod progress;
mod progress_check;
mod stdout;
mod verify;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::Context;
use clap::{Parser, Subcommand, ValueEnum};
use guarantor::compose::{Config, Storage, compose};
use guarantor::fsp::System;
use guarantor::lts::io::aut::{AutWriteOptions, write_aut};
use guarantor::lts::io::dot::{DotOptions, write_dot};
use guarantor::lts::{ComponentId, Lts};
use guarantor::{CheckError, Checker, MethodKind, model, registry};

use crate::output::{Report, print_report};
use crate::progress::Progress;
use serde_json::Value;

/// Compositional verification of labelled transition systems.
#[derive(Debug, Parser)]
#[command(name = "guarantor", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Checks components against safety properties.
    Check(Box<CheckArgs>),
    /// Writes the composed LTS of an FSP composite (or of .aut components) as .aut or DOT.
    Export(ExportArgs),
    /// Prints an assumption about the rest of the system under which one component satisfies
    /// the properties: the weakest one (learned) or its quotient.
    Assume(AssumeArgs),
    /// Re-checks a certificate (`check --certificate`), or a proof skeleton written by hand
    /// (`--skeleton`: the rule and each assumption's .aut file or FSP process), against the model
    /// the inputs give: exit 0 valid, 1 invalid (the failing premise and its counterexample), 2
    /// bad input (unreadable, wrong format or version, a certificate for another model, an
    /// assumption that does not load).
    Verify(verify::VerifyArgs),
    /// Writes LTSA's animator as one self-contained HTML page: click the actions the composite
    /// can take, see every component's current state in its drawing, undo; the product is
    /// computed in the page step by step. Open it with `#trace=a,b,c` to start from a run.
    Animate(html::AnimateArgs),
    /// Learns the Mealy machine (or DFA) of a simulated black box given in AALpy's DOT format,
    /// with L# or L*, and reports the queries, steps and resets it took.
    Learn(learn::LearnArgs),
}

/// How `assume` computes the assumption.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
enum AssumeMethod {
    /// The weakest assumption, learned by L* with a W-method conformance oracle.
    #[default]
    Lstar,
    /// The quotient of the component (Finkbeiner, Schewe, Brill), with its state classes.
    Quotient,
}

#[derive(Debug, clap::Args)]
struct AssumeArgs {
    /// An FSP model (.lts, .fsp), or .aut components with their properties given by
    /// `--property`.
    #[arg(required = true, value_name = "MODEL")]
    inputs: Vec<PathBuf>,
    /// .aut input: a safety property (a deterministic LTS in an .aut file); may be repeated.
    #[arg(long = "property", short = 'p', value_name = "FILE")]
    properties: Vec<PathBuf>,
    /// The composite (default: the last in the file, or LTSA's DEFAULT in a file without
    /// composites).
    #[arg(long)]
    target: Option<String>,
    /// Gives a `const` of the model another value (repeatable): `--const N=4`.
    #[arg(long = "const", value_name = "NAME=VALUE", value_parser = parse_const)]
    consts: Vec<(String, i64)>,
    /// The component the assumption is for, by name or number.
    #[arg(long, value_name = "NAME")]
    component: String,
    /// How to compute it.
    #[arg(long, value_enum, default_value_t = AssumeMethod::Lstar)]
    method: AssumeMethod,
    /// Write Graphviz DOT instead of Aldebaran .aut.
    #[arg(long)]
    dot: bool,
    /// lstar: how many states beyond each conjecture the conformance test explores.
    #[arg(long, default_value_t = 2)]
    extra_states: usize,
}

#[derive(Debug, clap::Args)]
struct ExportArgs {
    /// An FSP model (.lts or .fsp), or several .aut components.
    #[arg(required = true, value_name = "MODEL")]
    inputs: Vec<PathBuf>,
    /// The composite to export (FSP only; default: the last composite in the file, or LTSA's
    /// DEFAULT, every process composed, in a file without composites).
    #[arg(long)]
    target: Option<String>,
    /// FSP: gives a `const` of the model another value (repeatable): `--const N=4`.
    #[arg(long = "const", value_name = "NAME=VALUE", value_parser = parse_const)]
    consts: Vec<(String, i64)>,
    /// Write Aldebaran .aut (the default).
    #[arg(long, conflicts_with = "dot")]
    aut: bool,
    /// Write Graphviz DOT.
    #[arg(long)]
    dot: bool,
    /// Give up (exit code 3) after building this many states.
    #[arg(long, value_name = "N")]
    max_states: Option<usize>,
    /// Hide these actions in the composed LTS: they become tau. LTSA's set syntax, with the
    /// model's constants, ranges and sets: `{send, ack}`, `{phil[i:0..2].eat}`, a `set` name,
    /// or the labels without braces (`send,ack`); repeatable. A label also hides the actions it
    /// prefixes (`a` hides `a.1`), and a label that hides nothing is reported on stderr.
    #[arg(long, value_name = "SET")]
    hide: Vec<String>,
    /// Minimise the composed LTS (after --hide) by observational equivalence, as LTSA's
    /// Minimise does.
    #[arg(long, visible_alias = "minimize")]
    minimise: bool,
}

/// How results are printed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
enum Format {
    /// Human-readable lines.
    #[default]
    Text,
    /// One JSON object on stdout.
    Json,
}

// Command-line flags are independent switches; an enum per flag would only obscure them.
#[allow(clippy::struct_excessive_bools)]
#[derive(Debug, clap::Args)]
struct CheckArgs {
    /// Component LTSs (Aldebaran .aut files), composed in parallel; or one FSP model (.lts, .fsp)
    /// whose target composite gives the components and properties; or one guarded-command
    /// program (.gc), checked by predicate abstraction with `--method` on the abstract system.
    #[arg(required = true, value_name = "COMPONENT")]
    components: Vec<PathBuf>,
    /// The composite to check (FSP only; default: the last composite in the file, or LTSA's
    /// DEFAULT, every process composed, in a file without composites; LTSA's window selects the
    /// alphabetically first target, so name it when it matters).
    #[arg(long)]
    target: Option<String>,
    /// FSP: gives a `const` of the model another value (repeatable): `--const N=4` checks the
    /// model as if it said `const N = 4`.
    #[arg(long = "const", value_name = "NAME=VALUE", value_parser = parse_const)]
    consts: Vec<(String, i64)>,
    /// A safety property (a deterministic LTS in an .aut file); may be repeated.
    #[arg(long = "property", short = 'p', value_name = "FILE")]
    properties: Vec<PathBuf>,
    /// The method: mono, lstar, lstar-sym, lstar-nway, lstar-weakest, quotient, circ,
    /// circ-neighbours or auto (the registry's names); see docs/methods.md.
    #[arg(long, default_value = "mono", value_parser = parse_method)]
    method: MethodChoice,
    /// lstar, circ --two-way: the components of the first group, by name or number (from 0),
    /// comma-separated; the rest form the second group.
    #[arg(long, value_name = "NAMES")]
    split: Option<String>,
    /// lstar-nway: compute each level's weakest assumption instead of learning it.
    #[arg(long)]
    weakest: bool,
    /// lstar, lstar-sym, lstar-nway: the learning algorithm, L* or L#.
    #[arg(long, value_enum, default_value_t)]
    learner: methods::Learner,
    /// circ: two groups (see --split) instead of one assumption per component.
    #[arg(long)]
    two_way: bool,
    /// circ: use the completeness alphabets from the start instead of refining. lstar,
    /// lstar-nway: learn over the whole interface alphabet from the start instead of refining
    /// it from the property's actions.
    #[arg(long)]
    no_alphabet_refinement: bool,
    /// circ: which guarantees each premise may assume.
    #[arg(long, value_enum, default_value_t = PremisePolicy::All)]
    premise_policy: PremisePolicy,
    /// circ: try the components' own projections onto the guarantee alphabet (minimised) as
    /// guarantees while none has more than N states, refining the alphabet until the property
    /// holds or a counterexample is real; 0 synthesises every guarantee by SAT.
    #[arg(long, value_name = "N", default_value_t = methods::DEFAULT_MAX_PROJECTION_STATES)]
    max_projection_states: usize,
    /// quotient: the component to replace by its quotient, by name or number; default: the
    /// largest.
    #[arg(long, value_name = "NAME")]
    component: Option<String>,
    /// quotient: the most refinement steps of the modal abstraction.
    #[arg(long, value_name = "K")]
    max_steps: Option<usize>,
    /// quotient: split the chosen block of the abstraction on every useful edge at once (fewer,
    /// larger refinement steps) instead of on one edge per step.
    #[arg(long)]
    split_all: bool,
    /// quotient: the exact construction over the whole rest of the system (no abstraction, no
    /// refinement steps).
    #[arg(long, conflicts_with = "split_all")]
    exact: bool,
    /// quotient: run the paper's refinement loop to the end, even where it costs more than the
    /// exact construction (by default the loop hands over to it once its steps have cost half
    /// as much as the exact construction is estimated to).
    #[arg(long, conflicts_with = "exact")]
    no_exact_fallback: bool,
    /// No progress messages on stderr.
    #[arg(long, short = 'q')]
    quiet: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Give up (exit code 3) after exploring this many states.
    #[arg(long, value_name = "N")]
    max_states: Option<usize>,
    /// Give up (exit code 3) after this many seconds.
    #[arg(long, value_name = "SECONDS")]
    timeout: Option<f64>,
    /// Give up (exit code 3) before the process's resident memory passes SIZE: bytes, or with a
    /// suffix K, M, G or T (powers of 1024), as in 512M or 2G. Linux only (elsewhere no limit).
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    max_memory: Option<u64>,
    /// Threads to use (default: every core). Breadth-first searches expand wide levels on all of
    /// them, the learners answer membership batches on them; verdicts, counts and
    /// counterexamples do not depend on the number.
    #[arg(long, value_name = "N")]
    threads: Option<std::num::NonZeroUsize>,
    /// How the safety and deadlock searches keep visited states: `compact` (the default: 13-17
    /// bytes per state where a state packs into 74 bits, the table beyond) or `table` (45-75
    /// bytes per state, faster on several threads); both on every thread `--threads` allows. With
    /// `--processes` or `--hostfile`, the store of each process's share of the states.
    /// Verdicts, counts and counterexamples are the same.
    #[arg(long, value_enum, default_value_t = StorageChoice::Compact)]
    storage: StorageChoice,
    /// LTSA's Check > Progress instead of the safety check: every progress test the FSP model
    /// declares, in one search, or the default progress property (every action can always
    /// eventually occur) when it declares none; `--progress NAME` checks one test (`P.v` for a
    /// value of `progress P[i:R]`, `P` for all of them). Exit 0 passes, 1 violated.
    #[arg(long, value_name = "NAME", num_args = 0..=1, default_missing_value = "")]
    progress: Option<String>,
    /// LTSA's Check > LTL property: the FSP model's `assert NAME` (with its fluents) instead of
    /// the safety check. A safety formula is checked as a property by `--method` (any method);
    /// another under fair choice through the Büchi automaton of its negation, with a lasso.
    /// Exit 0 holds, 1 violated.
    #[arg(long = "assert", value_name = "NAME", conflicts_with = "progress")]
    assertion: Option<String>,
    /// Also search for deadlocks (reachable states with no outgoing transition, not every
    /// component terminated): the default for an FSP model (LTSA's Check Safety); .aut
    /// components are checked against their properties alone unless this is given.
    #[arg(long)]
    deadlock: bool,
    /// FSP: check the properties and ERROR states only, no deadlock search.
    #[arg(long, conflicts_with = "deadlock")]
    no_deadlock: bool,
    /// mono: the search order. bfs gives shortest counterexamples; dfs (as SPIN) stops at the
    /// first violation on its search path, far sooner when violations are deep, with a longer
    /// counterexample. Verdicts are the same.
    #[arg(long, value_enum, default_value_t = Search::Bfs)]
    search: Search,
    /// dist (mono is accepted), bfs only: run the check on the distributed engine in N local processes on
    /// 127.0.0.1. This process is process 0: it starts the N-1 others itself (copies of this
    /// executable), prints the result once and waits for them. Verdict, counts and
    /// counterexample length are those of the plain check.
    #[arg(long, value_name = "N", conflicts_with = "hostfile")]
    processes: Option<std::num::NonZeroUsize>,
    /// dist (mono is accepted), bfs only: run as one process of a cluster across machines. FILE lists the
    /// host:port of every process, one a line (the same file everywhere); start one process per
    /// line, each with its --process-index. Process 0 prints the result.
    #[arg(long, value_name = "FILE")]
    hostfile: Option<PathBuf>,
    /// With --hostfile: this process's line of the hostfile, from 0.
    #[arg(long, value_name = "I")]
    process_index: Option<usize>,
    /// With --processes, --hostfile or --method dist: worker threads per process (default 1).
    #[arg(long, value_name = "W")]
    workers: Option<std::num::NonZeroUsize>,
    /// Internal, set by --processes for the processes it starts: every process's address.
    #[arg(long, hide = true, value_delimiter = ',', value_name = "ADDRESSES")]
    cluster_addresses: Vec<String>,
    /// mono or dist (--processes, --hostfile), bfs, safety and deadlock: write a checkpoint of
    /// the search into DIR (created if missing; a checkpoint already there is replaced) every
    /// --checkpoint-every seconds, from which --resume DIR continues after the check was stopped
    /// or killed. A distributed check writes one part per worker (DIR/dist-W) at the end of a
    /// level, and keeps the previous level's until every worker has the new one.
    #[arg(long, value_name = "DIR", conflicts_with = "resume")]
    checkpoint: Option<PathBuf>,
    /// With --checkpoint or --resume: seconds between two checkpoints.
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0)]
    checkpoint_every: f64,
    /// mono or dist, bfs: continue the check from the checkpoint in DIR, and go on writing
    /// checkpoints there. The model, --const values and deadlock options must be those of the
    /// run that wrote it, and so must this program's version (otherwise exit 2); budgets, threads
    /// and storage may differ. A distributed check resumes from the last level every worker
    /// completed and needs the same number of workers over all processes (--processes times
    /// --workers); every process of the killed run must have exited first. Verdict, counts and
    /// counterexample are those of an uninterrupted check.
    #[arg(long, value_name = "DIR")]
    resume: Option<PathBuf>,
    /// Accept .aut files whose header declares a different number of transitions than they have
    /// (some LTSA exports do); every other check stays strict.
    #[arg(long)]
    lenient: bool,
    /// Write the verdict's certificate (JSON, docs/formats.md "Certificates"), which `guarantor
    /// verify` re-checks.
    #[arg(long, value_name = "FILE")]
    certificate: Option<PathBuf>,
    /// Write each assumption of a holds as an .aut file into this directory.
    #[arg(long, value_name = "DIR")]
    emit_assumptions: Option<PathBuf>,
    /// Also write the report as one self-contained HTML page: the verdict, the counterexample as
    /// a message sequence chart, every component, property and assumption drawn with the path,
    /// and an animator (the safety check, --progress and --assert alike).
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
}

/// How visited states are kept (`--storage`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
enum StorageChoice {
    /// A hash table beside the tuples in discovery order.
    Table,
    /// Compact hashing, only the frontier's tuples kept.
    #[default]
    Compact,
}

/// The search order of the monolithic check.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
enum Search {
    /// Breadth first: shortest counterexamples.
    #[default]
    Bfs,
    /// Depth first: deep violations sooner, longer counterexamples.
    Dfs,
}

/// Which guarantees a circular premise may assume.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
enum PremisePolicy {
    /// Every other component's guarantee (the paper's default).
    #[default]
    All,
    /// Only those of components sharing actions.
    Neighbours,
}

/// A method named on the command line: a built-in kind, which the method flags (`--split`,
/// `--premise-policy`, ...) configure, or another entry of the facade's registry, run with its
/// defaults.
#[derive(Clone, Copy, Debug)]
enum MethodChoice {
    Kind(MethodKind),
    Registry(&'static str),
}

impl MethodChoice {
    fn name(self) -> &'static str {
        match self {
            Self::Kind(kind) => kind.name(),
            Self::Registry(name) => name,
        }
    }
}

/// `NAME=VALUE` of `--const`.
/// A memory size: a number of bytes, optionally with a binary suffix (`K`, `M`, `G`, `T`, with
/// or without a trailing `B` or `iB`).
fn parse_size(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let upper = t.to_ascii_uppercase();
    let number = upper.trim_end_matches("IB").trim_end_matches('B');
    let (digits, shift) = match number.chars().last() {
        Some('K') => (&number[..number.len() - 1], 10),
        Some('M') => (&number[..number.len() - 1], 20),
        Some('G') => (&number[..number.len() - 1], 30),
        Some('T') => (&number[..number.len() - 1], 40),
        _ => (number, 0),
    };
    let value: u64 = digits
        .trim()
        .parse()
        .map_err(|_| format!("{t:?} is not a size such as 512M or 2G"))?;
    value
        .checked_mul(1u64 << shift)
        .filter(|&b| b > 0)
        .ok_or_else(|| format!("{t:?} is not a size between 1 byte and 16 EiB"))
}

pub(crate) fn parse_const(text: &str) -> Result<(String, i64), String> {
    let (name, value) = text
        .split_once('=')
        .ok_or_else(|| format!("expected NAME=VALUE, found {text:?}"))?;
    let value = value
        .trim()
        .parse::<i64>()
        .map_err(|e| format!("{:?} is not an integer: {e}", value.trim()))?;
    Ok((name.trim().to_owned(), value))
}

fn parse_method(name: &str) -> Result<MethodChoice, String> {
    if let Some(kind) = MethodKind::from_name(name) {
        return Ok(MethodChoice::Kind(kind));
    }
    registry::BUILTIN
        .iter()
        .find(|e| e.name == name)
        .map(|e| MethodChoice::Registry(e.name))
        .ok_or_else(|| {
            let names: Vec<&str> = registry::BUILTIN.iter().map(|e| e.name).collect();
            format!("unknown method {name:?} (available: {})", names.join(", "))
        })
}

/// Resolves a component named by its name or its number.
fn component_index(checker: &Checker, what: &str) -> Result<ComponentId, Failure> {
    let by_name = checker.components().position(|(n, _)| n == what);
    by_name
        .or_else(|| {
            what.parse::<usize>()
                .ok()
                .filter(|&i| i < checker.components().len())
        })
        .map(ComponentId::must)
        .ok_or_else(|| {
            let names: Vec<&str> = checker.components().map(|(n, _)| n).collect();
            input_error(anyhow::anyhow!(
                "no component {what:?} (components: {})",
                names.join(", ")
            ))
        })
}

/// The two ways a run can end besides a verdict.
#[derive(Debug)]
pub(crate) enum Failure {
    /// Bad input: exit 2.
    Input(anyhow::Error),
    /// A budget ran out: exit 3.
    Budget(anyhow::Error),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Check(args) => check(&args),
        Command::Export(args) => run_export(&args),
        Command::Assume(args) => run_assume(&args),
        Command::Verify(args) => verify::run_verify(&args),
        Command::Learn(args) => learn::run_learn(&args),
        Command::Animate(args) => html::run_animate(&args),
    };
    match result {
        // The reason is already on stderr (see the `stdout` module).
        Ok(_) if stdout::failed() => ExitCode::from(2),
        Ok(code) => code,
        Err(Failure::Input(e)) => {
            eprintln!("{}", output::error_text(&e));
            ExitCode::from(2)
        }
        Err(Failure::Budget(e)) => {
            eprintln!("budget exceeded: {}", output::causes_text(&e));
            ExitCode::from(3)
        }
    }
}

pub(crate) fn input_error(e: impl Into<anyhow::Error>) -> Failure {
    Failure::Input(e.into())
}

pub(crate) fn load(path: &Path, lenient: bool) -> Result<Lts, Failure> {
    model::load_aut(path, lenient).map_err(input_error)
}

/// The single FSP model among the inputs, if the inputs are one.
pub(crate) fn fsp_input(inputs: &[PathBuf]) -> Result<Option<&Path>, Failure> {
    match inputs {
        [one] if model::is_fsp_path(one) => Ok(Some(one)),
        many if many.iter().any(|p| model::is_fsp_path(p)) => Err(input_error(anyhow::anyhow!(
            "an FSP model (.lts, .fsp) must be the only input; name its composite with --target"
        ))),
        _ => Ok(None),
    }
}

/// Prints each warning once per source location: an indexed process can repeat the same warning
/// for thousands of index values, and one line with a count says as much.
fn print_warnings(system: &System) {
    for (w, count) in output::warning_groups(&system.warnings) {
        eprintln!("{w}");
        if count > 1 {
            eprintln!("  (and {} more warnings at this place)", count - 1);
        }
    }
}

/// Loads an FSP model with `--const` values, printing its warnings unless `quiet`.
fn load_fsp_with(
    path: &Path,
    target: Option<&str>,
    quiet: bool,
    consts: &[(String, i64)],
) -> Result<System, Failure> {
    let consts: Vec<(&str, i64)> = consts.iter().map(|(n, v)| (n.as_str(), *v)).collect();
    let system = model::load_fsp_with(path, target, &consts).map_err(input_error)?;
    if !quiet {
        print_warnings(&system);
    }
    Ok(system)
}

pub(crate) fn display_name(path: &Path) -> String {
    path.file_stem().map_or_else(
        || path.display().to_string(),
        |s| s.to_string_lossy().into_owned(),
    )
}

fn config_of(args: &CheckArgs) -> Result<Config, Failure> {
    let mut config = Config::default();
    if let Some(n) = args.max_states {
        config = config.with_max_states(n);
    }
    if let Some(n) = args.threads {
        config = config.with_threads(n);
    }
    if let Some(bytes) = args.max_memory {
        config = config.with_max_memory(bytes);
    }
    config = config.with_storage(match args.storage {
        StorageChoice::Table => Storage::Table,
        StorageChoice::Compact => Storage::Compact,
    });
    if let Some(secs) = args.timeout {
        let d = Duration::try_from_secs_f64(secs)
            .context("--timeout must be a non-negative number of seconds")
            .map_err(Failure::Input)?;
        config = config.with_timeout(d);
    }
    Ok(config)
}

fn classify(e: CheckError) -> Failure {
    if e.is_budget() {
        Failure::Budget(e.into())
    } else {
        Failure::Input(e.into())
    }
}

/// Whether `check` searches for deadlocks: by default for an FSP model (LTSA's Check Safety),
/// with `--deadlock` for .aut components; never with `--no-deadlock`.
fn deadlock_search(args: &CheckArgs) -> bool {
    !args.no_deadlock && (args.deadlock || fsp_check(args))
}

/// Whether `check`'s input is one FSP model.
fn fsp_check(args: &CheckArgs) -> bool {
    matches!(args.components.as_slice(), [one] if model::is_fsp_path(one))
}

/// The checker of `check`'s inputs; the FSP warnings, for the JSON object, into `warnings`, and
/// the definitions the check does not cover (`progress P`, `assert A`) into `unchecked`.
fn checker_of(
    args: &CheckArgs,
    config: &Config,
    warnings: &mut Vec<Value>,
    unchecked: &mut Vec<String>,
) -> Result<Checker, Failure> {
    let mut checker = match fsp_input(&args.components)? {
        Some(path) => {
            let system = load_fsp_with(path, args.target.as_deref(), args.quiet, &args.consts)?;
            *warnings = output::warnings_json(&system.warnings);
            *unchecked = system.unchecked.iter().map(ToString::to_string).collect();
            Checker::from_fsp(&system, config).map_err(classify)?
        }
        None => {
            if args.target.is_some() {
                return Err(input_error(anyhow::anyhow!("--target needs an FSP model")));
            }
            let mut checker = Checker::new();
            for path in &args.components {
                checker = checker.component(display_name(path), load(path, args.lenient)?);
            }
            checker
        }
    };
    for path in &args.properties {
        checker = checker.property(display_name(path), load(path, args.lenient)?);
    }
    let checker = with_chosen_method(checker, args)?;
    // The library searches for deadlocks whatever the method (in the method's own run, or in a
    // deadlock phase of its own after a method that reasons about traces): `Checker::check`.
    Ok(checker
        .deadlock(deadlock_search(args))
        .config(config.clone()))
}

/// `checker` with the method `--method` names (and its settings from the other options).
pub(crate) fn with_chosen_method(checker: Checker, args: &CheckArgs) -> Result<Checker, Failure> {
    Ok(match args.method {
        MethodChoice::Kind(kind) => {
            let method = methods::method_of(kind, args, &checker)?;
            checker.with_method(method)
        }
        MethodChoice::Registry(name) => match registry::method_named(name) {
            Some(method) => checker.with_method(method),
            None => return Err(input_error(anyhow::anyhow!("unknown method {name:?}"))),
        },
    })
}

/// `guarantor check`: with `--format json`, a run that ends without a verdict prints its one
/// object too (`unknown` for a budget, `error` for bad input) before exiting with 3 or 2.
fn check(args: &CheckArgs) -> Result<ExitCode, Failure> {
    let started = Instant::now();
    let mut warnings = Vec::new();
    match run_check(args, &mut warnings, &mut Vec::new()) {
        Err(failure) if args.format == Format::Json => {
            let program = matches!(args.components.as_slice(), [one] if one.extension().is_some_and(|e| e == "gc"));
            let method = if program {
                format!("predabs+{}", args.method.name())
            } else {
                args.method.name().to_owned()
            };
            let mut v = output::failure_json(
                &failure,
                &method,
                started.elapsed(),
                args.timeout,
                &warnings,
            );
            add_peak_memory(&mut v);
            stdout::outln!("{v}");
            Ok(ExitCode::from(match failure {
                Failure::Input(_) => 2,
                Failure::Budget(_) => 3,
            }))
        }
        result => result,
    }
}

/// The process's peak resident set so far (`peak_rss_bytes`), where the platform reports it.
fn add_peak_memory(v: &mut Value) {
    if let Some(peak) = guarantor::compose::memory::peak_resident_bytes() {
        v["peak_rss_bytes"] = serde_json::json!(peak);
    }
}

fn run_check(
    args: &CheckArgs,
    warnings: &mut Vec<Value>,
    unchecked: &mut Vec<String>,
) -> Result<ExitCode, Failure> {
    // One clock for the whole run: loading (FSP elaboration composes too) and checking share the
    // --timeout, and the time reported is the time the run took.
    let started = Instant::now();
    let config = config_of(args)?.started();
    let distributed = dist::Mode::of(args)?;
    // The distributed modes accept mono and dist only, and refuse --progress and --assert.
    if (args.checkpoint.is_some() || args.resume.is_some())
        && ((args.method.name() != "mono" && distributed.is_none())
            || args.progress.is_some()
            || args.assertion.is_some())
    {
        return Err(input_error(anyhow::anyhow!(
            "--checkpoint and --resume work with the safety and deadlock search only: --method mono, or the distributed engine (--processes, --hostfile, --method dist); not --progress, --assert or another method"
        )));
    }
    if let [one] = args.components.as_slice()
        && one.extension().is_some_and(|e| e == "gc")
    {
        if distributed.is_some() {
            return Err(input_error(anyhow::anyhow!(
                "--processes and --hostfile check models, not programs (.gc)"
            )));
        }
        let MethodChoice::Kind(kind) = args.method else {
            return Err(input_error(anyhow::anyhow!(
                "programs are checked with mono, lstar, lstar-sym, lstar-nway, quotient, circ or auto"
            )));
        };
        let (config, _progress) = Progress::start(config, args.method.name(), args.quiet);
        return program::run(
            one,
            kind,
            args.split.as_deref(),
            args.weakest,
            &config,
            args.format == Format::Json,
            args.certificate.as_deref(),
        );
    }
    if let Some(name) = &args.progress {
        return progress_check::run(args, name, &config, warnings);
    }
    if let Some(name) = &args.assertion {
        return assert_check::run(args, name, &config, warnings);
    }
    let checker = checker_of(args, &config, warnings, unchecked)?;
    let (config, progress) = Progress::start(config, args.method.name(), args.quiet);
    let checker = checker.config(config);
    let outcome = match &distributed {
        Some(mode) => mode.run(&checker, methods::checkpointing(args)?.as_ref()),
        None => checker.check().map_err(classify),
    };
    let store_bytes = progress.seen().largest_store_bytes;
    drop(progress);
    let outcome = outcome?;
    if distributed.as_ref().is_some_and(|m| !m.prints()) {
        // Another process of the cluster reports; this one only exits with the verdict's code.
        return Ok(ExitCode::from(Report::new(&outcome).exit_code()));
    }
    if !args.quiet {
        for (method, why) in &output::tried(&outcome) {
            eprintln!("{method}: {why}");
        }
        for note in outcome.notes.iter().filter(|n| n.starts_with("note: ")) {
            eprintln!("{note}");
        }
    }
    let searched = deadlock_search(args);
    let report = Report::new(&outcome)
        .with_unchecked(unchecked)
        .with_wall_time(started.elapsed());
    let code = report.exit_code();
    if args.format == Format::Text {
        print_report(&report);
        write_evidence(args, &checker, &outcome)?;
        return Ok(ExitCode::from(code));
    }
    // One object whatever happens: the evidence is written first, and a failure to write it
    // becomes the object's `error` (exit 2) beside the verdict.
    let written = write_evidence(args, &checker, &outcome);
    let certificate = args.certificate.as_deref().filter(|_| written.is_ok());
    let mut v = output::check_json(&outcome, searched, warnings, certificate);
    // The time a user waited: loading and elaborating the model, and every phase.
    v["seconds"] = serde_json::json!(started.elapsed().as_secs_f64());
    if fsp_check(args) {
        v["not_checked"] = serde_json::json!(unchecked);
    }
    add_peak_memory(&mut v);
    if store_bytes > 0 {
        v["store_bytes"] = serde_json::json!(store_bytes);
    }
    let code = match written {
        Ok(()) => code,
        Err(Failure::Input(e) | Failure::Budget(e)) => {
            v["error"] = output::error_json(&e);
            2
        }
    };
    stdout::outln!("{v}");
    Ok(ExitCode::from(code))
}

/// `--certificate`, `--emit-assumptions` and `--html`.
fn write_evidence(
    args: &CheckArgs,
    checker: &Checker,
    outcome: &guarantor::Outcome,
) -> Result<(), Failure> {
    if let Some(path) = &args.certificate {
        verify::write_certificate(checker, outcome, path)?;
    }
    if let Some(dir) = &args.emit_assumptions {
        verify::emit_assumptions(checker, outcome, dir)?;
    }
    if let Some(path) = &args.html {
        let title = html::question(&args.components, args.target.as_deref());
        html::write(
            checker.report(outcome, &title),
            args.certificate.as_deref(),
            path,
        )?;
    }
    Ok(())
}

fn write_lts(lts: &Lts, dot: bool) {
    let out = std::io::stdout().lock();
    let written = if dot {
        write_dot(lts, out, &DotOptions::default())
    } else {
        write_aut(lts, out, &AutWriteOptions::default())
    };
    stdout::settle(written);
}

/// The checker of a command that takes an FSP model (with `--target` and `-D` constants) or
/// `.aut` components, and `.aut` properties: `assume` and `animate`.
pub(crate) fn checker_of_inputs(
    inputs: &[PathBuf],
    target: Option<&str>,
    consts: &[(String, i64)],
    properties: &[PathBuf],
) -> Result<Checker, Failure> {
    let mut checker = match fsp_input(inputs)? {
        Some(path) => {
            let system = load_fsp_with(path, target, false, consts)?;
            Checker::from_fsp(&system, &Config::default()).map_err(classify)?
        }
        None => {
            if target.is_some() {
                return Err(input_error(anyhow::anyhow!("--target needs an FSP model")));
            }
            let mut checker = Checker::new();
            for path in inputs {
                checker = checker.component(display_name(path), load(path, false)?);
            }
            checker
        }
    };
    for path in properties {
        checker = checker.property(display_name(path), load(path, false)?);
    }
    Ok(checker)
}

fn run_assume(args: &AssumeArgs) -> Result<ExitCode, Failure> {
    let checker = checker_of_inputs(
        &args.inputs,
        args.target.as_deref(),
        &args.consts,
        &args.properties,
    )?;
    let component = component_index(&checker, &args.component)?;
    match args.method {
        AssumeMethod::Lstar => {
            let lts = checker
                .weakest_assumption(component, args.extra_states, &Config::default())
                .map_err(classify)?;
            write_lts(&lts, args.dot);
        }
        AssumeMethod::Quotient => {
            let qc = guarantor::quotient::QuotientConfig::new();
            let a = checker
                .quotient_assumption(component, &qc)
                .map_err(classify)?;
            write_lts(&a.lts, args.dot);
            // The class of each state of the component, on stderr so stdout stays one LTS.
            for (state, class) in a.classes.iter().flatten().enumerate() {
                eprintln!("state {state} -> class {class}");
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn run_export(args: &ExportArgs) -> Result<ExitCode, Failure> {
    let mut config = Config::default();
    if let Some(n) = args.max_states {
        config = config.with_max_states(n);
    }
    let lts = match fsp_input(&args.inputs)? {
        Some(path) => {
            let system = load_fsp_with(path, args.target.as_deref(), false, &args.consts)?;
            model::compose_fsp(&system, &config).map_err(|e| classify(e.into()))?
        }
        None => {
            let parts: Vec<Lts> = args
                .inputs
                .iter()
                .map(|p| load(p, false))
                .collect::<Result<_, _>>()?;
            let refs: Vec<&Lts> = parts.iter().collect();
            compose(&refs, &config).map_err(|e| classify(e.into()))?
        }
    };
    let lts = if args.hide.is_empty() {
        lts
    } else {
        let hidden = hide::hidden_actions(&args.hide, &args.inputs, &args.consts, &lts)?;
        guarantor::lts::ops::hide(&lts, hidden.iter().map(String::as_str))
    };
    let lts = if args.minimise {
        guarantor::lts::ops::minimize_weak(&lts)
    } else {
        lts
    };
    write_lts(&lts, args.dot);
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::parse_size;

    #[test]
    fn sizes_parse_with_binary_suffixes_and_bad_ones_do_not() {
        assert_eq!(parse_size("4096"), Ok(4096));
        assert_eq!(parse_size("512M"), Ok(512 << 20));
        assert_eq!(parse_size("2G"), Ok(2 << 30));
        assert_eq!(parse_size("2gib"), Ok(2 << 30));
        assert_eq!(parse_size("64KB"), Ok(64 << 10));
        for bad in ["", "M", "0", "-1G", "1.5G", "2X", "99999999999T"] {
            assert!(parse_size(bad).is_err(), "{bad}");
        }
    }
}

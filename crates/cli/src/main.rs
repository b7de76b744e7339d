//! The `guarantor` command-line tool: loads models, runs a [`guarantor::Checker`], prints the
//! verdict as text or one JSON object, and exits with a code scripts can rely on.
//!
//! Exit codes: 0 holds, 1 violated (or deadlock with `--deadlock`), 2 bad input or usage, 3 budget
//! exceeded. clap already exits with 2 on usage errors, which is why bad input uses 2 as well.

mod output;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context;
use clap::{Parser, Subcommand, ValueEnum};
use guarantor::compose::{Config, find_deadlock};
use guarantor::lts::Lts;
use guarantor::lts::io::aut::{AutReadOptions, read_aut_file_with};
use guarantor::{CheckError, Checker, Method};

use crate::output::{Report, print_report};

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
    Check(CheckArgs),
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

#[derive(Debug, clap::Args)]
struct CheckArgs {
    /// Component LTSs (Aldebaran .aut files), composed in parallel.
    #[arg(required = true, value_name = "COMPONENT")]
    components: Vec<PathBuf>,
    /// A safety property (a deterministic LTS in an .aut file); may be repeated.
    #[arg(long = "property", short = 'p', value_name = "FILE")]
    properties: Vec<PathBuf>,
    /// The verification method.
    #[arg(long, default_value = "mono", value_parser = parse_method)]
    method: Method,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Give up (exit code 3) after exploring this many states.
    #[arg(long, value_name = "N")]
    max_states: Option<usize>,
    /// Give up (exit code 3) after this many seconds.
    #[arg(long, value_name = "SECONDS")]
    timeout: Option<f64>,
    /// Also search for deadlocks (reachable states with no outgoing transition).
    #[arg(long)]
    deadlock: bool,
    /// Accept .aut files whose header declares a different number of transitions than they have
    /// (some LTSA exports do); every other check stays strict.
    #[arg(long)]
    lenient: bool,
}

fn parse_method(name: &str) -> Result<Method, String> {
    Method::from_name(name).ok_or_else(|| format!("unknown method {name:?} (available: mono)"))
}

/// The three ways a run can end besides a verdict.
#[derive(Debug)]
enum Failure {
    /// Bad input: exit 2.
    Input(anyhow::Error),
    /// A budget ran out: exit 3.
    Budget(anyhow::Error),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Check(args) => match run_check(&args) {
            Ok(code) => code,
            Err(Failure::Input(e)) => {
                eprintln!("error: {e:#}");
                ExitCode::from(2)
            }
            Err(Failure::Budget(e)) => {
                eprintln!("budget exceeded: {e:#}");
                ExitCode::from(3)
            }
        },
    }
}

fn load(path: &Path, lenient: bool) -> Result<Lts, Failure> {
    let opts = AutReadOptions::default().check_transition_count(!lenient);
    read_aut_file_with(path, &opts).map_err(|e| Failure::Input(anyhow::Error::new(e)))
}

fn display_name(path: &Path) -> String {
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

fn run_check(args: &CheckArgs) -> Result<ExitCode, Failure> {
    let config = config_of(args)?;
    let mut checker = Checker::new().method(args.method).config(config.clone());
    let mut components = Vec::new();
    for path in &args.components {
        let lts = load(path, args.lenient)?;
        components.push(lts.clone());
        checker = checker.component(display_name(path), lts);
    }
    for path in &args.properties {
        checker = checker.property(display_name(path), load(path, args.lenient)?);
    }
    let outcome = checker.check().map_err(classify)?;
    let deadlock = if args.deadlock && outcome.verdict.is_holds() {
        let refs: Vec<&Lts> = components.iter().collect();
        find_deadlock(&refs, &config).map_err(|e| classify(e.into()))?
    } else {
        None
    };
    let report = Report::new(&checker, &outcome, deadlock.as_ref(), args.deadlock);
    print_report(&report, args.format == Format::Json);
    Ok(ExitCode::from(report.exit_code()))
}

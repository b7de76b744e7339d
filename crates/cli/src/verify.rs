//! Certificates on the command line: `check --certificate FILE` and `check --emit-assumptions DIR`
//! write a verdict's evidence; `verify --certificate FILE INPUT...` re-checks a certificate with
//! `guarantor-certify`'s checker against the model the inputs give (the same inputs as `check`).
//!
//! `verify` exits 0 if the certificate is accepted, 1 if it is rejected (the failing check on
//! stderr, with the premise and its counterexample), 2 for bad input: an unreadable file, a file
//! that is not a certificate, another format or version, or a certificate for another model.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use guarantor::certify::Rejection;
use guarantor::compose::ag::safety_assumption;
use guarantor::compose::{Config, Verdict};
use guarantor::lts::io::aut::{AutWriteOptions, to_aut_string};
use guarantor::{Checker, Outcome, model};

use crate::{Failure, display_name, fsp_input, input_error, load};

#[derive(Debug, clap::Args)]
pub(crate) struct VerifyArgs {
    /// The certificate (JSON, as `check --certificate` writes it).
    #[arg(long, value_name = "FILE")]
    certificate: PathBuf,
    /// The model, as for `check`: component LTSs (.aut files) or one FSP model (.lts, .fsp).
    #[arg(required = true, value_name = "COMPONENT")]
    components: Vec<PathBuf>,
    /// The composite (FSP only; default: the last composite in the file).
    #[arg(long)]
    target: Option<String>,
    /// A safety property (a deterministic LTS in an .aut file); may be repeated.
    #[arg(long = "property", short = 'p', value_name = "FILE")]
    properties: Vec<PathBuf>,
    /// Accept .aut files whose header declares a different number of transitions than they have.
    #[arg(long)]
    lenient: bool,
}

/// The checker of the inputs, as `check` builds it.
fn checker_of(args: &VerifyArgs) -> Result<Checker, Failure> {
    let mut checker = match fsp_input(&args.components)? {
        Some(one) => {
            let system = model::load_fsp(one, args.target.as_deref()).map_err(input_error)?;
            Checker::from_fsp(&system, &Config::default()).map_err(input_error)?
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
    Ok(checker)
}

/// `guarantor verify`.
pub(crate) fn run_verify(args: &VerifyArgs) -> Result<ExitCode, Failure> {
    let text = std::fs::read_to_string(&args.certificate).map_err(|e| {
        input_error(anyhow::anyhow!(
            "cannot read {}: {e}",
            args.certificate.display()
        ))
    })?;
    let checker = checker_of(args)?;
    let report = checker
        .verify_json(&text)
        .map_err(|e| input_error(anyhow::anyhow!("{}: {e}", args.certificate.display())))?;
    match report.rejection() {
        None => {
            println!(
                "valid: {} certificate, rule {}, {} premises checked, {} states",
                match report.verdict {
                    guarantor::certify::format::VerdictKind::Holds => "holds",
                    _ => "violated",
                },
                report.rule.name(),
                report.premises_checked,
                report.states
            );
            Ok(ExitCode::SUCCESS)
        }
        Some(r @ (Rejection::Model { .. } | Rejection::Fingerprint { .. })) => Err(input_error(
            anyhow::anyhow!("model mismatch: the certificate is not about this model: {r}"),
        )),
        Some(r) => {
            println!("invalid: {r}");
            Ok(ExitCode::from(1))
        }
    }
}

/// `check --certificate FILE`: the outcome's certificate as JSON.
pub(crate) fn write_certificate(
    checker: &Checker,
    outcome: &Outcome,
    path: &Path,
) -> Result<(), Failure> {
    let cert = checker
        .certificate(outcome)
        .map_err(|e| input_error(anyhow::anyhow!("no certificate: {e}")))?;
    let json = cert.to_json().map_err(input_error)?;
    std::fs::write(path, json + "\n")
        .map_err(|e| input_error(anyhow::anyhow!("cannot write {}: {e}", path.display())))
}

/// `check --emit-assumptions DIR`: each assumption of a `holds` as `.aut`, named by its number
/// and the components it stands for (`0-Output.aut`); learned assumptions in their safety
/// reading (without the rejecting sink), a quotient as it is.
pub(crate) fn emit_assumptions(
    checker: &Checker,
    outcome: &Outcome,
    dir: &Path,
) -> Result<(), Failure> {
    let Verdict::Holds(cert) = &outcome.verdict else {
        return Ok(());
    };
    std::fs::create_dir_all(dir)
        .map_err(|e| input_error(anyhow::anyhow!("cannot create {}: {e}", dir.display())))?;
    for (i, a) in cert.assumptions.iter().enumerate() {
        let lts = if a.classes.is_some() {
            a.lts.clone()
        } else {
            safety_assumption(&a.lts).map_err(input_error)?
        };
        let label: String = if a.components.is_empty() {
            "env".to_owned()
        } else {
            a.components
                .iter()
                .map(|&c| checker.component_name(c))
                .collect::<Vec<_>>()
                .join("+")
        };
        let safe: String = label
            .chars()
            .map(|c| {
                if c.is_alphanumeric() || "+-_.".contains(c) {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        let path = dir.join(format!("{i}-{safe}.aut"));
        std::fs::write(&path, to_aut_string(&lts, &AutWriteOptions::default()))
            .map_err(|e| input_error(anyhow::anyhow!("cannot write {}: {e}", path.display())))?;
    }
    Ok(())
}

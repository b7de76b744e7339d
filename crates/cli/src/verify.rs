//! Certificates on the command line: `check --certificate FILE` and `check --emit-assumptions DIR`
//! write a verdict's evidence; `verify --certificate FILE INPUT...` re-checks a certificate with
//! `guarantor-certify`'s checker against the model the inputs give (the same inputs as `check`;
//! a program's certificate is checked by `program::run_verify`, against the program, with an SMT
//! solver);
//! `verify --skeleton FILE INPUT...` does the same for a proof skeleton written by hand (the rule
//! and where each assumption is), expanded into a certificate by the facade first and its derived
//! premises printed before the verdict.
//!
//! `verify` exits 0 if the certificate is accepted, 1 if it is rejected (the failing check on
//! stdout, with the premise and its counterexample), 2 for bad input: an unreadable file, a file
//! that is not a certificate (or skeleton), another format or version, a certificate for another
//! model, or a skeleton whose assumptions cannot be loaded (a missing or malformed `.aut` or FSP
//! file, an unknown process or component, a rule a skeleton cannot use).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use guarantor::CheckError;
use guarantor::certify::format::{Certificate, Guarantee, Premise, VerdictKind};
use guarantor::certify::{Rejection, Report};
use guarantor::compose::ag::safety_assumption;
use guarantor::compose::{Config, Verdict};
use guarantor::lts::io::aut::{AutWriteOptions, to_aut_string};
use guarantor::skeleton::SkeletonFile;
use guarantor::{Checker, Outcome, model};

use crate::{Failure, display_name, fsp_input, input_error, load};

#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("evidence").required(true).args(["certificate", "skeleton"])))]
pub(crate) struct VerifyArgs {
    /// The certificate (JSON, as `check --certificate` writes it).
    #[arg(long, value_name = "FILE")]
    certificate: Option<PathBuf>,
    /// A proof skeleton written by hand (JSON: the rule and, per assumption, the components it
    /// stands for and its .aut file or FSP process; docs/formats.md "Proof skeletons").
    #[arg(long, value_name = "FILE")]
    skeleton: Option<PathBuf>,
    /// With --skeleton: also write the certificate it expands to (which `verify --certificate`
    /// re-checks).
    #[arg(long, value_name = "FILE", requires = "skeleton")]
    write_certificate: Option<PathBuf>,
    /// The model, as for `check`: component LTSs (.aut files), one FSP model (.lts, .fsp) or one
    /// guarded-command program (.gc).
    #[arg(required = true, value_name = "COMPONENT")]
    components: Vec<PathBuf>,
    /// For a program: the SMT solver that discharges the certificate's obligations, a command
    /// reading SMT-LIB2 on stdin (default: `$GUARANTOR_SMT_SOLVER`, else `z3 -in -smt2`).
    #[arg(long, value_name = "COMMAND")]
    solver: Option<String>,
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
    if let Some(program) = crate::program::program_input(&args.components) {
        let Some(certificate) = &args.certificate else {
            return Err(input_error(anyhow::anyhow!(
                "a program is verified with --certificate (skeletons are for LTS models)"
            )));
        };
        return crate::program::run_verify(program, certificate, args.solver.as_deref());
    }
    let checker = checker_of(args)?;
    let (report, what) = match (&args.certificate, &args.skeleton) {
        (Some(path), _) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| input_error(anyhow::anyhow!("cannot read {}: {e}", path.display())))?;
            let report = checker
                .verify_json(&text)
                .map_err(|e| input_error(anyhow::anyhow!("{}: {e}", path.display())))?;
            (report, "certificate")
        }
        (None, Some(path)) => (verify_skeleton(args, &checker, path)?, "skeleton"),
        (None, None) => unreachable!("clap requires --certificate or --skeleton"),
    };
    match report.rejection() {
        None => {
            println!(
                "valid: {} {what}, rule {}, {} premises checked, {} states{}",
                match report.verdict {
                    VerdictKind::Holds => "holds",
                    _ => "violated",
                },
                report.rule.name(),
                report.premises_checked,
                report.states,
                if report.deadlock_free {
                    ", deadlock freedom included"
                } else {
                    ""
                }
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

/// `verify --skeleton FILE`: the skeleton expanded into a certificate (written with
/// `--write-certificate`), its assumptions and premises printed, then checked.
fn verify_skeleton(args: &VerifyArgs, checker: &Checker, path: &Path) -> Result<Report, Failure> {
    let file = SkeletonFile::read(path).map_err(|e| skeleton_error(&e))?;
    let certificate = checker
        .skeleton_certificate(&file, fsp_input(&args.components)?)
        .map_err(|e| skeleton_error(&e))?;
    if let Some(out) = &args.write_certificate {
        let json = certificate.to_json().map_err(input_error)?;
        std::fs::write(out, json + "\n")
            .map_err(|e| input_error(anyhow::anyhow!("cannot write {}: {e}", out.display())))?;
    }
    for line in describe(&certificate) {
        println!("{line}");
    }
    checker
        .verify(&certificate)
        .map_err(|e| input_error(anyhow::anyhow!("{}: {e}", path.display())))
}

/// A skeleton error and its direct cause on one line (deeper causes repeat the direct one).
fn skeleton_error(e: &CheckError) -> Failure {
    let text = match std::error::Error::source(e) {
        Some(cause) => format!("{e}: {cause}"),
        None => e.to_string(),
    };
    input_error(anyhow::anyhow!(text))
}

/// `"1 state, 4 transitions"`.
fn count(a: u64, what_a: &str, b: usize, what_b: &str) -> String {
    let plural = |n: u64, w: &str| format!("{n} {w}{}", if n == 1 { "" } else { "s" });
    format!("{}, {}", plural(a, what_a), plural(b as u64, what_b))
}

/// The assumptions and premises of a certificate, one line each, in the rule's notation:
/// `assumption A0 stands for Output (2 states, 4 transitions)`, `premise 0: <A0> Input <Order>`.
fn describe(cert: &Certificate) -> Vec<String> {
    let a = |i: &usize| format!("A{i}");
    let list = |xs: &[String]| {
        if xs.is_empty() {
            "-".to_owned()
        } else {
            xs.join(" || ")
        }
    };
    let assumed = |ids: &[usize]| {
        if ids.is_empty() {
            "true".to_owned()
        } else {
            ids.iter().map(a).collect::<Vec<_>>().join(" || ")
        }
    };
    let mut lines: Vec<String> = cert
        .assumptions
        .iter()
        .enumerate()
        .map(|(i, x)| {
            format!(
                "assumption A{i} stands for {} ({})",
                if x.components.is_empty() {
                    "nothing".to_owned()
                } else {
                    x.components.join(" || ")
                },
                count(x.lts.states, "state", x.lts.transitions.len(), "transition")
            )
        })
        .collect();
    for (i, p) in cert.premises.iter().enumerate() {
        let text = match p {
            Premise::Monolithic => "<true> the whole system <every property>".to_owned(),
            Premise::Triple {
                assumptions,
                components,
                guarantee,
            } => {
                let g = match guarantee {
                    Guarantee::Assumption(g) => a(g),
                    Guarantee::Properties(ps) => ps.join(", "),
                    _ => "?".to_owned(),
                };
                format!("<{}> {} <{g}>", assumed(assumptions), list(components))
            }
            Premise::Circular {
                assumptions,
                components,
                guarantee,
            } => format!(
                "{} |= {} > {} (circular)",
                list(components),
                assumed(assumptions),
                a(guarantee)
            ),
            Premise::Inclusion {
                assumptions,
                properties,
            } => format!(
                "L(co{}) in L({}) (inclusion)",
                assumptions.iter().map(a).collect::<Vec<_>>().join(" || co"),
                properties.join(", ")
            ),
            other => other.kind().to_owned(),
        };
        lines.push(format!("premise {i}: {text}"));
    }
    lines
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

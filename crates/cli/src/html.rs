//! The pictures of the command line: `check ... --html FILE` writes the report page of the check
//! (the facade's [`guarantor::Checker::report`]), and `guarantor animate MODEL --html FILE` the
//! animator page alone. Both are one self-contained HTML file (guarantor-view's pages).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use guarantor::view::page::Report;

use crate::Failure;

/// `guarantor animate`'s arguments.
#[derive(Debug, clap::Args)]
pub(crate) struct AnimateArgs {
    /// An FSP model (.lts, .fsp), or .aut components.
    #[arg(required = true, value_name = "MODEL")]
    inputs: Vec<PathBuf>,
    /// The composite to animate (default: the last in the file).
    #[arg(long)]
    target: Option<String>,
    /// FSP: gives a `const` of the model another value (repeatable): `--const N=4`.
    #[arg(long = "const", value_name = "NAME=VALUE", value_parser = crate::parse_const)]
    consts: Vec<(String, i64)>,
    /// .aut input: a safety property (may be repeated); it turns to ERROR when violated.
    #[arg(long = "property", short = 'p', value_name = "FILE")]
    properties: Vec<PathBuf>,
    /// Where to write the page.
    #[arg(long, value_name = "FILE")]
    html: PathBuf,
}

/// The question a page is about, from the inputs: `dining.lts, target BUGGY`.
pub(crate) fn question(inputs: &[PathBuf], target: Option<&str>) -> String {
    let names: Vec<String> = inputs
        .iter()
        .map(|p| {
            p.file_name().map_or_else(
                || p.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            )
        })
        .collect();
    match target {
        Some(t) => format!("{}, target {t}", names.join(", ")),
        None => names.join(", "),
    }
}

/// Writes `report` to `path`, with a link to the certificate when one was written.
pub(crate) fn write(
    report: Report<'_>,
    certificate: Option<&Path>,
    path: &Path,
) -> Result<(), Failure> {
    let report = match certificate {
        Some(c) => report.with_certificate(link(c, path)),
        None => report,
    };
    std::fs::write(path, report.to_html())
        .with_context(|| format!("cannot write {}", path.display()))
        .map_err(Failure::Input)
}

/// `guarantor animate`.
pub(crate) fn run_animate(args: &AnimateArgs) -> Result<ExitCode, Failure> {
    let checker = crate::checker_of_inputs(
        &args.inputs,
        args.target.as_deref(),
        &args.consts,
        &args.properties,
    )?;
    let title = format!(
        "{}: animator",
        question(&args.inputs, args.target.as_deref())
    );
    write(checker.animator(&title), None, &args.html)?;
    Ok(ExitCode::SUCCESS)
}

/// The address of `target` as seen from the page at `page`: relative when it is in the page's
/// folder or below (the two can move together), else absolute.
fn link(target: &Path, page: &Path) -> String {
    let absolute = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    let target = absolute(target);
    let folder = page
        .parent()
        .filter(|f| !f.as_os_str().is_empty())
        .map_or_else(|| absolute(Path::new(".")), absolute);
    match target.strip_prefix(&folder) {
        Ok(relative) => relative.display().to_string(),
        Err(_) => format!("file://{}", target.display()),
    }
}

//! Proof skeletons written by hand, expanded into certificates.
//!
//! A skeleton ([`guarantor_certify::skeleton::Skeleton`], docs/formats.md "Proof skeletons") names
//! the proof rule and, for each assumption, the components it stands for and where its LTS is: an
//! `.aut` file or an FSP process (of the model's FSP file or of another one), paths relative to
//! the skeleton file. [`Checker::skeleton_certificate`] loads the assumptions and derives the
//! premises with [`Checker::certificate_from_assumptions`], the same code that writes the
//! methods' certificates, so a hand-written `asym` skeleton gives exactly the certificate `lstar`
//! would have written with that assumption. The premises are derived here rather than in
//! `guarantor-certify` because that is where the premise construction for every rule already
//! lives; the certificate that comes out is checked by `guarantor-certify` like any other, so a
//! mistake in the derivation can only make a proof fail (its rule check refuses premises that
//! are not an instance of the rule), never make a wrong one pass.
//!
//! Rules: `asym` (exactly one assumption), `asym-n` and `weakest` (a chain, each assumption
//! standing for part of the components of the one before), `sym` (one per component), `circ` (one
//! guarantee per component or group, `[]` for `env`), and `mono` (none). A `quotient` needs the
//! classes of its homomorphism, which a skeleton does not give, and `program` certificates are not
//! checkable: both are refused.
//!
//! ```
//! use std::path::Path;
//! use guarantor::Checker;
//! use guarantor::lts::io::aut::parse_aut;
//! use guarantor::skeleton::SkeletonFile;
//!
//! let checker = Checker::new()
//!     .component("Input", parse_aut("des (0, 3, 3)\n(0, input, 1)\n(1, send, 2)\n(2, ack, 0)\n")?)
//!     .component("Output", parse_aut("des (0, 3, 3)\n(0, send, 1)\n(1, output, 2)\n(2, ack, 0)\n")?)
//!     .property("Order", parse_aut("des (0, 2, 2)\n(0, input, 1)\n(1, output, 0)\n")?);
//! // The assumption about Output as an FSP process in a file of its own.
//! let dir = std::env::temp_dir().join(format!("guarantor-skeleton-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir)?;
//! std::fs::write(dir.join("a.lts"), "A = (send -> output -> ack -> A).\n")?;
//! let file = SkeletonFile::parse(
//!     r#"{"rule": "asym", "assumptions": [{"components": ["Output"], "process": "A", "fsp": "a.lts"}]}"#,
//!     dir.join("skeleton.json"),
//! )?;
//! let certificate = checker.skeleton_certificate(&file, None)?;
//! assert_eq!(certificate.premises.len(), 2); // <A> Input <Order>, <true> Output <A>
//! assert!(checker.verify(&certificate)?.is_accepted());
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use guarantor_certify::Certificate;
use guarantor_certify::format::Rule;
use guarantor_certify::skeleton::{Skeleton, SkeletonError as FormatError, Source};
use guarantor_compose::Assumption;
use guarantor_lts::{ComponentId, Lts};

use crate::CheckError;
use crate::checker::Checker;
use crate::model::load_aut;

/// A skeleton with the file it was read from (the base of its relative paths) and its text.
#[derive(Clone, Debug)]
pub struct SkeletonFile {
    path: PathBuf,
    text: String,
    skeleton: Skeleton,
}

impl SkeletonFile {
    /// Reads and parses the skeleton file `path`.
    ///
    /// # Errors
    /// [`CheckError::Io`] if it cannot be read, else as [`SkeletonFile::parse`].
    pub fn read(path: &Path) -> Result<Self, CheckError> {
        let text = std::fs::read_to_string(path).map_err(|source| CheckError::Io {
            path: path.to_owned(),
            source,
        })?;
        Self::parse(text, path)
    }

    /// Parses skeleton text; `path` names it in errors and its folder is the base of the
    /// skeleton's relative paths.
    ///
    /// # Errors
    /// [`CheckError::SkeletonSyntax`] (with line and column) for text that is not a skeleton,
    /// [`CheckError::SkeletonFormat`] for another format or version.
    pub fn parse(text: impl Into<String>, path: impl Into<PathBuf>) -> Result<Self, CheckError> {
        let (text, path) = (text.into(), path.into());
        let skeleton = match Skeleton::from_json(&text) {
            Ok(s) => s,
            Err(FormatError::Json(e)) => {
                let message = e.to_string();
                // serde_json appends the place, which has fields of its own here.
                let message = message
                    .rsplit_once(" at line ")
                    .map_or(message.as_str(), |(m, _)| m)
                    .to_owned();
                return Err(CheckError::SkeletonSyntax {
                    path,
                    line: e.line(),
                    column: e.column(),
                    message,
                });
            }
            Err(source) => return Err(CheckError::SkeletonFormat { path, source }),
        };
        Ok(Self {
            path,
            text,
            skeleton,
        })
    }

    /// The skeleton.
    pub fn skeleton(&self) -> &Skeleton {
        &self.skeleton
    }

    /// The file it names.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// A path of the skeleton, relative to its folder.
    fn resolve(&self, relative: &str) -> PathBuf {
        self.path
            .parent()
            .unwrap_or_else(|| Path::new(""))
            .join(relative)
    }

    /// The 1-based line and column of `"text"` in the file, if it occurs there exactly once.
    fn locate(&self, text: &str) -> Option<(usize, usize)> {
        let quoted = format!("\"{text}\"");
        let mut found = self.text.match_indices(&quoted);
        let (at, _) = found.next()?;
        if found.next().is_some() {
            return None;
        }
        let before = &self.text[..at];
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        Some((line, column))
    }

    /// An error about assumption `index`, placed at `anchor` in the file if it is unique there.
    fn fault(&self, index: usize, anchor: Option<&str>, reason: String) -> CheckError {
        CheckError::SkeletonAssumption {
            path: self.path.clone(),
            location: anchor.and_then(|a| self.locate(a)),
            index,
            reason,
        }
    }
}

/// How many assumptions `rule` takes in a skeleton, or why it cannot be used in one.
fn check_rule(rule: Rule, count: usize) -> Result<(), String> {
    match rule {
        Rule::Mono if count == 0 => Ok(()),
        Rule::Mono => Err("takes no assumptions".to_owned()),
        Rule::Asym if count == 1 => Ok(()),
        Rule::Asym => Err(format!(
            "takes exactly one assumption, not {count} (asym-n chains several)"
        )),
        Rule::AsymN | Rule::Weakest | Rule::Sym | Rule::Circ if count > 0 => Ok(()),
        Rule::AsymN | Rule::Weakest | Rule::Sym | Rule::Circ => {
            Err("needs at least one assumption".to_owned())
        }
        Rule::Quotient => Err(
            "a quotient needs the classes of its homomorphism, which a skeleton does not give"
                .to_owned(),
        ),
        _ => Err("cannot be written as a skeleton".to_owned()),
    }
}

impl Checker {
    /// The certificate of a skeleton: each assumption loaded from its source and the premises
    /// derived from the rule ([`Checker::certificate_from_assumptions`]). `model_fsp` is the FSP
    /// file the model was read from, where processes named without an `fsp` file are looked up.
    /// Check the result with [`Checker::verify`].
    ///
    /// # Errors
    /// A [`CheckError`] naming the skeleton file (and the assumption, and the place when it
    /// can): a rule a skeleton cannot use or a wrong number of assumptions, an assumption with no
    /// source or two, an unknown component or process, an `.aut` or FSP file that does not read
    /// or parse, assumptions that do not fit the rule.
    pub fn skeleton_certificate(
        &self,
        file: &SkeletonFile,
        model_fsp: Option<&Path>,
    ) -> Result<Certificate, CheckError> {
        let skeleton = &file.skeleton;
        check_rule(skeleton.rule, skeleton.assumptions.len()).map_err(|reason| {
            CheckError::SkeletonRule {
                path: file.path.clone(),
                rule: skeleton.rule.name(),
                reason,
            }
        })?;
        let names: Vec<&str> = self.components().map(|(n, _)| n).collect();
        let mut fsp_files = FspFiles::default();
        let mut assumptions = Vec::with_capacity(skeleton.assumptions.len());
        for (index, a) in skeleton.assumptions.iter().enumerate() {
            let mut ids = Vec::with_capacity(a.components.len());
            for name in &a.components {
                let Some(id) = names.iter().position(|n| n == name) else {
                    return Err(file.fault(
                        index,
                        Some(name),
                        format!("no component {name:?} (components: {})", names.join(", ")),
                    ));
                };
                ids.push(ComponentId::must(id));
            }
            let load = |source| CheckError::SkeletonLoad {
                path: file.path.clone(),
                index,
                source: Box::new(source),
            };
            let lts = match a.source() {
                Some(Source::Aut(path)) => load_aut(&file.resolve(path), false).map_err(load)?,
                Some(Source::Process { name, fsp }) => {
                    let fsp_path = match (fsp, model_fsp) {
                        (Some(rel), _) => file.resolve(rel),
                        (None, Some(model)) => model.to_owned(),
                        (None, None) => {
                            return Err(file.fault(
                                index,
                                Some(name),
                                format!(
                                    "process {name:?} needs \"fsp\" (the file that defines it): \
                                     the model is not an FSP file"
                                ),
                            ));
                        }
                    };
                    match fsp_files.process(&fsp_path, name).map_err(load)? {
                        Some(lts) => lts,
                        None => {
                            let known = fsp_files.processes(&fsp_path);
                            return Err(file.fault(
                                index,
                                Some(name),
                                format!(
                                    "no process {name:?} in {} (processes: {})",
                                    fsp_path.display(),
                                    known.join(", ")
                                ),
                            ));
                        }
                    }
                }
                // No source, or two (or a kind of source this version does not know).
                _ => {
                    return Err(file.fault(
                        index,
                        None,
                        "give either \"aut\" (a file) or \"process\" (with \"fsp\" optional)"
                            .to_owned(),
                    ));
                }
            };
            assumptions.push(Assumption::new(ids, lts));
        }
        self.holds_certificate(skeleton.rule, &assumptions, "the skeleton")
            .map_err(|source| CheckError::SkeletonCertificate {
                path: file.path.clone(),
                source: Box::new(source),
            })
    }
}

/// The FSP files the assumptions name, each parsed once.
#[derive(Default)]
struct FspFiles {
    parsed: HashMap<PathBuf, guarantor_fsp::Model>,
}

impl FspFiles {
    fn model(&mut self, path: &Path) -> Result<&guarantor_fsp::Model, CheckError> {
        if !self.parsed.contains_key(path) {
            let bytes = std::fs::read(path).map_err(|source| CheckError::Io {
                path: path.to_owned(),
                source,
            })?;
            let model = guarantor_fsp::parse_bytes(&bytes, &path.display().to_string(), &[])?;
            self.parsed.insert(path.to_owned(), model);
        }
        Ok(&self.parsed[path])
    }

    /// The LTS of process `name` of the file, or `None` if the file defines no such process.
    fn process(&mut self, path: &Path, name: &str) -> Result<Option<Lts>, CheckError> {
        let model = self.model(path)?;
        if !model.process_names().contains(&name) {
            return Ok(None);
        }
        let system = model.elaborate(name)?;
        Ok(system.components.into_iter().next().map(|c| c.lts))
    }

    /// The processes of a file already parsed.
    fn processes(&self, path: &Path) -> Vec<&str> {
        self.parsed
            .get(path)
            .map(guarantor_fsp::Model::process_names)
            .unwrap_or_default()
    }
}

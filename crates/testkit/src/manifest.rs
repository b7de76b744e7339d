//! The model manifest: which models the suite runs, and what each must give.
//!
//! The format (TOML, paths relative to the workspace root):
//!
//! ```toml
//! [[case]]
//! name = "order"
//! components = ["examples/order/Input.aut", "examples/order/Output.aut"]
//! properties = ["examples/order/Order.aut"]
//! verdict = "holds"            # or "violated"
//! why = "Output only outputs after a send, and Input sends only after an input."
//! # optional: shortest counterexample length, explored states of the monolithic product
//! counterexample_len = 1
//! states = 6
//! # optional: accept .aut headers whose transition count is wrong (some LTSA exports)
//! lenient = false
//! # optional: methods known to exceed the suite's time budget here (say why in a comment)
//! slow = ["lstar-sym"]
//! ```
//!
//! Every case must say `why` its verdict is what it is: a verdict nobody can justify is not a test.

use std::path::{Path, PathBuf};

use guarantor_lts::Lts;
use guarantor_lts::io::aut::{AutReadOptions, read_aut_file_with};
use serde::Deserialize;

/// What a case must give.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Expected {
    /// The property holds.
    Holds,
    /// The property is violated.
    Violated,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawManifest {
    case: Vec<RawCase>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCase {
    name: String,
    components: Vec<PathBuf>,
    #[serde(default)]
    properties: Vec<PathBuf>,
    verdict: Expected,
    why: String,
    counterexample_len: Option<usize>,
    states: Option<usize>,
    #[serde(default)]
    lenient: bool,
    #[serde(default)]
    slow: Vec<String>,
}

/// One model of the suite, loaded.
#[derive(Debug)]
#[non_exhaustive]
pub struct Case {
    /// The case's name.
    pub name: String,
    /// Components with their names (file stems).
    pub components: Vec<(String, Lts)>,
    /// Safety properties with their names.
    pub properties: Vec<(String, Lts)>,
    /// The expected verdict.
    pub expected: Expected,
    /// The expected length of a shortest counterexample, if recorded.
    pub counterexample_len: Option<usize>,
    /// The expected number of states the monolithic search explores, if recorded.
    pub states: Option<usize>,
    /// Methods (by command-line name) known to exceed the suite's time budget on this case; the
    /// manifest says why next to the list.
    pub slow: Vec<String>,
}

impl Case {
    /// The components without their names.
    pub fn component_refs(&self) -> Vec<&Lts> {
        self.components.iter().map(|(_, l)| l).collect()
    }

    /// The properties without their names.
    pub fn property_refs(&self) -> Vec<&Lts> {
        self.properties.iter().map(|(_, l)| l).collect()
    }
}

/// Why a manifest could not be loaded.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ManifestError {
    /// The manifest file could not be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The manifest path.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The manifest is not valid TOML of the expected shape.
    #[error("{path}: {message}")]
    Syntax {
        /// The manifest path.
        path: PathBuf,
        /// The TOML error.
        message: String,
    },
    /// A model file named by a case did not load.
    #[error("case {case}: {message}")]
    Model {
        /// The case.
        case: String,
        /// What went wrong.
        message: String,
    },
}

/// The workspace root (two levels above this crate), where manifest paths start.
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn load_models(
    case: &str,
    root: &Path,
    paths: &[PathBuf],
    lenient: bool,
) -> Result<Vec<(String, Lts)>, ManifestError> {
    let opts = AutReadOptions::default().check_transition_count(!lenient);
    paths
        .iter()
        .map(|p| {
            let lts =
                read_aut_file_with(&root.join(p), &opts).map_err(|e| ManifestError::Model {
                    case: case.to_owned(),
                    message: e.to_string(),
                })?;
            let name = p
                .file_stem()
                .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
            Ok((name, lts))
        })
        .collect()
}

/// Loads a manifest (path relative to the workspace root) and every model it names.
pub fn load_manifest(relative: impl AsRef<Path>) -> Result<Vec<Case>, ManifestError> {
    let root = workspace_root();
    let path = root.join(relative);
    let text = std::fs::read_to_string(&path).map_err(|source| ManifestError::Io {
        path: path.clone(),
        source,
    })?;
    let raw: RawManifest = toml::from_str(&text).map_err(|e| ManifestError::Syntax {
        path: path.clone(),
        message: e.to_string(),
    })?;
    raw.case
        .into_iter()
        .map(|c| {
            if c.why.trim().is_empty() {
                return Err(ManifestError::Model {
                    case: c.name,
                    message: "empty `why`".into(),
                });
            }
            Ok(Case {
                components: load_models(&c.name, &root, &c.components, c.lenient)?,
                properties: load_models(&c.name, &root, &c.properties, c.lenient)?,
                name: c.name,
                expected: c.verdict,
                counterexample_len: c.counterexample_len,
                states: c.states,
                slow: c.slow,
            })
        })
        .collect()
}

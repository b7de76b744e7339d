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
//! # optional: methods known to give a wrong verdict here, "method: reason"; the suite still runs
//! # them, reports them loudly, and fails once one agrees again (so the entry gets removed)
//! known_wrong = ["circ: says holds, see issue notes"]
//!
//! [[case]]
//! name = "bridge-oneway"
//! # an FSP target split into its processes, with two of the file's safety `assert`s as properties
//! components = [{ fsp = "bridge.lts", target = "SYS", split = true, asserts = ["ONEWAY", "SAFE"] }]
//! verdict = "holds"
//! why = "..."
//! ```
//!
//! An entry of `components` or `properties` is either a path or a table naming an FSP model:
//!
//! - `"x.aut"`: one Aldebaran LTS (a component, or a deterministic property).
//! - `"x.json"`: one LTS in the JSON form of docs/formats.md, which, unlike `.aut`, keeps a declared
//!   alphabet (actions a component blocks by never offering them) and an error state.
//! - `"x.lts"` or `"x.fsp"` (or `{ fsp = "x.lts", target = "SYS" }`): the FSP file's `target`
//!   (default: its last composite, as in LTSA). As a component, the whole target composed as LTSA
//!   builds it (nested composites first, its hiding and minimisation applied; a `property` process
//!   inside takes part in its error form, so its violation shows as the component's error state).
//!   As a property entry, every process of the target is one property.
//! - `{ fsp = "x.lts", target = "SYS", split = true }` (components only): every process of the
//!   target is one component, every nested composite one more, and every `property` process one
//!   property of the case, so that compositional methods see the model's structure. Its hiding is
//!   dropped, which cannot change a safety verdict only if nothing outside sees the hidden actions:
//!   a split entry whose target hides actions must be the case's only entry. A target with action
//!   priority cannot be split (only the monolithic method honours priority).
//! - `{ fsp = "x.lts", target = "SYS", split = true, asserts = ["ONEWAY", ...] }` (any FSP table
//!   entry, component or property): each named `assert` of the file, a safety formula of fluent
//!   LTL, is compiled into a deterministic property LTS, as the facade's `Checker::check_assertion`
//!   checks it, and becomes one more property of the case, named `assert ONEWAY`; so every method
//!   checks it (issue 16). As in LTSA, an action of the formula that no component has is free: the
//!   property moves alone on it. The compilation belongs to the facade, above this crate, so the
//!   loader is handed it ([`CompileAssertion`]; the suite passes `guarantor::ltl::compile_safety`
//!   on the formula the front end elaborated). A name the file does not declare is
//!   [`ManifestError::NoSuchAssertion`], a formula outside the safety fragment (a liveness one,
//!   such as `[]<>a`) [`ManifestError::NotSafety`]. The facade checks a formula on the target's
//!   processes before its hiding and under its priority, so an entry with `asserts` whose target
//!   hides actions must be split (a composed entry applies the hiding), and one whose target has
//!   action priority is refused (the case's property would be composed outside it).
//!
//! Every case must say `why` its verdict is what it is: a verdict nobody can justify is not a test.
//! A bad entry (unknown field, unknown extension, a split that would be unsound, a model that does
//! not load) is a [`ManifestError`] naming the case.

use std::path::{Path, PathBuf};

use guarantor_fsp::Ltl;
use guarantor_lts::Lts;
use guarantor_lts::io::aut::{AutReadOptions, read_aut_file_with};
use serde::Deserialize;

use crate::fsp_load::{self, Named};

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

/// Compiles the formula of a safety `assert` of an FSP file (as the front end elaborated it, its
/// fluents included) into a deterministic property LTS (an entry's `asserts`). The facade owns
/// this compilation and sits above the testkit, so whoever loads a manifest hands it in: the suite
/// passes `guarantor::ltl::compile_safety`.
pub type CompileAssertion = dyn Fn(&Ltl) -> Result<Lts, AssertionError>;

/// Why a [`CompileAssertion`] did not give a property LTS.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum AssertionError {
    /// The formula is not in the safety fragment (a liveness formula): its text.
    NotSafety(String),
    /// Anything else (a budget, a fluent the formula cannot use): the message.
    Failed(String),
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawManifest {
    case: Vec<toml::Value>,
}

/// One entry of `components` or `properties`.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum RawEntry {
    Path(PathBuf),
    Fsp(RawFsp),
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFsp {
    fsp: PathBuf,
    target: Option<String>,
    #[serde(default)]
    split: bool,
    #[serde(default)]
    asserts: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCase {
    name: String,
    components: Vec<RawEntry>,
    #[serde(default)]
    properties: Vec<RawEntry>,
    verdict: Expected,
    why: String,
    counterexample_len: Option<usize>,
    states: Option<usize>,
    #[serde(default)]
    lenient: bool,
    #[serde(default)]
    slow: Vec<String>,
    #[serde(default)]
    known_wrong: Vec<String>,
}

/// One model of the suite, loaded.
#[derive(Debug)]
#[non_exhaustive]
pub struct Case {
    /// The case's name.
    pub name: String,
    /// Components with their names (file stems, or FSP process and composite names).
    pub components: Vec<(String, Lts)>,
    /// Safety properties with their names; those of an entry's `asserts` are named `assert NAME`.
    pub properties: Vec<(String, Lts)>,
    /// The names of the FSP assertions among the properties (the entries' `asserts`, in order).
    pub asserts: Vec<String>,
    /// The expected verdict.
    pub expected: Expected,
    /// The expected length of a shortest counterexample, if recorded.
    pub counterexample_len: Option<usize>,
    /// The expected number of states the monolithic search explores, if recorded.
    pub states: Option<usize>,
    /// Methods (by command-line name) known to exceed the suite's time budget on this case; the
    /// manifest says why next to the list.
    pub slow: Vec<String>,
    /// Methods (by command-line name) known to give a wrong verdict on this case, with the
    /// reason: `(method, reason)`.
    pub known_wrong: Vec<(String, String)>,
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

    /// Why `method` is known to be wrong here, if it is.
    pub fn known_wrong(&self, method: &str) -> Option<&str> {
        self.known_wrong
            .iter()
            .find(|(m, _)| m == method)
            .map(|(_, why)| why.as_str())
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
    /// A case's fields are malformed (unknown field, missing `why`, a bad entry).
    #[error("case {case}: {message}")]
    BadCase {
        /// The case (or its position, if it has no name).
        case: String,
        /// What is wrong.
        message: String,
    },
    /// An entry's `asserts` names an assertion its FSP file does not declare.
    #[error(
        "case {case}: no assertion {name:?} in {file} ({})",
        if declared.is_empty() { "it declares none".to_owned() } else { format!("it declares {}", declared.join(", ")) }
    )]
    NoSuchAssertion {
        /// The case.
        case: String,
        /// The assertion asked for.
        name: String,
        /// The FSP file.
        file: PathBuf,
        /// The assertions the file declares.
        declared: Vec<String>,
    },
    /// An entry's `asserts` names a formula outside the safety fragment: only a safety formula
    /// becomes a property LTS (a liveness one needs the Büchi route, outside the suite).
    #[error("case {case}: assertion {name} is not a safety formula: {formula}")]
    NotSafety {
        /// The case.
        case: String,
        /// The assertion.
        name: String,
        /// Its formula.
        formula: String,
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

/// Whether a path names one LTS file: `.aut`, or `.json`.
fn is_aut(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("aut") || e.eq_ignore_ascii_case("json"))
}

fn is_fsp(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("lts") || e.eq_ignore_ascii_case("fsp"))
}

/// The path of an entry naming a single LTS (`.aut` or `.json`).
fn aut_entry(entry: &RawEntry) -> Option<&Path> {
    match entry {
        RawEntry::Path(p) if is_aut(p) => Some(p),
        _ => None,
    }
}

fn stem(path: &Path) -> String {
    path.file_stem()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned())
}

/// Loads one case's models.
struct Loader<'a> {
    case: &'a str,
    root: &'a Path,
    lenient: bool,
    compile: &'a CompileAssertion,
}

impl Loader<'_> {
    fn bad(&self, message: impl Into<String>) -> ManifestError {
        ManifestError::BadCase {
            case: self.case.to_owned(),
            message: message.into(),
        }
    }

    fn model(&self, message: impl Into<String>) -> ManifestError {
        ManifestError::Model {
            case: self.case.to_owned(),
            message: message.into(),
        }
    }

    fn aut(&self, path: &Path) -> Result<Named, ManifestError> {
        if path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("json"))
        {
            let full = self.root.join(path);
            let text = std::fs::read_to_string(&full)
                .map_err(|e| self.model(format!("cannot read {}: {e}", full.display())))?;
            let lts = guarantor_lts::io::json::from_json(&text)
                .map_err(|e| self.model(format!("{}: {e}", path.display())))?;
            return Ok((stem(path), lts));
        }
        let opts = AutReadOptions::default().with_check_transition_count(!self.lenient);
        let lts = read_aut_file_with(&self.root.join(path), &opts)
            .map_err(|e| self.model(e.to_string()))?;
        Ok((stem(path), lts))
    }

    /// The FSP entry elaborated, or why it is not an FSP entry.
    fn system(&self, entry: &RawEntry) -> Result<(guarantor_fsp::System, bool), ManifestError> {
        let (path, target, split) = match entry {
            RawEntry::Path(p) => (p, None, false),
            RawEntry::Fsp(f) => (&f.fsp, f.target.as_deref(), f.split),
        };
        if !is_fsp(path) {
            return Err(self.bad(format!(
                "{}: an FSP model must end in .lts or .fsp",
                path.display()
            )));
        }
        let system =
            fsp_load::elaborate(&self.root.join(path), target).map_err(|e| self.model(e))?;
        Ok((system, split))
    }

    /// The properties compiled from the entry's `asserts`, named `assert NAME`; `hides` says
    /// whether the entry applies its target's hiding (a composed component entry does).
    fn asserts(
        &self,
        entry: &RawEntry,
        system: &guarantor_fsp::System,
        hides: bool,
        names: &mut Vec<String>,
    ) -> Result<Vec<Named>, ManifestError> {
        let RawEntry::Fsp(RawFsp { fsp, asserts, .. }) = entry else {
            return Ok(Vec::new());
        };
        if asserts.is_empty() {
            return Ok(Vec::new());
        }
        if system.priority.is_some() {
            return Err(self.bad(format!(
                "target {} has action priority: its asserts would be checked outside it",
                system.name
            )));
        }
        if system.hiding.is_some() && hides {
            return Err(self.bad(format!(
                "target {} hides actions its asserts may observe: split it (the formula sees the \
                 actions before hiding, as the facade checks it)",
                system.name
            )));
        }
        let mut properties = Vec::new();
        for name in asserts {
            let Some(assertion) = system.assertions.iter().find(|a| a.name == *name) else {
                return Err(ManifestError::NoSuchAssertion {
                    case: self.case.to_owned(),
                    name: name.clone(),
                    file: fsp.clone(),
                    declared: system.assertions.iter().map(|a| a.name.clone()).collect(),
                });
            };
            let lts = (self.compile)(&assertion.formula).map_err(|e| match e {
                AssertionError::NotSafety(formula) => ManifestError::NotSafety {
                    case: self.case.to_owned(),
                    name: name.clone(),
                    formula,
                },
                AssertionError::Failed(message) => self.model(format!("assert {name}: {message}")),
            })?;
            properties.push((format!("assert {name}"), lts));
            names.push(name.clone());
        }
        Ok(properties)
    }

    /// Components and the properties that FSP entries bring along (a split target's `property`
    /// processes, then every entry's `asserts`); the asserts' names go to `names`.
    fn components(
        &self,
        entries: &[RawEntry],
        names: &mut Vec<String>,
    ) -> Result<(Vec<Named>, Vec<Named>), ManifestError> {
        let mut components = Vec::new();
        let mut properties = Vec::new();
        let mut asserted = Vec::new();
        for entry in entries {
            if let Some(p) = aut_entry(entry) {
                components.push(self.aut(p)?);
                continue;
            }
            let (system, split) = self.system(entry)?;
            if split {
                if system.hiding.is_some() && entries.len() > 1 {
                    return Err(self.bad(format!(
                        "target {} hides actions, so splitting it is sound only as the case's \
                         only component entry",
                        system.name
                    )));
                }
                let (c, p) = fsp_load::split(&system).map_err(|e| self.bad(e))?;
                components.extend(c);
                properties.extend(p);
            } else {
                let lts = fsp_load::composed(&system).map_err(|e| self.model(e))?;
                components.push((system.name.clone(), lts));
            }
            asserted.extend(self.asserts(entry, &system, !split, names)?);
        }
        properties.extend(asserted);
        Ok((components, properties))
    }

    fn properties(
        &self,
        entries: &[RawEntry],
        names: &mut Vec<String>,
    ) -> Result<Vec<Named>, ManifestError> {
        let mut properties = Vec::new();
        for entry in entries {
            if let Some(p) = aut_entry(entry) {
                properties.push(self.aut(p)?);
                continue;
            }
            let (system, split) = self.system(entry)?;
            if split {
                return Err(self.bad("`split` applies to component entries only"));
            }
            properties.extend(fsp_load::properties(&system).map_err(|e| self.bad(e))?);
            properties.extend(self.asserts(entry, &system, false, names)?);
        }
        Ok(properties)
    }
}

fn parse_known_wrong(
    case: &str,
    entries: Vec<String>,
) -> Result<Vec<(String, String)>, ManifestError> {
    entries
        .into_iter()
        .map(|e| match e.split_once(':') {
            Some((m, why)) if !m.trim().is_empty() && !why.trim().is_empty() => {
                Ok((m.trim().to_owned(), why.trim().to_owned()))
            }
            _ => Err(ManifestError::BadCase {
                case: case.to_owned(),
                message: format!("known_wrong entry {e:?} is not \"method: reason\""),
            }),
        })
        .collect()
}

fn load_case(
    index: usize,
    value: toml::Value,
    root: &Path,
    compile: &CompileAssertion,
) -> Result<Case, ManifestError> {
    let label = value
        .get("name")
        .and_then(toml::Value::as_str)
        .map_or_else(|| format!("#{}", index + 1), str::to_owned);
    let c = RawCase::deserialize(value).map_err(|e| ManifestError::BadCase {
        case: label.clone(),
        message: e.to_string(),
    })?;
    if c.why.trim().is_empty() {
        return Err(ManifestError::BadCase {
            case: label,
            message: "empty `why`".into(),
        });
    }
    let loader = Loader {
        case: &c.name,
        root,
        lenient: c.lenient,
        compile,
    };
    let mut asserts = Vec::new();
    let (components, mut properties) = loader.components(&c.components, &mut asserts)?;
    properties.extend(loader.properties(&c.properties, &mut asserts)?);
    if components.is_empty() {
        return Err(loader.bad("no component"));
    }
    Ok(Case {
        components,
        properties,
        asserts,
        expected: c.verdict,
        counterexample_len: c.counterexample_len,
        states: c.states,
        slow: c.slow,
        known_wrong: parse_known_wrong(&c.name, c.known_wrong)?,
        name: c.name,
    })
}

/// Loads a manifest (path relative to the workspace root) and every model it names; `compile`
/// turns the entries' `asserts` into properties.
pub fn load_manifest(
    relative: impl AsRef<Path>,
    compile: &CompileAssertion,
) -> Result<Vec<Case>, ManifestError> {
    let root = workspace_root();
    let path = root.join(relative);
    let text = std::fs::read_to_string(&path).map_err(|source| ManifestError::Io {
        path: path.clone(),
        source,
    })?;
    parse_manifest(&text, &path, &root, compile)
}

/// Parses manifest text; model paths are relative to `root`, `path` is for messages only;
/// `compile` turns the entries' `asserts` into properties.
pub fn parse_manifest(
    text: &str,
    path: &Path,
    root: &Path,
    compile: &CompileAssertion,
) -> Result<Vec<Case>, ManifestError> {
    let raw: RawManifest = toml::from_str(text).map_err(|e| ManifestError::Syntax {
        path: path.to_owned(),
        message: e.to_string(),
    })?;
    raw.case
        .into_iter()
        .enumerate()
        .map(|(i, v)| load_case(i, v, root, compile))
        .collect()
}

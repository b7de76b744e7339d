//! Proof skeletons: the short file a user writes by hand instead of a whole certificate.
//!
//! A skeleton names the proof rule and, for each assumption, the components it stands for and
//! where its LTS comes from: an Aldebaran `.aut` file or an FSP process. Everything else a
//! certificate holds (fingerprints, alphabets, the premises) follows from the model, the rule and
//! the assumptions. This module only reads the file; resolving the sources (which needs the FSP
//! front end) and deriving the premises (which the facade already does for the methods'
//! certificates) happen in the `guarantor` facade (`guarantor::skeleton`), and the certificate
//! that comes out is checked by [`crate::check()`] like any other. docs/formats.md
//! ("Proof skeletons") is the normative description.
//!
//! ```
//! use guarantor_certify::format::Rule;
//! use guarantor_certify::skeleton::{Skeleton, Source};
//!
//! let skeleton = Skeleton::from_json(r#"{
//!     "rule": "asym",
//!     "assumptions": [{"components": ["Output"], "aut": "A2.aut"}]
//! }"#)?;
//! assert_eq!(skeleton.rule, Rule::Asym);
//! assert_eq!(skeleton.assumptions[0].source(), Some(Source::Aut("A2.aut")));
//! # Ok::<(), guarantor_certify::skeleton::SkeletonError>(())
//! ```

use serde::{Deserialize, Serialize};

use crate::format::Rule;

/// The value of the optional top-level `"format"` field of a skeleton.
pub const SKELETON_FORMAT: &str = "guarantor-skeleton";

/// The skeleton version this crate reads.
pub const SKELETON_VERSION: u32 = 1;

/// A proof skeleton: a rule and its assumptions, each by its source.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct Skeleton {
    /// [`SKELETON_FORMAT`] if given (it may be left out).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
    /// [`SKELETON_VERSION`] if given (it may be left out).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<u32>,
    /// The proof rule.
    pub rule: Rule,
    /// The assumptions, in the order the rule uses them (premises refer to them by index).
    #[serde(default)]
    pub assumptions: Vec<SkeletonAssumption>,
}

impl Skeleton {
    /// A skeleton of `rule` without assumptions (add them with [`Skeleton::with_assumption`]).
    pub fn new(rule: Rule) -> Self {
        Self {
            format: None,
            version: None,
            rule,
            assumptions: Vec::new(),
        }
    }

    /// Adds an assumption.
    #[must_use]
    pub fn with_assumption(mut self, a: SkeletonAssumption) -> Self {
        self.assumptions.push(a);
        self
    }

    /// Reads a skeleton from JSON and checks `format` and `version` when they are given.
    ///
    /// # Errors
    /// [`SkeletonError::Json`] (with the line and column of the fault) for text that is not a
    /// skeleton: malformed JSON, a missing or unknown field, an unknown rule;
    /// [`SkeletonError::Format`] and [`SkeletonError::Version`] for another format or version.
    pub fn from_json(text: &str) -> Result<Self, SkeletonError> {
        let skeleton: Self = serde_json::from_str(text)?;
        if let Some(found) = &skeleton.format
            && found != SKELETON_FORMAT
        {
            return Err(SkeletonError::Format {
                found: found.clone(),
            });
        }
        if let Some(found) = skeleton.version
            && found != SKELETON_VERSION
        {
            return Err(SkeletonError::Version { found });
        }
        Ok(skeleton)
    }

    /// The skeleton as pretty-printed JSON.
    ///
    /// # Errors
    /// Only if `serde_json` fails, which it does not for these types.
    pub fn to_json(&self) -> Result<String, serde_json::Error> {
        serde_json::to_string_pretty(self)
    }
}

/// One assumption of a skeleton: the components it stands for and where its LTS is.
///
/// Exactly one of `aut` and `process` is given; `fsp` only with `process`. Paths are relative to
/// the skeleton file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct SkeletonAssumption {
    /// The components it stands for, by name (empty: circ's `env`).
    pub components: Vec<String>,
    /// An Aldebaran `.aut` file with the assumption.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub aut: Option<String>,
    /// An FSP process whose LTS is the assumption.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub process: Option<String>,
    /// The FSP file that defines `process` (default: the model, when the model is FSP).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fsp: Option<String>,
}

impl SkeletonAssumption {
    /// An assumption standing for `components`, read from the `.aut` file `path`.
    pub fn aut(components: Vec<String>, path: impl Into<String>) -> Self {
        Self {
            components,
            aut: Some(path.into()),
            process: None,
            fsp: None,
        }
    }

    /// An assumption standing for `components`: the FSP process `name` of the file `fsp` (of the
    /// model if `None`).
    pub fn process(components: Vec<String>, name: impl Into<String>, fsp: Option<String>) -> Self {
        Self {
            components,
            aut: None,
            process: Some(name.into()),
            fsp,
        }
    }

    /// Where the LTS is; `None` unless exactly one of `aut` and `process` is given (and `fsp`
    /// only with `process`).
    pub fn source(&self) -> Option<Source<'_>> {
        match (&self.aut, &self.process, &self.fsp) {
            (Some(path), None, None) => Some(Source::Aut(path)),
            (None, Some(name), fsp) => Some(Source::Process {
                name,
                fsp: fsp.as_deref(),
            }),
            _ => None,
        }
    }
}

/// Where an assumption's LTS comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Source<'a> {
    /// An `.aut` file, relative to the skeleton file.
    Aut(&'a str),
    /// An FSP process.
    Process {
        /// The process name.
        name: &'a str,
        /// The FSP file, relative to the skeleton file; `None`: the model's FSP file.
        fsp: Option<&'a str>,
    },
}

/// Text that is not a skeleton this crate reads.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SkeletonError {
    /// Not JSON of the skeleton schema (`line()` and `column()` say where).
    #[error("malformed skeleton: {0}")]
    Json(#[from] serde_json::Error),
    /// The `"format"` field is not `"guarantor-skeleton"`.
    #[error("not a guarantor skeleton (format {found:?})")]
    Format {
        /// The value found.
        found: String,
    },
    /// A version this crate does not read.
    #[error("skeleton version {found} is not supported (this version reads version 1)")]
    Version {
        /// The version found.
        found: u32,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_minimal_skeleton_reads_and_round_trips() {
        let s = Skeleton::from_json(
            r#"{"rule": "circ", "assumptions": [
                {"components": ["A"], "process": "GA"},
                {"components": ["B"], "process": "GB", "fsp": "g.lts"},
                {"components": [], "aut": "env.aut"}]}"#,
        )
        .unwrap();
        assert_eq!(s.rule, Rule::Circ);
        assert_eq!(
            s.assumptions[0].source(),
            Some(Source::Process {
                name: "GA",
                fsp: None
            })
        );
        assert_eq!(
            s.assumptions[1].source(),
            Some(Source::Process {
                name: "GB",
                fsp: Some("g.lts")
            })
        );
        assert_eq!(s.assumptions[2].source(), Some(Source::Aut("env.aut")));
        let again = Skeleton::from_json(&s.to_json().unwrap()).unwrap();
        assert_eq!(again, s);
    }

    #[test]
    fn both_or_neither_source_is_no_source() {
        let both = SkeletonAssumption {
            process: Some("P".into()),
            ..SkeletonAssumption::aut(vec![], "a.aut")
        };
        assert_eq!(both.source(), None);
        let neither = SkeletonAssumption {
            aut: None,
            ..SkeletonAssumption::aut(vec![], "a.aut")
        };
        assert_eq!(neither.source(), None);
        let fsp_with_aut = SkeletonAssumption {
            fsp: Some("m.lts".into()),
            ..SkeletonAssumption::aut(vec![], "a.aut")
        };
        assert_eq!(fsp_with_aut.source(), None);
    }

    #[test]
    fn bad_text_is_located_and_other_formats_refused() {
        let Err(SkeletonError::Json(e)) =
            Skeleton::from_json("{\n  \"rule\": \"nope\",\n  \"assumptions\": []\n}")
        else {
            panic!("an unknown rule is a JSON error");
        };
        assert_eq!((e.line(), e.column()), (2, 16)); // the end of "nope"
        assert!(e.to_string().contains("unknown variant `nope`"), "{e}");
        assert!(matches!(
            Skeleton::from_json(r#"{"rule": "asym", "assumptions": [], "extra": 1}"#),
            Err(SkeletonError::Json(_))
        ));
        assert!(matches!(
            Skeleton::from_json(r#"{"format": "guarantor-certificate", "rule": "asym"}"#),
            Err(SkeletonError::Format { .. })
        ));
        assert!(matches!(
            Skeleton::from_json(r#"{"version": 2, "rule": "asym"}"#),
            Err(SkeletonError::Version { found: 2 })
        ));
    }
}

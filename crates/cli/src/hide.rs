//! `export --hide`: the actions to hide, read as LTSA reads a hiding set.
//!
//! Each `--hide` value is an FSP label set (`{send, ack}`, `{phil[i:0..2].eat}`, a `set` of the
//! model, or the labels without braces), expanded with the model's own constants, ranges and sets
//! by the FSP front end ([`guarantor::fsp::Model::action_set`]), so that what a user copies from
//! an `\{...}` of the model means the same here. A label hides every action it names or prefixes
//! (`a` hides `a.1`), as in LTSA; a label that hides nothing is most likely a typo, so it is
//! reported on stderr, with the nearest action of the composed LTS.

use std::path::{Path, PathBuf};

use guarantor::fsp::Model;
use guarantor::lts::Lts;

use crate::{Failure, fsp_input, input_error};

/// The actions of `lts` that the `--hide` values `sets` hide; every label that hides none is
/// reported on stderr.
pub(crate) fn hidden_actions(
    sets: &[String],
    inputs: &[PathBuf],
    consts: &[(String, i64)],
    lts: &Lts,
) -> Result<Vec<String>, Failure> {
    let model = scope(inputs, consts)?;
    let actions: Vec<&str> = lts
        .alphabet()
        .iter()
        .filter(|(a, _)| !a.is_tau())
        .map(|(_, name)| name)
        .collect();
    let mut hidden: Vec<String> = Vec::new();
    for set in sets {
        let labels = model.action_set(set, "--hide").map_err(input_error)?;
        for label in labels {
            let mut any = false;
            for name in actions.iter().filter(|name| hides(&label, name)) {
                any = true;
                if !hidden.iter().any(|h| h == name) {
                    hidden.push((*name).to_owned());
                }
            }
            if !any {
                eprintln!("{}", unknown(&label, &actions));
            }
        }
    }
    Ok(hidden)
}

/// Whether hiding `label` hides `action`: the same name, or a prefix of it at a label boundary.
fn hides(label: &str, action: &str) -> bool {
    action == label
        || action
            .strip_prefix(label)
            .is_some_and(|rest| rest.starts_with('.'))
}

/// The model whose definitions a hiding set may use: the FSP input's, or none for `.aut` input
/// (literal labels and integer ranges still work).
fn scope(inputs: &[PathBuf], consts: &[(String, i64)]) -> Result<Model, Failure> {
    let consts: Vec<(&str, i64)> = consts.iter().map(|(n, v)| (n.as_str(), *v)).collect();
    match fsp_input(inputs)? {
        Some(path) => {
            let source = read(path)?;
            guarantor::fsp::parse_with_constants(&source, &path.display().to_string(), &consts)
                .map_err(input_error)
        }
        None => guarantor::fsp::parse("", "--hide").map_err(input_error),
    }
}

fn read(path: &Path) -> Result<String, Failure> {
    std::fs::read_to_string(path)
        .map_err(|e| input_error(anyhow::anyhow!("cannot read {}: {e}", path.display())))
}

/// The warning for a label that hides nothing, with the nearest action if one is close.
fn unknown(label: &str, actions: &[&str]) -> String {
    let nearest = actions
        .iter()
        .map(|a| (distance(label, a), *a))
        .filter(|(d, a)| *d <= label.len().max(a.len()) / 3 + 1)
        .min();
    match nearest {
        Some((_, a)) => format!(
            "warning: --hide: {label:?} is no action of the composed LTS (nothing hidden for it; did you mean {a:?}?)"
        ),
        None => format!(
            "warning: --hide: {label:?} is no action of the composed LTS (nothing hidden for it)"
        ),
    }
}

/// Levenshtein distance, for the suggestion.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

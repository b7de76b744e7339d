//! The CMU system/environment/property triples: every JSON config under `tests/data/cmu-soda-*`
//! names FSP files for the system (`sys`), environment (`env`) and safety property (`prop`, or
//! `safety` in fortis-core configs, where `env` may be empty). Each named file is parsed, its
//! default target elaborated and composed (one LTS per file), and `sys || env |= prop` is checked
//! with `guarantor_compose::check_safety`, the property file's processes as properties. Every
//! counterexample must replay on the components and violate the properties. Configs that name a
//! non-FSP file (`.fsm`, `.xml`) or a file the source repository does not ship are listed as
//! skipped; the verdicts are recorded in docs/formats.md.

mod common;

use std::path::{Path, PathBuf};

use guarantor_compose::replay::{replay, violates};
use guarantor_compose::{Config, Verdict, check_safety};
use guarantor_lts::Lts;

/// What one config gave: `Ok(verdict)` or `Err(reason it was skipped)`.
type Outcome = Result<String, String>;

/// Every JSON config of the CMU folders, sorted.
fn configs() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for dir in ["cmu-soda-Robustness", "cmu-soda-fortis-core"] {
        collect(&common::data_dir().join(dir), &mut out);
    }
    out.sort();
    out
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            collect(&path, out);
        } else if path.extension().is_some_and(|e| e == "json") {
            out.push(path);
        }
    }
}

/// The files a config names under `key`, resolved: Robustness paths are relative to the
/// `resources/` folder, fortis-core paths to the config's folder.
fn named(config: &Path, json: &serde_json::Value, key: &str) -> Vec<PathBuf> {
    let text = config.to_string_lossy();
    let root = match text.find("resources/") {
        Some(i) => PathBuf::from(&text[..i + "resources/".len()]),
        None => config.parent().unwrap().to_path_buf(),
    };
    let names: Vec<&str> = match &json[key] {
        serde_json::Value::String(s) => vec![s.as_str()],
        serde_json::Value::Array(a) => a.iter().filter_map(|v| v.as_str()).collect(),
        _ => Vec::new(),
    };
    names
        .into_iter()
        .filter(|n| !n.is_empty())
        .map(|n| root.join(n))
        .collect()
}

/// The default target of an FSP file, elaborated.
fn system_of(path: &Path) -> guarantor_fsp::System {
    let src = std::fs::read_to_string(path).unwrap();
    let name = path.to_string_lossy();
    let model = guarantor_fsp::parse(&src, &name).unwrap_or_else(|e| panic!("{e}"));
    let target = model.default_target().unwrap().to_string();
    model
        .elaborate(&target)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The LTS LTSA builds for a file's default target: its parts composed, hidden, minimised.
fn composed(path: &Path) -> Lts {
    let sys = system_of(path);
    let parts = common::parts_of(&sys.components, &sys.nested);
    let refs: Vec<&Lts> = parts.iter().collect();
    let product = guarantor_compose::compose_with_tuples(&refs, &Config::default()).unwrap();
    sys.finish(product.lts())
}

/// Composed files, by path: many configs of a folder name the same system file.
type Cache = std::collections::HashMap<PathBuf, Lts>;

/// Verdicts by the files named (sys, env, prop): the fortis-core configs of one folder differ
/// only in their robustification options, so each triple is checked once.
type Verdicts = std::collections::HashMap<Vec<PathBuf>, String>;

fn check(config: &Path, cache: &mut Cache, verdicts: &mut Verdicts) -> Outcome {
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(config).unwrap()).unwrap();
    let sys = named(config, &json, "sys");
    let env = named(config, &json, "env");
    let mut props = named(config, &json, "prop");
    props.extend(named(config, &json, "safety"));
    for f in sys.iter().chain(&env).chain(&props) {
        if f.extension().is_none_or(|e| e != "lts") {
            return Err(format!("names a non-FSP file ({})", file_name(f)));
        }
        if !f.exists() {
            return Err(format!(
                "names a file not in the repository ({})",
                file_name(f)
            ));
        }
    }
    let key: Vec<PathBuf> = sys.iter().chain(&env).chain(&props).cloned().collect();
    if let Some(v) = verdicts.get(&key) {
        return Ok(v.clone());
    }
    let components: Vec<Lts> = sys
        .iter()
        .chain(&env)
        .map(|f| {
            cache
                .entry(f.clone())
                .or_insert_with(|| composed(f))
                .clone()
        })
        .collect();
    let properties: Vec<Lts> = props
        .iter()
        .flat_map(|f| system_of(f).components)
        .map(|c| c.lts)
        .collect();
    let comps: Vec<&Lts> = components.iter().collect();
    let ps: Vec<&Lts> = properties.iter().collect();
    let report = check_safety(&comps, &ps, &Config::default().with_max_states(2_000_000))
        .unwrap_or_else(|e| panic!("{}: {e}", config.display()));
    let verdict = match report.verdict {
        Verdict::Holds(_) => "holds".to_string(),
        Verdict::Violated(cex) => {
            replay(&comps, &cex.trace).unwrap_or_else(|e| panic!("{}: {e}", config.display()));
            assert!(
                violates(&comps, &ps, &cex.trace).unwrap()
                    || components.iter().any(|c| c.error_state().is_some()),
                "{}: the counterexample does not violate",
                config.display()
            );
            format!("violated ({} steps)", cex.trace.len())
        }
        _ => "other".to_string(),
    };
    verdicts.insert(key, verdict.clone());
    Ok(verdict)
}

fn file_name(p: &Path) -> String {
    p.file_name().unwrap().to_string_lossy().into_owned()
}

#[test]
fn cmu_triples_load_and_check() {
    let mut checked = 0;
    let mut cache = Cache::new();
    let mut verdicts = Verdicts::new();
    for config in configs() {
        let outcome = check(&config, &mut cache, &mut verdicts);
        let shown = config.strip_prefix(common::data_dir()).unwrap().display();
        match &outcome {
            Ok(v) => println!("| {shown} | {v} |"),
            Err(why) => println!("| {shown} | skipped: {why} |"),
        }
        checked += usize::from(outcome.is_ok());
    }
    // 52 configs; 40 name only FSP files that the repositories ship.
    assert_eq!(checked, 40, "configs checked");
}

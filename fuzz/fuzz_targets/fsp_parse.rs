//! Fuzz target: the FSP front end (`guarantor_fsp::parse` and `Model::elaborate`) never panics on
//! arbitrary text. Parsing also elaborates the file-level definitions (progress tests, fluents,
//! assertions and constraints, with their ranges, sets and `forall`/`exists` expanded), which are
//! read back here. Elaboration runs with small limits so that a model that blows up ends in a
//! typed error quickly; errors are rendered (their `Display` quotes the source line with a caret)
//! so the formatter is covered too.

#![no_main]

use guarantor_fsp::Limits;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(src) = std::str::from_utf8(data) else {
        return;
    };
    let model = match guarantor_fsp::parse(src, "fuzz.lts") {
        Ok(m) => m,
        Err(e) => {
            let _ = e.to_string();
            return;
        }
    };
    let _ = format!(
        "{:?} {:?} {:?}",
        model.progress_tests(),
        model.fluents(),
        model.assertions()
    );
    let limits = Limits::default().with_max_states(5_000).with_max_transitions(20_000);
    let mut targets: Vec<String> = model.composite_names().iter().map(|s| s.to_string()).collect();
    targets.extend(model.process_names().iter().take(4).map(|s| s.to_string()));
    for target in targets.iter().take(8) {
        match model.elaborate_with(target, limits) {
            Ok(system) => {
                for w in &system.warnings {
                    let _ = w.to_string();
                }
            }
            Err(e) => {
                let _ = e.to_string();
            }
        }
    }
});

//! Times elaboration plus LTSA's analysis (property violations, `ERROR` states and deadlocks, in
//! one walk with `guarantor_compose::check_system`) of an FSP target; `benches/compare/fsp_tx3.sh`
//! runs it on tx3. Usage: `fsp_check FILE [TARGET]`.

use std::time::Instant;

use guarantor_compose::{Config, Priority, SystemOptions, check_system};
use guarantor_lts::Lts;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let path = args.get(1).ok_or("usage: fsp_check FILE [TARGET]")?;
    let t0 = Instant::now();
    let src = std::fs::read_to_string(path)?;
    let model = guarantor_fsp::parse(&src, path)?;
    let target = match args.get(2) {
        Some(t) => t.clone(),
        None => model.default_target().ok_or("no target")?.to_string(),
    };
    let sys = model.elaborate(&target)?;
    let elaborated = t0.elapsed();
    if !sys.nested.is_empty() {
        return Err("nested composites are not handled by this example".into());
    }
    let (safety, procs): (Vec<_>, Vec<_>) = sys.components.iter().partition(|c| c.is_property);
    let comps: Vec<&Lts> = procs.iter().map(|c| &c.lts).collect();
    let properties: Vec<&Lts> = safety.iter().map(|c| &c.lts).collect();
    let mut options =
        SystemOptions::default().with_deadlock(procs.iter().map(|c| c.end_state).collect());
    if let Some(p) = &sys.priority {
        let listed = p.actions.iter().cloned();
        options = options.with_priority(if p.high {
            Priority::high(listed)
        } else {
            Priority::low(listed)
        });
    }
    let t1 = Instant::now();
    let report = check_system(&comps, &properties, &options, &Config::default())?;
    let checked = t1.elapsed();
    let verdict = match report.verdict.counterexample() {
        None => "holds".to_string(),
        Some(cex) => format!("{:?} after {} actions", cex.violation, cex.trace.len()),
    };
    println!(
        "{target}: {} states, {} transitions, {verdict}",
        report.stats.states, report.stats.transitions
    );
    println!("elaborate {elaborated:?}, check {checked:?}");
    Ok(())
}

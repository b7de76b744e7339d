//! Writes the final abstraction of a program (after CEGAR with the monolithic check) as `.aut`
//! files, one per component, shared-predicate process and property, to study the abstract system
//! with the other methods: `cargo run -p guarantor-benches --example dump_abstract -- P.gc OUTDIR`.

use guarantor_lts::io::aut::{AutWriteOptions, to_aut_string};
use guarantor_predabs::{Config, Program, check_cegar};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(path), Some(out)) = (args.first(), args.get(1)) else {
        return Err("usage: dump_abstract PROGRAM.gc OUTDIR".into());
    };
    let sys = Program::parse(&std::fs::read_to_string(path)?, path)?;
    let report = check_cegar(&sys, &Config::default())?;
    let abs = &report.abstraction;
    std::fs::create_dir_all(out)?;
    let opts = AutWriteOptions::default();
    for (i, lts) in abs.components.iter().enumerate() {
        let name = &sys.components[i].name;
        std::fs::write(format!("{out}/c{i}_{name}.aut"), to_aut_string(lts, &opts))?;
    }
    for (k, s) in abs.shared.iter().enumerate() {
        std::fs::write(format!("{out}/s{k}.aut"), to_aut_string(&s.lts, &opts))?;
        println!("s{k}: {}", sys.show(&s.predicate));
    }
    for (k, p) in abs.properties.iter().enumerate() {
        std::fs::write(format!("{out}/p{k}.aut"), to_aut_string(p, &opts))?;
    }
    println!("{:?} in {} iterations", report.verdict, report.iterations);
    Ok(())
}

//! Debug helper: elaborate a target of an FSP file and print component sizes and warnings.

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let src = std::fs::read_to_string(&args[1]).expect("readable file");
    let model = match guarantor_fsp::parse(&src, &args[1]) {
        Ok(m) => m,
        Err(e) => {
            println!("{e}");
            return;
        }
    };
    let target = args.get(2).map_or_else(
        || model.default_target().unwrap_or("").to_string(),
        Clone::clone,
    );
    let t = std::time::Instant::now();
    match model.elaborate(&target) {
        Ok(sys) => {
            println!("elaborated {target} in {:?}", t.elapsed());
            for c in &sys.components {
                println!(
                    "  {} : {} states, {} transitions, {} actions{}",
                    c.name,
                    c.lts.num_states(),
                    c.lts.num_transitions(),
                    c.lts.alphabet().len(),
                    if c.is_property { " (property)" } else { "" }
                );
                if args.len() > 3 {
                    for t in c.lts.transitions() {
                        println!(
                            "    {} -{}-> {}",
                            t.source,
                            c.lts.action_name(t.action),
                            t.target
                        );
                    }
                }
            }
            println!("  hiding {:?} priority {:?}", sys.hiding, sys.priority);
            for w in &sys.warnings {
                println!("{w}");
            }
        }
        Err(e) => println!("{e}"),
    }
}

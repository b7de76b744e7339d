//! A teacher writer's first Mealy machine: a vending machine, known only by how it answers,
//! learned with L# and a Wp-method oracle, in 15 lines, the import included. The system here is a
//! function over a credit counter; in practice it drives a device, a protocol stack or a service
//! (implement `guarantor_lstar::mealy::Sul` for reset, step and batched queries of your own).
//! `cargo run -p guarantor-lstar --example mealy_vending`

use guarantor_lstar::mealy::{Config, WpMethod, learn, system};

/// The vending machine's transition function: a coin adds credit (at most 2), the button buys a
/// coffee with it. Returns the next credit and the output.
fn vend(credit: u8, input: &str) -> (u8, &'static str) {
    match (input, credit) {
        ("coin", 2) => (2, "full"),
        ("coin", c) => (c + 1, "ok"),
        (_, 0) => (0, "pay first"),
        (_, c) => (c - 1, "coffee"),
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let vending = system(["coin", "button"], || 0, vend);
    let learned = learn(vending, &mut WpMethod::new(2), Config::default())?;
    print!("{}", learned.machine.to_dot());
    Ok(())
}

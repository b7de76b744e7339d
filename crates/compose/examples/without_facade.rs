//! Checking with `guarantor-compose` alone, without the `guarantor` facade: build LTSs from edge
//! lists, check a safety property, search for a deadlock, and confirm each counterexample
//! independently by replaying it on the components.
//!
//! What it shows (each step asserts its outcome, so the example fails if the behaviour changes):
//!
//! 1. [`Lts::from_edges`] builds a component or a property from `(source, action, target)`
//!    triples (state 0 is initial).
//! 2. [`check_safety`] over components and properties: Cobleigh et al.'s `Input || Output`
//!    satisfies `Order` (inputs and outputs alternate, input first); with an `Output` that
//!    outputs before it is sent anything it does not, and the counterexample is a shortest trace
//!    with the index of the violated property.
//! 3. [`find_deadlock`]: two workers taking two locks in opposite orders deadlock after one step
//!    each.
//! 4. [`replay`](guarantor_compose::replay): a counterexample is a run of the components
//!    ([`replay::replay`]) and ends in the violation it names ([`replay::find_violation`]), checked
//!    by code that shares nothing with the search but the product's successor function.
//!
//! Run it with `cargo run -p guarantor-compose --example without_facade`.

use guarantor_compose::replay::{self, ReplayError};
use guarantor_compose::{Config, Violation, check_safety, find_deadlock};
use guarantor_lts::{ComponentId, Lts, PropertyId};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let config = Config::default().with_max_states(1_000_000);

    // Input = (input -> send -> ack -> Input), Output = (send -> output -> ack -> Output).
    let input = Lts::from_edges([(0, "input", 1), (1, "send", 2), (2, "ack", 0)])?;
    let output = Lts::from_edges([(0, "send", 1), (1, "output", 2), (2, "ack", 0)])?;
    // property Order = (input -> output -> Order): a deterministic LTS; any other order of its
    // actions is a violation.
    let order = Lts::from_edges([(0, "input", 1), (1, "output", 0)])?;

    let report = check_safety(&[&input, &output], &[&order], &config)?;
    println!(
        "Input || Output |= Order: {} ({} states, {} transitions)",
        if report.verdict.is_holds() {
            "holds"
        } else {
            "violated"
        },
        report.stats.states,
        report.stats.transitions
    );
    assert!(report.verdict.is_holds());
    assert_eq!(report.stats.states, 4);

    // An Output that outputs first: (output -> send -> ack -> Eager).
    let eager = Lts::from_edges([(0, "output", 1), (1, "send", 2), (2, "ack", 0)])?;
    let components = [&input, &eager];
    let report = check_safety(&components, &[&order], &config)?;
    let cex = report
        .verdict
        .counterexample()
        .expect("outputting first violates Order");
    println!(
        "Input || Eager |= Order: violated by {:?}, {:?}",
        cex.trace, cex.violation
    );
    assert_eq!(cex.trace, ["output"]);
    // Ids count the properties (and components) in the order they were given.
    let order_id = PropertyId::must(0);
    assert_eq!(cex.violation, Violation::Property { property: order_id });
    // Confirm it without trusting the search: a run of the components that reaches the violation.
    replay::replay(&components, &cex.trace)?;
    assert_eq!(
        replay::find_violation(&components, &[&order], &cex.trace)?,
        Some(Violation::Property { property: order_id })
    );

    // Two workers and two locks; A takes lock 1 then 2, B takes lock 2 then 1.
    let a = Lts::from_edges([
        (0, "a.get1", 1),
        (1, "a.get2", 2),
        (2, "a.put2", 3),
        (3, "a.put1", 0),
    ])?;
    let b = Lts::from_edges([
        (0, "b.get2", 1),
        (1, "b.get1", 2),
        (2, "b.put1", 3),
        (3, "b.put2", 0),
    ])?;
    let lock1 = Lts::from_edges([
        (0, "a.get1", 1),
        (1, "a.put1", 0),
        (0, "b.get1", 2),
        (2, "b.put1", 0),
    ])?;
    let lock2 = Lts::from_edges([
        (0, "a.get2", 1),
        (1, "a.put2", 0),
        (0, "b.get2", 2),
        (2, "b.put2", 0),
    ])?;
    let system = [&a, &b, &lock1, &lock2];
    let deadlock = find_deadlock(&system, &config)?.expect("opposite lock orders deadlock");
    println!(
        "A || B || Lock1 || Lock2 deadlocks after {:?}",
        deadlock.trace
    );
    assert_eq!(deadlock.violation, Violation::Deadlock);
    let mut steps = deadlock.trace.clone();
    steps.sort();
    assert_eq!(steps, ["a.get1", "b.get2"]);
    // The deadlock trace is a run of the system, and a step past it is refused (by lock 2, which
    // B holds).
    replay::replay(&system, &deadlock.trace)?;
    let mut further = deadlock.trace.clone();
    further.push("a.get2".to_string());
    assert!(matches!(
        replay::replay(&system, &further),
        Err(ReplayError::Refused {
            step: 2,
            component,
            ..
        }) if component == ComponentId::must(3)
    ));

    // Taking the locks in the same order removes the deadlock.
    let b_ordered = Lts::from_edges([
        (0, "b.get1", 1),
        (1, "b.get2", 2),
        (2, "b.put2", 3),
        (3, "b.put1", 0),
    ])?;
    let fixed = find_deadlock(&[&a, &b_ordered, &lock1, &lock2], &config)?;
    println!("with B taking lock 1 first: {fixed:?}");
    assert_eq!(fixed, None);
    Ok(())
}

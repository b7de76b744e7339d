//! Speed of the front end on tx3 (1.25 M product states): elaboration must be fast; elaborate +
//! compose must stay within the 2 s budget in release. Ignored in debug runs.

mod common;

#[test]
#[ignore = "timing; run in release: cargo test --release -p guarantor-fsp --test speed -- --ignored --nocapture"]
fn tx3_elaborate_and_compose() {
    let path = common::data_dir().join("vmaffione-fspc/src/examples/tx3.lts");
    let src = std::fs::read_to_string(path).unwrap();
    let t0 = std::time::Instant::now();
    let sys = guarantor_fsp::parse(&src, "tx3.lts")
        .unwrap()
        .elaborate("SYSTEM")
        .unwrap();
    let elaborate = t0.elapsed();
    let refs: Vec<&guarantor_lts::Lts> = sys.components.iter().map(|c| &c.lts).collect();
    let t1 = std::time::Instant::now();
    let product = guarantor_compose::compose(&refs, &guarantor_compose::Config::default()).unwrap();
    let compose = t1.elapsed();
    println!(
        "tx3: elaborate {elaborate:?}, compose {compose:?}, {} states, {} transitions",
        product.num_states(),
        product.num_transitions()
    );
    assert!(elaborate.as_millis() < 100);
}

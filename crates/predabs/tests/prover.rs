//! The prover backends against brute force over small ranges, and against each other; the same
//! unit questions for both backends (the z3 ones are skipped, with a message, without z3 on PATH).

use guarantor_predabs::formula::{Affine, Formula, Sym};
use guarantor_predabs::prover::{NativeProver, Prover, SatResult, SmtLibProver};
use proptest::prelude::*;

/// Integer symbols 0..3 range over -3..=3 in brute force; boolean symbols are 10 and 11.
const RANGE: std::ops::RangeInclusive<i128> = -3..=3;

#[allow(clippy::many_single_char_names)] // x, y, z, b range over small domains
fn brute_force(f: &Formula) -> bool {
    for x in RANGE {
        for y in RANGE {
            for z in RANGE {
                for b in 0..4u8 {
                    let ints = |s: Sym| [x, y, z][s.0 as usize];
                    let bools = |s: Sym| b >> (s.0 - 10) & 1 == 1;
                    if f.eval(&ints, &bools).unwrap() {
                        return true;
                    }
                }
            }
        }
    }
    false
}

/// Box constraints keep every model inside the brute-force range.
fn boxed(f: Formula) -> Formula {
    let mut parts = vec![f];
    for s in 0..3 {
        let v = Affine::var(Sym(s));
        parts.push(Formula::le(&Affine::constant(*RANGE.start()), &v).unwrap());
        parts.push(Formula::le(&v, &Affine::constant(*RANGE.end())).unwrap());
    }
    Formula::and(parts)
}

fn arb_atom() -> impl Strategy<Value = Formula> {
    let coeff = -3i128..=3;
    prop_oneof![
        (10u32..12).prop_map(|s| Formula::bool_var(Sym(s))),
        (coeff.clone(), coeff.clone(), coeff, -4i128..=4, 0u8..3).prop_map(|(a, b, c, k, op)| {
            let lhs = Affine::var(Sym(0))
                .scale(a)
                .unwrap()
                .add(&Affine::var(Sym(1)).scale(b).unwrap())
                .unwrap()
                .add(&Affine::var(Sym(2)).scale(c).unwrap())
                .unwrap();
            let rhs = Affine::constant(k);
            match op {
                0 => Formula::le(&lhs, &rhs).unwrap(),
                1 => Formula::lt(&lhs, &rhs).unwrap(),
                _ => Formula::eq(&lhs, &rhs).unwrap(),
            }
        }),
        // difference constraints
        (0u32..3, 0u32..3, -3i128..=3).prop_map(|(x, y, k)| {
            Formula::le(
                &Affine::var(Sym(x)),
                &Affine::var(Sym(y)).add(&Affine::constant(k)).unwrap(),
            )
            .unwrap()
        }),
    ]
}

fn arb_formula() -> impl Strategy<Value = Formula> {
    arb_atom().prop_recursive(3, 12, 3, |inner| {
        prop_oneof![
            inner.clone().prop_map(Formula::negate),
            prop::collection::vec(inner.clone(), 1..4).prop_map(Formula::and),
            prop::collection::vec(inner, 1..4).prop_map(Formula::or),
        ]
    })
}

fn agrees(p: &mut dyn Prover, f: &Formula) -> Result<(), TestCaseError> {
    let f = boxed(f.clone());
    let expected = brute_force(&f);
    match p.check(&f).unwrap() {
        SatResult::Sat(m) => {
            prop_assert!(expected, "{} says sat, brute force says unsat", p.name());
            prop_assert!(m.satisfies(&f), "model does not satisfy");
        }
        SatResult::Unsat => prop_assert!(
            !expected,
            "{} says unsat, brute force found a model",
            p.name()
        ),
        _ => {} // Unknown is allowed (never wrong), counted by the larger run
    }
    Ok(())
}

fn z3() -> Option<SmtLibProver> {
    if SmtLibProver::on_path("z3") {
        Some(SmtLibProver::z3())
    } else {
        eprintln!("skipped: no z3 on PATH (apt-get install z3)");
        None
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]
    #[test]
    fn native_agrees_with_brute_force(f in arb_formula()) {
        agrees(&mut NativeProver::new(), &f)?;
    }
}

#[test]
fn z3_agrees_with_brute_force() {
    let Some(z3) = z3() else { return };
    let z3 = std::cell::RefCell::new(z3);
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig::with_cases(1000));
    runner
        .run(&arb_formula(), |f| agrees(&mut *z3.borrow_mut(), &f))
        .unwrap();
}

#[test]
#[ignore = "thousands of formulas; run with --ignored"]
fn large_cross_check() {
    let native = std::cell::RefCell::new(NativeProver::new());
    let z3 = std::cell::RefCell::new(z3());
    let unknown = std::cell::Cell::new(0);
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig::with_cases(5000));
    runner
        .run(&arb_formula(), |f| {
            agrees(&mut *native.borrow_mut(), &f)?;
            if native
                .borrow_mut()
                .check(&boxed(f.clone()))
                .unwrap()
                .as_bool()
                .is_none()
            {
                unknown.set(unknown.get() + 1);
            }
            if let Some(z) = z3.borrow_mut().as_mut() {
                agrees(z, &f)?;
            }
            Ok(())
        })
        .unwrap();
    eprintln!("native unknown answers: {} of 5000", unknown.get());
}

/// The same questions for every backend.
#[allow(clippy::many_single_char_names)] // x, y, c, e, m, p: formula notation
fn unit_suite(p: &mut dyn Prover) {
    let x = Affine::var(Sym(0));
    let y = Affine::var(Sym(1));
    let c = Affine::constant;
    // unbounded integers: x > 10^30 is satisfiable
    let big = Formula::lt(&c(10i128.pow(30)), &x).unwrap();
    let SatResult::Sat(m) = p.check(&big).unwrap() else {
        panic!("{}: big", p.name())
    };
    assert!(m.int(Sym(0)) > 10i128.pow(30));
    // 2x = 2y + 1 has no integer solution
    let odd = Formula::eq(
        &x.scale(2).unwrap(),
        &y.scale(2).unwrap().add(&c(1)).unwrap(),
    )
    .unwrap();
    assert_eq!(
        p.check(&odd).unwrap(),
        SatResult::Unsat,
        "{}: parity",
        p.name()
    );
    // x < y && y < x + 1 is unsat over the integers
    let gap = Formula::and([
        Formula::lt(&x, &y).unwrap(),
        Formula::lt(&y, &x.add(&c(1)).unwrap()).unwrap(),
    ]);
    assert_eq!(p.check(&gap).unwrap(), SatResult::Unsat);
    // validity: x <= y || y <= x
    let total = Formula::or([Formula::le(&x, &y).unwrap(), Formula::le(&y, &x).unwrap()]);
    assert_eq!(p.is_valid(&total).unwrap(), Some(true));
    // projected enumeration: x in [0, 2] over predicates x == 0, x == 1
    let range = Formula::and([
        Formula::le(&c(0), &x).unwrap(),
        Formula::le(&x, &c(2)).unwrap(),
    ]);
    let over = [
        Formula::eq(&x, &c(0)).unwrap(),
        Formula::eq(&x, &c(1)).unwrap(),
    ];
    let e = p.all_sat(&range, &over, 10).unwrap();
    assert!(e.complete);
    let mut cubes = e.cubes;
    cubes.sort();
    assert_eq!(
        cubes,
        vec![vec![false, false], vec![false, true], vec![true, false]]
    );
}

#[test]
fn native_unit_suite() {
    unit_suite(&mut NativeProver::new());
}

#[test]
fn z3_unit_suite() {
    if let Some(mut z) = z3() {
        unit_suite(&mut z);
    }
}

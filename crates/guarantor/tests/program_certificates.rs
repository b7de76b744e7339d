//! Certificates of programs (rule `program`): every bundled program example that holds gives a
//! certificate `guarantor-certify` accepts, with its obligations discharged by z3; mutations of
//! the certificate (a dropped obligation or predicate, an omitted transition flipped into a kept
//! one or back, a tampered script) and a changed program are rejected, each by the check named.
//! Without z3 on the PATH the solver tests say so and stop; a missing solver is a typed error.

use guarantor::certify::Model;
use guarantor::certify::fingerprint::model_print;
use guarantor::certify::format::{AbstractLts, Certificate, Obligation, ProgramEvidence};
use guarantor::certify::program::fill_scripts;
use guarantor::certify::smt::Solver;
use guarantor::certify::{CertifyError, Rejection, Report};
use guarantor::lts::{Lts, LtsBuilder, StateId};
use guarantor::predabs::prover::SmtLibProver;
use guarantor::predabs::{Config, Program, ProgramVerdict, check_cegar};
use guarantor::program_certificate::{program_certificate, program_model, verify_program};

include!("../../predabs/tests/shared/philosophers.rs");

fn data(name: &str) -> String {
    let path = format!(
        "{}/../predabs/tests/data/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The bundled programs that hold, by name.
fn holding() -> Vec<(String, String)> {
    let mut out = vec![
        ("bakery.gc".to_owned(), data("bakery.gc")),
        ("lock.gc".to_owned(), data("lock.gc")),
        (
            "counter.gc".to_owned(),
            "component C {\n var x: int = 0;\n loc run, bad;\n error bad;\n\
             run -> run when x < 10 do x := x + 1;\n run -> bad when x == 11;\n}\n"
                .to_owned(),
        ),
    ];
    for n in 2..=3 {
        out.push((format!("philosophers-{n}.gc"), philosophers(n)));
    }
    out
}

/// The programs the mutation tests break: shared predicates and variants (lock, bakery), local
/// predicates (counter).
fn mutated() -> Vec<(String, String)> {
    holding()
        .into_iter()
        .filter(|(name, _)| ["lock.gc", "bakery.gc", "counter.gc"].contains(&name.as_str()))
        .collect()
}

fn z3() -> bool {
    let there = SmtLibProver::on_path("z3");
    if !there {
        eprintln!("z3 is not on the PATH: the obligations cannot be discharged here");
    }
    there
}

fn certificate(text: &str, name: &str) -> (Program, Certificate) {
    let program = Program::parse(text, name).unwrap();
    let report = check_cegar(&program, &Config::default()).unwrap();
    assert_eq!(report.verdict, ProgramVerdict::Holds, "{name}");
    let cert = program_certificate(&program, &report).unwrap();
    (program, cert)
}

fn verify(program: &Program, cert: &Certificate) -> Report {
    verify_program(program, &cert.to_json().unwrap(), &Solver::z3()).unwrap()
}

#[test]
fn every_holding_example_gives_an_accepted_certificate() {
    if !z3() {
        return;
    }
    for (name, text) in holding() {
        let (program, cert) = certificate(&text, &name);
        let report = verify(&program, &cert);
        assert!(report.is_accepted(), "{name}: {:?}", report.outcome);
        let ev = cert.program.as_deref().unwrap();
        assert_eq!(report.obligations, ev.obligations.len(), "{name}");
        assert!(report.obligations > 0);
        assert_eq!(report.backend.as_deref(), Some("z3 -in -smt2"));
        eprintln!(
            "{name}: {} obligations, {} abstract states checked",
            report.obligations, report.states
        );
    }
}

/// The certificate with its program evidence changed by `f`.
fn mutate(cert: &Certificate, f: impl FnOnce(&mut ProgramEvidence)) -> Certificate {
    let mut out = cert.clone();
    f(out.program.as_deref_mut().unwrap());
    out
}

fn rejection(program: &Program, cert: &Certificate) -> Rejection {
    verify(program, cert)
        .rejection()
        .cloned()
        .expect("the mutated certificate must be rejected")
}

fn lts(a: &AbstractLts) -> Lts {
    let mut b = LtsBuilder::new();
    b.ensure_states(a.lts.states as usize).unwrap();
    for x in &a.alphabet {
        b.action(x).unwrap();
    }
    for (s, x, t) in &a.lts.transitions {
        b.add_transition_named(StateId::must(*s as usize), x, StateId::must(*t as usize))
            .unwrap();
    }
    b.set_initial(StateId::must(a.lts.initial as usize))
        .unwrap();
    if let Some(e) = a.error {
        b.set_error(StateId::must(e as usize)).unwrap();
    }
    b.build().unwrap()
}

/// Makes the inner certificate and the scripts agree with a changed abstraction again, as a
/// forger would.
fn reseal(program: &Program, ev: &mut ProgramEvidence) {
    let mut model = Model::new();
    for a in ev.components.iter().map(|c| &c.lts).chain(&ev.shared) {
        model = model.component(a.name.clone(), lts(a));
    }
    for a in &ev.properties {
        model = model.property(a.name.clone(), lts(a));
    }
    let (fingerprint, print) = model_print(&model);
    ev.inner.fingerprint = fingerprint;
    ev.inner.model = print;
    fill_scripts(ev, &program_model(program).unwrap()).unwrap();
}

/// Indices of the transition obligations with at least one kept transition.
fn with_kept(ev: &ProgramEvidence) -> Vec<usize> {
    (0..ev.obligations.len())
        .filter(|&i| matches!(&ev.obligations[i], Obligation::Transition { kept, .. } if !kept.is_empty()))
        .collect()
}

fn kept_of(o: &mut Obligation) -> &mut Vec<(String, u64)> {
    match o {
        Obligation::Transition { kept, .. } => kept,
        _ => unreachable!(),
    }
}

#[test]
fn mutations_are_rejected_by_the_check_they_break() {
    if !z3() {
        return;
    }
    let mut locals = 0;
    for (name, text) in mutated() {
        let (program, cert) = certificate(&text, &name);
        let ev = cert.program.as_deref().unwrap();
        // Each dropped obligation is missed.
        for i in 0..ev.obligations.len() {
            let m = mutate(&cert, |ev| {
                ev.obligations.remove(i);
            });
            assert!(
                matches!(rejection(&program, &m), Rejection::Obligation { ref reason, .. } if reason == "missing"),
                "{name}: dropping obligation {i}"
            );
        }
        // A dropped predicate (shared or local) leaves states and processes it no longer explains.
        if !ev.predicates.shared.is_empty() {
            let m = mutate(&cert, |ev| {
                ev.predicates.shared.pop();
            });
            assert!(matches!(
                rejection(&program, &m),
                Rejection::Abstraction { .. } | Rejection::Obligation { .. }
            ));
        }
        if let Some(c) = ev.predicates.local.iter().position(|l| !l.is_empty()) {
            locals += 1;
            let m = mutate(&cert, |ev| {
                ev.predicates.local[c].pop();
            });
            assert!(matches!(
                rejection(&program, &m),
                Rejection::Abstraction { .. } | Rejection::Obligation { .. }
            ));
        }
        // A kept transition flipped into an omitted one: the abstract LTS still has it.
        for i in with_kept(ev) {
            let m = mutate(&cert, |ev| {
                kept_of(&mut ev.obligations[i]).pop();
            });
            assert!(
                matches!(rejection(&program, &m), Rejection::Abstraction { ref reason } if reason.contains("no kept transition gives")),
                "{name}: obligation {i}"
            );
        }
        // An omitted transition flipped into a kept one: the abstract LTS lacks it.
        let mut flipped = 0;
        for i in with_kept(ev) {
            let Obligation::Transition {
                kept, component, ..
            } = &ev.obligations[i]
            else {
                continue;
            };
            let c = ev
                .components
                .iter()
                .position(|c| c.lts.name == *component)
                .unwrap();
            let (label, target) = kept[0].clone();
            let others: Vec<u64> = (0..ev.components[c].states.len() as u64)
                .filter(|&t| t != target && !kept.contains(&(label.clone(), t)))
                .collect();
            let Some(&other) = others.first() else {
                continue;
            };
            let m = mutate(&cert, |ev| {
                kept_of(&mut ev.obligations[i]).push((label.clone(), other));
            });
            assert!(matches!(
                rejection(&program, &m),
                Rejection::Abstraction { .. } | Rejection::Obligation { .. }
            ));
            flipped += 1;
        }
        if name != "counter.gc" {
            assert!(flipped > 0, "{name}: no omitted transition to flip");
        }
        // A tampered script.
        let m = mutate(&cert, |ev| {
            let s = ev.obligations[0].script_mut();
            *s = s.replace("(check-sat)", "(assert false)\n(check-sat)");
        });
        assert!(matches!(
            rejection(&program, &m),
            Rejection::Obligation { ref reason, .. } if reason.contains("derives")
        ));
    }
    assert!(locals > 0, "no program with local predicates was mutated");
}

#[test]
fn consistent_flips_of_kept_transitions_are_caught_by_the_solver() {
    if !z3() {
        return;
    }
    for (name, text) in mutated() {
        let (program, cert) = certificate(&text, &name);
        let ev = cert.program.as_deref().unwrap();
        // The same flip kept -> omitted, made consistent (the LTS edge removed, the inner
        // certificate and the scripts resealed): now the solver finds the concrete step.
        let mut by_solver = 0;
        for i in with_kept(ev) {
            let m = mutate(&cert, |ev| {
                let Obligation::Transition {
                    component, state, ..
                } = &ev.obligations[i]
                else {
                    unreachable!()
                };
                let (component, state) = (component.clone(), *state);
                let (label, target) = kept_of(&mut ev.obligations[i]).pop().unwrap();
                let comp = ev
                    .components
                    .iter_mut()
                    .find(|c| c.lts.name == component)
                    .unwrap();
                let hub = comp.lts.lts.initial;
                let from_hub = comp.initial.contains(&state) && comp.initial != [hub];
                comp.lts.lts.transitions.retain(|(s, a, t)| {
                    !((*s == state || from_hub && *s == hub) && *t == target && *a == label)
                });
                reseal(&program, ev);
            });
            match rejection(&program, &m) {
                Rejection::Obligation { reason, .. } if reason.contains("sat") => by_solver += 1,
                Rejection::Obligation { .. }
                | Rejection::Abstraction { .. }
                | Rejection::AbstractCheck(_) => {}
                other => panic!("{name}: obligation {i}: {other}"),
            }
        }
        eprintln!(
            "{name}: {} variants, {} kept-transition obligations, {by_solver} consistent flips caught by the solver",
            ev.variants.len(),
            with_kept(ev).len()
        );
        assert!(
            by_solver > 0,
            "{name}: no consistent flip was caught by the solver"
        );
    }
}

#[test]
fn a_changed_program_is_another_model() {
    if !z3() {
        return;
    }
    let (_, cert) = certificate(&data("lock.gc"), "lock.gc");
    let changed = Program::parse(
        &data("lock.gc").replacen("do lock := 1", "do lock := 2", 1),
        "lock.gc",
    )
    .unwrap();
    assert!(matches!(
        rejection(&changed, &cert),
        Rejection::Fingerprint { .. } | Rejection::Model { .. }
    ));
    let bug = Program::parse(&data("bakery_bug.gc"), "bakery_bug.gc").unwrap();
    let (_, bakery) = certificate(&data("bakery.gc"), "bakery.gc");
    assert!(matches!(
        rejection(&bug, &bakery),
        Rejection::Fingerprint { .. } | Rejection::Model { .. }
    ));
}

#[test]
fn a_missing_solver_is_a_typed_error() {
    let (program, cert) = certificate(&data("lock.gc"), "lock.gc");
    let none = Solver::new(vec!["guarantor-no-such-solver".to_owned()]);
    let err = verify_program(&program, &cert.to_json().unwrap(), &none).unwrap_err();
    assert!(
        matches!(
            err,
            guarantor::CheckError::Certify(CertifyError::Solver { .. })
        ),
        "{err}"
    );
    assert!(err.to_string().contains("guarantor-no-such-solver"));
}

#[test]
fn a_violated_program_has_no_certificate() {
    let program = Program::parse(&data("bakery_bug.gc"), "bakery_bug.gc").unwrap();
    let report = check_cegar(&program, &Config::default()).unwrap();
    assert!(program_certificate(&program, &report).is_err());
}

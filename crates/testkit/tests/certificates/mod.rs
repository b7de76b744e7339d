//! The suite's certificate checks: every (case, method) pair that answers writes a certificate
//! of `guarantor-certify` (through `Checker::certificate`) that its checker accepts, and a set of
//! mutations of each certificate that must break it, each rejected by the check expected.
//!
//! The mutations (counted per kind in [`Tally`], printed in the suite's summary):
//! - `drop`: drop one transition of an assumption such that the certificate is rejected, by a
//!   premise (the first transitions are tried in order; a certificate where none of them is
//!   needed counts as `unneeded`, not as a failure);
//! - `rename`: rename an action of an assumption (in its alphabet and transitions) to a fresh
//!   name: rejected by a premise or an alphabet check (tried action by action, as `drop`);
//! - `swap`: swap the components two assumptions stand for: rejected by the rule;
//! - `fingerprint`: change the model's fingerprint: rejected as a fingerprint mismatch;
//! - `model`: check against another model (one component gets one more state and transition):
//!   rejected as a fingerprint mismatch of that component;
//! - `cut`: drop the last step of a counterexample: rejected by the replay.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::Mutex;
use std::time::Instant;

use guarantor::certify::format::{Certificate, Premise, VerdictKind};
use guarantor::certify::{Model, Rejection, Report};
use guarantor::lts::{Lts, LtsBuilder, StateId};
use guarantor::{CheckError, Checker, Outcome};

/// The most product states an accepted certificate's check may have visited for its mutations
/// to be tried too (each mutation is a new check; beyond this they would dominate the suite).
const MUTATE_BELOW_STATES: usize = 20_000;

/// How many transitions (or actions) `drop` (or `rename`) tries before giving up.
const TRIES: usize = 6;

/// Counts, by a short label (`accepted holds asym`, `drop rejected`, ...).
pub(crate) struct Tally(Mutex<BTreeMap<String, usize>>);

/// The suite's counts.
pub(crate) static TALLY: Tally = Tally(Mutex::new(BTreeMap::new()));

impl Tally {
    fn add(&self, label: impl Into<String>) {
        self.add_n(label, 1);
    }

    fn add_n(&self, label: impl Into<String>, n: usize) {
        *self.0.lock().unwrap().entry(label.into()).or_default() += n;
    }

    /// One line per label.
    pub(crate) fn lines(&self) -> String {
        let mut out = String::new();
        for (k, v) in self.0.lock().unwrap().iter() {
            let _ = writeln!(out, "  {k:<40} {v:>5}");
        }
        out
    }
}

/// The certificate of `outcome`, checked by `guarantor-certify`, then mutated. `Err` names what
/// went wrong.
pub(crate) fn check_certificate(
    checker: &Checker,
    outcome: &Outcome,
    custom: bool,
    tally: &Tally,
) -> Result<(), String> {
    let started = Instant::now();
    let result = certify_and_mutate(checker, outcome, custom, tally);
    let ms = usize::try_from(started.elapsed().as_millis()).unwrap_or(usize::MAX);
    tally.add_n("time: certificates, checks, mutations (ms)", ms);
    result
}

fn certify_and_mutate(
    checker: &Checker,
    outcome: &Outcome,
    custom: bool,
    tally: &Tally,
) -> Result<(), String> {
    let cert = match checker.certificate(outcome) {
        Ok(cert) => cert,
        Err(CheckError::NoCertificates { .. }) if custom && outcome.verdict.is_holds() => {
            tally.add("unknown rule (user's method, holds)");
            return Ok(());
        }
        Err(e) => return Err(format!("no certificate: {e}")),
    };
    let json = cert.to_json().map_err(|e| e.to_string())?;
    let report = checker
        .verify_json(&json)
        .map_err(|e| format!("certificate not read: {e}"))?;
    if let Some(r) = report.rejection() {
        return Err(format!(
            "certificate ({} {}) rejected: {r}",
            verdict_name(cert.verdict),
            cert.rule.name()
        ));
    }
    tally.add(format!(
        "accepted {} {}",
        verdict_name(cert.verdict),
        cert.rule.name()
    ));
    if report.states > MUTATE_BELOW_STATES {
        tally.add("not mutated (check above 20000 states)");
        return Ok(());
    }
    mutate(checker, &cert, tally)
}

fn verdict_name(v: VerdictKind) -> &'static str {
    match v {
        VerdictKind::Holds => "holds",
        _ => "violated",
    }
}

fn run(checker: &Checker, cert: &Certificate) -> Report {
    checker
        .verify(cert)
        .expect("a mutated certificate stays readable")
}

/// Applies every mutation that fits the certificate.
fn mutate(checker: &Checker, cert: &Certificate, tally: &Tally) -> Result<(), String> {
    let mut failures = Vec::new();
    let mut expect =
        |kind: &str, report: &Report, ok: &dyn Fn(&Rejection) -> bool| match report.rejection() {
            Some(r) if ok(r) => tally.add(format!("{kind}: rejected as expected")),
            Some(r) => {
                tally.add(format!("{kind}: REJECTED OTHERWISE"));
                failures.push(format!("{kind}: rejected by an unexpected check: {r}"));
            }
            None => {
                tally.add(format!("{kind}: ACCEPTED"));
                failures.push(format!("{kind}: the mutated certificate is accepted"));
            }
        };
    // fingerprint
    let mut m = cert.clone();
    m.fingerprint = flip(&m.fingerprint);
    expect(
        "fingerprint",
        &run(checker, &m),
        &|r| matches!(r, Rejection::Fingerprint { name, .. } if name == "<model>"),
    );
    // another model: the first component with one more state
    let other = other_model(checker);
    let first = checker.components().next().map(|(n, _)| n.to_owned());
    let report = guarantor::certify::check(cert, &other).expect("readable");
    expect(
        "model",
        &report,
        &|r| matches!(r, Rejection::Fingerprint { name, .. } if Some(name) == first.as_ref()),
    );
    match cert.verdict {
        VerdictKind::Violated => {
            let cex = cert
                .counterexample
                .as_ref()
                .expect("a violated certificate");
            if !cex.steps.is_empty() {
                let mut m = cert.clone();
                m.counterexample.as_mut().unwrap().steps.pop();
                expect("cut", &run(checker, &m), &|r| {
                    matches!(r, Rejection::Replay { .. })
                });
            }
        }
        _ => {
            if cert.assumptions.len() >= 2 {
                let mut m = cert.clone();
                let (first, rest) = m.assumptions.split_at_mut(1);
                std::mem::swap(&mut first[0].components, &mut rest[0].components);
                expect("swap", &run(checker, &m), &|r| {
                    matches!(r, Rejection::Rule { .. })
                });
            }
            drop_transition(checker, cert, tally, &mut expect);
            rename_action(checker, cert, tally, &mut expect);
        }
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures.join("; "))
    }
}

type Expect<'a> = dyn FnMut(&str, &Report, &dyn Fn(&Rejection) -> bool) + 'a;

/// Drops transitions of the assumptions (of rule `reduce`: of the reductions' results) one at a
/// time until one is rejected.
fn drop_transition(checker: &Checker, cert: &Certificate, tally: &Tally, expect: &mut Expect<'_>) {
    let mut tried = 0;
    for (i, count) in transition_counts(cert) {
        for t in 0..count {
            if tried == TRIES {
                tally.add("drop: none of the first 6 needed");
                return;
            }
            tried += 1;
            let mut m = cert.clone();
            match m.assumptions.get_mut(i) {
                Some(a) => {
                    a.lts.transitions.remove(t);
                }
                None => {
                    let k = i - cert.assumptions.len();
                    if let Some(Premise::Reduction { result, .. }) = m.premises.get_mut(k) {
                        result.transitions.remove(t);
                    }
                }
            }
            let report = run(checker, &m);
            if report.rejection().is_some() {
                expect("drop", &report, &|r| matches!(r, Rejection::Premise { .. }));
                return;
            }
        }
    }
    tally.add("drop: none of the first 6 needed");
}

/// The LTSs a mutation may drop transitions of: `(i, transitions)` for each assumption `i`, then
/// for each premise `k` that is a reduction, `(assumptions + k, transitions of its result)`.
fn transition_counts(cert: &Certificate) -> Vec<(usize, usize)> {
    let n = cert.assumptions.len();
    let assumptions = cert
        .assumptions
        .iter()
        .enumerate()
        .map(|(i, a)| (i, a.lts.transitions.len()));
    let reductions = cert
        .premises
        .iter()
        .enumerate()
        .filter_map(|(k, p)| match p {
            Premise::Reduction { result, .. } => Some((n + k, result.transitions.len())),
            _ => None,
        });
    assumptions.chain(reductions).collect()
}

/// Renames actions of the assumptions one at a time until one is rejected.
fn rename_action(checker: &Checker, cert: &Certificate, tally: &Tally, expect: &mut Expect<'_>) {
    let mut tried = 0;
    for (i, a) in cert.assumptions.iter().enumerate() {
        for action in &a.alphabet {
            if tried == TRIES {
                tally.add("rename: none of the first 6 needed");
                return;
            }
            tried += 1;
            let mut m = cert.clone();
            let fresh = format!("{action}__renamed");
            let target = &mut m.assumptions[i];
            for x in &mut target.alphabet {
                if x == action {
                    x.clone_from(&fresh);
                }
            }
            for t in &mut target.lts.transitions {
                if &t.1 == action {
                    t.1.clone_from(&fresh);
                }
            }
            let report = run(checker, &m);
            if report.rejection().is_some() {
                expect("rename", &report, &|r| {
                    matches!(r, Rejection::Premise { .. } | Rejection::Alphabet { .. })
                });
                return;
            }
        }
    }
    tally.add("rename: none of the first 6 needed");
}

/// The fingerprint with its first hex digit changed.
fn flip(print: &str) -> String {
    let mut chars: Vec<char> = print.chars().collect();
    if let Some(c) = chars.first_mut() {
        *c = if *c == '0' { '1' } else { '0' };
    }
    chars.into_iter().collect()
}

/// The checker's model with one more state in its first component (reached by its first
/// visible action from the initial state, or a fresh action if it has none).
fn other_model(checker: &Checker) -> Model {
    let mut model = Model::new();
    for (i, (name, lts)) in checker.components().enumerate() {
        model = model.component(name, if i == 0 { grown(lts) } else { lts.clone() });
    }
    for (name, lts) in checker.properties() {
        model = model.property(name, lts.clone());
    }
    model
}

fn grown(lts: &Lts) -> Lts {
    let mut b = LtsBuilder::with_alphabet(lts.alphabet().clone());
    b.ensure_states(lts.num_states()).unwrap();
    b.set_initial(lts.initial()).unwrap();
    for t in lts.transitions() {
        b.add_transition(t.source, t.action, t.target).unwrap();
    }
    if let Some(e) = lts.error_state() {
        b.set_error(e).unwrap();
    }
    let new: StateId = b.add_state().unwrap();
    b.add_transition_named(lts.initial(), "__another_model", new)
        .unwrap();
    b.build().unwrap()
}

//! Certificates of programs (rule `program`): a `holds` of predicate abstraction written as a
//! certificate of `guarantor-certify`, and checked against the program by its checker.
//!
//! [`program_model`] is the program as the checker sees it (guards and updates as SMT-LIB2 terms
//! over quoted variable names); [`program_certificate`] records the final abstraction of a
//! [`PredabsReport`] whose verdict is `holds`: the predicates, the abstract system (each
//! component's abstract LTS with what each state stands for, the shared-predicate processes, the
//! properties with their variant copies), one proof obligation per abstract initial state set,
//! per shared predicate with a known initial value and per (abstract state, concrete transition),
//! and the certificate of the abstract check: rule `mono` over the abstract system, which the
//! checker re-explores with its own product. [`verify_program`] re-checks a certificate.
//!
//! ```
//! use guarantor::predabs::{Program, check_cegar, Config};
//! use guarantor::program_certificate::{program_certificate, verify_program};
//! use guarantor::certify::smt::Solver;
//! let src = "component C {\n var x: int = 0;\n loc run, bad;\n error bad;\n\
//!            run -> run when x < 10 do x := x + 1;\n run -> bad when x == 11;\n}\n";
//! let program = Program::parse(src, "counter.gc")?;
//! let report = check_cegar(&program, &Config::default())?;
//! let certificate = program_certificate(&program, &report)?;
//! if guarantor::predabs::prover::SmtLibProver::on_path("z3") {
//!     let checked = verify_program(&program, &certificate.to_json()?, &Solver::z3())?;
//!     assert!(checked.is_accepted());
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::BTreeSet;
use std::fmt::Write as _;

use guarantor_certify::fingerprint::model_print;
use guarantor_certify::format::{
    AbstractComponent, AbstractLts, Certificate, Obligation, PredicateData, Premise,
    ProgramEvidence, Rule, StateMeaning, VariantData, VerdictKind,
};
use guarantor_certify::program::{
    ProgramComponent, ProgramModel, Sort, Transition, check_program_json, fill_scripts,
    program_print,
};
use guarantor_certify::smt::Solver;
use guarantor_certify::{Model, Report};

use crate::CheckError;
use guarantor_lts::Lts;
use guarantor_predabs::abstraction::{
    AbstractComponent as AbstractComponentOf, AbstractState, AbstractSystem,
};
use guarantor_predabs::formula::{Affine, Atom, Formula, LinExpr, Sym, Term};
use guarantor_predabs::program::{Type, Value};
use guarantor_predabs::{PredabsReport, Program, ProgramVerdict};

/// Why a program's verdict could not be written as a certificate: [`CheckError::ProgramViolated`],
/// [`CheckError::ProgramUnsupported`], [`CheckError::ProgramAbstraction`].
type Result<T> = std::result::Result<T, CheckError>;

fn unsupported(what: &str) -> CheckError {
    CheckError::ProgramUnsupported(what.to_owned())
}

/// `v` as an SMT-LIB2 numeral (`(- 3)` for a negative one).
fn int(out: &mut String, v: i128) {
    if v < 0 {
        let _ = write!(out, "(- {})", v.unsigned_abs());
    } else {
        let _ = write!(out, "{v}");
    }
}

struct Printer<'a> {
    program: &'a Program,
}

impl Printer<'_> {
    fn var(&self, out: &mut String, s: Sym) {
        let _ = write!(out, "|{}|", self.program.sym_name(s));
    }

    fn lin(&self, out: &mut String, l: &LinExpr, constant: i128) {
        let mut parts = Vec::new();
        for &(s, a) in l.terms() {
            let mut p = String::new();
            if a == 1 {
                self.var(&mut p, s);
            } else {
                p.push_str("(* ");
                int(&mut p, a);
                p.push(' ');
                self.var(&mut p, s);
                p.push(')');
            }
            parts.push(p);
        }
        if constant != 0 || parts.is_empty() {
            let mut p = String::new();
            int(&mut p, constant);
            parts.push(p);
        }
        if parts.len() == 1 {
            out.push_str(&parts[0]);
        } else {
            let _ = write!(out, "(+ {})", parts.join(" "));
        }
    }

    fn formula(&self, out: &mut String, f: &Formula) -> Result<()> {
        match f {
            Formula::Const(b) => out.push_str(if *b { "true" } else { "false" }),
            Formula::Atom(Atom::Bool(s)) => self.var(out, *s),
            Formula::Atom(a @ (Atom::Le(l, c) | Atom::Eq(l, c))) => {
                out.push_str(if matches!(a, Atom::Le(..)) {
                    "(<= "
                } else {
                    "(= "
                });
                self.lin(out, l, 0);
                out.push(' ');
                int(out, *c);
                out.push(')');
            }
            Formula::Not(g) => {
                out.push_str("(not ");
                self.formula(out, g)?;
                out.push(')');
            }
            Formula::And(gs) | Formula::Or(gs) => {
                let (op, empty) = if matches!(f, Formula::And(_)) {
                    ("and", "true")
                } else {
                    ("or", "false")
                };
                match gs.as_slice() {
                    [] => out.push_str(empty),
                    [one] => self.formula(out, one)?,
                    _ => {
                        let _ = write!(out, "({op}");
                        for g in gs {
                            out.push(' ');
                            self.formula(out, g)?;
                        }
                        out.push(')');
                    }
                }
            }
            _ => return Err(unsupported("a formula of an unknown kind")),
        }
        Ok(())
    }

    fn text(&self, f: &Formula) -> Result<String> {
        let mut out = String::new();
        self.formula(&mut out, f)?;
        Ok(out)
    }

    fn term(&self, t: &Term) -> Result<String> {
        match t {
            Term::Int(Affine { lin, constant }) => {
                let mut out = String::new();
                self.lin(&mut out, lin, *constant);
                Ok(out)
            }
            Term::Bool(f) => self.text(f),
            _ => Err(unsupported("a term of an unknown kind")),
        }
    }
}

/// The program as `guarantor-certify` checks it: variables with their sorts and initial values,
/// each component's locations and transitions (labels as the abstraction names them, guards and
/// right-hand sides as SMT-LIB2 terms over `|name|`), and the properties.
///
/// # Errors
/// [`CheckError::ProgramUnsupported`] for a sort, value, formula or term the
/// translation does not know.
pub fn program_model(program: &Program) -> Result<ProgramModel> {
    let p = Printer { program };
    let mut model = ProgramModel::new();
    for v in &program.vars {
        let sort = match v.ty {
            Type::Int => Sort::Int,
            Type::Bool => Sort::Bool,
            _ => return Err(unsupported("a variable of an unknown sort")),
        };
        let init = match v.init {
            None => None,
            Some(Value::Int(k)) => {
                let mut out = String::new();
                int(&mut out, k);
                Some(out)
            }
            Some(Value::Bool(b)) => Some(b.to_string()),
            Some(_) => return Err(unsupported("an initial value of an unknown kind")),
        };
        model = model.variable(v.name.clone(), sort, init);
    }
    for (c, comp) in program.components.iter().enumerate() {
        let mut out = ProgramComponent::new(
            comp.name.clone(),
            comp.locations.clone(),
            comp.initial,
            comp.error_locations.clone(),
        );
        for (i, t) in comp.transitions.iter().enumerate() {
            let updates = t
                .assignments
                .iter()
                .map(|(x, e)| Ok((program.sym_name(Sym(*x as u32)), p.term(e)?)))
                .collect::<Result<Vec<_>>>()?;
            out = out.transition(Transition::new(
                t.from,
                t.to,
                program.label(c, i),
                p.text(&t.guard)?,
                updates,
            ));
        }
        model = model.component(out);
    }
    for prop in &program.properties {
        model = model.property(prop.name.clone(), prop.lts.clone());
    }
    Ok(model)
}

/// The name of shared predicate `f`'s process in the abstract system (as the grouping names it).
fn shared_name(program: &Program, f: &Formula) -> String {
    format!("[{}]", program.show(f))
}

/// Component `c`'s abstraction: its LTS and state meanings; its obligations and variants are
/// pushed onto the lists.
fn component(
    program: &Program,
    c: usize,
    part: &AbstractComponentOf,
    lts: &Lts,
    obligations: &mut Vec<Obligation>,
    variants: &mut Vec<VariantData>,
) -> Result<AbstractComponent> {
    let comp = &program.components[c];
    let states = part
        .states
        .iter()
        .map(|s| match s {
            AbstractState::Hub => Ok(StateMeaning::Hub),
            AbstractState::At {
                location,
                valuation,
            } => Ok(StateMeaning::At {
                location: *location,
                valuation: valuation.clone(),
            }),
            AbstractState::Error => Ok(StateMeaning::Error),
            _ => Err(unsupported("an abstract state of an unknown kind")),
        })
        .collect::<Result<Vec<_>>>()?;
    obligations.push(Obligation::Initial {
        component: comp.name.clone(),
        script: String::new(),
    });
    for (s, m) in part.states.iter().enumerate() {
        let AbstractState::At { location, .. } = m else {
            continue;
        };
        for (ti, t) in comp.transitions.iter().enumerate() {
            if t.from != *location {
                continue;
            }
            let kept: BTreeSet<(String, u64)> = part
                .edges
                .iter()
                .filter(|e| e.source.index() == s && e.transition == ti)
                .map(|e| (e.label.clone(), u64::from(e.target.as_u32())))
                .collect();
            obligations.push(Obligation::Transition {
                component: comp.name.clone(),
                state: s as u64,
                transition: ti,
                kept: kept.into_iter().collect(),
                script: String::new(),
            });
        }
    }
    for v in &part.variants {
        variants.push(VariantData::new(
            v.name.clone(),
            v.base.clone(),
            comp.name.clone(),
            v.pre.clone(),
            v.post.clone(),
        ));
    }
    Ok(AbstractComponent::new(
        AbstractLts::from_lts(comp.name.clone(), lts),
        states,
        part.initial.iter().map(|s| u64::from(s.as_u32())).collect(),
    ))
}

/// The abstract check's certificate: rule `mono` over the abstract system (the components'
/// abstract LTSs and the shared-predicate processes as components, the abstract properties).
fn inner_certificate(program: &Program, abs: &AbstractSystem) -> Certificate {
    let mut inner_model = Model::new();
    for (c, lts) in abs.components.iter().enumerate() {
        inner_model = inner_model.component(program.components[c].name.clone(), lts.clone());
    }
    for sp in &abs.shared {
        inner_model = inner_model.component(shared_name(program, &sp.predicate), sp.lts.clone());
    }
    for (prop, lts) in program.properties.iter().zip(&abs.properties) {
        inner_model = inner_model.property(prop.name.clone(), lts.clone());
    }
    let (fingerprint, print) = model_print(&inner_model);
    Certificate::new(VerdictKind::Holds, Rule::Mono, fingerprint, print)
        .with_premise(Premise::Monolithic)
}

/// The certificate of a `holds` of predicate abstraction: see the [module docs](self).
///
/// # Errors
/// [`CheckError::ProgramViolated`] for a violated verdict; the others when the program or
/// the abstraction cannot be written.
pub fn program_certificate(program: &Program, report: &PredabsReport) -> Result<Certificate> {
    if matches!(report.verdict, ProgramVerdict::Violated(_)) {
        return Err(CheckError::ProgramViolated);
    }
    let p = Printer { program };
    let abs = &report.abstraction;
    let preds = &report.predicates;
    let predicates = PredicateData::new(
        preds
            .global
            .iter()
            .map(|f| p.text(f))
            .collect::<Result<_>>()?,
        preds
            .local
            .iter()
            .map(|fs| fs.iter().map(|f| p.text(f)).collect::<Result<_>>())
            .collect::<Result<_>>()?,
    );
    let mut components = Vec::new();
    let mut variants = Vec::new();
    let mut obligations = Vec::new();
    for (c, (part, lts)) in abs.parts.iter().zip(&abs.components).enumerate() {
        components.push(component(
            program,
            c,
            part,
            lts,
            &mut obligations,
            &mut variants,
        )?);
    }
    let mut shared = Vec::new();
    for (k, sp) in abs.shared.iter().enumerate() {
        if sp.lts.initial().index() < 2 {
            obligations.push(Obligation::SharedInitial {
                shared: k,
                script: String::new(),
            });
        }
        shared.push(AbstractLts::from_lts(
            shared_name(program, &sp.predicate),
            &sp.lts,
        ));
    }
    let properties: Vec<AbstractLts> = program
        .properties
        .iter()
        .zip(&abs.properties)
        .map(|(prop, lts)| AbstractLts::from_lts(prop.name.clone(), lts))
        .collect();
    let inner = inner_certificate(program, abs);
    let mut evidence = ProgramEvidence::new(
        predicates,
        components,
        shared,
        properties,
        variants,
        obligations,
        inner,
    );
    let model = program_model(program)?;
    fill_scripts(&mut evidence, &model).map_err(CheckError::ProgramAbstraction)?;
    let (fingerprint, print) = program_print(&model);
    Ok(
        Certificate::new(VerdictKind::Holds, Rule::Program, fingerprint, print)
            .with_program(evidence),
    )
}

/// Checks a certificate (JSON) against `program` with `guarantor-certify`, discharging the
/// obligations with `solver`.
///
/// # Errors
/// [`CheckError`]: the program cannot be translated, or the checker cannot interpret the
/// certificate or run the solver (a rejected certificate is an `Ok` report that says why).
pub fn verify_program(
    program: &Program,
    json: &str,
    solver: &Solver,
) -> std::result::Result<Report, CheckError> {
    let model = program_model(program)?;
    Ok(check_program_json(json, &model, solver)?)
}

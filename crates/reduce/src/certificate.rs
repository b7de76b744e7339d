//! The certificate of a `holds` of [`crate::Reduce`]: rule `reduce` of `guarantor-certify`.
//!
//! The construction is run again with a [`Recording`]: each minimisation step becomes one
//! `reduction` premise (the part, the actions it hid, the minimised LTS, and where each of the
//! part's states went), and with the deadlock question a final `no-deadlock` premise. The checker
//! re-checks every map with its own walk of the parts (`guarantor_certify::reduction`), so the
//! minimisation itself is not trusted. Running the construction again costs what the check cost;
//! a certificate is asked for only when a user wants one.

use std::collections::BTreeSet;

use guarantor_certify::Certificate;
use guarantor_certify::fingerprint::model_print;
use guarantor_certify::format::{LtsData, Premise, Reduced, Rule, VerdictKind};
use guarantor_compose::method::monitored;
use guarantor_compose::{Config, MethodError, Problem};

use crate::method::{Reduce, run_recorded};
use crate::minimise::{Flagged, reaches_error};

/// The premises of one run of the construction, in the order it made them.
#[derive(Debug, Default)]
pub(crate) struct Recording {
    premises: Vec<Premise>,
}

impl Recording {
    /// Records the minimisation of a component or property; returns its premise's index.
    pub(crate) fn leaf(
        &mut self,
        of: Reduced,
        hidden: &BTreeSet<String>,
        result: &Flagged,
        map: &[Option<u32>],
    ) -> usize {
        let entries = map
            .iter()
            .enumerate()
            .filter_map(|(s, image)| Some(vec![s as u64, u64::from((*image)?)]))
            .collect();
        self.push(of, hidden, result, entries)
    }

    /// Records the minimisation of the product of the parts of premises `a` and `b`: `tuples[s]`
    /// is the pair of their states behind the product's state `s` (none for its error state).
    pub(crate) fn pair(
        &mut self,
        [a, b]: [usize; 2],
        hidden: &BTreeSet<String>,
        result: &Flagged,
        tuples: &[Option<[u32; 2]>],
        map: &[Option<u32>],
    ) -> usize {
        let entries = tuples
            .iter()
            .zip(map)
            .filter_map(|(pair, image)| {
                let [x, y] = (*pair)?;
                Some(vec![u64::from(x), u64::from(y), u64::from((*image)?)])
            })
            .collect();
        self.push(Reduced::Pair([a, b]), hidden, result, entries)
    }

    fn push(
        &mut self,
        of: Reduced,
        hidden: &BTreeSet<String>,
        result: &Flagged,
        map: Vec<Vec<u64>>,
    ) -> usize {
        let lts = &result.lts;
        self.premises.push(Premise::Reduction {
            of,
            hidden: hidden.iter().cloned().collect(),
            alphabet: lts
                .alphabet()
                .iter()
                .filter(|(a, _)| !a.is_tau())
                .map(|(_, n)| n.to_owned())
                .collect(),
            result: LtsData::from_lts(lts),
            error: lts.error_state().map(|e| u64::from(e.as_u32())),
            ended: (0..result.ended.len())
                .filter(|&s| result.ended[s])
                .map(|s| s as u64)
                .collect(),
            map,
        });
        self.premises.len() - 1
    }
}

/// The certificate of a `holds` of `reduce` on `problem`, or `None` when there is nothing to
/// reduce (no component and no property).
///
/// # Errors
/// Budget errors of the construction, and [`crate::ReduceError::Disagreement`] if the run no
/// longer proves the `holds`.
pub(crate) fn write(
    reduce: &Reduce,
    problem: &Problem,
    config: &Config,
) -> Result<Option<Certificate>, MethodError> {
    let config = &config.started();
    let deadlock = problem.deadlock();
    let mut recording = Recording::default();
    let (outcome, _) = monitored(config, |config| {
        Ok(run_recorded(
            problem,
            config,
            reduce,
            &BTreeSet::new(),
            deadlock,
            Some(&mut recording),
        )?)
    })?;
    if recording.premises.is_empty() {
        return Ok(None);
    }
    let refuted = reaches_error(&outcome.last.lts)
        || (deadlock && crate::minimise::has_deadlock(&outcome.last));
    if refuted {
        return Err(MethodError::failed(crate::ReduceError::Disagreement));
    }
    let (fingerprint, print) = model_print(&problem.certify_model());
    let mut certificate = Certificate::new(VerdictKind::Holds, Rule::Reduce, fingerprint, print);
    for p in recording.premises {
        certificate = certificate.with_premise(p);
    }
    if deadlock {
        certificate = certificate.with_premise(Premise::NoDeadlock);
    }
    Ok(Some(certificate))
}

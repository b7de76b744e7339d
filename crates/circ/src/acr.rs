//! ACR, the two-layer search of the paper (Algorithms 1-5, reconstructed; see the crate docs):
//! the outer loop refines the assumption alphabet `A`, the inner loop alternates `GenAssmp` (SAT)
//! and `ApplyAG` (premise checks with counterexample analysis).

use std::time::{Duration, Instant};

use guarantor_compose::replay::first_violation;
use guarantor_compose::{Assumption, Certificate, Counterexample, Verdict};
use guarantor_lts::Lts;
use rustc_hash::FxHashSet;

use crate::config::{CexPerIteration, CircConfig};
use crate::encode::{Atom, Constraint, SynthOptions, Synthesizer};
use crate::error::CircError;
use crate::premises::{Batches, Decider, Decision, Job};
use crate::reduce::{PremiseCache, ReduceMemo};
use crate::report::{CircReport, RuleSummary};
use crate::rule::{Rule, policy_sets};
use crate::seed;
use crate::system::{ActSet, PreparedSystem, merge};
use guarantor_lts::ops::determinize::SubsetProgress;

/// A trace kept for constraint reuse after alphabet refinement (the paper's `IncTr`), with the
/// kind of constraint it produced. Each kind's validity rests only on property checks and on
/// non-membership checks, which Lemma 8 keeps valid for larger alphabets.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Incremental {
    /// Last premise: `OR_{j in S(G_{n+1})} -(s|g_j, j)`.
    Last(Vec<u32>),
    /// Default constraint of premise `premise` for its counterexample `trace`.
    Default { premise: usize, trace: Vec<u32> },
    /// Lemma 4(2): `OR_{j in S(G_{n+1}) \ {premise}} -(trace|g_j, j)`.
    Property { premise: usize, trace: Vec<u32> },
}

/// The rule and assumption alphabets for one alphabet `A`.
#[derive(Debug)]
struct View {
    rule: Rule,
    /// `alpha g_i` as sets.
    alphas: Vec<ActSet>,
    /// `alpha g_i` as global ids: letter `a` of assumption `i` is `letters[i][a]`.
    letters: Vec<Vec<u32>>,
    /// `letter_of[i][global]`.
    letter_of: Vec<Vec<Option<u32>>>,
}

impl View {
    fn new(sys: &PreparedSystem, g_sets: &[Vec<usize>], alphabet: &ActSet) -> Self {
        let n = sys.len();
        let alphas: Vec<ActSet> = (0..n)
            .map(|i| {
                sys.alpha(i)
                    .iter()
                    .zip(alphabet)
                    .map(|(x, y)| *x && *y)
                    .collect()
            })
            .collect();
        let letters: Vec<Vec<u32>> = alphas
            .iter()
            .map(|s| (0..s.len() as u32).filter(|&a| s[a as usize]).collect())
            .collect();
        let letter_of = letters
            .iter()
            .map(|l| {
                let mut m = vec![None; sys.width()];
                for (k, &a) in l.iter().enumerate() {
                    m[a as usize] = Some(k as u32);
                }
                m
            })
            .collect();
        let comps: Vec<ActSet> = (0..n).map(|i| sys.alpha(i).clone()).collect();
        let rule = Rule::new(g_sets, &alphas, &comps, sys.prop_alpha());
        Self {
            rule,
            alphas,
            letters,
            letter_of,
        }
    }

    fn word(&self, i: usize, trace: &[u32]) -> Vec<u32> {
        trace
            .iter()
            .filter_map(|&a| self.letter_of[i][a as usize])
            .collect()
    }

    fn plus(&self, i: usize, trace: &[u32]) -> Atom {
        Atom::plus(i, self.word(i, trace))
    }

    fn minus(&self, i: usize, trace: &[u32]) -> Atom {
        Atom::minus(i, self.word(i, trace))
    }

    /// The default constraint of premise `i` for its counterexample `trace` (last step included):
    /// `+(trace|g_i, i) OR OR_{j in S(G_i)} -(prefix|g_j, j)`.
    fn default_constraint(&self, i: usize, trace: &[u32]) -> Constraint {
        let prefix = &trace[..trace.len().saturating_sub(1)];
        let mut atoms = vec![self.plus(i, trace)];
        atoms.extend(self.rule.s[i].iter().map(|&j| self.minus(j, prefix)));
        Constraint(atoms)
    }

    /// `OR_{j in S(G_{n+1}) \ {skip}} -(trace|g_j, j)`; `None` if that disjunction is empty.
    fn exclusion(&self, skip: Option<usize>, trace: &[u32]) -> Option<Constraint> {
        let atoms: Vec<Atom> = self
            .rule
            .last
            .iter()
            .filter(|&&j| Some(j) != skip)
            .map(|&j| self.minus(j, trace))
            .collect();
        (!atoms.is_empty()).then_some(Constraint(atoms))
    }

    /// The constraint of a reused trace under this view (the paper's RC operator).
    fn refined(&self, inc: &Incremental) -> Option<Constraint> {
        match inc {
            Incremental::Last(s) => self.exclusion(None, s),
            Incremental::Default { premise, trace } => {
                self.rule.needed[*premise].then(|| self.default_constraint(*premise, trace))
            }
            Incremental::Property { premise, trace } => self.exclusion(Some(*premise), trace),
        }
    }
}

/// What `ApplyAG` concluded.
#[derive(Debug)]
enum Applied {
    Holds,
    Continue(Vec<Constraint>),
    /// Counterexamples of the abstract system (over `A`); at least one.
    Abstract(Vec<Vec<u32>>),
}

/// What a round with the projections as guarantees concluded.
#[derive(Debug)]
enum Seeded {
    /// The last premise holds: the projections are the certificate.
    Holds(Vec<Lts>),
    /// Counterexamples of the last premise, every one an abstract error.
    Abstract(Vec<Vec<u32>>),
    /// A projection or the last premise outgrew its limit: the synthesis takes this alphabet.
    TooLarge,
}

/// The last premise of a round with projections may build this many times
/// [`CircConfig::max_projection_states`] states before the synthesis takes over: enough for the
/// products of small projections, and at the default about a second of exploration, so a system
/// whose projections do not shrink loses little before the SAT search starts.
const SEED_PRODUCT_FACTOR: usize = 1024;

/// The projections of a run may go over this many times [`CircConfig::max_projection_states`]
/// members and moves in their subset constructions, in total: projecting a large component
/// again after every refinement must not cost more than the synthesis it is meant to save.
const SEED_WORK_FACTOR: usize = 1024;

/// What `AlphaRefine` concluded.
#[derive(Debug)]
enum Refined {
    Real(Vec<u32>),
    Alphabet(ActSet),
}

/// The state of one run.
#[derive(Debug)]
pub(crate) struct Acr<'a> {
    sys: &'a PreparedSystem,
    config: &'a CircConfig,
    g_sets: Vec<Vec<usize>>,
    completeness: Vec<ActSet>,
    full: ActSet,
    alphabet: ActSet,
    incremental: Vec<Incremental>,
    iterations: usize,
    refinements: usize,
    sat_calls: usize,
    max_k: usize,
    reused: usize,
    sat_time: Duration,
    check_time: Duration,
    premise_checks: usize,
    largest_product: usize,
    cache: PremiseCache,
    memo: ReduceMemo,
    /// Where the premises of an iteration are decided.
    batches: Batches,
    /// Premise counterexamples `(premise, trace)` analysed so far, in order, to be analysed again
    /// under each refined alphabet ([`CircConfig::reanalyse_traces`]).
    premise_cexs: Vec<(usize, Vec<u32>)>,
    /// The members of `premise_cexs`, for deduplication.
    reanalysed: FxHashSet<(usize, Vec<u32>)>,
    /// Members and moves the subset constructions of all projections have gone over (bounded by
    /// [`SEED_WORK_FACTOR`] times [`CircConfig::max_projection_states`]).
    seed_work: usize,
    /// Test-only record of the constraints reused at each refinement (see `tests`).
    #[cfg(test)]
    audit: tests::AuditLog,
}

impl<'a> Acr<'a> {
    pub(crate) fn new(sys: &'a PreparedSystem, config: &'a CircConfig) -> Result<Self, CircError> {
        let g_sets = policy_sets(sys, &config.policy)?;
        let completeness: Vec<ActSet> = (0..sys.len()).map(|i| sys.completeness(i)).collect();
        let mut full = sys.prop_alpha().clone();
        for c in &completeness {
            for (f, x) in full.iter_mut().zip(c) {
                *f |= *x;
            }
        }
        let alphabet = if config.alphabet_refinement {
            sys.prop_alpha().clone()
        } else {
            full.clone()
        };
        Ok(Self {
            sys,
            config,
            g_sets,
            completeness,
            full,
            alphabet,
            incremental: Vec::new(),
            iterations: 0,
            refinements: 0,
            sat_calls: 0,
            max_k: 0,
            reused: 0,
            sat_time: Duration::ZERO,
            check_time: Duration::ZERO,
            premise_checks: 0,
            largest_product: 0,
            cache: PremiseCache::default(),
            memo: ReduceMemo::default(),
            batches: Batches::new(&config.compose),
            premise_cexs: Vec::new(),
            reanalysed: FxHashSet::default(),
            seed_work: 0,
            #[cfg(test)]
            audit: tests::AuditLog::default(),
        })
    }

    /// Runs ACR to a verdict; `originals` name the violation of a counterexample.
    pub(crate) fn run(&mut self, originals: (&[&Lts], &[&Lts])) -> Result<CircReport, CircError> {
        // The last bound of the previous alphabet: the next search tries it first.
        let mut hint = None;
        // Projections are tried until one outgrows its limit; from then on SAT synthesises.
        let mut seeding = self.config.max_projection_states > 0;
        loop {
            let view = View::new(self.sys, &self.g_sets, &self.alphabet);
            self.cache.clear();
            self.memo.clear();
            if seeding {
                match self.seeded(&view)? {
                    Seeded::Holds(g) => {
                        let holds = Verdict::Holds(certificate(self.sys, &view, &g));
                        return Ok(self.report(&view, 0, holds, &g));
                    }
                    Seeded::Abstract(sigmas) => {
                        let before = self.alphabet.clone();
                        if let Some(trace) = self.refine(&view, &sigmas)? {
                            let cex = self.counterexample(&trace, originals)?;
                            return Ok(self.report(&view, 0, Verdict::Violated(cex), &[]));
                        }
                        // AlphaRefine grows the alphabet on every abstract error (Lemma 7);
                        // should it not, the same projections would come back: synthesise.
                        seeding = self.alphabet != before;
                        continue;
                    }
                    Seeded::TooLarge => seeding = false,
                }
            }
            let mut synth = self.synthesizer(&view)?;
            if let Some(h) = hint {
                synth.set_hint(h);
            }
            let outcome = self.inner(&view, &mut synth);
            self.sat_calls += synth.stats().sat_calls;
            if self.config.bound_hint {
                hint = Some(synth.bound());
            }
            let constraints = synth.constraints().len();
            match outcome? {
                Ok(g) => {
                    let holds = Verdict::Holds(certificate(self.sys, &view, &g));
                    return Ok(self.report(&view, constraints, holds, &g));
                }
                Err(sigmas) => {
                    if let Some(trace) = self.refine(&view, &sigmas)? {
                        let cex = self.counterexample(&trace, originals)?;
                        return Ok(self.report(&view, constraints, Verdict::Violated(cex), &[]));
                    }
                }
            }
        }
    }

    /// `AlphaRefine` on every abstract counterexample of an iteration: the first real one as a
    /// trace of the system, or `None` after the refinements of all of them were joined into
    /// the alphabet.
    fn refine(&mut self, view: &View, sigmas: &[Vec<u32>]) -> Result<Option<Vec<u32>>, CircError> {
        let t0 = Instant::now();
        let mut grown = self.alphabet.clone();
        for sigma in sigmas {
            match self.alpha_refine(view, sigma)? {
                Refined::Real(trace) => {
                    self.check_time += t0.elapsed();
                    return Ok(Some(trace));
                }
                Refined::Alphabet(a) => union(&mut grown, &a),
            }
        }
        self.check_time += t0.elapsed();
        self.alphabet = grown;
        self.refinements += 1;
        Ok(None)
    }

    /// One round with the components' projections as guarantees (module `seed`): every premise
    /// but the last holds by construction, so only the last one is checked, within
    /// [`CircConfig::max_projection_states`] times [`SEED_PRODUCT_FACTOR`] states.
    fn seeded(&mut self, view: &View) -> Result<Seeded, CircError> {
        let t0 = Instant::now();
        let seeded = match self.projections(view)? {
            Some(g) => self.last_premise_over(view, g)?,
            None => Seeded::TooLarge,
        };
        self.check_time += t0.elapsed();
        Ok(seeded)
    }

    /// The projection of every component onto its guarantee alphabet, or `None` when one has
    /// more than [`CircConfig::max_projection_states`] states or the projections of the run
    /// have done their share of work ([`SEED_WORK_FACTOR`]).
    fn projections(&mut self, view: &View) -> Result<Option<Vec<Lts>>, CircError> {
        let cap = self.config.max_projection_states;
        let work_limit = cap.saturating_mul(SEED_WORK_FACTOR);
        let budget = self.config.compose.budget()?;
        let mut g = Vec::with_capacity(self.sys.len());
        for i in 0..self.sys.len() {
            let work = &mut self.seed_work;
            let keep_going = |p: &SubsetProgress| {
                *work += p.work;
                *work <= work_limit && budget.check_now().is_ok()
            };
            let projection = seed::projection(self.sys, i, &view.letters[i], cap, keep_going)?;
            budget.check_now()?;
            let Some(p) = projection else {
                self.note(format!(
                    "projections: component {i}'s has more than {cap} states or costs too much; \
                     synthesising from here"
                ));
                return Ok(None);
            };
            g.push(p);
        }
        Ok(Some(g))
    }

    /// The last premise `S(G_{n+1}) |= P` with the projections `g` as guarantees.
    fn last_premise_over(&mut self, view: &View, g: Vec<Lts>) -> Result<Seeded, CircError> {
        self.next_iteration()?;
        self.note_progress(&g);
        let mut jobs = self.jobs(view, &g);
        jobs.retain(|job| job.premise.is_none());
        let Some(job) = jobs.first() else {
            let traces = self.without_environment();
            return Ok(if traces.is_empty() {
                Seeded::Holds(g)
            } else {
                Seeded::Abstract(traces)
            });
        };
        let limit = self
            .config
            .max_projection_states
            .saturating_mul(SEED_PRODUCT_FACTOR);
        let own = self.config.compose.max_states;
        let bounded =
            (self.config.compose.clone()).with_max_states(own.map_or(limit, |o| o.min(limit)));
        let traces = match self.decider().decide(job, &bounded) {
            Ok(decision) => {
                self.premise_checks += 1;
                self.largest_product = self.largest_product.max(decision.states);
                decision.traces
            }
            // Outgrown: the synthesis takes over, unless the run's own budget is spent.
            Err(e) if e.is_budget() => {
                self.config.compose.budget()?.check_now()?;
                self.note(format!(
                    "projections: the last premise has more than {limit} states; synthesising \
                     from here"
                ));
                return Ok(Seeded::TooLarge);
            }
            Err(e) => return Err(e),
        };
        drop(jobs);
        Ok(if traces.is_empty() {
            Seeded::Holds(g)
        } else {
            Seeded::Abstract(traces)
        })
    }

    fn synthesizer(&mut self, view: &View) -> Result<Synthesizer, CircError> {
        let names = view
            .letters
            .iter()
            .map(|l| l.iter().map(|&a| self.sys.name(a).to_owned()).collect())
            .collect();
        let options = SynthOptions {
            symmetry_breaking: self.config.symmetry_breaking,
            incremental: self.config.incremental,
            disjunction: self.config.disjunction,
            max_total_states: self.config.max_total_states,
            max_conflicts: self.config.max_conflicts,
        };
        let mut synth = Synthesizer::new(names, options);
        if self.config.reuse_constraints {
            let mut kept: Vec<Constraint> = self
                .incremental
                .iter()
                .filter_map(|inc| view.refined(inc))
                .collect();
            if self.config.reanalyse_traces && self.config.strong_constraints {
                for (i, tau) in &self.premise_cexs {
                    if !view.rule.needed[*i] {
                        continue;
                    }
                    let t = if self.config.extend_traces {
                        self.extend_trace(view, *i, tau)?
                    } else {
                        tau.clone()
                    };
                    if let Some((cs, _)) = closed_set_constraints(self.sys, view, *i, &t) {
                        kept.extend(cs);
                    }
                }
            }
            #[cfg(test)]
            self.audit.refined(view, &kept);
            for c in kept {
                synth.add(c)?;
                self.reused += 1;
            }
        }
        Ok(synth)
    }

    /// The inner loop: `Ok(Ok(g))` when the premises hold with `g`, `Ok(Err(sigmas))` for
    /// abstract counterexamples.
    fn inner(
        &mut self,
        view: &View,
        synth: &mut Synthesizer,
    ) -> Result<Result<Vec<Lts>, Vec<Vec<u32>>>, CircError> {
        loop {
            self.next_iteration()?;
            let t0 = Instant::now();
            let g = synth.solve()?;
            self.sat_time += t0.elapsed();
            self.max_k = self.max_k.max(synth.bound());
            self.note_progress(&g);
            let t0 = Instant::now();
            let applied = self.apply_ag(view, &g);
            self.check_time += t0.elapsed();
            match applied? {
                Applied::Holds => return Ok(Ok(g)),
                Applied::Abstract(sigmas) => return Ok(Err(sigmas)),
                Applied::Continue(cs) => {
                    for c in cs {
                        synth.add(c)?;
                    }
                }
            }
        }
    }

    /// The last premise's counterexamples when it has no environment (so no job): the property
    /// has no actions and is violated, by the empty trace, only if it starts in error.
    fn without_environment(&self) -> Vec<Vec<u32>> {
        self.sys
            .violation_prefix(&[])
            .map(|_| Vec::new())
            .into_iter()
            .collect()
    }

    /// Counts an iteration, within [`CircConfig::max_iterations`] and the run's budget.
    fn next_iteration(&mut self) -> Result<(), CircError> {
        self.iterations += 1;
        if let Some(limit) = self.config.max_iterations
            && self.iterations > limit
        {
            return Err(CircError::IterationLimit { limit });
        }
        self.config.compose.budget()?.check_now()?;
        Ok(())
    }

    /// Tells a progress reader (the compose config's monitor, if any) `message`.
    fn note(&self, message: String) {
        if let Some(monitor) = &self.config.compose.monitor {
            monitor.note(message);
        }
    }

    /// Tells a progress reader (the compose config's monitor, if any) the iteration and the sizes
    /// of the guarantees just synthesised.
    fn note_progress(&self, g: &[Lts]) {
        if let Some(monitor) = &self.config.compose.monitor {
            let sizes: Vec<String> = g.iter().map(|l| l.num_states().to_string()).collect();
            monitor.note(format!(
                "iteration {}: guarantees of {} states (bound {})",
                self.iterations,
                sizes.join("+"),
                self.max_k
            ));
        }
    }

    /// `ApplyAG`: checks the kept premises and analyses their counterexamples. The premises are
    /// decided concurrently when the run has several threads (see [`crate::premises`]); their
    /// answers are taken here in premise order either way.
    fn apply_ag(&mut self, view: &View, g: &[Lts]) -> Result<Applied, CircError> {
        let sys = self.sys;
        let mut jobs = self.jobs(view, g);
        // A batch pays for itself only with two premises or more to check.
        let concurrent = self.batches.is_concurrent()
            && self.config.cex_per_iteration != CexPerIteration::One
            && jobs.iter().filter(|job| !job.known).nth(1).is_some();
        let mut ready: Vec<Option<Result<Decision, CircError>>> = if concurrent {
            self.batches
                .decide_all(self.decider(), &jobs, &self.config.compose)
        } else {
            jobs.iter().map(|_| None).collect()
        };
        let mut cs = Vec::new();
        let mut last = None;
        for (job, ready) in jobs.iter_mut().zip(ready.drain(..)) {
            let found = self.take(job, ready)?;
            let Some((i, _)) = job.premise else {
                last = Some(found);
                break;
            };
            let failed = !found.is_empty();
            for tau in found {
                match self.update_constraints(view, i, tau)? {
                    Applied::Continue(c) => cs.extend(c),
                    other => return Ok(other),
                }
            }
            if failed && self.config.cex_per_iteration == CexPerIteration::One {
                return Ok(Applied::Continue(cs));
            }
        }
        let last = last.unwrap_or_else(|| self.without_environment());
        let mut abstract_cexs = Vec::new();
        for sigma in last {
            if view
                .rule
                .last
                .iter()
                .all(|&j| sys.in_projection(j, &sigma, &view.alphas[j]))
            {
                abstract_cexs.push(sigma);
                continue;
            }
            cs.extend(view.exclusion(None, &sigma));
            self.incremental.push(Incremental::Last(sigma));
        }
        if !abstract_cexs.is_empty() {
            return Ok(Applied::Abstract(abstract_cexs));
        }
        Ok(if cs.is_empty() {
            Applied::Holds
        } else {
            Applied::Continue(cs)
        })
    }

    /// The premises of an iteration with the guarantees `g`, in order: every kept premise
    /// `M_i |= S(G_i) > g_i`, then the last premise `S(G_{n+1}) |= P` when it has an
    /// environment. Each with its cache key and whether the cache knows that it holds.
    fn jobs<'g>(&self, view: &View, g: &'g [Lts]) -> Vec<Job<'g>> {
        let n = self.sys.len();
        let reuse = self.config.reuse_premises;
        let job = |premise: Option<(usize, &'g Lts)>, refs: Vec<&'g Lts>| {
            let key = reuse.then(|| match premise {
                Some((i, guarantee)) => {
                    let mut involved = vec![guarantee];
                    involved.extend(&refs);
                    PremiseCache::key(i, &involved)
                }
                None => PremiseCache::key(n, &refs),
            });
            let known = key.as_ref().is_some_and(|k| self.cache.knows(k));
            Job {
                premise,
                refs,
                key,
                known,
            }
        };
        let mut jobs: Vec<Job<'g>> = (0..n)
            .filter(|&i| view.rule.needed[i])
            .map(|i| {
                job(
                    Some((i, &g[i])),
                    view.rule.s[i].iter().map(|&j| &g[j]).collect(),
                )
            })
            .collect();
        let refs: Vec<&Lts> = view.rule.last.iter().map(|&j| &g[j]).collect();
        if !refs.is_empty() {
            jobs.push(job(None, refs));
        }
        jobs
    }

    /// What premise checks read.
    fn decider(&self) -> Decider<'_> {
        Decider {
            sys: self.sys,
            config: self.config,
            memo: &self.memo,
        }
    }

    /// Takes the answer of `job` in premise order: from the cache (a hit), from the batch
    /// (`ready`), or decided now; and applies its effects on the counters and the cache, as the
    /// one-thread loop does. Counterexamples as global ids, last step included (several with
    /// [`CexPerIteration::PerPremise`]); empty when the premise holds.
    fn take(
        &mut self,
        job: &mut Job<'_>,
        ready: Option<Result<Decision, CircError>>,
    ) -> Result<Vec<Vec<u32>>, CircError> {
        if job.known {
            self.cache.hits += 1;
            return Ok(Vec::new());
        }
        let decision = match ready {
            Some(decided) => decided?,
            None => self.decider().decide(job, &self.config.compose)?,
        };
        self.premise_checks += 1;
        self.largest_product = self.largest_product.max(decision.states);
        if decision.held
            && let Some(k) = job.key.take()
        {
            self.cache.insert(k);
        }
        Ok(decision.traces)
    }

    /// `UpdateConstraints` for the counterexample `tau` (last step included) of premise `i`.
    fn update_constraints(
        &mut self,
        view: &View,
        i: usize,
        tau: Vec<u32>,
    ) -> Result<Applied, CircError> {
        let sys = self.sys;
        if tau.is_empty() {
            return Err(CircError::Internal {
                reason: format!("empty counterexample for premise {i}"),
            });
        }
        let t = if self.config.extend_traces {
            self.extend_trace(view, i, &tau)?
        } else {
            tau.clone()
        };
        let in_all = |set: &[usize], x: &[u32]| {
            set.iter()
                .all(|&j| sys.in_projection(j, x, &view.alphas[j]))
        };
        let violation = sys.violation_prefix(&t);
        if let Some(len) = violation
            && in_all(&view.rule.last, &t[..len])
        {
            let sigma: Vec<u32> = t[..len]
                .iter()
                .copied()
                .filter(|&a| self.alphabet[a as usize])
                .collect();
            return Ok(Applied::Abstract(vec![sigma]));
        }
        let sigma = &t[..t.len() - 1];
        let mut cs = Vec::new();
        let mut done = false;
        if self.config.strong_constraints {
            if self.config.reanalyse_traces && self.reanalysed.insert((i, tau.clone())) {
                self.premise_cexs.push((i, tau.clone()));
            }
            if let Some((membership, atoms)) = closed_set_constraints(sys, view, i, &t) {
                #[cfg(test)]
                self.audit.membership(atoms);
                #[cfg(not(test))]
                drop(atoms);
                cs.extend(membership);
                done = true;
            }
            // Lemma 4(2): the property is violated along the trace (or its prefix).
            for x in [&t[..], sigma] {
                if sys.violation_prefix(x).is_some() {
                    cs.extend(view.exclusion(Some(i), x));
                    self.incremental.push(Incremental::Property {
                        premise: i,
                        trace: x.to_vec(),
                    });
                }
            }
        }
        if !done {
            cs.push(view.default_constraint(i, &tau));
            self.incremental.push(Incremental::Default {
                premise: i,
                trace: tau,
            });
        }
        Ok(Applied::Continue(cs))
    }

    /// `ExtendTrace`: greedily embeds the trace into the other components, one by one, adding their
    /// actions not yet covered; a component that cannot follow leaves the trace unchanged.
    ///
    /// # Errors
    /// The run's composition budget, while hidden steps are filled in.
    fn extend_trace(&self, view: &View, i: usize, tau: &[u32]) -> Result<Vec<u32>, CircError> {
        let sys = self.sys;
        let mut budget = self.config.compose.budget()?;
        let mut cov = sys.alpha(i).clone();
        for &j in &view.rule.s[i] {
            union(&mut cov, &view.alphas[j]);
        }
        let mut t = tau.to_vec();
        for j in (0..sys.len()).filter(|&j| j != i) {
            let aj = &view.alphas[j];
            if aj.iter().zip(&cov).all(|(x, c)| !*x || *c) {
                continue;
            }
            let matched: ActSet = aj.iter().zip(&cov).map(|(x, c)| *x && *c).collect();
            let inserted: ActSet = aj.iter().zip(&cov).map(|(x, c)| *x && !*c).collect();
            if let Some(e) = sys.embed(j, &t, &matched, &inserted, &mut budget)? {
                t = e;
            } else if let Some((&last, prefix)) = t.split_last()
                && let Some(mut e) = sys.embed(j, prefix, &matched, &inserted, &mut budget)?
            {
                e.push(last);
                t = e;
            }
            union(&mut cov, aj);
        }
        Ok(t)
    }

    /// `AlphaRefine`: is the abstract counterexample `sigma` real (Lemma 7)? If not, the actions
    /// where the components' completions first disagree, scanning backwards, join `A`.
    fn alpha_refine(&self, view: &View, sigma: &[u32]) -> Result<Refined, CircError> {
        let sys = self.sys;
        let n = sys.len();
        let a = &self.alphabet;
        let extra: Vec<ActSet> = self
            .completeness
            .iter()
            .map(|c| c.iter().zip(a).map(|(x, y)| *x && !*y).collect())
            .collect();
        let mut parts = Vec::with_capacity(n);
        let mut budget = self.config.compose.budget()?;
        for (i, x) in extra.iter().enumerate() {
            parts.push(sys.embed(i, sigma, a, x, &mut budget)?.ok_or_else(|| {
                CircError::Internal {
                    reason: format!(
                        "abstract counterexample not in component {i} (alphabet {:?})",
                        view.letters[i]
                    ),
                }
            })?);
        }
        let own: Vec<ActSet> = extra.iter().map(|x| or(a, x)).collect();
        if let Some(t) = merge(&parts, &own) {
            return self.concretise(&t).map(Refined::Real);
        }
        let mut add = vec![false; sys.width()];
        for i in 0..n {
            for j in i + 1..n {
                let common: ActSet = own[i].iter().zip(&own[j]).map(|(x, y)| *x && *y).collect();
                backward_disagreement(&parts[i], &parts[j], &common, a, &mut add);
            }
        }
        if !add.iter().any(|&x| x) {
            for p in &parts {
                for &b in p.iter().filter(|&&b| !a[b as usize]) {
                    add[b as usize] = true;
                }
            }
        }
        if !add.iter().any(|&x| x) {
            add.clone_from(&self.full);
        }
        Ok(Refined::Alphabet(or(a, &add)))
    }

    /// Extends a trace over the completeness alphabets into a run of the whole system by adding
    /// each component's private actions.
    fn concretise(&self, t: &[u32]) -> Result<Vec<u32>, CircError> {
        let sys = self.sys;
        let mut parts = Vec::new();
        let mut own = Vec::new();
        let mut budget = self.config.compose.budget()?;
        for i in 0..sys.len() {
            let local: ActSet = sys
                .alpha(i)
                .iter()
                .zip(&self.full)
                .map(|(x, f)| *x && !*f)
                .collect();
            let p = sys
                .embed(i, t, &self.full, &local, &mut budget)?
                .ok_or_else(|| CircError::Internal {
                    reason: format!("completed counterexample not in component {i}"),
                })?;
            parts.push(p);
            own.push(or(&self.full, &local));
        }
        merge(&parts, &own).ok_or_else(|| CircError::Internal {
            reason: "private actions could not be merged".to_owned(),
        })
    }

    fn counterexample(
        &self,
        trace: &[u32],
        (comps, props): (&[&Lts], &[&Lts]),
    ) -> Result<Counterexample, CircError> {
        let mut names = self.sys.trace_names(trace);
        let (len, violation) =
            first_violation(comps, props, &names)?.ok_or_else(|| CircError::Internal {
                reason: format!("counterexample {names:?} does not violate"),
            })?;
        // The prepared system goes on past a component's `ERROR` (a plain state there, looping on
        // a private action), so the trace may continue after the first error of the originals,
        // where their composition stops: cut it there, to a run of the original components.
        names.truncate(len);
        Ok(Counterexample::new(names, violation))
    }

    fn report(&self, view: &View, constraints: usize, verdict: Verdict, g: &[Lts]) -> CircReport {
        let n = self.sys.len();
        let sizes = (0..n)
            .map(|i| {
                if view.rule.needed[i] {
                    g.get(i).map_or(0, Lts::num_states)
                } else {
                    0
                }
            })
            .collect();
        let complete = (0..n).all(|i| {
            self.completeness[i]
                .iter()
                .zip(&view.alphas[i])
                .all(|(f, x)| !*f || *x)
        });
        let sound = (0..n).all(|i| {
            (0..self.sys.width())
                .all(|a| !(self.sys.alpha(i)[a] && self.sys.prop_alpha()[a]) || view.alphas[i][a])
        });
        let rule = RuleSummary {
            premises: view.rule.s.clone(),
            last: view.rule.last.clone(),
            dropped: (0..n).filter(|&i| !view.rule.needed[i]).collect(),
            sound,
            complete,
            alphabet: (0..self.sys.width() as u32)
                .filter(|&a| self.alphabet[a as usize])
                .map(|a| self.sys.name(a).to_owned())
                .collect(),
        };
        CircReport {
            verdict,
            iterations: self.iterations,
            alphabet_refinements: self.refinements,
            sat_calls: self.sat_calls,
            max_k: self.max_k,
            assumption_sizes: sizes,
            constraints,
            reused_constraints: self.reused,
            rule,
            sat_time: self.sat_time,
            check_time: self.check_time,
            premise_checks: self.premise_checks,
            cached_premises: self.cache.hits,
            largest_product: self.largest_product,
        }
    }
}

/// The certificate: the assumptions of the kept premises, labelled by prepared component.
fn certificate(sys: &PreparedSystem, view: &View, g: &[Lts]) -> Certificate {
    Certificate::new(
        (0..sys.len())
            .filter(|&i| view.rule.needed[i])
            .map(|i| Assumption::new(sys.stands_for()[i].iter().copied(), g[i].clone())),
    )
}

/// Lemma 4(1) for the (extended) counterexample `t` of premise `i`: if for a closure `G` in
/// `T(g_i)` every projection `t|g_j` (`j in G`) is a trace of `M_j|g_j`, then every useful
/// family of assumptions has `+(t|g_j, j)` for all `j in G`; else, if the prefix `s` is in every
/// projection, `+(s|g_j, j)` for all `j in G` and `+(t|g_i, i)`. The constraints and their atoms
/// as `(j, global trace)`; `None` when no closure qualifies.
///
/// The argument needs only that `t|alpha M_i` is a trace of `M_i` (true for a premise
/// counterexample and its extension, which inserts only other components' actions), not that
/// `t` came from a check under this view, so a trace found under an earlier alphabet can be
/// analysed again under a refined one (section 7.1's "naive" reuse: the membership checks are
/// re-done, never assumed).
#[allow(clippy::type_complexity)]
fn closed_set_constraints(
    sys: &PreparedSystem,
    view: &View,
    i: usize,
    t: &[u32],
) -> Option<(Vec<Constraint>, Vec<(usize, Vec<u32>)>)> {
    let in_all = |set: &[usize], x: &[u32]| {
        set.iter()
            .all(|&j| sys.in_projection(j, x, &view.alphas[j]))
    };
    let sigma = &t[..t.len().saturating_sub(1)];
    let atoms: Vec<(usize, Vec<u32>)> = if let Some(cl) = view.rule.t(i).find(|cl| in_all(cl, t)) {
        cl.iter().map(|&j| (j, t.to_vec())).collect()
    } else {
        let cl = view.rule.t(i).find(|cl| in_all(cl, sigma))?;
        cl.iter()
            .map(|&j| (j, sigma.to_vec()))
            .chain([(i, t.to_vec())])
            .collect()
    };
    let cs = atoms
        .iter()
        .map(|(j, x)| Constraint(vec![view.plus(*j, x)]))
        .collect();
    Some((cs, atoms))
}

fn union(a: &mut ActSet, b: &ActSet) {
    for (x, y) in a.iter_mut().zip(b) {
        *x |= *y;
    }
}

fn or(a: &ActSet, b: &ActSet) -> ActSet {
    a.iter().zip(b).map(|(x, y)| *x || *y).collect()
}

/// Scans `u|common` and `v|common` from their ends and marks (in `add`) the actions outside `a`
/// at the first position where they differ.
fn backward_disagreement(u: &[u32], v: &[u32], common: &ActSet, a: &ActSet, add: &mut [bool]) {
    let pu: Vec<u32> = u.iter().copied().filter(|&x| common[x as usize]).collect();
    let pv: Vec<u32> = v.iter().copied().filter(|&x| common[x as usize]).collect();
    let mut iu = pu.iter().rev();
    let mut iv = pv.iter().rev();
    loop {
        match (iu.next(), iv.next()) {
            (None, None) => return,
            (x, y) if x == y => {}
            (x, y) => {
                for &b in x.into_iter().chain(y) {
                    if !a[b as usize] {
                        add[b as usize] = true;
                    }
                }
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests;

//! The method value a `check` runs: the built-in method chosen with `--method`, with the settings
//! its command-line flags give it. Each method crate's value carries its own settings; this is the
//! one place that turns flags into them.

use std::sync::Arc;
use std::time::Duration;

use guarantor::circ::{Circ, CircConfig, Decomposition, Policy};
use guarantor::compose::SearchOrder;
use guarantor::compose::checkpoint::Checkpointing;
use guarantor::compose::method::{Method, Monolithic};
use guarantor::lstar::ag::AgConfig;
use guarantor::lstar::{Asym, AsymN, AsymWeakest, LearnerKind, Sym};
use guarantor::lts::ComponentId;
use guarantor::quotient::{Quotient, QuotientConfig};
use guarantor::{Checker, MethodKind, registry};

use crate::{CheckArgs, Failure, PremisePolicy, Search, component_index, input_error};

/// `--learner`: the algorithm the learning methods run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Learner {
    /// Angluin's L* (Rivest-Schapire counterexample analysis).
    #[default]
    Lstar,
    /// L# (Vaandrager et al. 2022): fewer equivalence queries, each a model check of the rule's
    /// premises.
    Lsharp,
}

/// The learning rules' settings `--learner` and `--no-alphabet-refinement` give.
fn learning(args: &CheckArgs) -> AgConfig {
    let config = AgConfig::default().with_alphabet_refinement(!args.no_alphabet_refinement);
    let kind = match args.learner {
        Learner::Lstar => LearnerKind::LStar,
        Learner::Lsharp => LearnerKind::LSharp,
    };
    let learner = config.learner.clone().with_kind(kind);
    config.with_learner(learner)
}

/// The value of `kind` with the settings `args` give it; components in `--split` and
/// `--component` are looked up in `checker`.
pub(crate) fn method_of(
    kind: MethodKind,
    args: &CheckArgs,
    checker: &Checker,
) -> Result<Arc<dyn Method>, Failure> {
    Ok(match kind {
        MethodKind::Monolithic => {
            let mono = Monolithic::new().with_search(match args.search {
                Search::Bfs => SearchOrder::BreadthFirst,
                Search::Dfs => SearchOrder::DepthFirst,
            });
            Arc::new(match checkpointing(args)? {
                Some(plan) => mono.with_checkpoint(plan),
                None => mono,
            })
        }
        MethodKind::Lstar => {
            let asym = Asym::new().with_config(learning(args));
            match split(args, checker)? {
                Some(first) => Arc::new(asym.with_split(first)),
                None => Arc::new(asym),
            }
        }
        MethodKind::LstarSym => Arc::new(Sym::new().with_config(learning(args))),
        MethodKind::LstarNway if args.weakest => Arc::new(AsymWeakest::new()),
        MethodKind::LstarNway => Arc::new(AsymN::new().with_config(learning(args))),
        MethodKind::Quotient => Arc::new(quotient(args, checker)?),
        MethodKind::Circ => circ(args, checker)?,
        _ => Arc::new(registry::auto()),
    })
}

/// `--checkpoint DIR` or `--resume DIR`, with `--checkpoint-every`, stamped with this program's
/// version.
pub(crate) fn checkpointing(args: &CheckArgs) -> Result<Option<Checkpointing>, Failure> {
    let (dir, resume) = match (&args.checkpoint, &args.resume) {
        (Some(dir), _) => (dir, false),
        (None, Some(dir)) => (dir, true),
        (None, None) => return Ok(None),
    };
    let every = Duration::try_from_secs_f64(args.checkpoint_every)
        .ok()
        .filter(|d| !d.is_zero())
        .ok_or_else(|| {
            input_error(anyhow::anyhow!(
                "--checkpoint-every must be a positive number of seconds"
            ))
        })?;
    let plan = Checkpointing::new(dir)
        .with_every(every)
        .with_version(env!("CARGO_PKG_VERSION"));
    Ok(Some(if resume { plan.resuming() } else { plan }))
}

/// `--split`: component names or numbers, comma-separated.
fn split(args: &CheckArgs, checker: &Checker) -> Result<Option<Vec<ComponentId>>, Failure> {
    let Some(split) = &args.split else {
        return Ok(None);
    };
    split
        .split(',')
        .map(|part| component_index(checker, part.trim()))
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}

fn quotient(args: &CheckArgs, checker: &Checker) -> Result<Quotient, Failure> {
    let mut settings = QuotientConfig::new()
        .with_split_all(args.split_all)
        .with_refine(!args.exact);
    if args.no_exact_fallback {
        settings = settings.with_exact_fallback(None);
    }
    if let Some(k) = args.max_steps {
        settings = settings.with_max_steps(k);
    }
    let quotient = Quotient::new().with_config(settings);
    Ok(match &args.component {
        Some(name) => quotient.with_component(component_index(checker, name)?),
        None => quotient,
    })
}

/// The default of `--max-projection-states`: circ's own.
pub(crate) const DEFAULT_MAX_PROJECTION_STATES: usize = CircConfig::DEFAULT_MAX_PROJECTION_STATES;

fn circ(args: &CheckArgs, checker: &Checker) -> Result<Arc<dyn Method>, Failure> {
    let mut settings = CircConfig::new()
        .with_alphabet_refinement(!args.no_alphabet_refinement)
        .with_max_projection_states(args.max_projection_states);
    if args.premise_policy == PremisePolicy::Neighbours {
        settings = settings.with_policy(Policy::Neighbours);
    }
    let circ = Circ::new();
    Ok(match (split(args, checker)?, args.two_way) {
        (Some(first), true) => Arc::new(circ.with_config(settings).with_split(first)),
        (None, true) => {
            Arc::new(circ.with_config(settings.with_mode(Decomposition::TwoWay { first: None })))
        }
        _ => Arc::new(circ.with_config(settings)),
    })
}

//! `guarantor learn TARGET.dot`: learns the Mealy machine behind a simulated black box given in
//! AALpy's DOT format (or a DFA in AALpy's DFA format, learned as the Mealy machine whose output
//! is the acceptance of the state entered), with a chosen learner and equivalence oracle, and
//! reports what it cost: the learner's queries, steps and resets after the cache (AALpy's
//! `queries_learning` / `steps_learning`), the oracle's, the equivalence queries, the time, and
//! whether the learned machine is equivalent to the target.
//!
//! Exit 0 when the learned machine is equivalent to the target, 1 when it is not (an oracle too
//! weak for the target: random testing, or a Wp bound below the target's extra states), 2 on bad
//! input (an unreadable or malformed file, located by line and column; an unknown oracle).
//!
//! It lives in its own module because it shares nothing with the verification commands but the
//! error handling.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::anyhow;
use clap::ValueEnum;
use guarantor::lstar::mealy::{
    Algorithm, Cache, Config, EquivalenceOracle, Exact, Learned, Mealy, RandomWalk, RandomWords,
    Simulated, StatePrefix, WMethod, WpMethod, learn_with,
};

use crate::stdout::outln;
use crate::{Failure, input_error};

/// The learner of `guarantor learn`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub(crate) enum LearnerArg {
    /// L# (Vaandrager et al. 2022): an observation tree and apartness; fewest queries.
    #[default]
    Lsharp,
    /// L* with Rivest-Schapire counterexample processing.
    Lstar,
    /// Kearns-Vazirani: a discrimination tree, one state per counterexample.
    Kv,
}

/// How `guarantor learn` prints its result.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub(crate) enum LearnFormat {
    /// Human-readable lines.
    #[default]
    Text,
    /// One JSON object on stdout.
    Json,
}

#[derive(Debug, clap::Args)]
pub(crate) struct LearnArgs {
    /// The target: a Mealy machine in AALpy's DOT format (`s0 -> s1 [label="in/out"]`,
    /// `__start0 -> s0`), or a DFA in AALpy's DFA format; simulated as the black box.
    #[arg(value_name = "TARGET.dot")]
    target: PathBuf,
    /// The learning algorithm.
    #[arg(long, value_enum, default_value_t)]
    learner: LearnerArg,
    /// The equivalence oracle: `wp:K` or `w:K` (conformance tests exact for targets with at most
    /// K states more than the hypothesis, the bound renewed each round; the whole suite is run
    /// each round, its first failing test returned), `wp-first:K` or `w-first:K` (the same
    /// suites stopped at their first failing test, as AALpy's oracles are), `random-walk:STEPS`,
    /// `random-words:N` (N words of length 1-20 per round), `state-prefix:N` (N walks of length
    /// 10 per state), or `exact` (compares with the target).
    #[arg(long, default_value = "wp:2", value_name = "ORACLE")]
    oracle: String,
    /// L#: test each identified frontier node against its candidate before a hypothesis (fewer
    /// equivalence queries, more membership queries).
    #[arg(long)]
    verify: bool,
    /// L#: before each equivalence query, one membership query walks the system along the
    /// hypothesis testing every two-input word from every state (fewer equivalence queries,
    /// more membership queries and steps).
    #[arg(long)]
    tour: bool,
    /// Seed of the random oracles.
    #[arg(long, default_value_t = 0, value_name = "S")]
    seed: u64,
    /// Write the learned machine here (AALpy's DOT format).
    #[arg(long, value_name = "LEARNED.dot")]
    output: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t)]
    format: LearnFormat,
}

/// Parses an oracle description such as `wp:2`.
fn oracle(spec: &str, target: &Mealy, seed: u64) -> Result<Box<dyn EquivalenceOracle>, Failure> {
    let (name, arg) = spec.split_once(':').unwrap_or((spec, ""));
    let number = || {
        arg.parse::<usize>().map_err(|_| {
            input_error(anyhow!(
                "oracle {spec:?}: expected a number after `{name}:`"
            ))
        })
    };
    Ok(match name {
        "wp" => Box::new(WpMethod::new(number()?)),
        "w" => Box::new(WMethod::new(number()?)),
        "wp-first" => Box::new(WpMethod::new(number()?).with_whole_suite(false)),
        "w-first" => Box::new(WMethod::new(number()?).with_whole_suite(false)),
        "random-walk" => Box::new(RandomWalk::new(number()?, seed)),
        "random-words" => Box::new(RandomWords::new(number()?, 1, 20, seed)),
        "state-prefix" => Box::new(StatePrefix::new(number()?, 10, seed)),
        "exact" if arg.is_empty() => Box::new(Exact::new(target.clone())),
        _ => {
            return Err(input_error(anyhow!(
                "unknown oracle {spec:?} (available: wp:K, w:K, wp-first:K, w-first:K, random-walk:STEPS, \
                 random-words:N, state-prefix:N, exact)"
            )));
        }
    })
}

/// Runs `guarantor learn`.
pub(crate) fn run_learn(args: &LearnArgs) -> Result<ExitCode, Failure> {
    let path = &args.target;
    let text = std::fs::read_to_string(path)
        .map_err(|e| input_error(anyhow!("cannot read {}: {e}", path.display())))?;
    let target = Mealy::from_dot(&text).map_err(|e| {
        input_error(anyhow!(
            "{}:{}:{}: {}",
            path.display(),
            e.line,
            e.column,
            e.message
        ))
    })?;
    let mut oracle = oracle(&args.oracle, &target, args.seed)?;
    let algorithm = match args.learner {
        LearnerArg::Lsharp => Algorithm::LSharp,
        LearnerArg::Lstar => Algorithm::LStar,
        LearnerArg::Kv => Algorithm::Kv,
    };
    let mut cache = Cache::new(Simulated::new(&target), target.input_names());
    let mut config = Config::with_algorithm(algorithm);
    config.verify = args.verify;
    config.tour = args.tour;
    let learned = learn_with(&mut cache, &mut *oracle, &config)
        .map_err(|e| input_error(anyhow!("{}: {e}", path.display())))?;
    let equivalent = learned
        .machine
        .equivalent(&target)
        .map_err(|e| input_error(anyhow!("{}: {e}", path.display())))?;
    if let Some(out) = &args.output {
        std::fs::write(out, learned.machine.to_dot())
            .map_err(|e| input_error(anyhow!("cannot write {}: {e}", out.display())))?;
    }
    report(args, &target, &learned, equivalent);
    Ok(if equivalent {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// Prints the result.
fn report(args: &LearnArgs, target: &Mealy, learned: &Learned, equivalent: bool) {
    let s = &learned.stats;
    if args.format == LearnFormat::Json {
        let json = serde_json::json!({
            "target": args.target.display().to_string(),
            "target_states": target.minimized().num_states(),
            "inputs": target.num_inputs(),
            "learner": format!("{:?}", args.learner).to_lowercase(),
            "oracle": args.oracle,
            "seed": args.seed,
            "verify": args.verify,
            "tour": args.tour,
            "states": learned.machine.num_states(),
            "membership_queries": s.learning.queries,
            "steps": s.learning.steps,
            "resets": s.learning.resets,
            "cache_hits": s.learning.cache_hits,
            "equivalence_queries": s.equivalence_queries,
            "oracle_queries": s.testing.queries,
            "oracle_steps": s.testing.steps,
            "oracle_resets": s.testing.resets,
            "seconds": s.seconds,
            "equivalent": equivalent,
        });
        outln!("{json}");
    } else {
        outln!(
            "learned {} states ({} in the minimal target): {}",
            learned.machine.num_states(),
            target.minimized().num_states(),
            if equivalent {
                "equivalent"
            } else {
                "NOT equivalent"
            }
        );
        outln!("learner: {}", s.learning);
        outln!("oracle {}: {}", args.oracle, s.testing);
        outln!(
            "equivalence queries: {}; {:.3} s",
            s.equivalence_queries,
            s.seconds
        );
    }
}

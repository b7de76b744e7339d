//! `check --processes N` and `check --hostfile FILE` in a build without the `dist` feature: the
//! distributed engine (timely dataflow and its network layer) is the heaviest part of a build
//! and a plain check never uses it, so it is left out unless asked for. The flags stay (so that
//! `--help` is the same in every build) and say which feature they need.

use guarantor::compose::checkpoint::Checkpointing;
use guarantor::{Checker, Outcome};

use crate::{CheckArgs, Failure, input_error};

/// A distributed run: none in this build (the type has no value).
#[derive(Debug)]
pub(crate) enum Mode {}

impl Mode {
    /// `None` for the plain check; bad input naming the feature for the distributed flags.
    pub(crate) fn of(args: &CheckArgs) -> Result<Option<Self>, Failure> {
        let distributed = args.processes.is_some()
            || args.hostfile.is_some()
            || !args.cluster_addresses.is_empty()
            || args.workers.is_some()
            || args.process_index.is_some();
        if distributed {
            return Err(input_error(anyhow::anyhow!(
                "--processes, --hostfile, --process-index and --workers need the distributed \
                 engine, which this build of guarantor leaves out: build it with the `dist` \
                 feature (cargo install --path crates/cli --features dist, or cargo run --release \
                 -p guarantor-cli --features dist -- check ...)"
            )));
        }
        Ok(None)
    }

    /// Never called: there is no distributed run.
    pub(crate) fn prints(&self) -> bool {
        match *self {}
    }

    /// Never called: there is no distributed run.
    pub(crate) fn run(
        &self,
        _checker: &Checker,
        _plan: Option<&Checkpointing>,
    ) -> Result<Outcome, Failure> {
        match *self {}
    }
}

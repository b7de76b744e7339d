//! Standard output that tolerates its reader going away.
//!
//! `guarantor check MODEL | head -1` closes the pipe after one line; `println!` would panic on the
//! next write. Here a closed pipe ends the output quietly and the exit code still carries the
//! verdict, as for any well-behaved filter. Any other write error (a full disk behind a
//! redirection) is reported once on stderr and turns the exit code into 2, since the caller did
//! not get what it asked for.

use std::fmt;
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};

/// Set by the first write error that is not a closed pipe.
static FAILED: AtomicBool = AtomicBool::new(false);

/// `println!` for the tool's results: see the module doc for what happens on errors.
macro_rules! outln {
    ($($arg:tt)*) => {
        $crate::stdout::line(format_args!($($arg)*))
    };
}
pub(crate) use outln;

/// Writes one line (the arguments and a newline) to standard output.
pub(crate) fn line(args: fmt::Arguments<'_>) {
    let mut out = io::stdout().lock();
    let written = out.write_fmt(args).and_then(|()| out.write_all(b"\n"));
    settle(written);
}

/// Records the outcome of a write to standard output: a closed pipe is fine, anything else is
/// reported (once) and remembered for the exit code.
pub(crate) fn settle(written: io::Result<()>) {
    let Err(e) = written else { return };
    if e.kind() != io::ErrorKind::BrokenPipe && !FAILED.swap(true, Ordering::Relaxed) {
        eprintln!("error: cannot write to standard output: {e}");
    }
}

/// Whether some output could not be written (a closed pipe does not count).
pub(crate) fn failed() -> bool {
    FAILED.load(Ordering::Relaxed)
}

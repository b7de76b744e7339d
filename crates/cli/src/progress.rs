//! Progress lines on stderr for checks that run longer than a second.
//!
//! The check itself knows nothing about terminals: it runs under a [`Config`] that carries a
//! [`Monitor`], and a reporter thread started here reads the monitor once a second and prints one
//! line (elapsed time, model checks finished, the largest product so far, the method's own note).
//! Stdout is never touched, so `--format json` stays one clean object; `--quiet` starts no thread.

use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use guarantor::compose::{Config, Monitor, MonitorSnapshot};

/// How long a check runs before the first progress line, and the pause between lines.
const EVERY: Duration = Duration::from_secs(1);
/// How often the reporter looks whether the check has ended (so a short check ends promptly).
const POLL: Duration = Duration::from_millis(50);

/// A running reporter; dropping it stops the thread (and prints nothing more).
pub(crate) struct Progress {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Progress {
    /// Attaches a monitor to `config` and, unless `quiet`, starts reporting what it sees under the
    /// label `what` (the method's name).
    pub(crate) fn start(config: Config, what: &str, quiet: bool) -> (Config, Progress) {
        let monitor = Arc::new(Monitor::new());
        let config = config.with_monitor(Arc::clone(&monitor));
        let stop = Arc::new(AtomicBool::new(false));
        let thread = (!quiet).then(|| {
            let stop = Arc::clone(&stop);
            let what = what.to_owned();
            std::thread::spawn(move || report_until(&stop, &monitor, &what))
        });
        (config, Progress { stop, thread })
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            // The reporter only sleeps and prints; if it panicked there is nothing to recover.
            let _ = thread.join();
        }
    }
}

fn report_until(stop: &AtomicBool, monitor: &Monitor, what: &str) {
    let start = Instant::now();
    let mut next = EVERY;
    while !stop.load(Ordering::Relaxed) {
        std::thread::sleep(POLL);
        let elapsed = start.elapsed();
        if elapsed >= next && !stop.load(Ordering::Relaxed) {
            let line = progress_line(elapsed, what, &monitor.snapshot());
            // Progress is best effort: a closed stderr must not end the check.
            let _ = writeln!(std::io::stderr().lock(), "{line}");
            next += EVERY;
        }
    }
}

/// One progress line, e.g. `[2.0 s] lstar: 41 model checks, largest product 812 states (now 96)`.
fn progress_line(elapsed: Duration, what: &str, seen: &MonitorSnapshot) -> String {
    let mut line = format!(
        "[{:.1} s] {what}: {} model check{}, largest product {} states (now {})",
        elapsed.as_secs_f64(),
        seen.explorations,
        if seen.explorations == 1 { "" } else { "s" },
        seen.largest_states,
        seen.current_states,
    );
    if !seen.note.is_empty() && seen.note != what {
        line.push_str("; ");
        line.push_str(&seen.note);
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_shows_counts_and_a_note_other_than_the_label() {
        let monitor = Monitor::new();
        monitor.finish_exploration(812);
        monitor.record_states(96);
        monitor.note("round 3: assumption of 7 states");
        let line = progress_line(Duration::from_secs(2), "lstar", &monitor.snapshot());
        assert_eq!(
            line,
            "[2.0 s] lstar: 1 model check, largest product 812 states (now 96); \
             round 3: assumption of 7 states"
        );
    }

    #[test]
    fn a_note_equal_to_the_label_is_not_repeated() {
        let monitor = Monitor::new();
        monitor.note("mono");
        let line = progress_line(Duration::from_secs(1), "mono", &monitor.snapshot());
        assert!(line.ends_with("(now 0)"), "{line}");
    }
}

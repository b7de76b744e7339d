//! Progress lines on stderr for checks that run longer than a second.
//!
//! The check itself knows nothing about terminals: it runs under a [`Config`] that carries a
//! [`Monitor`], and a reporter thread started here reads the monitor once a second and prints one
//! line (elapsed time, model checks finished, the largest product so far, the exploration rate over
//! the last interval, the resident memory of the process, the method's own note), the two figures
//! SPIN and LTSA users watch to see whether a search will finish.
//! Stdout is never touched, so `--format json` stays one clean object; `--quiet` starts no thread.

use std::fmt::Write as _;
use std::io::Write as _;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use guarantor::compose::{Config, Monitor, MonitorSnapshot};

/// How long a check runs before the first progress line, and the pause between lines.
const EVERY: Duration = Duration::from_secs(1);
/// How often the reporter looks at the clock between lines. (It need not poll for the end of the
/// check: dropping the [`Progress`] wakes it. A 50 ms poll held every short check's exit back by
/// 25 ms on average, a tenth of a 0.2 s check.)
const POLL: Duration = Duration::from_millis(50);

/// A running reporter; dropping it stops the thread (and prints nothing more).
pub(crate) struct Progress {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
    monitor: Arc<Monitor>,
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
            let monitor = Arc::clone(&monitor);
            std::thread::spawn(move || report_until(&stop, &monitor, &what))
        });
        let progress = Progress {
            stop,
            thread,
            monitor,
        };
        (config, progress)
    }

    /// What the check's explorations have recorded so far.
    pub(crate) fn seen(&self) -> MonitorSnapshot {
        self.monitor.snapshot()
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            thread.thread().unpark();
            // The reporter only sleeps and prints; if it panicked there is nothing to recover.
            let _ = thread.join();
        }
    }
}

fn report_until(stop: &AtomicBool, monitor: &Monitor, what: &str) {
    let start = Instant::now();
    let mut next = EVERY;
    let mut before = (Duration::ZERO, 0_u64);
    while !stop.load(Ordering::Relaxed) {
        std::thread::park_timeout(POLL);
        let elapsed = start.elapsed();
        if elapsed >= next && !stop.load(Ordering::Relaxed) {
            let seen = monitor.snapshot();
            let rate = rate_since(before, (elapsed, seen.states_explored));
            before = (elapsed, seen.states_explored);
            let line = progress_line(elapsed, what, &seen, rate, resident_bytes());
            // Progress is best effort: a closed stderr must not end the check.
            let _ = writeln!(std::io::stderr().lock(), "{line}");
            next += EVERY;
        }
    }
}

/// States explored per second between two `(elapsed, states explored)` readings.
#[allow(clippy::cast_precision_loss)] // a rate for people: 52 bits of mantissa are plenty
fn rate_since(before: (Duration, u64), now: (Duration, u64)) -> f64 {
    let seconds = now.0.saturating_sub(before.0).as_secs_f64();
    if seconds > 0.0 {
        now.1.saturating_sub(before.1) as f64 / seconds
    } else {
        0.0
    }
}

/// The resident set size of this process, where the system tells it (`/proc/self/status` on
/// Linux); `None` elsewhere, and the line then leaves memory out.
fn resident_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// `n` with a k / M suffix, one decimal: `812`, `41.3 k`, `1.2 M`.
fn human(n: f64) -> String {
    if n >= 1e6 {
        format!("{:.1} M", n / 1e6)
    } else if n >= 1e3 {
        format!("{:.1} k", n / 1e3)
    } else {
        format!("{n:.0}")
    }
}

/// One progress line, e.g. `[2.0 s] lstar: 41 model checks, largest product 812 states (now 96),
/// 41.3 k states/s, 25 MB resident; round 3: assumption of 7 states`.
fn progress_line(
    elapsed: Duration,
    what: &str,
    seen: &MonitorSnapshot,
    rate: f64,
    resident: Option<u64>,
) -> String {
    let mut line = format!(
        "[{:.1} s] {what}: {} model check{}, largest product {} states (now {}), {} states/s",
        elapsed.as_secs_f64(),
        seen.explorations,
        if seen.explorations == 1 { "" } else { "s" },
        seen.largest_states,
        seen.current_states,
        human(rate),
    );
    if let Some(bytes) = resident {
        let _ = write!(line, ", {} MB resident", bytes / 1_000_000);
    }
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
        let line = progress_line(
            Duration::from_secs(2),
            "lstar",
            &monitor.snapshot(),
            41_300.0,
            Some(25_000_000),
        );
        assert_eq!(
            line,
            "[2.0 s] lstar: 1 model check, largest product 812 states (now 96), 41.3 k states/s, \
             25 MB resident; round 3: assumption of 7 states"
        );
    }

    #[test]
    fn a_note_equal_to_the_label_is_not_repeated() {
        let monitor = Monitor::new();
        monitor.note("mono");
        let line = progress_line(
            Duration::from_secs(1),
            "mono",
            &monitor.snapshot(),
            0.0,
            None,
        );
        assert!(line.ends_with("(now 0), 0 states/s"), "{line}");
    }

    #[test]
    fn the_rate_is_states_per_second_between_two_readings() {
        let rate = rate_since(
            (Duration::from_secs(1), 1_000),
            (Duration::from_millis(1_500), 601_000),
        );
        assert!((rate - 1_200_000.0).abs() < 1e-6, "{rate}");
        assert_eq!(human(rate), "1.2 M");
        assert!(rate_since((Duration::ZERO, 0), (Duration::ZERO, 5)).abs() < f64::EPSILON);
    }

    #[test]
    fn resident_memory_is_read_where_the_system_tells_it() {
        if cfg!(target_os = "linux") {
            assert!(resident_bytes().is_some_and(|b| b > 0));
        }
    }
}

//! A deep stack for the recursive parts of the front end.
//!
//! Parsing and elaborating recurse once per nesting level of the model text (parentheses,
//! prefixes, labels), about 10 KB of stack per level in a debug build. A test thread has 2 MB
//! and a main thread 8 MB, so a model nested a few hundred levels deep, which generated and
//! textbook models do write, would overflow. Both run instead on a thread of their own whose
//! stack is large enough for [`crate::parser::MAX_DEPTH`] levels; the stack is reserved, not
//! committed, so a shallow model costs only the thread's start (tens of microseconds).

use std::sync::Mutex;

/// The stack of the front end's thread: room for `MAX_DEPTH` levels at debug-build frame sizes,
/// with a wide margin.
const STACK_BYTES: usize = 256 << 20;

/// Runs `f` on a thread with a [`STACK_BYTES`] stack and returns its result; on the calling
/// thread if no thread can be started. A panic in `f` is resumed on the caller.
pub(crate) fn on_deep_stack<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    let job = Mutex::new(Some(f));
    let run = || {
        let f = job
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take();
        f.map(|f| f())
    };
    let spawned = std::thread::scope(|scope| {
        let handle = std::thread::Builder::new()
            .name("fsp-front-end".to_owned())
            .stack_size(STACK_BYTES)
            .spawn_scoped(scope, run)
            .ok()?;
        Some(
            handle
                .join()
                .unwrap_or_else(|p| std::panic::resume_unwind(p)),
        )
    });
    match spawned.flatten() {
        Some(out) => out,
        None => run().expect("the job runs once, here if no thread could start"),
    }
}

//! The process's resident memory, as the memory budget ([`Config::max_memory`]) measures it.
//!
//! A user sets a memory limit against what the operating system charges the process (what `top`
//! shows and what the out-of-memory killer looks at): the resident set. Counting allocations
//! instead would need a global allocator, which a library cannot install, and would miss what the
//! allocator keeps but does not hand out. On Linux the resident set is the second field of
//! `/proc/self/statm`, in pages; the file is opened once and re-read with `pread` at offset 0
//! (about a microsecond), which is cheap next to the thousands of states a budget lets pass between
//! two looks. The page size comes from the process's auxiliary vector (`AT_PAGESZ`), so no C
//! library call is needed. Elsewhere [`resident_bytes`] is `None` and a memory limit is never
//! reached (documented on [`Config::with_max_memory`]).
//!
//! [`Config::max_memory`]: crate::Config::max_memory
//! [`Config::with_max_memory`]: crate::Config::with_max_memory

use std::fs::File;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

/// The bytes of the process's resident set now, or `None` where the platform does not say.
///
/// ```
/// use guarantor_compose::memory::resident_bytes;
/// if cfg!(target_os = "linux") {
///     assert!(resident_bytes().is_some_and(|b| b > 0));
/// }
/// ```
pub fn resident_bytes() -> Option<u64> {
    let reader = READER.get_or_init(Reader::open).as_ref()?;
    reader.read()
}

/// The most bytes the process's resident set has held so far (the kernel's high-water mark,
/// `VmHWM` of `/proc/self/status`), or `None` where the platform does not say.
///
/// ```
/// use guarantor_compose::memory::{peak_resident_bytes, resident_bytes};
/// // The resident set first: other threads of this process may grow it between the two reads,
/// // and the peak read after it counts it.
/// let now = resident_bytes();
/// if let (Some(peak), Some(now)) = (peak_resident_bytes(), now) {
///     assert!(peak + (1 << 20) >= now); // kB granularity and a few pages of difference
/// }
/// ```
pub fn peak_resident_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status_kb(&status, "VmHWM:").map(|kb| kb.saturating_mul(1024))
}

/// The value in kB of the `field` line of a `/proc/PID/status` text.
fn status_kb(status: &str, field: &str) -> Option<u64> {
    let line = status.lines().find(|l| l.starts_with(field))?;
    line[field.len()..]
        .trim()
        .strip_suffix("kB")?
        .trim()
        .parse()
        .ok()
}

/// The growth announced by the live budgets of the process that have a memory limit
/// ([`Budget::expect_growth`](crate::Budget::expect_growth)), in bytes.
static ANNOUNCED: AtomicU64 = AtomicU64::new(0);

/// Replaces `old` announced bytes by `new` in the process's total.
pub(crate) fn announce(new: u64, old: u64) {
    if new >= old {
        ANNOUNCED.fetch_add(new - old, Ordering::Relaxed);
    } else {
        ANNOUNCED.fetch_sub(old - new, Ordering::Relaxed);
    }
}

/// The growth the process's live budgets have announced, in bytes.
pub(crate) fn announced() -> u64 {
    ANNOUNCED.load(Ordering::Relaxed)
}

/// The open `statm` file and the page size it counts in.
#[derive(Debug)]
struct Reader {
    statm: File,
    page: u64,
}

static READER: OnceLock<Option<Reader>> = OnceLock::new();

impl Reader {
    #[cfg(target_os = "linux")]
    fn open() -> Option<Self> {
        let statm = File::open("/proc/self/statm").ok()?;
        let page = page_size().unwrap_or(4096);
        Some(Self { statm, page })
    }

    #[cfg(not(target_os = "linux"))]
    fn open() -> Option<Self> {
        None
    }

    #[cfg(target_os = "linux")]
    fn read(&self) -> Option<u64> {
        use std::os::unix::fs::FileExt;
        let mut buf = [0u8; 128];
        let n = self.statm.read_at(&mut buf, 0).ok()?;
        resident_pages(&buf[..n]).map(|pages| pages.saturating_mul(self.page))
    }

    #[cfg(not(target_os = "linux"))]
    fn read(&self) -> Option<u64> {
        let _ = (&self.statm, self.page);
        None
    }
}

/// The second field of a `statm` line: the resident pages.
fn resident_pages(line: &[u8]) -> Option<u64> {
    let text = std::str::from_utf8(line).ok()?;
    text.split_ascii_whitespace().nth(1)?.parse().ok()
}

/// `AT_PAGESZ` from `/proc/self/auxv`: pairs of native words (type, value), ending at type 0.
#[cfg(target_os = "linux")]
fn page_size() -> Option<u64> {
    const AT_PAGESZ: u64 = 6;
    const WORD: usize = size_of::<usize>();
    let auxv = std::fs::read("/proc/self/auxv").ok()?;
    let word = |chunk: &[u8]| -> u64 {
        let mut bytes = [0u8; WORD];
        bytes.copy_from_slice(chunk);
        usize::from_ne_bytes(bytes) as u64
    };
    auxv.chunks_exact(2 * WORD)
        .map(|pair| (word(&pair[..WORD]), word(&pair[WORD..])))
        .take_while(|&(kind, _)| kind != 0)
        .find(|&(kind, _)| kind == AT_PAGESZ)
        .map(|(_, value)| value)
        .filter(|p| p.is_power_of_two())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statm_lines_parse_and_bad_ones_do_not() {
        assert_eq!(resident_pages(b"1000 250 30 4 0 60 0\n"), Some(250));
        assert_eq!(resident_pages(b"1000"), None);
        assert_eq!(resident_pages(b"1000 x"), None);
        assert_eq!(resident_pages(&[0xff, 0xfe]), None);
    }

    #[test]
    fn status_fields_parse() {
        let status = "Name:\tx\nVmHWM:\t  123 kB\nVmRSS:\t 100 kB\n";
        assert_eq!(status_kb(status, "VmHWM:"), Some(123));
        assert_eq!(status_kb(status, "VmRSS:"), Some(100));
        assert_eq!(status_kb(status, "VmPeak:"), None);
        assert_eq!(status_kb("VmHWM: lots", "VmHWM:"), None);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn touching_memory_raises_the_resident_set() {
        assert!(page_size().is_some_and(u64::is_power_of_two));
        // Other tests of this process free memory concurrently, which can hide one rise: a few
        // tries, each of which must show it unless such a free fell in between.
        let mut seen = Vec::new();
        for _ in 0..5 {
            let before = resident_bytes().unwrap();
            let block = vec![1u8; 64 << 20];
            let after = resident_bytes().unwrap();
            std::hint::black_box(&block);
            if after >= before + (48 << 20) {
                return;
            }
            seen.push((before, after));
        }
        panic!("the resident set never rose by 48 MB: {seen:?}");
    }
}

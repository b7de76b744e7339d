//! The bytes of a checkpoint: packed tuples ([`Packer`]), parent records and the manifest
//! ([`Manifest`]). Little-endian throughout; every decoder checks lengths and checksums and
//! reports a damaged file as [`CheckpointError::Corrupt`].

use std::path::Path;

use guarantor_lts::{Lts, StateId};

use super::{CheckpointError, Digest};

/// Packs a tuple into the bits its components' state counts need, rounded up to whole bytes per
/// tuple (records of one size, so a log's length says how many it holds). The monolithic
/// search's `states.log` holds such records, and so do the distributed engine's parts.
///
/// ```
/// use guarantor_compose::checkpoint::Packer;
/// use guarantor_lts::{Lts, StateId};
/// let a = Lts::from_edges((0..5).map(|i| (i, "a", (i + 1) % 5)))?;
/// let packer = Packer::new(&[&a, &a]);
/// assert_eq!(packer.record_bytes(), 1); // 3 + 3 bits
/// let tuple = [StateId::must(4), StateId::must(2)];
/// let mut bytes = Vec::new();
/// packer.pack(&tuple, &mut bytes);
/// let mut back = [StateId::must(0); 2];
/// assert_eq!(packer.unpack(&bytes, &[&a, &a], &mut back), Some(()));
/// assert_eq!(back, tuple);
/// # Ok::<(), guarantor_lts::LtsError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Packer {
    widths: Vec<u32>,
    bytes: usize,
}

impl Packer {
    /// The packer for tuples of `components`.
    pub fn new(components: &[&Lts]) -> Self {
        let widths: Vec<u32> = components
            .iter()
            .map(|c| u64::BITS - (c.num_states().max(1) as u64 - 1).leading_zeros())
            .collect();
        let bits: u32 = widths.iter().sum();
        Self {
            widths,
            bytes: bits.div_ceil(8) as usize,
        }
    }

    /// The bytes of one packed tuple.
    pub fn record_bytes(&self) -> usize {
        self.bytes
    }

    /// Appends the packed `tuple` to `out`.
    pub fn pack(&self, tuple: &[StateId], out: &mut Vec<u8>) {
        let (mut acc, mut held) = (0u64, 0u32);
        for (s, &w) in tuple.iter().zip(&self.widths) {
            acc |= u64::from(s.as_u32()) << held;
            held += w;
            while held >= 8 {
                out.push(acc as u8);
                acc >>= 8;
                held -= 8;
            }
        }
        if held > 0 {
            out.push(acc as u8);
        }
    }

    /// Unpacks one record into `out`; `None` if a field names a state its component lacks.
    pub fn unpack(&self, record: &[u8], components: &[&Lts], out: &mut [StateId]) -> Option<()> {
        let mut bytes = record.iter();
        let (mut acc, mut held) = (0u64, 0u32);
        for ((o, &w), c) in out.iter_mut().zip(&self.widths).zip(components) {
            while held < w {
                acc |= u64::from(*bytes.next()?) << held;
                held += 8;
            }
            let v = acc & ((1u64 << w) - 1);
            acc >>= w;
            held -= w;
            if v as usize >= c.num_states() {
                return None;
            }
            *o = StateId::from_u32(v as u32);
        }
        Some(())
    }
}

/// The bytes of one parent record: the parent's number and the action.
pub(crate) const PARENT_BYTES: usize = 8;

/// What makes a checkpoint: the counted prefixes of the logs and the search's counters (see the
/// module docs of `checkpoint`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Manifest {
    pub(crate) version: String,
    pub(crate) model: u64,
    pub(crate) options: u64,
    /// States discovered: records of each log that count.
    pub(crate) states: u64,
    /// The expansion cursor: states below it are expanded.
    pub(crate) next: u64,
    pub(crate) transitions: u64,
    pub(crate) deadlock: Option<u32>,
    /// Checksums of the logs' counted prefixes.
    pub(crate) states_sum: u64,
    pub(crate) parents_sum: u64,
}

/// The frame every manifest shares, this module's and the distributed engine's parts: 7 bytes
/// naming the kind and a format byte (`magic`), the program's version, 8-byte little-endian
/// words, and a checksum ([`Digest`]) of everything before it.
///
/// ```
/// use std::path::Path;
/// use guarantor_compose::checkpoint::{CheckpointError, ManifestReader, manifest_bytes};
///
/// let bytes = manifest_bytes(b"EXAMPLE\x01", "1.0", [7, 8]);
/// let mut reader = ManifestReader::open(&bytes, Path::new("m"), b"EXAMPLE\x01", "example")?;
/// assert_eq!(reader.version(), "1.0");
/// assert_eq!((reader.word()?, reader.word()?), (7, 8));
/// assert!(reader.word().is_err());
/// // Another format byte is another version; a flipped bit is damage.
/// let other = ManifestReader::open(&bytes, Path::new("m"), b"EXAMPLE\x02", "example");
/// assert!(matches!(other, Err(CheckpointError::OtherVersion { .. })));
/// let mut flipped = bytes.clone();
/// flipped[12] ^= 1;
/// assert!(ManifestReader::open(&flipped, Path::new("m"), b"EXAMPLE\x01", "example").is_err());
/// # Ok::<(), CheckpointError>(())
/// ```
pub fn manifest_bytes(
    magic: &[u8; 8],
    version: &str,
    words: impl IntoIterator<Item = u64>,
) -> Vec<u8> {
    let mut out = magic.to_vec();
    out.extend_from_slice(&(version.len() as u32).to_le_bytes());
    out.extend_from_slice(version.as_bytes());
    for w in words {
        out.extend_from_slice(&w.to_le_bytes());
    }
    let sum = Digest::START.bytes(&out).0;
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

/// Reads a manifest written by [`manifest_bytes`]: the frame checked on opening, then its words
/// one by one.
#[derive(Debug)]
pub struct ManifestReader<'a> {
    rest: &'a [u8],
    path: &'a Path,
    version: String,
}

impl<'a> ManifestReader<'a> {
    /// Checks the frame of `bytes` (of the file `path`): `magic`'s first 7 bytes (else the file
    /// is no manifest of this `kind`), its format byte (else [`CheckpointError::OtherVersion`]),
    /// the checksum, and reads the version.
    pub fn open(
        bytes: &'a [u8],
        path: &'a Path,
        magic: &[u8; 8],
        kind: &str,
    ) -> Result<Self, CheckpointError> {
        let bad = |reason: &str| CheckpointError::corrupt(path, reason);
        if bytes.len() < magic.len() || bytes[..7] != magic[..7] {
            return Err(bad(&format!("not a {kind} manifest")));
        }
        if bytes[7] != magic[7] {
            return Err(CheckpointError::OtherVersion {
                found: format!("{kind} format {}", bytes[7]),
                expected: format!("{kind} format {}", magic[7]),
            });
        }
        let (body, sum) = bytes
            .split_last_chunk::<8>()
            .ok_or_else(|| bad("truncated"))?;
        if Digest::START.bytes(body).0 != u64::from_le_bytes(*sum) {
            return Err(bad("checksum mismatch"));
        }
        let mut reader = Self {
            rest: &body[magic.len()..],
            path,
            version: String::new(),
        };
        let len = u32::from_le_bytes(reader.take::<4>()?) as usize;
        let version = reader.take_slice(len)?.to_vec();
        reader.version = String::from_utf8(version).map_err(|_| bad("version is not text"))?;
        Ok(reader)
    }

    /// The version of the program that wrote the manifest.
    pub fn version(&self) -> &str {
        &self.version
    }

    /// The next word.
    pub fn word(&mut self) -> Result<u64, CheckpointError> {
        self.take::<8>().map(u64::from_le_bytes)
    }

    /// The next word, which must fit in 32 bits.
    pub fn narrow(&mut self) -> Result<u32, CheckpointError> {
        let word = self.word()?;
        u32::try_from(word).map_err(|_| self.corrupt("a field out of range"))
    }

    /// The error for a manifest whose words say something impossible.
    pub fn corrupt(&self, reason: &str) -> CheckpointError {
        CheckpointError::corrupt(self.path, reason)
    }

    fn take_slice(&mut self, n: usize) -> Result<&'a [u8], CheckpointError> {
        let (head, tail) = self
            .rest
            .split_at_checked(n)
            .ok_or_else(|| self.corrupt("truncated"))?;
        self.rest = tail;
        Ok(head)
    }

    fn take<const N: usize>(&mut self) -> Result<[u8; N], CheckpointError> {
        let slice = self.take_slice(N)?;
        let mut out = [0u8; N];
        out.copy_from_slice(slice);
        Ok(out)
    }
}

/// The manifest's first bytes; the last one is the format's version.
const MAGIC: &[u8; 8] = b"GRNTCKP\x01";

impl Manifest {
    /// The manifest's bytes, with a trailing checksum of everything before it.
    pub(crate) fn encode(&self) -> Vec<u8> {
        let fields = [
            self.model,
            self.options,
            self.states,
            self.next,
            self.transitions,
            self.deadlock.map_or(u64::MAX, u64::from),
            self.states_sum,
            self.parents_sum,
        ];
        manifest_bytes(MAGIC, &self.version, fields)
    }

    /// Reads a manifest from `bytes` (of the file `path`).
    pub(crate) fn decode(bytes: &[u8], path: &Path) -> Result<Self, CheckpointError> {
        let bad = |reason: &str| CheckpointError::corrupt(path, reason);
        let mut reader = ManifestReader::open(bytes, path, MAGIC, "checkpoint")?;
        let version = reader.version().to_owned();
        let mut word = || reader.word();
        let manifest = Self {
            version,
            model: word()?,
            options: word()?,
            states: word()?,
            next: word()?,
            transitions: word()?,
            deadlock: u32::try_from(word()?).ok(),
            states_sum: word()?,
            parents_sum: word()?,
        };
        if manifest.next > manifest.states {
            return Err(bad("expansion cursor past the states"));
        }
        if manifest
            .deadlock
            .is_some_and(|d| u64::from(d) >= manifest.states)
        {
            return Err(bad("deadlock past the states"));
        }
        Ok(manifest)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn manifest() -> Manifest {
        Manifest {
            version: "0.1.0".into(),
            model: 1,
            options: 2,
            states: 30,
            next: 20,
            transitions: 70,
            deadlock: Some(4),
            states_sum: 5,
            parents_sum: 6,
        }
    }

    #[test]
    fn a_manifest_reads_back_and_every_truncation_or_flip_is_an_error() {
        let path = Path::new("manifest");
        let bytes = manifest().encode();
        assert_eq!(Manifest::decode(&bytes, path), Ok(manifest()));
        for cut in 0..bytes.len() {
            assert!(
                Manifest::decode(&bytes[..cut], path).is_err(),
                "cut at {cut}"
            );
        }
        for at in 0..bytes.len() {
            let mut flipped = bytes.clone();
            flipped[at] ^= 0x10;
            assert!(Manifest::decode(&flipped, path).is_err(), "flip at {at}");
        }
    }

    #[test]
    fn tuples_pack_into_their_bits_and_back() {
        let a = Lts::from_edges((0..5).map(|i| (i, "a", (i + 1) % 5))).unwrap();
        let b = Lts::from_edges((0..300).map(|i| (i, "b", (i + 1) % 300))).unwrap();
        let c = Lts::from_edges([(0, "c", 0)]).unwrap();
        let comps = [&a, &b, &c, &a];
        let packer = Packer::new(&comps);
        assert_eq!(packer.record_bytes(), 2); // 3 + 9 + 0 + 3 bits
        let s = StateId::must;
        let tuple = [s(4), s(299), s(0), s(3)];
        let mut out = Vec::new();
        packer.pack(&tuple, &mut out);
        assert_eq!(out.len(), 2);
        let mut back = [s(0); 4];
        assert_eq!(packer.unpack(&out, &comps, &mut back), Some(()));
        assert_eq!(back, tuple);
        // A field past its component's states, and a short record, are refused.
        assert_eq!(packer.unpack(&[0xff, 0xff], &comps, &mut back), None);
        assert_eq!(packer.unpack(&[0x01], &comps, &mut back), None);
    }
}

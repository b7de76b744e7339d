//! Typed 32-bit identifiers for states and actions.
//!
//! Every id is a `#[repr(transparent)]` `u32` newtype made by one macro, so a `StateId` can never be
//! passed where an `ActionId` is wanted and an LTS costs four bytes per reference, not eight. Ids are
//! created with a checked constructor: running out of ids is a typed error ([`IdOverflow`]), never a
//! silent wrap-around.

use std::fmt;

/// The error returned when an index does not fit in a 32-bit id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("too many {kind}s: index {index} exceeds the limit of {limit}")]
pub struct IdOverflow {
    /// Which kind of id overflowed ("state", "action", ...).
    pub kind: &'static str,
    /// The index that did not fit.
    pub index: usize,
    /// The largest representable index plus one.
    pub limit: usize,
}

macro_rules! define_id {
    ($(#[$meta:meta])* $name:ident, $kind:literal) => {
        $(#[$meta])*
        #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
        #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
        #[cfg_attr(feature = "serde", serde(transparent))]
        #[repr(transparent)]
        pub struct $name(u32);

        impl $name {
            /// One more than the largest index this id can hold.
            pub const LIMIT: usize = u32::MAX as usize;

            /// Makes an id from an index, or says that the index is too large.
            #[inline]
            pub fn new(index: usize) -> Result<Self, IdOverflow> {
                if index < Self::LIMIT {
                    Ok(Self(index as u32))
                } else {
                    Err(IdOverflow { kind: $kind, index, limit: Self::LIMIT })
                }
            }

            /// Makes an id from an index that is known to fit.
            ///
            /// # Panics
            /// Panics if `index >= LIMIT`; use [`Self::new`] where the index comes from input.
            #[inline]
            #[track_caller]
            pub fn must(index: usize) -> Self {
                match Self::new(index) {
                    Ok(id) => id,
                    Err(e) => panic!("{e}"),
                }
            }

            /// Makes an id from its raw 32-bit value.
            #[inline]
            pub const fn from_u32(raw: u32) -> Self {
                Self(raw)
            }

            /// The index as a `usize`, for indexing slices.
            #[inline]
            pub const fn index(self) -> usize {
                self.0 as usize
            }

            /// The raw 32-bit value.
            #[inline]
            pub const fn as_u32(self) -> u32 {
                self.0
            }

            /// Iterates over the ids `0..count`.
            ///
            /// # Panics
            /// Panics if `count > LIMIT`.
            pub fn range(count: usize) -> impl DoubleEndedIterator<Item = Self> + ExactSizeIterator + Clone {
                assert!(count <= Self::LIMIT, "id range too large");
                (0..count as u32).map(Self)
            }
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}{}", $kind.as_bytes()[0] as char, self.0)
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}", self.0)
            }
        }
    };
}

define_id!(
    /// A state of one LTS. States are numbered densely from zero.
    StateId,
    "state"
);
define_id!(
    /// An action of one [`Alphabet`](crate::Alphabet). [`ActionId::TAU`] is the internal action.
    ActionId,
    "action"
);

define_id!(
    /// A component of a system (one of the LTSs composed in parallel), numbered densely from zero
    /// in the order the components were given. Layers above this crate name components by this id,
    /// never by a bare index or by a name held as text.
    ComponentId,
    "component"
);
define_id!(
    /// A safety property of a system, numbered densely from zero in the order the properties were
    /// given.
    PropertyId,
    "property"
);

impl ActionId {
    /// The internal (silent) action. It is id 0 in every alphabet and never synchronises.
    pub const TAU: ActionId = ActionId(0);

    /// Whether this is the internal action.
    #[inline]
    pub const fn is_tau(self) -> bool {
        self.0 == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overflow_is_an_error_not_a_wrap() {
        let err = StateId::new(StateId::LIMIT).unwrap_err();
        assert_eq!(err.kind, "state");
        assert!(StateId::new(StateId::LIMIT - 1).is_ok());
    }

    #[test]
    fn debug_is_compact() {
        assert_eq!(format!("{:?}", StateId::must(3)), "s3");
        assert_eq!(format!("{:?}", ActionId::TAU), "a0");
        assert_eq!(format!("{:?}", ComponentId::must(2)), "c2");
        assert_eq!(format!("{:?}", PropertyId::must(1)), "p1");
    }
}

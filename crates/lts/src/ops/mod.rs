//! Operations on LTSs. Each returns a new [`Lts`](crate::Lts); none mutates its input.

//! The result types shared by every verification method of Guarantor.
//!
//! Monolithic checking (this crate), L*, quotients and CIRC-AG_N all answer with a [`Verdict`], so
//! callers, the CLI and the test suite handle every method the same way. Each verdict carries
//! *evidence* that can be re-checked independently of the method that produced it: a
//! [`Counterexample`] is a trace that [`replay`](crate::replay::replay) confirms, a [`Certificate`]
//! lists the assumptions whose premises a monolithic check can confirm. Traces are action *names*,
//! not ids, because every LTS owns its own alphabet and names are the only common currency.
//!
//! With the `serde` feature every type here serializes. An assumption's LTS is written as
//! `{"alphabet": [names], "states": n, "initial": i, "error": e | null, "transitions": [[s, name, t]]}`.

use guarantor_lts::{ComponentId, Lts, PropertyId};

/// The answer of a check: the property holds (with a certificate) or is violated (with a
/// counterexample).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub enum Verdict {
    /// The property holds.
    Holds(Certificate),
    /// The property is violated.
    Violated(Counterexample),
}

impl Verdict {
    /// Whether the property holds.
    pub fn is_holds(&self) -> bool {
        matches!(self, Self::Holds(_))
    }

    /// Whether the property is violated.
    pub fn is_violated(&self) -> bool {
        matches!(self, Self::Violated(_))
    }

    /// The counterexample, if the property is violated.
    pub fn counterexample(&self) -> Option<&Counterexample> {
        match self {
            Self::Violated(cex) => Some(cex),
            Self::Holds(_) => None,
        }
    }

    /// The certificate, if the property holds.
    pub fn certificate(&self) -> Option<&Certificate> {
        match self {
            Self::Holds(cert) => Some(cert),
            Self::Violated(_) => None,
        }
    }
}

/// A run of the system that ends in a violation.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct Counterexample {
    /// The visible actions of the run, in order; tau steps are omitted.
    pub trace: Vec<String>,
    /// What went wrong at the end of the run.
    pub violation: Violation,
}

impl Counterexample {
    /// A counterexample from a trace and a violation.
    pub fn new(trace: Vec<String>, violation: Violation) -> Self {
        Self { trace, violation }
    }
}

/// What a counterexample's run reaches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub enum Violation {
    /// The error state pi of the error LTS of a property. Ids count the properties in the order
    /// they were given (a [`Problem`](crate::method::Problem)'s ids, or positions in a slice).
    Property {
        /// The violated property.
        property: PropertyId,
    },
    /// The error state (LTSA's `ERROR`) of a component. Ids count the components in the order
    /// they were given (a [`Problem`](crate::method::Problem)'s ids, or positions in a slice).
    ErrorState {
        /// The component that reached its error state.
        component: ComponentId,
    },
    /// A reachable state with no outgoing transition that is not an error state.
    Deadlock,
}

impl Violation {
    /// The violation of member `index` of a product of `components` components followed by
    /// properties (the order every search composes them in): a component's error state, or a
    /// property's.
    ///
    /// ```
    /// use guarantor_compose::Violation;
    /// use guarantor_lts::{ComponentId, PropertyId};
    /// let component = Violation::ErrorState { component: ComponentId::must(1) };
    /// assert_eq!(Violation::of_member(1, 2), component);
    /// let property = Violation::Property { property: PropertyId::must(0) };
    /// assert_eq!(Violation::of_member(2, 2), property);
    /// ```
    #[must_use]
    pub fn of_member(index: usize, components: usize) -> Self {
        if index < components {
            Violation::ErrorState {
                component: ComponentId::must(index),
            }
        } else {
            Violation::Property {
                property: PropertyId::must(index - components),
            }
        }
    }
}

/// Evidence that a property holds: the assumptions a compositional method used. Monolithic checks
/// need none and return an empty certificate.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct Certificate {
    /// The assumptions, one per premise that needed one.
    pub assumptions: Vec<Assumption>,
    /// Failure assumptions of a deadlock-freedom proof: each an LTS whose stable failures
    /// over-approximate those of the components it stands for (the deadlock rule of `lstar`);
    /// empty for proofs of safety alone.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Vec::is_empty"))]
    pub failures: Vec<Assumption>,
}

impl Certificate {
    /// The certificate of a monolithic check: no assumptions.
    pub fn monolithic() -> Self {
        Self::default()
    }

    /// A certificate made of these assumptions.
    pub fn new(assumptions: impl IntoIterator<Item = Assumption>) -> Self {
        Self {
            assumptions: assumptions.into_iter().collect(),
            failures: Vec::new(),
        }
    }

    /// This certificate with these failure assumptions ([`Certificate::failures`]) added.
    #[must_use]
    pub fn with_failures(mut self, failures: impl IntoIterator<Item = Assumption>) -> Self {
        self.failures.extend(failures);
        self
    }
}

/// One assumption of a certificate: an LTS assumed about (or guaranteed by) a set of components.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct Assumption {
    /// The components the assumption stands for, in increasing order: one for a per-component
    /// assumption, several for a group (the environment of rule ASYM), none for an assumption
    /// about no user component (CIRC-AG_N's `env`, which stands for the property's own actions).
    pub components: Vec<ComponentId>,
    /// The assumption itself.
    #[cfg_attr(feature = "serde", serde(serialize_with = "ser::lts"))]
    pub lts: Lts,
    /// For a quotient assumption of one component: the state of `lts` each state of the
    /// component maps to (the homomorphism that shows the component's language is included in
    /// the assumption's); `None` for other assumptions.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub classes: Option<Vec<u32>>,
}

impl Assumption {
    /// An assumption standing for `components` (sorted and deduplicated here).
    pub fn new(components: impl IntoIterator<Item = ComponentId>, lts: Lts) -> Self {
        let mut components: Vec<ComponentId> = components.into_iter().collect();
        components.sort_unstable();
        components.dedup();
        Self {
            components,
            lts,
            classes: None,
        }
    }

    /// The same assumption with the class (state of the assumption) of each state of the one
    /// component it stands for: a quotient's homomorphism.
    #[must_use]
    pub fn with_classes(mut self, classes: Vec<u32>) -> Self {
        self.classes = Some(classes);
        self
    }
}

#[cfg(feature = "serde")]
mod ser {
    //! Serializes an [`Lts`] through its public API (see the module docs of `verdict` for the shape).

    use guarantor_lts::Lts;
    use serde::ser::SerializeStruct;

    /// Serializes `lts` as alphabet, state count, initial state, error state and named transitions.
    pub(super) fn lts<S: serde::Serializer>(lts: &Lts, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("Lts", 5)?;
        st.serialize_field("alphabet", lts.alphabet())?;
        st.serialize_field("states", &lts.num_states())?;
        st.serialize_field("initial", &lts.initial().as_u32())?;
        st.serialize_field(
            "error",
            &lts.error_state().map(guarantor_lts::StateId::as_u32),
        )?;
        st.serialize_field("transitions", &Transitions(lts))?;
        st.end()
    }

    /// The transitions of an LTS as `[source, action name, target]` triples, streamed.
    struct Transitions<'a>(&'a Lts);

    impl serde::Serialize for Transitions<'_> {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let lts = self.0;
            s.collect_seq(lts.transitions().map(|t| {
                (
                    t.source.as_u32(),
                    lts.action_name(t.action),
                    t.target.as_u32(),
                )
            }))
        }
    }
}

//! The user's model a certificate is checked against: named components and named properties, as
//! `guarantor_lts::Lts` values.

use guarantor_lts::{Lts, StateId};

/// A named component of a [`Model`].
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Component {
    /// Its name (unique among components and properties).
    pub name: String,
    /// The LTS; its error state is LTSA's `ERROR`.
    pub lts: Lts,
    /// The state where the component has terminated (FSP's `END`), if any: a run stopped where
    /// LTSA's rule sees the system ended is not a deadlock (every component with an end state is
    /// at it, and the components without one have no action of their own).
    pub end: Option<StateId>,
}

/// A named safety property of a [`Model`]: a deterministic LTS whose missing transition on an
/// action of its alphabet is a violation.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Property {
    /// Its name (unique among components and properties).
    pub name: String,
    /// The LTS.
    pub lts: Lts,
}

/// The system `C1 || .. || Cn` and the properties `P1, .., Pk` it should satisfy.
///
/// ```
/// use guarantor_certify::Model;
/// use guarantor_lts::Lts;
/// let model = Model::new()
///     .component("Switch", Lts::from_edges([(0, "on", 1), (1, "off", 0)])?)
///     .property("OnOff", Lts::from_edges([(0, "on", 1), (1, "off", 0)])?);
/// assert_eq!(model.components().len(), 1);
/// # Ok::<(), guarantor_lts::LtsError>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct Model {
    components: Vec<Component>,
    properties: Vec<Property>,
}

impl Model {
    /// An empty model.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a component.
    #[must_use]
    pub fn component(mut self, name: impl Into<String>, lts: Lts) -> Self {
        self.components.push(Component {
            name: name.into(),
            lts,
            end: None,
        });
        self
    }

    /// Adds a component with an end state (see [`Component::end`]).
    #[must_use]
    pub fn component_with_end(mut self, name: impl Into<String>, lts: Lts, end: StateId) -> Self {
        self.components.push(Component {
            name: name.into(),
            lts,
            end: Some(end),
        });
        self
    }

    /// Adds a property.
    #[must_use]
    pub fn property(mut self, name: impl Into<String>, lts: Lts) -> Self {
        self.properties.push(Property {
            name: name.into(),
            lts,
        });
        self
    }

    /// The components, in order.
    pub fn components(&self) -> &[Component] {
        &self.components
    }

    /// The properties, in order.
    pub fn properties(&self) -> &[Property] {
        &self.properties
    }
}

/// Whether every one of `properties` is deterministic (a property is a deterministic LTS).
///
/// # Errors
/// [`CertifyError::PropertyNotDeterministic`] for the first that is not, with a witness.
pub(crate) fn deterministic(properties: &[Property]) -> Result<(), crate::CertifyError> {
    for p in properties {
        if let Some((s, a)) = p.lts.first_nondeterminism() {
            return Err(crate::CertifyError::PropertyNotDeterministic {
                name: p.name.clone(),
                state: s.index(),
                action: p.lts.action_name(a).to_owned(),
            });
        }
    }
    Ok(())
}

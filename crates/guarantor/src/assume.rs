//! Assumptions on their own: the weakest assumption of one component (learned with L*, checked by
//! a W-method conformance oracle) or its quotient assumption (Finkbeiner, Schewe, Brill), for tools
//! that want the assumption rather than a verdict.

use guarantor_compose::{Config, compose};
use guarantor_lstar::ag::{AgConfig, weakest_assumption};
use guarantor_lts::{ComponentId, Lts};
use guarantor_quotient::{QuotientConfig, synthesize};

use crate::{CheckError, Checker};

/// An assumption about the rest of the system, under which one component satisfies the properties.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct ComponentAssumption {
    /// The assumption (a safety LTS).
    pub lts: Lts,
    /// For a quotient: the class (assumption state) of each state of the component.
    pub classes: Option<Vec<u32>>,
}

impl Checker {
    fn rest_of(&self, component: ComponentId, config: &Config) -> Result<Lts, CheckError> {
        let rest: Vec<&Lts> = self
            .components()
            .enumerate()
            .filter(|(i, _)| *i != component.index())
            .map(|(_, (_, l))| l)
            .collect();
        Ok(compose(&rest, config)?)
    }

    fn component_at(&self, component: ComponentId) -> Result<&Lts, CheckError> {
        self.components()
            .nth(component.index())
            .map(|(_, l)| l)
            .ok_or_else(|| CheckError::NoSuchComponent {
                component,
                components: self.components().len(),
            })
    }

    /// The weakest assumption of component `component` about the others (rule ASYM's `A_w`): the
    /// traces over the interface `(alpha M u alpha P) n alpha rest` that cannot lead M to a
    /// violation. `extra_states` bounds the W-method's conformance test.
    pub fn weakest_assumption(
        &self,
        component: ComponentId,
        extra_states: usize,
        config: &Config,
    ) -> Result<Lts, CheckError> {
        let m = self.component_at(component)?;
        let property = self.single_property(config)?;
        let rest = self.rest_of(component, config)?;
        let interface: Vec<String> = m
            .alphabet()
            .iter()
            .chain(property.alphabet().iter())
            .map(|(_, n)| n.to_owned())
            .filter(|n| rest.alphabet().contains(n))
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        let ag = AgConfig::default().with_compose(config.clone());
        Ok(weakest_assumption(m, &property, &interface, extra_states, &ag)?.lts)
    }

    /// The quotient assumption of component `component` against the others and the properties,
    /// with the class of each of its states.
    pub fn quotient_assumption(
        &self,
        component: ComponentId,
        config: &QuotientConfig,
    ) -> Result<ComponentAssumption, CheckError> {
        let n = self.component_at(component)?;
        let rest = self.rest_of(component, &config.compose)?;
        let properties: Vec<&Lts> = self.properties().map(|(_, l)| l).collect();
        let synthesis = synthesize(&rest, n, &properties, config)?;
        Ok(ComponentAssumption {
            lts: synthesis.assumption,
            classes: Some(synthesis.homomorphism.classes),
        })
    }
}

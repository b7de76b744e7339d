//! [`SubProblem`]: part of a [`Problem`] (some of its components, some of its properties), and
//! the way back from the part's ids to the whole's.
//!
//! A method that decomposes (one property at a time, a group of components against an
//! assumption, ...) checks smaller problems than the one it was given, and its verdict must still
//! be about the problem as given: a violated property or an `ERROR` state named by the whole
//! problem's ids, a certificate whose assumptions stand for the whole problem's components. The
//! renumbering is the same for every such method, so it lives here once:
//! [`Problem::restrict_to_components`] and [`Problem::with_only_properties`] build the part, and
//! [`SubProblem::lift`] (or [`SubProblem::lift_verdict`]) maps its answer back.

use guarantor_lts::{ComponentId, PropertyId};

use crate::method::{MethodError, MethodReport, Problem};
use crate::verdict::{Verdict, Violation};

/// A part of a [`Problem`]: a problem of its own (ids from 0, as every problem's) together with,
/// for each of its components and properties, the id that one has in the whole problem.
///
/// ```
/// use guarantor_compose::method::{Method, Monolithic, Problem};
/// use guarantor_compose::{Config, Violation};
/// use guarantor_lts::{Lts, PropertyId};
///
/// let p = Lts::from_edges([(0, "a", 1), (1, "b", 0)])?;
/// let ok = Lts::from_edges([(0, "a", 1), (1, "b", 0)])?;
/// let b_first = Lts::from_edges([(0, "b", 1), (1, "a", 0)])?;
/// let problem = Problem::new()
///     .with_component("P", p)
///     .with_property("Ok", ok)
///     .with_property("BFirst", b_first);
/// // Check the second property alone: in the part it is property 0.
/// let part = problem.with_only_properties([PropertyId::must(1)])?;
/// assert_eq!(part.problem().num_properties(), 1);
/// let report = Monolithic::new().check(part.problem(), &Config::default())?;
/// // Lifted back, the violation names the whole problem's property 1.
/// let report = part.lift(report);
/// let cex = report.verdict.counterexample().ok_or("expected a violation")?;
/// assert_eq!(cex.violation, Violation::Property { property: PropertyId::must(1) });
/// assert_eq!(problem.property_name(PropertyId::must(1)), "BFirst");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct SubProblem {
    problem: Problem,
    /// The whole problem's id of each of the part's components, in the part's order.
    components: Vec<ComponentId>,
    /// The whole problem's id of each of the part's properties, in the part's order.
    properties: Vec<PropertyId>,
}

impl Problem {
    /// The part of this problem with only these components (in the order given; a repeated id is
    /// kept once) and every property; priority, deadlock detection and end states carry over
    /// (a deadlock of a part is a state in which the part's components cannot move, which the
    /// rest of the system may not share: decide whether that is what you want to ask).
    ///
    /// # Errors
    /// [`MethodError::BadSettings`] for an id this problem does not have.
    pub fn restrict_to_components(
        &self,
        ids: impl IntoIterator<Item = ComponentId>,
    ) -> Result<SubProblem, MethodError> {
        SubProblem::whole(self).restrict_to_components(ids)
    }

    /// The part of this problem with every component and only these properties (in the order
    /// given; a repeated id is kept once).
    ///
    /// # Errors
    /// [`MethodError::BadSettings`] for an id this problem does not have.
    pub fn with_only_properties(
        &self,
        ids: impl IntoIterator<Item = PropertyId>,
    ) -> Result<SubProblem, MethodError> {
        SubProblem::whole(self).with_only_properties(ids)
    }
}

impl SubProblem {
    /// The whole problem as a part of itself (every id maps to itself).
    fn whole(problem: &Problem) -> Self {
        SubProblem {
            problem: problem.clone(),
            components: problem.component_ids().collect(),
            properties: problem.properties().map(|(id, _, _)| id).collect(),
        }
    }

    /// The part as a problem of its own, for any [`Method`](crate::method::Method).
    pub fn problem(&self) -> &Problem {
        &self.problem
    }

    /// The part's components, as the whole problem numbers them, in the part's order.
    pub fn components(&self) -> impl ExactSizeIterator<Item = ComponentId> + '_ {
        self.components.iter().copied()
    }

    /// The part's properties, as the whole problem numbers them, in the part's order.
    pub fn properties(&self) -> impl ExactSizeIterator<Item = PropertyId> + '_ {
        self.properties.iter().copied()
    }

    /// The whole problem's id of the part's component `id`, or `None` if the part has no such
    /// component.
    pub fn original_component(&self, id: ComponentId) -> Option<ComponentId> {
        self.components.get(id.index()).copied()
    }

    /// The whole problem's id of the part's property `id`, or `None` if the part has no such
    /// property.
    pub fn original_property(&self, id: PropertyId) -> Option<PropertyId> {
        self.properties.get(id.index()).copied()
    }

    /// This part with only these of its components; `ids` are the *whole* problem's ids (every
    /// one must be in the part).
    ///
    /// # Errors
    /// [`MethodError::BadSettings`] for an id that is not one of the part's components.
    pub fn restrict_to_components(
        self,
        ids: impl IntoIterator<Item = ComponentId>,
    ) -> Result<SubProblem, MethodError> {
        let mut kept: Vec<(usize, ComponentId)> = Vec::new();
        for id in ids {
            let local = self
                .components
                .iter()
                .position(|&c| c == id)
                .ok_or_else(|| {
                    MethodError::BadSettings(format!(
                        "no component {id} in this problem (it has {})",
                        component_list(&self.components)
                    ))
                })?;
            if !kept.iter().any(|&(l, _)| l == local) {
                kept.push((local, id));
            }
        }
        let mut problem = Problem::new()
            .with_priority(self.problem.priority().cloned())
            .with_deadlock(self.problem.deadlock());
        let ends: Vec<_> = self.problem.end_states().collect();
        for &(local, _) in &kept {
            let id = ComponentId::must(local);
            problem.add_component_with_end(
                self.problem.component_name(id).to_owned(),
                self.problem.component(id).clone(),
                ends[local],
            );
        }
        for (_, name, lts) in self.problem.properties() {
            problem.add_property(name.to_owned(), lts.clone());
        }
        Ok(SubProblem {
            problem,
            components: kept.into_iter().map(|(_, id)| id).collect(),
            properties: self.properties,
        })
    }

    /// This part with only these of its properties; `ids` are the *whole* problem's ids (every
    /// one must be in the part).
    ///
    /// # Errors
    /// [`MethodError::BadSettings`] for an id that is not one of the part's properties.
    pub fn with_only_properties(
        self,
        ids: impl IntoIterator<Item = PropertyId>,
    ) -> Result<SubProblem, MethodError> {
        let mut kept: Vec<(usize, PropertyId)> = Vec::new();
        for id in ids {
            let local = self
                .properties
                .iter()
                .position(|&p| p == id)
                .ok_or_else(|| {
                    MethodError::BadSettings(format!(
                        "no property {id} in this problem (it has {} properties)",
                        self.properties.len()
                    ))
                })?;
            if !kept.iter().any(|&(l, _)| l == local) {
                kept.push((local, id));
            }
        }
        let mut problem = Problem::new()
            .with_priority(self.problem.priority().cloned())
            .with_deadlock(self.problem.deadlock());
        let ends: Vec<_> = self.problem.end_states().collect();
        for ((_, name, lts), end) in self.problem.components().zip(ends) {
            problem.add_component_with_end(name.to_owned(), lts.clone(), end);
        }
        for &(local, _) in &kept {
            let id = PropertyId::must(local);
            problem.add_property(
                self.problem.property_name(id).to_owned(),
                self.problem.property(id).clone(),
            );
        }
        Ok(SubProblem {
            problem,
            components: self.components,
            properties: kept.into_iter().map(|(_, id)| id).collect(),
        })
    }

    /// A method's report on the part, as a report on the whole problem: see
    /// [`SubProblem::lift_verdict`]. Statistics and counters are kept.
    #[must_use]
    pub fn lift(&self, mut report: MethodReport) -> MethodReport {
        report.verdict = self.lift_verdict(report.verdict);
        report
    }

    /// A verdict on the part, in the whole problem's ids: a violated property or an `ERROR`
    /// state named by its id in the whole problem, and a certificate whose assumptions stand for
    /// the whole problem's components. (A `holds` of a part is a `holds` of the whole only if the
    /// part keeps what the method's rule needs: that is the caller's reasoning, not this map's.)
    #[must_use]
    pub fn lift_verdict(&self, verdict: Verdict) -> Verdict {
        match verdict {
            Verdict::Violated(mut cex) => {
                cex.violation = self.lift_violation(cex.violation);
                Verdict::Violated(cex)
            }
            Verdict::Holds(mut cert) => {
                for a in &mut cert.assumptions {
                    for c in &mut a.components {
                        *c = self.original_component(*c).unwrap_or(*c);
                    }
                    a.components.sort_unstable();
                }
                Verdict::Holds(cert)
            }
        }
    }

    /// A violation of the part, in the whole problem's ids.
    pub fn lift_violation(&self, violation: Violation) -> Violation {
        match violation {
            Violation::Property { property } => Violation::Property {
                property: self.original_property(property).unwrap_or(property),
            },
            Violation::ErrorState { component } => Violation::ErrorState {
                component: self.original_component(component).unwrap_or(component),
            },
            other => other,
        }
    }
}

/// `0, 2, 5` for an error message.
fn component_list(ids: &[ComponentId]) -> String {
    if ids.is_empty() {
        return "no components".to_owned();
    }
    let list: Vec<String> = ids.iter().map(ToString::to_string).collect();
    format!("components {}", list.join(", "))
}

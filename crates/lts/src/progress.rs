//! [`ProgressTest`]: one progress test of LTSA's progress check, a plain description over action
//! names. It lives here, at the bottom of the workspace, because two crates that may not depend on
//! each other both need it: the FSP front end elaborates `progress` definitions into it and
//! `guarantor-compose` checks it.

/// One progress test (FSP's `progress NAME = ...`).
///
/// A terminal set of states (a strongly connected set of reachable states that no transition
/// leaves) *violates* the test when it contains no action of [`actions`](Self::actions) and, for a
/// conditional test, contains some action of its [`condition`](Self::condition).
///
/// ```
/// use guarantor_lts::ProgressTest;
/// let t = ProgressTest::new("CROSS", ["red.enter", "blue.enter"]);
/// assert!(t.condition.is_none());
/// let c = ProgressTest::new("ANSWER", ["answer"]).with_condition(["ask"]);
/// assert_eq!(c.condition.as_deref(), Some(&["ask".to_string()][..]));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ProgressTest {
    /// The test's name.
    pub name: String,
    /// `if C then ...`: the condition's actions; `None` for an unconditional test.
    pub condition: Option<Vec<String>>,
    /// The actions of which some must always eventually be possible.
    pub actions: Vec<String>,
}

impl ProgressTest {
    /// An unconditional test: some action of `actions` can always eventually occur.
    pub fn new<S: Into<String>>(
        name: impl Into<String>,
        actions: impl IntoIterator<Item = S>,
    ) -> Self {
        Self {
            name: name.into(),
            condition: None,
            actions: actions.into_iter().map(Into::into).collect(),
        }
    }

    /// This test made conditional: it applies to terminal sets with an action of `condition`.
    #[must_use]
    pub fn with_condition<S: Into<String>>(
        mut self,
        condition: impl IntoIterator<Item = S>,
    ) -> Self {
        self.condition = Some(condition.into_iter().map(Into::into).collect());
        self
    }
}

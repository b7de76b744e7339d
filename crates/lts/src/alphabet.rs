//! Interned action names.
//!
//! Each LTS owns an [`Alphabet`]: the set of actions it declares, each interned once as an
//! [`ActionId`]. The alphabet is declared, not inferred from transitions (LTSA's semantics): an action
//! may belong to the alphabet and be offered nowhere, in which case the LTS blocks it everywhere.
//! Id 0 is always the internal action tau, which is not part of the declared (visible) alphabet.
//!
//! Alphabets are per LTS rather than global so that LTSs loaded from different files need no shared
//! mutable table; composition maps names between alphabets once, when it is set up.

use rustc_hash::FxHashMap;

use crate::id::{ActionId, IdOverflow};

/// The name of the internal action, as written in `.aut` files and FSP.
pub const TAU_NAME: &str = "tau";

/// An interner from action names to [`ActionId`]s, with tau at id 0.
///
/// ```
/// use guarantor_lts::{ActionId, Alphabet};
/// let mut sigma = Alphabet::new();
/// let send = sigma.intern("send")?;
/// assert_eq!(sigma.intern("send")?, send);
/// assert_eq!(sigma.name(send), "send");
/// assert_eq!(sigma.intern("tau")?, ActionId::TAU);
/// assert_eq!(sigma.len(), 1); // tau is not counted
/// # Ok::<(), guarantor_lts::IdOverflow>(())
/// ```
#[derive(Clone, Debug)]
pub struct Alphabet {
    names: Vec<Box<str>>,
    index: FxHashMap<Box<str>, ActionId>,
}

impl Default for Alphabet {
    fn default() -> Self {
        Self::new()
    }
}

impl PartialEq for Alphabet {
    fn eq(&self, other: &Self) -> bool {
        self.names == other.names
    }
}

impl Eq for Alphabet {}

impl Alphabet {
    /// An alphabet holding only tau.
    pub fn new() -> Self {
        let mut index = FxHashMap::default();
        index.insert(Box::from(TAU_NAME), ActionId::TAU);
        Self {
            names: vec![Box::from(TAU_NAME)],
            index,
        }
    }

    /// Builds an alphabet from visible action names (duplicates are interned once).
    pub fn from_names<I, S>(names: I) -> Result<Self, IdOverflow>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let mut sigma = Self::new();
        for name in names {
            sigma.intern(name.as_ref())?;
        }
        Ok(sigma)
    }

    /// Returns the id of `name`, adding it if it is new. `"tau"` is [`ActionId::TAU`].
    pub fn intern(&mut self, name: &str) -> Result<ActionId, IdOverflow> {
        if let Some(&id) = self.index.get(name) {
            return Ok(id);
        }
        let id = ActionId::new(self.names.len())?;
        self.names.push(Box::from(name));
        self.index.insert(Box::from(name), id);
        Ok(id)
    }

    /// The id of `name`, if it is interned.
    pub fn get(&self, name: &str) -> Option<ActionId> {
        self.index.get(name).copied()
    }

    /// Whether `name` is a visible action of this alphabet.
    pub fn contains(&self, name: &str) -> bool {
        self.get(name).is_some_and(|a| !a.is_tau())
    }

    /// The name of an action.
    ///
    /// # Panics
    /// Panics if `id` does not belong to this alphabet.
    pub fn name(&self, id: ActionId) -> &str {
        &self.names[id.index()]
    }

    /// The name of an action, or `None` if `id` does not belong to this alphabet.
    pub fn try_name(&self, id: ActionId) -> Option<&str> {
        self.names.get(id.index()).map(AsRef::as_ref)
    }

    /// The number of visible actions (tau excluded).
    pub fn len(&self) -> usize {
        self.names.len() - 1
    }

    /// Whether there are no visible actions.
    pub fn is_empty(&self) -> bool {
        self.names.len() == 1
    }

    /// The number of ids in use, tau included: every id of this alphabet is below it.
    pub fn id_bound(&self) -> usize {
        self.names.len()
    }

    /// The visible actions, in id order.
    pub fn visible(&self) -> impl ExactSizeIterator<Item = ActionId> + '_ {
        ActionId::range(self.names.len()).skip(1)
    }

    /// The visible actions with their names, in id order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (ActionId, &str)> + '_ {
        self.names
            .iter()
            .enumerate()
            .skip(1)
            .map(|(i, n)| (ActionId::must(i), n.as_ref()))
    }
}

#[cfg(feature = "serde")]
#[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
impl serde::Serialize for Alphabet {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.names.iter().skip(1))
    }
}

#[cfg(feature = "serde")]
#[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
impl<'de> serde::Deserialize<'de> for Alphabet {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let names: Vec<String> = serde::Deserialize::deserialize(d)?;
        let mut sigma = Alphabet::new();
        for n in &names {
            if n == TAU_NAME || sigma.get(n).is_some() {
                return Err(serde::de::Error::custom(format!(
                    "duplicate or reserved action {n:?}"
                )));
            }
            sigma.intern(n).map_err(serde::de::Error::custom)?;
        }
        Ok(sigma)
    }
}

//! Relabelling (`/{new/old}`) and hiding (`\\S`, `@S`) of action names, both matching by label
//! prefix; used on process definitions (`process`) and on composites (`composite`).

use std::collections::HashMap;

use crate::ast::{HideSpec, RelabelItem};
use crate::error::RawError;
use crate::eval::Env;

/// The marker that makes an action name internal to one nested composite.
pub(crate) const FRESH_MARK: char = '#';

/// The prefixes of an action name at label boundaries, longest first: `a.b.c`, `a.b`, `a`.
fn dot_prefixes(name: &str) -> impl Iterator<Item = &str> {
    std::iter::once(name).chain(name.rmatch_indices('.').map(move |(i, _)| &name[..i]))
}

/// A relabelling `/{new/old, ...}`: old labels match as prefixes (`old` renames `old.x` too).
#[derive(Debug)]
pub(crate) struct Relabelling {
    map: HashMap<String, Vec<String>>,
}

impl Relabelling {
    pub(crate) fn new(env: &Env<'_>, items: &[RelabelItem]) -> Result<Self, RawError> {
        let mut map: HashMap<String, Vec<String>> = HashMap::new();
        Self::collect(env, items, &mut map)?;
        Ok(Self { map })
    }

    fn collect(
        env: &Env<'_>,
        items: &[RelabelItem],
        map: &mut HashMap<String, Vec<String>>,
    ) -> Result<(), RawError> {
        for item in items {
            match item {
                RelabelItem::Pair { new, old } => {
                    for (n, binds) in env.expand(new)? {
                        for (o, _) in env.with(&binds).expand(old)? {
                            let targets = map.entry(o).or_default();
                            if !targets.contains(&n) {
                                targets.push(n.clone());
                            }
                        }
                    }
                }
                RelabelItem::Forall(ix, inner) => {
                    for (_, binds) in env.index_combos(ix)? {
                        Self::collect(&env.with(&binds), inner, map)?;
                    }
                }
            }
        }
        Ok(())
    }

    /// The new names of an action.
    pub(crate) fn apply(&self, name: &str) -> Vec<String> {
        if name.contains(FRESH_MARK) {
            return vec![name.to_string()];
        }
        for prefix in dot_prefixes(name) {
            if let Some(news) = self.map.get(prefix) {
                let rest = &name[prefix.len()..];
                return news.iter().map(|n| format!("{n}{rest}")).collect();
            }
        }
        vec![name.to_string()]
    }

    /// Whether two different old labels may end up with the same new name.
    pub(crate) fn merges(&self) -> bool {
        let mut seen = std::collections::HashSet::new();
        self.map.values().flatten().any(|n| !seen.insert(n.clone()))
    }
}

/// Hiding `\S` or interface `@S`, matching by label prefix.
#[derive(Debug)]
pub(crate) struct Hider {
    names: std::collections::HashSet<String>,
    interface: bool,
}

impl Hider {
    pub(crate) fn new(env: &Env<'_>, spec: &HideSpec) -> Result<Self, RawError> {
        let (set, interface) = match spec {
            HideSpec::Hide(s) => (s, false),
            HideSpec::Interface(s) => (s, true),
        };
        Ok(Self {
            names: env.set(set)?.into_iter().collect(),
            interface,
        })
    }

    pub(crate) fn listed(&self, name: &str) -> bool {
        dot_prefixes(name).any(|p| self.names.contains(p))
    }

    pub(crate) fn hides(&self, name: &str) -> bool {
        name.contains(FRESH_MARK) || self.listed(name) != self.interface
    }

    pub(crate) fn into_parts(self) -> (Vec<String>, bool) {
        let mut v: Vec<String> = self.names.into_iter().collect();
        v.sort();
        (v, self.interface)
    }
}

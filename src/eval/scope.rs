//! One scope's variables, shared between the branches of a conditional until they
//! change.
//!
//! Which branch of a conditional Puppet takes is often not known, so each is walked
//! from the scope before it, and afterwards the variables they set are merged
//! (`flow::merge_branches`). A branch must not see what a sibling set, and a copy of
//! the whole scope for each branch costs every variable it holds (a class of hundreds
//! of parameters and hundreds of `if`s copied every parameter's value for each branch
//! that assigned anything).
//!
//! So a scope is layered: what was set before the branches began is frozen into a
//! layer the branches share ([`Scope::fork`]), and each sets its own variables on top.
//! A lookup reads the newest layer first. When the branches are done the scope before
//! them is the only one holding its layer again, and the next fork adds what was set
//! since into that layer instead of stacking another: the layers are as deep as the
//! branches are nested, not as long as the body.

use std::sync::Arc;

use super::AbstractValue;

/// A scope's variables by name, in the order they were set. Hashed with foldhash: the
/// interpreter looks a name up at every variable it meets.
type Variables = indexmap::IndexMap<String, AbstractValue, foldhash::fast::RandomState>;

/// Variables by name, and which of them some paths to here may not have set (a branch
/// that set it, joined with one that did not): assigning one of those again fails only
/// on some paths, while assigning any other variable the scope holds fails on all.
#[derive(Debug, Clone, Default)]
pub(super) struct Scope {
    /// Set since the last fork (a name here hides the same name below).
    own: Variables,
    /// Set before it, shared with the scopes forked from the same point.
    below: Option<Arc<Layer>>,
    maybe_unset: Arc<foldhash::HashSet<String>>,
}

/// Variables frozen by a fork, over the older ones.
#[derive(Debug)]
struct Layer {
    vars: Variables,
    below: Option<Arc<Layer>>,
}

/// Where a scope was forked: what [`Scope::set_since`] compares against.
pub(super) struct ForkPoint(Option<Arc<Layer>>);

impl Scope {
    pub(super) fn get(&self, name: &str) -> Option<&AbstractValue> {
        self.own
            .get(name)
            .or_else(|| self.layers().find_map(|layer| layer.vars.get(name)))
    }

    pub(super) fn contains_key(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    /// Sets a variable (over what it held, if it held one).
    pub(super) fn insert(&mut self, name: String, value: AbstractValue) {
        self.own.insert(name, value);
    }

    /// Sets a variable the scope does not hold yet.
    pub(super) fn insert_if_absent(&mut self, name: &str, value: impl FnOnce() -> AbstractValue) {
        if !self.contains_key(name) {
            self.own.insert(name.to_string(), value());
        }
    }

    pub(super) fn maybe_unset(&self) -> &foldhash::HashSet<String> {
        &self.maybe_unset
    }

    pub(super) fn maybe_unset_mut(&mut self) -> &mut foldhash::HashSet<String> {
        Arc::make_mut(&mut self.maybe_unset)
    }

    /// Freezes what was set so far, so that copies of the scope share it: a copy then
    /// costs its own variables only. Gives the point to compare a copy against later.
    pub(super) fn fork(&mut self) -> ForkPoint {
        if !self.own.is_empty() {
            let own = std::mem::take(&mut self.own);
            match self.below.as_mut().and_then(Arc::get_mut) {
                // No other scope shares the layer below (the branches forked from it
                // are done): what was set since goes into it, as it would have.
                Some(layer) => layer.vars.extend(own),
                None => {
                    let below = self.below.take();
                    self.below = Some(Arc::new(Layer { vars: own, below }));
                }
            }
        }
        ForkPoint(self.below.clone())
    }

    /// The names a copy of the scope forked at `point` has set since, in the order it
    /// set them (one it set again, or narrowed, may come twice).
    pub(super) fn set_since<'s>(&'s self, point: &ForkPoint) -> Vec<&'s String> {
        let mut newer: Vec<&Layer> = self
            .layers()
            .take_while(|layer| {
                !point
                    .0
                    .as_ref()
                    .is_some_and(|p| std::ptr::eq(Arc::as_ptr(p), *layer))
            })
            .collect();
        newer.reverse();
        newer
            .into_iter()
            .flat_map(|layer| layer.vars.keys())
            .chain(self.own.keys())
            .collect()
    }

    /// The frozen layers, newest first.
    fn layers(&self) -> impl Iterator<Item = &Layer> {
        std::iter::successors(self.below.as_deref(), |layer| layer.below.as_deref())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Value;

    fn known(s: &str) -> AbstractValue {
        AbstractValue::Known(Value::string(s))
    }

    /// The string a variable holds, if it holds one.
    fn string_in(scope: &Scope, name: &str) -> Option<String> {
        match scope.get(name)? {
            AbstractValue::Known(Value::String(s)) => Some(s.to_string()),
            other => panic!("not a string: {other:?}"),
        }
    }

    fn scope_with(names: &[&str]) -> Scope {
        let mut scope = Scope::default();
        for name in names {
            scope.insert(name.to_string(), known(name));
        }
        scope
    }

    #[test]
    fn a_branch_forked_from_a_scope_sees_what_was_set_before_and_sets_its_own() {
        let mut before = scope_with(&["a", "b"]);
        let point = before.fork();
        let mut branch = before.clone();
        branch.insert("c".into(), known("c"));
        // Narrowing: a name the scope holds, set again in the branch.
        branch.insert("a".into(), known("narrowed"));
        assert_eq!(string_in(&branch, "a").as_deref(), Some("narrowed"));
        assert_eq!(string_in(&branch, "b").as_deref(), Some("b"));
        assert_eq!(string_in(&before, "a").as_deref(), Some("a"));
        assert!(!before.contains_key("c"));
        assert_eq!(branch.set_since(&point), ["c", "a"]);
        assert!(before.set_since(&point).is_empty());
    }

    #[test]
    fn nested_forks_stack_while_shared_and_fold_once_the_branches_are_done() {
        let mut outer = scope_with(&["p"]);
        let point = outer.fork();
        let mut branch = outer.clone();
        branch.insert("x".into(), known("x"));
        // A conditional inside the branch: the layer below is shared with `outer`.
        let inner_point = branch.fork();
        assert_eq!(branch.layers().count(), 2);
        let mut inner = branch.clone();
        inner.insert("y".into(), known("y"));
        assert_eq!(inner.set_since(&inner_point), ["y"]);
        assert_eq!(inner.set_since(&point), ["x", "y"]);
        drop((inner, branch, inner_point, point));
        // Done with the branches: what the outer scope sets next joins its one layer.
        outer.insert("q".into(), known("q"));
        outer.fork();
        assert_eq!(outer.layers().count(), 1);
        assert_eq!(string_in(&outer, "q").as_deref(), Some("q"));
        assert_eq!(string_in(&outer, "p").as_deref(), Some("p"));
    }

    #[test]
    fn setting_a_name_absent_from_every_layer_only() {
        let mut scope = scope_with(&["a"]);
        scope.fork();
        scope.insert_if_absent("a", || known("other"));
        scope.insert_if_absent("b", || known("b"));
        assert_eq!(string_in(&scope, "a").as_deref(), Some("a"));
        assert_eq!(string_in(&scope, "b").as_deref(), Some("b"));
    }
}

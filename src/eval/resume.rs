//! Where a walk of a long body can start again: what the evaluator holds between two
//! statements at the top level of a body. The check's walk in an editor keeps a few of
//! these for each long body, so that a hover in the middle of a 5 MB class walks from
//! the nearest one before it instead of from the class's first statement.
//!
//! A resumption holds what decides the values the walk gives from there on: the scopes'
//! variables, the classes declared, the resource defaults in force and set. It does not
//! hold what only findings need (the errors noted, the resources declared for duplicate
//! declarations): a resumed walk explains values; findings come from whole walks.
//!
//! Taking one freezes the scopes' variables into layers it shares with the evaluator
//! (`Scope::fork`): it costs what was set since the one before, not the whole scope.

use super::{classes::ClassScope, Evaluator, ResourceDefault, Scope};

/// The evaluator's state before a statement at the top level of a body.
#[derive(Clone)]
pub struct Resumption {
    scopes: Vec<Scope>,
    declared: std::collections::HashMap<String, ClassScope>,
    resource_defaults: Vec<ResourceDefault>,
    defaults_set: Vec<(String, String)>,
}

impl Evaluator<'_> {
    /// The state to resume the walk from, taken between two statements at the top level
    /// of the body walked (nothing half evaluated: no branch, lambda or call under way).
    pub fn suspend(&mut self) -> Resumption {
        debug_assert!(self.uncertain == 0 && self.depth == 0 && self.pending.is_none());
        for scope in &mut self.scopes {
            scope.fork();
        }
        for class in self.declared.values_mut() {
            class.freeze();
        }
        Resumption {
            scopes: self.scopes.clone(),
            declared: self.declared.clone(),
            resource_defaults: self.resource_defaults.clone(),
            defaults_set: self.defaults_set.clone(),
        }
    }

    /// Continues from `resumption`, taken in a walk of the same body: this evaluator
    /// then walks the statements after it as that walk did (for the same program and
    /// environment).
    pub fn resume(&mut self, resumption: &Resumption) {
        self.scopes = resumption.scopes.clone();
        self.declared = resumption.declared.clone();
        self.resource_defaults = resumption.resource_defaults.clone();
        self.defaults_set = resumption.defaults_set.clone();
    }
}

//! Reading, on every core, the definitions a few files declare before their rules run.
//!
//! The rules of one file load what its declarations name (a class's manifest from
//! another module, a resource type written in Ruby) one after the other, on the thread
//! checking the file. When a run checks many files, the other threads are busy with
//! other files; when it checks one or two (a pre-commit hook, an editor), they would
//! wait. So for such runs the names are gathered first and their definitions loaded in
//! parallel into the environment's caches, where the rules then find them.

use crate::ast::preorder;
use crate::ast::{ExprKind, Program, ResourceForm};
use crate::env::Environment;
use rayon::prelude::*;
use std::collections::BTreeSet;

/// Loads, in parallel, the classes, defined types and resource types `programs`
/// declare with literal names, into each program's environment, with the modules'
/// functions written in Ruby their calls may call, each environment's Hiera data (what
/// automatic parameter lookup may bind, asked of every declaration that leaves a
/// parameter out) and its searches of texts and facts. (What the interpretation, the
/// longest part of a check, reads on its way is then read, mostly, by the other cores
/// before it starts: the searches and the functions were a fifth of its time.)
pub fn prefetch_declared<'p>(programs: impl IntoIterator<Item = (&'p Environment, &'p Program)>) {
    let mut wanted: Vec<(&Environment, Wanted)> = Vec::new();
    for (env, program) in programs {
        let mut names = BTreeSet::new();
        for expr in preorder(program) {
            declared_names(&expr.kind, &mut names);
        }
        if !wanted.iter().any(|(e, _)| std::ptr::eq(*e, env)) {
            // (First: they are the longest to read.)
            names.insert(Wanted::Hiera);
            names.insert(Wanted::Texts);
        }
        wanted.extend(names.into_iter().map(|name| (env, name)));
    }
    wanted.par_iter().for_each(|(env, wanted)| match wanted {
        Wanted::Hiera => {
            env.hiera();
        }
        Wanted::Texts => env.search_texts(),
        Wanted::Function(name) => {
            env.read_ruby_function(name);
        }
        Wanted::Class(name) => {
            env.class(name);
        }
        Wanted::Type(name) => {
            env.define(name);
            env.resource_type(name);
        }
    });
}

/// A definition a declaration names.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Wanted {
    /// The environment's Hiera layers (read once, whatever declares what).
    Hiera,
    /// What the text of the environment's files and its modules' facts say (searched
    /// once, when the interpretation first asks about a variable or a fact).
    Texts,
    Class(String),
    /// A defined type or a resource type: `nova::api_config { ... }`, `file { ... }`.
    Type(String),
    /// A function not Puppet's own, which a module may write in Ruby: its file is read
    /// when the interpretation reaches a call of it.
    Function(String),
}

fn declared_names(kind: &ExprKind, names: &mut BTreeSet<Wanted>) {
    let literal = |e: &crate::ast::Expr| match &e.kind {
        ExprKind::String(s) => Some(s.value.clone()),
        ExprKind::Name(n) => Some(n.clone()),
        _ => None,
    };
    match kind {
        ExprKind::Resource(resource) if resource.form == ResourceForm::Regular => {
            let ExprKind::Name(type_name) = &resource.type_expr.kind else {
                return;
            };
            if type_name == "class" {
                for body in &resource.bodies {
                    names.extend(literal(&body.title).map(Wanted::Class));
                }
            } else {
                names.insert(Wanted::Type(type_name.clone()));
            }
        }
        ExprKind::Call(call) => {
            let ExprKind::Name(function) = &call.function.kind else {
                return;
            };
            if matches!(function.as_str(), "include" | "contain" | "require") {
                names.extend(call.args.iter().filter_map(literal).map(Wanted::Class));
            } else if !crate::eval::is_builtin_function(function) {
                names.insert(Wanted::Function(function.clone()));
            }
        }
        ExprKind::MethodCall(call) if !crate::eval::is_builtin_function(&call.method.name) => {
            names.insert(Wanted::Function(call.method.name.clone()));
        }
        _ => {}
    }
}

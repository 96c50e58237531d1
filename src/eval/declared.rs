//! The resources a body certainly declares, by reference (`Package[curl]`), in the
//! order the walk reaches them. Puppet's catalog holds one resource per reference: a
//! second declaration fails where it is evaluated ("Duplicate declaration:
//! Package[curl] is already declared at ...; cannot redeclare"), and so does a title
//! given twice in one expression ("The title '/tmp/a' has already been used in this
//! resource expression"). Only declarations on every path of the body count (not in a
//! branch, nor in a lambda), with titles the code fixes, compared as written (Puppet
//! compares a reference's type name without case, its title as it is). Virtual and
//! exported resources are in the catalog too: they count.

use super::{AbstractValue, Evaluator};
use crate::ast::{Expr, ExprKind, ResourceExpr};
use crate::source::Span;
use crate::types::Value;

/// A declaration of a reference the body already declared.
#[derive(Debug, Clone, PartialEq)]
pub struct Duplicate {
    /// Puppet's message.
    pub message: String,
    /// The second declaration's title.
    pub at: Span,
    /// The first declaration's title.
    pub first: Span,
}

/// A resource the body certainly declares: its type in lower case, its title, where.
#[derive(Debug, Clone)]
pub(super) struct Declared {
    type_name: String,
    title: String,
    at: Span,
}

impl Evaluator<'_> {
    /// Notes the resources a body of `resource` declares with the title `value` (the
    /// value of `title`), where the walk certainly runs it; a reference declared before
    /// in the body is a duplicate.
    pub fn note_declared(&mut self, resource: &ResourceExpr, title: &Expr, value: &AbstractValue) {
        if self.uncertain > 0 || self.element_walk {
            return;
        }
        let ExprKind::Name(type_name) = &resource.type_expr.kind else {
            return;
        };
        let type_name = type_name.trim_start_matches("::").to_ascii_lowercase();
        if type_name == "class" || matches!(title.kind, ExprKind::Default) {
            return;
        }
        let AbstractValue::Known(value) = value else {
            return;
        };
        let mut titles = Vec::new();
        if !strings(value, &mut titles) {
            return;
        }
        // Walked again (a body the walk reaches twice): the same declaration.
        if self
            .resources_declared
            .iter()
            .any(|d| d.at == title.span && d.type_name == type_name)
        {
            return;
        }
        let shown = crate::types::display::capitalize_segments(&type_name);
        for (index, name) in titles.iter().enumerate() {
            let (message, first) = if titles[..index].contains(name) {
                (
                    format!("The title '{name}' has already been used in this resource expression"),
                    title.span,
                )
            } else if let Some(first) = self
                .resources_declared
                .iter()
                .find(|d| d.type_name == type_name && &d.title == name)
            {
                (
                    format!("Duplicate declaration: {shown}[{name}] is already declared"),
                    first.at,
                )
            } else {
                self.resources_declared.push(Declared {
                    type_name: type_name.clone(),
                    title: name.clone(),
                    at: title.span,
                });
                continue;
            };
            self.duplicates.push(Duplicate {
                message,
                at: title.span,
                first,
            });
            // Puppet stops at the first.
            return;
        }
    }

    /// The duplicates noted so far, taken out.
    pub fn take_duplicates(&mut self) -> Vec<Duplicate> {
        std::mem::take(&mut self.duplicates)
    }
}

/// The strings of a title (an array's, flattened), in order; false when one is not a
/// non-empty string (Puppet's error of its own, `check_resource_title`).
fn strings(value: &Value, out: &mut Vec<String>) -> bool {
    match value {
        Value::String(s) if !s.is_empty() => {
            out.push(s.to_string());
            true
        }
        Value::Array(items) => items.iter().all(|item| strings(item, out)),
        _ => false,
    }
}

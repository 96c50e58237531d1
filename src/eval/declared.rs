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
use foldhash::{HashMap, HashSet};

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

/// The resources a body certainly declares.
#[derive(Debug, Default)]
pub(super) struct Declared {
    /// Each reference (the type in lower case, the title) and the title that declared
    /// it first.
    by_reference: HashMap<(String, String), Span>,
    /// The titles noted: a declaration the walk reaches twice is one declaration.
    noted: HashSet<Span>,
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
        let Some(titles) = title_strings(value) else {
            return;
        };
        if !self.resources_declared.noted.insert(title.span) {
            return;
        }
        let mut in_expression = HashSet::default();
        for name in titles {
            let (message, first) = if !in_expression.insert(name.clone()) {
                (
                    format!("The title '{name}' has already been used in this resource expression"),
                    title.span,
                )
            } else {
                let key = (type_name.clone(), name);
                match self.resources_declared.by_reference.get(&key) {
                    None => {
                        self.resources_declared.by_reference.insert(key, title.span);
                        continue;
                    }
                    Some(&first) => (
                        format!(
                            "Duplicate declaration: {}[{}] is already declared",
                            crate::types::display::capitalize_segments(&type_name),
                            key.1
                        ),
                        first,
                    ),
                }
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

/// The strings of a title (an array's, flattened), in order; none when one is not a
/// non-empty string (Puppet's error of its own, `check_resource_title`).
pub fn title_strings(value: &Value) -> Option<Vec<String>> {
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
    let mut out = Vec::new();
    strings(value, &mut out).then_some(out)
}

//! The relationships a body makes to resources (its declarations' `require`, `before`,
//! `notify`, `subscribe`, and chaining arrows), and what may put resources in a catalog
//! under titles the fragments do not know: what the catalog pass needs to say that a
//! relationship names a resource no catalog of the entry point holds.

use super::{Collect, Event, EventKind, Target};
use crate::ast::{Expr, ExprKind, ResourceExpr, ResourceForm};
use crate::types::display::capitalize_segments;
use crate::types::{Kind, Value};

/// The metaparameters that make relationships.
pub(crate) const RELATIONSHIP_PARAMETERS: &[&str] = &["require", "before", "notify", "subscribe"];

impl Collect<'_> {
    /// A declaration's relationships to resources, and whether it may give a resource
    /// of its type another name.
    pub(super) fn relationships_of(
        &mut self,
        expr: &Expr,
        type_name: &str,
        resource: &ResourceExpr,
    ) {
        if self.record.is_skipped(expr) {
            return;
        }
        for body in &resource.bodies {
            let keyish = |name: &str| {
                matches!(name, "alias" | "name")
                    || crate::builtin::resource_type(type_name)
                        .is_some_and(|t| t.key_attributes.iter().any(|k| k == name))
            };
            let renames = body.attributes.iter().any(|a| match a.name.name.as_str() {
                // A hash of known keys renames as its keys do.
                "*" => match self.known(&a.value) {
                    Some(Value::Hash(entries)) => entries
                        .keys()
                        .any(|k| !matches!(k, Value::String(k) if !keyish(k))),
                    _ => true,
                },
                name => keyish(name),
            });
            if renames {
                self.may_declare(expr, Some(type_name.to_string()));
            }
            // A virtual or exported resource's relationships count only where it is
            // collected.
            if resource.form != ResourceForm::Regular {
                continue;
            }
            let certain = self.record.is_certain(&body.title);
            for attribute in &body.attributes {
                let parameter = attribute.name.name.as_str();
                if parameter == "*" {
                    self.splat_relationships(&attribute.value, certain);
                }
                if !RELATIONSHIP_PARAMETERS.contains(&parameter) {
                    continue;
                }
                let mut targets = Vec::new();
                let how = format!("in parameter '{parameter}'");
                self.targets_of(&attribute.value, &how, &mut targets);
                self.relate(attribute.value.span, certain, targets);
            }
            self.default_relationships(resource, body, certain);
        }
    }

    /// The relationships a `* => $hash` of known value gives.
    fn splat_relationships(&mut self, hash: &Expr, certain: bool) {
        let Some(Value::Hash(entries)) = self.known(hash) else {
            return;
        };
        let mut targets = Vec::new();
        for (key, value) in entries.iter() {
            let Value::String(parameter) = key else {
                continue;
            };
            if RELATIONSHIP_PARAMETERS.contains(&parameter.as_ref()) {
                let how = format!("in parameter '{parameter}'");
                references(value, &mut |type_name, title| {
                    targets.push(target(type_name, title, &how))
                });
            }
        }
        self.relate(hash.span, certain, targets);
    }

    /// The relationships resource defaults (`Package { require => ... }`) give a
    /// resource that does not set the parameter itself: Puppet adds them to it, then
    /// checks them with its own. Shown at the default's value, once per default.
    fn default_relationships(
        &mut self,
        resource: &ResourceExpr,
        body: &crate::ast::ResourceBody,
        certain: bool,
    ) {
        // A `* =>` hash may set the parameter: then the default does not apply.
        if body.attributes.iter().any(|a| a.name.name == "*") {
            return;
        }
        let mut seen: Vec<&str> = Vec::new();
        for default in self.record.resource_defaults(resource) {
            let parameter = default.attribute.as_str();
            // (The innermost default of an attribute comes first.)
            if seen.contains(&parameter) {
                continue;
            }
            seen.push(parameter);
            let given = body.attributes.iter().any(|a| a.name.name == parameter);
            if given || !RELATIONSHIP_PARAMETERS.contains(&parameter) {
                continue;
            }
            let certain = certain && default.certain;
            // Each default once, certainly where any resource takes it certainly.
            match self.defaults_related.get(&default.span) {
                Some(&was_certain) if was_certain || !certain => continue,
                _ => {
                    self.defaults_related.insert(default.span, certain);
                }
            }
            let crate::infer::AbstractValue::Known(value) = &default.value else {
                continue;
            };
            let how = format!("in parameter '{parameter}'");
            let mut targets = Vec::new();
            references(value, &mut |type_name, title| {
                targets.push(target(type_name, title, &how))
            });
            self.relate(default.span, certain, targets);
        }
    }

    /// A chaining arrow's references to resources on either side (a side that is an
    /// arrow itself is judged as its own arrow).
    pub(super) fn arrow(&mut self, expr: &Expr) {
        let ExprKind::Relationship { left, right, .. } = &expr.kind else {
            return;
        };
        // A collector may collect nothing: then the arrow makes no relationship.
        if self.record.is_skipped(expr) || may_be_empty(left) || may_be_empty(right) {
            return;
        }
        let mut targets = Vec::new();
        for side in [left, right] {
            if matches!(
                side.kind,
                ExprKind::Relationship { .. } | ExprKind::Resource(_)
            ) {
                continue;
            }
            self.targets_of(side, "for relationship", &mut targets);
        }
        self.relate(expr.span, self.record.is_certain(expr), targets);
    }

    /// The resources `expr` names, each with Puppet's error when the catalog lacks it
    /// (`Could not find resource 'Package[a]' <how>`).
    fn targets_of(&self, expr: &Expr, how: &str, out: &mut Vec<Target>) {
        self.references_of(expr, &mut |type_name, title| {
            out.push(target(type_name, title, how))
        });
    }

    /// The resource references `expr` gives: its value, when the walk knows it, else
    /// references written out (`Package['a']`, in arrays too).
    fn references_of(&self, expr: &Expr, found: &mut dyn FnMut(String, String)) {
        let mut any = false;
        if let Some(value) = self.known(expr) {
            references(value, &mut |t, title| {
                any = true;
                found(t, title)
            });
        }
        if !any {
            literal_references(expr, found);
        }
    }

    fn relate(&mut self, span: crate::source::Span, certain: bool, targets: Vec<Target>) {
        if !targets.is_empty() {
            self.events.push(Event {
                span,
                certain,
                kind: EventKind::Relate { targets },
            });
        }
    }

    /// An override that sets (or may set) a relationship metaparameter.
    pub(super) fn relationships_may_change(
        &mut self,
        expr: &Expr,
        attributes: &[crate::ast::Attribute],
    ) {
        let sets = |a: &crate::ast::Attribute| {
            a.name.name == "*" || RELATIONSHIP_PARAMETERS.contains(&a.name.name.as_str())
        };
        if !self.record.is_skipped(expr) && attributes.iter().any(sets) {
            self.events.push(Event {
                span: expr.span,
                certain: false,
                kind: EventKind::RelationshipsMayChange,
            });
        }
    }

    pub(super) fn may_declare(&mut self, expr: &Expr, type_name: Option<String>) {
        self.events.push(Event {
            span: expr.span,
            certain: false,
            kind: EventKind::MayDeclare { type_name },
        });
    }
}

/// A resource a relationship names, with Puppet's error when the catalog lacks it.
fn target(type_name: String, title: String, how: &str) -> Target {
    let message = format!(
        "Could not find resource '{}[{title}]' {how}",
        capitalize_segments(&type_name)
    );
    Target {
        type_name,
        title,
        message,
    }
}

/// The resource references (not classes) a value holds, by type (lower case) and title.
fn references(value: &Value, found: &mut dyn FnMut(String, String)) {
    match value {
        Value::Array(items) => items.iter().for_each(|v| references(v, found)),
        Value::Type(ty) => {
            if let Kind::Resource {
                type_name: Some(t),
                title: Some(title),
            } = ty.kind()
            {
                if !t.eq_ignore_ascii_case("class") {
                    found(crate::env::definition_key(t), title.to_string());
                }
            }
        }
        _ => {}
    }
}

/// `Package['a']` and `Package['a', 'b']` written out, in arrays too.
fn literal_references(expr: &Expr, found: &mut dyn FnMut(String, String)) {
    match &expr.kind {
        ExprKind::Access { object, args } => {
            let ExprKind::TypeRef(type_name) = &object.kind else {
                return;
            };
            if type_name.eq_ignore_ascii_case("class") || type_name.eq_ignore_ascii_case("resource")
            {
                return;
            }
            for (title, _) in crate::infer::declarations::literal_names(args) {
                found(crate::env::definition_key(type_name), title.to_string());
            }
        }
        ExprKind::Array(items) => items.iter().for_each(|i| literal_references(i, found)),
        _ => {}
    }
}

/// Whether an arrow's side may stand for no resource: a collector, or a chain ending in
/// one.
pub(crate) fn may_be_empty(side: &Expr) -> bool {
    match &side.kind {
        ExprKind::Collector(_) => true,
        ExprKind::Relationship { left, right, .. } => may_be_empty(left) || may_be_empty(right),
        ExprKind::Array(items) => items.is_empty() || items.iter().all(may_be_empty),
        _ => false,
    }
}

/// The type of the resources a call of a resource-making function may declare (`None`
/// inside: any type), for the functions that make resources (stdlib's, Puppet's
/// `create_resources`, and by their names those of modules: `create_ini_settings`);
/// `None` for another function.
pub(super) fn may_make_resources<'v>(
    name: &str,
    call: &crate::ast::Call,
    known: impl Fn(&Expr) -> Option<&'v Value>,
) -> Option<Option<String>> {
    let name = name.trim_start_matches("::");
    match name {
        "create_resources" | "ensure_resource" | "ensure_resources" => {
            Some(match call.args.first().and_then(&known) {
                Some(Value::String(t)) => {
                    Some(crate::env::definition_key(t.trim_start_matches('@')))
                }
                _ => None,
            })
        }
        "ensure_packages" | "stdlib::ensure_packages" => Some(Some("package".to_string())),
        _ if name.contains("resource") || name.contains("create_") || name.contains("ensure_") => {
            Some(None)
        }
        _ => None,
    }
}

use crate::ast::{Expr, ExprKind, ResourceForm};
use crate::diagnostics::Diagnostic;
use crate::rules::InterpretedFile;
use crate::types::{Kind, Value};

declare_rule! {
    /// ## What it does
    /// Reports a relationship to a class that does not exist: a `require`, `before`,
    /// `notify` or `subscribe` attribute naming `Class['x']`, or a chaining arrow
    /// (`->`, `~>`, `<-`, `<~`) with `Class['x']` on one side and a resource or reference
    /// on the other, where the class is one nothing can define (its module is there
    /// without it, or the environment is closed, as for `unknown-class`). No catalog
    /// can hold the class, so every compile that evaluates the relationship fails.
    /// Only relationships on every path of their body are judged (not in a branch or a
    /// lambda): a branch may be there for another version of the module it names.
    /// Where pupcheck was not shown every module, it is a warning naming what is
    /// missing.
    ///
    /// A relationship to a resource (`require => Package['nginx']`, `File['/a'] ->
    /// Service['x']`) is judged in the catalog of each entry point that makes it on
    /// every path (a role, a node, a class no other code declares): an error when the
    /// catalog lacks the resource, the compile follows every body it reaches, and no
    /// code of the environment can declare it at all (no declaration of that title, no
    /// declaration of its type under a title not known, no collector, alias or
    /// resource-making function of its type), in an environment pupcheck sees whole
    /// (closed): then no node's catalog holds it. The relationships a resource gets
    /// from resource defaults set before it in its scope (`Package { require => ...
    /// }`, shown at the default's value) and from a `* =>` hash of known value count as
    /// its own; a compile in which an override (a collector's, an inheriting class's)
    /// sets a relationship metaparameter is not judged, as it may replace them.
    /// Relationships to classes that exist but that the catalog may not hold are not
    /// judged: a node classifier may add any class.
    ///
    /// ## Why it matters
    /// Puppet checks every relationship when it finishes a catalog and fails the
    /// compile: "Could not find resource 'Class[Ntp::Sevice]' in parameter 'require'",
    /// "Could not find resource 'Class[Ntp::Sevice]' for relationship on 'File[/etc/ntp.conf]'".
    ///
    /// ## Example
    /// ```puppet
    /// class ntp::config {
    ///   file { '/etc/ntp.conf': notify => Class['ntp::sevice'] }
    /// }
    /// ```
    ///
    /// ## How to fix
    /// Name the class as it is defined (a misspelt name is the usual cause), or install
    /// the module that defines it.
    "unknown-relationship-target" (Type, Error)
    "A relationship names a class or resource that does not exist"
    { reads_catalog, check }
}

use crate::infer::fragment::relationships::{may_be_empty, RELATIONSHIP_PARAMETERS};

fn check(ctx: &InterpretedFile, out: &mut Vec<Diagnostic>) {
    let mut found = Vec::new();
    // Only what runs whenever its body runs: a branch a condition decides may be there
    // for other versions of the module it names (as `unknown-class` leaves them).
    let mut uncertain = crate::rules::conditional_code(&ctx.exprs);
    uncertain.extend(ctx.exprs.iter().filter_map(|e| lambda_body(e)));
    let uncertain = merged(uncertain);
    let runs_always = |span: crate::source::Span| {
        let next = uncertain.partition_point(|(start, _)| *start <= span.start);
        next.checked_sub(1)
            .is_none_or(|i| span.start >= uncertain[i].1)
    };
    for expr in &ctx.exprs {
        if !matches!(expr.kind, ExprKind::Resource(_) | ExprKind::Relationship { .. })
            || ctx.inference().is_skipped(expr)
            || !runs_always(expr.span)
        {
            continue;
        }
        match &expr.kind {
            // A virtual or exported resource's relationships are checked only where it
            // is collected.
            ExprKind::Resource(resource) if resource.form == ResourceForm::Regular => {
                for attribute in resource.bodies.iter().flat_map(|b| &b.attributes) {
                    let parameter = attribute.name.name.as_str();
                    if !RELATIONSHIP_PARAMETERS.contains(&parameter) {
                        continue;
                    }
                    let mut classes = Vec::new();
                    match ctx.inference().value(&attribute.value) {
                        Some(crate::eval::AbstractValue::Known(value)) => {
                            class_references(value, &mut classes)
                        }
                        _ => literal_class_references(&attribute.value, &mut classes),
                    }
                    for class in classes {
                        let message = format!(
                            "Could not find resource 'Class[{}]' in parameter '{parameter}'",
                            crate::types::display::capitalize_segments(&class)
                        );
                        if let Some(unresolved) = ctx.env.unresolved_class(&class) {
                            found.push((attribute.value.span, message, unresolved));
                        }
                    }
                }
            }
            ExprKind::Relationship { left, right, .. } => {
                // A collector may collect nothing: then the arrow makes no relationship.
                if [left, right].iter().any(|side| may_be_empty(side)) {
                    continue;
                }
                for side in [left, right] {
                    let mut classes = Vec::new();
                    literal_class_references(side, &mut classes);
                    for class in classes {
                        let message = format!(
                            "Could not find resource 'Class[{}]' for relationship",
                            crate::types::display::capitalize_segments(&class)
                        );
                        if let Some(unresolved) = ctx.env.unresolved_class(&class) {
                            found.push((side.span, message, unresolved));
                        }
                    }
                }
            }
            _ => {}
        }
    }
    RULE.report_unresolved(ctx, found, out);
    super::duplicate_declaration::catalog_findings(
        &RULE,
        ctx,
        crate::catalog::FindingKind::MissingTarget,
        out,
    );
}

/// The classes a relationship value names: `Class['x']` (as a reference of either
/// form), in arrays too. Strings (`'Class[x]'`) are left alone.
fn class_references(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::Array(items) => items.iter().for_each(|v| class_references(v, out)),
        Value::Type(ty) => match ty.kind() {
            Kind::Class(Some(name)) => out.push(crate::env::definition_key(name)),
            Kind::Resource {
                type_name: Some(t),
                title: Some(title),
            } if t.eq_ignore_ascii_case("class") => out.push(crate::env::definition_key(title)),
            _ => {}
        },
        _ => {}
    }
}

/// `Class['x']` and `Class['x', 'y']` written out, in arrays too.
fn literal_class_references(expr: &Expr, out: &mut Vec<String>) {
    match &expr.kind {
        ExprKind::Access { object, args } if matches!(&object.kind, ExprKind::TypeRef(t) if t == "Class") => {
            for (name, _) in crate::infer::declarations::literal_names(args) {
                out.push(crate::env::definition_key(name));
            }
        }
        ExprKind::Array(items) => items.iter().for_each(|i| literal_class_references(i, out)),
        _ => {}
    }
}

/// Byte ranges merged into disjoint ones, in order (for a binary search).
fn merged(mut ranges: Vec<(u32, u32)>) -> Vec<(u32, u32)> {
    ranges.sort_unstable();
    let mut out: Vec<(u32, u32)> = Vec::with_capacity(ranges.len());
    for (start, end) in ranges {
        match out.last_mut() {
            Some(last) if start <= last.1 => last.1 = last.1.max(end),
            _ => out.push((start, end)),
        }
    }
    out
}

/// The span of the body of a call's lambda (a lambda may run for no element).
fn lambda_body(expr: &Expr) -> Option<(u32, u32)> {
    let lambda = match &expr.kind {
        ExprKind::Call(call) => call.lambda.as_ref()?,
        ExprKind::MethodCall(call) => call.lambda.as_ref()?,
        _ => return None,
    };
    Some((lambda.span.start, lambda.span.end))
}

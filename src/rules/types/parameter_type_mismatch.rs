use crate::infer::declarations::{each_declaration, Declaration};
use crate::infer::parameter_values::{declared_type, mismatch, Undef};
use crate::rules::InterpretedFile;
use crate::ast::AttributeOp;
use crate::diagnostics::Diagnostic;
use crate::eval::FileAliases;
use crate::eval::AbstractValue;
use crate::types::resolve::Resolver;
use crate::types::Value;

declare_rule! {
    /// ## What it does
    /// Checks each attribute of a class declaration (`class { 'ntp': servers => 42 }`) or a
    /// defined type declaration (`ntp::peer { 'x': port => 'a' }`) against the type of the
    /// parameter it sets, when the class or defined type is one pupcheck has read (in the
    /// files checked or the modules around them) and either the value follows from the code
    /// or it is a parameter of the enclosing definition whose type no accepted value shares
    /// (`String $name` passed where an `Array` is expected).
    ///
    /// A declaration that leaves a parameter its default is judged by that default too,
    /// evaluated as Puppet evaluates it (in parameter order, seeing `$title`, `$name` and the
    /// parameters before it): `ntp::peer { 'x': }` fails when `Integer $port = 'a'`. For a
    /// class, only where its Hiera is read whole and no level may bind the parameter, and for
    /// `include` only where no manifest may declare the class with parameters first (as
    /// missing-parameter judges them); for a defined type, not where a resource default or
    /// override of the type may give the value.
    ///
    /// ## Why it matters
    /// Puppet checks the value when it evaluates the declaration and fails the whole catalog
    /// ("Class[Ntp]: parameter 'servers' expects an Array value, got Integer"): on the node,
    /// at run time, for every node that reaches the declaration.
    ///
    /// ## Example
    /// ```puppet
    /// class ntp (Array[String] $servers = []) { }
    /// class { 'ntp': servers => 'pool.ntp.org' }
    /// ```
    ///
    /// ## How to fix
    /// Pass a value of the parameter's type (`['pool.ntp.org']`), or change the type.
    "parameter-type-mismatch" (Type, Error)
    "A value given to a class or defined type parameter does not match its type"
    { reads_interpretation, check }
}

fn check(ctx: &InterpretedFile, out: &mut Vec<Diagnostic>) {
    let inference = ctx.inference();
    let mut declarations: Vec<Declaration> = Vec::new();
    // Virtual and exported resources are not judged yet.
    each_declaration(ctx.view(), inference, |d| {
        if !d.virtual_or_exported {
            declarations.push(d)
        }
    });
    // The defaults a declaration leaves, when their types reject them.
    for unusable in inference.unusable_defaults() {
        out.push(
            RULE.diagnostic(
                unusable.at,
                crate::types::mismatch::of_subject(&unusable.subject, &unusable.reasons),
            )
            .with_note(format!(
                "the declaration leaves the parameters their defaults, written in {}",
                crate::source::shown_path(&unusable.path)
            )),
        );
    }
    if declarations.is_empty() {
        return;
    }
    let aliases = FileAliases::new(ctx.program, ctx.env);
    let mut resolver = Resolver::new(&aliases);
    for declaration in &declarations {
        check_declaration(&mut resolver, declaration, out);
    }
}

fn check_declaration(
    resolver: &mut Resolver,
    declaration: &Declaration,
    out: &mut Vec<Diagnostic>,
) {
    for attribute in &declaration.attributes {
        if attribute.op != AttributeOp::Set {
            continue;
        }
        let Some(param) = declaration.definition.param(&attribute.name) else {
            continue;
        };
        let Some(type_expr) = &param.type_expr else {
            continue;
        };
        let Some(value) = attribute.value.as_deref() else {
            continue;
        };
        // `undef` given to a parameter with a default leaves the default (whose type
        // parameter-default-type judges); without one, it is judged like any value.
        if matches!(value, AbstractValue::Known(Value::Undef)) && param.default.is_some() {
            continue;
        }
        let Some(why) = mismatch(
            resolver,
            type_expr,
            &param.name.name,
            value,
            Undef::LeavesTheDefault,
        ) else {
            continue;
        };
        out.push(
            RULE.diagnostic(
                attribute.span,
                crate::types::mismatch::of_subject(&declaration.subject(), &why),
            )
            .with_note(format!(
                "'{}' is declared as {} in {}",
                param.name.name,
                declared_type(resolver, type_expr)
                    .map_or_else(|| "its type".to_string(), |t| t.to_string()),
                crate::source::shown_path(&declaration.definition.path)
            )),
        );
    }
}

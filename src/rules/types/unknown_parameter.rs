use crate::infer::declarations::each_declaration;
use crate::rules::InterpretedFile;
use crate::diagnostics::Diagnostic;

declare_rule! {
    /// ## What it does
    /// Reports an attribute of a class declaration (`class { 'ntp': server => 'x' }`) or a
    /// defined type declaration that is neither one of its parameters nor a metaparameter,
    /// when the class or defined type is one pupcheck has read (in the files checked or the
    /// modules around them).
    ///
    /// ## Why it matters
    /// Puppet fails the catalog when it evaluates the declaration ("Class[Ntp]: has no
    /// parameter named 'server'"), usually a typo or a parameter renamed in a new version of
    /// the module.
    ///
    /// ## Example
    /// ```puppet
    /// class ntp (Array[String] $servers = []) { }
    /// class { 'ntp': server => ['pool.ntp.org'] }
    /// ```
    ///
    /// ## How to fix
    /// Use the parameter's name (`servers`), or add the parameter to the definition.
    "unknown-parameter" (Type, Error)
    "A class or defined type is given a parameter it does not have"
    { reads_interpretation, check }
}

fn check(ctx: &InterpretedFile, out: &mut Vec<Diagnostic>) {
    each_declaration(ctx.view(), ctx.inference(), |declaration| {
        // Virtual and exported resources are not judged yet.
        if declaration.virtual_or_exported {
            return;
        }
        for attribute in &declaration.attributes {
            let name = &*attribute.name;
            let allowed = name == "name"
                || name == "title"
                || crate::builtin::is_metaparameter_or_retired(name)
                || declaration.definition.param(name).is_some();
            if allowed {
                continue;
            }
            let mut diagnostic = RULE
                .diagnostic(
                    attribute.name_span,
                    format!("{}: has no parameter named '{name}'", declaration.subject()),
                )
                .with_note(format!(
                    "{} is defined in {}",
                    declaration.subject(),
                    crate::source::shown_path(&declaration.definition.path)
                ));
            if let Some(default) = attribute.default_at {
                diagnostic = diagnostic.with_label(default, "given by this resource default");
            }
            out.push(diagnostic);
        }
    });
}

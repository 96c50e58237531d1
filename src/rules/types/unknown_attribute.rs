use crate::infer::declarations::each_ruby_resource;
use crate::rules::InterpretedFile;
use crate::diagnostics::Diagnostic;

declare_rule! {
    /// ## What it does
    /// Reports an attribute of a resource of a type written in Ruby that is neither one of the
    /// type's parameters or properties nor a metaparameter:
    /// - Puppet's own types (`file`, `package`, `service`, `exec`, `user`, ...) and those of
    ///   the modules Puppet ships with itself (`cron`, `mount`, `host`, `sshkey`,
    ///   `ssh_authorized_key`, `mailalias`, `augeas`, `selboolean`, `selmodule`), from data
    ///   generated from Puppet itself (`data/resource_types.toml`); a module of the
    ///   modulepath that has the type's file replaces the bundled one;
    /// - a module's types (`lib/puppet/type/<name>.rb` of the one module on the modulepath
    ///   that has it), read as a syntax tree, never run: `newparam`, `newproperty` and
    ///   `ensurable` with literal names, and the attributes of a Resource API type's
    ///   `register_type`. A type the reader is not sure of is not judged: one with a parent,
    ///   attributes added in a loop or by a helper, or a `require` of a module's own Ruby.
    ///   `name` is always accepted, and `provider` for a module's classic types.
    ///
    /// ## Why it matters
    /// Puppet fails the catalog ("no parameter named 'ensur' on File[/etc/motd]"), usually
    /// because of a typo.
    ///
    /// ## Example
    /// ```puppet
    /// file { '/etc/motd': ensur => file }
    /// ```
    ///
    /// ## How to fix
    /// Correct the attribute's name (`ensure`).
    "unknown-attribute" (Type, Error)
    "A resource of a type written in Ruby is given an attribute the type does not have"
    { reads_interpretation, check }
}

fn check(ctx: &InterpretedFile, out: &mut Vec<Diagnostic>) {
    let mut report = |name: &str, span, shown: &str| {
        out.push(RULE.diagnostic(span, format!("no parameter named '{name}' on {shown}")));
    };
    each_ruby_resource(ctx.view(), ctx.inference(), |resource| {
        for attribute in &resource.body.attributes {
            let name = attribute.name.name.as_str();
            if name != "*" && !resource.resource_type.accepts_attribute(name) {
                report(name, attribute.name.span, &resource.shown);
            }
        }
    });
}

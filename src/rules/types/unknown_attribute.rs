use crate::infer::declarations::{each_ruby_resource, given};
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
    /// The attributes judged are those written, the entries of a `* =>` hash the
    /// evaluation knows (in a lambda too), and those a resource default gives
    /// (`Service { enabel => true }`), reported where the resource is declared, as
    /// Puppet reports them, with the default as a label.
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
    let record = ctx.inference();
    each_ruby_resource(ctx.view(), record, |resource| {
        // Written, from a `* =>` hash the evaluation knows, or from a resource default.
        for attribute in given(record, resource.resource, resource.body) {
            let name = &*attribute.name;
            if resource.resource_type.accepts_attribute(name) {
                continue;
            }
            let mut diagnostic = RULE.diagnostic(
                attribute.name_span,
                format!("no parameter named '{name}' on {}", resource.shown),
            );
            if let Some(default) = attribute.default_at {
                diagnostic = diagnostic.with_label(default, "given by this resource default");
            }
            out.push(diagnostic);
        }
    });
}

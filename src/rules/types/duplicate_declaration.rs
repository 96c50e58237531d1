use crate::diagnostics::Diagnostic;
use crate::rules::InterpretedFile;

declare_rule! {
    /// ## What it does
    /// Reports a resource declared a second time in the body of a class, defined type or
    /// node, or in the top-level code of a file: the same type (its name compared without
    /// case) and the same title (compared as written), both declarations on every path
    /// of the body (not in a branch or a lambda), with titles the code fixes. Also a title
    /// given twice in one resource expression. Virtual and exported resources count
    /// (`@package`, `@@host`): the compiling node's catalog holds them too.
    ///
    /// Declarations in different bodies (two classes a role includes, two instances of
    /// a defined type) meet only in a node's catalog, which pupcheck does not assemble
    /// yet.
    ///
    /// ## Why it matters
    /// A catalog holds one resource per reference: Puppet fails the compile at the
    /// second declaration ("Duplicate declaration: Package[curl] is already declared at
    /// (file: ..., line: 2); cannot redeclare").
    ///
    /// ## Example
    /// ```puppet
    /// class profile::tools {
    ///   package { 'curl': ensure => installed }
    ///   package { 'curl': ensure => latest }
    /// }
    /// ```
    ///
    /// ## How to fix
    /// Declare the resource once, with every attribute it needs; a class other code
    /// also needs can `include` the class that declares it.
    "duplicate-declaration" (Type, Error)
    "A resource is declared twice"
    { reads_interpretation, check }
}

fn check(ctx: &InterpretedFile, out: &mut Vec<Diagnostic>) {
    for duplicate in ctx.inference().duplicates() {
        out.push(
            RULE.diagnostic(duplicate.at, duplicate.message.clone())
                .with_label(duplicate.first, "declared here first"),
        );
    }
}

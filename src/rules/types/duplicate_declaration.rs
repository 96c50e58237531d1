use crate::diagnostics::Diagnostic;
use crate::catalog::FindingKind;
use crate::rules::InterpretedFile;

declare_rule! {
    /// ## What it does
    /// Reports a resource declared a second time in one catalog: the same type (its name
    /// compared without case) and the same title (compared as written), with titles the
    /// code fixes. Both declarations may be in one body (a class, a defined type, a
    /// node, a file's top-level code), or in two bodies one catalog certainly holds: two
    /// classes a class includes (directly or through others), two instances of a defined
    /// type whose body declares a fixed title, a node and a class it includes. Each
    /// declaration must be on every path of its body (not in a branch or a lambda), and
    /// each body certainly reached from the class, node or file whose catalog holds
    /// both: the finding names that catalog and how it reaches each declaration. Also a
    /// title given twice in one resource expression. Virtual and exported resources
    /// count (`@package`, `@@host`): the compiling node's catalog holds them too.
    ///
    /// Two titles can be one resource: Puppet's own types key a resource by their key
    /// attributes (a file by its `path`, a service by its `name`, a package by its
    /// `name`, `provider` and `command`), given or taken from the title (a file's
    /// without trailing slashes), and a second declaration with the same key fails
    /// ("Cannot alias Package[a] to [nil, "curl", nil]", or "Duplicate declaration:
    /// File[/tmp/a] is already declared" when its title is the other's key). Not judged
    /// for a type whose key attributes resource defaults or overrides may set.
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
    { reads_catalog, check }
}

fn check(ctx: &InterpretedFile, out: &mut Vec<Diagnostic>) {
    for duplicate in ctx.inference().duplicates() {
        out.push(
            RULE.diagnostic(duplicate.at, duplicate.message.clone())
                .with_label(duplicate.first, "declared here first"),
        );
    }
    catalog_findings(&RULE, ctx, FindingKind::DuplicateResource, out);
    catalog_findings(&RULE, ctx, FindingKind::Alias, out);
}

/// The rule's diagnostics for what the catalogs raise in the file, of one kind.
pub(crate) fn catalog_findings(
    rule: &'static crate::rules::Rule,
    ctx: &InterpretedFile,
    kind: FindingKind,
    out: &mut Vec<Diagnostic>,
) {
    for finding in ctx.catalog_findings().iter().filter(|f| f.kind == kind) {
        let mut diagnostic = rule.diagnostic(finding.at, finding.message.clone());
        if let Some(first) = finding.first {
            diagnostic = diagnostic.with_label(first, "declared here first");
        }
        for note in &finding.notes {
            diagnostic = diagnostic.with_note(note.clone());
        }
        out.push(diagnostic);
    }
}

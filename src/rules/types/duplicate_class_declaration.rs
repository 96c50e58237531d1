use crate::catalog::FindingKind;
use crate::diagnostics::Diagnostic;
use crate::rules::InterpretedFile;

declare_rule! {
    /// ## What it does
    /// Reports a resource-like class declaration (`class { 'ntp': }`) of a class the
    /// catalog already holds: declared resource-like before, or included (`include`,
    /// `contain`, `require`) before. Both declarations must be on every path of their
    /// bodies, with class names the code fixes, and certainly reached from the class,
    /// node or file whose catalog holds both; the finding names that catalog and how it
    /// reaches each declaration. An `include` after a resource-like declaration is
    /// fine, and so is including a class twice.
    ///
    /// ## Why it matters
    /// A class is evaluated once per catalog, with one set of parameters: Puppet fails
    /// the compile at the second declaration ("Duplicate declaration: Class[Ntp] is
    /// already declared; cannot redeclare").
    ///
    /// ## Example
    /// ```puppet
    /// class profile::time {
    ///   include ntp
    ///   class { 'ntp': servers => ['ntp1.example.com'] }
    /// }
    /// ```
    ///
    /// ## How to fix
    /// Declare the class once. To give it parameters from several places, use Hiera
    /// data and `include`; where a resource-like declaration is needed, make it the
    /// first one the catalog evaluates, and include the class everywhere else.
    "duplicate-class-declaration" (Type, Error)
    "A class is declared resource-like after it was declared"
    { reads_catalog, check }
}

fn check(ctx: &InterpretedFile, out: &mut Vec<Diagnostic>) {
    super::duplicate_declaration::catalog_findings(&RULE, ctx, FindingKind::DuplicateClass, out);
}

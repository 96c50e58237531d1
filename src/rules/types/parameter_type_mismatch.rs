use crate::diagnostics::Diagnostic;
use crate::infer::Rejected;
use crate::rules::InterpretedFile;

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
    /// A value a fact decides (a selector or `case` on `$facts['os']['family']`) is judged
    /// arm by arm: an arm the type rejects fails every node where the fact has that value,
    /// and the message names them ("on nodes where $facts['os']['family'] is 'RedHat'").
    /// Only values some node certainly reports (the OS families and kernels Facter names)
    /// are judged, and only where the declaration runs on every path of its body.
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
    for rejected in ctx.inference().rejected_values(ctx.view()) {
        let mut message =
            crate::types::mismatch::of_subject(&rejected.subject, &rejected.reasons);
        if let Some(nodes) = &rejected.nodes {
            message = format!("{message} {nodes}");
        }
        let note = match &rejected.rejected {
            Rejected::Given {
                param,
                declared,
                path,
            } => format!(
                "'{param}' is declared as {} in {}",
                declared.as_deref().unwrap_or("its type"),
                crate::source::shown_path(path)
            ),
            Rejected::Defaults { path } => format!(
                "the declaration leaves the parameters their defaults, written in {}",
                crate::source::shown_path(path)
            ),
        };
        out.push(RULE.diagnostic(rejected.at, message).with_note(note));
    }
}

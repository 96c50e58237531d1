use crate::analysis::unset_variables::Verdict;
use crate::diagnostics::Diagnostic;
use crate::rules::FileContext;

declare_rule! {
    /// ## What it does
    /// Reports a variable without a namespace that a class, defined type or function reads
    /// where nothing pupcheck can see sets it: not one of its parameters, not assigned in it,
    /// not set by the class it inherits from, not set at top scope or in a node definition by
    /// the environment's manifests, not a fact Facter or the modules define, and not one of
    /// the variables Puppet sets. Only the node classifier (ENC) or a fact defined on the
    /// agents themselves could set it.
    ///
    /// Off by default (`variable-scope` already warns about such reads as puppet-lint does);
    /// select it to see which of them are unset in the whole environment. Reads that are
    /// certainly wrong (a slip of a visible name, a lambda's variable read after the lambda,
    /// a read before the body's own assignment) are `unknown-variable`'s errors.
    ///
    /// ## Why it matters
    /// With `strict_variables`, the default from Puppet 8, the compile fails ("Unknown
    /// variable: 'ldap_servers'.") on every node whose classifier and facts do not set it;
    /// Puppet 7 by default reads it as `undef`, silently.
    ///
    /// ## Example
    /// ```puppet
    /// class site::mail (String $relay = 'localhost') {
    ///   notice($ldap_servers)
    /// }
    /// ```
    ///
    /// ## How to fix
    /// Make it a parameter, or read it where it is set: `$facts['name']` for a fact,
    /// `$::name` for a variable the node classifier sets. Name the variables the classifier
    /// or the agents' facts set in `top-scope-variables` in `pupcheck.toml`.
    "possibly-unknown-variable" (Type, Warning)
    "A class reads a variable only the node classifier or an agent's fact could set"
    { off_by_default, check }
}

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    for unset in ctx.unset_reads() {
        if unset.verdict == Verdict::LeftToNodeData {
            out.push(crate::rules::types::unknown_variable::diagnostic(
                unset,
                RULE.id,
                RULE.severity,
            ));
        }
    }
}

declare_rule! {
    /// ## What it does
    /// Reports an operator whose operands Puppet refuses, for every value that can reach it:
    /// arithmetic on a string that is not a number (`8000 + 'eighty'`), a comparison Puppet
    /// cannot make (`1 < [1]`, `'a' < 1`), a match whose left side is not a string, a
    /// number out of Puppet's 64-bit range, reached through the variables the code sets
    /// before it. The message is Puppet's.
    ///
    /// Only values the code fixes are judged (see `evaluation-error` for how pupcheck decides
    /// what is certain): facts, parameters and lookups are never guessed.
    ///
    /// ## Why it matters
    /// The catalog does not compile: the node gets no new configuration until the code is
    /// fixed, and the error only shows when an agent runs.
    ///
    /// ## Example
    /// ```puppet
    /// $base = 8000
    /// $port = $base + 'eighty'
    /// ```
    ///
    /// ## How to fix
    /// Give the operator values it accepts (`$base + 80`), or convert them first
    /// (`Integer($text)`).
    "operator-type" (Type, Error)
    "An operator is given operands it does not accept"
    { reports_failures: Operator }
}

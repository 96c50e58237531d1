declare_rule! {
    /// ## What it does
    /// Reports a division or a modulo whose divisor is zero for every value that can reach it,
    /// also when the zero comes through variables (`$n = 0` ... `100 / $n`). Puppet fails
    /// with "Division by 0" for integers and "The result of the / expression is Infinity"
    /// for floats.
    ///
    /// ## Why it matters
    /// The catalog does not compile: the node gets no new configuration until the code is
    /// fixed.
    ///
    /// ## Example
    /// ```puppet
    /// $workers = 0
    /// $share = 100 / $workers
    /// ```
    ///
    /// ## How to fix
    /// Guard the division (`if $workers > 0 { ... }`) or give the divisor a value that is not
    /// zero.
    "division-by-zero" (Type, Error)
    "A division or modulo by zero"
    { reports_failures: DivisionByZero }
}

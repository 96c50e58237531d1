declare_rule! {
    /// ## What it does
    /// Reports a call of `assert_type(Type, value)` without a block whose value, as the code
    /// fixes it, is not an instance of the type. Puppet fails the compile with the mismatch
    /// in the words it uses for parameters (`assert_type(): expects an Integer value, got
    /// String`).
    ///
    /// ## Why it matters
    /// `assert_type` is there to stop the compile on a wrong value: when the code itself gives
    /// the wrong value, every node fails.
    ///
    /// ## Example
    /// ```puppet
    /// $port = '8080'
    /// $checked = assert_type(Integer, $port)
    /// ```
    ///
    /// ## How to fix
    /// Give a value of the type, convert it (`Integer($port)`), or widen the type.
    "assert-type" (Type, Error)
    "An `assert_type` that fails on the value the code gives it"
    { reports_failures: AssertType }
}

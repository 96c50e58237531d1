declare_rule! {
    /// ## What it does
    /// Reports a call of a type (`Integer(...)`, `Numeric(...)`, `Float(...)`,
    /// `Boolean(...)`, `SemVer(...)`, `Timespan(...)`, or `Type.new(...)`) whose argument,
    /// as the code gives it, cannot be converted: `Integer('eighty')`, `Boolean('maybe')`.
    /// The message is Puppet's.
    ///
    /// ## Why it matters
    /// The catalog does not compile: the node gets no new configuration until the code is
    /// fixed.
    ///
    /// ## Example
    /// ```puppet
    /// $text = '80 80'
    /// $port = Integer($text)
    /// ```
    ///
    /// ## How to fix
    /// Convert text that holds what the type reads (`'8080'`), or check it first
    /// (`$text =~ /\A\d+\z/`).
    "conversion" (Type, Error)
    "A conversion that cannot succeed (`Integer('eighty')`)"
    { reports_failures: Conversion }
}

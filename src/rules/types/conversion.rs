declare_rule! {
    /// ## What it does
    /// Reports a call of a type (`Integer(...)`, `Numeric(...)`, `Float(...)`,
    /// `Boolean(...)`, `SemVer(...)`, `Timespan(...)`, or `Type.new(...)`) whose argument,
    /// as the code gives it, cannot be converted: `Integer('eighty')`, `Boolean('maybe')`.
    /// The message is Puppet's.
    ///
    /// ## Why it matters
    /// Puppet stops compiling the catalog at the conversion: every node that evaluates it
    /// keeps its old configuration until the value can be converted.
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

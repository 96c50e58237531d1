declare_rule! {
    /// ## What it does
    /// Reports the last expression of a Puppet-language function with a declared return type
    /// (`function f() >> String { ... }`) when the value it gives, as the code fixes it or as
    /// the parameters' types bound it, is not of that type. Puppet checks the value a body
    /// ends with and fails the call ("value returned from f has wrong type, ..."); the message
    /// is Puppet's. A body that calls `return` anywhere is not judged (its end may not be
    /// reached, and Puppet 7 does not check a value given to `return`).
    ///
    /// A body that gives a value of the wrong type only for some arguments is reported at
    /// each call whose arguments the evaluation knows and make it so, where Puppet reports it
    /// (`site::weight('high')` of a `site::weight(String $level) >> Integer` whose selector
    /// gives `'unknown'` for anything but `'low'`).
    ///
    /// A lambda's declared return type (`$ports.map |$p| >> String { ... }`) is checked the
    /// same way for each call Puppet makes of it over a known collection ("value returned
    /// from lambda has wrong type, ...", at the call).
    ///
    /// ## Why it matters
    /// Every catalog that calls the function fails to compile.
    ///
    /// ## Example
    /// ```puppet
    /// function ntp::port(String $name) >> Integer {
    ///   "${name}:123"
    /// }
    /// ```
    ///
    /// ## How to fix
    /// Return a value of the declared type (convert it: `Integer($text)`), or declare the type
    /// the function returns.
    "return-type" (Type, Error)
    "A function's body ends with a value its declared return type rejects"
    { reports_failures: ReturnType }
}

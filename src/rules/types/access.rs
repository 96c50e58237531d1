declare_rule! {
    /// ## What it does
    /// Reports an access expression `x[...]` that Puppet refuses: the wrong number of keys or
    /// indexes (`$list[1, 2, 3]`), a key of the wrong type (`$list['a']`), access on a value
    /// that cannot be accessed (`$count[0]` on an integer), a parameterised type given the
    /// wrong kind of argument (`Integer['a']`), for the values the code gives it. The message
    /// is Puppet's.
    ///
    /// ## Why it matters
    /// The catalog does not compile: the node gets no new configuration until the code is
    /// fixed.
    ///
    /// ## Example
    /// ```puppet
    /// $ports = [80, 443]
    /// $first = $ports['http']
    /// ```
    ///
    /// ## How to fix
    /// Index arrays with integers and hashes with their keys; give types the parameters the
    /// specification lists for them.
    "access" (Type, Error)
    "An access `[]` with keys its subject does not take"
    { reports_failures: Access }
}

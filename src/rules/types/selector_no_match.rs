declare_rule! {
    /// ## What it does
    /// Reports a selector (`$x ? { ... }`) without a `default` entry whose subject, as the
    /// code fixes it, matches none of the entries. Puppet fails with "No matching entry for
    /// selector parameter with value ...".
    ///
    /// ## Why it matters
    /// Puppet stops compiling the catalog at the selector: every node that evaluates it
    /// keeps its old configuration until an entry matches, or a `default` is added.
    ///
    /// ## Example
    /// ```puppet
    /// $release = 'trixie'
    /// $codename = $release ? {
    ///   'bookworm' => 12,
    ///   'bullseye' => 11,
    /// }
    /// ```
    ///
    /// ## How to fix
    /// Add the missing entry, or a `default` entry for the values not listed.
    "selector-no-match" (Type, Error)
    "A selector whose subject matches none of its entries"
    { reports_failures: SelectorNoMatch }
}

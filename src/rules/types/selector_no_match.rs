declare_rule! {
    /// ## What it does
    /// Reports a selector (`$x ? { ... }`) without a `default` entry whose subject, as the
    /// code fixes it, matches none of the entries. Puppet fails with "No matching entry for
    /// selector parameter with value ...". Also one whose subject is known only by its
    /// type when no entry can match any value of that type (a `Boolean` parameter
    /// against `'true'` and `'false'`, an `Integer` against strings): every value fails.
    /// Puppet's message then names the value the node has, which pupcheck cannot.
    ///
    /// ## Why it matters
    /// The catalog does not compile: the node gets no new configuration until the code is
    /// fixed.
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

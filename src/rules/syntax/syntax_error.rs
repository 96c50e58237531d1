
// Produced by the syntax layer (`src/syntax/errors.rs`).
declare_rule! {
    /// ## What it does
    /// Reports code that Puppet's parser rejects: a missing comma between attributes, an
    /// unclosed brace or string, a heredoc without its end tag, a malformed EPP tag.
    ///
    /// ## Why it matters
    /// `puppet parser validate` and every catalog compilation stop at the first syntax error,
    /// so nothing in the file takes effect.
    ///
    /// ## Example
    /// ```puppet
    /// file { '/etc/motd':
    ///   ensure  => file
    ///   content => 'hi',
    /// }
    /// ```
    /// Puppet says: `Syntax error at 'content'`.
    ///
    /// ## How to fix
    /// Add what is missing where the diagnostic points; the label shows the bracket an unclosed
    /// block was opened with.
    "syntax-error" (Syntax, Error)
    "The file does not parse as Puppet code"
}

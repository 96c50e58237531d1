
// Produced by the lowering (`src/syntax/strings.rs`), which applies escapes.
declare_rule! {
    /// ## What it does
    /// Reports `\d`, `\w`, `\.` and other escapes that double-quoted strings do not process.
    /// Puppet keeps the backslash and warns. (A heredoc keeps the escapes its `/` list does
    /// not enable without a warning, and is not reported.)
    ///
    /// ## Why it matters
    /// They usually mean a regular expression was written in a double-quoted string, where the
    /// intent is easy to misread; Puppet logs a warning on every compilation.
    ///
    /// ## Example
    /// ```puppet
    /// $pattern = "^\d+$"
    /// ```
    ///
    /// ## How to fix
    /// Use a single-quoted string (`'^\d+$'`), a regex literal, or write `\\d`.
    "unrecognized-escape" (Validation, Warning)
    "A backslash escape that Puppet does not know, kept as written"
}

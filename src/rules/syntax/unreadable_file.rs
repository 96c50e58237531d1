
// Produced by the file reader (`src/source/walk.rs`).
declare_rule! {
    /// ## What it does
    /// Reports a file that pupcheck could not check: it cannot be read (permissions, a broken
    /// link), it is not valid UTF-8, or it is larger than 16 MB.
    ///
    /// ## Why it matters
    /// Puppet reads manifests as UTF-8; a file in another encoding (often Latin-1 from an old
    /// editor) fails or is read wrongly on the agent.
    ///
    /// ## Example
    /// A manifest saved as Latin-1 with `# café` in a comment: the message gives the offset and
    /// line of the first byte that is not UTF-8.
    ///
    /// ## How to fix
    /// Re-encode the file as UTF-8 (`iconv -f latin1 -t utf-8`), fix its permissions, or split it.
    "unreadable-file" (Syntax, Error)
    "The file cannot be read, is not UTF-8, or is too large to check"
}

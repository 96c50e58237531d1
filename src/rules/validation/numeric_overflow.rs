
// Produced by the lowering (`src/syntax/lower.rs`), which cannot represent the value.
declare_rule! {
    /// ## What it does
    /// Reports an integer literal outside the range of a 64-bit signed integer.
    ///
    /// ## Why it matters
    /// Puppet's validator rejects the manifest (`NUMERIC_OVERFLOW`).
    ///
    /// ## Example
    /// ```puppet
    /// $big = 9223372036854775808
    /// ```
    ///
    /// ## How to fix
    /// Use a smaller number, or a string if the value is an identifier rather than a quantity.
    "numeric-overflow" (Validation, Error)
    "An integer literal does not fit in 64 bits"
}

//! What the readers of modules' Ruby ask of a file's syntax, whichever reader answers:
//! tree-sitter's whole tree (`tree`), or the skimmer (`skim`) that reads the
//! common shapes of a type file itself and gives up on anything else. Node kinds are
//! tree-sitter-ruby's names, so a reader written against one answers the same on the
//! other.

pub trait RubySyntax {
    /// A node of the file; cheap to copy.
    type Node<'a>: Copy
    where
        Self: 'a;

    /// The calls of the file with the methods they name (a bare identifier standing as
    /// a statement is a call without arguments). The skimmer lists at least every call
    /// of a method it was asked about; tree-sitter lists every call.
    fn calls(&self) -> Vec<(Self::Node<'_>, &str)>;
    /// The grammar's name of the node's kind (`call`, `pair`, `simple_symbol`...).
    fn kind<'a>(&'a self, node: Self::Node<'a>) -> &'a str;
    /// The node's text.
    fn source<'a>(&'a self, node: Self::Node<'a>) -> &'a str;
    /// The method a call names; a bare identifier standing as a statement names itself.
    fn method_name<'a>(&'a self, node: Self::Node<'a>) -> Option<&'a str>;
    /// The receiver of a call as written (`Puppet::Type`), if it has one.
    fn receiver<'a>(&'a self, call: Self::Node<'a>) -> Option<&'a str>;
    /// A name written literally: `:x`, `:"x"`, `'x'`, `"x"` without interpolation or
    /// escapes, or a hash key `x:`.
    fn literal_name<'a>(&'a self, node: Self::Node<'a>) -> Option<&'a str>;
    /// A pair's key as a name (`type:`, `:type =>`, `'type' =>`).
    fn pair_key<'a>(&'a self, pair: Self::Node<'a>) -> Option<&'a str>;
    /// The arguments of a call.
    fn arguments<'a>(&'a self, call: Self::Node<'a>) -> Vec<Self::Node<'a>>;
    /// The statements of a call's block; `None` when the call has no block.
    fn block_statements<'a>(&'a self, call: Self::Node<'a>) -> Option<Vec<Self::Node<'a>>>;
    /// The name a `def`, `class` or `module` gives, as written.
    fn defined_name<'a>(&'a self, node: Self::Node<'a>) -> Option<&'a str>;
    /// The kind of what an assignment assigns to (`instance_variable` of `@doc = ...`).
    fn assigned_kind<'a>(&'a self, assignment: Self::Node<'a>) -> Option<&'a str>;
    /// Whether the node stands inside `module <name> ... end`.
    fn inside_module(&self, node: Self::Node<'_>, name: &str) -> bool;
}

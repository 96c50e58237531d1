//! The typed syntax tree of a Puppet manifest or EPP template.
//!
//! Owned data with spans, no tree-sitter types: later layers (types, evaluator, rules)
//! read only this. The shapes follow Puppet's own model (`Puppet::Pops::Model`) where
//! that helps: statements are expressions, `include x` is a call, `${x}` in a string is
//! already the variable `$x`, and `f(a => 1)` passes one hash argument.

pub mod names;
mod preorder;
mod visit;

pub use preorder::{each_parameter_list, holding, preorder};
pub use visit::{any_within, contains_error, walk_expr, walk_lambda_parts, Visitor};

use crate::source::Span;

/// A parsed file: its statements, its comments, and for an EPP template its parameters.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize, Default, PartialEq)]
pub struct Program {
    pub body: Vec<Expr>,
    /// Every comment, in source order (style rules and suppressions need them).
    pub comments: Vec<Comment>,
    /// `<%- | String $x | -%>`: present only when an EPP template declares parameters.
    pub epp_parameters: Option<Vec<Parameter>>,
}

#[derive(Debug, Clone, serde::Serialize, serde::Deserialize, PartialEq)]
pub struct Comment {
    pub span: Span,
    pub kind: CommentKind,
}

#[derive(Debug, Clone, serde::Serialize, serde::Deserialize, Copy, PartialEq, Eq)]
pub enum CommentKind {
    /// `# ...`
    Hash,
    /// `/* ... */`
    Block,
    /// `<%# ... %>` in a template
    Epp,
}

/// A name with its span: a variable name without `$`, a bare word, a type name.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize, PartialEq, Eq)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

#[derive(Debug, Clone, serde::Serialize, serde::Deserialize, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

impl Expr {
    pub fn new(kind: ExprKind, span: Span) -> Expr {
        Expr { kind, span }
    }
}

#[derive(Debug, Clone, serde::Serialize, serde::Deserialize, PartialEq)]
pub enum ExprKind {
    // ------------------------------------------------------------ literals
    Integer(i64),
    Float(f64),
    /// A string whose value is known: single-quoted, or double-quoted without
    /// interpolation, or a bare word used as a value (`ensure => present`).
    String(StringLiteral),
    /// A double-quoted string or heredoc with interpolation.
    Interpolated(Vec<StringPart>),
    Heredoc(Box<Heredoc>),
    /// `/pattern/`, the pattern as written between the slashes.
    Regex(String),
    Boolean(bool),
    Undef,
    Default,
    /// `$x`, `$::x`, `$a::b`, `$0`: the name without `$`.
    Variable(String),
    /// A bare word where a name is meant (`foo`, `foo::bar`); evaluates to a string.
    Name(String),
    /// A capitalised reference: `File`, `Foo::Bar`; evaluates to a type.
    TypeRef(String),
    /// `attr`, `private`: reserved words that must not be used.
    Reserved(String),
    Array(Vec<Expr>),
    Hash(Vec<HashEntry>),

    // ------------------------------------------------------------ operators
    Binary {
        op: BinaryOp,
        op_span: Span,
        left: Box<Expr>,
        right: Box<Expr>,
    },
    Unary {
        op: UnaryOp,
        operand: Box<Expr>,
    },
    Assignment {
        op: AssignOp,
        left: Box<Expr>,
        right: Box<Expr>,
    },
    Relationship {
        op: RelationOp,
        left: Box<Expr>,
        right: Box<Expr>,
    },
    Selector {
        subject: Box<Expr>,
        entries: Vec<SelectorEntry>,
    },
    Paren(Box<Expr>),
    /// `x[a, b]`
    Access {
        object: Box<Expr>,
        args: Vec<Expr>,
    },
    /// `f(a)`, `include a` (statement style), `Integer('1')`
    Call(Box<Call>),
    /// `$x.f(a) |$v| { }`, `$x.f`
    MethodCall(Box<MethodCall>),

    // ------------------------------------------------------------ control flow
    If(Box<IfExpr>),
    Unless(Box<UnlessExpr>),
    Case(Box<CaseExpr>),

    // ------------------------------------------------------------ catalog
    Resource(Box<ResourceExpr>),
    /// `File { mode => '0644' }`
    ResourceDefaults(Box<ResourceDefaults>),
    /// `File['x'] { mode => '0644' }`
    ResourceOverride(Box<ResourceOverride>),
    /// `File <| tag == 'x' |>`, with an optional `{ ... }` override
    Collector(Box<Collector>),

    // ------------------------------------------------------------ definitions
    Class(Box<ClassDef>),
    Define(Box<DefineDef>),
    Node(Box<NodeDef>),
    Function(Box<FunctionDef>),
    Plan(Box<PlanDef>),
    TypeAlias(Box<TypeAlias>),
    /// `type Runtime['ruby', 'X'] = Y`: Pcore's runtime type mapping.
    TypeMapping(Box<TypeMapping>),
    /// `type Foo inherits Bar { ... }`: a Pcore object type (kept opaque).
    TypeDefinition(Box<TypeDefinition>),

    // ------------------------------------------------------------ templates
    /// Literal template text, after `<%-`/`-%>` trimming.
    EppText(String),
    /// `<%= expr %>`
    EppRender(Box<Expr>),

    /// A part of the tree that could not be parsed (a syntax error was reported).
    Error,
}

#[derive(Debug, Clone, serde::Serialize, serde::Deserialize, PartialEq)]
pub struct StringLiteral {
    pub value: String,
    pub style: StringStyle,
}

#[derive(Debug, Clone, serde::Serialize, serde::Deserialize, Copy, PartialEq, Eq)]
pub enum StringStyle {
    SingleQuoted,
    DoubleQuoted,
    /// A bare word (`present`, `foo-bar`) used as a string.
    Bare,
    Heredoc,
}

#[derive(Debug, Clone, serde::Serialize, serde::Deserialize, PartialEq)]
pub enum StringPart {
    /// Literal text, escapes already applied.
    Text(String, Span),
    /// `$x` or `${expr}`; `${x}` is already the variable `$x` (spec "Expressions",
    /// String Interpolation).
    Interpolation(Expr),
}

#[derive(Debug, Clone, serde::Serialize, serde::Deserialize, PartialEq)]
pub struct Heredoc {
    /// The end tag, without quotes.
    pub tag: String,
    /// `@(END:json)`: the syntax to validate the text against.
    pub syntax: Option<String>,
    /// `@("END")`: `$x` and `${...}` are interpolated.
    pub interpolated: bool,
    /// `@(END/tn)`: the escapes that are processed (`None`: no `/` was given).
    pub escapes: Option<String>,
    /// The text after margin removal, escapes and trimming.
    pub parts: Vec<StringPart>,
    /// Where the body (the lines after the header line) is.
    pub body_span: Span,
}

#[derive(Debug, Clone, serde::Serialize, serde::Deserialize, PartialEq)]
pub struct HashEntry {
    pub key: Expr,
    pub value: Expr,
}

#[derive(Debug, Clone, serde::Serialize, serde::Deserialize, PartialEq)]
pub struct SelectorEntry {
    pub matcher: Expr,
    pub value: Expr,
}

#[derive(Debug, Clone, serde::Serialize, serde::Deserialize, Copy, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    Or,
    And,
    Less,
    Greater,
    LessEqual,
    GreaterEqual,
    Equal,
    NotEqual,
    ShiftLeft,
    ShiftRight,
    Add,
    Subtract,
    Multiply,
    Divide,
    Modulo,
    Match,
    NotMatch,
    In,
}

impl BinaryOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BinaryOp::Or => "or",
            BinaryOp::And => "and",
            BinaryOp::Less => "<",
            BinaryOp::Greater => ">",
            BinaryOp::LessEqual => "<=",
            BinaryOp::GreaterEqual => ">=",
            BinaryOp::Equal => "==",
            BinaryOp::NotEqual => "!=",
            BinaryOp::ShiftLeft => "<<",
            BinaryOp::ShiftRight => ">>",
            BinaryOp::Add => "+",
            BinaryOp::Subtract => "-",
            BinaryOp::Multiply => "*",
            BinaryOp::Divide => "/",
            BinaryOp::Modulo => "%",
            BinaryOp::Match => "=~",
            BinaryOp::NotMatch => "!~",
            BinaryOp::In => "in",
        }
    }

    pub fn from_symbol(symbol: &str) -> Option<BinaryOp> {
        Some(match symbol {
            "or" => BinaryOp::Or,
            "and" => BinaryOp::And,
            "<" => BinaryOp::Less,
            ">" => BinaryOp::Greater,
            "<=" => BinaryOp::LessEqual,
            ">=" => BinaryOp::GreaterEqual,
            "==" => BinaryOp::Equal,
            "!=" => BinaryOp::NotEqual,
            "<<" => BinaryOp::ShiftLeft,
            ">>" => BinaryOp::ShiftRight,
            "+" => BinaryOp::Add,
            "-" => BinaryOp::Subtract,
            "*" => BinaryOp::Multiply,
            "/" => BinaryOp::Divide,
            "%" => BinaryOp::Modulo,
            "=~" => BinaryOp::Match,
            "!~" => BinaryOp::NotMatch,
            "in" => BinaryOp::In,
            _ => return None,
        })
    }
}

#[derive(Debug, Clone, serde::Serialize, serde::Deserialize, Copy, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    /// `!x`
    Not,
    /// `-x`
    Negate,
    /// `*x` (unfold an array into arguments, case options or array elements)
    Splat,
}

#[derive(Debug, Clone, serde::Serialize, serde::Deserialize, Copy, PartialEq, Eq, Hash)]
pub enum AssignOp {
    /// `=`
    Assign,
    /// `+=` (removed in Puppet 4; validation reports it)
    AppendAssign,
    /// `-=` (removed in Puppet 4; validation reports it)
    DeleteAssign,
}

#[derive(Debug, Clone, serde::Serialize, serde::Deserialize, Copy, PartialEq, Eq, Hash)]
pub enum RelationOp {
    /// `->`
    Before,
    /// `~>`
    Notify,
    /// `<-`
    Require,
    /// `<~`
    Subscribe,
}

/// The kind of an expression without its contents: what a rule names to be called on
/// the expressions of that kind in the one walk over a file (`rules::ExprVisit`).
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize, Copy, PartialEq, Eq)]
pub enum ExprTag {
    Integer,
    Float,
    String,
    Interpolated,
    Heredoc,
    Regex,
    Boolean,
    Undef,
    Default,
    Variable,
    Name,
    TypeRef,
    Reserved,
    Array,
    Hash,
    Binary,
    Unary,
    Assignment,
    Relationship,
    Selector,
    Paren,
    Access,
    Call,
    MethodCall,
    If,
    Unless,
    Case,
    Resource,
    ResourceDefaults,
    ResourceOverride,
    Collector,
    Class,
    Define,
    Node,
    Function,
    Plan,
    TypeAlias,
    TypeMapping,
    TypeDefinition,
    EppText,
    EppRender,
    Error,
}

impl ExprTag {
    /// How many kinds there are (the tags are `0..COUNT` as `usize`).
    pub const COUNT: usize = ExprTag::Error as usize + 1;
}

impl ExprKind {
    /// The parameters this expression declares: a class's, defined type's, function's
    /// or plan's, or those of the lambda given to a call.
    pub fn declared_params(&self) -> &[Parameter] {
        let params = match self {
            ExprKind::Class(c) => c.params.as_deref(),
            ExprKind::Define(d) => d.params.as_deref(),
            ExprKind::Function(f) => f.params.as_deref(),
            ExprKind::Plan(p) => p.params.as_deref(),
            ExprKind::Call(c) => c.lambda.as_ref().map(|l| l.params.as_slice()),
            ExprKind::MethodCall(c) => c.lambda.as_ref().map(|l| l.params.as_slice()),
            _ => None,
        };
        params.unwrap_or(&[])
    }

    pub fn tag(&self) -> ExprTag {
        match self {
            ExprKind::Integer(_) => ExprTag::Integer,
            ExprKind::Float(_) => ExprTag::Float,
            ExprKind::String(_) => ExprTag::String,
            ExprKind::Interpolated(_) => ExprTag::Interpolated,
            ExprKind::Heredoc(_) => ExprTag::Heredoc,
            ExprKind::Regex(_) => ExprTag::Regex,
            ExprKind::Boolean(_) => ExprTag::Boolean,
            ExprKind::Undef => ExprTag::Undef,
            ExprKind::Default => ExprTag::Default,
            ExprKind::Variable(_) => ExprTag::Variable,
            ExprKind::Name(_) => ExprTag::Name,
            ExprKind::TypeRef(_) => ExprTag::TypeRef,
            ExprKind::Reserved(_) => ExprTag::Reserved,
            ExprKind::Array(_) => ExprTag::Array,
            ExprKind::Hash(_) => ExprTag::Hash,
            ExprKind::Binary { .. } => ExprTag::Binary,
            ExprKind::Unary { .. } => ExprTag::Unary,
            ExprKind::Assignment { .. } => ExprTag::Assignment,
            ExprKind::Relationship { .. } => ExprTag::Relationship,
            ExprKind::Selector { .. } => ExprTag::Selector,
            ExprKind::Paren(_) => ExprTag::Paren,
            ExprKind::Access { .. } => ExprTag::Access,
            ExprKind::Call(_) => ExprTag::Call,
            ExprKind::MethodCall(_) => ExprTag::MethodCall,
            ExprKind::If(_) => ExprTag::If,
            ExprKind::Unless(_) => ExprTag::Unless,
            ExprKind::Case(_) => ExprTag::Case,
            ExprKind::Resource(_) => ExprTag::Resource,
            ExprKind::ResourceDefaults(_) => ExprTag::ResourceDefaults,
            ExprKind::ResourceOverride(_) => ExprTag::ResourceOverride,
            ExprKind::Collector(_) => ExprTag::Collector,
            ExprKind::Class(_) => ExprTag::Class,
            ExprKind::Define(_) => ExprTag::Define,
            ExprKind::Node(_) => ExprTag::Node,
            ExprKind::Function(_) => ExprTag::Function,
            ExprKind::Plan(_) => ExprTag::Plan,
            ExprKind::TypeAlias(_) => ExprTag::TypeAlias,
            ExprKind::TypeMapping(_) => ExprTag::TypeMapping,
            ExprKind::TypeDefinition(_) => ExprTag::TypeDefinition,
            ExprKind::EppText(_) => ExprTag::EppText,
            ExprKind::EppRender(_) => ExprTag::EppRender,
            ExprKind::Error => ExprTag::Error,
        }
    }

    /// A definition (Puppet's `Definition`): class, defined type, node, function, plan,
    /// type alias, type mapping or type definition.
    pub fn is_definition(&self) -> bool {
        matches!(
            self,
            ExprKind::Class(_)
                | ExprKind::Define(_)
                | ExprKind::Node(_)
                | ExprKind::Function(_)
                | ExprKind::Plan(_)
                | ExprKind::TypeAlias(_)
                | ExprKind::TypeMapping(_)
                | ExprKind::TypeDefinition(_)
        )
    }
}

impl AssignOp {
    pub fn symbol(self) -> &'static str {
        match self {
            AssignOp::Assign => "=",
            AssignOp::AppendAssign => "+=",
            AssignOp::DeleteAssign => "-=",
        }
    }
}

impl RelationOp {
    pub fn symbol(self) -> &'static str {
        match self {
            RelationOp::Before => "->",
            RelationOp::Notify => "~>",
            RelationOp::Require => "<-",
            RelationOp::Subscribe => "<~",
        }
    }
}

#[derive(Debug, Clone, serde::Serialize, serde::Deserialize, Copy, PartialEq, Eq)]
pub enum CallStyle {
    /// `f(a)`
    Prefix,
    /// `include a`: a statement call without parentheses.
    Statement,
}

#[derive(Debug, Clone, serde::Serialize, serde::Deserialize, PartialEq)]
pub struct Call {
    /// Usually a `Name` (`notice`) or a `TypeRef` (`Integer('1')`).
    pub function: Expr,
    pub args: Vec<Expr>,
    pub lambda: Option<Lambda>,
    pub style: CallStyle,
}

#[derive(Debug, Clone, serde::Serialize, serde::Deserialize, PartialEq)]
pub struct MethodCall {
    pub receiver: Expr,
    pub method: Ident,
    /// `None` for `$x.f` without parentheses.
    pub args: Option<Vec<Expr>>,
    pub lambda: Option<Lambda>,
}

#[derive(Debug, Clone, serde::Serialize, serde::Deserialize, PartialEq)]
pub struct Lambda {
    pub params: Vec<Parameter>,
    pub return_type: Option<Expr>,
    pub body: Block,
    pub span: Span,
}

#[derive(Debug, Clone, serde::Serialize, serde::Deserialize, PartialEq)]
pub struct Block {
    pub statements: Vec<Expr>,
    pub span: Span,
}

#[derive(Debug, Clone, serde::Serialize, serde::Deserialize, PartialEq)]
pub struct Parameter {
    /// The variable name without `$`.
    pub name: Ident,
    pub type_expr: Option<Expr>,
    pub default: Option<Expr>,
    /// `*$rest`
    pub captures_rest: bool,
    pub span: Span,
}

#[derive(Debug, Clone, serde::Serialize, serde::Deserialize, PartialEq)]
pub struct IfExpr {
    pub condition: Expr,
    pub then_block: Block,
    /// `elsif` clauses become nested `If`s here, as in Puppet's model.
    pub else_branch: Option<ElseBranch>,
}

#[derive(Debug, Clone, serde::Serialize, serde::Deserialize, PartialEq)]
pub enum ElseBranch {
    Elsif(Box<Expr>),
    Else(Block),
}

#[derive(Debug, Clone, serde::Serialize, serde::Deserialize, PartialEq)]
pub struct UnlessExpr {
    pub condition: Expr,
    pub then_block: Block,
    pub else_block: Option<Block>,
}

#[derive(Debug, Clone, serde::Serialize, serde::Deserialize, PartialEq)]
pub struct CaseExpr {
    pub subject: Expr,
    pub options: Vec<CaseOption>,
}

#[derive(Debug, Clone, serde::Serialize, serde::Deserialize, PartialEq)]
pub struct CaseOption {
    pub matchers: Vec<Expr>,
    pub body: Block,
    pub span: Span,
}

#[derive(Debug, Clone, serde::Serialize, serde::Deserialize, Copy, PartialEq, Eq)]
pub enum ResourceForm {
    Regular,
    /// `@type { }`
    Virtual,
    /// `@@type { }`
    Exported,
}

/// `file { 'a': ...; 'b': ... }`, `class { 'x': }`, `Resource[file] { 'a': }`
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize, PartialEq)]
pub struct ResourceExpr {
    pub form: ResourceForm,
    /// A `Name` (`file`, `class`), or a type expression.
    pub type_expr: Expr,
    pub bodies: Vec<ResourceBody>,
}

#[derive(Debug, Clone, serde::Serialize, serde::Deserialize, PartialEq)]
pub struct ResourceBody {
    pub title: Expr,
    pub attributes: Vec<Attribute>,
    pub span: Span,
}

#[derive(Debug, Clone, serde::Serialize, serde::Deserialize, PartialEq)]
pub struct Attribute {
    /// The attribute name, or `*` for an attribute splat (`* => $hash`).
    pub name: Ident,
    pub op: AttributeOp,
    pub value: Expr,
    pub span: Span,
}

#[derive(Debug, Clone, serde::Serialize, serde::Deserialize, Copy, PartialEq, Eq)]
pub enum AttributeOp {
    /// `=>`
    Set,
    /// `+>`
    Append,
}

#[derive(Debug, Clone, serde::Serialize, serde::Deserialize, PartialEq)]
pub struct ResourceDefaults {
    pub form: ResourceForm,
    pub type_ref: Expr,
    pub attributes: Vec<Attribute>,
}

impl ResourceDefaults {
    /// The names of the attributes it sets (`=>`, not a `* =>` hash), in order.
    pub fn set_attributes(&self) -> impl Iterator<Item = &str> {
        self.attributes
            .iter()
            .filter(|a| a.op == AttributeOp::Set && a.name.name != "*")
            .map(|a| a.name.name.as_str())
    }
}

#[derive(Debug, Clone, serde::Serialize, serde::Deserialize, PartialEq)]
pub struct ResourceOverride {
    pub form: ResourceForm,
    /// The reference(s) being overridden, e.g. `File['x']`.
    pub target: Expr,
    pub attributes: Vec<Attribute>,
}

#[derive(Debug, Clone, serde::Serialize, serde::Deserialize, Copy, PartialEq, Eq)]
pub enum CollectorKind {
    /// `<| |>`: virtual resources of this catalog
    Virtual,
    /// `<<| |>>`: exported resources
    Exported,
}

#[derive(Debug, Clone, serde::Serialize, serde::Deserialize, PartialEq)]
pub struct Collector {
    pub type_expr: Expr,
    pub kind: CollectorKind,
    pub query: Option<Expr>,
    pub overrides: Option<Vec<Attribute>>,
}

#[derive(Debug, Clone, serde::Serialize, serde::Deserialize, PartialEq)]
pub struct ClassDef {
    pub name: Ident,
    pub params: Option<Vec<Parameter>>,
    pub parent: Option<Ident>,
    pub body: Block,
}

#[derive(Debug, Clone, serde::Serialize, serde::Deserialize, PartialEq)]
pub struct DefineDef {
    pub name: Ident,
    pub params: Option<Vec<Parameter>>,
    pub body: Block,
}

#[derive(Debug, Clone, serde::Serialize, serde::Deserialize, PartialEq)]
pub struct NodeDef {
    pub matches: Vec<Expr>,
    pub parent: Option<Expr>,
    pub body: Block,
}

#[derive(Debug, Clone, serde::Serialize, serde::Deserialize, PartialEq)]
pub struct FunctionDef {
    pub name: Ident,
    pub params: Option<Vec<Parameter>>,
    pub return_type: Option<Expr>,
    pub body: Block,
}

#[derive(Debug, Clone, serde::Serialize, serde::Deserialize, PartialEq)]
pub struct PlanDef {
    pub name: Ident,
    pub params: Option<Vec<Parameter>>,
    pub body: Block,
}

#[derive(Debug, Clone, serde::Serialize, serde::Deserialize, PartialEq)]
pub struct TypeAlias {
    pub name: Ident,
    pub type_expr: Expr,
}

/// `type <lhs> = <mapping>` where the left side is an access (`Runtime[...]`).
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize, PartialEq)]
pub struct TypeMapping {
    pub type_expr: Expr,
    pub mapping: Expr,
}

#[derive(Debug, Clone, serde::Serialize, serde::Deserialize, PartialEq)]
pub struct TypeDefinition {
    pub name: Ident,
    pub parent: Option<Ident>,
    pub body: Block,
}

/// Whether `return` is called anywhere in the statements (also in a lambda, where it
/// returns from the enclosing function).
pub fn calls_return(statements: &[Expr]) -> bool {
    any_within(statements, |e| called_name(e) == Some("return"))
}

/// The function a call (`f(x)`) or method call (`$x.f`) names; `None` for anything
/// else, and for a call of a computed function.
pub fn called_name(expr: &Expr) -> Option<&str> {
    match &expr.kind {
        ExprKind::Call(call) => match &call.function.kind {
            ExprKind::Name(n) => Some(n.as_str()),
            _ => None,
        },
        ExprKind::MethodCall(call) => Some(call.method.name.as_str()),
        _ => None,
    }
}

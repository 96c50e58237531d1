//! The input of type resolution: a small tree for type expressions such as
//! `Hash[String, Optional[Integer]]`, independent of the syntax layer. The syntax
//! layer (or [`super::from_ast`]) builds it from parsed Puppet code; spans are byte
//! offsets into that code, used to place errors on the offending parameter.

/// A type expression (or a literal parameter inside one).
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize, PartialEq)]
pub struct TypeExpr {
    pub kind: TypeExprKind,
    pub span: (usize, usize),
}

#[derive(Debug, Clone, serde::Serialize, serde::Deserialize, PartialEq)]
pub enum TypeExprKind {
    /// A capitalised reference (`Integer`, `Stdlib::Port`) or a lowercase bare word
    /// (`present`, which is a string).
    Name(String),
    /// `base[args]`.
    Access {
        base: Box<TypeExpr>,
        args: Vec<TypeExpr>,
    },
    Integer(i64),
    Float(f64),
    String(String),
    /// A regex literal: the pattern between the slashes.
    Regex(String),
    Boolean(bool),
    Undef,
    Default,
    Array(Vec<TypeExpr>),
    Hash(Vec<(TypeExpr, TypeExpr)>),
    /// Anything else (a variable, a call, an operator...): not a type expression.
    Other,
}

impl TypeExpr {
    pub fn new(kind: TypeExprKind, span: (usize, usize)) -> TypeExpr {
        TypeExpr { kind, span }
    }
}

//! The direct parser: Puppet's grammar (the tree-sitter grammar's rules and
//! precedences, `tree-sitter-puppet/grammar.js`) read by recursive descent, building the
//! AST as the lowering builds it from tree-sitter's tree: the same expressions, the same
//! spans, the same desugarings. Wherever the text is not a file it reads whole and
//! without error, it gives up (`None`), and the file goes to tree-sitter.

use super::lexer::{Keyword, Lexer, StringPart as LexPart, Tok, Token};
use crate::ast::*;
use crate::diagnostics::Diagnostic;
use crate::source::Span;
use crate::syntax::lower::{
    defaults_or_override, interpolated_variable, push_text, string_or_interpolated,
    unescape_reporting,
};
use crate::syntax::strings::{self, Escapes};

/// `None`: the direct parser gives the file to tree-sitter.
type P<T> = Option<T>;

/// Nesting beyond which the file goes to tree-sitter (which reports it past
/// `MAX_NESTING`).
const MAX_DEPTH: usize = 150;

// The grammar's precedences (grammar.js `PREC`).
const OR: u8 = 4;
const AND: u8 = 5;
const SELECTOR: u8 = 6;
const COMPARISON: u8 = 7;
const EQUALITY: u8 = 8;
const SHIFT: u8 = 9;
const ADDITIVE: u8 = 10;
const MULTIPLICATIVE: u8 = 11;
const MATCH: u8 = 12;
const IN: u8 = 13;
const UNARY_MINUS: u8 = 14;
const SPLAT: u8 = 15;
const NOT: u8 = 16;
const COLLECTOR: u8 = 17;

pub struct Parser<'s> {
    lexer: Lexer<'s>,
    tok: Token,
    /// Where the last token read ends.
    last_end: u32,
    depth: usize,
    pub diagnostics: Vec<Diagnostic>,
}

impl<'s> Parser<'s> {
    pub fn new(text: &'s str) -> Parser<'s> {
        let mut lexer = Lexer::new(text);
        let tok = lexer.next();
        Parser {
            lexer,
            tok,
            last_end: 0,
            depth: 0,
            diagnostics: Vec::new(),
        }
    }

    pub fn program(mut self) -> P<(Program, Vec<Diagnostic>)> {
        let body = self.statements_until(Tok::Eof)?;
        Some((
            Program {
                body,
                comments: std::mem::take(&mut self.lexer.comments),
                epp_parameters: None,
            },
            self.diagnostics,
        ))
    }

    // ---------------------------------------------------------------- tokens

    fn bump(&mut self) -> Token {
        let t = self.tok;
        self.last_end = t.end;
        self.tok = self.lexer.next();
        t
    }

    fn at(&self, kind: Tok) -> bool {
        self.tok.kind == kind
    }

    /// The current token if it is of `kind` (read past it); `None` (give up, where it
    /// must be there) otherwise.
    fn eat(&mut self, kind: Tok) -> Option<Token> {
        self.at(kind).then(|| self.bump())
    }

    /// The token after the current one.
    fn peek(&self) -> Token {
        self.lexer.peek()
    }

    fn text(&self, t: Token) -> &'s str {
        self.lexer.text(t.start, t.end)
    }

    fn span_from(&self, start: u32) -> Span {
        Span::new(start, self.last_end)
    }

    fn nested<T>(&mut self, f: impl FnOnce(&mut Self) -> P<T>) -> P<T> {
        if self.depth >= MAX_DEPTH {
            return None;
        }
        self.depth += 1;
        // Grow the stack on demand, as the lowering does.
        let result = stacker::maybe_grow(64 * 1024, 1024 * 1024, || f(self));
        self.depth -= 1;
        result
    }

    // ---------------------------------------------------------------- statements

    fn statements_until(&mut self, end: Tok) -> P<Vec<Expr>> {
        let mut statements = Vec::new();
        loop {
            if self.at(end) {
                return Some(statements);
            }
            if self.eat(Tok::Semicolon).is_some() {
                continue;
            }
            statements.push(self.statement()?);
        }
    }

    fn block(&mut self) -> P<Block> {
        let open = self.eat(Tok::LBrace)?;
        let statements = self.nested(|p| p.statements_until(Tok::RBrace))?;
        self.bump();
        Some(Block {
            statements,
            span: self.span_from(open.start),
        })
    }

    fn statement(&mut self) -> P<Expr> {
        match self.tok.kind {
            Tok::Keyword(Keyword::Class) if self.peek().kind != Tok::LBrace => self.class(),
            Tok::Keyword(Keyword::Define) => self.define(),
            Tok::Keyword(Keyword::Function) => self.function(),
            Tok::Keyword(Keyword::Type) if self.peek().kind == Tok::TypeRef => self.type_alias(),
            Tok::Keyword(Keyword::Node) => self.node(),
            // Plans, Bolt's apply: tree-sitter's.
            Tok::Name if matches!(self.text(self.tok), "plan" | "apply") => None,
            Tok::StatementFunction => {
                let next = self.peek();
                if next.kind == Tok::LParen && !next.after_line_break {
                    self.assignment_level()
                } else {
                    self.statement_call()
                }
            }
            _ => self.assignment_level(),
        }
    }

    /// `include a, b`, `notice $x`, `return`: a call without parentheses.
    fn statement_call(&mut self) -> P<Expr> {
        let name = self.bump();
        let function = Expr::new(
            ExprKind::Name(self.text(name).to_string()),
            Span::new(name.start, name.end),
        );
        let mut args = Vec::new();
        if self.starts_argument() {
            let mut items = vec![self.argument()?];
            while self.eat(Tok::Comma).is_some() {
                items.push(self.argument()?);
            }
            args = merge_hash_entries(items);
        }
        Some(Expr::new(
            ExprKind::Call(Box::new(Call {
                function,
                args,
                lambda: None,
                style: CallStyle::Statement,
            })),
            self.span_from(name.start),
        ))
    }

    /// Whether the current token can begin an argument of a statement call.
    fn starts_argument(&self) -> bool {
        match self.tok.kind {
            Tok::Variable
            | Tok::Name
            | Tok::StatementFunction
            | Tok::TypeRef
            | Tok::Integer
            | Tok::Float
            | Tok::SingleQuoted
            | Tok::DoubleQuote
            | Tok::Regex
            | Tok::LBracket
            | Tok::LBrace
            | Tok::LParen
            | Tok::Bang
            | Tok::Minus
            | Tok::Star
            | Tok::At
            | Tok::AtAt => true,
            Tok::Keyword(k) => matches!(
                k,
                Keyword::True
                    | Keyword::False
                    | Keyword::Undef
                    | Keyword::Default
                    | Keyword::Attr
                    | Keyword::Private
                    | Keyword::If
                    | Keyword::Unless
                    | Keyword::Case
                    | Keyword::Class
                    | Keyword::Type
            ),
            _ => false,
        }
    }

    fn assignment_level(&mut self) -> P<Expr> {
        let left = self.relationship_level()?;
        let op = match self.tok.kind {
            Tok::Assign => AssignOp::Assign,
            Tok::PlusAssign => AssignOp::AppendAssign,
            Tok::MinusAssign => AssignOp::DeleteAssign,
            _ => return Some(left),
        };
        self.bump();
        let right = self.nested(|p| p.assignment_level())?;
        let span = left.span.cover(right.span);
        Some(Expr::new(
            ExprKind::Assignment {
                op,
                left: Box::new(left),
                right: Box::new(right),
            },
            span,
        ))
    }

    fn relationship_level(&mut self) -> P<Expr> {
        let mut left = self.resource_level()?;
        let mut depth = self.depth;
        loop {
            depth += 1;
            if depth > MAX_DEPTH {
                return None;
            }
            let op = match self.tok.kind {
                Tok::InEdge => RelationOp::Before,
                Tok::NotifyEdge => RelationOp::Notify,
                Tok::RequireEdge => RelationOp::Require,
                Tok::SubscribeEdge => RelationOp::Subscribe,
                _ => return Some(left),
            };
            self.bump();
            let right = self.nested(|p| p.resource_level())?;
            let span = left.span.cover(right.span);
            left = Expr::new(
                ExprKind::Relationship {
                    op,
                    left: Box::new(left),
                    right: Box::new(right),
                },
                span,
            );
        }
    }

    fn resource_level(&mut self) -> P<Expr> {
        let start = self.tok.start;
        let form = match self.tok.kind {
            Tok::At => Some(ResourceForm::Virtual),
            Tok::AtAt => Some(ResourceForm::Exported),
            _ => None,
        };
        if form.is_some() {
            self.bump();
        }
        if self.at(Tok::Keyword(Keyword::Class)) {
            let class = self.bump();
            if !self.at(Tok::LBrace) {
                return None;
            }
            let type_expr = Expr::new(
                ExprKind::Name("class".to_string()),
                Span::new(class.start, class.end),
            );
            return self.resource(start, form.unwrap_or(ResourceForm::Regular), type_expr);
        }
        let expr = self.expression(0)?;
        if !self.at(Tok::LBrace) {
            return if form.is_some() { None } else { Some(expr) };
        }
        if let ExprKind::Collector(_) = &expr.kind {
            if form.is_some() {
                return None;
            }
            return self.collection_override(expr);
        }
        self.resource(start, form.unwrap_or(ResourceForm::Regular), expr)
    }

    /// `File <| |> { mode => '0644' }`
    fn collection_override(&mut self, collector: Expr) -> P<Expr> {
        self.bump();
        let attributes = self.attribute_list()?;
        self.eat(Tok::RBrace)?;
        let span = self.span_from(collector.span.start);
        let ExprKind::Collector(mut c) = collector.kind else {
            return None;
        };
        c.overrides = Some(attributes);
        Some(Expr::new(ExprKind::Collector(c), span))
    }

    /// The rest of a resource declaration, defaults or override, from its `{`.
    fn resource(&mut self, start: u32, form: ResourceForm, type_expr: Expr) -> P<Expr> {
        self.eat(Tok::LBrace)?;
        let attributes_first = match self.tok.kind {
            Tok::RBrace | Tok::Comma => true,
            Tok::Name | Tok::Keyword(_) | Tok::StatementFunction | Tok::Star => {
                matches!(self.peek().kind, Tok::FatArrow | Tok::PlusArrow)
            }
            _ => false,
        };
        if attributes_first {
            let attributes = self.attribute_list()?;
            self.eat(Tok::RBrace)?;
            let span = self.span_from(start);
            // (Any other shape is what the lowering reports as a syntax error.)
            let kind = defaults_or_override(form, &type_expr, &attributes)?;
            return Some(Expr::new(kind, span));
        }
        let mut bodies = Vec::new();
        loop {
            let title = self.nested(|p| p.expression(0))?;
            self.eat(Tok::Colon)?;
            let attributes = self.attribute_list()?;
            bodies.push(ResourceBody {
                span: self.span_from(title.span.start),
                title,
                attributes,
            });
            if self.eat(Tok::Semicolon).is_some() {
                if self.at(Tok::RBrace) {
                    break;
                }
                continue;
            }
            break;
        }
        self.eat(Tok::RBrace)?;
        Some(Expr::new(
            ExprKind::Resource(Box::new(ResourceExpr {
                form,
                type_expr,
                bodies,
            })),
            self.span_from(start),
        ))
    }

    /// Attributes up to (not including) a `}` or `;`: one comma may come first, one may
    /// end the list.
    fn attribute_list(&mut self) -> P<Vec<Attribute>> {
        let mut attributes = Vec::new();
        if self.eat(Tok::Comma).is_some()
            && !matches!(
                self.tok.kind,
                Tok::Name | Tok::Keyword(_) | Tok::StatementFunction | Tok::Star
            )
        {
            return Some(attributes);
        }
        while matches!(
            self.tok.kind,
            Tok::Name | Tok::Keyword(_) | Tok::StatementFunction | Tok::Star
        ) {
            let name = self.bump();
            let op = match self.tok.kind {
                Tok::FatArrow => AttributeOp::Set,
                Tok::PlusArrow if name.kind != Tok::Star => AttributeOp::Append,
                _ => return None,
            };
            self.bump();
            let value = self.nested(|p| p.expression(0))?;
            attributes.push(Attribute {
                name: Ident {
                    name: self.text(name).to_string(),
                    span: Span::new(name.start, name.end),
                },
                op,
                span: Span::new(name.start, value.span.end),
                value,
            });
            if self.eat(Tok::Comma).is_none() {
                break;
            }
        }
        Some(attributes)
    }

    // ---------------------------------------------------------------- definitions

    fn definition_name(&mut self) -> P<Ident> {
        match self.tok.kind {
            Tok::Name | Tok::TypeRef => {
                let t = self.bump();
                Some(self.ident(t))
            }
            _ => None,
        }
    }

    fn ident(&self, t: Token) -> Ident {
        Ident {
            name: self.text(t).to_string(),
            span: Span::new(t.start, t.end),
        }
    }

    fn class(&mut self) -> P<Expr> {
        let start = self.bump().start;
        let name = self.definition_name()?;
        let params = self.parameter_list()?;
        let parent = if self.eat(Tok::Keyword(Keyword::Inherits)).is_some() {
            match self.tok.kind {
                Tok::Name | Tok::TypeRef | Tok::Keyword(Keyword::Default) => {
                    let t = self.bump();
                    Some(self.ident(t))
                }
                _ => return None,
            }
        } else {
            None
        };
        let body = self.block()?;
        Some(Expr::new(
            ExprKind::Class(Box::new(ClassDef {
                name,
                params,
                parent,
                body,
            })),
            self.span_from(start),
        ))
    }

    fn define(&mut self) -> P<Expr> {
        let start = self.bump().start;
        let name = self.definition_name()?;
        let params = self.parameter_list()?;
        let body = self.block()?;
        Some(Expr::new(
            ExprKind::Define(Box::new(DefineDef { name, params, body })),
            self.span_from(start),
        ))
    }

    fn function(&mut self) -> P<Expr> {
        let start = self.bump().start;
        let name = self.definition_name()?;
        let params = self.parameter_list()?;
        let return_type = self.return_type()?;
        let body = self.block()?;
        Some(Expr::new(
            ExprKind::Function(Box::new(FunctionDef {
                name,
                params,
                return_type,
                body,
            })),
            self.span_from(start),
        ))
    }

    /// `node 'a', /b/, c.example.com inherits default { ... }`.
    fn node(&mut self) -> P<Expr> {
        let start = self.bump().start;
        let mut matches = vec![self.hostname()?];
        // One or more, separated by commas, with a trailing comma allowed.
        while self.eat(Tok::Comma).is_some() {
            if self.at(Tok::LBrace) || self.at(Tok::Keyword(Keyword::Inherits)) {
                break;
            }
            matches.push(self.hostname()?);
        }
        let parent = if self.eat(Tok::Keyword(Keyword::Inherits)).is_some() {
            Some(self.hostname()?)
        } else {
            None
        };
        let body = self.block()?;
        Some(Expr::new(
            ExprKind::Node(Box::new(NodeDef {
                matches,
                parent,
                body,
            })),
            self.span_from(start),
        ))
    }

    /// What a node definition matches: a string, a regex, `default`, or a bare dotted
    /// name (`web01`, `db.example.com`), which is a string of its text. (An address,
    /// `10.0.0.1`, is tree-sitter's: the lexer reads a number glued to a dot as an
    /// illegal number.)
    fn hostname(&mut self) -> P<Expr> {
        let hostname = match self.tok.kind {
            Tok::SingleQuoted | Tok::DoubleQuote | Tok::Regex => self.prefix()?,
            Tok::Keyword(Keyword::Default) => self.prefix()?,
            Tok::Name | Tok::Integer | Tok::Float => {
                let first = self.bump();
                // Segments joined by dots with nothing between them (anything else
                // is tree-sitter's to read).
                while self.at(Tok::Dot) && !self.tok.after_trivia {
                    self.bump();
                    if !matches!(self.tok.kind, Tok::Name | Tok::Integer | Tok::Float)
                        || self.tok.after_trivia
                    {
                        return None;
                    }
                    self.bump();
                }
                let span = self.span_from(first.start);
                Expr::new(
                    ExprKind::String(StringLiteral {
                        value: self.lexer.text(span.start, span.end).to_string(),
                        style: StringStyle::Bare,
                    }),
                    span,
                )
            }
            _ => return None,
        };
        // (`default.example.com`, a string glued to a dot: tree-sitter's.)
        if self.at(Tok::Dot) {
            return None;
        }
        Some(hostname)
    }

    /// `type Name = T` (mappings and object types are tree-sitter's).
    fn type_alias(&mut self) -> P<Expr> {
        let start = self.bump().start;
        let t = self.eat(Tok::TypeRef)?;
        let name = self.ident(t);
        self.eat(Tok::Assign)?;
        let type_expr = self.nested(|p| p.expression(0))?;
        Some(Expr::new(
            ExprKind::TypeAlias(Box::new(TypeAlias { name, type_expr })),
            self.span_from(start),
        ))
    }

    /// An optional `(...)` list of parameters (`Some(None)` when there is none).
    fn parameter_list(&mut self) -> P<Option<Vec<Parameter>>> {
        if !self.at(Tok::LParen) {
            return Some(None);
        }
        self.bump();
        let params = self.parameters(Tok::RParen)?;
        self.eat(Tok::RParen)?;
        Some(Some(params))
    }

    /// Parameters separated by commas (one may end them), up to `end`.
    fn parameters(&mut self, end: Tok) -> P<Vec<Parameter>> {
        let mut params = Vec::new();
        while !self.at(end) {
            params.push(self.parameter()?);
            if self.eat(Tok::Comma).is_none() {
                break;
            }
        }
        Some(params)
    }

    fn parameter(&mut self) -> P<Parameter> {
        let start = self.tok.start;
        let type_expr = if self.at(Tok::TypeRef) {
            Some(self.type_expression()?)
        } else {
            None
        };
        let captures_rest = self.eat(Tok::Star).is_some();
        let name = self.eat(Tok::Variable)?;
        let default = if self.eat(Tok::Assign).is_some() {
            Some(self.nested(|p| p.expression(0))?)
        } else {
            None
        };
        Some(Parameter {
            name: Ident {
                name: self.text(name).trim_start_matches('$').to_string(),
                span: Span::new(name.start, name.end),
            },
            type_expr,
            default,
            captures_rest,
            span: self.span_from(start),
        })
    }

    /// `T` or `T[...]` (a parameter's or a return type).
    fn type_expression(&mut self) -> P<Expr> {
        let t = self.eat(Tok::TypeRef)?;
        let object = Expr::new(
            ExprKind::TypeRef(self.text(t).to_string()),
            Span::new(t.start, t.end),
        );
        if self.at(Tok::LBracket) && !self.tok.after_trivia {
            return self.access(object);
        }
        Some(object)
    }

    /// `>> T`, if there.
    fn return_type(&mut self) -> P<Option<Expr>> {
        if self.eat(Tok::ShiftRight).is_none() {
            return Some(None);
        }
        Some(Some(self.type_expression()?))
    }

    // ---------------------------------------------------------------- expressions

    /// The grammar's `_expression`, with operators binding tighter than `min`.
    fn expression(&mut self, min: u8) -> P<Expr> {
        self.nested(|p| p.expression_inner(min))
    }

    fn expression_inner(&mut self, min: u8) -> P<Expr> {
        let mut left = self.prefix()?;
        // Each operator applied in this loop nests `left` one level deeper: the tree's
        // depth, not this function's recursion, is what later layers recurse over.
        let mut depth = self.depth;
        loop {
            depth += 1;
            if depth > MAX_DEPTH {
                return None;
            }
            let t = self.tok;
            let binary = match t.kind {
                Tok::Keyword(Keyword::Or) => Some((OR, BinaryOp::Or)),
                Tok::Keyword(Keyword::And) => Some((AND, BinaryOp::And)),
                Tok::Less => Some((COMPARISON, BinaryOp::Less)),
                Tok::Greater => Some((COMPARISON, BinaryOp::Greater)),
                Tok::LessEqual => Some((COMPARISON, BinaryOp::LessEqual)),
                Tok::GreaterEqual => Some((COMPARISON, BinaryOp::GreaterEqual)),
                Tok::Equal => Some((EQUALITY, BinaryOp::Equal)),
                Tok::NotEqual => Some((EQUALITY, BinaryOp::NotEqual)),
                Tok::ShiftLeft => Some((SHIFT, BinaryOp::ShiftLeft)),
                Tok::ShiftRight => Some((SHIFT, BinaryOp::ShiftRight)),
                Tok::Plus => Some((ADDITIVE, BinaryOp::Add)),
                Tok::Minus => Some((ADDITIVE, BinaryOp::Subtract)),
                Tok::Star => Some((MULTIPLICATIVE, BinaryOp::Multiply)),
                Tok::Slash => Some((MULTIPLICATIVE, BinaryOp::Divide)),
                Tok::Percent => Some((MULTIPLICATIVE, BinaryOp::Modulo)),
                Tok::Match => Some((MATCH, BinaryOp::Match)),
                Tok::NotMatch => Some((MATCH, BinaryOp::NotMatch)),
                Tok::Keyword(Keyword::In) => Some((IN, BinaryOp::In)),
                _ => None,
            };
            if let Some((prec, op)) = binary {
                if prec <= min {
                    return Some(left);
                }
                self.bump();
                let right = self.expression(prec)?;
                let span = left.span.cover(right.span);
                left = Expr::new(
                    ExprKind::Binary {
                        op,
                        op_span: Span::new(t.start, t.end),
                        left: Box::new(left),
                        right: Box::new(right),
                    },
                    span,
                );
                continue;
            }
            left = match t.kind {
                Tok::Question if SELECTOR > min => self.selector(left)?,
                Tok::CollectOpen | Tok::ExportOpen if COLLECTOR > min => self.collector(left)?,
                Tok::LBracket if !t.after_trivia => self.access(left)?,
                Tok::Dot => self.method_call(left)?,
                Tok::LParen if !t.after_line_break => self.call(left)?,
                _ => return Some(left),
            };
        }
    }

    fn prefix(&mut self) -> P<Expr> {
        let t = self.tok;
        let span = Span::new(t.start, t.end);
        let kind = match t.kind {
            Tok::Variable => {
                self.bump();
                ExprKind::Variable(self.text(t)[1..].to_string())
            }
            Tok::Name => {
                if self.text(t) == "apply" {
                    return None;
                }
                self.bump();
                ExprKind::Name(self.text(t).to_string())
            }
            Tok::StatementFunction => {
                self.bump();
                ExprKind::Name(self.text(t).to_string())
            }
            Tok::TypeRef => {
                self.bump();
                ExprKind::TypeRef(self.text(t).to_string())
            }
            Tok::Integer => {
                self.bump();
                ExprKind::Integer(integer(self.text(t))?)
            }
            Tok::Float => {
                self.bump();
                match self.text(t).parse::<f64>() {
                    Ok(v) if v.is_finite() => ExprKind::Float(v),
                    _ => return None,
                }
            }
            Tok::SingleQuoted => {
                self.bump();
                ExprKind::String(StringLiteral {
                    value: strings::single_quoted_value(self.text(t)),
                    style: StringStyle::SingleQuoted,
                })
            }
            Tok::DoubleQuote => return self.double_quoted(),
            Tok::Regex => {
                self.bump();
                let raw = self.text(t);
                let pattern = raw[1..raw.len() - 1].replace("\\/", "/");
                if strings::regex_structure_error(&pattern).is_some() {
                    return None;
                }
                ExprKind::Regex(pattern)
            }
            Tok::Keyword(k) => match k {
                Keyword::True => {
                    self.bump();
                    ExprKind::Boolean(true)
                }
                Keyword::False => {
                    self.bump();
                    ExprKind::Boolean(false)
                }
                Keyword::Undef => {
                    self.bump();
                    ExprKind::Undef
                }
                Keyword::Default => {
                    self.bump();
                    ExprKind::Default
                }
                Keyword::Attr | Keyword::Private => {
                    self.bump();
                    ExprKind::Reserved(self.text(t).to_string())
                }
                Keyword::If => return self.if_expression(),
                Keyword::Unless => return self.unless_expression(),
                Keyword::Case => return self.case_expression(),
                // `type(...)`: the keyword names the function.
                Keyword::Type if self.peek().kind == Tok::LParen => {
                    self.bump();
                    ExprKind::Name("type".to_string())
                }
                _ => return None,
            },
            Tok::LBracket => return self.array(),
            Tok::LBrace => return self.hash(),
            Tok::LParen => {
                self.bump();
                let inner = self.nested(|p| p.assignment_level())?;
                self.eat(Tok::RParen)?;
                ExprKind::Paren(Box::new(inner))
            }
            Tok::Bang | Tok::Minus | Tok::Star => {
                self.bump();
                let (op, prec) = match t.kind {
                    Tok::Bang => (UnaryOp::Not, NOT),
                    Tok::Minus => (UnaryOp::Negate, UNARY_MINUS),
                    _ => (UnaryOp::Splat, SPLAT),
                };
                let operand = self.expression(prec)?;
                ExprKind::Unary {
                    op,
                    operand: Box::new(operand),
                }
            }
            _ => return None,
        };
        Some(Expr::new(kind, self.span_from(span.start)))
    }

    /// An argument of a call or statement call, or an element of an array: an
    /// expression with assignments, or a `key => value` entry (which
    /// `merge_hash_entries` gathers into a hash).
    fn argument(&mut self) -> P<Argument> {
        let key = self.collection_operand()?;
        if self.eat(Tok::FatArrow).is_none() {
            return Some(Argument::Value(key));
        }
        let value = self.collection_operand()?;
        Some(Argument::Entry(HashEntry { key, value }))
    }

    /// An array element, hash key or hash value: an expression with assignments, or
    /// `type` or `function` standing for themselves.
    fn collection_operand(&mut self) -> P<Expr> {
        if let Tok::Keyword(Keyword::Type | Keyword::Function) = self.tok.kind {
            if self.peek().kind != Tok::LParen {
                let t = self.bump();
                return Some(Expr::new(
                    ExprKind::Name(self.text(t).to_string()),
                    Span::new(t.start, t.end),
                ));
            }
        }
        self.nested(|p| p.assignment_level())
    }

    /// Arguments up to `end`, separated by commas, one of which may end them.
    fn arguments_until(&mut self, end: Tok) -> P<Vec<Expr>> {
        let mut items = Vec::new();
        while !self.at(end) {
            items.push(self.argument()?);
            if self.eat(Tok::Comma).is_none() {
                break;
            }
        }
        self.eat(end)?;
        Some(merge_hash_entries(items))
    }

    fn array(&mut self) -> P<Expr> {
        let start = self.bump().start;
        let items = self.arguments_until(Tok::RBracket)?;
        Some(Expr::new(ExprKind::Array(items), self.span_from(start)))
    }

    fn hash(&mut self) -> P<Expr> {
        let start = self.bump().start;
        let mut entries = Vec::new();
        while !self.at(Tok::RBrace) {
            let key = self.collection_operand()?;
            self.eat(Tok::FatArrow)?;
            let value = self.collection_operand()?;
            entries.push(HashEntry { key, value });
            if self.eat(Tok::Comma).is_none() {
                break;
            }
        }
        self.eat(Tok::RBrace)?;
        Some(Expr::new(ExprKind::Hash(entries), self.span_from(start)))
    }

    /// `x[a, b]`: `[` right after its operand.
    fn access(&mut self, object: Expr) -> P<Expr> {
        self.bump();
        let mut items = Vec::new();
        loop {
            let key = self.nested(|p| p.relationship_level())?;
            if self.eat(Tok::FatArrow).is_some() {
                let value = self.collection_operand()?;
                items.push(Argument::Entry(HashEntry { key, value }));
            } else {
                items.push(Argument::Value(key));
            }
            if self.eat(Tok::Comma).is_none() || self.at(Tok::RBracket) {
                break;
            }
        }
        self.eat(Tok::RBracket)?;
        let span = self.span_from(object.span.start);
        Some(Expr::new(
            ExprKind::Access {
                object: Box::new(object),
                args: merge_hash_entries(items),
            },
            span,
        ))
    }

    fn call(&mut self, function: Expr) -> P<Expr> {
        self.bump();
        let args = self.arguments_until(Tok::RParen)?;
        let lambda = self.lambda()?;
        let span = self.span_from(function.span.start);
        Some(Expr::new(
            ExprKind::Call(Box::new(Call {
                function,
                args,
                lambda,
                style: CallStyle::Prefix,
            })),
            span,
        ))
    }

    /// `|params| >> T { body }`, if there.
    fn lambda(&mut self) -> P<Option<Lambda>> {
        if !self.at(Tok::Pipe) {
            return Some(None);
        }
        let start = self.bump().start;
        let params = self.parameters(Tok::Pipe)?;
        self.eat(Tok::Pipe)?;
        let return_type = self.return_type()?;
        let body = self.block()?;
        Some(Some(Lambda {
            params,
            return_type,
            body,
            span: self.span_from(start),
        }))
    }

    fn method_call(&mut self, receiver: Expr) -> P<Expr> {
        self.bump();
        let method = match self.tok.kind {
            Tok::Name | Tok::StatementFunction | Tok::Keyword(Keyword::Type) => {
                let t = self.bump();
                self.ident(t)
            }
            _ => return None,
        };
        let args = if self.at(Tok::LParen) && !self.tok.after_line_break {
            self.bump();
            Some(self.arguments_until(Tok::RParen)?)
        } else {
            None
        };
        let lambda = self.lambda()?;
        let span = self.span_from(receiver.span.start);
        Some(Expr::new(
            ExprKind::MethodCall(Box::new(MethodCall {
                receiver,
                method,
                args,
                lambda,
            })),
            span,
        ))
    }

    fn selector(&mut self, subject: Expr) -> P<Expr> {
        self.bump();
        let mut entries = Vec::new();
        if self.eat(Tok::LBrace).is_some() {
            while !self.at(Tok::RBrace) {
                entries.push(self.selector_entry()?);
                if self.eat(Tok::Comma).is_none() {
                    break;
                }
            }
            self.eat(Tok::RBrace)?;
        } else {
            entries.push(self.selector_entry()?);
        }
        let span = self.span_from(subject.span.start);
        Some(Expr::new(
            ExprKind::Selector {
                subject: Box::new(subject),
                entries,
            },
            span,
        ))
    }

    fn selector_entry(&mut self) -> P<SelectorEntry> {
        let matcher = self.expression(0)?;
        self.eat(Tok::FatArrow)?;
        let value = self.expression(0)?;
        Some(SelectorEntry { matcher, value })
    }

    fn collector(&mut self, type_expr: Expr) -> P<Expr> {
        let open = self.bump();
        let (kind, close) = match open.kind {
            Tok::CollectOpen => (CollectorKind::Virtual, Tok::CollectClose),
            _ => (CollectorKind::Exported, Tok::ExportClose),
        };
        let query = if self.at(close) {
            None
        } else {
            Some(self.expression(0)?)
        };
        self.eat(close)?;
        let span = self.span_from(type_expr.span.start);
        Some(Expr::new(
            ExprKind::Collector(Box::new(Collector {
                type_expr,
                kind,
                query,
                overrides: None,
            })),
            span,
        ))
    }

    fn if_expression(&mut self) -> P<Expr> {
        let start = self.bump().start;
        let condition = self.expression(0)?;
        let then_block = self.block()?;
        let else_branch = self.else_chain()?;
        Some(Expr::new(
            ExprKind::If(Box::new(IfExpr {
                condition,
                then_block,
                else_branch,
            })),
            self.span_from(start),
        ))
    }

    /// `elsif ... { }` (nested as an `if` in the else branch) and `else { }`.
    fn else_chain(&mut self) -> P<Option<ElseBranch>> {
        match self.tok.kind {
            Tok::Keyword(Keyword::Else) => {
                self.bump();
                Some(Some(ElseBranch::Else(self.block()?)))
            }
            Tok::Keyword(Keyword::Elsif) => {
                let start = self.bump().start;
                let condition = self.expression(0)?;
                let then_block = self.block()?;
                let else_branch = self.nested(|p| p.else_chain())?;
                Some(Some(ElseBranch::Elsif(Box::new(Expr::new(
                    ExprKind::If(Box::new(IfExpr {
                        condition,
                        then_block,
                        else_branch,
                    })),
                    self.span_from(start),
                )))))
            }
            _ => Some(None),
        }
    }

    fn unless_expression(&mut self) -> P<Expr> {
        let start = self.bump().start;
        let condition = self.expression(0)?;
        let then_block = self.block()?;
        let else_block = if self.eat(Tok::Keyword(Keyword::Else)).is_some() {
            Some(self.block()?)
        } else {
            None
        };
        Some(Expr::new(
            ExprKind::Unless(Box::new(UnlessExpr {
                condition,
                then_block,
                else_block,
            })),
            self.span_from(start),
        ))
    }

    fn case_expression(&mut self) -> P<Expr> {
        let start = self.bump().start;
        let subject = self.expression(0)?;
        self.eat(Tok::LBrace)?;
        let mut options = Vec::new();
        while !self.at(Tok::RBrace) {
            let option_start = self.tok.start;
            let mut matchers = vec![self.expression(0)?];
            while self.eat(Tok::Comma).is_some() {
                if self.at(Tok::Colon) {
                    break;
                }
                matchers.push(self.expression(0)?);
            }
            self.eat(Tok::Colon)?;
            let body = self.block()?;
            options.push(CaseOption {
                matchers,
                body,
                span: self.span_from(option_start),
            });
        }
        self.bump();
        Some(Expr::new(
            ExprKind::Case(Box::new(CaseExpr { subject, options })),
            self.span_from(start),
        ))
    }

    // ---------------------------------------------------------------- strings

    /// A double-quoted string, its opening quote the current token.
    fn double_quoted(&mut self) -> P<Expr> {
        let start = self.tok.start;
        let mut parts: Vec<StringPart> = Vec::new();
        loop {
            match self.lexer.string_part()? {
                LexPart::Text(from, to) => {
                    let raw = self.lexer.text(from, to);
                    let text = unescape_reporting(
                        raw,
                        Escapes::DOUBLE_QUOTED,
                        from,
                        &mut self.diagnostics,
                    );
                    push_text(&mut parts, text, Span::new(from, to));
                }
                LexPart::Variable(from, to) => {
                    let name = self.lexer.text(from + 1, to).to_string();
                    parts.push(StringPart::Interpolation(Expr::new(
                        ExprKind::Variable(name),
                        Span::new(from, to),
                    )));
                }
                LexPart::ExpressionStart => {
                    self.tok = self.lexer.next();
                    let expr = self.interpolated_expression()?;
                    if !self.at(Tok::RBrace) {
                        return None;
                    }
                    // The lexer stands right after the `}`: the string goes on there.
                    parts.push(StringPart::Interpolation(interpolated_variable(expr)));
                }
                LexPart::End(end) => {
                    self.last_end = end;
                    self.tok = self.lexer.next();
                    let kind = string_or_interpolated(parts, StringStyle::DoubleQuoted);
                    return Some(Expr::new(kind, Span::new(start, end)));
                }
            }
        }
    }

    /// What `${` holds: an expression with assignments, or a keyword read as a variable
    /// name (`${class}`), with accesses and method calls after it.
    fn interpolated_expression(&mut self) -> P<Expr> {
        match self.tok.kind {
            Tok::Keyword(
                Keyword::True
                | Keyword::False
                | Keyword::Undef
                | Keyword::Default
                | Keyword::Attr
                | Keyword::Private,
            ) => self.nested(|p| p.assignment_level()),
            Tok::Keyword(_) => {
                let t = self.bump();
                let mut expr = Expr::new(
                    ExprKind::Name(self.text(t).to_string()),
                    Span::new(t.start, t.end),
                );
                loop {
                    expr = match self.tok.kind {
                        Tok::LBracket if !self.tok.after_trivia => self.access(expr)?,
                        Tok::Dot => self.method_call(expr)?,
                        _ => return Some(expr),
                    };
                }
            }
            _ => self.nested(|p| p.assignment_level()),
        }
    }
}

/// An argument, before consecutive `key => value` entries become one hash.
enum Argument {
    Value(Expr),
    Entry(HashEntry),
}

/// Consecutive `key => value` arguments become one hash, as Puppet passes them.
fn merge_hash_entries(items: Vec<Argument>) -> Vec<Expr> {
    let mut out = Vec::with_capacity(items.len());
    let mut pending: Option<(Vec<HashEntry>, Span)> = None;
    for item in items {
        match item {
            Argument::Entry(entry) => {
                let span = entry.key.span.cover(entry.value.span);
                match &mut pending {
                    Some((entries, hash_span)) => {
                        entries.push(entry);
                        *hash_span = hash_span.cover(span);
                    }
                    None => pending = Some((vec![entry], span)),
                }
            }
            Argument::Value(value) => {
                if let Some((entries, span)) = pending.take() {
                    out.push(Expr::new(ExprKind::Hash(entries), span));
                }
                out.push(value);
            }
        }
    }
    if let Some((entries, span)) = pending {
        out.push(Expr::new(ExprKind::Hash(entries), span));
    }
    out
}

/// An integer as the lowering reads it (`None` for what it reports).
fn integer(text: &str) -> P<i64> {
    if let Some(hex) = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        return i64::from_str_radix(hex, 16).ok();
    }
    if text.len() > 1 && text.starts_with('0') {
        if !text.bytes().all(|b| (b'0'..=b'7').contains(&b)) {
            return None;
        }
        return i64::from_str_radix(&text[1..], 8).ok();
    }
    text.parse::<i64>().ok()
}

//! Lowering: the tree-sitter tree becomes the AST of `crate::ast`.
//!
//! It never panics: a missing child (the tree has errors) becomes an `Error` node, and
//! the syntax error itself is reported by `errors`. The desugarings Puppet's parser does
//! happen here, so no later layer has to know them:
//!   - `${x}`, `${x[1]}`, `${x.f}` and `${0}` in strings read variables;
//!   - `f(a => 1, b => 2)` passes one hash (Puppet's "unfolded hash");
//!   - `elsif` chains nest as `If` in the `else` branch;
//!   - `File { }` is a resource default, `File['x'] { }` an override.

use super::cst::{Cst, Scan};
use super::strings::{self, Escapes, UnknownEscape};
use crate::ast::*;
use crate::diagnostics::{rule_ids, Diagnostic};
use crate::source::Span;
use std::sync::OnceLock;
use tree_sitter::Node;

/// Field ids, looked up once: `child_by_field_name` would search the names every call.
struct Fields {
    alternative: u16,
    arguments: u16,
    body: u16,
    collector: u16,
    condition: u16,
    consequence: u16,
    default: u16,
    expression: u16,
    form: u16,
    function: u16,
    key: u16,
    kind: u16,
    lambda: u16,
    left: u16,
    method: u16,
    name: u16,
    object: u16,
    operand: u16,
    operator: u16,
    parameters: u16,
    parent: u16,
    query: u16,
    receiver: u16,
    return_type: u16,
    right: u16,
    splat: u16,
    subject: u16,
    title: u16,
    type_: u16,
    value: u16,
    variable: u16,
}

fn fields() -> &'static Fields {
    static FIELDS: OnceLock<Fields> = OnceLock::new();
    FIELDS.get_or_init(|| {
        let language: tree_sitter::Language = tree_sitter_puppet::LANGUAGE.into();
        let id = |name: &str| {
            language
                .field_id_for_name(name)
                .map(|f| f.get())
                .unwrap_or_else(|| panic!("the grammar has no field `{name}`"))
        };
        Fields {
            alternative: id("alternative"),
            arguments: id("arguments"),
            body: id("body"),
            collector: id("collector"),
            condition: id("condition"),
            consequence: id("consequence"),
            default: id("default"),
            expression: id("expression"),
            form: id("form"),
            function: id("function"),
            key: id("key"),
            kind: id("kind"),
            lambda: id("lambda"),
            left: id("left"),
            method: id("method"),
            name: id("name"),
            object: id("object"),
            operand: id("operand"),
            operator: id("operator"),
            parameters: id("parameters"),
            parent: id("parent"),
            query: id("query"),
            receiver: id("receiver"),
            return_type: id("return_type"),
            right: id("right"),
            splat: id("splat"),
            subject: id("subject"),
            title: id("title"),
            type_: id("type"),
            value: id("value"),
            variable: id("variable"),
        }
    })
}

pub fn lower(cst: &Cst, scan: &Scan) -> (Program, Vec<Diagnostic>) {
    let mut lowerer = Lowerer {
        cst,
        scan,
        f: fields(),
        diagnostics: Vec::new(),
        epp_parameters: None,
    };
    let root = cst.tree.root_node();
    let mut body = Vec::new();
    let mut cursor = root.walk();
    for child in root.named_children(&mut cursor) {
        if child.kind() == "epp_template" {
            let mut c = child.walk();
            for item in child.named_children(&mut c) {
                lowerer.statement_into(item, &mut body);
            }
            lowerer.check_template(child);
        } else {
            lowerer.statement_into(child, &mut body);
        }
    }
    let comments = scan
        .comments
        .iter()
        .map(|&node| Comment {
            span: cst.span(node),
            kind: match node.kind() {
                "epp_comment" => CommentKind::Epp,
                _ if cst.text(node).starts_with("/*") => CommentKind::Block,
                _ => CommentKind::Hash,
            },
        })
        .collect();
    let program = Program {
        body,
        comments,
        epp_parameters: lowerer.epp_parameters,
    };
    (program, lowerer.diagnostics)
}

struct Lowerer<'a, 't> {
    cst: &'a Cst<'a>,
    scan: &'a Scan<'t>,
    f: &'static Fields,
    diagnostics: Vec<Diagnostic>,
    epp_parameters: Option<Vec<Parameter>>,
}

impl<'a, 't> Lowerer<'a, 't> {
    fn span(&self, node: Node) -> Span {
        self.cst.span(node)
    }

    fn text(&self, node: Node) -> &'a str {
        self.cst.text(node)
    }

    fn error_expr(&self, span: Span) -> Expr {
        Expr::new(ExprKind::Error, span)
    }

    /// The expression in field `field`, or an `Error` at the parent's end when the tree
    /// lacks it (a syntax error was reported for that).
    fn field_expr(&mut self, node: Node<'t>, field: u16) -> Expr {
        match node.child_by_field_id(field) {
            Some(child) => self.expr(child),
            None => self.error_expr(Span::at(self.span(node).end)),
        }
    }

    fn boxed(&mut self, node: Node<'t>, field: u16) -> Box<Expr> {
        Box::new(self.field_expr(node, field))
    }

    fn ident(&self, node: Node) -> Ident {
        Ident {
            name: self.text(node).to_string(),
            span: self.span(node),
        }
    }

    fn field_ident(&self, node: Node, field: u16) -> Ident {
        match node.child_by_field_id(field) {
            Some(child) => self.ident(child),
            None => Ident {
                name: String::new(),
                span: Span::at(self.span(node).end),
            },
        }
    }

    // ---------------------------------------------------------------- EPP tags

    fn syntax_error(&mut self, span: Span, message: impl Into<String>) {
        self.diagnostics
            .push(Diagnostic::error(rule_ids::SYNTAX_ERROR, span, message));
    }

    /// `<%= expr` must be closed by `%>` right after the expression: the next item is
    /// then the text run that starts with it.
    fn check_render_is_closed(&mut self, node: Node<'t>) {
        let mut next = node.next_named_sibling();
        while let Some(n) = next.filter(|n| matches!(n.kind(), "comment" | "heredoc_body")) {
            next = n.next_named_sibling();
        }
        // A tag closed right before another (text trimmed to nothing) leaves no node:
        // the `%>` is then in the source between the expression and what follows.
        let closed_by_trimmed_text = |n: &Node<'t>| {
            let between = &self.cst.source[node.end_byte()..n.start_byte()];
            between.contains("%>")
        };
        if let Some(n) = next.filter(|n| n.kind() != "epp_text" && !closed_by_trimmed_text(n)) {
            let span = self.span(n);
            let token: String = self.text(n).chars().take_while(|c| *c != '\n').collect();
            self.syntax_error(span, format!("Syntax error at '{token}'"));
        }
    }

    /// Whole-template rules Puppet's EPP lexer enforces: the parameter tag comes before
    /// any text, every tag is closed (the template ends in text), comments are closed.
    fn check_template(&mut self, template: Node<'t>) {
        let mut cursor = template.walk();
        let items: Vec<Node<'t>> = template
            .named_children(&mut cursor)
            .filter(|n| !matches!(n.kind(), "comment" | "heredoc_body"))
            .collect();
        // Only comments, and text that trimming removes entirely, may come before the
        // parameter tag (`<%# c -%>` then `<%- |$x| %>` is fine; a blank line is not).
        if let Some(at) = items.iter().position(|n| n.kind() == "epp_parameters") {
            let leading = items[..at]
                .iter()
                .filter(|n| n.kind() == "epp_text")
                .any(|n| !strings::epp_text(self.text(*n)).is_empty());
            if leading {
                let at = self.span(items[at]);
                self.syntax_error(
                    Span::new(at.start, at.start + 1),
                    "Syntax error at '|': the parameter tag must come first in a template",
                );
            }
        }
        let end = self.cst.source.len() as u32 - self.cst.offset;
        // Text may end the template inside an expression (`<% $a = %>text`); a tag that
        // ends the input is followed by no text token at all.
        let source_end = self.cst.source.len();
        let unclosed = match items.last() {
            Some(last) => match ending_text(*last).filter(|t| t.end_byte() == source_end) {
                Some(text) => {
                    let raw = self.text(text);
                    (raw.ends_with("<%") && !raw.ends_with("<%%")) || raw.ends_with("<%-")
                }
                None => {
                    // (A comment ending the input is a child of the file, not of the
                    // template.)
                    let file = template.parent().unwrap_or(template);
                    let code_end = file
                        .named_children(&mut file.walk())
                        .map(|n| n.end_byte())
                        .max()
                        .unwrap_or(file.start_byte());
                    // Closed when the input ends in a tag's `%>` that no comment or
                    // string holds (text trimmed to nothing may stand before it).
                    code_end == source_end || !self.cst.source.ends_with("%>")
                }
            },
            None => false,
        };
        if unclosed {
            self.syntax_error(
                Span::at(end),
                "Unbalanced epp tag, reached <eof> without closing tag.",
            );
        }
        for &comment in &self.scan.comments {
            if comment.kind() != "epp_comment" {
                continue;
            }
            let rest = &self.cst.source[comment.end_byte()..];
            if !(rest.starts_with("%>") || rest.starts_with("-%>")) {
                let at = self.span(comment);
                self.syntax_error(
                    Span::new(at.start, at.start + 3),
                    "Reaching end after opening <%# without seeing %>",
                );
            }
        }
    }

    // ---------------------------------------------------------------- statements

    /// Lowers a statement-level node, appending to `out` (comments, `;` and heredoc
    /// bodies are not statements).
    fn statement_into(&mut self, node: Node<'t>, out: &mut Vec<Expr>) {
        match node.kind() {
            "comment" | "epp_comment" | "heredoc_body" | ";" => {}
            "epp_parameters" => {
                let params = self.parameters_of(node);
                self.epp_parameters = Some(params);
            }
            _ => out.push(self.expr(node)),
        }
    }

    fn block(&mut self, node: Option<Node<'t>>, parent: Node<'t>) -> Block {
        let Some(node) = node else {
            return Block {
                statements: Vec::new(),
                span: Span::at(self.span(parent).end),
            };
        };
        let mut statements = Vec::new();
        let mut cursor = node.walk();
        for child in node.named_children(&mut cursor) {
            self.statement_into(child, &mut statements);
        }
        Block {
            statements,
            span: self.span(node),
        }
    }

    fn field_block(&mut self, node: Node<'t>, field: u16) -> Block {
        let child = node.child_by_field_id(field);
        self.block(child, node)
    }

    // ---------------------------------------------------------------- expressions

    fn expr(&mut self, node: Node<'t>) -> Expr {
        // Lowering recurses once per nesting level; grow the stack on demand (as rustc
        // does) instead of trusting the caller's thread to be big enough.
        stacker::maybe_grow(64 * 1024, 1024 * 1024, || self.expr_inner(node))
    }

    fn expr_inner(&mut self, node: Node<'t>) -> Expr {
        let span = self.span(node);
        let f = self.f;
        let kind = match node.kind() {
            "integer" => self.integer(node),
            "float" if self.illegal_number_suffix(node) => ExprKind::Error,
            "float" => match self.text(node).parse::<f64>() {
                Ok(v) if v.is_finite() => ExprKind::Float(v),
                _ => {
                    self.diagnostics.push(Diagnostic::error(
                        rule_ids::SYNTAX_ERROR,
                        span,
                        format!("'{}' is not a valid number", self.text(node)),
                    ));
                    ExprKind::Error
                }
            },
            "string" => ExprKind::String(StringLiteral {
                value: strings::single_quoted_value(self.text(node)),
                style: StringStyle::SingleQuoted,
            }),
            "interpolated_string" => self.interpolated_string(node),
            "heredoc" => self.heredoc(node),
            "regex" => {
                let raw = self.text(node);
                let inner = raw.get(1..raw.len().saturating_sub(1)).unwrap_or("");
                let pattern = inner.replace("\\/", "/");
                if let Some(problem) = strings::regex_structure_error(&pattern) {
                    // Puppet's lexer compiles the literal and fails with Ruby's message.
                    let message = format!("{problem}: /{pattern}/");
                    self.syntax_error(self.span(node), message);
                }
                ExprKind::Regex(pattern)
            }
            "true" => ExprKind::Boolean(true),
            "false" => ExprKind::Boolean(false),
            "undef" => ExprKind::Undef,
            "default" => ExprKind::Default,
            "reserved_word" => ExprKind::Reserved(self.text(node).to_string()),
            "variable" => ExprKind::Variable(self.text(node).trim_start_matches('$').to_string()),
            "name" => ExprKind::Name(self.text(node).to_string()),
            "dotted_name" => ExprKind::String(StringLiteral {
                value: self.text(node).to_string(),
                style: StringStyle::Bare,
            }),
            "type_ref" => ExprKind::TypeRef(self.text(node).to_string()),
            "array" => ExprKind::Array(self.arguments(node)),
            "hash" => ExprKind::Hash(self.hash_entries(node)),
            "parenthesized_expression" => match node.named_child(0) {
                Some(inner) => ExprKind::Paren(Box::new(self.expr(inner))),
                None => ExprKind::Error,
            },
            "binary_expression" => self.binary(node),
            "unary_expression" => {
                // `$x = -%>text`: Puppet's `-%>` ends the tag; the parser took its dash
                // for a minus.
                if let Some(text) = self.trim_tag_split(node) {
                    let raw = format!("-{}", self.text(text));
                    return Expr::new(ExprKind::EppText(strings::epp_text(&raw)), span);
                }
                let op = match node.child_by_field_id(f.operator).map(|n| n.kind()) {
                    Some("!") => UnaryOp::Not,
                    Some("-") => UnaryOp::Negate,
                    _ => UnaryOp::Splat,
                };
                ExprKind::Unary {
                    op,
                    operand: self.boxed(node, f.operand),
                }
            }
            "assignment" => {
                let op = match node.child_by_field_id(f.operator).map(|n| n.kind()) {
                    Some("+=") => AssignOp::AppendAssign,
                    Some("-=") => AssignOp::DeleteAssign,
                    _ => AssignOp::Assign,
                };
                ExprKind::Assignment {
                    op,
                    left: self.boxed(node, f.left),
                    right: self.boxed(node, f.right),
                }
            }
            "relationship" => {
                let op = match node.child_by_field_id(f.operator).map(|n| n.kind()) {
                    Some("~>") => RelationOp::Notify,
                    Some("<-") => RelationOp::Require,
                    Some("<~") => RelationOp::Subscribe,
                    _ => RelationOp::Before,
                };
                ExprKind::Relationship {
                    op,
                    left: self.boxed(node, f.left),
                    right: self.boxed(node, f.right),
                }
            }
            "selector" => {
                let subject = self.boxed(node, f.subject);
                let mut entries = Vec::new();
                let mut cursor = node.walk();
                for child in node.named_children(&mut cursor) {
                    if child.kind() == "selector_entry" {
                        entries.push(SelectorEntry {
                            matcher: self.field_expr(child, f.key_or_match()),
                            value: self.field_expr(child, f.value),
                        });
                    }
                }
                ExprKind::Selector { subject, entries }
            }
            "access_expression" | "interpolated_keyword_access" => ExprKind::Access {
                object: self.boxed(node, f.object),
                args: match node.child_by_field_id(f.arguments) {
                    Some(args) => self.arguments(args),
                    None => Vec::new(),
                },
            },
            "call_expression" => {
                let function = self.field_expr(node, f.function);
                let args = match node.child_by_field_id(f.arguments) {
                    Some(args) => self.arguments(args),
                    None => Vec::new(),
                };
                let lambda = self.lambda_field(node);
                ExprKind::Call(Box::new(Call {
                    function,
                    args,
                    lambda,
                    style: CallStyle::Prefix,
                }))
            }
            // A Bolt plan's `apply(targets) { ... }`: a call of `apply` whose block is a
            // lambda without parameters, so the catalog code in it is checked as code.
            "apply_expression" => {
                let args = match node.child_by_field_id(f.arguments) {
                    Some(args) => self.arguments(args),
                    None => Vec::new(),
                };
                let body = self.field_block(node, f.body);
                let lambda = Some(Lambda {
                    params: Vec::new(),
                    return_type: None,
                    span: body.span,
                    body,
                });
                let keyword = node
                    .child(0)
                    .map_or(Span::at(self.span(node).start), |k| self.span(k));
                ExprKind::Call(Box::new(Call {
                    function: Expr::new(ExprKind::Name("apply".into()), keyword),
                    args,
                    lambda,
                    style: CallStyle::Prefix,
                }))
            }
            "statement_call" => {
                let function = self.field_expr(node, f.function);
                let args = match node.child_by_field_id(f.arguments) {
                    Some(args) => self.arguments(args),
                    None => Vec::new(),
                };
                ExprKind::Call(Box::new(Call {
                    function,
                    args,
                    lambda: None,
                    style: CallStyle::Statement,
                }))
            }
            "method_call" | "interpolated_keyword_method" => {
                let receiver = self.field_expr(node, f.receiver);
                let method = self.field_ident(node, f.method);
                let args = node
                    .child_by_field_id(f.arguments)
                    .map(|args| self.arguments(args));
                let lambda = self.lambda_field(node);
                ExprKind::MethodCall(Box::new(MethodCall {
                    receiver,
                    method,
                    args,
                    lambda,
                }))
            }
            "if_expression" | "elsif_clause" => self.if_expr(node),
            "unless_expression" => ExprKind::Unless(Box::new(UnlessExpr {
                condition: self.field_expr(node, f.condition),
                then_block: self.field_block(node, f.consequence),
                else_block: node
                    .child_by_field_id(f.alternative)
                    .map(|e| self.field_block(e, f.body)),
            })),
            "case_expression" => self.case_expr(node),
            "collector" => ExprKind::Collector(Box::new(self.collector(node, None))),
            "resource_collection_override" => {
                let attributes = self.attribute_list(node);
                match node.child_by_field_id(f.collector) {
                    Some(c) => ExprKind::Collector(Box::new(self.collector(c, Some(attributes)))),
                    None => ExprKind::Error,
                }
            }
            "resource_declaration" => self.resource(node),
            "class_definition" => ExprKind::Class(Box::new(ClassDef {
                name: self.field_ident(node, f.name),
                params: self.parameter_list(node),
                parent: node.child_by_field_id(f.parent).map(|p| self.ident(p)),
                body: self.field_block(node, f.body),
            })),
            "define_definition" => ExprKind::Define(Box::new(DefineDef {
                name: self.field_ident(node, f.name),
                params: self.parameter_list(node),
                body: self.field_block(node, f.body),
            })),
            "function_definition" => ExprKind::Function(Box::new(FunctionDef {
                name: self.field_ident(node, f.name),
                params: self.parameter_list(node),
                return_type: self.return_type(node),
                body: self.field_block(node, f.body),
            })),
            "plan_definition" => ExprKind::Plan(Box::new(PlanDef {
                name: self.field_ident(node, f.name),
                params: self.parameter_list(node),
                body: self.field_block(node, f.body),
            })),
            "node_definition" => {
                let mut matches = Vec::new();
                let mut cursor = node.walk();
                for child in node.children_by_field_id(nonzero(f.key_or_match()), &mut cursor) {
                    matches.push(self.expr(child));
                }
                let parent = node.child_by_field_id(f.parent).map(|p| self.expr(p));
                ExprKind::Node(Box::new(NodeDef {
                    matches,
                    parent,
                    body: self.field_block(node, f.body),
                }))
            }
            "type_alias" => ExprKind::TypeAlias(Box::new(TypeAlias {
                name: self.field_ident(node, f.name),
                type_expr: self.field_expr(node, f.type_),
            })),
            "type_mapping" => ExprKind::TypeMapping(Box::new(TypeMapping {
                type_expr: self.field_expr(node, f.name),
                mapping: self.field_expr(node, f.type_),
            })),
            "type_definition" => ExprKind::TypeDefinition(Box::new(TypeDefinition {
                name: self.field_ident(node, f.name),
                parent: node.child_by_field_id(f.parent).map(|p| self.ident(p)),
                body: self.field_block(node, f.body),
            })),
            "epp_text" => ExprKind::EppText(strings::epp_text(self.text(node))),
            "epp_render_expression" => {
                self.check_render_is_closed(node);
                ExprKind::EppRender(self.boxed(node, f.expression))
            }
            _ => ExprKind::Error,
        };
        Expr::new(kind, span)
    }

    /// Puppet's lexer reads a number and the letters glued to it as one illegal number
    /// (`30s`, `0x`, `1.2.3`); tree-sitter sees a number and a name.
    fn illegal_number_suffix(&mut self, node: Node) -> bool {
        let bytes = self.cst.source.as_bytes();
        let mut end = node.end_byte();
        if !bytes
            .get(end)
            .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_')
        {
            return false;
        }
        while bytes
            .get(end)
            .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_' || *b == b'.')
        {
            end += 1;
        }
        let start = node.start_byte();
        let word = &self.cst.source[start..end];
        let message = if word.starts_with("0x") || word.starts_with("0X") {
            format!("Not a valid hex number {word}")
        } else {
            format!("Illegal number '{word}'")
        };
        let span = self.span(node);
        self.diagnostics.push(Diagnostic::error(
            rule_ids::SYNTAX_ERROR,
            Span::new(span.start, span.start + word.len() as u32),
            message,
        ));
        true
    }

    fn integer(&mut self, node: Node) -> ExprKind {
        if self.illegal_number_suffix(node) {
            return ExprKind::Error;
        }
        let text = self.text(node);
        let parsed = if let Some(hex) = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X"))
        {
            i64::from_str_radix(hex, 16)
        } else if text.len() > 1 && text.starts_with('0') {
            if !text.bytes().all(|b| (b'0'..=b'7').contains(&b)) {
                self.diagnostics.push(Diagnostic::error(
                    rule_ids::SYNTAX_ERROR,
                    self.span(node),
                    format!("'{text}' is not a valid octal number"),
                ));
                return ExprKind::Error;
            }
            i64::from_str_radix(&text[1..], 8)
        } else {
            text.parse::<i64>()
        };
        match parsed {
            Ok(v) => ExprKind::Integer(v),
            Err(_) => {
                self.diagnostics.push(Diagnostic::error(
                    rule_ids::NUMERIC_OVERFLOW,
                    self.span(node),
                    format!("The integer {text} is out of range (a 64-bit signed integer)"),
                ));
                ExprKind::Error
            }
        }
    }

    /// The template text after `-%>` when the parser read the tag's dash as a unary
    /// minus (Puppet's lexer never splits `-%>` in a template; after a binary minus it
    /// is a syntax error, see `Scan::text_after_split_trim_tag`).
    fn trim_tag_split(&self, node: Node<'t>) -> Option<Node<'t>> {
        let f = self.f;
        let op = node
            .child_by_field_id(f.operator)
            .filter(|o| o.kind() == "-")?;
        let operand = node.child_by_field_id(f.operand)?;
        (operand.kind() == "epp_text"
            && operand.start_byte() == op.end_byte()
            && self.cst.source[op.end_byte()..].starts_with("%>"))
        .then_some(operand)
    }

    fn binary(&mut self, node: Node<'t>) -> ExprKind {
        let f = self.f;
        let op_node = node.child_by_field_id(f.operator);
        let op = op_node
            .and_then(|n| BinaryOp::from_symbol(n.kind()))
            .unwrap_or(BinaryOp::Add);
        let op_span = op_node
            .map(|n| self.span(n))
            .unwrap_or_else(|| self.span(node));
        ExprKind::Binary {
            op,
            op_span,
            left: self.boxed(node, f.left),
            right: self.boxed(node, f.right),
        }
    }

    /// Arguments of a call, an access, an array or a statement call. Consecutive
    /// `key => value` entries become one hash, as Puppet does.
    fn arguments(&mut self, node: Node<'t>) -> Vec<Expr> {
        let mut out: Vec<Expr> = Vec::new();
        let mut pending: Option<(Vec<HashEntry>, Span)> = None;
        let mut cursor = node.walk();
        for child in node.named_children(&mut cursor) {
            match child.kind() {
                "comment" | "heredoc_body" => continue,
                "hash_entry" => {
                    let span = self.span(child);
                    let entry = self.hash_entry(child);
                    match &mut pending {
                        Some((entries, hash_span)) => {
                            entries.push(entry);
                            *hash_span = hash_span.cover(span);
                        }
                        None => pending = Some((vec![entry], span)),
                    }
                }
                _ => {
                    if let Some((entries, span)) = pending.take() {
                        out.push(Expr::new(ExprKind::Hash(entries), span));
                    }
                    out.push(self.expr(child));
                }
            }
        }
        if let Some((entries, span)) = pending.take() {
            out.push(Expr::new(ExprKind::Hash(entries), span));
        }
        out
    }

    fn hash_entries(&mut self, node: Node<'t>) -> Vec<HashEntry> {
        let mut entries = Vec::new();
        let mut cursor = node.walk();
        for child in node.named_children(&mut cursor) {
            if child.kind() == "hash_entry" {
                entries.push(self.hash_entry(child));
            }
        }
        entries
    }

    fn hash_entry(&mut self, node: Node<'t>) -> HashEntry {
        HashEntry {
            key: self.field_expr(node, self.f.key),
            value: self.field_expr(node, self.f.value),
        }
    }

    fn lambda_field(&mut self, node: Node<'t>) -> Option<Lambda> {
        let lambda = node.child_by_field_id(self.f.lambda)?;
        Some(Lambda {
            params: self.parameters_of(lambda),
            return_type: self.return_type(lambda),
            body: self.field_block(lambda, self.f.body),
            span: self.span(lambda),
        })
    }

    fn return_type(&mut self, node: Node<'t>) -> Option<Expr> {
        let r = node.child_by_field_id(self.f.return_type)?;
        Some(self.field_expr(r, self.f.type_))
    }

    fn parameter_list(&mut self, node: Node<'t>) -> Option<Vec<Parameter>> {
        let list = node.child_by_field_id(self.f.parameters)?;
        Some(self.parameters_of(list))
    }

    /// The `parameter` children of a parameter list, lambda or EPP parameter tag.
    fn parameters_of(&mut self, node: Node<'t>) -> Vec<Parameter> {
        let f = self.f;
        let mut params = Vec::new();
        let mut cursor = node.walk();
        for child in node.named_children(&mut cursor) {
            if child.kind() != "parameter" {
                continue;
            }
            let name = self.field_ident(child, f.name);
            params.push(Parameter {
                name: Ident {
                    name: name.name.trim_start_matches('$').to_string(),
                    span: name.span,
                },
                type_expr: child.child_by_field_id(f.type_).map(|t| self.expr(t)),
                default: child.child_by_field_id(f.default).map(|d| self.expr(d)),
                captures_rest: child.child_by_field_id(f.splat).is_some(),
                span: self.span(child),
            });
        }
        params
    }

    fn if_expr(&mut self, node: Node<'t>) -> ExprKind {
        let f = self.f;
        let condition = self.field_expr(node, f.condition);
        let then_block = self.field_block(node, f.consequence);
        // Alternatives in order: elsif clauses, then an else clause. Each elsif nests the
        // rest of the chain in its own else branch.
        let mut cursor = node.walk();
        let alternatives: Vec<Node<'t>> = node
            .children_by_field_id(nonzero(f.alternative), &mut cursor)
            .collect();
        let else_branch = self.else_chain(&alternatives);
        ExprKind::If(Box::new(IfExpr {
            condition,
            then_block,
            else_branch,
        }))
    }

    fn else_chain(&mut self, alternatives: &[Node<'t>]) -> Option<ElseBranch> {
        let (first, rest) = alternatives.split_first()?;
        let f = self.f;
        if first.kind() == "else_clause" {
            return Some(ElseBranch::Else(self.field_block(*first, f.body)));
        }
        let condition = self.field_expr(*first, f.condition);
        let then_block = self.field_block(*first, f.consequence);
        let else_branch = self.else_chain(rest);
        let end = rest
            .last()
            .map(|n| self.span(*n).end)
            .unwrap_or(self.span(*first).end);
        let span = Span::new(self.span(*first).start, end);
        Some(ElseBranch::Elsif(Box::new(Expr::new(
            ExprKind::If(Box::new(IfExpr {
                condition,
                then_block,
                else_branch,
            })),
            span,
        ))))
    }

    fn case_expr(&mut self, node: Node<'t>) -> ExprKind {
        let f = self.f;
        let subject = self.field_expr(node, f.subject);
        let mut options = Vec::new();
        let mut cursor = node.walk();
        for child in node.named_children(&mut cursor) {
            if child.kind() != "case_option" {
                continue;
            }
            let mut c = child.walk();
            let matchers: Vec<Expr> = child
                .children_by_field_id(nonzero(f.key_or_match()), &mut c)
                .collect::<Vec<_>>()
                .into_iter()
                .map(|m| self.expr(m))
                .collect();
            options.push(CaseOption {
                matchers,
                body: self.field_block(child, f.body),
                span: self.span(child),
            });
        }
        ExprKind::Case(Box::new(CaseExpr { subject, options }))
    }

    fn collector(&mut self, node: Node<'t>, overrides: Option<Vec<Attribute>>) -> Collector {
        let f = self.f;
        let kind = match node.child_by_field_id(f.kind).map(|k| k.kind()) {
            Some("<<|") => CollectorKind::Exported,
            _ => CollectorKind::Virtual,
        };
        Collector {
            type_expr: self.field_expr(node, f.type_),
            kind,
            query: node.child_by_field_id(f.query).map(|q| self.expr(q)),
            overrides,
        }
    }

    fn resource(&mut self, node: Node<'t>) -> ExprKind {
        let f = self.f;
        let form = match node.child_by_field_id(f.form).map(|n| n.kind()) {
            Some("@") => ResourceForm::Virtual,
            Some("@@") => ResourceForm::Exported,
            _ => ResourceForm::Regular,
        };
        let type_expr = self.field_expr(node, f.type_);
        let mut bodies = Vec::new();
        let mut cursor = node.walk();
        for child in node.named_children(&mut cursor) {
            if child.kind() == "resource_body" {
                bodies.push(ResourceBody {
                    title: self.field_expr(child, f.title),
                    attributes: self.attribute_list(child),
                    span: self.span(child),
                });
            }
        }
        if !bodies.is_empty() {
            return ExprKind::Resource(Box::new(ResourceExpr {
                form,
                type_expr,
                bodies,
            }));
        }
        // No title: defaults (`File { }`, `Resource[file] { }`) or an override
        // (`File['x'] { }`), by the shape of the type expression as Puppet decides.
        let attributes = self.attribute_list(node);
        if let Some(kind) = defaults_or_override(form, &type_expr, &attributes) {
            return kind;
        }
        match &type_expr.kind {
            // A resource whose body did not parse: the syntax error says why.
            _ if node.has_error() => ExprKind::Error,
            ExprKind::Name(_) => {
                self.diagnostics.push(Diagnostic::error(
                    rule_ids::SYNTAX_ERROR,
                    self.span(node),
                    "Syntax error: resource body without title",
                ));
                ExprKind::Error
            }
            ExprKind::Error => ExprKind::Error,
            _ => {
                self.diagnostics.push(Diagnostic::error(
                    rule_ids::SYNTAX_ERROR,
                    type_expr.span,
                    "Expression is not valid as a resource, resource-default, or resource-override",
                ));
                ExprKind::Error
            }
        }
    }

    /// The attributes of the `attribute_list` child of `node`.
    fn attribute_list(&mut self, node: Node<'t>) -> Vec<Attribute> {
        let f = self.f;
        let mut attributes = Vec::new();
        let mut cursor = node.walk();
        let Some(list) = node
            .named_children(&mut cursor)
            .find(|c| c.kind() == "attribute_list")
        else {
            return attributes;
        };
        let mut c = list.walk();
        for attribute in list.named_children(&mut c) {
            if attribute.kind() != "attribute" {
                continue;
            }
            // An arrow without its name (`=> 'b'`): the syntax error is reported; no rule
            // should judge an attribute called ''.
            let named = attribute
                .child_by_field_id(f.name)
                .is_some_and(|n| !n.is_missing() && n.end_byte() > n.start_byte());
            if !named {
                continue;
            }
            let op = match attribute.child_by_field_id(f.operator).map(|n| n.kind()) {
                Some("+>") => AttributeOp::Append,
                _ => AttributeOp::Set,
            };
            attributes.push(Attribute {
                name: self.field_ident(attribute, f.name),
                op,
                value: self.field_expr(attribute, f.value),
                span: self.span(attribute),
            });
        }
        attributes
    }

    // ---------------------------------------------------------------- strings

    fn interpolated_string(&mut self, node: Node<'t>) -> ExprKind {
        let mut parts = Vec::new();
        let mut cursor = node.walk();
        for child in node.named_children(&mut cursor) {
            match child.kind() {
                "string_content" | "escape_sequence" => {
                    let raw = self.text(child);
                    let span = self.span(child);
                    let text = self.unescape_reporting(raw, Escapes::DOUBLE_QUOTED, span.start);
                    push_text(&mut parts, text, span);
                }
                "interpolation" => {
                    if let Some(e) = self.interpolation(child) {
                        parts.push(StringPart::Interpolation(e));
                    }
                }
                _ => {}
            }
        }
        string_or_interpolated(parts, StringStyle::DoubleQuoted)
    }

    fn unescape_reporting(&mut self, raw: &str, escapes: Escapes, base: u32) -> String {
        unescape_reporting(raw, escapes, base, &mut self.diagnostics)
    }

    fn interpolation(&mut self, node: Node<'t>) -> Option<Expr> {
        let f = self.f;
        if let Some(var) = node.child_by_field_id(f.variable) {
            return Some(self.expr(var));
        }
        let inner = node.child_by_field_id(f.expression)?;
        let expr = self.expr(inner);
        Some(interpolated_variable(expr))
    }

    fn heredoc(&mut self, node: Node<'t>) -> ExprKind {
        let Some(header) = node.named_child(0) else {
            return ExprKind::Error;
        };
        let header_text = self.text(header).to_string();
        let spec = HeredocHeader::parse(&header_text);
        let body = self
            .scan
            .heredoc_headers
            .binary_search(&header.start_byte())
            .ok()
            .and_then(|i| self.scan.heredoc_bodies.get(i).copied());
        let Some(body) = body else {
            return ExprKind::Error;
        };
        if let Some(flags) = &spec.escapes {
            if let Some(bad) = flags.chars().find(|c| !"trnsuL$".contains(*c)) {
                self.diagnostics.push(Diagnostic::error(
                    rule_ids::SYNTAX_ERROR,
                    self.span(header),
                    format!("Invalid heredoc escape char. Only t, r, n, s, u, L, $ allowed. Got '{bad}'"),
                ));
            } else if let Some(dup) = flags.chars().find(|c| flags.matches(*c).count() > 1) {
                self.diagnostics.push(Diagnostic::error(
                    rule_ids::SYNTAX_ERROR,
                    self.span(header),
                    format!(
                        "An escape char for @() may only appear once. Got '{dup}' more than once"
                    ),
                ));
            }
        }
        let escapes = spec.escapes.as_deref().map(Escapes::heredoc);
        let mut end = strings::HeredocEnd::default();
        let mut cursor = body.walk();
        let children: Vec<Node<'t>> = body.named_children(&mut cursor).collect();
        if let Some(last) = children.iter().find(|c| c.kind() == "heredoc_end") {
            end = strings::heredoc_end(self.text(*last), &spec.tag);
        }
        let margin = end.margin.clone().unwrap_or_default();
        let mut parts = Vec::new();
        for child in &children {
            match child.kind() {
                "heredoc_content" => {
                    let span = self.span(*child);
                    let raw = self.text(*child);
                    let at_line_start = child.start_byte() == 0
                        || self.cst.source.as_bytes().get(child.start_byte() - 1) == Some(&b'\n');
                    let stripped = strings::strip_margin(raw, &margin, at_line_start);
                    // Puppet keeps an escape a heredoc's list does not enable, and
                    // does not warn about it (as it does in double-quoted strings).
                    let text = match escapes {
                        Some(e) => strings::unescape(&stripped, e, &mut Vec::new()),
                        None => stripped,
                    };
                    push_text(&mut parts, text, span);
                }
                "interpolation" => {
                    if let Some(e) = self.interpolation(*child) {
                        parts.push(StringPart::Interpolation(e));
                    }
                }
                _ => {}
            }
        }
        if end.trim_last_break {
            if let Some(StringPart::Text(text, _)) = parts.last_mut() {
                strings::trim_last_break(text);
            }
        }
        let body_span = self.span(body);
        ExprKind::Heredoc(Box::new(Heredoc {
            tag: spec.tag,
            syntax: spec.syntax,
            interpolated: spec.interpolated,
            escapes: spec.escapes,
            parts,
            body_span,
        }))
    }
}

impl Fields {
    /// Case options, selector entries and node definitions name their matchers `match`.
    fn key_or_match(&self) -> u16 {
        static MATCH: OnceLock<u16> = OnceLock::new();
        *MATCH.get_or_init(|| {
            let language: tree_sitter::Language = tree_sitter_puppet::LANGUAGE.into();
            language
                .field_id_for_name("match")
                .map(|f| f.get())
                .expect("the grammar has a `match` field")
        })
    }
}

fn nonzero(field: u16) -> std::num::NonZeroU16 {
    std::num::NonZeroU16::new(field).expect("field ids start at 1")
}

/// A resource expression without a title, by the shape of its type expression as Puppet
/// decides: defaults (`File { }`, `Resource[file] { }`) or an override (`File['x'] { }`);
/// `None` for any other shape (a syntax error).
pub(super) fn defaults_or_override(
    form: ResourceForm,
    type_expr: &Expr,
    attributes: &[Attribute],
) -> Option<ExprKind> {
    let defaults = || {
        ExprKind::ResourceDefaults(Box::new(ResourceDefaults {
            form,
            type_ref: type_expr.clone(),
            attributes: attributes.to_vec(),
        }))
    };
    match &type_expr.kind {
        ExprKind::TypeRef(_) => Some(defaults()),
        ExprKind::Access { object, args }
            if matches!(&object.kind, ExprKind::TypeRef(t) if t.eq_ignore_ascii_case("resource"))
                && args.len() == 1 =>
        {
            Some(defaults())
        }
        ExprKind::Access { .. } => Some(ExprKind::ResourceOverride(Box::new(ResourceOverride {
            form,
            target: type_expr.clone(),
            attributes: attributes.to_vec(),
        }))),
        _ => None,
    }
}

/// Applies escapes to text that starts at `base`; unknown ones are kept and reported as
/// Puppet warns about them.
pub(super) fn unescape_reporting(
    raw: &str,
    escapes: Escapes,
    base: u32,
    diagnostics: &mut Vec<Diagnostic>,
) -> String {
    let mut unknown: Vec<UnknownEscape> = Vec::new();
    let text = strings::unescape(raw, escapes, &mut unknown);
    for u in unknown {
        let start = base + u.offset as u32;
        diagnostics.push(Diagnostic::warning(
            rule_ids::UNRECOGNIZED_ESCAPE,
            Span::new(start, start + u.sequence.len() as u32),
            format!("Unrecognized escape sequence '{}'", u.sequence),
        ));
    }
    text
}

pub(super) fn push_text(parts: &mut Vec<StringPart>, text: String, span: Span) {
    if let Some(StringPart::Text(prev, prev_span)) = parts.last_mut() {
        prev.push_str(&text);
        *prev_span = prev_span.cover(span);
    } else {
        parts.push(StringPart::Text(text, span));
    }
}

pub(super) fn string_or_interpolated(parts: Vec<StringPart>, style: StringStyle) -> ExprKind {
    if parts.iter().all(|p| matches!(p, StringPart::Text(..))) {
        let value = parts
            .into_iter()
            .map(|p| match p {
                StringPart::Text(t, _) => t,
                StringPart::Interpolation(_) => unreachable!("all parts are text"),
            })
            .collect::<String>();
        ExprKind::String(StringLiteral { value, style })
    } else {
        ExprKind::Interpolated(parts)
    }
}

/// `${x}` reads `$x`; so do `${x[1]}` and `${x.f}` (the leftmost name), and `${0}`
/// reads `$0` (spec "Expressions", String Interpolation).
pub(super) fn interpolated_variable(expr: Expr) -> Expr {
    let Expr { kind, span } = expr;
    let kind = match kind {
        ExprKind::Name(name) | ExprKind::Reserved(name) => ExprKind::Variable(name),
        ExprKind::Integer(n) if n >= 0 => ExprKind::Variable(n.to_string()),
        ExprKind::Access { object, args } => ExprKind::Access {
            object: Box::new(interpolated_variable(*object)),
            args,
        },
        ExprKind::MethodCall(mut call) => {
            let receiver = std::mem::replace(&mut call.receiver, Expr::new(ExprKind::Error, span));
            call.receiver = interpolated_variable(receiver);
            ExprKind::MethodCall(call)
        }
        other => other,
    };
    Expr { kind, span }
}

/// The parts of a heredoc header `@("TAG":syntax/escapes)`.
struct HeredocHeader {
    tag: String,
    syntax: Option<String>,
    interpolated: bool,
    escapes: Option<String>,
}

impl HeredocHeader {
    fn parse(header: &str) -> HeredocHeader {
        let inner = header
            .strip_prefix("@(")
            .and_then(|s| s.strip_suffix(')'))
            .unwrap_or(header);
        let (rest, escapes) = match inner.find('/') {
            Some(i) => (&inner[..i], Some(inner[i + 1..].trim().to_string())),
            None => (inner, None),
        };
        let (tag, syntax) = match rest.find(':') {
            Some(i) => (&rest[..i], Some(rest[i + 1..].trim().to_string())),
            None => (rest, None),
        };
        let tag = tag.trim();
        let (tag, interpolated) = match tag.strip_prefix('"').and_then(|t| t.strip_suffix('"')) {
            Some(t) => (t.trim(), true),
            None => (tag, false),
        };
        HeredocHeader {
            tag: tag.to_string(),
            syntax,
            interpolated,
            escapes,
        }
    }
}

/// The template text that ends `node` (its last token), if it ends in text.
fn ending_text(node: Node<'_>) -> Option<Node<'_>> {
    let mut node = node;
    loop {
        if node.kind() == "epp_text" {
            return Some(node);
        }
        node = node.child(node.child_count().checked_sub(1)?)?;
    }
}

//! A skimmer of Ruby type files: the shapes `Puppet::Type.newtype` files are written in,
//! read without tree-sitter's whole parse (which costs a one-thread check of the corpus
//! a fifth of its time), giving up ([`Unsure`]) on anything else.
//!
//! Where it answers, it answers as tree-sitter's tree does (the same node kinds, through
//! [`RubySyntax`]): the statements of the bodies it reads (the file, modules, classes,
//! methods and blocks), the calls and their literal arguments. Everything else (an
//! `if`, an expression, an argument that is not a literal) is skipped as a run of
//! tokens, in which any call of a method the reader asks about must be one the skimmer
//! is sure of (`x.send(:y)`, `load(f)`), or the skimmer gives up.
//!
//! Architecture Invariant: the skimmer never decides what tree-sitter would decide
//! otherwise on a file tree-sitter reads without error: where it answers, the classic
//! reader makes of its answers what it makes of tree-sitter's (the same type, or the
//! same unknown); where it cannot be sure, it says so and `resource_type::read_type` asks
//! tree-sitter. `tests/ruby_skim.rs` compares them on every type file of the corpus and
//! on damaged copies of them.

mod lex;

use super::syntax::RubySyntax;
use lex::{Tok, Token};

/// How deeply bodies may nest (blocks in blocks...) before the skimmer gives up; it
/// reads them recursively, and a hostile file may nest without end.
const MAX_DEPTH: usize = 100;

/// The skimmer does not know how Ruby reads this file.
#[derive(Debug)]
pub struct Unsure;

type Skimmed<T> = Result<T, Unsure>;

type Span = (u32, u32);

/// A node of the skimmed tree, with only what the readers ask.
#[derive(Default, Debug)]
struct SkimNode {
    kind: &'static str,
    span: Span,
    parent: Option<u32>,
    /// A call's method, or a bare identifier standing as a statement.
    method: Option<Span>,
    /// Whether the call is given arguments (in parentheses, or not).
    has_arguments: bool,
    receiver: Option<Span>,
    args: Vec<u32>,
    block: Option<Vec<u32>>,
    /// The name a `def`, `class` or `module` gives.
    name: Option<Span>,
    /// What an assignment assigns to.
    assigned: Option<&'static str>,
    /// A pair's key.
    key: Option<u32>,
    literal: Option<Span>,
}

pub struct SkimTree<'t> {
    text: &'t str,
    nodes: Vec<SkimNode>,
    calls: Vec<(u32, Span)>,
}

impl<'t> SkimTree<'t> {
    /// The file skimmed; `None` when the skimmer is not sure how Ruby reads it. Calls of
    /// methods `asked` names are all found, wherever they stand.
    pub fn parse(text: &'t str, asked: &dyn Fn(&str) -> bool) -> Option<Self> {
        let tokens = lex::tokens(text, asked).ok()?;
        let mut parser = Parser {
            text,
            tokens: &tokens,
            partners: partners(&tokens).ok()?,
            depth: 0,
            nodes: Vec::new(),
            calls: Vec::new(),
            asked,
        };
        let (_, end) = parser.body(0, None).ok()?;
        if end != tokens.len() {
            return None;
        }
        Some(SkimTree {
            text,
            nodes: parser.nodes,
            calls: parser.calls,
        })
    }

    fn text_of(&self, span: Span) -> &str {
        &self.text[span.0 as usize..span.1 as usize]
    }

    fn node(&self, node: u32) -> &SkimNode {
        &self.nodes[node as usize]
    }
}

impl RubySyntax for SkimTree<'_> {
    type Node<'a>
        = u32
    where
        Self: 'a;

    fn calls(&self) -> Vec<(u32, &str)> {
        self.calls
            .iter()
            .map(|&(node, method)| (node, self.text_of(method)))
            .collect()
    }
    fn kind(&self, node: u32) -> &'static str {
        self.node(node).kind
    }
    fn source(&self, node: u32) -> &str {
        self.text_of(self.node(node).span)
    }
    fn method_name(&self, node: u32) -> Option<&str> {
        self.node(node).method.map(|m| self.text_of(m))
    }
    fn receiver(&self, call: u32) -> Option<&str> {
        self.node(call).receiver.map(|r| self.text_of(r))
    }
    fn literal_name(&self, node: u32) -> Option<&str> {
        self.node(node).literal.map(|l| self.text_of(l))
    }
    fn pair_key(&self, pair: u32) -> Option<&str> {
        self.node(pair).key.and_then(|key| self.literal_name(key))
    }
    fn arguments(&self, call: u32) -> Vec<u32> {
        self.node(call).args.clone()
    }
    fn block_statements(&self, call: u32) -> Option<Vec<u32>> {
        self.node(call).block.clone()
    }
    fn defined_name(&self, node: u32) -> Option<&str> {
        self.node(node).name.map(|n| self.text_of(n))
    }
    fn assigned_kind(&self, assignment: u32) -> Option<&'static str> {
        self.node(assignment).assigned
    }
    fn inside_module(&self, node: u32, name: &str) -> bool {
        std::iter::successors(self.node(node).parent, |p| self.node(*p).parent)
            .any(|n| self.node(n).kind == "module" && self.defined_name(n) == Some(name))
    }
}

struct Parser<'t, 'k> {
    text: &'t str,
    tokens: &'k [Token],
    /// For each opener (a bracket, or a keyword that needs its `end`), the index of
    /// the token closing it.
    partners: Vec<u32>,
    /// How many bodies the one being read stands in.
    depth: usize,
    nodes: Vec<SkimNode>,
    calls: Vec<(u32, Span)>,
    asked: &'k dyn Fn(&str) -> bool,
}

/// The last link of a chain of calls (`a.b(c).d`): a method, or a value.
enum Link {
    Method(u32),
    Value,
}

impl Parser<'_, '_> {
    fn tok(&self, i: usize) -> Option<Tok> {
        self.tokens.get(i).map(|t| t.tok)
    }

    fn span(&self, from: usize, to: usize) -> Span {
        (self.tokens[from].start, self.tokens[to - 1].end)
    }

    fn text(&self, i: usize) -> &str {
        let t = &self.tokens[i];
        &self.text[t.start as usize..t.end as usize]
    }

    fn add(&mut self, node: SkimNode) -> u32 {
        self.nodes.push(node);
        (self.nodes.len() - 1) as u32
    }

    /// The statements from `i` to the token that closes their body (`end`, `}`, or the
    /// end of the file), with that token's index.
    fn body(&mut self, i: usize, parent: Option<u32>) -> Skimmed<(Vec<u32>, usize)> {
        if self.depth >= MAX_DEPTH {
            return Err(Unsure);
        }
        self.depth += 1;
        let read = self.statements(i, parent);
        self.depth -= 1;
        read
    }

    fn statements(&mut self, mut i: usize, parent: Option<u32>) -> Skimmed<(Vec<u32>, usize)> {
        let mut statements = Vec::new();
        loop {
            match self.tok(i) {
                None => return Ok((statements, i)),
                Some(Tok::Newline | Tok::Punct(";")) => i += 1,
                Some(Tok::Keyword("end") | Tok::Punct(")" | "]" | "}")) => {
                    return Ok((statements, i))
                }
                // `rescue`, `else` and `ensure` of a method or a block: up to the body's
                // end, code the readers skip (tree-sitter's clauses hold no statement
                // of a body).
                Some(Tok::Keyword(word @ ("rescue" | "ensure" | "else"))) => {
                    let mut close = i;
                    while !matches!(
                        self.tok(close),
                        None | Some(Tok::Keyword("end") | Tok::Punct(")" | "]" | "}"))
                    ) {
                        close = self.past(close)?;
                    }
                    if self.tok(close) != Some(Tok::Keyword("end")) {
                        return Err(Unsure);
                    }
                    self.scan(i, close)?;
                    statements.push(self.add(SkimNode {
                        kind: word,
                        span: self.span(i, close),
                        parent,
                        ..SkimNode::default()
                    }));
                    return Ok((statements, close));
                }
                // A clause of an `if` or a `case`, which the skimmer reads as a whole.
                Some(Tok::Keyword("elsif" | "when" | "in" | "then")) => return Err(Unsure),
                Some(_) => {
                    let (statement, next) = self.statement(i, parent)?;
                    statements.push(statement);
                    i = next;
                }
            }
        }
    }

    /// The index of the token that closes the opener at `i`.
    fn matching(&self, i: usize) -> Skimmed<usize> {
        match self.partners[i] {
            0 => Err(Unsure),
            close => Ok(close as usize),
        }
    }

    /// The index after the token at `i`, or after the group it opens (a bracket, or a
    /// keyword and everything up to its `end`).
    fn past(&self, i: usize) -> Skimmed<usize> {
        if self.opens(i) {
            Ok(self.matching(i)? + 1)
        } else {
            Ok(i + 1)
        }
    }

    fn opens(&self, i: usize) -> bool {
        let token = &self.tokens[i];
        token.opens || matches!(token.tok, Tok::Punct("(" | "[" | "{"))
    }

    /// The index of the token that ends the statement at `i`: a line break or `;` not
    /// inside brackets or a block, or the token closing the body it stands in.
    fn statement_end(&self, i: usize) -> Skimmed<usize> {
        let mut j = i;
        while let Some(token) = self.tokens.get(j) {
            match token.tok {
                Tok::Newline | Tok::Punct(";" | ")" | "]" | "}") | Tok::Keyword("end") => {
                    return Ok(j)
                }
                Tok::Keyword("rescue" | "ensure" | "else" | "elsif" | "when" | "in" | "then")
                    if !token.modifier =>
                {
                    return Ok(j)
                }
                _ => j = self.past(j)?,
            }
        }
        Ok(j)
    }

    /// Whether a token outside brackets and blocks between `from` and `to` is one
    /// `test` accepts.
    fn at_top(&self, from: usize, to: usize, test: impl Fn(&Token) -> bool) -> Skimmed<bool> {
        let mut j = from;
        while j < to {
            if test(&self.tokens[j]) {
                return Ok(true);
            }
            j = self.past(j)?;
        }
        Ok(false)
    }

    fn statement(&mut self, i: usize, parent: Option<u32>) -> Skimmed<(u32, usize)> {
        let end = self.statement_end(i)?;
        if end == i {
            return Err(Unsure);
        }
        // `x = y rescue z` assigns `y rescue z` in tree-sitter's tree, and `x rescue y`
        // is no call: not read.
        if self.at_top(i, end, |t| t.modifier && t.tok == Tok::Keyword("rescue"))? {
            return Err(Unsure);
        }
        // `x if y`, `a and b`: not a call, whatever stands before.
        let compound = self.at_top(i, end, |t| {
            t.modifier || matches!(t.tok, Tok::Keyword("and" | "or" | "not"))
        })?;
        let node = match (self.tokens[i].tok, self.tok(i + 1)) {
            _ if compound => None,
            (Tok::Keyword("def"), _) => Some(self.method(i, end, parent)?),
            (Tok::Keyword("class" | "module"), _) => Some(self.namespace(i, end, parent)?),
            (Tok::Punct("->") | Tok::Label, _) => return Err(Unsure),
            (Tok::Var(_) | Tok::Const | Tok::Ident, Some(Tok::Punct("="))) => {
                let assigned = match self.tokens[i].tok {
                    Tok::Var(kind) => kind,
                    Tok::Const => "constant",
                    _ => "identifier",
                };
                self.scan(i + 2, end)?;
                Some(self.add(SkimNode {
                    kind: "assignment",
                    span: self.span(i, end),
                    parent,
                    assigned: Some(assigned),
                    ..SkimNode::default()
                }))
            }
            (Tok::Str, _) | (Tok::Heredoc, _) if end == i + 1 => Some(self.add(SkimNode {
                kind: if self.tokens[i].tok == Tok::Str {
                    "string"
                } else {
                    "heredoc_beginning"
                },
                span: self.span(i, end),
                parent,
                ..SkimNode::default()
            })),
            _ => self.chain(i, end, parent)?,
        };
        let node = match node {
            Some(node) => node,
            None => {
                self.scan(i, end)?;
                self.add(SkimNode {
                    kind: "expression",
                    span: self.span(i, end),
                    parent,
                    ..SkimNode::default()
                })
            }
        };
        Ok((node, end))
    }

    /// The tokens of a `def`'s name and parameters from the `def` at `i`: the index
    /// after them, where the name starts and ends, and whether it is a singleton's
    /// (`def self.x`). An endless method (`def x = 1`) is not read.
    fn definition_header(&self, i: usize) -> Skimmed<Header> {
        let mut k = i + 1;
        let singleton = self.tok(k + 1) == Some(Tok::Punct("."));
        if singleton {
            k += 2;
        }
        let name = k;
        match self.tok(k) {
            Some(Tok::Ident | Tok::Const | Tok::Keyword(_)) => k += 1,
            Some(Tok::Punct("[")) if self.tok(k + 1) == Some(Tok::Punct("]")) => k += 2,
            Some(Tok::Punct(_)) => k += 1,
            _ => return Err(Unsure),
        }
        // A setter, `def value=(v)`.
        if self.tok(k) == Some(Tok::Punct("="))
            && !self.tokens[k].space_before
            && self.tok(k + 1) == Some(Tok::Punct("("))
        {
            k += 1;
        }
        let name_end = k;
        match self.tok(k) {
            Some(Tok::Punct("(")) => k = self.matching(k)? + 1,
            Some(Tok::Newline | Tok::Punct(";")) | None => {}
            Some(Tok::Punct("=")) => return Err(Unsure),
            _ => {
                while !matches!(self.tok(k), Some(Tok::Newline | Tok::Punct(";")) | None) {
                    k = self.past(k)?;
                }
            }
        }
        if self.tok(k) == Some(Tok::Punct("=")) {
            return Err(Unsure);
        }
        Ok(Header {
            end: k,
            name: (name, name_end),
            singleton,
        })
    }

    /// `def name(params) ... end`.
    fn method(&mut self, i: usize, end: usize, parent: Option<u32>) -> Skimmed<u32> {
        let header = self.definition_header(i)?;
        self.scan(header.name.1, header.end)?;
        let node = self.add(SkimNode {
            kind: if header.singleton {
                "singleton_method"
            } else {
                "method"
            },
            span: self.span(i, end),
            parent,
            name: Some(self.span(header.name.0, header.name.1)),
            ..SkimNode::default()
        });
        self.closed_body(header.end, end, "end", node)?;
        Ok(node)
    }

    /// The statements of a body from `from`, which must be closed by `close` just
    /// before `end` (the statement's end); they are the node's.
    fn closed_body(
        &mut self,
        from: usize,
        end: usize,
        close: &str,
        node: u32,
    ) -> Skimmed<Vec<u32>> {
        let (statements, closer) = self.body(from, Some(node))?;
        let closes = match self.tokens.get(closer).map(|t| t.tok) {
            Some(Tok::Keyword(word) | Tok::Punct(word)) => word == close,
            _ => false,
        };
        if !closes || closer + 1 != end {
            return Err(Unsure);
        }
        Ok(statements)
    }

    /// `class Name < Parent ... end`, `class << self ... end`, `module Name ... end`.
    fn namespace(&mut self, i: usize, end: usize, parent: Option<u32>) -> Skimmed<u32> {
        let module = self.tok(i) == Some(Tok::Keyword("module"));
        let mut k = i + 1;
        let singleton = !module && self.tok(k) == Some(Tok::Punct("<<"));
        let name_start = k;
        if singleton {
            k += 1;
        } else {
            if self.tok(k) == Some(Tok::Punct("::")) {
                k += 1;
            }
            while self.tok(k) == Some(Tok::Const) {
                k += 1;
                if self.tok(k) == Some(Tok::Punct("::")) && self.tok(k + 1) == Some(Tok::Const) {
                    k += 1;
                } else {
                    break;
                }
            }
            if k == name_start {
                return Err(Unsure);
            }
        }
        let name_end = k;
        let header_end = self.line_end(k)?;
        if module && header_end != name_end {
            return Err(Unsure);
        }
        self.scan(name_end, header_end)?;
        let node = self.add(SkimNode {
            kind: match (module, singleton) {
                (true, _) => "module",
                (false, true) => "singleton_class",
                (false, false) => "class",
            },
            span: self.span(i, end),
            parent,
            name: (!singleton).then(|| self.span(name_start, name_end)),
            ..SkimNode::default()
        });
        self.closed_body(header_end, end, "end", node)?;
        Ok(node)
    }

    /// The index of the line break or `;` ending the line at `i`, past brackets.
    fn line_end(&self, mut k: usize) -> Skimmed<usize> {
        loop {
            match self.tok(k) {
                Some(Tok::Newline | Tok::Punct(";")) => return Ok(k),
                None => return Err(Unsure),
                _ => k = self.past(k)?,
            }
        }
    }

    /// A statement that is a chain of calls (`Puppet::Type.newtype(:x) do ... end`,
    /// `newparam :x, namevar: true`, `ensurable`); `None` when it is something else
    /// (an operation, an index, a value), nothing of it kept.
    fn chain(&mut self, i: usize, end: usize, parent: Option<u32>) -> Skimmed<Option<u32>> {
        let (nodes, calls) = (self.nodes.len(), self.calls.len());
        let found = self.chain_links(i, end, parent)?;
        if found.is_none() {
            self.nodes.truncate(nodes);
            self.calls.truncate(calls);
        }
        Ok(found)
    }

    fn chain_links(&mut self, i: usize, end: usize, parent: Option<u32>) -> Skimmed<Option<u32>> {
        let mut j = i;
        // A name followed by `.x` or `[x]` is a variable or a call without arguments;
        // tree-sitter's tree has it as an identifier, not a call.
        let demote_head = |parser: &mut Self, call: Option<u32>| {
            if let Some(call) =
                call.filter(|c| parser.nodes[*c as usize].span.0 == parser.tokens[i].start)
            {
                if matches!(parser.tokens[i].tok, Tok::Ident | Tok::Keyword("super")) {
                    parser.calls.retain(|(node, _)| *node != call);
                    parser.nodes[call as usize].method = None;
                }
            }
        };
        let mut last = match self.tokens[i].tok {
            // `super(x)` and `super x` are calls of `super`; `super` alone is not.
            Tok::Ident | Tok::Keyword("super") => {
                j += 1;
                Link::Method(self.call(i, i, None, parent))
            }
            Tok::Const | Tok::Punct("::") => {
                if self.tokens[i].tok == Tok::Punct("::") {
                    j += 1;
                }
                while self.tok(j) == Some(Tok::Const) {
                    j += 1;
                    if self.tok(j) != Some(Tok::Punct("::")) {
                        break;
                    }
                    j += 1;
                }
                match self.tok(j) {
                    Some(Tok::Punct("::")) | Some(Tok::Ident) => return Err(Unsure),
                    // `Integer(x)`: a method named like a constant.
                    Some(Tok::Punct("(")) if !self.tokens[j].space_before => {
                        if j != i + 1 {
                            return Err(Unsure);
                        }
                        Link::Method(self.call(i, i, None, parent))
                    }
                    _ => Link::Value,
                }
            }
            Tok::Var(_)
            | Tok::Keyword("self" | "nil" | "true" | "false" | "__FILE__" | "yield")
            | Tok::Str
            | Tok::Symbol
            | Tok::DSymbol
            | Tok::Number
            | Tok::Regex
            | Tok::Heredoc
            | Tok::Words
            | Tok::Command => {
                j += 1;
                Link::Value
            }
            _ if self.opens(i) => {
                j = self.matching(i)? + 1;
                self.scan(i, j)?;
                Link::Value
            }
            // `defined?(x)`: an operation on its operand, no call.
            Tok::Keyword("defined?") if self.tok(i + 1) == Some(Tok::Punct("(")) => {
                j = self.matching(i + 1)? + 1;
                self.scan(i, j)?;
                Link::Value
            }
            // `return x`, `!x`, `-x`, `alias a b`: no call.
            Tok::Keyword("return" | "break" | "next" | "redo" | "retry" | "alias" | "undef")
            | Tok::Punct("!" | "-" | "+" | "~" | "*" | "**") => return Ok(None),
            _ => return Err(Unsure),
        };
        while j < end {
            let token = self.tokens[j];
            let method = match last {
                Link::Method(call) => Some(call),
                Link::Value => None,
            };
            let bare = method.filter(|call| {
                let call = &self.nodes[*call as usize];
                !call.has_arguments && call.block.is_none()
            });
            match token.tok {
                Tok::Punct("." | "&.") => {
                    demote_head(self, bare);
                    let name = j + 1;
                    if !matches!(self.tok(name), Some(Tok::Ident | Tok::Const)) {
                        return Err(Unsure);
                    }
                    let receiver = self.span(i, j);
                    last = Link::Method(self.call(i, name, Some(receiver), parent));
                    j = name + 1;
                }
                Tok::Punct("(") if !token.space_before && bare.is_some() => {
                    let call = bare.expect("checked");
                    let close = self.matching(j)?;
                    let args = self.arguments(j + 1, close)?;
                    let node = &mut self.nodes[call as usize];
                    node.args = args;
                    node.has_arguments = true;
                    j = close + 1;
                }
                Tok::Punct("[") if !token.space_before => {
                    demote_head(self, bare);
                    let close = self.matching(j)?;
                    self.scan(j, close + 1)?;
                    last = Link::Value;
                    j = close + 1;
                }
                Tok::Keyword("do") | Tok::Punct("{")
                    if token.opens || token.tok == Tok::Punct("{") =>
                {
                    let Some(call) = method.filter(|c| self.nodes[*c as usize].block.is_none())
                    else {
                        return Err(Unsure);
                    };
                    j = self.block(j, call)?;
                }
                _ if bare.is_some() && gives_argument(self.tokens, j) => {
                    let call = bare.expect("checked");
                    // Arguments without parentheses, up to a `do` that is the call's.
                    let mut k = j;
                    while k < end
                        && !(self.tok(k) == Some(Tok::Keyword("do")) && self.tokens[k].opens)
                    {
                        if self.tok(k) == Some(Tok::Punct("{")) {
                            // A hash, or the block of a call in the arguments
                            // (`foo a, b.map { }`); after anything else, whose block
                            // it is depends on more than the skimmer keeps.
                            let before = self.tok(k - 1);
                            let argument_start = k == j || before == Some(Tok::Punct(","));
                            let inner_block = k >= j + 2
                                && matches!(before, Some(Tok::Ident | Tok::Punct(")")))
                                && self.tokens[k - 2].tok != Tok::Punct(",");
                            if !argument_start && !inner_block {
                                return Err(Unsure);
                            }
                        }
                        k = self.past(k)?;
                    }
                    let args = self.arguments(j, k)?;
                    self.nodes[call as usize].args = args;
                    self.nodes[call as usize].has_arguments = true;
                    j = k;
                    if j < end {
                        j = self.block(j, call)?;
                    }
                    if j != end {
                        return Err(Unsure);
                    }
                }
                // `x + 1`, `x.y = 1`, `x ? a : b`, `a, b = c`: an operation, no call.
                Tok::Punct(p) if OPERATORS.contains(&p) => return Ok(None),
                _ => return Err(Unsure),
            }
        }
        let Link::Method(call) = last else {
            return Ok(None);
        };
        let node = &mut self.nodes[call as usize];
        node.span = (self.tokens[i].start, self.tokens[end - 1].end);
        // A name alone is an identifier standing as a statement.
        if i + 1 == end && self.tokens[i].tok == Tok::Ident {
            node.kind = "identifier";
        }
        if i + 1 == end && self.tokens[i].tok == Tok::Keyword("super") {
            node.kind = "super";
            demote_head(self, Some(call));
        }
        Ok(Some(call))
    }

    /// A call of the method named at `name`, listed among the file's calls.
    fn call(
        &mut self,
        from: usize,
        name: usize,
        receiver: Option<Span>,
        parent: Option<u32>,
    ) -> u32 {
        let method = self.span(name, name + 1);
        let node = self.add(SkimNode {
            kind: "call",
            span: self.span(from, name + 1),
            parent,
            method: Some(method),
            receiver,
            ..SkimNode::default()
        });
        self.calls.push((node, method));
        node
    }

    /// The block at `i` (`do |x| ... end`, `{ |x| ... }`) given to `call`: the index
    /// after it.
    fn block(&mut self, i: usize, call: u32) -> Skimmed<usize> {
        let close = self.matching(i)?;
        let mut k = i + 1;
        match self.tok(k) {
            Some(Tok::Punct("||")) => k += 1,
            Some(Tok::Punct("|")) => {
                let start = k;
                k += 1;
                while self.tok(k) != Some(Tok::Punct("|")) {
                    if k >= close {
                        return Err(Unsure);
                    }
                    k = self.past(k)?;
                }
                k += 1;
                self.scan(start, k)?;
            }
            _ => {}
        }
        let word = if self.tok(i) == Some(Tok::Punct("{")) {
            "}"
        } else {
            "end"
        };
        let statements = self.closed_body(k, close + 1, word, call)?;
        self.nodes[call as usize].block = Some(statements);
        Ok(close + 1)
    }

    /// The arguments between `from` and `to`, split at commas outside brackets.
    fn arguments(&mut self, from: usize, to: usize) -> Skimmed<Vec<u32>> {
        let mut args = Vec::new();
        if from == to {
            return Ok(args);
        }
        let (mut start, mut j) = (from, from);
        loop {
            if j == to || self.tok(j) == Some(Tok::Punct(",")) {
                if start == j {
                    // `f(a, )`: a trailing comma; an empty argument elsewhere is not Ruby.
                    if j == to && !args.is_empty() {
                        return Ok(args);
                    }
                    return Err(Unsure);
                }
                if self.at_top(start, j, |t| t.tok == Tok::Newline)? {
                    return Err(Unsure);
                }
                args.push(self.argument(start, j)?);
                if j == to {
                    return Ok(args);
                }
                start = j + 1;
                j += 1;
                continue;
            }
            j = self.past(j)?;
            if j > to {
                return Err(Unsure);
            }
        }
    }

    fn argument(&mut self, from: usize, to: usize) -> Skimmed<u32> {
        let span = self.span(from, to);
        // `key => value`, `key: value`.
        let mut arrow = None;
        let mut j = from;
        while j < to {
            if self.tok(j) == Some(Tok::Punct("=>")) {
                arrow = Some(j);
                break;
            }
            j = self.past(j)?;
        }
        let key_end = match (self.tokens[from].tok, arrow) {
            (Tok::Label, _) => Some(from),
            (_, arrow) => arrow,
        };
        if let Some(key_end) = key_end {
            let value = key_end + 1;
            if key_end == from && self.tokens[from].tok != Tok::Label {
                return Err(Unsure);
            }
            if value >= to {
                return Err(Unsure);
            }
            self.scan(value, to)?;
            let key = if self.tokens[from].tok == Tok::Label {
                self.add(SkimNode {
                    kind: "hash_key_symbol",
                    span: self.span(from, from + 1),
                    literal: self.tokens[from].literal,
                    ..SkimNode::default()
                })
            } else {
                self.value(from, key_end)?
            };
            return Ok(self.add(SkimNode {
                kind: "pair",
                span,
                key: Some(key),
                ..SkimNode::default()
            }));
        }
        self.value(from, to)
    }

    /// An argument or a key that is not a pair: a literal the readers may ask the name
    /// of, or an expression they only ask the kind of.
    fn value(&mut self, from: usize, to: usize) -> Skimmed<u32> {
        self.scan(from, to)?;
        let token = self.tokens[from];
        let kind = if to == from + 1 {
            match token.tok {
                Tok::Symbol => "simple_symbol",
                Tok::DSymbol => "delimited_symbol",
                Tok::Str => "string",
                Tok::Heredoc => "heredoc_beginning",
                Tok::Regex => "regex",
                Tok::Number => "number",
                Tok::Const => "constant",
                Tok::Var(kind) => kind,
                Tok::Ident => "identifier",
                Tok::Words => "array_of_words",
                Tok::Command => "subshell",
                Tok::Keyword(word @ ("nil" | "true" | "false" | "self")) => word,
                _ => "expression",
            }
        } else if self.scope_resolution(from, to) {
            "scope_resolution"
        } else {
            "expression"
        };
        let literal = match kind {
            "simple_symbol" | "delimited_symbol" | "string" => token.literal,
            _ => None,
        };
        Ok(self.add(SkimNode {
            kind,
            span: self.span(from, to),
            literal,
            ..SkimNode::default()
        }))
    }

    /// `A::B::C`, `::A::B`.
    fn scope_resolution(&self, from: usize, to: usize) -> bool {
        let mut k = from;
        if self.tok(k) == Some(Tok::Punct("::")) {
            k += 1;
        }
        let mut parts = 0;
        while k < to && self.tok(k) == Some(Tok::Const) {
            parts += 1;
            k += 1;
            if k < to && self.tok(k) == Some(Tok::Punct("::")) {
                k += 1;
            } else {
                break;
            }
        }
        k == to && (parts > 1 || self.tok(from) == Some(Tok::Punct("::")))
    }

    /// Tokens the skimmer does not read as statements: every call of an asked method
    /// among them must be one it is sure of, `x.method`, `x.method(...)` or
    /// `method(...)`, and is listed with its arguments.
    fn scan(&mut self, from: usize, to: usize) -> Skimmed<()> {
        let mut j = from;
        while j < to {
            let token = self.tokens[j];
            if token.tok != Tok::Ident || !(self.asked)(self.text(j)) {
                j += 1;
                continue;
            }
            let before = j.checked_sub(1).and_then(|b| self.tok(b));
            if matches!(
                before,
                Some(Tok::Keyword("def" | "alias" | "undef") | Tok::Punct("::"))
            ) {
                return Err(Unsure);
            }
            let dotted = matches!(before, Some(Tok::Punct("." | "&.")));
            let next = self.tokens.get(j + 1);
            if next.is_some_and(|n| n.tok == Tok::Punct("(") && !n.space_before) {
                let call = self.call(j, j, None, None);
                let close = self.matching(j + 1)?;
                let args = self.arguments(j + 2, close)?;
                self.nodes[call as usize].args = args;
                j = close + 1;
                continue;
            }
            if gives_argument(self.tokens, j + 1) {
                // Arguments without parentheses.
                return Err(Unsure);
            }
            // Inside brackets tree-sitter reads on past a line break (`[a,\n name\n :b]`
            // gives `name` an argument).
            let past_break =
                (j + 1..self.tokens.len()).find(|k| self.tokens[*k].tok != Tok::Newline);
            let broken = next.is_some_and(|n| n.tok == Tok::Newline)
                && past_break.is_some_and(|k| {
                    gives_argument(self.tokens, k)
                        || matches!(
                            self.tokens[k].tok,
                            Tok::Punct("(" | "{") | Tok::Keyword("do")
                        )
                });
            if broken {
                return Err(Unsure);
            }
            if dotted {
                self.call(j, j, None, None);
            } else if written_as_call(self.tokens, j)
                || stands_alone(before.map(|_| &self.tokens[j - 1]), next)
            {
                // A statement of a body is a call (`ensurable`), of an `if` is not: the
                // skimmer does not tell them apart here.
                return Err(Unsure);
            }
            j += 1;
        }
        Ok(())
    }
}

/// Where a `def`'s header ends, its name's tokens, and whether it defines a
/// singleton's method.
struct Header {
    end: usize,
    name: (usize, usize),
    singleton: bool,
}

/// For each opener among `tokens` (a bracket, or a keyword that needs its `end`), the
/// index of the token that closes it; 0 for every other token.
fn partners(tokens: &[Token]) -> Skimmed<Vec<u32>> {
    let mut partners = vec![0u32; tokens.len()];
    let mut open: Vec<(usize, &'static str)> = Vec::new();
    for (i, token) in tokens.iter().enumerate() {
        match token.tok {
            Tok::Punct("(") => open.push((i, ")")),
            Tok::Punct("[") => open.push((i, "]")),
            Tok::Punct("{") => open.push((i, "}")),
            Tok::Keyword(_) if token.opens => open.push((i, "end")),
            Tok::Punct(close @ (")" | "]" | "}")) | Tok::Keyword(close @ "end") => {
                match open.pop() {
                    Some((opener, expected)) if expected == close => partners[opener] = i as u32,
                    _ => return Err(Unsure),
                }
            }
            _ => {}
        }
    }
    if open.is_empty() {
        Ok(partners)
    } else {
        Err(Unsure)
    }
}

/// Whether the name at `i` is written as a call: `x.name`, `name(...)`, `name x`,
/// `name do ... end`.
pub(crate) fn written_as_call(tokens: &[Token], i: usize) -> bool {
    let dotted = i > 0 && matches!(tokens[i - 1].tok, Tok::Punct("." | "&."));
    let next = tokens.get(i + 1);
    dotted
        || gives_argument(tokens, i + 1)
        || next.is_some_and(|next| {
            (next.tok == Tok::Punct("(") && !next.space_before)
                || (next.tok == Tok::Keyword("do") && next.opens)
                || next.tok == Tok::Punct("{")
        })
}

/// Whether a name between `before` and `next` stands alone as a statement.
fn stands_alone(before: Option<&Token>, next: Option<&Token>) -> bool {
    let starts = before.is_none_or(|b| {
        matches!(
            b.tok,
            Tok::Newline
                | Tok::Punct(";" | "{" | "|" | "||")
                | Tok::Keyword("then" | "else" | "do" | "begin" | "ensure")
        )
    });
    let ends = next.is_none_or(|n| {
        n.modifier
            || matches!(
                n.tok,
                Tok::Newline | Tok::Punct(";" | ")" | "}") | Tok::Keyword("end")
            )
    });
    starts && ends
}

/// Operators after a value that make the statement an operation (or an assignment)
/// rather than a call.
const OPERATORS: &[&str] = &[
    "=", "+=", "-=", "*=", "/=", "%=", "**=", "||=", "&&=", "|=", "&=", "^=", "<<=", ">>=", "==",
    "!=", "===", "=~", "!~", "<", ">", "<=", ">=", "<=>", "+", "-", "*", "/", "%", "**", "&", "|",
    "^", "<<", ">>", "&&", "||", "..", "...", "?", ",",
];

/// Whether the token at `k`, after a method's name, starts its first argument: after
/// a space, a value, or an operator tight against what follows (`foo -1`, `foo *a`;
/// `foo - 1` subtracts), as the tokenizer decided.
fn gives_argument(tokens: &[Token], k: usize) -> bool {
    let Some(token) = tokens.get(k).filter(|t| t.space_before) else {
        return false;
    };
    let tight = || tokens.get(k + 1).is_some_and(|next| !next.space_before);
    match token.tok {
        Tok::Ident
        | Tok::Const
        | Tok::Var(_)
        | Tok::Label
        | Tok::Symbol
        | Tok::DSymbol
        | Tok::Str
        | Tok::Command
        | Tok::Heredoc
        | Tok::Regex
        | Tok::Number
        | Tok::Words => true,
        Tok::Keyword(word) => matches!(
            word,
            "nil" | "true" | "false" | "self" | "not" | "defined?" | "super" | "yield" | "__FILE__"
        ),
        Tok::Punct("->" | "[" | "(") => true,
        Tok::Punct("::" | "!" | "~" | "-" | "+" | "*" | "&" | "**") => tight(),
        Tok::Punct(_) | Tok::Newline => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn asked(name: &str) -> bool {
        matches!(
            name,
            "newparam" | "ensurable" | "send" | "newvalue" | "load"
        )
    }

    fn calls(text: &str) -> Option<Vec<String>> {
        let tree = SkimTree::parse(text, &asked)?;
        let mut calls: Vec<String> = tree.calls().iter().map(|(_, m)| m.to_string()).collect();
        calls.retain(|m| asked(m));
        Some(calls)
    }

    #[test]
    fn calls_are_found_where_tree_sitter_has_them() {
        let text =
            "Puppet::Type.newtype(:t) do\n  @doc = <<-EOT\n    newparam(:in_doc) #{x}\n  EOT\n\
            ensurable\n  newparam :a, namevar: true do\n    desc 'x'\n  end\n\
            def should_to_s(newvalue)\n    return newvalue if x\n    \"#{newvalue}\"\n  end\n\
            validate do |v|\n    v.send(:x)\n  rescue X\n    YAML.load(v)\n  end\n\
            # newparam(:commented)\nend\n";
        assert_eq!(
            calls(text).expect("skimmed"),
            ["ensurable", "newparam", "send", "load"]
        );
        // A name followed by `.x` is tree-sitter's identifier, not a call.
        assert_eq!(
            calls("ensurable.x\nnewvalue[1]\n").expect("skimmed"),
            Vec::<String>::new()
        );
        // `super` alone is no call; `super(x)` calls it.
        let tree = SkimTree::parse("super\nsuper(x)\n", &asked).expect("skimmed");
        let methods: Vec<&str> = tree.calls().iter().map(|(_, m)| *m).collect();
        assert_eq!(methods, ["super"]);
    }

    /// The tree of `text` and its first statement.
    fn first_statement(text: &str) -> (SkimTree<'_>, u32) {
        let tree = SkimTree::parse(text, &asked).expect("skimmed");
        let first = (0..tree.nodes.len() as u32)
            .filter(|n| tree.node(*n).span.0 == 0)
            .max_by_key(|n| tree.node(*n).span.1)
            .expect("a statement");
        (tree, first)
    }

    #[test]
    fn statements_arguments_and_blocks_have_tree_sitters_kinds() {
        let (tree, call) = first_statement(
            "newparam(:a, 'b', :\"c\", d: 1, :e => 2, F::G, %w[h], \"i#{j}\", 'k\\n') { k }\n",
        );
        assert_eq!(tree.kind(call), "call");
        let described: Vec<(&str, Option<&str>)> = tree
            .arguments(call)
            .iter()
            .map(|a| (tree.kind(*a), tree.literal_name(*a).or(tree.pair_key(*a))))
            .collect();
        assert_eq!(
            described,
            [
                ("simple_symbol", Some("a")),
                ("string", Some("b")),
                ("delimited_symbol", Some("c")),
                ("pair", Some("d")),
                ("pair", Some("e")),
                ("scope_resolution", None),
                ("array_of_words", None),
                ("string", None),
                // Single quotes keep a backslash as written, as tree-sitter's content.
                ("string", Some("k\\n")),
            ]
        );
        assert_eq!(tree.block_statements(call).map(|b| b.len()), Some(1));
        let (tree, assignment) = first_statement("@doc = 'x'\n");
        assert_eq!(tree.kind(assignment), "assignment");
        assert_eq!(tree.assigned_kind(assignment), Some("instance_variable"));
        let (tree, method) = first_statement("def validate(v); end\n");
        assert_eq!(
            (tree.kind(method), tree.defined_name(method)),
            ("method", Some("validate"))
        );
        let (tree, expression) = first_statement("newparam(:x) if y\n");
        assert_eq!(
            (tree.kind(expression), tree.method_name(expression)),
            ("expression", None)
        );
        // `defaultto []` gives an array: tree-sitter reads an argument after a name and
        // a space, whether or not the name is a local variable.
        let (tree, call) = first_statement("defaultto []\n");
        assert_eq!(tree.arguments(call).len(), 1);
        // `x - 1` subtracts; `x -1` gives `x` an argument.
        let (tree, expression) = first_statement("x - 1\n");
        assert_eq!(tree.kind(expression), "expression");
        let (tree, call) = first_statement("x -1\n");
        assert_eq!((tree.kind(call), tree.arguments(call).len()), ("call", 1));
        let (tree, class) = first_statement("class << self\n  def x; end\nend\n");
        assert_eq!(tree.kind(class), "singleton_class");
        let (tree, expression) = first_statement("defined?(@x) ? @x : nil\n");
        assert_eq!(tree.kind(expression), "expression");
        let (tree, _) = first_statement("module Puppet\n  Type.newtype(:t) do\n  end\nend\n");
        let newtype = tree
            .calls()
            .into_iter()
            .find(|(_, m)| *m == "newtype")
            .expect("newtype")
            .0;
        assert!(tree.inside_module(newtype, "Puppet"));
        assert_eq!(tree.receiver(newtype), Some("Type"));
    }

    #[test]
    fn the_skimmer_gives_up_where_ruby_decides_by_context() {
        for unsure in [
            "=begin\nnewparam(:x)\n=end\n",
            "x = ?a\n",
            "x = a ? b :c\n",
            "x = a ? b: c\n",
            "x = \"#{newparam(:x)}\"\n",
            "if x\n  ensurable\nend\n",
            "[a,\n ensurable\n :b]\n",
            "foo newparam :x\n",
            "def x = 1\n",
            "x = 1\r\n",
            "newparam(:x) do\n",
            "__END__\nnewparam(:x)\n",
            "y = x.send :newparam\n",
        ] {
            assert!(SkimTree::parse(unsure, &asked).is_none(), "{unsure:?}");
        }
    }
}

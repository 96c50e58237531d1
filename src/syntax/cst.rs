//! Running tree-sitter, and one pass over its tree that collects what the lowering and
//! the error reporting need from everywhere in it: comments, heredoc bodies (which the
//! grammar puts wherever they fall), ERROR and MISSING nodes, and the depth.

use crate::source::{SourceKind, Span};
use std::cell::RefCell;
use tree_sitter::{Node, Parser, Tree};

/// Tree depth beyond which a file is reported instead of lowered (see `MAX_NESTING`).
const MAX_TREE_DEPTH: usize = super::MAX_NESTING * 3;

thread_local! {
    // A parser per thread: creating one costs more than parsing a small file.
    static PARSER: RefCell<Option<Parser>> = const { RefCell::new(None) };
}

/// A tree-sitter tree and the text it was parsed from.
pub struct Cst<'a> {
    pub tree: Tree,
    /// The text handed to tree-sitter: the file's text, with the EPP marker before it
    /// for templates.
    pub source: std::borrow::Cow<'a, str>,
    /// How many bytes of `source` come before the file's own text.
    pub offset: u32,
}

impl Cst<'_> {
    /// The span, in the file's own offsets, of a node.
    pub fn span(&self, node: Node) -> Span {
        let start = (node.start_byte() as u32).saturating_sub(self.offset);
        let end = (node.end_byte() as u32).saturating_sub(self.offset);
        Span::new(start, end.max(start))
    }

    /// The text of a node.
    pub fn text(&self, node: Node) -> &str {
        self.source.get(node.byte_range()).unwrap_or("")
    }
}

pub fn parse(text: &str, kind: SourceKind) -> Cst<'_> {
    let (source, offset) = match kind {
        // Hiera data is never parsed as Puppet; read as a manifest, it would be one.
        SourceKind::Manifest | SourceKind::Data => (std::borrow::Cow::Borrowed(text), 0),
        SourceKind::Epp => {
            let marker = tree_sitter_puppet::EPP_MARKER;
            let mut s = String::with_capacity(marker.len() + text.len());
            s.push_str(marker);
            s.push_str(text);
            // The marker ends with the `%>` that starts the first text run; spans of
            // nodes inside the marker clamp to offset 0.
            (std::borrow::Cow::Owned(s), marker.len() as u32)
        }
    };
    let tree = PARSER.with(|cell| {
        let mut slot = cell.borrow_mut();
        let parser = slot.get_or_insert_with(|| {
            let mut p = Parser::new();
            p.set_language(&tree_sitter_puppet::LANGUAGE.into())
                .expect("the bundled grammar matches the tree-sitter library");
            p
        });
        // Tree-sitter's lexer reads a NUL byte as the end of input, so it is parsed as
        // another control character (one byte too, so every offset stays): Puppet
        // accepts it in strings and comments, and refuses it elsewhere, as the grammar
        // refuses the stand-in. Node texts still come from the real source.
        let input = if source.contains('\0') {
            std::borrow::Cow::Owned(source.replace('\0', "\u{1}").into_bytes())
        } else {
            std::borrow::Cow::Borrowed(source.as_bytes())
        };
        parser
            .parse(input.as_ref(), None)
            .expect("parsing without a timeout or cancellation always yields a tree")
    });
    Cst {
        tree,
        source,
        offset,
    }
}

#[derive(Clone, Copy)]
pub struct ErrorNode<'t> {
    pub node: Node<'t>,
    pub has_nested_errors: bool,
}

/// What the single pass over the tree found.
#[derive(Default)]
pub struct Scan<'t> {
    pub comments: Vec<Node<'t>>,
    /// Heredoc headers and bodies, each in source order: the n-th body belongs to the
    /// n-th header.
    pub heredoc_headers: Vec<usize>,
    pub heredoc_bodies: Vec<Node<'t>>,
    /// Every ERROR node, in document order, with whether it contains other ERRORs.
    pub errors: Vec<ErrorNode<'t>>,
    pub missing: Vec<Node<'t>>,
    /// Type references followed by `::` (`Foo::bar`), which Puppet's lexer rejects: the
    /// file offset of that `::` (Puppet points one further, at its second colon; starting
    /// at the first keeps this lexical error ahead of the parse error there).
    pub illegal_class_references: Vec<u32>,
    /// Regular expressions right after an operand (`notice(1) // x`, `$a = 'x' /b/`):
    /// Puppet's lexer reads that `/` as division. The offset of the `/`.
    pub division_not_regex: Vec<u32>,
    /// Template text read after a minus that is really the dash of a `-%>` (Puppet's
    /// lexer never splits that tag): `<%- |$p = 1 -%>text`. The text after a value,
    /// where no statement may end, is a syntax error. The text node.
    pub text_after_split_trim_tag: Vec<Node<'t>>,
    pub too_deep: bool,
    pub too_deep_at: u32,
}

/// Whether Puppet's lexer reads a `/` after this token as division rather than as the
/// start of a regular expression (its `regexp_acceptable?`: not after a name, a type
/// name, a number, a string, a boolean, a variable, a regexp, `)`, `]` or `|>`; after
/// `}` it is a regexp, for case options).
pub(crate) fn ends_operand(token: Node) -> bool {
    match token.kind() {
        ")" | "]" | "|>" | "|>>" | "name" | "type_ref" | "integer" | "float" | "true" | "false"
        | "variable" | "regex" | "heredoc_start" => true,
        // A string's closing quote (the opening one is its parent's first token).
        "'" | "\"" => token.next_sibling().is_none() && token.prev_sibling().is_some(),
        _ => false,
    }
}

/// Whether `text` follows a binary minus that took the dash of its `-%>` (a unary minus
/// there reads as Puppet does: lowering makes `-` and the text one trimmed text).
fn splits_trim_tag(previous: Node, text: Node) -> bool {
    previous.kind() == "-"
        && previous.end_byte() == text.start_byte()
        && previous
            .parent()
            .is_none_or(|p| p.kind() != "unary_expression")
}

/// What the scan does with a node, by its kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ScanKind {
    Other,
    /// `comment`, `epp_comment`: collected, not entered, not a token.
    Comment,
    /// `heredoc_body`: collected, not a token.
    HeredocBody,
    HeredocStart,
    TypeRef,
    Regex,
    EppText,
}

/// The scan's kind of each node kind of the grammar, by kind id: comparing ids, not
/// names, spares a string (and its length) per node of every file.
fn scan_kinds() -> &'static [ScanKind] {
    static KINDS: std::sync::OnceLock<Vec<ScanKind>> = std::sync::OnceLock::new();
    KINDS.get_or_init(|| {
        let language: tree_sitter::Language = tree_sitter_puppet::LANGUAGE.into();
        (0..language.node_kind_count())
            .map(|id| match language.node_kind_for_id(id as u16) {
                Some("comment" | "epp_comment") => ScanKind::Comment,
                Some("heredoc_body") => ScanKind::HeredocBody,
                Some("heredoc_start") => ScanKind::HeredocStart,
                Some("type_ref") => ScanKind::TypeRef,
                Some("regex") => ScanKind::Regex,
                Some("epp_text") => ScanKind::EppText,
                _ => ScanKind::Other,
            })
            .collect()
    })
}

pub fn scan<'t>(cst: &'t Cst) -> Scan<'t> {
    let kinds = scan_kinds();
    let mut scan = Scan::default();
    let mut cursor = cst.tree.walk();
    let mut depth = 0usize;
    // The ERROR nodes we are inside: (index in scan.errors, depth).
    let mut open_errors: Vec<(usize, usize)> = Vec::new();
    // The last token seen, in source order.
    let mut previous_token: Option<Node<'t>> = None;
    loop {
        let node = cursor.node();
        let mut descend = true;
        let kind = kinds
            .get(usize::from(node.kind_id()))
            .copied()
            .unwrap_or(ScanKind::Other);
        let is_token = node.child_count() == 0
            && !node.is_missing()
            && !matches!(kind, ScanKind::Comment | ScanKind::HeredocBody);
        if is_token {
            if kind == ScanKind::Regex && previous_token.is_some_and(ends_operand) {
                let at = (node.start_byte() as u32).saturating_sub(cst.offset);
                scan.division_not_regex.push(at);
            }
            if kind == ScanKind::EppText && previous_token.is_some_and(|t| splits_trim_tag(t, node))
            {
                scan.text_after_split_trim_tag.push(node);
            }
            previous_token = Some(node);
        }
        match kind {
            ScanKind::Comment => {
                scan.comments.push(node);
                descend = false;
            }
            ScanKind::HeredocStart => scan.heredoc_headers.push(node.start_byte()),
            ScanKind::HeredocBody => scan.heredoc_bodies.push(node),
            ScanKind::TypeRef => {
                let end = node.end_byte();
                if cst.source.as_bytes().get(end..end + 2) == Some(b"::") {
                    let colon = (end as u32).saturating_sub(cst.offset);
                    scan.illegal_class_references.push(colon);
                }
            }
            ScanKind::Regex | ScanKind::EppText | ScanKind::Other => {}
        }
        if node.is_error() {
            for &(i, _) in &open_errors {
                scan.errors[i].has_nested_errors = true;
            }
            open_errors.push((scan.errors.len(), depth));
            scan.errors.push(ErrorNode {
                node,
                has_nested_errors: false,
            });
        } else if node.is_missing() {
            scan.missing.push(node);
        }
        if depth > MAX_TREE_DEPTH {
            scan.too_deep = true;
            scan.too_deep_at = (node.start_byte() as u32).saturating_sub(cst.offset);
            return scan;
        }
        if descend && cursor.goto_first_child() {
            depth += 1;
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return scan;
            }
            depth -= 1;
            close_errors(&mut open_errors, depth);
        }
        close_errors(&mut open_errors, depth);
    }
}

/// Forgets the ERROR nodes that the cursor has left (it is now at `depth`, on a node
/// after them).
fn close_errors(open_errors: &mut Vec<(usize, usize)>, depth: usize) {
    while open_errors.last().is_some_and(|&(_, d)| d >= depth) {
        open_errors.pop();
    }
}

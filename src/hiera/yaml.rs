//! YAML as Hiera reads it (Ruby's Psych), with where each node is written. The parser
//! is yaml-rust2's event parser; the tree is built here, within bounds: a document
//! deeper than [`MAX_DEPTH`], or with more than [`MAX_NODES`] nodes or
//! [`MAX_EXPANDED_BYTES`] bytes of text once aliases are expanded (a "billion laughs"
//! file, or one long anchor aliased thousands of times), is an error, never a hang or a
//! blow-up. A scalar whose
//! value Psych might read otherwise than pupcheck (octal and sexagesimal numbers,
//! dates, tags) is unknown, never guessed.

use crate::types::Value;
use std::collections::HashMap;
use yaml_rust2::parser::{Event, MarkedEventReceiver, Parser};
use yaml_rust2::scanner::{Marker, TScalarStyle};

/// Deeper nesting than this is refused.
pub const MAX_DEPTH: usize = 256;
/// More nodes than this, aliases expanded, are refused.
pub const MAX_NODES: usize = 1_000_000;
/// More bytes of scalar text than this, aliases expanded, are refused: four times the
/// largest data file read (an alias copies its anchor's text).
pub const MAX_EXPANDED_BYTES: usize = 16 << 20;

/// A node and where it starts.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub kind: NodeKind,
    /// Byte offset in the text.
    pub offset: usize,
}

#[derive(Debug, Clone, PartialEq)]
pub enum NodeKind {
    Scalar {
        text: String,
        /// Written without quotes (then `true`, `42`, `~` are not strings).
        plain: bool,
        /// Written with a tag (`!!str`, `!ruby/object`): not read.
        tagged: bool,
    },
    Sequence(Vec<Node>),
    Mapping(Vec<(Node, Node)>),
}

/// Why a text is not YAML pupcheck reads.
#[derive(Debug, Clone, PartialEq)]
pub struct YamlError {
    pub message: String,
    pub offset: usize,
    /// Over pupcheck's bounds ([`MAX_DEPTH`], [`MAX_NODES`]), not a syntax error: Psych
    /// may read it.
    pub over_bounds: bool,
}

/// The syntax errors of yaml-rust2 that Psych (libyaml), which Hiera reads YAML with,
/// raises on the same texts: measured by scripts/differential/yaml_diff.py over real
/// data files and mutants of them, with no text Psych accepts among them. The others
/// (an odd indentation inside a quoted scalar, say, which libyaml accepts) prove
/// nothing.
const SYNTAX_ERRORS_PSYCH_SHARES: &[&str] = &[
    "\"-\" is only valid inside a block",
    "block sequence entries are not allowed in this context",
    "did not find expected <document start>",
    "illegal placement of ':' indicator",
    "mapping values are not allowed in this context",
    "tabs disallowed within this context (block indentation)",
    "unexpected character: `%'",
    "unexpected character: `@'",
    "unexpected character: ``'",
    "while parsing a block collection, did not find expected '-' indicator",
    "while parsing a block mapping, did not find expected key",
    "while parsing a flow mapping, did not find expected ',' or '}'",
    "while parsing a flow sequence, expected ',' or ']'",
    "while parsing a quoted scalar, found unknown escape character",
    "while scanning a block scalar, did not find expected comment or line break",
    "while scanning a plain scalar, found a tab",
    "while scanning a quoted scalar, found unexpected document indicator",
    "while scanning a quoted scalar, found unexpected end of stream",
    "while scanning a tag, did not find expected whitespace or line break",
    "while scanning an anchor or alias, did not find expected alphabetic or numeric character",
];

impl YamlError {
    /// Whether Psych fails on `text` too, as far as pupcheck can be sure: a syntax
    /// error of a kind both parsers raise, in a text without anchors (where libyaml
    /// accepts some keys yaml-rust2 refuses).
    pub fn psych_fails_too(&self, text: &str) -> bool {
        !self.over_bounds
            && !text.contains('&')
            && SYNTAX_ERRORS_PSYCH_SHARES.contains(&self.message.as_str())
    }
}

/// The first document of `text` (`None` when it has none).
pub fn parse(text: &str) -> Result<Option<Node>, YamlError> {
    let mut builder = Builder::default();
    let mut parser = Parser::new_from_str(text);
    match parser.load(&mut builder, false) {
        Ok(()) => {}
        Err(e) => {
            return Err(YamlError {
                message: e.info().to_string(),
                offset: e.marker().index(),
                // yaml-rust2's own bound on nesting, as deep as ours.
                over_bounds: e.info() == "recursion limit exceeded",
            });
        }
    }
    if let Some(error) = builder.error {
        return Err(error);
    }
    Ok(builder.document)
}

#[derive(Default)]
struct Builder {
    /// Open collections, innermost last, with their anchors.
    stack: Vec<(Node, usize)>,
    /// A mapping's key waiting for its value, per open mapping.
    keys: Vec<Option<Node>>,
    anchors: HashMap<usize, Node>,
    nodes: usize,
    /// Bytes of scalar text, aliases expanded.
    bytes: usize,
    document: Option<Node>,
    error: Option<YamlError>,
}

impl Builder {
    fn fail(&mut self, message: &str, offset: usize, over_bounds: bool) {
        if self.error.is_none() {
            self.error = Some(YamlError {
                message: message.to_string(),
                offset,
                over_bounds,
            });
        }
    }

    /// Counts `size` more of the document; `false` (and the error) past the bounds.
    fn count(&mut self, size: Size, offset: usize) -> bool {
        self.nodes = self.nodes.saturating_add(size.nodes);
        self.bytes = self.bytes.saturating_add(size.bytes);
        if self.nodes > MAX_NODES {
            self.fail(
                &format!("more than {MAX_NODES} nodes (aliases expanded)"),
                offset,
                true,
            );
            return false;
        }
        if self.bytes > MAX_EXPANDED_BYTES {
            self.fail(
                &format!("more than {MAX_EXPANDED_BYTES} bytes of text (aliases expanded)"),
                offset,
                true,
            );
            return false;
        }
        true
    }

    /// Places a finished node in its parent (or as the document).
    fn place(&mut self, node: Node, anchor: usize) {
        if anchor > 0 {
            self.anchors.insert(anchor, node.clone());
        }
        let Some((parent, _)) = self.stack.last_mut() else {
            if self.document.is_none() {
                self.document = Some(node);
            }
            return;
        };
        match &mut parent.kind {
            NodeKind::Sequence(items) => items.push(node),
            NodeKind::Mapping(entries) => {
                let key = self.keys.last_mut().expect("a mapping has a key slot");
                match key.take() {
                    None => *key = Some(node),
                    Some(k) => entries.push((k, node)),
                }
            }
            NodeKind::Scalar { .. } => {}
        }
    }

    fn open(&mut self, kind: NodeKind, anchor: usize, offset: usize) {
        if self.stack.len() >= MAX_DEPTH {
            self.fail(&format!("nested deeper than {MAX_DEPTH}"), offset, true);
            return;
        }
        if !self.count(Size::ONE_COLLECTION, offset) {
            return;
        }
        if matches!(kind, NodeKind::Mapping(_)) {
            self.keys.push(None);
        }
        self.stack.push((Node { kind, offset }, anchor));
    }

    fn close(&mut self) {
        let Some((node, anchor)) = self.stack.pop() else {
            return;
        };
        if matches!(node.kind, NodeKind::Mapping(_)) {
            self.keys.pop();
        }
        self.place(node, anchor);
    }
}

/// How much of the document a node is: its nodes and its scalars' bytes.
#[derive(Clone, Copy, Default)]
struct Size {
    nodes: usize,
    bytes: usize,
}

impl Size {
    fn scalar(text: &str) -> Size {
        Size {
            nodes: 1,
            bytes: text.len(),
        }
    }

    fn plus(self, other: Size) -> Size {
        Size {
            nodes: self.nodes.saturating_add(other.nodes),
            bytes: self.bytes.saturating_add(other.bytes),
        }
    }

    const ONE_COLLECTION: Size = Size { nodes: 1, bytes: 0 };
}

fn size(node: &Node) -> Size {
    match &node.kind {
        NodeKind::Scalar { text, .. } => Size::scalar(text),
        NodeKind::Sequence(items) => items
            .iter()
            .map(size)
            .fold(Size::ONE_COLLECTION, Size::plus),
        NodeKind::Mapping(entries) => entries
            .iter()
            .map(|(k, v)| size(k).plus(size(v)))
            .fold(Size::ONE_COLLECTION, Size::plus),
    }
}

impl MarkedEventReceiver for Builder {
    fn on_event(&mut self, event: Event, mark: Marker) {
        if self.error.is_some() {
            return;
        }
        let offset = mark.index();
        match event {
            Event::Scalar(text, style, anchor, tag) if self.count(Size::scalar(&text), offset) => {
                let node = Node {
                    kind: NodeKind::Scalar {
                        text,
                        plain: style == TScalarStyle::Plain,
                        tagged: tag.is_some(),
                    },
                    offset,
                };
                self.place(node, anchor);
            }
            Event::SequenceStart(anchor, _) => {
                self.open(NodeKind::Sequence(Vec::new()), anchor, offset)
            }
            Event::MappingStart(anchor, _) => {
                self.open(NodeKind::Mapping(Vec::new()), anchor, offset)
            }
            Event::SequenceEnd | Event::MappingEnd => self.close(),
            // The anchor's size is counted before it is copied.
            Event::Alias(id) => match self.anchors.get(&id).map(size) {
                Some(size) => {
                    if self.count(size, offset) {
                        let node = self.anchors[&id].clone();
                        self.place(node, 0);
                    }
                }
                None => self.fail("an alias to an unknown anchor", offset, false),
            },
            _ => {}
        }
    }
}

/// The Puppet value Hiera gives for `node`, as Psych reads YAML; `None` when pupcheck
/// is not sure of it (see the module's docs), or when it holds an interpolation
/// (`%{...}`, which Hiera replaces).
pub fn value(node: &Node) -> Option<Value> {
    read_value(node, false)
}

/// The value Psych reads for `node`, a string with an interpolation as it is written
/// (as in a `hiera.yaml`, whose paths Hiera interpolates only when it uses them);
/// `None` when pupcheck is not sure of it.
pub fn value_as_written(node: &Node) -> Option<Value> {
    read_value(node, true)
}

fn read_value(node: &Node, interpolations: bool) -> Option<Value> {
    match &node.kind {
        NodeKind::Scalar { tagged: true, .. } => None,
        NodeKind::Scalar { text, .. } if !interpolations && text.contains("%{") => None,
        NodeKind::Scalar {
            text, plain: false, ..
        } => Some(Value::string(text)),
        NodeKind::Scalar {
            text, plain: true, ..
        } => plain_scalar(text),
        NodeKind::Sequence(items) => items
            .iter()
            .map(|item| read_value(item, interpolations))
            .collect::<Option<Vec<_>>>()
            .map(Value::array),
        NodeKind::Mapping(entries) => {
            let mut hash = indexmap::IndexMap::new();
            for (k, v) in entries {
                // `<<` merge keys are Psych's own.
                if matches!(&k.kind, NodeKind::Scalar { text, plain: true, .. } if text == "<<") {
                    return None;
                }
                hash.insert(
                    read_value(k, interpolations)?,
                    read_value(v, interpolations)?,
                );
            }
            Some(Value::Hash(std::sync::Arc::new(hash)))
        }
    }
}

/// A plain scalar as Psych's scalar scanner reads it, where that is certain.
fn plain_scalar(text: &str) -> Option<Value> {
    let lower = text.to_ascii_lowercase();
    match lower.as_str() {
        "" | "~" | "null" => return Some(Value::Undef),
        "true" | "yes" | "on" => return Some(Value::Bool(true)),
        "false" | "no" | "off" => return Some(Value::Bool(false)),
        _ => {}
    }
    let unsigned = text.strip_prefix(['-', '+']).unwrap_or(text);
    let starts_numeric = unsigned.starts_with(|c: char| c.is_ascii_digit() || c == '.');
    if !starts_numeric {
        return Some(Value::string(text));
    }
    let digits = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit());
    // A decimal integer without a leading zero (Psych reads `0755` as octal).
    if digits(unsigned) && (unsigned == "0" || !unsigned.starts_with('0')) {
        return text.parse::<i64>().ok().map(Value::Integer);
    }
    // A plain decimal fraction.
    if let Some((whole, fraction)) = unsigned.split_once('.') {
        if (whole.is_empty() || digits(whole))
            && digits(fraction)
            && !(whole.len() > 1 && whole.starts_with('0'))
        {
            return text
                .parse::<f64>()
                .ok()
                .filter(|f| f.is_finite())
                .map(Value::Float);
        }
    }
    // Anything else that starts like a number (octal, hexadecimal, `1_000`, `1:30`,
    // dates, exponents, versions such as `1.2.3`): Psych's reading varies.
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entries(text: &str) -> Vec<(String, Option<Value>)> {
        let Some(Node {
            kind: NodeKind::Mapping(entries),
            ..
        }) = parse(text).expect("yaml")
        else {
            panic!("a mapping");
        };
        entries
            .iter()
            .map(|(k, v)| {
                let NodeKind::Scalar { text, .. } = &k.kind else {
                    panic!("a scalar key")
                };
                (text.clone(), value(v))
            })
            .collect()
    }

    #[test]
    fn scalars_are_read_as_psych_reads_them_or_left_unknown() {
        let read = entries(
            "a: 42\nb: '42'\nc: yes\nd: ~\ne: 1.5\nf: 0755\ng: web\nh: '%{facts.x}'\ni: [1, two]\nj: 1.2.3\nk: !!str 3\n",
        );
        let v = |k: &str| {
            read.iter()
                .find(|(n, _)| n == k)
                .and_then(|(_, v)| v.clone())
        };
        assert_eq!(v("a"), Some(Value::Integer(42)));
        assert_eq!(v("b"), Some(Value::string("42")));
        assert_eq!(v("c"), Some(Value::Bool(true)));
        assert_eq!(v("d"), Some(Value::Undef));
        assert_eq!(v("e"), Some(Value::Float(1.5)));
        assert_eq!(v("f"), None, "octal in YAML 1.1");
        assert_eq!(v("g"), Some(Value::string("web")));
        assert_eq!(v("h"), None, "an interpolation");
        assert_eq!(
            v("i"),
            Some(Value::array(vec![Value::Integer(1), Value::string("two")]))
        );
        assert_eq!(v("j"), None);
        assert_eq!(v("k"), None, "a tag");
    }

    #[test]
    fn offsets_locate_each_node() {
        let text = "first: 1\nsecond:\n  - x\n";
        let Some(Node {
            kind: NodeKind::Mapping(entries),
            ..
        }) = parse(text).unwrap()
        else {
            panic!("a mapping")
        };
        assert_eq!(entries[1].0.offset, text.find("second").unwrap());
    }

    #[test]
    fn alias_bombs_and_deep_nesting_are_errors_not_hangs() {
        let mut bomb = String::from("a: &a [x, x, x, x, x, x, x, x, x, x]\n");
        for (i, prev) in ["a", "b", "c", "d", "e", "f", "g"].iter().enumerate() {
            let name = ["b", "c", "d", "e", "f", "g", "h"][i];
            bomb.push_str(&format!(
                "{name}: &{name} [*{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}]\n"
            ));
        }
        let error = parse(&bomb).expect_err("too many nodes");
        assert!(error.message.contains("nodes"), "{error:?}");
        let deep = "[".repeat(MAX_DEPTH + 10) + &"]".repeat(MAX_DEPTH + 10);
        assert!(parse(&deep).is_err());
        assert!(parse("a: [1, 2\n").is_err());
    }
}

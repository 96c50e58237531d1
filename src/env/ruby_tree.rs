//! Ruby source read as a syntax tree (tree-sitter's Ruby grammar), never run: the few
//! shapes the readers of modules' Ruby look for (calls, their literal arguments and
//! blocks, hash literals). A file with a syntax error is not read at all: what its
//! broken part declares is unknown.

use tree_sitter::{Node, Parser, Tree};

/// A Ruby file's tree, with the text it was parsed from.
pub struct RubyTree<'t> {
    pub tree: Tree,
    pub text: &'t str,
}

impl<'t> RubyTree<'t> {
    /// The tree of `text`; `None` when the grammar finds an error in it.
    pub fn parse(text: &'t str) -> Option<Self> {
        let mut parser = Parser::new();
        parser
            .set_language(&tree_sitter_ruby::LANGUAGE.into())
            .ok()?;
        let tree = parser.parse(text, None)?;
        (!tree.root_node().has_error()).then_some(RubyTree { tree, text })
    }

    pub fn source(&self, node: Node) -> &'t str {
        &self.text[node.byte_range()]
    }

    /// Every call of the file with the method it names, parents before their
    /// children, in one walk of the tree (without recursion: a file may nest deeply).
    /// The walk knows each node's parent: asking a node for it searches down from the
    /// root, once per identifier of the file.
    pub fn calls(&self) -> Vec<(Node<'_>, &'t str)> {
        let mut out = Vec::new();
        let mut cursor = self.tree.walk();
        // Whether each node on the way down holds statements.
        let mut in_body = vec![false];
        loop {
            let node = cursor.node();
            let method = match node.kind() {
                "call" => node.child_by_field_name("method"),
                "identifier" if in_body.last() == Some(&true) => Some(node),
                _ => None,
            };
            if let Some(method) = method {
                out.push((node, self.source(method)));
            }
            if cursor.goto_first_child() {
                in_body.push(holds_statements(node.kind()));
                continue;
            }
            while !cursor.goto_next_sibling() {
                if !cursor.goto_parent() {
                    return out;
                }
                in_body.pop();
            }
        }
    }

    /// The method a call names (`newparam` of `newparam(:x)`); a bare identifier
    /// standing as a statement (`ensurable`) is a call without arguments too.
    pub fn method_name(&self, node: Node) -> Option<&'t str> {
        match node.kind() {
            "call" => node.child_by_field_name("method").map(|m| self.source(m)),
            "identifier" if is_statement(node) => Some(self.source(node)),
            _ => None,
        }
    }

    /// The receiver of a call as written (`Puppet::Type`), if it has one.
    pub fn receiver(&self, call: Node) -> Option<&'t str> {
        call.child_by_field_name("receiver").map(|r| self.source(r))
    }

    /// A name written literally: `:x`, `:"x"`, `'x'`, `"x"` without interpolation or
    /// escapes, or a hash key `x:`.
    pub fn literal_name(&self, node: Node) -> Option<&'t str> {
        let text = self.source(node);
        match node.kind() {
            "simple_symbol" => text.strip_prefix(':'),
            "hash_key_symbol" => Some(text),
            "string" | "delimited_symbol" => {
                let mut cursor = node.walk();
                let parts: Vec<Node> = node.named_children(&mut cursor).collect();
                match parts.as_slice() {
                    [] => Some(""),
                    [content] if content.kind() == "string_content" => Some(self.source(*content)),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// A pair's key as a name (`type:`, `:type =>`, `'type' =>`).
    pub fn pair_key(&self, pair: Node) -> Option<&'t str> {
        self.literal_name(pair.child_by_field_name("key")?)
    }

    /// The value of the pair `key` among `pairs`.
    pub fn pair_value<'a>(&self, pairs: &[Node<'a>], key: &str) -> Option<Node<'a>> {
        pairs
            .iter()
            .find(|p| p.kind() == "pair" && self.pair_key(**p) == Some(key))
            .and_then(|p| p.child_by_field_name("value"))
    }
}

/// The arguments of a call.
pub fn arguments<'a>(call: Node<'a>) -> Vec<Node<'a>> {
    let Some(list) = call.child_by_field_name("arguments") else {
        return Vec::new();
    };
    let mut cursor = list.walk();
    list.named_children(&mut cursor)
        .filter(|n| !is_aside(*n))
        .collect()
}

/// The entries of a hash literal.
pub fn hash_pairs(hash: Node) -> Option<Vec<Node>> {
    if hash.kind() != "hash" {
        return None;
    }
    let mut cursor = hash.walk();
    Some(
        hash.named_children(&mut cursor)
            .filter(|n| !is_aside(*n))
            .collect(),
    )
}

/// The statements of a call's block (`do ... end` or `{ ... }`); `None` when the call
/// has no block.
pub fn block_statements(call: Node) -> Option<Vec<Node>> {
    let block = call.child_by_field_name("block")?;
    let Some(body) = block.child_by_field_name("body") else {
        return Some(Vec::new());
    };
    let mut cursor = body.walk();
    Some(
        body.named_children(&mut cursor)
            .filter(|n| !is_aside(*n))
            .collect(),
    )
}

/// A comment, or the body of a heredoc (which the grammar places after the line that
/// opens it): neither is an argument, an entry or a statement.
fn is_aside(node: Node) -> bool {
    matches!(node.kind(), "comment" | "heredoc_body")
}

/// Whether the node stands as a statement of a body (not as part of an expression).
fn is_statement(node: Node) -> bool {
    node.parent().is_some_and(|p| holds_statements(p.kind()))
}

fn holds_statements(kind: &str) -> bool {
    matches!(kind, "body_statement" | "block_body" | "program")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literal_names_calls_and_blocks_are_read() {
        let text = "Puppet::Type.newtype(:t) do\n  @doc = <<-EOT\n newparam(:not_code)\n  EOT\n  ensurable\n  newparam('p', namevar: true) { desc \"x\" }\nend\n";
        let tree = RubyTree::parse(text).expect("parses");
        let calls = tree.calls();
        let methods: Vec<&str> = calls.iter().map(|(_, m)| *m).collect();
        // Not the doc's text, nor the names the calls are given.
        assert_eq!(methods, ["newtype", "ensurable", "newparam", "desc"]);
        let (newtype, _) = calls[0];
        for (call, method) in &calls {
            assert_eq!(tree.method_name(*call), Some(*method));
        }
        assert_eq!(tree.receiver(newtype), Some("Puppet::Type"));
        assert_eq!(tree.literal_name(arguments(newtype)[0]), Some("t"));
        let statements = block_statements(newtype).expect("block");
        let names: Vec<_> = statements
            .iter()
            .map(|s| tree.method_name(*s).unwrap_or(s.kind()))
            .collect();
        assert_eq!(names, ["assignment", "ensurable", "newparam"]);
        let args = arguments(statements[2]);
        assert_eq!(tree.literal_name(args[0]), Some("p"));
        assert_eq!(tree.pair_key(args[1]), Some("namevar"));
        assert!(RubyTree::parse("def x(\n").is_none());
    }
}

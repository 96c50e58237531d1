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
    /// The walk knows each node's parent (asking a node for it searches down from the
    /// root) and which child is a call's method (asking a call for it looks the field
    /// up by name), and compares node kinds by number.
    pub fn calls(&self) -> Vec<(Node<'_>, &'t str)> {
        let ids = &*KIND_IDS;
        let mut out: Vec<(Node, &str)> = Vec::new();
        let mut cursor = self.tree.walk();
        // For each node on the way down: whether it holds statements, and the place in
        // `out` of the call it is (its method is one of its children).
        let mut parents: Vec<(bool, Option<usize>)> = vec![(false, None)];
        loop {
            let node = cursor.node();
            let kind = node.kind_id();
            let &(in_body, parent_call) = parents.last().unwrap_or(&(false, None));
            let mut this_call = None;
            if kind == ids.call {
                this_call = Some(out.len());
                out.push((node, ""));
            } else if kind == ids.identifier && in_body && node.is_named() {
                out.push((node, self.source(node)));
            }
            if let Some(call) = parent_call.filter(|_| cursor.field_id() == Some(ids.method)) {
                out[call].1 = self.source(node);
            }
            if cursor.goto_first_child() {
                parents.push((ids.holds_statements.contains(&kind), this_call));
                continue;
            }
            while !cursor.goto_next_sibling() {
                if !cursor.goto_parent() {
                    // A call without a method (`f.()`) names none.
                    out.retain(|(_, method)| !method.is_empty());
                    return out;
                }
                parents.pop();
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

impl super::syntax::RubySyntax for RubyTree<'_> {
    type Node<'a>
        = Node<'a>
    where
        Self: 'a;

    fn calls(&self) -> Vec<(Node<'_>, &str)> {
        RubyTree::calls(self)
    }
    fn kind<'a>(&'a self, node: Node<'a>) -> &'a str {
        node.kind()
    }
    fn source<'a>(&'a self, node: Node<'a>) -> &'a str {
        RubyTree::source(self, node)
    }
    fn method_name<'a>(&'a self, node: Node<'a>) -> Option<&'a str> {
        RubyTree::method_name(self, node)
    }
    fn receiver<'a>(&'a self, call: Node<'a>) -> Option<&'a str> {
        RubyTree::receiver(self, call)
    }
    fn literal_name<'a>(&'a self, node: Node<'a>) -> Option<&'a str> {
        RubyTree::literal_name(self, node)
    }
    fn pair_key<'a>(&'a self, pair: Node<'a>) -> Option<&'a str> {
        RubyTree::pair_key(self, pair)
    }
    fn arguments<'a>(&'a self, call: Node<'a>) -> Vec<Node<'a>> {
        arguments(call)
    }
    fn block_statements<'a>(&'a self, call: Node<'a>) -> Option<Vec<Node<'a>>> {
        block_statements(call)
    }
    fn defined_name<'a>(&'a self, node: Node<'a>) -> Option<&'a str> {
        node.child_by_field_name("name").map(|n| self.source(n))
    }
    fn assigned_kind<'a>(&'a self, assignment: Node<'a>) -> Option<&'a str> {
        assignment.child_by_field_name("left").map(|l| l.kind())
    }
    fn inside_module(&self, node: Node<'_>, name: &str) -> bool {
        std::iter::successors(node.parent(), |n| n.parent()).any(|n| {
            n.kind() == "module"
                && n.child_by_field_name("name").map(|m| self.source(m)) == Some(name)
        })
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
    STATEMENT_HOLDERS.contains(&kind)
}

const STATEMENT_HOLDERS: [&str; 3] = ["body_statement", "block_body", "program"];

/// The grammar's numbers for the kinds and the field [`RubyTree::calls`] looks for.
struct KindIds {
    call: u16,
    identifier: u16,
    holds_statements: Vec<u16>,
    method: std::num::NonZeroU16,
}

static KIND_IDS: std::sync::LazyLock<KindIds> = std::sync::LazyLock::new(|| {
    let language: tree_sitter::Language = tree_sitter_ruby::LANGUAGE.into();
    KindIds {
        call: language.id_for_node_kind("call", true),
        identifier: language.id_for_node_kind("identifier", true),
        holds_statements: STATEMENT_HOLDERS
            .iter()
            .map(|k| language.id_for_node_kind(k, true))
            .collect(),
        method: language
            .field_id_for_name("method")
            .expect("the Ruby grammar names a call's method"),
    }
});

#[cfg(test)]
mod tests {
    use super::*;

    /// The calls as every node of the tree, asked one by one, gives them.
    fn calls_node_by_node<'a>(tree: &'a RubyTree) -> Vec<(Node<'a>, &'a str)> {
        let mut out = Vec::new();
        let mut stack = vec![tree.tree.root_node()];
        while let Some(node) = stack.pop() {
            if let Some(method) = tree.method_name(node) {
                out.push((node, method));
            }
            let mut cursor = node.walk();
            let children: Vec<Node> = node.named_children(&mut cursor).collect();
            stack.extend(children.into_iter().rev());
        }
        out
    }

    #[test]
    fn the_calls_walk_finds_what_asking_each_node_finds() {
        let mut texts: Vec<String> = [
            "a.b.c(d.e)\nf.()\nx = send :y, z { |q| q.w }\nputs <<~A, <<-B\n  #{i(1)}\nA\n j\nB\n",
            "module Puppet\n  Type.newtype(:t) do\n    ensurable\n    def x; y; end\n  end\nend\n",
            "class A < B\n  include C\n  foo\n  self.bar = baz\n  [1].each do |v| newparam(v) end\nend\n",
        ]
        .iter()
        .map(|t| t.to_string())
        .collect();
        // Every Ruby file of the corpus, when it is installed.
        let corpus = std::path::Path::new("/usr/share/puppet/modules.available");
        if let Ok(modules) = std::fs::read_dir(corpus) {
            let mut folders: Vec<std::path::PathBuf> =
                modules.flatten().map(|m| m.path().join("lib")).collect();
            while let Some(folder) = folders.pop() {
                for entry in std::fs::read_dir(&folder).into_iter().flatten().flatten() {
                    let path = entry.path();
                    if path.is_dir() {
                        folders.push(path);
                    } else if path.extension().is_some_and(|e| e == "rb") {
                        texts.extend(std::fs::read_to_string(&path).ok());
                    }
                }
            }
        }
        for text in &texts {
            let Some(tree) = RubyTree::parse(text) else {
                continue;
            };
            let walked: Vec<(usize, &str)> =
                tree.calls().iter().map(|(n, m)| (n.id(), *m)).collect();
            let asked: Vec<(usize, &str)> = calls_node_by_node(&tree)
                .iter()
                .map(|(n, m)| (n.id(), *m))
                .collect();
            assert_eq!(walked, asked, "{text}");
        }
    }

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

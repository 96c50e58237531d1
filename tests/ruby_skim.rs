//! The skimmer of Ruby type files (ruby::skim) against tree-sitter's tree: on every
//! classic type file of the corpus, and on copies damaged line by line or given a call
//! in every place a line can stand, what the classic reader makes of a file the skimmer
//! is sure of (a type, or unknown) must be what it makes of the tree. The skimmer may
//! give up (the tree then decides); it may never read a file differently. Where tree-sitter finds a syntax error the tree reads nothing and the
//! skimmer, which does not check every expression, may still read the type: those are
//! counted, not judged (Ruby refuses to load such a file, so Puppet rejects every use
//! of the type anyway).
//!
//! PUPCHECK_RUBY_SKIM_DIRS=dir:dir... adds the `lib/puppet/type/*.rb` of other module
//! folders (current public modules, say) to the files compared whole.

mod common;

use pupcheck::ruby::resource_type::{read_parsed, read_skimmed};

fn type_files(modules: &str) -> Vec<(String, String)> {
    let mut files = Vec::new();
    let Ok(entries) = std::fs::read_dir(modules) else {
        return files;
    };
    for module in entries.flatten() {
        let folder = module.path().join("lib/puppet/type");
        for file in std::fs::read_dir(folder).into_iter().flatten().flatten() {
            let path = file.path();
            if path.extension().is_some_and(|e| e == "rb") {
                if let Ok(text) = std::fs::read_to_string(&path) {
                    if !text.contains("ResourceApi") {
                        files.push((path.display().to_string(), text));
                    }
                }
            }
        }
    }
    files.sort();
    files
}

fn name_of(path: &str) -> &str {
    std::path::Path::new(path)
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or_default()
}

fn has_syntax_error(text: &str) -> bool {
    let mut parser = tree_sitter::Parser::new();
    parser
        .set_language(&tree_sitter_ruby::LANGUAGE.into())
        .unwrap();
    parser
        .parse(text, None)
        .is_none_or(|tree| tree.root_node().has_error())
}

/// `files` and those of the folders PUPCHECK_RUBY_SKIM_DIRS names.
fn with_other_dirs(mut files: Vec<(String, String)>) -> Vec<(String, String)> {
    for dir in std::env::var("PUPCHECK_RUBY_SKIM_DIRS")
        .unwrap_or_default()
        .split(':')
        .filter(|d| !d.is_empty())
    {
        files.extend(type_files(dir));
    }
    files
}

#[derive(Default)]
struct Tally {
    compared: usize,
    skimmed: usize,
    read: usize,
    unchecked_syntax_errors: usize,
    problems: Vec<String>,
}

impl Tally {
    fn compare(&mut self, label: &str, text: &str, name: &str) {
        self.compared += 1;
        let parsed = read_parsed(text, name);
        self.read += usize::from(parsed.is_some());
        let Some(skimmed) = read_skimmed(text, name) else {
            return;
        };
        self.skimmed += 1;
        if parsed == skimmed {
            return;
        }
        if parsed.is_none() && has_syntax_error(text) {
            self.unchecked_syntax_errors += 1;
            return;
        }
        if self.problems.len() < 20 {
            self.problems.push(format!(
                "{label}\n  skimmed: {skimmed:?}\n  parsed:  {parsed:?}\n--- text\n{text}\n---"
            ));
        }
    }
}

#[test]
fn every_file_the_skimmer_is_sure_of_is_read_as_from_the_tree() {
    let Some(_) = common::corpus_files() else {
        return;
    };
    let files = with_other_dirs(type_files(common::MODULES));
    let corpus = type_files(common::MODULES).len();
    let mut whole = Tally::default();
    for (path, text) in &files {
        whole.compare(path, text, name_of(path));
    }
    assert!(whole.problems.is_empty(), "{}", whole.problems.join("\n"));
    // The skimmer must stay worth having: it is sure of most type files.
    let mut corpus_tally = Tally::default();
    for (path, text) in &files[..corpus] {
        corpus_tally.compare(path, text, name_of(path));
    }
    assert!(
        corpus_tally.skimmed * 10 >= corpus_tally.compared * 9,
        "the skimmer was sure of {} of the corpus's {} classic type files",
        corpus_tally.skimmed,
        corpus_tally.compared
    );
    eprintln!(
        "{} type files: {} known from the tree, {} skimmed",
        whole.compared, whole.read, whole.skimmed
    );
}

/// Calls and shapes that change what a file declares, written where a line may
/// stand: in the type's block, in an attribute's, in a method, in a string, a comment,
/// a heredoc or an interpolation.
const INSERTED: &[&str] = &[
    "newparam(:zz)",
    "ensurable",
    "newproperty :zz do\nend",
    "newvalues(:zz)",
    "newvalue :zz",
    "include Foo",
    "extend Bar",
    "x.send(:newparam, :zz)",
    "send :newparam, :zz",
    "require 'puppet_x/zz'",
    "\"#{newparam(:zz)}\"",
    "x = \"#{ensurable}\"",
    "eval 'newparam(:zz)'",
    "if x then newparam(:zz) end",
    "[:a].each { |n| newparam(n) }",
    "validate do |v| raise 'x' end",
    "defaultvalues",
    "munge { |v| v }",
    "aliasvalue(:zz, :a)",
    "Helper.add(self)",
    "@doc = 'x' if y",
    "def validate(v); end",
    "x = y rescue z",
    "newparam(:zz) if false",
    "<<~EOT\n  newparam(:zz)\nEOT",
    "# newparam(:zz)",
    "=begin\nnewparam(:zz)\n=end",
    "load 'x'",
    "YAML.load(x)",
    "defaultto []",
    "defaultto [:zz]",
    "newvalues %w[a b]",
    "newvalues(*%w[a b])",
    "newvalues :a, /b/",
    "newvalues 'a', \"b\\n\"",
    "desc <<-EOT\n  x #{y}\n  EOT",
    "private",
    "alias_method :a, :b",
    "Puppet::Type.type(:file)",
    "super(x)",
    "super",
    "yield x",
    "x ? newparam(:zz) : y",
    "ensurable do\n  newvalue(:zz)\nend",
    "end",
    "do",
    "{",
    "}",
    "(",
    "newparam(:zz, :parent => Puppet::Parameter::Boolean)",
    "newparam(:zz, namevar: true) { desc 'x' }",
    "newparam(:zz, { :a => 1 })",
    "private def zz; end",
    "a, b = c",
    "A::B = 1",
    "class << self\nend",
    "'a' 'b'",
    "@zz ||= 1",
    "x.y = newparam",
    "newparam = 1",
    "foo do |x| newvalues(x) end.bar",
    "%w[a]",
    "return newvalue",
    "x = [a,\n newvalue]",
];

#[test]
fn damaged_copies_are_skimmed_as_the_tree_reads_them_or_not_at_all() {
    let Some(_) = common::corpus_files() else {
        return;
    };
    let files = with_other_dirs(type_files(common::MODULES));
    let every_line = std::env::var_os("PUPCHECK_RUBY_SKIM_EVERY_LINE").is_some();
    let mut tally = Tally::default();
    for (index, (path, text)) in files.iter().enumerate() {
        let name = name_of(path);
        let lines: Vec<&str> = text.lines().collect();
        // A spread of a dozen lines of each file, so the test stays quick; with
        // PUPCHECK_RUBY_SKIM_EVERY_LINE set, every line of every file, with three
        // insertions each.
        let (step, insertions) = if every_line {
            (1, 3)
        } else {
            (lines.len() / 12 + 1, 1)
        };
        for (at, _) in lines.iter().enumerate().skip(index % step).step_by(step) {
            let without: Vec<&str> = lines
                .iter()
                .enumerate()
                .filter(|(i, _)| *i != at)
                .map(|(_, l)| *l)
                .collect();
            tally.compare(
                &format!("{path} without line {}", at + 1),
                &without.join("\n"),
                name,
            );
            for k in 0..insertions {
                let inserted = INSERTED[(index + at * insertions + k) % INSERTED.len()];
                let mut with = lines.clone();
                with.insert(at, inserted);
                tally.compare(
                    &format!("{path} with {inserted:?} at line {}", at + 1),
                    &with.join("\n"),
                    name,
                );
            }
        }
    }
    assert!(tally.problems.is_empty(), "{}", tally.problems.join("\n"));
    eprintln!(
        "{} damaged copies: {} known from the tree, {} skimmed, {} skimmed where the tree \
         finds a syntax error",
        tally.compared, tally.read, tally.skimmed, tally.unchecked_syntax_errors
    );
}

#[test]
fn hostile_nesting_and_random_text_end_in_an_answer() {
    // Deeper than the skimmer reads: it gives up, and the tree decides.
    let deep_blocks = format!(
        "Puppet::Type.newtype(:t) do\n{}{}end\n",
        "x do\n".repeat(20_000),
        "end\n".repeat(20_000)
    );
    assert_eq!(read_skimmed(&deep_blocks, "t"), None);
    let deep_strings = format!("x = {}{}\n", "\"#{".repeat(5_000), "}\"".repeat(5_000));
    assert_eq!(read_skimmed(&deep_strings, "t"), None);
    // Cut anywhere, a real type file is skimmed or given up on, never a panic.
    let text = "Puppet::Type.newtype(:t) do\n  @doc = <<-EOT\n    x #{y}\n  EOT\n  ensurable\n\
        newparam(:name, namevar: true) { desc 'n' }\n  newproperty(:v) do\n    newvalues(:a, /b/)\n\
        validate do |v|\n      raise \"bad #{v}\" unless v =~ %r{^\\d+$} && ?a\n    rescue X => e\n    end\n  end\nend\n";
    for end in 0..=text.len() {
        if text.is_char_boundary(end) {
            let _ = read_skimmed(&text[..end], "t");
            let _ = read_skimmed(&text[end..], "t");
        }
    }
}

proptest::proptest! {
    /// Random text of Ruby's punctuation and words never makes the skimmer panic.
    #[test]
    fn random_ruby_like_text_never_panics(
        parts in proptest::collection::vec(
            proptest::sample::select(vec![
                "newparam", "ensurable", " ", "\n", "do", "end", "{", "}", "(", ")", "[", "]",
                ":", "::", "?", "'", "\"", "#{", "/", "%w[", "<<~EOT\n", "EOT", "|", ",", "=",
                "x", "X", "@x", "$1", "\\", "#", "=>", "def", "if", "rescue", ".", "é",
            ]),
            0..60,
        )
    ) {
        let text: String = parts.concat();
        let _ = read_skimmed(&text, "t");
    }
}

//! Completion of attribute names inside a resource declaration (`ntp::peer { 'x': | }`,
//! `class { 'ntp': | }`, `File { | }`): the parameters of the class or defined type,
//! or the attributes of the resource type, that the body does not give yet, with
//! their types. The place is read from the text, not the syntax tree: while a name is
//! being typed the code does not parse.

/// The resource body the cursor is in, at a place where an attribute name goes.
#[derive(Debug, PartialEq, Eq)]
pub struct ResourceBody {
    /// As written before `{` (`ntp::peer`, `class`, `File`).
    pub type_name: String,
    /// The title, for `class { 'name': }` (quotes removed).
    pub title: Option<String>,
    /// The attributes the body already gives.
    pub given: Vec<String>,
}

/// Words that open a block that is not a resource body.
const KEYWORDS: &[&str] = &[
    "if", "elsif", "else", "unless", "case", "node", "define", "function", "plan", "type",
    "inherits", "default", "and", "or", "in",
];

/// What starts at `i` of text read up to `end`: code, or a comment or string to pass
/// over whole (the scanners here read the text, not a syntax tree: it does not parse
/// while a name is typed).
enum Lexeme {
    Code,
    /// A comment (to its line's end, or past `*/`) or a string closed before `end`:
    /// where the code after it starts.
    Past(usize),
    /// A string still open at `end`.
    OpenString,
}

fn lexeme_at(bytes: &[u8], i: usize, end: usize) -> Lexeme {
    match bytes[i] {
        b'#' => Lexeme::Past(
            bytes[i..end]
                .iter()
                .position(|&b| b == b'\n')
                .map_or(end, |n| i + n),
        ),
        b'/' if bytes.get(i + 1) == Some(&b'*') => {
            let close = bytes[(i + 2).min(end)..end]
                .windows(2)
                .position(|w| w == b"*/");
            Lexeme::Past(close.map_or(end, |n| i + 2 + n + 2))
        }
        quote @ (b'\'' | b'"') => {
            let mut at = i + 1;
            while at < end && bytes[at] != quote {
                at += usize::from(bytes[at] == b'\\') + 1;
            }
            if at >= end {
                Lexeme::OpenString
            } else {
                Lexeme::Past(at + 1)
            }
        }
        _ => Lexeme::Code,
    }
}

/// One `{` still open at the cursor: where it is, and the separators at its depth.
struct Frame {
    open: u8,
    at: usize,
    /// `;`, `,`, `:` (a title's, not `::`), `>` (of `=>`, `+>`), with their offsets.
    separators: Vec<(u8, usize)>,
}

/// The resource body at `offset` of `text`, if the cursor is where an attribute name
/// is written.
pub fn resource_body(text: &str, offset: usize) -> Option<ResourceBody> {
    let bytes = text.as_bytes();
    let end = offset.min(bytes.len());
    let mut frames: Vec<Frame> = vec![Frame {
        open: 0,
        at: 0,
        separators: Vec::new(),
    }];
    let mut i = 0;
    while i < end {
        let c = bytes[i];
        match lexeme_at(bytes, i, end) {
            Lexeme::Past(next) => {
                i = next;
                continue;
            }
            // The cursor is inside a string.
            Lexeme::OpenString => return None,
            Lexeme::Code => {}
        }
        match c {
            b'{' | b'[' | b'(' => frames.push(Frame {
                open: c,
                at: i,
                separators: Vec::new(),
            }),
            b'}' | b']' | b')' if frames.len() > 1 => {
                frames.pop();
            }
            b';' | b',' => frames.last_mut()?.separators.push((c, i)),
            b':' => {
                let double = bytes.get(i + 1) == Some(&b':') || (i > 0 && bytes[i - 1] == b':');
                if !double {
                    frames.last_mut()?.separators.push((c, i));
                }
            }
            b'>' if i > 0 && matches!(bytes[i - 1], b'=' | b'+') => {
                frames.last_mut()?.separators.push((b'>', i));
            }
            _ => {}
        }
        i += 1;
    }
    let frame = frames.pop().filter(|f| f.open == b'{')?;
    let before = text[..frame.at].trim_end();
    let word_start = before
        .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
        .map_or(0, |i| i + 1);
    let type_name = &before[word_start..];
    let ahead = before[..word_start].trim_end_matches('@').trim_end();
    let first = type_name.chars().next()?;
    let previous_word = ahead
        .rsplit(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .next()
        .unwrap_or_default();
    // A statement ending on an earlier line (`$x = 1`, `include foo`, `notice('x')`)
    // ends where the next line starts a declaration; a keyword (`if b {`) or an
    // operator left open (`$a ==\n b {`) does not end one.
    let gap = &text[ahead.len()..word_start];
    let after_a_statement = gap.contains('\n')
        && ahead.ends_with(|c: char| {
            c.is_ascii_alphanumeric() || matches!(c, '_' | ')' | ']' | '\'' | '"')
        })
        && !KEYWORDS.contains(&previous_word)
        && !["not", "unless", "if", "elsif"].contains(&previous_word);
    if !first.is_ascii_alphabetic()
        || KEYWORDS.contains(&type_name)
        || ahead.ends_with('$')
        || ["class", "define", "inherits", "node", "type"].contains(&previous_word)
        || !(ahead.is_empty()
            || after_a_statement
            || ahead.ends_with(['}', ';', '{'])
            || ahead.ends_with("->")
            || ahead.ends_with("~>"))
    {
        return None;
    }
    // The body the cursor is in: after the last `;` of the expression.
    let body_start = frame
        .separators
        .iter()
        .rev()
        .find(|(c, _)| *c == b';')
        .map_or(frame.at + 1, |&(_, at)| at + 1);
    let separators: Vec<&(u8, usize)> = frame
        .separators
        .iter()
        .filter(|(_, at)| *at >= body_start)
        .collect();
    let defaults = first.is_ascii_uppercase();
    let (title, attributes_start) = if defaults {
        (None, body_start)
    } else {
        let &&(_, colon) = separators.iter().find(|(c, _)| *c == b':')?;
        let title = text[body_start..colon].trim();
        let title = title
            .strip_prefix(['\'', '"'])
            .and_then(|t| t.strip_suffix(['\'', '"']))
            .unwrap_or(title);
        (Some(title.to_string()), colon + 1)
    };
    // The attributes written so far, and whether the cursor is after an `=>` (at a
    // value, not a name).
    let mut given = Vec::new();
    let mut chunk_start = attributes_start;
    for &&(c, at) in &separators {
        if at < attributes_start || c != b',' {
            continue;
        }
        if let Some(arrow) = text[chunk_start..at].find(['=', '+']) {
            given.push(text[chunk_start..chunk_start + arrow].trim().to_string());
        }
        chunk_start = at + 1;
    }
    if separators
        .iter()
        .any(|&&(c, at)| c == b'>' && at >= chunk_start)
    {
        return None;
    }
    let typed = text[chunk_start..end].trim();
    if !typed.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return None;
    }
    given.extend(attributes_after(text, end));
    Some(ResourceBody {
        type_name: type_name.to_string(),
        title,
        given,
    })
}

/// The attributes a body gives after the cursor, up to its end (`}`, or the `;` before
/// the next body): the names before `=>` or `+>` at the body's own depth.
fn attributes_after(text: &str, from: usize) -> Vec<String> {
    let bytes = text.as_bytes();
    let mut names = Vec::new();
    let mut depth = 0usize;
    // Where the attribute being read starts (after the cursor's word, or a comma).
    let mut chunk = text[from..]
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .map_or(text.len(), |n| from + n);
    let mut i = chunk;
    while i < bytes.len() {
        let c = bytes[i];
        match lexeme_at(bytes, i, bytes.len()) {
            Lexeme::Past(next) => {
                i = next;
                continue;
            }
            Lexeme::OpenString => break,
            Lexeme::Code => {}
        }
        match c {
            b'{' | b'[' | b'(' => depth += 1,
            b'}' | b']' | b')' if depth > 0 => depth -= 1,
            b'}' | b']' | b')' | b';' => break,
            b',' if depth == 0 => chunk = i + 1,
            b'>' if depth == 0 && i > 0 && matches!(bytes[i - 1], b'=' | b'+') => {
                let name = text[chunk..i - 1].trim();
                if !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                    names.push(name.to_string());
                }
            }
            _ => {}
        }
        i += 1;
    }
    names
}

/// The function call the cursor is in the arguments of (`notice(|`, `lookup('a', |`,
/// `$x.join(|`): its name as written and which argument the cursor is at.
pub fn call_at(text: &str, offset: usize) -> Option<(String, u32)> {
    let bytes = text.as_bytes();
    let end = offset.min(bytes.len());
    // Each bracket still open: `(` with the name before it, and its commas so far.
    let mut open: Vec<(u8, Option<String>, u32)> = Vec::new();
    let mut i = 0;
    while i < end {
        let c = bytes[i];
        match lexeme_at(bytes, i, end) {
            Lexeme::Past(next) => {
                i = next;
                continue;
            }
            // Writing a string argument (`lookup('a::|`): the argument it is.
            Lexeme::OpenString => break,
            Lexeme::Code => {}
        }
        match c {
            b'(' => {
                let before = text[..i].trim_end();
                let start = before
                    .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
                    .map_or(0, |at| at + 1);
                let name = &before[start..];
                let is_name = name.starts_with(|c: char| c.is_ascii_lowercase() || c == ':')
                    && !KEYWORDS.contains(&name);
                open.push((c, is_name.then(|| name.to_string()), 0));
            }
            b'[' | b'{' => open.push((c, None, 0)),
            b')' | b']' | b'}' => {
                open.pop();
            }
            b',' => {
                if let Some(frame) = open.last_mut() {
                    frame.2 += 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    let (_, name, commas) = open.pop().filter(|(c, _, _)| *c == b'(')?;
    Some((name?, commas))
}

/// Where a class name is being written (`include ntp::`, `contain 'ntp`, `class { 'ntp`,
/// `Class['ntp`): the part written so far, lower case, without a leading `::`.
pub fn class_name_prefix(text: &str, offset: usize) -> Option<String> {
    static PLACE: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(
            r#"(?:\b(?:include|contain|require)\s*\(?\s*['"]?|\bclass\s*\{\s*['"]|\bClass\[\s*['"]?)((?:::)?[A-Za-z0-9_:]*)$"#,
        )
        .expect("a valid pattern")
    });
    let line_start = text[..offset.min(text.len())]
        .rfind('\n')
        .map_or(0, |i| i + 1);
    let before = text.get(line_start..offset)?;
    let written = PLACE.captures(before)?.get(1)?.as_str();
    Some(written.trim_start_matches("::").to_ascii_lowercase())
}

/// The classes the modules at `folders` define where Puppet autoloads them
/// (`manifests/init.pp` is the module's class, `manifests/a/b.pp` `module::a::b`), by
/// their files' names: what `include` can name without reading a file.
pub fn autoloaded_classes(modules: &[(String, std::path::PathBuf)]) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = modules
        .iter()
        .flat_map(|(module, folder)| {
            autoloaded(&folder.join("manifests"), &["pp"])
                .into_iter()
                .map(move |name| match name.as_str() {
                    "init" => (module.clone(), module.clone()),
                    _ => (format!("{module}::{name}"), module.clone()),
                })
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

/// The names of the files under `root` with one of `extensions`, as Puppet's
/// autoloader names them (`a/b.rb` is `a::b`).
pub fn autoloaded(root: &std::path::Path, extensions: &[&str]) -> Vec<String> {
    if !root.is_dir() {
        return Vec::new();
    }
    let walk = ignore::WalkBuilder::new(root)
        .standard_filters(false)
        .max_depth(Some(8))
        .build();
    walk.flatten()
        .filter(|entry| {
            entry
                .path()
                .extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| extensions.contains(&e))
        })
        .filter_map(|entry| {
            let relative = entry.path().with_extension("");
            let relative = relative.strip_prefix(root).ok()?;
            let parts: Vec<&str> = relative
                .components()
                .map(|c| c.as_os_str().to_str())
                .collect::<Option<_>>()?;
            Some(parts.join("::"))
        })
        .collect()
}

/// What is being written at the cursor, for the completions of names: variables,
/// facts, Hiera keys, functions and resource types.
#[derive(Debug, PartialEq, Eq)]
pub enum Place {
    /// `$na`, `"${na`: the variable's name so far (without `$`).
    Variable(String),
    /// `$facts['os']['fa`: the keys above and the key so far.
    Fact { path: Vec<String>, prefix: String },
    /// `lookup('ntp::se`: the key so far.
    HieraKey(String),
    /// A bare name (`fil`, `ntp::pe`): a function or a resource type.
    Name(String),
    /// A name after `.` (`$x.ea`): a function called as a method.
    Method(String),
}

/// Where the cursor is: in code, in a comment, or in a string opened at `start`.
enum Inside {
    Code,
    Comment,
    String { quote: u8, start: usize },
}

fn inside_at(bytes: &[u8], end: usize) -> Inside {
    let mut i = 0;
    while i < end {
        match lexeme_at(bytes, i, end) {
            Lexeme::Past(next) => {
                let open_to_the_end = next >= end
                    && match bytes[i] {
                        b'#' => !bytes[i..end].contains(&b'\n'),
                        b'/' => !bytes[(i + 2).min(end)..end].windows(2).any(|w| w == b"*/"),
                        _ => false,
                    };
                if open_to_the_end {
                    return Inside::Comment;
                }
                i = next;
            }
            Lexeme::OpenString => {
                return Inside::String {
                    quote: bytes[i],
                    start: i,
                }
            }
            Lexeme::Code => i += 1,
        }
    }
    Inside::Code
}

fn pattern(text: &'static str) -> regex::Regex {
    regex::Regex::new(text).expect("a valid pattern")
}

/// The place at `offset` of `text` where a name is being written, if any.
pub fn place_at(text: &str, offset: usize) -> Option<Place> {
    use std::sync::LazyLock;
    static LOOKUP: LazyLock<regex::Regex> = LazyLock::new(|| pattern(r"\blookup\s*\(\s*$"));
    static FACTS: LazyLock<regex::Regex> =
        LazyLock::new(|| pattern(r#"\$(?:::)?facts((?:\[\s*['"][^'"\]]*['"]\s*\])*)\[\s*$"#));
    static FACT_KEY: LazyLock<regex::Regex> =
        LazyLock::new(|| pattern(r#"\[\s*['"]([^'"\]]*)['"]\s*\]"#));
    static VARIABLE: LazyLock<regex::Regex> =
        LazyLock::new(|| pattern(r"\$\{?((?:::)?[a-z0-9_]*(?:::[a-z0-9_]*)*)$"));
    static METHOD: LazyLock<regex::Regex> =
        LazyLock::new(|| pattern(r#"([\w\]\)'"]+)\.([a-z][a-z0-9_]*)?$"#));
    static NAME: LazyLock<regex::Regex> = LazyLock::new(|| {
        pattern(r#"(?:^|[^\w$:.'"@<|])((?:::)?[a-z][a-z0-9_]*(?:::[a-z0-9_]*)*)$"#)
    });
    let end = offset.min(text.len());
    if !text.is_char_boundary(end) {
        return None;
    }
    match inside_at(text.as_bytes(), end) {
        Inside::Comment => None,
        Inside::String { quote, start } => {
            let written = &text[start + 1..end];
            let is_key = written
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':');
            let before = &text[..start];
            if is_key && LOOKUP.is_match(before) {
                return Some(Place::HieraKey(written.to_string()));
            }
            if let Some(found) = FACTS.captures(before).filter(|_| is_key) {
                let path = FACT_KEY
                    .captures_iter(&found[1])
                    .map(|c| c[1].to_string())
                    .collect();
                return Some(Place::Fact {
                    path,
                    prefix: written.to_string(),
                });
            }
            // A variable interpolated into a double-quoted string.
            let variable = VARIABLE.captures(written).filter(|_| quote == b'"')?;
            Some(Place::Variable(variable[1].to_string()))
        }
        Inside::Code => {
            let line_start = text[..end].rfind('\n').map_or(0, |i| i + 1);
            let line = &text[line_start..end];
            if let Some(variable) = VARIABLE.captures(line) {
                return Some(Place::Variable(variable[1].to_string()));
            }
            if let Some(method) = METHOD.captures(line) {
                // `1.5` is a number, not a call.
                if !method[1].bytes().all(|b| b.is_ascii_digit()) {
                    let name = method.get(2).map_or("", |m| m.as_str());
                    return Some(Place::Method(name.to_string()));
                }
            }
            let name = NAME.captures(line)?;
            Some(Place::Name(name[1].to_string()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at_cursor(text: &str) -> Option<ResourceBody> {
        let offset = text.find('|').unwrap();
        let text = text.replacen('|', "", 1);
        resource_body(&text, offset)
    }

    #[test]
    fn finds_the_body_and_what_it_gives() {
        let body = at_cursor("ntp::peer { 'a':\n  port => 1,\n  ke|\n}\n").unwrap();
        assert_eq!(body.type_name, "ntp::peer");
        assert_eq!(body.title.as_deref(), Some("a"));
        assert_eq!(body.given, ["port"]);
        let class = at_cursor("class { 'ntp::server': |").unwrap();
        assert_eq!(class.type_name, "class");
        assert_eq!(class.title.as_deref(), Some("ntp::server"));
        let defaults = at_cursor("File { |").unwrap();
        assert_eq!(defaults.title, None);
        let second = at_cursor("file { 'a': mode => '0644'; 'b': own|").unwrap();
        assert_eq!(second.title.as_deref(), Some("b"));
        assert!(second.given.is_empty());
    }

    #[test]
    fn after_a_statement_that_ends_a_line() {
        let after_assignment = at_cursor("$x = 1\nclass { 'demo': | }\n").unwrap();
        assert_eq!(after_assignment.title.as_deref(), Some("demo"));
        let after_include = at_cursor("include foo\nfile { '/x': | }\n").unwrap();
        assert_eq!(after_include.type_name, "file");
        let after_call = at_cursor("notice('x')\nfile { '/x': | }\n").unwrap();
        assert_eq!(after_call.type_name, "file");
        assert_eq!(at_cursor("if\n  b { |"), None);
        assert_eq!(at_cursor("if $a and\n  b { |"), None);
    }

    #[test]
    fn what_the_body_gives_after_the_cursor() {
        let body = at_cursor(
            "class { 'demo':\n  po|\n  motd_lines => ['a', 'b'],\n  port => 1,\n}\nfile { 'x': mode => 1 }",
        )
        .unwrap();
        assert_eq!(body.given, ["motd_lines", "port"]);
        let next_body = at_cursor("file { 'a': | ; 'b': mode => '0644' }").unwrap();
        assert!(next_body.given.is_empty());
    }

    #[test]
    fn the_call_and_argument_at_the_cursor() {
        let at = |text: &str| {
            let offset = text.find('|').unwrap();
            call_at(&text.replacen('|', "", 1), offset)
        };
        assert_eq!(at("notice(|"), Some(("notice".into(), 0)));
        assert_eq!(
            at("$v = lookup('a::b', Array[String, 1], |"),
            Some(("lookup".into(), 2))
        );
        assert_eq!(at("$x.join(', ', |"), Some(("join".into(), 1)));
        assert_eq!(at("if ($a and |"), None);
        assert_eq!(at("notice('a|"), Some(("notice".into(), 0)));
        assert_eq!(at("notice('a(|"), Some(("notice".into(), 0)));
        assert_eq!(at("lookup('a', \"${b}|"), Some(("lookup".into(), 1)));
        assert_eq!(at("notice('a') |"), None);
    }

    #[test]
    fn where_a_class_name_is_written() {
        let at = |text: &str| {
            let offset = text.find('|').unwrap();
            class_name_prefix(&text.replacen('|', "", 1), offset)
        };
        assert_eq!(at("  include ntp::|").as_deref(), Some("ntp::"));
        assert_eq!(at("contain '::Ntp|'").as_deref(), Some("ntp"));
        assert_eq!(at("class { 'ap|").as_deref(), Some("ap"));
        assert_eq!(at("  require => Class['ap|").as_deref(), Some("ap"));
        assert_eq!(at("include(|").as_deref(), Some(""));
        assert_eq!(at("file { 'a|"), None);
        assert_eq!(at("$included = |"), None);
    }

    #[test]
    fn not_at_a_value_nor_outside_a_resource() {
        assert_eq!(at_cursor("file { 'a': mode => |"), None);
        assert_eq!(at_cursor("file { 'a': content => \"x|"), None);
        assert_eq!(at_cursor("file { 'a|"), None);
        assert_eq!(at_cursor("class ntp { |"), None);
        assert_eq!(at_cursor("class ntp (String $a) { |"), None);
        assert_eq!(at_cursor("if $a { |"), None);
        assert_eq!(at_cursor("case $a { 'x': |"), None);
        assert_eq!(at_cursor("$h = { 'a' => 1, |"), None);
        assert_eq!(at_cursor("file { 'a': mode => [1, |"), None);
    }

    #[test]
    fn what_name_is_being_written() {
        let at = |text: &str| place_at(text, text.len());
        assert_eq!(at("  $po"), Some(Place::Variable("po".into())));
        assert_eq!(at("  $ntp::se"), Some(Place::Variable("ntp::se".into())));
        assert_eq!(at("  \"${po"), Some(Place::Variable("po".into())));
        assert_eq!(at("  '$po"), None);
        assert_eq!(
            at("if $facts['os']['fa"),
            Some(Place::Fact {
                path: vec!["os".into()],
                prefix: "fa".into()
            })
        );
        assert_eq!(
            at("$facts[\""),
            Some(Place::Fact {
                path: vec![],
                prefix: String::new()
            })
        );
        assert_eq!(
            at("$x = lookup('ntp::"),
            Some(Place::HieraKey("ntp::".into()))
        );
        assert_eq!(at("  fil"), Some(Place::Name("fil".into())));
        assert_eq!(at("  $x.ea"), Some(Place::Method("ea".into())));
        assert_eq!(at("  [1].ea"), Some(Place::Method("ea".into())));
        assert_eq!(at("  $x = 1.5"), None);
        assert_eq!(at("  # fil"), None);
        assert_eq!(at("  /* fil"), None);
        assert_eq!(at("  /* x */ fil"), Some(Place::Name("fil".into())));
        assert_eq!(at("  'fil"), None);
        assert_eq!(at("  File"), None);
    }
}

//! A module's functions written in Ruby with Puppet's 4.x API
//! (`lib/puppet/functions/<mod>/<name>.rb`), read as text, never run: the `dispatch`
//! blocks of `Puppet::Functions.create_function(:'mod::name')`, each statement one of
//! `param`, `required_param`, `optional_param`, `repeated_param`,
//! `optional_repeated_param`, `required_repeated_param`, `block_param`,
//! `optional_block_param` and `return_type` with literal arguments, and its
//! `local_types` block (`type 'Name = Body'` statements). A function with anything
//! else in those blocks, or no dispatch at all (Puppet then takes any arguments its
//! Ruby method does) is unknown.

/// A function's dispatches as written, in order (the types still text).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RubyFunction {
    pub dispatches: Vec<RubyDispatch>,
    /// The aliases of its `local_types` block, as (name, body), in order: its
    /// dispatches' types may name them.
    #[serde(default)]
    pub local_types: Vec<(String, String)>,
}

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RubyDispatch {
    pub params: Vec<RubyParam>,
    /// The block's type (`None`: a bare `Callable`), its name, whether optional.
    pub block: Option<(Option<String>, String, bool)>,
    pub returns: Option<String>,
    /// An `argument_mismatch` block: taken only to raise an error of its own.
    pub mismatch_handler: bool,
}

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RubyParam {
    pub type_text: String,
    pub name: String,
    pub kind: ParamKind,
}

#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum ParamKind {
    Required,
    Optional,
    /// Any number, maybe none.
    Repeated,
    /// At least one.
    RequiredRepeated,
}

/// The arity a 3.x function `name` declares in its file
/// (`newfunction(:name, :type => :rvalue, :arity => 2)`; a negative one counts the
/// required arguments of a function taking more, as Puppet's does); `None` when it
/// declares none (any number of arguments) or the reader is not sure of the file.
pub fn read_legacy_arity(text: &str, name: &str) -> Option<i64> {
    let code: String = text
        .lines()
        .map(strip_comment)
        .collect::<Vec<_>>()
        .join("\n");
    let starts: Vec<usize> = code.match_indices("newfunction").map(|(i, _)| i).collect();
    let [start] = starts.as_slice() else {
        return None;
    };
    let rest = code[*start + "newfunction".len()..].trim_start();
    let rest = rest.strip_prefix('(')?.trim_start();
    let named = [
        format!(":{name}"),
        format!("'{name}'"),
        format!("\"{name}\""),
    ];
    let after_name = named.iter().find_map(|n| rest.strip_prefix(n.as_str()))?;
    if after_name.starts_with(|c: char| c.is_alphanumeric() || c == '_') {
        return None;
    }
    // The options, up to the block.
    let options = &after_name[..after_name.find(" do").unwrap_or(after_name.len())];
    let options = &options[..options.find('{').unwrap_or(options.len())];
    static ARITY: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let arity = ARITY
        .get_or_init(|| {
            regex::Regex::new(r"(?-u)(?::arity\s*=>|\barity:)\s*(-?\d+)").expect("a valid pattern")
        })
        .captures(options)?;
    arity[1].parse().ok()
}

/// Reads the function `name` from the text of its file; `None` when it is not one the
/// reader is sure of.
pub fn read_function(text: &str, name: &str) -> Option<RubyFunction> {
    let lines: Vec<&str> = text.lines().map(strip_comment).collect();
    let declares = lines.iter().any(|l| {
        l.contains("create_function(")
            && (l.contains(&format!(":'{name}'"))
                || l.contains(&format!(":\"{name}\""))
                || l.contains(&format!(":{name})")))
    });
    if !declares {
        return None;
    }
    let mut dispatches = Vec::new();
    let mut local_types = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let trimmed = line.trim_start();
        if trimmed.starts_with("local_types") {
            i = read_local_types(&lines, i, &mut local_types)?;
            continue;
        }
        let handler = trimmed.starts_with("argument_mismatch ");
        if !(trimmed.starts_with("dispatch ") || handler) {
            i += 1;
            continue;
        }
        if !trimmed.trim_end().ends_with(" do") {
            return None;
        }
        let mut dispatch = RubyDispatch {
            params: Vec::new(),
            block: None,
            returns: None,
            mismatch_handler: handler,
        };
        let (statements, after) = block(&lines, i)?;
        for statement in statements {
            read_statement(statement, &mut dispatch)?;
        }
        i = after;
        dispatches.push(dispatch);
    }
    (!dispatches.is_empty()).then_some(RubyFunction {
        dispatches,
        local_types,
    })
}

/// The `local_types do ... end` block starting at line `start`: each statement a
/// `type 'Name = Body'` with a literal string. Gives the line after the block.
fn read_local_types(
    lines: &[&str],
    start: usize,
    types: &mut Vec<(String, String)>,
) -> Option<usize> {
    if lines[start].trim() != "local_types do" {
        return None;
    }
    let (statements, after) = block(lines, start)?;
    for statement in statements {
        let rest = statement.strip_prefix("type")?;
        let rest = rest.trim().trim_start_matches('(').trim_end_matches(')');
        let args = arguments(rest)?;
        let [Arg::Text(text)] = args.as_slice() else {
            return None;
        };
        let (name, body) = text.split_once('=')?;
        types.push((name.trim().to_string(), body.trim().to_string()));
    }
    Some(after)
}

/// The statements of the `... do` block opened at line `start`, blank lines left out,
/// up to the `end` at the opener's indent; and the line after that `end`. `None` when
/// the file ends first.
fn block<'t>(lines: &[&'t str], start: usize) -> Option<(Vec<&'t str>, usize)> {
    let indent = lines[start].len() - lines[start].trim_start().len();
    let mut statements = Vec::new();
    for (i, inner) in lines.iter().enumerate().skip(start + 1) {
        let statement = inner.trim();
        if statement == "end" && inner.len() - inner.trim_start().len() == indent {
            return Some((statements, i + 1));
        }
        if !statement.is_empty() {
            statements.push(statement);
        }
    }
    None
}

/// A line without its `# comment` (a `#` outside quotes).
pub(crate) fn strip_comment(line: &str) -> &str {
    let mut quote = None;
    for (i, c) in line.char_indices() {
        match (quote, c) {
            (None, '#') => return &line[..i],
            (None, '\'' | '"') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            _ => {}
        }
    }
    line
}

/// One statement of a dispatch block.
fn read_statement(statement: &str, dispatch: &mut RubyDispatch) -> Option<()> {
    let (keyword, rest) = statement.split_once([' ', '(']).unwrap_or((statement, ""));
    let rest = rest.trim().trim_end_matches(')').trim();
    let args = arguments(rest)?;
    let param_kind = match keyword {
        "param" | "required_param" => Some(ParamKind::Required),
        "optional_param" => Some(ParamKind::Optional),
        "repeated_param" | "optional_repeated_param" => Some(ParamKind::Repeated),
        "required_repeated_param" => Some(ParamKind::RequiredRepeated),
        _ => None,
    };
    match (keyword, param_kind, args.as_slice()) {
        (_, Some(kind), [Arg::Text(type_text), Arg::Symbol(name)]) => {
            dispatch.params.push(RubyParam {
                type_text: type_text.clone(),
                name: name.clone(),
                kind,
            })
        }
        ("block_param" | "optional_block_param", None, args) => {
            let optional = keyword == "optional_block_param";
            let block = match args {
                [] => (None, "block".to_string(), optional),
                [Arg::Symbol(name)] => (None, name.clone(), optional),
                [Arg::Text(ty), Arg::Symbol(name)] => (Some(ty.clone()), name.clone(), optional),
                _ => return None,
            };
            dispatch.block = Some(block);
        }
        ("return_type", None, [Arg::Text(type_text)]) => dispatch.returns = Some(type_text.clone()),
        _ => return None,
    }
    Some(())
}

enum Arg {
    Text(String),
    Symbol(String),
}

/// `'Type', :name` and the like: literal strings (no interpolation) and symbols.
fn arguments(text: &str) -> Option<Vec<Arg>> {
    let mut args = Vec::new();
    let mut rest = text.trim();
    while !rest.is_empty() {
        if let Some(symbol) = rest.strip_prefix(':') {
            let end = symbol
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(symbol.len());
            if end == 0 {
                return None;
            }
            args.push(Arg::Symbol(symbol[..end].to_string()));
            rest = &symbol[end..];
        } else {
            let quote = rest.chars().next()?;
            if quote != '\'' && quote != '"' {
                return None;
            }
            let body = &rest[1..];
            let end = body.find(quote)?;
            let text = &body[..end];
            if text.contains('\\') || (quote == '"' && text.contains("#{")) {
                return None;
            }
            args.push(Arg::Text(text.to_string()));
            rest = &body[end + 1..];
        }
        rest = rest.trim_start();
        if let Some(after) = rest.strip_prefix(',') {
            rest = after.trim_start();
        } else if !rest.is_empty() {
            return None;
        }
    }
    Some(args)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_types_are_read_and_anything_else_there_makes_the_function_unknown() {
        let text = "\
Puppet::Functions.create_function(:'site::cron') do
  local_types do
    type \"Algorithm = Enum['crc32', 'sha256']\"
    type 'Seeds = Array[Algorithm, 1]'
  end
  dispatch :cron do
    param 'Seeds', :seeds
  end
end
";
        let f = read_function(text, "site::cron").expect("read");
        assert_eq!(
            f.local_types,
            [
                (
                    "Algorithm".to_string(),
                    "Enum['crc32', 'sha256']".to_string()
                ),
                ("Seeds".to_string(), "Array[Algorithm, 1]".to_string()),
            ]
        );
        let computed = text.replace(
            "    type 'Seeds = Array[Algorithm, 1]'",
            "    type \"Seeds = #{base}\"",
        );
        assert_eq!(read_function(&computed, "site::cron"), None);
    }

    #[test]
    fn dispatches_are_read_in_order_with_their_parameters() {
        let text = "\
# frozen_string_literal: true
Puppet::Functions.create_function(:'stdlib::merge') do
  dispatch :merge2hashes do
    repeated_param 'Variant[Hash[Scalar,Any], Undef, String[0,0]]', :args # compatible
    return_type 'Hash[Scalar,Any]'
  end

  dispatch :merge_iterable3 do
    repeated_param 'Iterable', :args
    block_param 'Callable[3,3]', :block
  end

  def merge2hashes(*hashes)
    {}
  end
end
";
        let f = read_function(text, "stdlib::merge").expect("read");
        assert_eq!(f.dispatches.len(), 2);
        assert_eq!(
            f.dispatches[0].params[0],
            RubyParam {
                type_text: "Variant[Hash[Scalar,Any], Undef, String[0,0]]".into(),
                name: "args".into(),
                kind: ParamKind::Repeated,
            }
        );
        assert_eq!(f.dispatches[0].returns.as_deref(), Some("Hash[Scalar,Any]"));
        assert_eq!(
            f.dispatches[1].block,
            Some((Some("Callable[3,3]".into()), "block".into(), false))
        );
    }

    #[test]
    fn a_legacy_functions_arity_is_read_from_newfunction() {
        let text = "module Puppet::Parser::Functions\n  newfunction(:pick_two, :type => :rvalue, :arity => 2, :doc => <<-DOC\n  x\n  DOC\n  ) do |args|\n  end\nend\n";
        assert_eq!(read_legacy_arity(text, "pick_two"), Some(2));
        let text =
            "newfunction(:many, type: :rvalue, arity: -2) do |args|\n  x = { :arity => 5 }\nend\n";
        assert_eq!(read_legacy_arity(text, "many"), Some(-2));
        assert_eq!(
            read_legacy_arity("newfunction(:any) do |args|\nend\n", "any"),
            None
        );
        assert_eq!(
            read_legacy_arity("newfunction(:other, :arity => 1) do\nend\n", "any"),
            None
        );
    }

    #[test]
    fn anything_the_reader_is_not_sure_of_makes_the_function_unknown() {
        let wrapped = |body: &str| {
            format!("Puppet::Functions.create_function(:'m::f') do\n  dispatch :f do\n{body}\n  end\nend\n")
        };
        assert!(read_function(&wrapped("    param 'String', :s"), "m::f").is_some());
        assert!(read_function(&wrapped("    param \"#{T}\", :s"), "m::f").is_none());
        assert!(read_function(&wrapped("    param TYPE, :s"), "m::f").is_none());
        assert!(read_function(&wrapped("    param 'String', :s\n    x = 1"), "m::f").is_none());
        assert!(read_function(&wrapped("    param 'String', :s"), "m::g").is_none());
        let no_dispatch = "Puppet::Functions.create_function(:'m::f') do\n  def f(x)\n  end\nend\n";
        assert!(read_function(no_dispatch, "m::f").is_none());
    }
}

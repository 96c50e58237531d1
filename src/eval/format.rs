//! Puppet's string formatting (spec 001 "Creating a String from a value": format
//! strings such as `%#x`, `%.2f`, `%(a`, and format maps `{Type => format}`), used by
//! `String(value, format)` and `sprintf`. Formats pupcheck does not model are
//! [`EvalError::Unsupported`].

use super::budget::MAX_TEXT_BYTES;
use super::{EvalError, R};
use crate::types::instance_of;
use crate::types::value::Value;

/// One `%...` directive.
#[derive(Debug, Clone, Default)]
struct Spec {
    alternate: bool,
    plus: bool,
    space: bool,
    zero: bool,
    left: bool,
    width: Option<usize>,
    precision: Option<usize>,
    /// `(`, `[`, `{`, `<` or `|`: the delimiters of a collection.
    delimiter: Option<char>,
    conversion: char,
}

fn unsupported(what: impl Into<String>) -> EvalError {
    EvalError::Unsupported(what.into())
}

fn parse_spec(text: &str) -> Option<(Spec, usize)> {
    let mut chars = text.char_indices().peekable();
    if chars.next()?.1 != '%' {
        return None;
    }
    let mut spec = Spec::default();
    while let Some(&(_, c)) = chars.peek() {
        match c {
            '#' => spec.alternate = true,
            '+' => spec.plus = true,
            ' ' => spec.space = true,
            '0' => spec.zero = true,
            '-' => spec.left = true,
            '(' | '[' | '{' | '<' | '|' => spec.delimiter = Some(c),
            _ => break,
        }
        chars.next();
    }
    let number = |chars: &mut std::iter::Peekable<std::str::CharIndices>| {
        let mut n: Option<usize> = None;
        while let Some(&(_, c)) = chars.peek() {
            match c.to_digit(10) {
                Some(d) => {
                    n = Some(n.unwrap_or(0).saturating_mul(10).saturating_add(d as usize));
                    chars.next();
                }
                None => break,
            }
        }
        n
    };
    spec.width = number(&mut chars);
    if chars.peek().map(|&(_, c)| c) == Some('.') {
        chars.next();
        spec.precision = Some(number(&mut chars).unwrap_or(0));
    }
    // A width or precision that would build a string past the evaluation budget (or
    // past what Rust's formatter takes, 65,535) is not modelled: the result is known
    // as a String only.
    if spec.width.is_some_and(|w| w > MAX_TEXT_BYTES)
        || spec.precision.is_some_and(|p| p > usize::from(u16::MAX))
    {
        return None;
    }
    let (i, conversion) = chars.next()?;
    spec.conversion = conversion;
    Some((spec, i + conversion.len_utf8()))
}

fn pad(spec: &Spec, body: String) -> String {
    let width = spec.width.unwrap_or(0);
    let len = body.chars().count();
    if len >= width {
        return body;
    }
    let fill = width - len;
    if spec.left {
        format!("{body}{}", " ".repeat(fill))
    } else if spec.zero && !matches!(spec.conversion, 's' | 'p') {
        let (sign, digits) = match body.strip_prefix('-') {
            Some(rest) => ("-", rest.to_string()),
            None => ("", body),
        };
        format!("{sign}{}{digits}", "0".repeat(fill))
    } else {
        format!("{}{body}", " ".repeat(fill))
    }
}

fn sign(spec: &Spec, negative: bool) -> &'static str {
    if negative {
        "-"
    } else if spec.plus {
        "+"
    } else if spec.space {
        " "
    } else {
        ""
    }
}

fn format_integer(spec: &Spec, n: i64) -> R<String> {
    let abs = n.unsigned_abs();
    let digits = match spec.conversion {
        'd' | 'i' | 's' => abs.to_string(),
        'x' => format!("{}{abs:x}", if spec.alternate { "0x" } else { "" }),
        'X' => format!("{}{abs:X}", if spec.alternate { "0X" } else { "" }),
        'o' => format!("{}{abs:o}", if spec.alternate { "0" } else { "" }),
        'b' => format!("{}{abs:b}", if spec.alternate { "0b" } else { "" }),
        'B' => format!("{}{abs:b}", if spec.alternate { "0B" } else { "" }),
        'f' | 'e' | 'g' | 'E' | 'G' => return format_float(spec, n as f64),
        'p' => abs.to_string(),
        c => return Err(unsupported(format!("the %{c} format for an Integer"))),
    };
    Ok(pad(spec, format!("{}{digits}", sign(spec, n < 0))))
}

fn format_float(spec: &Spec, f: f64) -> R<String> {
    let precision = spec.precision.unwrap_or(6);
    let body = match spec.conversion {
        'f' => format!("{:.precision$}", f.abs()),
        'd' | 'i' => (f.trunc().abs() as i64).to_string(),
        c => return Err(unsupported(format!("the %{c} format for a Float"))),
    };
    Ok(pad(spec, format!("{}{body}", sign(spec, f < 0.0))))
}

fn delimiters(spec: &Spec, default: (char, char)) -> (String, String) {
    match spec.delimiter {
        Some('(') => ("(".into(), ")".into()),
        Some('[') => ("[".into(), "]".into()),
        Some('{') => ("{".into(), "}".into()),
        Some('<') => ("<".into(), ">".into()),
        Some('|') => ("|".into(), "|".into()),
        _ => (default.0.to_string(), default.1.to_string()),
    }
}

/// Formats with a format string; `elements` gives formats for a collection's elements.
fn format_with(v: &Value, fmt: &str, elements: Option<&Value>) -> R<String> {
    let Some((spec, used)) = parse_spec(fmt) else {
        return Err(unsupported(format!("the format '{fmt}'")));
    };
    if used != fmt.len() {
        return Err(unsupported(format!("text around the format '{fmt}'")));
    }
    match v {
        Value::Integer(n) => format_integer(&spec, *n),
        Value::Float(f) => format_float(&spec, *f),
        Value::String(s) => match spec.conversion {
            's' => Ok(pad(&spec, s.to_string())),
            'p' => Ok(pad(&spec, v.to_string())),
            c => Err(unsupported(format!("the %{c} format for a String"))),
        },
        Value::Array(items) if matches!(spec.conversion, 'a' | 's' | 'p') => {
            let (open, close) = delimiters(&spec, ('[', ']'));
            let mut parts = Vec::with_capacity(items.len());
            for item in items.iter() {
                parts.push(match elements {
                    Some(formats) => format_value(item, formats)?,
                    None => item.to_string(),
                });
            }
            Ok(format!("{open}{}{close}", parts.join(", ")))
        }
        _ => Err(unsupported(format!("formatting {v} with '{fmt}'"))),
    }
}

/// `String(value, format)`: a format string, or a format map `{Type => format}` where
/// a format is a string or `{format => ..., string_formats => {...}}`. With a map, the
/// first type the value is an instance of decides; no match is the default format.
pub fn format_value(v: &Value, format: &Value) -> R<String> {
    match format {
        Value::String(fmt) => format_with(v, fmt, None),
        Value::Hash(map) => {
            for (key, entry) in map.iter() {
                let Value::Type(t) = key else {
                    return Err(unsupported("a format map with keys that are not types"));
                };
                if !instance_of(v, t) {
                    continue;
                }
                return match entry {
                    Value::String(fmt) => format_with(v, fmt, None),
                    Value::Hash(options) => {
                        let fmt = options.get(&Value::string("format"));
                        let elements = options.get(&Value::string("string_formats"));
                        match fmt {
                            Some(Value::String(fmt)) => format_with(v, fmt, elements),
                            _ => Err(unsupported("a format entry without `format`")),
                        }
                    }
                    _ => Err(unsupported(
                        "a format map entry that is not a string or hash",
                    )),
                };
            }
            Ok(default_string(v))
        }
        _ => Err(EvalError::Failed(format!(
            "a format must be a String or a Hash, got {format}"
        ))),
    }
}

/// `String(value)` without a format.
pub fn default_string(v: &Value) -> String {
    match v {
        Value::Float(f) => format!("{f:.6}"),
        // A Binary's text is its base64 (`String(Binary([104, 105]))` is `aGk=`).
        Value::Binary(_) => crate::types::labels::ruby_to_s(v),
        // A regexp's source, its escaped slashes as plain ones (`String(/a\/b/)` is
        // `a/b`).
        Value::Regexp(r) => r.source.replace("\\/", "/"),
        other => super::query::string_form(other),
    }
}

/// `sprintf(format, args...)`: the format's directives take the arguments in order.
pub fn sprintf(format: &str, args: &[Value]) -> R<String> {
    let mut out = String::new();
    let mut rest = format;
    let mut next = args.iter();
    while let Some(i) = rest.find('%') {
        out.push_str(&rest[..i]);
        rest = &rest[i..];
        if let Some(after) = rest.strip_prefix("%%") {
            out.push('%');
            rest = after;
            continue;
        }
        let Some((_, used)) = parse_spec(rest) else {
            return Err(unsupported(format!("the format '{format}'")));
        };
        let arg = next
            .next()
            // Ruby's `format` error; the call adds that `sprintf` raised it.
            .ok_or_else(|| EvalError::Failed("too few arguments".into()))?;
        out.push_str(&format_with(arg, &rest[..used], None)?);
        rest = &rest[used..];
        if out.len() > MAX_TEXT_BYTES {
            return Err(unsupported("a formatted string past the evaluation budget"));
        }
    }
    out.push_str(rest);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_and_float_directives() {
        // spec 001 "String formats": %#x, %o, %b with the alternate flag, %f precision.
        let f = |v: Value, fmt: &str| format_value(&v, &Value::string(fmt)).unwrap();
        assert_eq!(f(Value::Integer(10), "%#x"), "0xa");
        assert_eq!(f(Value::Integer(-10), "%5d"), "  -10");
        assert_eq!(f(Value::Integer(5), "%#b"), "0b101");
        assert_eq!(f(Value::Float(1.23456), "%.2f"), "1.23");
        assert_eq!(
            sprintf("%d items, %s", &[Value::Integer(2), Value::string("ok")]).unwrap(),
            "2 items, ok"
        );
    }

    #[test]
    fn collections_take_their_delimiters_from_the_flag() {
        let v = Value::array(vec![Value::Integer(1), Value::Integer(2)]);
        assert_eq!(format_value(&v, &Value::string("%(a")).unwrap(), "(1, 2)");
    }
}

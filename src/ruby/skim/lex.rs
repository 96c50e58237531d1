//! The skimmer's tokens: Ruby's lexical grammar for the text a type file is made of,
//! giving up ([`Unsure`]) wherever Ruby decides by context the skimmer does not keep.
//! Ruby reads `foo /x/` as a regexp given to `foo` unless `foo` is a local variable, and
//! `foo [1]`, `foo -1`, `foo *a` alike; `?a` is a character; `=begin` opens a comment;
//! `a ? b :c` hides a symbol or a colon. On those the whole file goes to tree-sitter.

use super::Unsure;

/// What a token is. Keywords carry their word; punctuation its characters.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Tok {
    Ident,
    Const,
    /// `@x`, `@@x`, `$x`: `kind` tells which.
    Var(&'static str),
    /// `name:` in a hash or an argument list.
    Label,
    /// `:name`.
    Symbol,
    /// `:"name"`, `:'name'`.
    DSymbol,
    /// `'..'`, `".."`, `%q(..)`, `%Q(..)`, `%(..)`.
    Str,
    /// `` `..` ``, `%x(..)`.
    Command,
    /// `<<~EOT` and the like (its body is skipped with the line that opens it).
    Heredoc,
    Regex,
    Number,
    /// `%w[..]`, `%i[..]`.
    Words,
    Keyword(&'static str),
    Punct(&'static str),
    Newline,
}

#[derive(Clone, Copy, Debug)]
pub struct Token {
    pub tok: Tok,
    pub start: u32,
    pub end: u32,
    /// Whether blank space stands right before it.
    pub space_before: bool,
    /// A keyword that needs its `end` (`def`, `do`, a leading `if`...).
    pub opens: bool,
    /// A trailing `if`, `unless`, `while`, `until` or `rescue` (`x if y`).
    pub modifier: bool,
    /// The name a symbol, label or string spells, when written without escapes or
    /// interpolation (tree-sitter's single `string_content`).
    pub literal: Option<(u32, u32)>,
}

/// Ruby's keyword spelled `word`, as a `'static` name.
fn keyword(word: &str) -> Option<&'static str> {
    Some(match word {
        "alias" => "alias",
        "and" => "and",
        "begin" => "begin",
        "break" => "break",
        "case" => "case",
        "class" => "class",
        "def" => "def",
        "defined?" => "defined?",
        "do" => "do",
        "else" => "else",
        "elsif" => "elsif",
        "end" => "end",
        "ensure" => "ensure",
        "false" => "false",
        "for" => "for",
        "if" => "if",
        "in" => "in",
        "module" => "module",
        "next" => "next",
        "nil" => "nil",
        "not" => "not",
        "or" => "or",
        "redo" => "redo",
        "rescue" => "rescue",
        "retry" => "retry",
        "return" => "return",
        "self" => "self",
        "super" => "super",
        "then" => "then",
        "true" => "true",
        "undef" => "undef",
        "unless" => "unless",
        "until" => "until",
        "when" => "when",
        "while" => "while",
        "yield" => "yield",
        "__FILE__" => "__FILE__",
        "__LINE__" => "__LINE__",
        "__ENCODING__" => "__ENCODING__",
        _ => return None,
    })
}

/// Punctuation, longest first (Ruby reads the longest that matches).
const PUNCTUATION: &[&str] = &[
    "**=", "<=>", "===", "...", "<<=", ">>=", "&&=", "||=", "**", "==", "!=", ">=", "<=", "&&",
    "||", "<<", ">>", "=~", "!~", "..", "::", "->", "=>", "+=", "-=", "*=", "/=", "%=", "|=", "&=",
    "^=", "&.", "+", "-", "*", "/", "%", "=", "<", ">", "!", "&", "|", "^", "~", "?", ":", ",",
    ".", ";", "(", ")", "[", "]", "{", "}",
];

/// The punctuation by its first character (ASCII), longest first.
static PUNCTUATION_BY_FIRST: std::sync::LazyLock<[Vec<&'static str>; 128]> =
    std::sync::LazyLock::new(|| {
        let mut table: [Vec<&'static str>; 128] = std::array::from_fn(|_| Vec::new());
        for punct in PUNCTUATION {
            table[usize::from(punct.as_bytes()[0])].push(punct);
        }
        table
    });

/// Where the previous token leaves the reader: expecting a value (`/` opens a regexp),
/// after one (`/` divides), or after a name that may be a method given arguments
/// without parentheses or a local variable, which only Ruby's scope tells apart.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Before {
    Operand,
    Value,
    Name,
}

struct Heredoc {
    id: (usize, usize),
    /// `<<~` or `<<-`: the closing word may be indented.
    indented: bool,
    interpolates: bool,
}

pub struct Lexer<'t> {
    text: &'t str,
    bytes: &'t [u8],
    pos: usize,
    tokens: Vec<Token>,
    space: bool,
    heredocs: Vec<Heredoc>,
    /// A `while`, `until` or `for` on this line, whose `do` is part of it.
    loop_do: bool,
    /// An operator `?` on this line, whose `:` may stand where a symbol would.
    ternary: bool,
    /// Inside `#{...}`: the depth of braces opened in it.
    braces: Option<usize>,
    /// How many interpolations this lexer stands in (each is read by a lexer of its
    /// own: a hostile file may nest them without end).
    nesting: usize,
    /// Whether a name the reader asks about may be in the code of an interpolation.
    asked: &'t dyn Fn(&str) -> bool,
}

type Lexed<T> = Result<T, Unsure>;

/// How deeply interpolations may nest (`"#{"#{x}"}"`) before the lexer gives up.
const MAX_INTERPOLATIONS: usize = 16;

/// The tokens of `text`; `asked` names the methods whose calls must not hide in an
/// interpolation (`"#{newparam(:x)}"`), which the skimmer does not read.
pub fn tokens(text: &str, asked: &dyn Fn(&str) -> bool) -> Lexed<Vec<Token>> {
    if text.contains('\r') || text.len() > u32::MAX as usize {
        return Err(Unsure);
    }
    let mut lexer = Lexer::new(text, 0, asked);
    lexer.run()?;
    if !lexer.heredocs.is_empty() {
        return Err(Unsure);
    }
    Ok(continued(lexer.tokens))
}

impl<'t> Lexer<'t> {
    fn new(text: &'t str, pos: usize, asked: &'t dyn Fn(&str) -> bool) -> Self {
        Lexer {
            text,
            bytes: text.as_bytes(),
            pos,
            tokens: Vec::new(),
            space: true,
            heredocs: Vec::new(),
            loop_do: false,
            ternary: false,
            braces: None,
            nesting: 0,
            asked,
        }
    }

    fn peek(&self, ahead: usize) -> u8 {
        self.bytes.get(self.pos + ahead).copied().unwrap_or(0)
    }

    fn at_line_start(&self) -> bool {
        self.pos == 0 || self.bytes[self.pos - 1] == b'\n'
    }

    fn push(&mut self, tok: Tok, start: usize, literal: Option<(usize, usize)>) {
        self.tokens.push(Token {
            tok,
            start: start as u32,
            end: self.pos as u32,
            space_before: self.space,
            opens: false,
            modifier: false,
            literal: literal.map(|(a, b)| (a as u32, b as u32)),
        });
        self.space = false;
    }

    fn before(&self) -> Before {
        match self.tokens.last().map(|t| t.tok) {
            None | Some(Tok::Newline | Tok::Label) => Before::Operand,
            // A constant may name a method too (`Integer /x/`).
            Some(Tok::Ident | Tok::Const) => Before::Name,
            Some(Tok::Keyword(word)) => match word {
                "end" | "self" | "true" | "false" | "nil" | "__FILE__" | "__LINE__"
                | "__ENCODING__" => Before::Value,
                "return" | "break" | "next" | "redo" | "retry" | "yield" | "super" => Before::Name,
                _ => Before::Operand,
            },
            Some(Tok::Punct(p)) => match p {
                ")" | "]" | "}" => Before::Value,
                _ => Before::Operand,
            },
            Some(_) => Before::Value,
        }
    }

    /// Whether an operator-like character of `width` starts an operand: where a value
    /// is expected, or after a name with space before it and none after (`foo -1`,
    /// `foo [1]`, `foo /x/`: tree-sitter reads an argument there, never an operator,
    /// whether or not the name is a local variable).
    fn operand_expected(&self, width: usize) -> bool {
        match self.before() {
            Before::Operand => true,
            Before::Name => self.space && !matches!(self.peek(width), b' ' | b'\t' | b'\n' | b'='),
            Before::Value => false,
        }
    }

    fn run(&mut self) -> Lexed<()> {
        while self.pos < self.bytes.len() {
            let c = self.bytes[self.pos];
            match c {
                b' ' | b'\t' => {
                    self.pos += 1;
                    self.space = true;
                }
                b'\\' if self.peek(1) == b'\n' => {
                    self.pos += 2;
                    self.space = true;
                }
                b'\n' => self.newline()?,
                b'#' => {
                    let rest = &self.bytes[self.pos..];
                    self.pos += memchr::memchr(b'\n', rest).unwrap_or(rest.len());
                }
                b'=' if self.at_line_start() && self.text[self.pos..].starts_with("=begin") => {
                    return Err(Unsure)
                }
                b'_' if self.at_line_start() && self.text[self.pos..].starts_with("__END__") => {
                    return Err(Unsure)
                }
                b'a'..=b'z' | b'_' => self.word(false)?,
                b'A'..=b'Z' => self.word(true)?,
                b'0'..=b'9' => self.number(),
                b'@' | b'$' => self.variable()?,
                b'\'' => {
                    let start = self.pos;
                    let literal = self.quoted(b'\'', None, false)?;
                    self.after_string(Tok::Str, start, literal)?;
                }
                b'"' => {
                    let start = self.pos;
                    let literal = self.quoted(b'"', None, true)?;
                    self.after_string(Tok::Str, start, literal)?;
                }
                b'`' => {
                    let start = self.pos;
                    self.quoted(b'`', None, true)?;
                    self.push(Tok::Command, start, None);
                }
                b':' => self.colon()?,
                b'%' => self.percent()?,
                b'/' => self.slash()?,
                b'?' => self.question()?,
                b'<' if self.peek(1) == b'<' && self.heredoc()? => {}
                b'}' if self.braces == Some(0) => return Ok(()),
                _ => self.punctuation()?,
            }
        }
        if self.braces.is_some() {
            return Err(Unsure);
        }
        Ok(())
    }

    fn newline(&mut self) -> Lexed<()> {
        if self.braces.is_some() {
            // An interpolation over several lines: not read.
            return Err(Unsure);
        }
        let start = self.pos;
        self.pos += 1;
        self.push(Tok::Newline, start, None);
        self.space = true;
        self.loop_do = false;
        self.ternary = false;
        for heredoc in std::mem::take(&mut self.heredocs) {
            self.heredoc_body(&heredoc)?;
        }
        Ok(())
    }

    fn word(&mut self, constant: bool) -> Lexed<()> {
        let start = self.pos;
        while self.peek(0).is_ascii_alphanumeric() || self.peek(0) == b'_' {
            self.pos += 1;
        }
        // `empty?`, `save!`; not `a!=b`.
        if matches!(self.peek(0), b'?' | b'!') && self.peek(1) != b'=' {
            self.pos += 1;
        }
        let word = &self.text[start..self.pos];
        let after_dot = matches!(
            self.tokens.last().map(|t| t.tok),
            Some(Tok::Punct("." | "&.") | Tok::Keyword("def"))
        );
        if self.peek(0) == b':' && self.peek(1) != b':' && !after_dot {
            if self.ternary {
                return Err(Unsure);
            }
            let literal = Some((start, self.pos));
            self.pos += 1;
            self.push(Tok::Label, start, literal);
            return Ok(());
        }
        if constant {
            if matches!(word, "BEGIN" | "END") || word.ends_with(['?', '!']) {
                return Err(Unsure);
            }
            self.push(Tok::Const, start, None);
            return Ok(());
        }
        let keyword = (!after_dot).then(|| keyword(word)).flatten();
        let Some(keyword) = keyword else {
            self.push(Tok::Ident, start, None);
            return Ok(());
        };
        let leading = self.before() == Before::Operand;
        let (opens, modifier) = match keyword {
            "def" | "class" | "module" | "begin" | "case" => (true, false),
            "if" | "unless" => (leading, !leading),
            "while" | "until" => {
                if leading {
                    self.loop_do = true;
                }
                (leading, !leading)
            }
            "for" => {
                self.loop_do = true;
                (true, false)
            }
            "do" => (!std::mem::take(&mut self.loop_do), false),
            "rescue" => (false, !leading),
            _ => (false, false),
        };
        self.push(Tok::Keyword(keyword), start, None);
        let last = self.tokens.last_mut().expect("just pushed");
        last.opens = opens;
        last.modifier = modifier;
        Ok(())
    }

    fn number(&mut self) {
        let start = self.pos;
        loop {
            match self.peek(0) {
                b'0'..=b'9' | b'a'..=b'z' | b'A'..=b'Z' | b'_' => {
                    let exponent = matches!(self.peek(0), b'e' | b'E')
                        && matches!(self.peek(1), b'+' | b'-')
                        && !self.text[start..self.pos].starts_with("0x");
                    self.pos += if exponent { 2 } else { 1 };
                }
                b'.' if self.peek(1).is_ascii_digit() => self.pos += 1,
                _ => break,
            }
        }
        self.push(Tok::Number, start, None);
    }

    fn variable(&mut self) -> Lexed<()> {
        let start = self.pos;
        let kind = match (self.peek(0), self.peek(1)) {
            (b'@', b'@') => {
                self.pos += 2;
                "class_variable"
            }
            (b'@', _) => {
                self.pos += 1;
                "instance_variable"
            }
            _ => {
                self.pos += 1;
                "global_variable"
            }
        };
        let first = self.peek(0);
        if !(first.is_ascii_alphabetic()
            || first == b'_'
            || (kind == "global_variable" && first.is_ascii_digit()))
        {
            return Err(Unsure);
        }
        while self.peek(0).is_ascii_alphanumeric() || self.peek(0) == b'_' {
            self.pos += 1;
        }
        self.push(Tok::Var(kind), start, None);
        Ok(())
    }

    /// A string closed by `close` (opened by `open` when it nests, `%q(..)`). One that
    /// `interpolates` (`"..."`, `%Q(..)`) names a literal only without escapes and
    /// interpolation; in one that does not (`'...'`), a backslash escapes only itself
    /// and the delimiter, and the content is its name as written, backslashes and all,
    /// as tree-sitter's `string_content` is.
    fn quoted(
        &mut self,
        close: u8,
        open: Option<u8>,
        interpolates: bool,
    ) -> Lexed<Option<(usize, usize)>> {
        self.pos += 1;
        let start = self.pos;
        let mut plain = true;
        let mut depth = 0;
        loop {
            let c = self.peek(0);
            match c {
                0 if self.pos >= self.bytes.len() => return Err(Unsure),
                b'\\' => {
                    plain &= !interpolates;
                    self.pos += 2;
                }
                b'#' if interpolates && self.peek(1) == b'{' => {
                    plain = false;
                    self.pos = self.interpolation(self.pos + 2)?;
                }
                b'#' if interpolates && matches!(self.peek(1), b'@' | b'$') => return Err(Unsure),
                b'\n' if self.braces.is_some() => return Err(Unsure),
                _ if Some(c) == open => {
                    depth += 1;
                    self.pos += 1;
                }
                _ if c == close && depth > 0 => {
                    depth -= 1;
                    self.pos += 1;
                }
                _ if c == close => {
                    let literal = plain.then_some((start, self.pos));
                    self.pos += 1;
                    return Ok(literal);
                }
                _ => self.pos += 1,
            }
        }
    }

    /// The code of `#{...}` from `start`, up to the position after its `}`. What it
    /// calls is not read: a call the reader asks about there makes the file unsure.
    fn interpolation(&self, start: usize) -> Lexed<usize> {
        if self.nesting >= MAX_INTERPOLATIONS {
            return Err(Unsure);
        }
        let mut inner = Lexer::new(self.text, start, self.asked);
        inner.braces = Some(0);
        inner.nesting = self.nesting + 1;
        inner.run()?;
        // An interpolation holds no statement of a body: a name there is a call only
        // written as one.
        let tokens = &inner.tokens;
        let asked = tokens.iter().enumerate().any(|(i, t)| {
            t.tok == Tok::Ident
                && (self.asked)(&self.text[t.start as usize..t.end as usize])
                && super::written_as_call(tokens, i)
        });
        if asked || !inner.heredocs.is_empty() || inner.pos >= self.bytes.len() {
            return Err(Unsure);
        }
        Ok(inner.pos + 1)
    }

    fn after_string(
        &mut self,
        tok: Tok,
        start: usize,
        literal: Option<(usize, usize)>,
    ) -> Lexed<()> {
        // `"key": value`: a label tree-sitter reads its own way.
        if self.peek(0) == b':' && self.peek(1) != b':' {
            return Err(Unsure);
        }
        self.push(tok, start, literal);
        Ok(())
    }

    fn colon(&mut self) -> Lexed<()> {
        let start = self.pos;
        if self.peek(1) == b':' {
            self.pos += 2;
            self.push(Tok::Punct("::"), start, None);
            return Ok(());
        }
        let next = self.peek(1);
        let symbol_start =
            next.is_ascii_alphabetic() || next == b'_' || next == b'"' || next == b'\'';
        let operand = self.before() == Before::Operand || (self.space && next != b' ');
        if !symbol_start || !operand {
            if symbol_start && self.ternary {
                return Err(Unsure);
            }
            self.pos += 1;
            self.push(Tok::Punct(":"), start, None);
            return Ok(());
        }
        if self.ternary && self.before() != Before::Operand {
            return Err(Unsure);
        }
        self.pos += 1;
        match next {
            b'"' => {
                let literal = self.quoted(b'"', None, true)?;
                self.push(Tok::DSymbol, start, literal);
            }
            b'\'' => {
                let literal = self.quoted(b'\'', None, false)?;
                self.push(Tok::DSymbol, start, literal);
            }
            _ => {
                let name = self.pos;
                while self.peek(0).is_ascii_alphanumeric() || self.peek(0) == b'_' {
                    self.pos += 1;
                }
                match self.peek(0) {
                    b'?' | b'!' if self.peek(1) != b'=' => self.pos += 1,
                    // `:name=`, a setter's name.
                    b'=' if !matches!(self.peek(1), b'=' | b'~' | b'>') => return Err(Unsure),
                    _ => {}
                }
                self.push(Tok::Symbol, start, Some((name, self.pos)));
            }
        }
        Ok(())
    }

    fn percent(&mut self) -> Lexed<()> {
        if !self.operand_expected(1) {
            return self.punctuation();
        }
        let start = self.pos;
        let (kind, delimiter) = match self.peek(1) {
            c @ (b'q' | b'Q' | b'w' | b'W' | b'i' | b'I' | b'r' | b'x') => (c, self.peek(2)),
            c => (b'Q', c),
        };
        self.pos += if delimiter == self.peek(1) { 1 } else { 2 };
        let (open, close) = match delimiter {
            b'(' => (Some(b'('), b')'),
            b'[' => (Some(b'['), b']'),
            b'{' => (Some(b'{'), b'}'),
            b'<' => (Some(b'<'), b'>'),
            c if c.is_ascii_punctuation() => (None, c),
            _ => return Err(Unsure),
        };
        let literal = match kind {
            b'q' | b'w' | b'i' => self.quoted(close, open, false)?,
            _ => self.quoted(close, open, true)?,
        };
        let tok = match kind {
            b'q' | b'Q' => Tok::Str,
            b'w' | b'W' | b'i' | b'I' => Tok::Words,
            b'x' => Tok::Command,
            _ => {
                self.regexp_flags();
                Tok::Regex
            }
        };
        let literal = if tok == Tok::Str { literal } else { None };
        self.after_string(tok, start, literal)
    }

    fn slash(&mut self) -> Lexed<()> {
        if !self.operand_expected(1) {
            return self.punctuation();
        }
        let start = self.pos;
        // A `/` in a character class ends the regexp for Ruby's lexer but not for some
        // readers: such a regexp is not read.
        let mut class = false;
        self.pos += 1;
        loop {
            match self.peek(0) {
                0 if self.pos >= self.bytes.len() => return Err(Unsure),
                b'\n' => return Err(Unsure),
                b'\\' => self.pos += 2,
                b'#' if self.peek(1) == b'{' => self.pos = self.interpolation(self.pos + 2)?,
                b'[' => {
                    class = true;
                    self.pos += 1;
                }
                b']' => {
                    class = false;
                    self.pos += 1;
                }
                b'/' if class => return Err(Unsure),
                b'/' => {
                    self.pos += 1;
                    break;
                }
                _ => self.pos += 1,
            }
        }
        self.regexp_flags();
        self.push(Tok::Regex, start, None);
        Ok(())
    }

    fn regexp_flags(&mut self) {
        while self.peek(0).is_ascii_lowercase() {
            self.pos += 1;
        }
    }

    fn question(&mut self) -> Lexed<()> {
        // `?a` is a character; `x ? a : b` a choice.
        if self.before() == Before::Operand || !matches!(self.peek(1), b' ' | b'\n') {
            return Err(Unsure);
        }
        self.ternary = true;
        self.punctuation()
    }

    /// `<<~EOT`, `<<-EOT`, `<<EOT`, `<<~'EOT'`: a heredoc where a value may stand. Its
    /// body follows the line, which [`Lexer::newline`] skips.
    fn heredoc(&mut self) -> Lexed<bool> {
        let name_start =
            |c: u8| c.is_ascii_alphabetic() || c == b'_' || matches!(c, b'\'' | b'"' | b'`');
        let (marked, mark) = match self.peek(2) {
            b'~' | b'-' => (true, 3),
            _ => (false, 2),
        };
        // `desc <<-EOT`: a method given a heredoc, never `desc << x`; `class << self`
        // opens a singleton class.
        let singleton = matches!(
            self.tokens.last().map(|t| t.tok),
            Some(Tok::Keyword("class"))
        );
        if singleton || !self.operand_expected(2) {
            return Ok(false);
        }
        if !name_start(self.peek(mark)) {
            return Err(Unsure);
        }
        if self.braces.is_some() {
            return Err(Unsure);
        }
        let start = self.pos;
        self.pos += mark;
        let quote = self.peek(0);
        let interpolates = quote != b'\'';
        let id = if matches!(quote, b'\'' | b'"' | b'`') {
            self.pos += 1;
            let id_start = self.pos;
            while self.peek(0) != quote {
                if matches!(self.peek(0), 0 | b'\n') {
                    return Err(Unsure);
                }
                self.pos += 1;
            }
            self.pos += 1;
            (id_start, self.pos - 1)
        } else {
            let id_start = self.pos;
            while self.peek(0).is_ascii_alphanumeric() || self.peek(0) == b'_' {
                self.pos += 1;
            }
            (id_start, self.pos)
        };
        if id.0 == id.1 {
            return Err(Unsure);
        }
        self.heredocs.push(Heredoc {
            id,
            indented: marked,
            interpolates,
        });
        self.push(Tok::Heredoc, start, None);
        Ok(true)
    }

    fn heredoc_body(&mut self, heredoc: &Heredoc) -> Lexed<()> {
        let id = &self.text[heredoc.id.0..heredoc.id.1];
        loop {
            if self.pos >= self.bytes.len() {
                return Err(Unsure);
            }
            let rest = &self.bytes[self.pos..];
            let line_end = self.pos + memchr::memchr(b'\n', rest).unwrap_or(rest.len());
            let line = &self.text[self.pos..line_end];
            let word = if heredoc.indented {
                line.trim_start_matches([' ', '\t'])
            } else {
                line
            };
            if word == id {
                self.pos = (line_end + 1).min(self.bytes.len());
                return Ok(());
            }
            if line.trim() == id {
                // A closing word with space after it: readers differ.
                return Err(Unsure);
            }
            if heredoc.interpolates {
                let mut at = self.pos;
                while at < line_end {
                    match self.bytes[at] {
                        b'\\' => at += 2,
                        b'#' if self.bytes.get(at + 1) == Some(&b'{') => {
                            at = self.interpolation(at + 2)?;
                            if at > line_end {
                                return Err(Unsure);
                            }
                        }
                        b'#' if matches!(self.bytes.get(at + 1), Some(b'@' | b'$')) => {
                            return Err(Unsure)
                        }
                        _ => at += 1,
                    }
                }
            }
            self.pos = line_end + 1;
        }
    }

    fn punctuation(&mut self) -> Lexed<()> {
        let rest = &self.bytes[self.pos..];
        let candidates = PUNCTUATION_BY_FIRST.get(usize::from(rest[0]));
        let Some(punct) = candidates
            .into_iter()
            .flatten()
            .copied()
            .find(|p| rest.starts_with(p.as_bytes()))
        else {
            return Err(Unsure);
        };
        // `foo(1) [2]`: an index, or an array given to a call.
        let spaced_open =
            matches!(punct, "(" | "[") && self.space && self.before() == Before::Value;
        if spaced_open {
            return Err(Unsure);
        }
        match punct {
            "{" => {
                if let Some(depth) = self.braces.as_mut() {
                    *depth += 1;
                }
            }
            "}" => {
                if let Some(depth) = self.braces.as_mut() {
                    *depth -= 1;
                }
            }
            ";" => {
                self.loop_do = false;
                self.ternary = false;
            }
            _ => {}
        }
        let start = self.pos;
        self.pos += punct.len();
        self.push(Tok::Punct(punct), start, None);
        Ok(())
    }
}

/// The line breaks that end a statement: not one after an operator, a comma or an
/// opening bracket, nor one before a closing bracket or a `.method` that continues the
/// line above; blank lines and comments leave one.
fn continued(tokens: Vec<Token>) -> Vec<Token> {
    let mut out: Vec<Token> = Vec::with_capacity(tokens.len());
    let mut iter = tokens.into_iter().peekable();
    while let Some(token) = iter.next() {
        if token.tok == Tok::Newline {
            let continues_before = match out.last().map(|t| t.tok) {
                None | Some(Tok::Newline | Tok::Label) => true,
                Some(Tok::Punct(p)) => !matches!(p, ")" | "]" | "}"),
                Some(Tok::Keyword(k)) => matches!(k, "and" | "or" | "not"),
                _ => false,
            };
            // Blank lines and comment lines between a line and its `.method`.
            while iter.peek().is_some_and(|t| t.tok == Tok::Newline) {
                iter.next();
            }
            let continues_after = matches!(
                iter.peek().map(|t| t.tok),
                Some(Tok::Punct("." | "&." | ")" | "]"))
            );
            if continues_before || continues_after {
                continue;
            }
        }
        out.push(token);
    }
    out
}

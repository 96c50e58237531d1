//! The direct parser's lexer: Puppet's tokens, pulled one at a time by the parser.
//!
//! It reads the tokens the tree-sitter grammar reads, the same way (longest match, a
//! keyword only when the whole word is one, `/` a regular expression only where no
//! operand ends before it, as Puppet's `regexp_acceptable?`). What it does not know
//! (heredocs, non-ASCII blanks, template tags) it reports as `Unsupported`: the file
//! then goes to tree-sitter.

use crate::ast::{Comment, CommentKind};

/// The kinds of token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tok {
    Variable,
    /// A bare word that is neither a keyword nor a statement function.
    Name,
    /// `include`, `notice`, ... (Puppet's statement calls; the grammar's
    /// `statement_function`).
    StatementFunction,
    TypeRef,
    Integer,
    Float,
    /// `'...'`
    SingleQuoted,
    /// The opening `"` of a double-quoted string: its parts are read with
    /// [`Lexer::string_part`].
    DoubleQuote,
    Regex,
    Keyword(Keyword),
    LParen,
    RParen,
    LBracket,
    RBracket,
    LBrace,
    RBrace,
    Comma,
    Semicolon,
    Colon,
    FatArrow,
    PlusArrow,
    InEdge,
    NotifyEdge,
    RequireEdge,
    SubscribeEdge,
    Assign,
    PlusAssign,
    MinusAssign,
    Equal,
    NotEqual,
    Match,
    NotMatch,
    Less,
    Greater,
    LessEqual,
    GreaterEqual,
    ShiftLeft,
    ShiftRight,
    Plus,
    Minus,
    Star,
    Slash,
    Percent,
    Bang,
    Dot,
    Question,
    At,
    AtAt,
    /// `<|`
    CollectOpen,
    /// `|>`
    CollectClose,
    /// `<<|`
    ExportOpen,
    /// `|>>`
    ExportClose,
    Pipe,
    Eof,
    /// Something this lexer leaves to tree-sitter (or an error tree-sitter reports).
    Unsupported,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Keyword {
    And,
    Attr,
    Case,
    Class,
    Default,
    Define,
    Else,
    Elsif,
    False,
    Function,
    If,
    In,
    Inherits,
    Node,
    Or,
    Private,
    True,
    Type,
    Undef,
    Unless,
}

impl Keyword {
    fn of(word: &str) -> Option<Keyword> {
        Some(match word {
            "and" => Keyword::And,
            "attr" => Keyword::Attr,
            "case" => Keyword::Case,
            "class" => Keyword::Class,
            "default" => Keyword::Default,
            "define" => Keyword::Define,
            "else" => Keyword::Else,
            "elsif" => Keyword::Elsif,
            "false" => Keyword::False,
            "function" => Keyword::Function,
            "if" => Keyword::If,
            "in" => Keyword::In,
            "inherits" => Keyword::Inherits,
            "node" => Keyword::Node,
            "or" => Keyword::Or,
            "private" => Keyword::Private,
            "true" => Keyword::True,
            "type" => Keyword::Type,
            "undef" => Keyword::Undef,
            "unless" => Keyword::Unless,
            _ => return None,
        })
    }
}

/// The words Puppet calls without parentheses as statements (the grammar's
/// `statement_function`).
fn is_statement_function(word: &str) -> bool {
    matches!(
        word,
        "require"
            | "realize"
            | "include"
            | "contain"
            | "tag"
            | "debug"
            | "info"
            | "notice"
            | "warning"
            | "err"
            | "fail"
            | "import"
            | "break"
            | "next"
            | "return"
    )
}

#[derive(Debug, Clone, Copy)]
pub struct Token {
    pub kind: Tok,
    pub start: u32,
    pub end: u32,
    /// Blanks or a comment come right before it (an access `[` must follow its operand
    /// directly).
    pub after_trivia: bool,
    /// The blanks right before it hold a line break (a `(` there never opens a call's
    /// arguments: Puppet's WSLPAREN).
    pub after_line_break: bool,
}

/// A part of a double-quoted string.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StringPart {
    /// Text (escapes not yet applied), up to an interpolation or the closing quote.
    Text(u32, u32),
    /// `$name`
    Variable(u32, u32),
    /// `${`: an expression follows, then `}` (read with [`Lexer::close_interpolation`]).
    ExpressionStart,
    /// The closing `"`.
    End(u32),
}

pub struct Lexer<'s> {
    text: &'s str,
    bytes: &'s [u8],
    at: usize,
    /// Whether the last token ends an operand (a `/` after it divides).
    operand_ended: bool,
    pub comments: Vec<Comment>,
}

impl<'s> Lexer<'s> {
    pub fn new(text: &'s str) -> Lexer<'s> {
        Lexer {
            text,
            bytes: text.as_bytes(),
            at: 0,
            operand_ended: false,
            comments: Vec::new(),
        }
    }

    pub fn text(&self, start: u32, end: u32) -> &'s str {
        &self.text[start as usize..end as usize]
    }

    fn peek_byte(&self, ahead: usize) -> u8 {
        self.bytes.get(self.at + ahead).copied().unwrap_or(0)
    }

    /// Skips blanks and comments; says whether any were skipped and whether the last
    /// blanks held a line break. `None` where the text is not what this lexer reads.
    fn skip_trivia(&mut self) -> Option<(bool, bool)> {
        let mut any = false;
        let mut line_break = false;
        loop {
            match self.peek_byte(0) {
                b' ' | b'\t' | b'\r' => self.at += 1,
                b'\n' => {
                    self.at += 1;
                    line_break = true;
                }
                b'#' => {
                    let start = self.at;
                    self.eat_while(|b| b != b'\n' && b != b'\r');
                    self.comment(start, CommentKind::Hash);
                    line_break = false;
                }
                b'/' if self.peek_byte(1) == b'*' => {
                    let start = self.at;
                    let end = self.text[start + 2..].find("*/")?;
                    self.at = start + 2 + end + 2;
                    self.comment(start, CommentKind::Block);
                    line_break = false;
                }
                // A no-break space or another Unicode blank is whitespace to Puppet,
                // anything else non-ASCII here an error: neither is read here.
                b if b >= 0x80 => return None,
                _ => return Some((any, line_break)),
            }
            any = true;
        }
    }

    fn comment(&mut self, start: usize, kind: CommentKind) {
        self.comments.push(Comment {
            span: crate::source::Span::new(start as u32, self.at as u32),
            kind,
        });
    }

    /// The next token.
    pub fn next(&mut self) -> Token {
        let Some((after_trivia, after_line_break)) = self.skip_trivia() else {
            return self.token(Tok::Unsupported, self.at, self.at, false, false);
        };
        let start = self.at;
        let kind = self.token_kind();
        self.operand_ended = matches!(
            kind,
            Tok::RParen
                | Tok::RBracket
                | Tok::CollectClose
                | Tok::ExportClose
                | Tok::Name
                | Tok::StatementFunction
                | Tok::TypeRef
                | Tok::Integer
                | Tok::Float
                | Tok::SingleQuoted
                | Tok::Variable
                | Tok::Regex
                | Tok::Keyword(Keyword::True | Keyword::False)
        );
        self.token(kind, start, self.at, after_trivia, after_line_break)
    }

    fn token(&self, kind: Tok, start: usize, end: usize, trivia: bool, line_break: bool) -> Token {
        Token {
            kind,
            start: start as u32,
            end: end as u32,
            after_trivia: trivia,
            after_line_break: line_break,
        }
    }

    /// Reads one token at `self.at` (not at the end of a blank), moving past it.
    fn token_kind(&mut self) -> Tok {
        let b = self.peek_byte(0);
        if self.at >= self.bytes.len() {
            return Tok::Eof;
        }
        let two = (b, self.peek_byte(1));
        let three = (b, self.peek_byte(1), self.peek_byte(2));
        let (kind, len) = match b {
            b'$' => return self.variable(),
            b'a'..=b'z' | b'_' => return self.word(),
            b':' if two.1 == b':' && three.2.is_ascii_uppercase() => return self.type_ref(),
            b':' if two.1 == b':' => return self.word(),
            b'A'..=b'Z' => return self.type_ref(),
            b'0'..=b'9' => return self.number(),
            b'\'' => return self.delimited(b'\'', Tok::SingleQuoted),
            b'"' => (Tok::DoubleQuote, 1),
            b'/' if !self.operand_ended => return self.delimited(b'/', Tok::Regex),
            b'(' => (Tok::LParen, 1),
            b')' => (Tok::RParen, 1),
            b'[' => (Tok::LBracket, 1),
            b']' => (Tok::RBracket, 1),
            b'{' => (Tok::LBrace, 1),
            b'}' => (Tok::RBrace, 1),
            b',' => (Tok::Comma, 1),
            b';' => (Tok::Semicolon, 1),
            b':' => (Tok::Colon, 1),
            b'=' => match two.1 {
                b'>' => (Tok::FatArrow, 2),
                b'=' => (Tok::Equal, 2),
                b'~' => (Tok::Match, 2),
                _ => (Tok::Assign, 1),
            },
            b'+' => match two.1 {
                b'>' => (Tok::PlusArrow, 2),
                b'=' => (Tok::PlusAssign, 2),
                _ => (Tok::Plus, 1),
            },
            b'-' => match two.1 {
                b'>' => (Tok::InEdge, 2),
                b'=' => (Tok::MinusAssign, 2),
                _ => (Tok::Minus, 1),
            },
            b'~' if two.1 == b'>' => (Tok::NotifyEdge, 2),
            b'<' => match three {
                (_, b'<', b'|') => (Tok::ExportOpen, 3),
                (_, b'<', _) => (Tok::ShiftLeft, 2),
                (_, b'|', _) => (Tok::CollectOpen, 2),
                (_, b'-', _) => (Tok::RequireEdge, 2),
                (_, b'~', _) => (Tok::SubscribeEdge, 2),
                (_, b'=', _) => (Tok::LessEqual, 2),
                // `<%` belongs to templates.
                (_, b'%', _) => (Tok::Unsupported, 0),
                _ => (Tok::Less, 1),
            },
            b'>' => match two.1 {
                b'=' => (Tok::GreaterEqual, 2),
                b'>' => (Tok::ShiftRight, 2),
                _ => (Tok::Greater, 1),
            },
            b'!' => match two.1 {
                b'=' => (Tok::NotEqual, 2),
                b'~' => (Tok::NotMatch, 2),
                _ => (Tok::Bang, 1),
            },
            b'|' => match three {
                (_, b'>', b'>') => (Tok::ExportClose, 3),
                (_, b'>', _) => (Tok::CollectClose, 2),
                _ => (Tok::Pipe, 1),
            },
            b'*' => (Tok::Star, 1),
            b'/' => (Tok::Slash, 1),
            b'%' => (Tok::Percent, 1),
            b'.' => (Tok::Dot, 1),
            b'?' => (Tok::Question, 1),
            b'@' => match two.1 {
                b'@' => (Tok::AtAt, 2),
                // Heredocs are tree-sitter's.
                b'(' => (Tok::Unsupported, 0),
                _ => (Tok::At, 1),
            },
            _ => (Tok::Unsupported, 0),
        };
        self.at += len;
        kind
    }

    fn eat_while(&mut self, mut f: impl FnMut(u8) -> bool) {
        while self.at < self.bytes.len() && f(self.bytes[self.at]) {
            self.at += 1;
        }
    }

    fn is_word_byte(b: u8) -> bool {
        b.is_ascii_alphanumeric() || b == b'_'
    }

    /// `$x`, `$::x`, `$a::b`, `$0`.
    fn variable(&mut self) -> Tok {
        let start = self.at;
        self.at += 1;
        if self.peek_byte(0) == b':' && self.peek_byte(1) == b':' {
            self.at += 2;
        }
        let segments_start = self.at;
        loop {
            let before = self.at;
            self.eat_while(Self::is_word_byte);
            if self.at == before {
                // `$` alone, or `$a::` without a last segment: tree-sitter's.
                self.at = start;
                return Tok::Unsupported;
            }
            if self.peek_byte(0) == b':'
                && self.peek_byte(1) == b':'
                && Self::is_word_byte(self.peek_byte(2))
            {
                self.at += 2;
                continue;
            }
            break;
        }
        debug_assert!(self.at > segments_start);
        Tok::Variable
    }

    /// A name (`foo`, `foo::bar`, `::foo`, `foo-bar`), a keyword, or a statement
    /// function; the longest match of the grammar's `name` token.
    fn word(&mut self) -> Tok {
        let start = self.at;
        if self.peek_byte(0) == b':' {
            self.at += 2;
        }
        loop {
            // A segment: [a-z_] then [A-Za-z0-9_-]* ending in [A-Za-z0-9_].
            if !matches!(self.peek_byte(0), b'a'..=b'z' | b'_') {
                self.at = start;
                return Tok::Unsupported;
            }
            self.at += 1;
            let mut end = self.at;
            while self.at < self.bytes.len() {
                let b = self.bytes[self.at];
                if Self::is_word_byte(b) {
                    self.at += 1;
                    end = self.at;
                } else if b == b'-' {
                    self.at += 1;
                } else {
                    break;
                }
            }
            // A trailing dash is not part of the name.
            self.at = end;
            if self.peek_byte(0) == b':'
                && self.peek_byte(1) == b':'
                && matches!(self.peek_byte(2), b'a'..=b'z' | b'_')
            {
                self.at += 2;
                continue;
            }
            break;
        }
        // A name glued to an uppercase segment (`foo::Bar`) or a following `::`: not
        // read here.
        if self.peek_byte(0) == b':' && self.peek_byte(1) == b':' {
            self.at = start;
            return Tok::Unsupported;
        }
        let word = &self.text[start..self.at];
        if let Some(k) = Keyword::of(word) {
            Tok::Keyword(k)
        } else if is_statement_function(word) {
            Tok::StatementFunction
        } else {
            Tok::Name
        }
    }

    /// `File`, `Foo::Bar`, `::Foo`.
    fn type_ref(&mut self) -> Tok {
        let start = self.at;
        if self.peek_byte(0) == b':' {
            self.at += 2;
        }
        loop {
            self.at += 1;
            self.eat_while(Self::is_word_byte);
            if self.peek_byte(0) == b':'
                && self.peek_byte(1) == b':'
                && self.peek_byte(2).is_ascii_uppercase()
            {
                self.at += 2;
                continue;
            }
            break;
        }
        if self.peek_byte(0) == b':' && self.peek_byte(1) == b':' {
            // `Foo::bar`: Puppet's lexer refuses it (scan's illegal class reference).
            self.at = start;
            return Tok::Unsupported;
        }
        Tok::TypeRef
    }

    fn number(&mut self) -> Tok {
        let start = self.at;
        let kind = if self.peek_byte(0) == b'0' && matches!(self.peek_byte(1), b'x' | b'X') {
            self.at += 2;
            let digits = self.at;
            self.eat_while(|b| b.is_ascii_hexdigit());
            if self.at == digits {
                self.at = start;
                return Tok::Unsupported;
            }
            Tok::Integer
        } else {
            self.eat_while(|b| b.is_ascii_digit());
            let mut kind = Tok::Integer;
            if self.peek_byte(0) == b'.' && self.peek_byte(1).is_ascii_digit() {
                self.at += 1;
                self.eat_while(|b| b.is_ascii_digit());
                kind = Tok::Float;
                self.exponent();
            } else if matches!(self.peek_byte(0), b'e' | b'E') && self.exponent() {
                kind = Tok::Float;
            }
            kind
        };
        // Letters, digits or a dot glued to the number: an illegal number, which the
        // lowering reports.
        if Self::is_word_byte(self.peek_byte(0)) || self.peek_byte(0) == b'.' {
            self.at = start;
            return Tok::Unsupported;
        }
        kind
    }

    /// `e10`, `E-3` after a number's digits.
    fn exponent(&mut self) -> bool {
        if !matches!(self.peek_byte(0), b'e' | b'E') {
            return false;
        }
        let digits = if self.peek_byte(1) == b'-' { 2 } else { 1 };
        if !self.peek_byte(digits).is_ascii_digit() {
            return false;
        }
        self.at += digits;
        self.eat_while(|b| b.is_ascii_digit());
        true
    }

    /// A token from its opening `delimiter` to the next one no backslash escapes, line
    /// breaks included: `'...'` and `/pattern/`.
    fn delimited(&mut self, delimiter: u8, kind: Tok) -> Tok {
        let start = self.at;
        self.at += 1;
        loop {
            match self.peek_byte(0) {
                _ if self.at >= self.bytes.len() => {
                    self.at = start;
                    return Tok::Unsupported;
                }
                b if b == delimiter => {
                    self.at += 1;
                    return kind;
                }
                b'\\' if self.at + 1 < self.bytes.len() => self.at += 2,
                _ => self.at += 1,
            }
        }
    }

    /// The next part of a double-quoted string whose opening quote (or last part) was
    /// read. `None` where the string is not what this lexer reads.
    pub fn string_part(&mut self) -> Option<StringPart> {
        let start = self.at;
        match self.peek_byte(0) {
            b'"' => {
                self.at += 1;
                // A string ends an operand: a `/` after it divides.
                self.operand_ended = true;
                return Some(StringPart::End(self.at as u32));
            }
            b'$' if self.peek_byte(1) == b'{' => {
                self.at += 2;
                self.operand_ended = false;
                return Some(StringPart::ExpressionStart);
            }
            b'$' => {
                if self.variable() == Tok::Variable {
                    return Some(StringPart::Variable(start as u32, self.at as u32));
                }
                // A `$` that starts no variable is text.
                self.at = start + 1;
            }
            _ if self.at >= self.bytes.len() => return None,
            _ => {}
        }
        loop {
            match self.peek_byte(0) {
                b'"' | b'$' => break,
                b'\\' if self.at + 1 < self.bytes.len() => {
                    self.at += 1;
                    // The escaped character, whole.
                    let ch = self.text[self.at..].chars().next()?;
                    self.at += ch.len_utf8();
                }
                _ if self.at >= self.bytes.len() => return None,
                _ => self.at += 1,
            }
        }
        Some(StringPart::Text(start as u32, self.at as u32))
    }

    /// The token after the current one, leaving the lexer where it is.
    pub fn peek(&self) -> Token {
        let mut probe = Lexer {
            text: self.text,
            bytes: self.bytes,
            at: self.at,
            operand_ended: self.operand_ended,
            comments: Vec::new(),
        };
        probe.next()
    }
}

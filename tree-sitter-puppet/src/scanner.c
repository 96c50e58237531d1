/*
 * External scanner for the Puppet grammar: the tokens whose meaning depends on more
 * context than a regular expression can see.
 *
 *  - Heredocs. `@(TAG)` is a header; the body starts after the end of the line that holds
 *    the header (several headers on one line have their bodies one after the other) and
 *    ends at the first line that ends with TAG (optionally preceded by `|` and `-`). This
 *    is Puppet's own rule: its end-line pattern is not anchored at the start of the line.
 *    When a body starts, the scanner looks ahead to count the lines up to the end line, so
 *    content tokens can stop before interpolations (`$x`, `${...}`) in `@("TAG")` bodies
 *    and the end token comes exactly at the end line.
 *  - `(` as the first non-blank character of its line (Puppet's WSLPAREN): it never
 *    continues a call, so `foo\n(1)` is two expressions.
 *  - EPP template text: from a closing `%>` (or `-%>`) up to and including the next
 *    opening `<%` / `<%-`, stopping before `<%=` and `<%#`; and `<%#` comments.
 *
 * Everything the scanner keeps between tokens is in `Scanner` and is serialised.
 */

#include "tree_sitter/parser.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum TokenType {
  HEREDOC_START,
  HEREDOC_BODY_START,
  HEREDOC_CONTENT,
  HEREDOC_END,
  WSLPAREN,
  EPP_TEXT,
  EPP_COMMENT,
  ERROR_SENTINEL,
  EPP_TRIMMED,
};

/*
 * Puppet sets no limit on a tag's length or on how many heredocs one line may start, but
 * the state tree-sitter keeps between tokens is at most 1024 bytes. So a pending heredoc
 * keeps its tag as a length and a hash (a polynomial over the tag's code points), and the
 * end line is found with the same hash rolled over each line's last characters: any tag
 * length, and up to MAX_PENDING headers on one line (far beyond real code).
 */
#define MAX_PENDING 78 /* 6 + 78 * 13 bytes of state: within 1024 */
/* Lines of a body whose end tag was never found: the body runs to the end of input. */
#define NO_END_LINE UINT32_MAX
#define HASH_BASE 1099511628211ULL

typedef struct {
  uint32_t tag_len; /* in code points */
  uint64_t tag_hash;
  bool interpolate; /* @("TAG"): $var and ${expr} are interpolated */
  bool escapes;     /* @(TAG/...): backslash escapes are processed */
} Heredoc;

typedef struct {
  uint8_t count;            /* headers seen whose bodies have not ended */
  bool in_body;             /* the first pending heredoc's body has started */
  uint32_t lines_remaining; /* newlines left in the current body before its end line */
  Heredoc pending[MAX_PENDING];
  /* Scratch space (never serialised): a header's characters, or the last characters of
   * a body line. Grows as needed. */
  int32_t *chars;
  uint32_t chars_cap;
} Scanner;

static inline void advance(TSLexer *lexer) { lexer->advance(lexer, false); }
static inline void skip(TSLexer *lexer) { lexer->advance(lexer, true); }
static inline bool is_blank(int32_t c) { return c == ' ' || c == '\t' || c == '\r'; }
static inline bool is_word(int32_t c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* Makes room for `n` scratch characters; false when memory runs out. */
static bool reserve_chars(Scanner *s, uint32_t n) {
  if (n <= s->chars_cap) return true;
  uint32_t cap = s->chars_cap ? s->chars_cap : 64;
  while (cap < n) {
    if (cap > UINT32_MAX / 2) return false;
    cap *= 2;
  }
  int32_t *grown = (int32_t *)realloc(s->chars, sizeof(int32_t) * (size_t)cap);
  if (!grown) return false;
  s->chars = grown;
  s->chars_cap = cap;
  return true;
}

static uint64_t hash_chars(const int32_t *chars, uint32_t len) {
  uint64_t h = 0;
  for (uint32_t i = 0; i < len; i++) h = h * HASH_BASE + (uint64_t)(uint32_t)chars[i];
  return h;
}

/* ------------------------------------------------------------------ heredoc header */

/* Scans `@(TAG[:syntax][/escapes])`; the lexer is at `@`. */
static bool scan_heredoc_header(Scanner *s, TSLexer *lexer) {
  advance(lexer);
  if (lexer->lookahead != '(') return false;
  advance(lexer);

  uint32_t len = 0;
  while (!lexer->eof(lexer) && lexer->lookahead != ':' && lexer->lookahead != '/' &&
         lexer->lookahead != ')' && lexer->lookahead != '\n' && lexer->lookahead != '\r') {
    if (len == UINT32_MAX || !reserve_chars(s, len + 1)) return false;
    s->chars[len++] = lexer->lookahead;
    advance(lexer);
  }
  const int32_t *raw = s->chars;
  /* strip blanks around the tag, then an optional pair of double quotes */
  uint32_t start = 0, end = len;
  while (start < end && (raw[start] == ' ' || raw[start] == '\t')) start++;
  while (end > start && (raw[end - 1] == ' ' || raw[end - 1] == '\t')) end--;
  bool interpolate = false;
  if (end - start >= 2 && raw[start] == '"' && raw[end - 1] == '"') {
    interpolate = true;
    start++;
    end--;
    while (start < end && (raw[start] == ' ' || raw[start] == '\t')) start++;
    while (end > start && (raw[end - 1] == ' ' || raw[end - 1] == '\t')) end--;
  }
  if (end <= start) return false;
  uint32_t tag_len = end - start;
  uint64_t tag_hash = hash_chars(raw + start, tag_len);

  if (lexer->lookahead == ':') { /* syntax tag: [a-z][a-zA-Z0-9_+]+ */
    advance(lexer);
    while (lexer->lookahead == ' ' || lexer->lookahead == '\t') advance(lexer);
    if (!(lexer->lookahead >= 'a' && lexer->lookahead <= 'z')) return false;
    while (is_word(lexer->lookahead) || lexer->lookahead == '+') advance(lexer);
    while (lexer->lookahead == ' ' || lexer->lookahead == '\t') advance(lexer);
  }
  bool escapes = false;
  if (lexer->lookahead == '/') {
    escapes = true;
    advance(lexer);
    while (is_word(lexer->lookahead) || lexer->lookahead == '$') advance(lexer);
    while (lexer->lookahead == ' ' || lexer->lookahead == '\t') advance(lexer);
  }
  if (lexer->lookahead != ')') return false;
  advance(lexer);
  lexer->mark_end(lexer);

  /* More headers on one line than the state can hold: not a heredoc here (a syntax
   * error at this header), never a wrong body. */
  if (s->count >= MAX_PENDING) return false;
  Heredoc *h = &s->pending[s->count++];
  h->tag_len = tag_len;
  h->tag_hash = tag_hash;
  h->interpolate = interpolate;
  h->escapes = escapes;
  lexer->result_symbol = HEREDOC_START;
  return true;
}

/* ------------------------------------------------------------------ heredoc body */

/*
 * Called with the lexer just after the newline that starts a body (already marked as
 * the token's end). Looks ahead to find the end line and returns how many newlines come
 * before it, or NO_END_LINE. Reading past mark_end is look-ahead only.
 *
 * The end line is one whose characters, trailing blanks aside, end with the tag. Each
 * line's last `tag_len` characters are kept in a ring and hashed as they roll, so every
 * character is looked at once whatever the tag's length.
 */
static uint32_t count_lines_to_end_tag(Scanner *s, TSLexer *lexer) {
  const Heredoc *h = &s->pending[0];
  uint32_t n = h->tag_len;
  if (!reserve_chars(s, n)) return NO_END_LINE;
  int32_t *ring = s->chars;
  uint64_t drop = 1; /* HASH_BASE^n: the weight of the character leaving the window */
  for (uint32_t i = 0; i < n; i++) drop *= HASH_BASE;
  uint64_t hash = 0;       /* of the last min(seen, n) characters of the line */
  uint32_t seen = 0;       /* characters of the line so far */
  bool ends_with_tag = false; /* the line up to its last non-blank ends with the tag */
  uint32_t lines = 0;
  for (;;) {
    bool at_eof = lexer->eof(lexer);
    int32_t c = at_eof ? '\n' : lexer->lookahead;
    if (c == '\n') {
      if (ends_with_tag) return lines;
      if (at_eof) return NO_END_LINE;
      lines++;
      hash = 0;
      seen = 0;
      ends_with_tag = false;
      advance(lexer);
      continue;
    }
    uint32_t slot = seen % n;
    hash = hash * HASH_BASE + (uint64_t)(uint32_t)c;
    if (seen >= n) hash -= drop * (uint64_t)(uint32_t)ring[slot];
    ring[slot] = c;
    if (seen < UINT32_MAX) seen++;
    if (!is_blank(c)) ends_with_tag = seen >= n && hash == h->tag_hash;
    advance(lexer);
  }
}

static bool scan_body_start(Scanner *s, TSLexer *lexer) {
  advance(lexer); /* the newline */
  lexer->mark_end(lexer);
  s->in_body = true;
  s->lines_remaining = count_lines_to_end_tag(s, lexer);
  lexer->result_symbol = HEREDOC_BODY_START;
  return true;
}

static void finish_heredoc(Scanner *s) {
  memmove(&s->pending[0], &s->pending[1], sizeof(Heredoc) * (size_t)(s->count - 1));
  s->count--;
  s->in_body = false;
  s->lines_remaining = 0;
}

/* The end line: everything up to (not including) the line break. */
static bool scan_body_end(Scanner *s, TSLexer *lexer) {
  while (!lexer->eof(lexer) && lexer->lookahead != '\n') {
    if (lexer->lookahead == '\r') {
      lexer->mark_end(lexer);
      advance(lexer);
      if (lexer->lookahead == '\n' || lexer->eof(lexer)) {
        finish_heredoc(s);
        lexer->result_symbol = HEREDOC_END;
        return true;
      }
      continue;
    }
    advance(lexer);
  }
  lexer->mark_end(lexer);
  finish_heredoc(s);
  lexer->result_symbol = HEREDOC_END;
  return true;
}

static bool starts_interpolation(int32_t c) { return c == '{' || c == ':' || is_word(c); }

static bool scan_body_content(Scanner *s, TSLexer *lexer, const bool *valid_symbols) {
  const Heredoc *h = &s->pending[0];
  if (s->lines_remaining == 0) {
    return valid_symbols[HEREDOC_END] && scan_body_end(s, lexer);
  }
  if (!valid_symbols[HEREDOC_CONTENT]) return false;
  bool has_content = false;
  for (;;) {
    if (lexer->eof(lexer)) break;
    int32_t c = lexer->lookahead;
    if (c == '\n') {
      advance(lexer);
      has_content = true;
      if (s->lines_remaining != NO_END_LINE) s->lines_remaining--;
      if (s->lines_remaining == 0) break;
      continue;
    }
    if (c == '\\' && h->escapes) {
      advance(lexer);
      has_content = true;
      if (!lexer->eof(lexer) && lexer->lookahead != '\n') advance(lexer);
      continue;
    }
    if (c == '$' && h->interpolate) {
      lexer->mark_end(lexer);
      advance(lexer);
      if (starts_interpolation(lexer->lookahead)) {
        if (!has_content) return false; /* let the grammar lex the interpolation */
        lexer->result_symbol = HEREDOC_CONTENT;
        return true;
      }
      has_content = true;
      continue;
    }
    advance(lexer);
    has_content = true;
  }
  if (!has_content) return false;
  lexer->mark_end(lexer);
  lexer->result_symbol = HEREDOC_CONTENT;
  return true;
}

/* ------------------------------------------------------------------ EPP */

/*
 * Text from `%>` / `-%>` (the lexer is at it) to the next code tag.
 *
 * When the text between two tags is nothing once trimmed (`-%>` takes the blanks and the
 * line break right after it, `<%-` the blanks right before it), Puppet's lexer makes no
 * text token at all: the code of the two tags reads as one (`<% } -%>` then
 * `<% else { -%>` is `} else {`). Such a run is EPP_TRIMMED, an invisible extra, so the
 * grammar sees the code of both tags side by side. Text before the end of input stays
 * EPP_TEXT even when trimmed to nothing; a tag that ends the input has no text after it.
 */
/*
 * The token for a text run: EPP_TRIMMED when it trims to nothing; else EPP_TEXT where
 * text may stand, and no token elsewhere. EPP_TRIMMED is an extra, valid in every state,
 * even inside a string, where `"%>"` is plain content: a run that is text is only taken
 * where the grammar wants text, so such a string is left to the grammar.
 */
static bool epp_text_result(TSLexer *lexer, const bool *valid_symbols, bool empty) {
  if (empty && valid_symbols[EPP_TRIMMED]) {
    lexer->result_symbol = EPP_TRIMMED;
    return true;
  }
  if (!valid_symbols[EPP_TEXT]) return false;
  lexer->result_symbol = EPP_TEXT;
  return true;
}

static bool scan_epp_text(TSLexer *lexer, const bool *valid_symbols) {
  bool trim_after = false;
  if (lexer->lookahead == '-') {
    trim_after = true;
    advance(lexer);
  }
  if (lexer->lookahead != '%') return false;
  advance(lexer);
  if (lexer->lookahead != '>') return false;
  advance(lexer);
  bool followed = !lexer->eof(lexer);

  /* What is left once `-%>` trimmed its blanks and line break: nothing yet, only blanks
   * (which `<%-` would trim), or more. */
  bool kept_any = false;
  bool kept_only_blanks = true;
  if (trim_after) {
    /* Puppet's EppScanner removes /[ \t]*\r?(\n|\z)?/ after `-%>`: the blanks go even
     * when no line break follows, and so does a lone CR. */
    while (lexer->lookahead == ' ' || lexer->lookahead == '\t') advance(lexer);
    if (lexer->lookahead == '\r') advance(lexer);
    if (lexer->lookahead == '\n') advance(lexer);
  }
  for (;;) {
    if (lexer->eof(lexer)) break;
    if (lexer->lookahead != '<') {
      kept_any = true;
      if (lexer->lookahead != ' ' && lexer->lookahead != '\t') kept_only_blanks = false;
      advance(lexer);
      continue;
    }
    lexer->mark_end(lexer);
    advance(lexer);
    if (lexer->lookahead != '%') {
      kept_any = true;
      kept_only_blanks = false;
      continue;
    }
    advance(lexer);
    if (lexer->lookahead == '%') { /* `<%%` is a literal `<%` */
      advance(lexer);
      kept_any = true;
      kept_only_blanks = false;
      continue;
    }
    if (lexer->lookahead == '=' || lexer->lookahead == '#') {
      /* `<%=` and `<%#` are tokens of their own: the text ends before them */
      return epp_text_result(lexer, valid_symbols, !kept_any);
    }
    bool trim_before = false;
    if (lexer->lookahead == '-') {
      trim_before = true;
      advance(lexer);
    }
    lexer->mark_end(lexer);
    return epp_text_result(lexer, valid_symbols, !kept_any || (trim_before && kept_only_blanks));
  }
  lexer->mark_end(lexer);
  /* At the end of input Puppet makes a text token of whatever followed the tag, even if
   * trimming left nothing of it (`<% 1 -%>` and a line break); only a tag that ends the
   * input is followed by no token at all. */
  return epp_text_result(lexer, valid_symbols, !followed);
}

/* `<%# ...` up to, not including, the `%>` or `-%>` that closes it. */
static bool scan_epp_comment(TSLexer *lexer) {
  advance(lexer);
  if (lexer->lookahead != '%') return false;
  advance(lexer);
  if (lexer->lookahead != '#') return false;
  advance(lexer);
  for (;;) {
    if (lexer->eof(lexer)) break;
    int32_t c = lexer->lookahead;
    if (c == '-' || c == '%') {
      lexer->mark_end(lexer);
      advance(lexer);
      if (c == '-' && lexer->lookahead == '%') advance(lexer);
      else if (c == '-') continue;
      if (lexer->lookahead == '>') {
        lexer->result_symbol = EPP_COMMENT;
        return true;
      }
      continue;
    }
    advance(lexer);
  }
  lexer->mark_end(lexer);
  lexer->result_symbol = EPP_COMMENT;
  return true;
}

/* ------------------------------------------------------------------ entry points */

static bool scan(Scanner *s, TSLexer *lexer, const bool *valid_symbols) {
  bool error_recovery = valid_symbols[ERROR_SENTINEL];

  if (s->in_body) {
    if (s->count == 0) {
      s->in_body = false;
      return false;
    }
    return scan_body_content(s, lexer, valid_symbols);
  }

  bool saw_newline = false;
  for (;;) {
    int32_t c = lexer->lookahead;
    if (c == '\n') {
      if (s->count > 0 && valid_symbols[HEREDOC_BODY_START]) return scan_body_start(s, lexer);
      saw_newline = true;
      skip(lexer);
    } else if (is_blank(c)) {
      skip(lexer);
    } else {
      break;
    }
  }
  if (lexer->eof(lexer)) return false;
  int32_t c = lexer->lookahead;

  if ((c == '%' || c == '-') && (valid_symbols[EPP_TEXT] || valid_symbols[EPP_TRIMMED])) {
    return scan_epp_text(lexer, valid_symbols);
  }
  if (c == '<' && valid_symbols[EPP_COMMENT]) return scan_epp_comment(lexer);
  if (error_recovery) return false;

  if (c == '@' && valid_symbols[HEREDOC_START]) return scan_heredoc_header(s, lexer);
  if (c == '(' && valid_symbols[WSLPAREN]) {
    /* Only after a line break skipped here: asking the lexer for the column walks back
     * to the start of the line, quadratic on long lines. No token ends with a line
     * break, so a `(` reached without one follows a token on its line (or starts the
     * file, where a plain `(` parses the same). */
    if (saw_newline) {
      advance(lexer);
      lexer->mark_end(lexer);
      lexer->result_symbol = WSLPAREN;
      return true;
    }
  }
  return false;
}

void *tree_sitter_puppet_external_scanner_create(void) {
  Scanner *s = (Scanner *)calloc(1, sizeof(Scanner));
  return s;
}

void tree_sitter_puppet_external_scanner_destroy(void *payload) {
  Scanner *s = (Scanner *)payload;
  free(s->chars);
  free(s);
}

unsigned tree_sitter_puppet_external_scanner_serialize(void *payload, char *buffer) {
  Scanner *s = (Scanner *)payload;
  unsigned size = 0;
  buffer[size++] = (char)s->count;
  buffer[size++] = (char)s->in_body;
  memcpy(buffer + size, &s->lines_remaining, sizeof s->lines_remaining);
  size += sizeof s->lines_remaining;
  for (uint8_t i = 0; i < s->count; i++) {
    const Heredoc *h = &s->pending[i];
    memcpy(buffer + size, &h->tag_len, sizeof h->tag_len);
    size += sizeof h->tag_len;
    memcpy(buffer + size, &h->tag_hash, sizeof h->tag_hash);
    size += sizeof h->tag_hash;
    buffer[size++] = (char)((h->interpolate ? 1 : 0) | (h->escapes ? 2 : 0));
  }
  return size;
}

void tree_sitter_puppet_external_scanner_deserialize(void *payload, const char *buffer,
                                                     unsigned length) {
  Scanner *s = (Scanner *)payload;
  /* Called before every scan: reset only the header, not the whole pending array. */
  s->count = 0;
  s->in_body = false;
  s->lines_remaining = 0;
  if (length < 2 + sizeof s->lines_remaining) return;
  unsigned pos = 0;
  uint8_t count = (uint8_t)buffer[pos++];
  s->in_body = buffer[pos++] != 0;
  memcpy(&s->lines_remaining, buffer + pos, sizeof s->lines_remaining);
  pos += sizeof s->lines_remaining;
  const unsigned entry = sizeof(uint32_t) + sizeof(uint64_t) + 1;
  for (uint8_t i = 0; i < count && i < MAX_PENDING && pos + entry <= length; i++) {
    Heredoc *h = &s->pending[i];
    memcpy(&h->tag_len, buffer + pos, sizeof h->tag_len);
    pos += sizeof h->tag_len;
    memcpy(&h->tag_hash, buffer + pos, sizeof h->tag_hash);
    pos += sizeof h->tag_hash;
    uint8_t flags = (uint8_t)buffer[pos++];
    h->interpolate = (flags & 1) != 0;
    h->escapes = (flags & 2) != 0;
    s->count = i + 1;
  }
}

bool tree_sitter_puppet_external_scanner_scan(void *payload, TSLexer *lexer,
                                              const bool *valid_symbols) {
  return scan((Scanner *)payload, lexer, valid_symbols);
}

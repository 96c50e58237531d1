/**
 * @file Puppet language grammar for tree-sitter: manifests (.pp) and EPP templates (.epp).
 *
 * Written for pupcheck from the Puppet language specification ("Expressions") and the
 * behaviour of Puppet 7's parser. The structure follows Puppet's own layering:
 *
 *   statement  ::= assignment (',' assignment)*          -- comma lists become statement calls
 *   assignment ::= relationship ('=' | '+=' | '-=') assignment
 *   relationship ::= resource (('->' | '~>' | '<-' | '<~') resource)*
 *   resource   ::= ['@' | '@@'] expression '{' bodies '}' | expression
 *   expression ::= operators, calls, access, literals ...
 *
 * so resource bodies can never be confused with the block of an `if`, `unless` or `case`
 * (their conditions are `expression`s, which cannot contain a resource).
 *
 * Lexical rules that need context live in src/scanner.c:
 *   - heredocs (`@(END)` headers, bodies after the end of the line, several per line);
 *   - `(` first on a line, which never continues a call (Puppet's WSLPAREN);
 *   - EPP template text between `%>` and `<%`, and `<%# %>` comments.
 * `[` right after an operand (no whitespace) is access; after whitespace it starts an
 * array literal (token.immediate below). `/` after an operand is division, elsewhere it
 * starts a regular expression (lexical precedence below).
 */

/* eslint-disable no-undef */

const PREC = {
  assignment: 1,
  relationship: 2,
  resource: 3,
  or: 4,
  and: 5,
  selector: 6,
  comparison: 7, // < > <= >=
  equality: 8, // == !=
  shift: 9, // << >>
  additive: 10,
  multiplicative: 11,
  match: 12, // =~ !~
  in: 13,
  unary_minus: 14,
  splat: 15,
  not: 16,
  collector: 17,
  access: 18,
  method: 19,
  call: 20,
};

// Words the lexer treats as keywords. They may still be used as attribute names and,
// for some, as hash keys (see `_keyword_as_name`).
const KEYWORDS = [
  'and', 'attr', 'case', 'class', 'default', 'define', 'else', 'elsif', 'false',
  'function', 'if', 'in', 'inherits', 'node', 'or', 'private', 'true', 'type',
  'undef', 'unless',
];
// `plan` is a keyword only in Puppet's tasks mode (Bolt), which `puppet parser validate`
// and a catalog compile do not use: there it is a plain name (`$x = plan`, a class or
// resource type `plan`). pupcheck reads `plan name (...) { }` at the start of a
// statement as a plan definition and the word as a name everywhere else.

// `type` and `function` stand for themselves as array elements, hash keys and hash
// values (Puppet's collection_entry_keyword).
const COLLECTION_KEYWORDS = ['type', 'function'];

// Keywords that are expressions by themselves.
const LITERAL_KEYWORDS = ['attr', 'default', 'false', 'private', 'true', 'undef'];

function commaSep1(rule) {
  return seq(rule, repeat(seq(',', rule)));
}

function commaSepTrailing(rule) {
  return optional(seq(commaSep1(rule), optional(',')));
}

module.exports = grammar({
  name: 'puppet',

  externals: $ => [
    $.heredoc_start, // `@(TAG:syntax/escapes)`
    $._heredoc_body_start, // the newline that ends the line holding heredoc headers
    $.heredoc_content, // text of a heredoc body, up to an interpolation or the end tag
    $.heredoc_end, // the line closing a heredoc: `|-  TAG`
    $._wslparen, // `(` as the first thing on its line: never a call
    $.epp_text, // template text, from `%>` up to and including the next `<%`
    $.epp_comment, // `<%# ... ` up to (not including) the closing `%>`
    $._error_sentinel, // valid only during error recovery
    $._epp_trimmed, // text between two EPP tags that trimming leaves empty: no token for Puppet
  ],

  // Puppet's whitespace: [[:blank:]] (space, tab and the Unicode space separators such
  // as a no-break space) and line breaks; a vertical tab or form feed is not.
  extras: $ => [
    /[ \t\r\n\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]/,
    $.comment,
    $.heredoc_body,
    $._epp_trimmed,
  ],

  word: $ => $.name,

  // Keywords are never names (Puppet's lexer decides by the word alone): `else {` is an
  // error, not a resource of type `else`. Where Puppet accepts a keyword as a name
  // (attribute names, hash keys, `${class}`), the rules name the keyword explicitly.
  reserved: {
    global: _ => KEYWORDS,
  },

  supertypes: $ => [$._statement, $._expression],

  // A template's first text run (alone or after a comment) is part of its head, where
  // the parameter tag may follow, or its first statement; the head is preferred.
  conflicts: $ => [[$._statement, $.epp_template], [$._expression, $.epp_template]],

  rules: {
    source_file: $ => choice(
      repeat($._statement_item),
      $.epp_template,
    ),

    // ---------------------------------------------------------------- statements

    _statement_item: $ => choice($._statement, ';'),

    _statement: $ => choice(
      $._assignment_level,
      $.statement_call,
      $.class_definition,
      $.define_definition,
      $.node_definition,
      $.function_definition,
      $.plan_definition,
      $.type_alias,
      $.type_mapping,
      $.type_definition,
      $.epp_comment,
    ),

    // `include a, b` / `notice $x` / `fail 'x'` / `return`: Puppet turns a statement of one
    // of these names followed by arguments without parentheses into a call (its
    // STATEMENT_CALLS). Any other bare word followed by a value is two statements, which
    // validation reports.
    statement_call: $ => prec.right(1, seq(
      field('function', alias($.statement_function, $.name)),
      optional(field('arguments', alias($._statement_call_arguments, $.argument_list))),
    )),

    statement_function: _ => token(prec(1, choice(
      'require', 'realize', 'include', 'contain', 'tag', 'debug', 'info', 'notice',
      'warning', 'err', 'fail', 'import', 'break', 'next', 'return',
    ))),

    statement_function_call: $ => prec.right(PREC.call, seq(
      field('function', alias($.statement_function, $.name)),
      field('arguments', $.argument_list),
      optional(field('lambda', $.lambda)),
    )),

    _statement_call_arguments: $ => prec.right(commaSep1($._argument)),

    block: $ => seq('{', repeat($._statement_item), '}'),

    // ---------------------------------------------------------------- assignment level

    _assignment_level: $ => choice(
      $.assignment,
      $._relationship_level,
    ),

    assignment: $ => prec.right(PREC.assignment, seq(
      field('left', $._relationship_level),
      field('operator', choice('=', '+=', '-=')),
      field('right', $._assignment_level),
    )),

    _relationship_level: $ => choice(
      $.relationship,
      $._resource_level,
    ),

    relationship: $ => prec.left(PREC.relationship, seq(
      field('left', $._relationship_level),
      field('operator', choice('->', '~>', '<-', '<~')),
      field('right', $._resource_level),
    )),

    _resource_level: $ => choice(
      $.resource_declaration,
      $.resource_collection_override,
      $._expression,
    ),

    // file { 'a': ... }, @file { ... }, class { 'x': }, File { ... } (defaults),
    // File['x'] { ... } (override), Resource[file] { 'a': ... }
    resource_declaration: $ => prec(PREC.resource, seq(
      optional(field('form', choice('@', '@@'))),
      field('type', choice($._expression, alias('class', $.name))),
      '{',
      choice(
        seq(
          $.resource_body,
          repeat(seq(';', $.resource_body)),
          optional(';'),
        ),
        optional($.attribute_list),
      ),
      '}',
    )),

    resource_body: $ => seq(
      field('title', $._expression),
      ':',
      optional($.attribute_list),
    ),

    // Puppet takes one comma before the attributes too (`file { 'a':, ensure => file }`,
    // `File { , mode => '0644' }`, `notify { 'x':, }`), never two in a row.
    attribute_list: $ => choice(
      ',',
      seq(optional(','), commaSep1($.attribute), optional(',')),
    ),

    attribute: $ => choice(
      seq(
        field('name', $._attribute_name),
        field('operator', choice('=>', '+>')),
        field('value', $._expression),
      ),
      seq(
        field('name', alias('*', $.splat_attribute_name)),
        field('operator', '=>'),
        field('value', $._expression),
      ),
    ),

    _attribute_name: $ => choice(
      $.name,
      $._keyword_as_name,
      alias($.statement_function, $.name),
      alias('apply', $.name),
    ),

    _keyword_as_name: $ => alias(choice(...KEYWORDS), $.name),

    // `${class}` reads the variable $class (spec: "Expressions", String Interpolation).
    // Keywords that are literals on their own (`true`, `undef`, ...) keep their meaning.
    _interpolated_keyword: $ => alias(choice(...KEYWORDS.filter(k => !LITERAL_KEYWORDS.includes(k))), $.name),

    // File <| tag == 'x' |> { mode => '0644' }
    resource_collection_override: $ => prec(PREC.resource, seq(
      field('collector', $.collector),
      '{',
      optional($.attribute_list),
      '}',
    )),

    // ---------------------------------------------------------------- expressions

    _expression: $ => choice(
      $.binary_expression,
      $.unary_expression,
      $.selector,
      $.collector,
      $.access_expression,
      $.call_expression,
      $.apply_expression,
      $.method_call,
      $.parenthesized_expression,
      $.if_expression,
      $.unless_expression,
      $.case_expression,
      $.variable,
      $.name,
      // `notice('x')` is an ordinary call wherever it stands, so it may go on
      // (`include(a) -> Class['b']`, `notice(1).foo`); the bare name is a plain name
      // (`tag == 'x'` in a query), below a statement call that takes arguments.
      alias($.statement_function_call, $.call_expression),
      prec(-1, alias($.statement_function, $.name)),
      // `apply` is a keyword in Bolt's tasks mode only; elsewhere it is a plain name.
      prec(-1, alias('apply', $.name)),
      $.type_ref,
      $.integer,
      $.float,
      $.string,
      $.interpolated_string,
      $.heredoc,
      $.regex,
      $.true,
      $.false,
      $.undef,
      $.default,
      $.reserved_word,
      $.array,
      $.hash,
      // Template text and `<%= %>` are values (Puppet's RENDER_STRING and RENDER_EXPR are
      // primary expressions): statements wherever statements go (a block may span tags),
      // and operands too (`<% $a = %>text<% %>`).
      $.epp_text,
      $.epp_render_expression,
    ),

    binary_expression: $ => {
      const table = [
        [PREC.or, 'or'],
        [PREC.and, 'and'],
        [PREC.comparison, choice('<', '>', '<=', '>=')],
        [PREC.equality, choice('==', '!=')],
        [PREC.shift, choice('<<', '>>')],
        [PREC.additive, choice('+', '-')],
        [PREC.multiplicative, choice('*', token(prec(1, '/')), '%')],
        [PREC.match, choice('=~', '!~')],
        [PREC.in, 'in'],
      ];
      return choice(...table.map(([p, operator]) => prec.left(p, seq(
        field('left', $._expression),
        field('operator', operator),
        field('right', $._expression),
      ))));
    },

    unary_expression: $ => choice(
      prec.right(PREC.not, seq(field('operator', '!'), field('operand', $._expression))),
      prec.right(PREC.unary_minus, seq(field('operator', '-'), field('operand', $._expression))),
      prec.right(PREC.splat, seq(field('operator', '*'), field('operand', $._expression))),
    ),

    // $x ? { 'a' => 1, default => 2 }, or one entry without braces: $x ? 'a' => 1
    selector: $ => prec.left(PREC.selector, seq(
      field('subject', $._expression),
      '?',
      choice(
        seq('{', commaSepTrailing($.selector_entry), '}'),
        $.selector_entry,
      ),
    )),

    // Above a hash entry: `{` right after `?` always opens the entries (Puppet's SELBRACE).
    selector_entry: $ => prec(1, seq(
      field('match', $._expression),
      '=>',
      field('value', $._expression),
    )),

    // File <| title == 'x' |>, File <<| tag == 'y' |>>
    collector: $ => prec.left(PREC.collector, seq(
      field('type', $._expression),
      choice(
        seq(field('kind', '<|'), optional(field('query', $._expression)), '|>'),
        seq(field('kind', '<<|'), optional(field('query', $._expression)), '|>>'),
      ),
    )),

    // $x[1], Hash[String, Integer], $h['a']['b']: `[` directly after the operand.
    access_expression: $ => prec(PREC.access, seq(
      field('object', $._expression),
      token.immediate('['),
      field('arguments', $.access_arguments),
      ']',
    )),

    // No assignment among them: Puppet's grammar refuses `File[$x = 'a']` (unlike a call's
    // arguments or an array's elements).
    access_arguments: $ => seq(commaSep1($._access_argument), optional(',')),

    _access_argument: $ => choice($._relationship_level, $.hash_entry),

    // f(a, b), Integer('1'), $fn(1), each($x) |$v| { }
    call_expression: $ => prec.right(PREC.call, seq(
      // `type($x)`: the keyword `type` names the function too (Puppet's `TYPE LPAREN`).
      field('function', choice($._expression, alias('type', $.name))),
      field('arguments', $.argument_list),
      optional(field('lambda', $.lambda)),
    )),

    // Bolt plans: `apply($targets, opts) { catalog code }` (Puppet's APPLY in tasks mode,
    // where `apply` is a keyword).
    apply_expression: $ => prec.right(PREC.call, seq(
      'apply',
      field('arguments', $.argument_list),
      field('body', $.block),
    )),

    // `name (x)` is a call, never a statement call with a parenthesised argument: in
    // Puppet only a `(` that starts a line (the external _wslparen) ends a call.
    argument_list: $ => prec(1, seq('(', commaSepTrailing($._argument), ')')),

    _argument: $ => choice($._assignment_level, $.hash_entry),

    // $x.each |$v| { }, $s.split(','), Integer.new('1')
    method_call: $ => prec.right(PREC.method, seq(
      field('receiver', $._expression),
      '.',
      field('method', choice($.name, alias('type', $.name))),
      optional(field('arguments', $.argument_list)),
      optional(field('lambda', $.lambda)),
    )),

    lambda: $ => seq(
      '|',
      commaSepTrailing($.parameter),
      '|',
      optional(field('return_type', $.return_type)),
      field('body', $.block),
    ),

    // Lower than an argument list, so `notice ($x)` is a call, as in Puppet.
    parenthesized_expression: $ => prec(-1, seq(
      choice('(', alias($._wslparen, '(')),
      $._assignment_level,
      ')',
    )),

    if_expression: $ => seq(
      'if',
      field('condition', $._expression),
      field('consequence', $.block),
      repeat(field('alternative', $.elsif_clause)),
      optional(field('alternative', $.else_clause)),
    ),

    elsif_clause: $ => seq(
      'elsif',
      field('condition', $._expression),
      field('consequence', $.block),
    ),

    else_clause: $ => seq('else', field('body', $.block)),

    unless_expression: $ => seq(
      'unless',
      field('condition', $._expression),
      field('consequence', $.block),
      optional(field('alternative', $.else_clause)),
    ),

    case_expression: $ => seq(
      'case',
      field('subject', $._expression),
      '{',
      repeat($.case_option),
      '}',
    ),

    case_option: $ => seq(
      commaSep1(field('match', $._expression)),
      optional(','),
      ':',
      field('body', $.block),
    ),

    // ---------------------------------------------------------------- literals

    variable: _ => token(/\$(::)?([A-Za-z0-9_]+::)*[A-Za-z0-9_]+/),

    // A bare word: `foo`, `foo::bar`, `::foo`, and words with dashes (`foo-bar`).
    name: _ => token(/(::)?[a-z_]([A-Za-z0-9_-]*[A-Za-z0-9_])?(::[a-z_]([A-Za-z0-9_-]*[A-Za-z0-9_])?)*/),

    // A capitalised reference: `File`, `Foo::Bar`, `::Foo`.
    type_ref: _ => token(/(::)?[A-Z][A-Za-z0-9_]*(::[A-Z][A-Za-z0-9_]*)*/),

    integer: _ => token(choice(/0[xX][0-9A-Fa-f]+/, /[0-9]+/)),

    float: _ => token(/[0-9]+(\.[0-9]+([eE]-?[0-9]+)?|[eE]-?[0-9]+)/),

    true: _ => 'true',
    false: _ => 'false',
    undef: _ => 'undef',
    default: _ => 'default',
    reserved_word: _ => choice('attr', 'private'),

    string: _ => token(seq("'", repeat(choice(/[^'\\]+/, /\\(.|\r?\n)/)), "'")),

    interpolated_string: $ => seq(
      '"',
      repeat(choice(
        $.string_content,
        $.escape_sequence,
        $.interpolation,
        alias(token.immediate('$'), $.string_content),
      )),
      token.immediate('"'),
    ),

    // Above comments (precedence 2): a `#` inside a string is text.
    string_content: _ => token.immediate(prec(3, /[^"\\$]+/)),

    escape_sequence: _ => token.immediate(choice(
      /\\u\{[0-9A-Fa-f]+\}/,
      /\\u[0-9A-Fa-f]{4}/,
      /\\(.|\r?\n)/,
    )),

    // "$x", "${x}", "${x[1]}", "${x.upcase}", "${$x + 1}"
    interpolation: $ => choice(
      field('variable', alias(token.immediate(/\$(::)?([A-Za-z0-9_]+::)*[A-Za-z0-9_]+/), $.variable)),
      seq(
        token.immediate('${'),
        field('expression', choice($._assignment_level, $._interpolated_keyword_operand)),
        '}',
      ),
    ),

    // `${type['x']}` and `${class.foo}`: Puppet reads a keyword right after `${` as a
    // variable name, also when an access or method call follows it.
    _interpolated_keyword_operand: $ => choice(
      $._interpolated_keyword,
      alias($.interpolated_keyword_access, $.access_expression),
      alias($.interpolated_keyword_method, $.method_call),
    ),

    interpolated_keyword_access: $ => seq(
      field('object', $._interpolated_keyword_operand),
      token.immediate('['),
      field('arguments', $.access_arguments),
      ']',
    ),

    interpolated_keyword_method: $ => prec.right(seq(
      field('receiver', $._interpolated_keyword_operand),
      '.',
      field('method', choice($.name, alias('type', $.name))),
      optional(field('arguments', $.argument_list)),
      optional(field('lambda', $.lambda)),
    )),

    heredoc: $ => $.heredoc_start,

    // The body of a heredoc comes after the line that holds its header, so it is an
    // "extra": it may sit anywhere in the tree. Bodies belong to headers in order.
    heredoc_body: $ => seq(
      $._heredoc_body_start,
      repeat(choice($.heredoc_content, $.interpolation)),
      $.heredoc_end,
    ),

    // Up to the next `/` that no backslash escapes, line breaks included (Puppet's
    // PATTERN_REGEX and escaped_end).
    regex: _ => token(seq('/', repeat(choice(/[^/\\]/, /\\[\s\S]/)), '/')),

    array: $ => seq(
      '[',
      commaSepTrailing(choice($._argument, $._collection_keyword)),
      ']',
    ),

    _collection_keyword: $ => alias(choice(...COLLECTION_KEYWORDS), $.name),

    hash: $ => seq(
      '{',
      commaSepTrailing($.hash_entry),
      '}',
    ),

    hash_entry: $ => seq(
      field('key', choice($._assignment_level, $._collection_keyword)),
      '=>',
      field('value', choice($._assignment_level, $._collection_keyword)),
    ),

    // Above division (`/`, precedence 1), so `/*` after an operand opens a comment.
    comment: _ => token(prec(2, choice(
      seq('#', /[^\r\n]*/),
      seq('/*', /[^*]*\*+([^/*][^*]*\*+)*/, '/'),
    ))),

    // ---------------------------------------------------------------- definitions

    class_definition: $ => seq(
      'class',
      field('name', $._definition_name),
      optional(field('parameters', $.parameter_list)),
      optional(seq('inherits', field('parent', choice($._definition_name, $.default)))),
      field('body', $.block),
    ),

    define_definition: $ => seq(
      'define',
      field('name', $._definition_name),
      optional(field('parameters', $.parameter_list)),
      field('body', $.block),
    ),

    function_definition: $ => seq(
      'function',
      field('name', $._definition_name),
      optional(field('parameters', $.parameter_list)),
      optional(field('return_type', $.return_type)),
      field('body', $.block),
    ),

    plan_definition: $ => seq(
      'plan',
      field('name', $._definition_name),
      optional(field('parameters', $.parameter_list)),
      field('body', $.block),
    ),

    _definition_name: $ => choice($.name, $.type_ref),

    node_definition: $ => seq(
      'node',
      commaSep1(field('match', $._hostname)),
      optional(','),
      optional(seq('inherits', field('parent', $._hostname))),
      field('body', $.block),
    ),

    _hostname: $ => choice($.string, $.interpolated_string, $.regex, $.default, $.dotted_name),

    dotted_name: $ => seq(
      choice($.name, $.integer, $.float),
      repeat(seq(token.immediate('.'), choice($.name, $.integer, $.float))),
    ),

    // type Foo::Bar = Variant[...]
    type_alias: $ => seq(
      'type',
      field('name', $.type_ref),
      '=',
      field('type', $._expression),
    ),

    // type Runtime['ruby', 'X'] = Y (Pcore's runtime type mapping; Puppet's TypeMapping
    // when the left side is an access). Validation says which left sides are supported.
    type_mapping: $ => seq(
      'type',
      field('name', alias($._type_mapping_lhs, $.access_expression)),
      '=',
      field('type', $._expression),
    ),

    _type_mapping_lhs: $ => seq(
      field('object', $.type_ref),
      token.immediate('['),
      field('arguments', $.access_arguments),
      ']',
    ),

    // type Foo inherits Bar { ... }  (a Pcore object type definition)
    type_definition: $ => seq(
      'type',
      field('name', $.type_ref),
      optional(seq('inherits', field('parent', $.type_ref))),
      field('body', $.block),
    ),

    parameter_list: $ => seq(
      choice('(', alias($._wslparen, '(')),
      commaSepTrailing($.parameter),
      ')',
    ),

    parameter: $ => seq(
      optional(field('type', $._type_expression)),
      optional(field('splat', '*')),
      field('name', $.variable),
      optional(seq('=', field('default', $._expression))),
    ),

    return_type: $ => seq('>>', field('type', $._type_expression)),

    _type_expression: $ => choice(
      $.type_ref,
      alias($.type_access, $.access_expression),
    ),

    type_access: $ => seq(
      field('object', $.type_ref),
      token.immediate('['),
      field('arguments', $.access_arguments),
      ']',
    ),

    // ---------------------------------------------------------------- EPP

    // An EPP template is parsed with "<%EPP" put before its text, so the template text
    // begins with "%>" like every other text run between tags.
    epp_template: $ => seq(
      '<%EPP',
      // The parameter tag may only come first: after comments, and text that trimming
      // removes (lowering checks that; text trimmed to nothing is no token at all).
      optional(prec.dynamic(1, $.epp_text)),
      repeat(prec(1, seq($.epp_comment, optional($.epp_text)))),
      optional(seq($.epp_parameters, optional($.epp_text))),
      repeat($._statement_item),
    ),

    // <%- | String $x, Integer $y = 1 | -%>
    epp_parameters: $ => seq('|', commaSepTrailing($.parameter), '|'),

    // <%= expression %>
    epp_render_expression: $ => seq(
      '<%=',
      field('expression', $._expression),
    ),
  },
});

; Syntax highlighting for Puppet manifests and EPP templates.

(comment) @comment
(epp_comment) @comment

[
  "if" "elsif" "else" "unless" "case"
] @keyword.conditional

[
  "class" "define" "node" "function" "plan" "type" "inherits"
] @keyword

[ "and" "or" "in" ] @keyword.operator

(statement_call function: (name) @function.builtin)
(call_expression function: (name) @function.call)
(call_expression function: (type_ref) @type)
(method_call method: (name) @function.method.call)

(class_definition name: (_) @type.definition)
(define_definition name: (_) @type.definition)
(function_definition name: (_) @function)
(plan_definition name: (_) @function)
(type_alias name: (type_ref) @type.definition)

(resource_declaration type: (name) @type)
(attribute name: (name) @property)
(parameter name: (variable) @variable.parameter)

(variable) @variable
(interpolation "${" @punctuation.special "}" @punctuation.special)
(type_ref) @type

(string) @string
(interpolated_string) @string
(heredoc) @string
(heredoc_body) @string
(heredoc_end) @label
(escape_sequence) @string.escape
(regex) @string.regexp
(integer) @number
(float) @number.float
[(true) (false)] @boolean
[(undef) (default)] @constant.builtin
(reserved_word) @keyword

[
  "=" "+=" "-=" "=>" "+>" "->" "~>" "<-" "<~" "==" "!=" "=~" "!~" "<" ">" "<=" ">="
  "+" "-" "*" "/" "%" "<<" ">>" "!" "?" "<|" "|>" "<<|" "|>>" "@" "@@"
] @operator

["(" ")" "[" "]" "{" "}"] @punctuation.bracket
["," ";" ":" "." "|"] @punctuation.delimiter

(epp_text) @none
["<%=" ] @punctuation.special

#!/usr/bin/env python3
"""Assign every disagreement of a results file to a root cause (heuristic predicates on
the snippet and both verdicts; the first matching predicate wins) and count the generated
snippets per cause.

  python3 causes.py results.jsonl [results2.jsonl ...] [--show CAUSE] [--unassigned N]

Writes cause_counts.json (cause -> count) and cause_examples.json (cause -> ids).
"""
import json, re, sys, collections, subprocess

FA = 'FALSE_ALARM'
MS = 'MISS'
SF = r'(?:notice|include|require|contain|tag|realize|debug|info|warning|err|fail|import|break|next|return)'


def has(code, *pats):
    return any(re.search(p, code, re.S) for p in pats)


def before_err(code, pm, n=40):
    """Source text just before the position Puppet's message points at (comments dropped)."""
    mm = re.search(r'line: (\d+), column: (\d+)', pm)
    txt = code
    if mm:
        ln, col = int(mm.group(1)), int(mm.group(2))
        lines = code.split('\n')
        off = sum(len(l) + 1 for l in lines[:ln - 1]) + col - 1
        txt = code[:off]
    txt = re.sub(r'/\*.*?\*/', ' ', txt, flags=re.S)
    txt = re.sub(r'#[^\n]*', ' ', txt)
    return txt.rstrip()[-n:]


def empty_gap(c, before=r'', after=r''):
    """A `%>` ... `<%` pair whose text Puppet trims to nothing (so no RENDER_STRING token
    separates the two tags' code), the code before ending with `before`, the code after
    starting with `after`."""
    for mm in re.finditer(r'(' + before + r')\s*(-?)%>((?:(?!<%).)*?)<%(-?)(?![=#%])\s*(' + after + ')', c, re.S):
        t = mm.group(3)
        if mm.group(2):
            t = re.sub(r'^[ \t]*\r?(\n|$)?', '', t, count=1)
        if mm.group(4):
            t = re.sub(r'[ \t]*$', '', t)
        if t == '':
            return True
    return False


# (id, class, predicate(code, ext, puppet_message, pupcheck_rules, pupcheck_messages))
CAUSES = [
    # ------------------------------------------------------------------ false alarms
    ('fa-duplicate-resource-attribute', FA, lambda c, e, pm, r, m: r[0] == 'duplicate-resource-attribute'),
    ('fa-reserved-variable-assignment', FA, lambda c, e, pm, r, m: r[0] == 'reserved-variable-assignment'),
    ('fa-lambda-duplicate-parameter', FA, lambda c, e, pm, r, m: r[0] == 'duplicate-parameter' and '|' in c),
    ('fa-query-bare-operand', FA, lambda c, e, pm, r, m: r[0] == 'illegal-query-expression'),
    ('fa-nul-byte', FA, lambda c, e, pm, r, m: '\x00' in c),
    ('fa-unicode-blank', FA, lambda c, e, pm, r, m: has(c, '[\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]')),
    ('fa-heredoc-limits', FA, lambda c, e, pm, r, m: any(len(re.findall(r'@\(', ln)) > 8 for ln in c.split('\n'))
     or has(c, r'@\("?[^)\n]{65,}\)')),
    ('fa-title-colon-comma', FA, lambda c, e, pm, r, m: m[:1] == ["Syntax error at ','"] and has(c, r':\s*,', r'\{\s*,')),
    ('fa-braceless-selector', FA, lambda c, e, pm, r, m: has(c, r"\?\s*(\$?\w+|'[^']*'|/[^/]*/)\s*=>")),
    ('fa-keyword-type-function-value', FA, lambda c, e, pm, r, m: has(
        c, r'(=>|\[|,)\s*(/\*.*?\*/|#[^\n]*\n|\s)*(type|function)\b(?!\s*[\w:]+\s*[({])(?!\s+[A-Z][\w:]*\s*=)', r'\n\s*(type|function)\s*[,\]}\)]')),
    ('fa-epp-block-render', FA, lambda c, e, pm, r, m: e == 'epp' and has(c, r'<%=\s*\{[^}]*(\(|notice|;)')),
    ('fa-epp-param-tag-late', FA, lambda c, e, pm, r, m: e == 'epp' and (any('parameter tag must come first' in x for x in m) or has(c, r'^[^|]*<%-?[^%|=]*-?%>\s*<%-?\s*\|'))),
    ('fa-epp-params-then-code', FA, lambda c, e, pm, r, m: e == 'epp' and has(c, r'<%-?\s*\|[^|%]*\|\s*[^\s%{-]')),
    ('fa-epp-paren-first', FA, lambda c, e, pm, r, m: r[0] == 'illegal-epp-parameters'),
    ('fa-epp-last-statement-idem', FA, lambda c, e, pm, r, m: e == 'epp' and r[0] == 'idem-expression'
     and not has(c, r'%>[^<]*\S[^<]*$') and not has(c, r'%>[ \t]*\S')),
    ('fa-epp-statement-spans-tags', FA, lambda c, e, pm, r, m: e == 'epp' and (
        empty_gap(c, r'\}', r'else|elsif') or empty_gap(c, r'[(\[,=+|{?]|\|[^|%]*\|') or empty_gap(c, r"'a'[^%]*")
        or empty_gap(c, r'case \$x \{') or empty_gap(c, r'\w', r'[)\]}{]'))),
    ('fa-epp-text-is-operand', FA, lambda c, e, pm, r, m: e == 'epp'),
    ('fa-plan-keyword', FA, lambda c, e, pm, r, m: has(c, r'\bplan\b')
     and any('plan' in x or "'='" in x or "'define'" in x or "'function'" in x for x in m)),
    ('fa-regex-with-newline', FA, lambda c, e, pm, r, m: has(c, r'(^|[=(\[,{:~]|node|\?)\s*/[^/*\n]*\n[^/]*/')),
    ('fa-regex-after-brace-or-keyword', FA, lambda c, e, pm, r, m: has(c, r'\b(undef|default)\s*/', r'\}\s*/')),
    ('fa-statement-function-resource-type', FA, lambda c, e, pm, r, m: has(c, r'^\s*' + SF + r'\s*\{\s*[\'"$\w\[]+[^{}]*:')),
    ('fa-statement-function-operand', FA, lambda c, e, pm, r, m: has(
        c, r'(?<![\w$:])' + SF + r'(\s|/\*.*?\*/)*(\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\))?(\s|/\*.*?\*/|#[^\n]*\n)*(\|[^|]*\|\s*\{[^}]*\})?(\s|/\*.*?\*/|#[^\n]*\n)*'
           r'(\.\s*\w|\+|\?|==|->|~>|<-|<~|\*|/[^*]|\band\b|\bor\b|\bin\b|=~|!=|<|>)')),
    ('fa-statement-call-across-semicolon', FA, lambda c, e, pm, r, m: has(c, r'(^|\n)\s*' + SF + r'\s*;\s*[^\s;]')),
    ('fa-resource-append-defaults', FA, lambda c, e, pm, r, m: r[0] == 'attribute-append-outside-override' and has(c, r'Resource\[')),
    ('fa-node-dot-spaces', FA, lambda c, e, pm, r, m: has(c, r'node\s+[\w.]*\w(\s|#[^\n]*\n|/\*.*?\*/)+\.|node\s+[\w.]*\.\s')),
    ('fa-at-at-spacing', FA, lambda c, e, pm, r, m: has(c, r'@\s+@|@@@')),
    ('fa-heredoc-unclosed-interpolation', FA, lambda c, e, pm, r, m: has(c, r'@\("[^)]*\)[^\n]*\n(.*\n)?[^\n]*\$\{[^}\n]*\n')),
    ('fa-quote-after-empty-string', FA, lambda c, e, pm, r, m: has(c, r"'''", r'"""', r'\}""')),
    ('fa-interpolated-number-overflow', FA, lambda c, e, pm, r, m: r[0] == 'numeric-overflow' and has(c, r'\$\{\d')),
    ('fa-resource-followed-by-brace', FA, lambda c, e, pm, r, m: has(c, r"\}\s*\{\s*['\"\w$\[][^{}]*:")),
    # ------------------------------------------------------------------ misses
    ('miss-plan-definition', MS, lambda c, e, pm, r, m: has(c, r'\bplan\s+[\w:]+')),
    ('miss-epp-tags-in-manifest', MS, lambda c, e, pm, r, m: e == 'pp' and has(c, r'^\s*(-?%>|<%)', r'[^"\'/%\w]\s*(-?%>|<%)')
     and ("Syntax error at '%'" in pm or "Syntax error at '<'" in pm or "Syntax error at '>'" in pm)),
    ('miss-epp-literal-tag-at-end', MS, lambda c, e, pm, r, m: 'Unbalanced embedded expression' in pm),
    ('miss-cr-in-comment', MS, lambda c, e, pm, r, m: has(c, r'#[^\n\r]*\r[^\n]')),
    ('miss-resource-followed-by-brace', MS, lambda c, e, pm, r, m: 'Expression is not valid as a resource, resource-default, or resource-override' in pm),
    ('miss-word-function-name', MS, lambda c, e, pm, r, m: 'A String is unacceptable as function name' in pm),
    ('miss-regex-first-in-interpolation', MS, lambda c, e, pm, r, m: "Syntax error at '/'" in pm and has(c, r'"[^"]*\$\{\s*/')),
    ('miss-keyword-dash-word', MS, lambda c, e, pm, r, m: re.search(r"Syntax error at '(and|or|in|if|unless|case|else|elsif|default|undef|true|false|node|class|define)-", pm)),
    ('miss-statement-call-chain', MS, lambda c, e, pm, r, m: has(c, r'(?<![\w$:])' + SF + r'\s+' + SF + r'\b') or 'illegal comma separated argument list' in pm or 'cannot be called without parentheses' in pm),
    ('miss-quote-after-empty-string', MS, lambda c, e, pm, r, m: ('Unclosed quote' in pm or len(c) < 40 or "Syntax error at ''" in pm) and has(c, '""""', "''''", "'''[^'\\n]", '"""[^"\\n]', r'(^|[^"\\])""\$', r'\}"\$')),
    ('miss-bom', MS, lambda c, e, pm, r, m: 'Byte Order mark' in pm),
    ('miss-trailing-semicolon', MS, lambda c, e, pm, r, m: ("Syntax error at ';'" in pm or 'Syntax error at end of input' in pm
                                                            or "Syntax error at '}'" in pm or "Syntax error at '%>'" in pm)
     and (before_err(c, pm).endswith(';') or (before_err(c, pm).endswith('{') and "at ';'" in pm)
          or before_err(c, pm).endswith('<%') or (before_err(c, pm) == '' and "at ';'" in pm) or has(c, r';\s*-?%>'))),
    ('miss-method-call-trailing-comma', MS, lambda c, e, pm, r, m: "Syntax error at ')'" in pm and (
        before_err(c, pm).endswith(',') or has(c, r'\.\s*[\w:]+\s*\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*,\s*\)'))),
    ('miss-empty-case-or-selector', MS, lambda c, e, pm, r, m: "Syntax error at '}'" in pm and has(c, r'(case [^{]*|\?\s*)\{\s*\}')),
    ('miss-definition-in-epp', MS, lambda c, e, pm, r, m: e == 'epp' and 'may only appear at toplevel' in pm),
    ('miss-function-or-type-alias-nested', MS, lambda c, e, pm, r, m: ('may only appear at toplevel' in pm and ('Function Definition' in pm or 'Type Alias' in pm))
     or ('Classes, definitions, and nodes may only appear' in pm and has(c, r'\{[^}]*\b(function\s+[\w:]+|type\s+[A-Z][\w:]*\s*=)'))),
    ('miss-type-alias-rhs', MS, lambda c, e, pm, r, m: has(c, r'\btype\s+[\w:]+(\[[^\]]*\])?\s*=') and (
        'Syntax error at' in pm or 'unacceptable as a type reference' in pm or 'may only appear at toplevel' in pm or 'Language validation logged' in pm)),
    ('miss-type-alias-name', MS, lambda c, e, pm, r, m: ('Unacceptable name' in pm and 'Type Alias' in pm) or "Runtime 'name_or_pattern'" in pm
     or 'Illegal type mapping' in pm or 'Originally set by Puppet-Type-System' in pm),
    ('miss-invalid-unicode-escape', MS, lambda c, e, pm, r, m: 'invalid byte sequence' in pm),
    ('miss-interpolated-true-false', MS, lambda c, e, pm, r, m: "undefined method `[]' for" in pm),
    ('miss-interpolated-non-decimal-number', MS, lambda c, e, pm, r, m: 'Illegal numeric variable name' in pm),
    ('miss-idem-conditional', MS, lambda c, e, pm, r, m: re.search(r"This '(if|case)' statement has no effect|This 'unless' Statement has no effect", pm)),
    ('miss-idem-variable-statement', MS, lambda c, e, pm, r, m: 'This Variable has no effect' in pm),
    ('miss-idem-heredoc-statement', MS, lambda c, e, pm, r, m: "This '@()' expression has no effect" in pm),
    ('miss-statement-call-hash-argument', MS, lambda c, e, pm, r, m: "Syntax error at '=>'" in pm and has(
        c, r'(^|\n)\s*' + SF + r'\s+[\w\']+\s*=>')),
    ('miss-statement-function-hash-literal', MS, lambda c, e, pm, r, m: 'Syntax error at' in pm and has(c, r'(^|\n)\s*' + SF + r'\s*\{')),
    ('miss-keyword-or-word-attribute-name', MS, lambda c, e, pm, r, m: re.search(r"Syntax error at '(true|false|_\w*|\w+-[\w-]+|=>)'", pm)
     and has(c, r'[{,:]\s*(true|false|_\w*|\w+-\w+)\s*(=>|\+>)')),
    ('miss-parameter-type-trailing-comma', MS, lambda c, e, pm, r, m: "Syntax error at ']'" in pm and has(c, r'[A-Z]\w*\[[^\]]*,\s*\]\s*(\*?\$|\{|\|)')),
    ('miss-lambda-return-type-glued', MS, lambda c, e, pm, r, m: "'|>>'" in pm),
    ('miss-method-name-word', MS, lambda c, e, pm, r, m: re.search(r"Syntax error at '(_\w*|\w+-[\w-]*)'", pm) and has(c, r'\.\s*(_\w*|\w+-\w)')),
    ('miss-octal-float', MS, lambda c, e, pm, r, m: 'Not a valid octal number' in pm),
    ('miss-heredoc-syntax-check', MS, lambda c, e, pm, r, m: 'Invalid produced text having syntax' in pm),
    ('miss-heredoc-header', MS, lambda c, e, pm, r, m: 'Invalid syntax in heredoc' in pm or 'Heredoc without any following lines' in pm),
    ('miss-slash-star-comment', MS, lambda c, e, pm, r, m: 'Unclosed multiline comment' in pm),
    ('miss-vt-ff-whitespace', MS, lambda c, e, pm, r, m: has(c, '[\x0b\x0c]')),
    ('miss-regex-after-brace-or-keyword', MS, lambda c, e, pm, r, m: 'This Regular Expression has no effect' in pm or "Syntax error at '(?-mix:" in pm
     or (re.search(r'(Puppet::Error|RegexpError): ', pm) and has(c, r'(\}|\bundef|\bdefault)\s*/[^/*]'))
     or has(before_err(c, pm, 200), r'(\}|\bundef|\bdefault)\s*/[^/]*$') or has(c, r'\b(undef|default)\s*/\s')),
    ('miss-invalid-regex', MS, lambda c, e, pm, r, m: re.search(r'(Puppet::Error|RegexpError): .*(unmatched|premature end|end pattern|target of repeat|invalid pattern|too short|empty char-class|nothing to repeat|empty range)', pm)
     and not has(c, r'\b(undef|default)\s*/', r'\}\s*/')),
    ('miss-epp-captures-rest', MS, lambda c, e, pm, r, m: "'captures rest' - not supported in an Epp" in pm),
    ('miss-case-option-trailing-comma', MS, lambda c, e, pm, r, m: "Syntax error at ':'" in pm and has(c, r',\s*:')),
    ('miss-metaparameter-name', MS, lambda c, e, pm, r, m: 'is a metaparameter' in pm),
    ('miss-capitalised-definition-name', MS, lambda c, e, pm, r, m: 'Unacceptable name' in pm),
    ('miss-epp-comment-percent', MS, lambda c, e, pm, r, m: 'without seeing %>' in pm),
    ('miss-call-of-non-name', MS, lambda c, e, pm, r, m: 'unacceptable as function name in a Function Call' in pm and 'A String is' not in pm),
    ('miss-duplicate-definition', MS, lambda c, e, pm, r, m: 'already defined' in pm or 'Attempt to redefine entity' in pm),
    ('miss-collector-value', MS, lambda c, e, pm, r, m: 'Query does not produce a value' in pm),
    ('miss-regex-after-brace-or-keyword', MS, lambda c, e, pm, r, m: has(c, r'(\}|\bundef|\bdefault)(\s|#[^\n]*\n|/\*.*?\*/)*/[^/*]')),
    ('miss-comment-after-paren-hides-validation', MS, lambda c, e, pm, r, m: has(c, r'\(\s*(/\*.*?\*/|#[^\n]*\n)')
     and 'Syntax error' not in pm and 'Unclosed' not in pm),
    ('miss-node-dotted-word', MS, lambda c, e, pm, r, m: has(c, r'node\s+[\w.-]+') and 'Syntax error' in pm),
]


def main():
    files = [a for a in sys.argv[1:] if a.endswith('.jsonl')]
    res = [json.loads(l) for f in files for l in open(f)]
    codes = {r['id']: open(r['path'], 'rb').read().decode('utf-8', 'surrogateescape') for r in res if r['class'] != 'agree'}
    show = sys.argv[sys.argv.index('--show') + 1] if '--show' in sys.argv else None
    nun = int(sys.argv[sys.argv.index('--unassigned') + 1]) if '--unassigned' in sys.argv else 0
    # Puppet reports only "Language validation logged N errors": get the messages themselves
    many = [r for r in res if r['class'] == 'MISS' and 'Language validation logged' in (r['puppet_msg'] or '')]
    full = {}
    if many:
        out = subprocess.run(['ruby', 'explain.rb'] + [r['path'] for r in many], capture_output=True, text=True).stdout
        for line in out.splitlines():
            p, _, msg = line.partition(': ')
            full.setdefault(p, []).append(msg)
    counts = collections.Counter()
    examples = collections.defaultdict(list)
    for r in res:
        if r['class'] == 'agree':
            continue
        c = codes[r['id']]
        pm = r['puppet_msg'] or ''
        if r['path'] in full:
            pm = ' | '.join(sorted(full[r['path']], key=lambda x: 'has no effect' in x))
        rules = [e['rule'] for e in r['pupcheck']] or ['']
        msgs = [e['message'] for e in r['pupcheck']]
        cause = None
        for cid, cls, pred in CAUSES:
            if cls == r['class'] and pred(c, r['ext'], pm, rules, msgs):
                cause = cid
                break
        cause = cause or ('UNASSIGNED-' + r['class'])
        counts[cause] += 1
        examples[cause].append((r['id'], c, pm, msgs))
    for k, v in sorted(counts.items(), key=lambda kv: (not kv[0].startswith('fa'), -kv[1])):
        print(f'{v:5d}  {k}')
    json.dump(dict(counts), open('cause_counts.json', 'w'), indent=1)
    json.dump({k: [x[0] for x in v] for k, v in examples.items()}, open('cause_examples.json', 'w'), indent=1)
    for key in ([show] if show else []) + (['UNASSIGNED-FALSE_ALARM', 'UNASSIGNED-MISS'] if nun else []):
        exs = sorted(examples.get(key, []), key=lambda x: len(x[1]))
        print(f'\n=== {key}: {len(exs)}')
        for i, c, pm, msgs in exs[:nun or 15]:
            print(f'  {i} {c[:200]!r}\n      P: {pm[:120]}\n      C: {msgs[:2]}')


if __name__ == '__main__':
    main()

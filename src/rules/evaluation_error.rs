use super::{Category, FileContext, Rule};
use crate::diagnostics::{Diagnostic, Severity};

pub static RULE: Rule = Rule {
    id: "evaluation-error",
    summary: "Puppet fails evaluating this expression, whatever the node",
    category: Category::Type,
    severity: Severity::Error,
    enabled_by_default: true,
    fixable: false,
    puppet_lint: None,
    docs: "\
## What it does
Reports an expression whose evaluation fails in Puppet for every value that can reach
it: an operator given operands it does not accept (`'8080' + 'a'`, `1 < [1]`), a
division by zero, a match with a left side that is not a string, an access with the
wrong number or type of keys, a conversion that cannot succeed (`Integer('eighty')`),
reached through the variables the code sets before it. The message is Puppet's.

pupcheck judges what its one evaluation of each body knows (see `revealed-type`): an
expression is reported only when the values reaching it are known from the code, so
facts, parameters and lookups whose values it cannot know are never judged. Code
Puppet does not run (the branch a known condition does not take, a lambda over an
empty collection) is not judged either; a class body is judged as if the class were
declared.

## Why it matters
The catalog does not compile: the node gets no new configuration until the code is
fixed, and the error only shows when an agent runs.

## Example
```puppet
$base = 8000
$port = $base + 'eighty'
```

## How to fix
Give the operation values it accepts (`$base + 80`), or convert them first.
",
    check: Some(check),
};

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    for failure in ctx.inference().failures() {
        out.push(RULE.diagnostic(failure.span, failure.message.clone()));
    }
}

declare_rule! {
    /// ## What it does
    /// Reports code whose evaluation fails in Puppet for every value that can reach it and
    /// that no more specific rule reports: a variable assigned twice in one scope, a resource
    /// default set twice in one (a class's `if`s and lambdas share its scope, so a default in
    /// a lambda called for two elements is set twice), a built-in
    /// variable (`$name`, `$title`) assigned, a resource title or class name Puppet refuses,
    /// a function given arguments it does not take. Failures of operators, divisions,
    /// accesses, conversions, `assert_type` and selectors have their own rules
    /// (`operator-type`, `division-by-zero`, `access`, `conversion`, `assert-type`,
    /// `selector-no-match`), so each can be selected or ignored alone. The message is
    /// Puppet's.
    ///
    /// pupcheck judges what its one evaluation of each body knows (see `revealed-type`): an
    /// expression is reported only when the values reaching it are known from the code, so
    /// facts, parameters and lookups whose values it cannot know are never judged. Code
    /// Puppet does not run (the branch a known condition does not take, a lambda over an
    /// empty collection) is not judged either; a class body is judged as if the class were
    /// declared.
    ///
    /// A declaration that gives every attribute a value the code fixes
    /// (`site::pool { 'idle': workers => 0 }`) also evaluates the body it declares with those
    /// values: the first error Puppet raises there for them, in code it runs for certain, is
    /// reported at the declaration (under the rule of its kind), with a note naming the place
    /// in the body.
    ///
    /// ## Why it matters
    /// The catalog does not compile: the node gets no new configuration until the code is
    /// fixed, and the error only shows when an agent runs.
    ///
    /// ## Example
    /// ```puppet
    /// $mode = '0644'
    /// $mode = '0600'
    /// ```
    ///
    /// ## How to fix
    /// Give each value its own variable, or choose the value with a selector or `if`.
    "evaluation-error" (Type, Error)
    "Puppet fails evaluating this code, whatever the node"
    { reports_failures: Other }
}

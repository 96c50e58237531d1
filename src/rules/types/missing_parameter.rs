use crate::infer::declarations::{
    capitalized, class_parameter_may_be_bound, each_declaration, each_included_class,
};
use crate::rules::InterpretedFile;
use crate::diagnostics::Diagnostic;
use crate::env::Definition;
use crate::source::Span;
use crate::types::mismatch::of_subject;

declare_rule! {
    /// ## What it does
    /// Reports a declaration of a defined type (a resource body, or an entry of a
    /// `create_resources` hash the evaluation knows) that gives no value for a parameter
    /// without a default, when the defined type is one pupcheck has read.
    ///
    /// A declaration is not judged when something else may give the value: a `* =>` hash the
    /// evaluation does not know, or a resource default (`Web::Vhost { port => 80 }`) or
    /// override (`Web::Vhost['a'] { ... }`, `Web::Vhost <| |> { ... }`) of the type anywhere
    /// in the files checked (defaults reach the classes their scope declares). Virtual and
    /// exported resources are judged too: Puppet requires their parameters even when they are
    /// never realized.
    ///
    /// Classes are judged in a control repository whose Hiera pupcheck reads whole, since
    /// automatic parameter lookup gives a class the values its declaration lacks: a class
    /// declared like a resource (`class { 'ntp': }`) or by `include`, `contain` or `require`,
    /// without a value for a parameter that no Hiera level binds (`ntp::servers` in no data
    /// file of the environment's `hiera.yaml` or of the module's). Not judged: an environment
    /// without a version 5 `hiera.yaml`, or with a level pupcheck cannot read (another backend,
    /// `mapped_paths`, a data folder none of its levels names), or a module with a data
    /// provider of its own; and an `include` of a class that some manifest of the environment
    /// or of its modules may declare with parameters (`class { 'ntp': ... }`,
    /// `create_resources('class', ...)`), which may be evaluated first. The global Hiera layer
    /// (outside the repository) is taken as empty, and so are the parameters an external node
    /// classifier gives: if yours gives classes their parameters, ignore this rule for classes
    /// with a suppression comment.
    ///
    /// ## Why it matters
    /// Puppet fails the catalog at the declaration ("Web::Vhost[www]: expects a value for
    /// parameter 'port'", "Class[Ntp]: expects a value for parameter 'servers'"). A
    /// parameter given `undef` counts as given.
    ///
    /// ## Example
    /// ```puppet
    /// define web::vhost (Integer $port, String $docroot = '/var/www') { }
    /// web::vhost { 'www': docroot => '/srv/www' }
    /// ```
    ///
    /// ## How to fix
    /// Give the parameter a value (`port => 80`, or a Hiera key `ntp::servers`), or give it
    /// a default in the definition.
    "missing-parameter" (Type, Error)
    "A defined type or class is declared without a parameter that has no default"
    { reads_interpretation, check }
}

fn check(ctx: &InterpretedFile, out: &mut Vec<Diagnostic>) {
    each_declaration(ctx.view(), ctx.inference(), |declaration| {
        if declaration.is_default_body
            || !declaration.complete
            || (!declaration.is_class
                && ctx
                    .env
                    .may_set_attributes_apart(&declaration.definition.name))
        {
            return;
        }
        let given = |name: &str| {
            declaration.attributes.iter().any(|a| a.name == name)
                || declaration.shared.contains(&name)
        };
        let missing = missing(ctx, &declaration.definition, declaration.is_class, given);
        let before = out.len();
        report(
            out,
            declaration.span,
            || declaration.subject(),
            &declaration.definition,
            &missing,
        );
        if declaration.is_class {
            open_world_warns(ctx, &mut out[before..]);
        }
    });
    // `include`, `contain` and `require` give no parameter: each comes from Hiera or
    // from a declaration with parameters evaluated before (which may be anywhere).
    each_included_class(ctx.view(), |definition, at| {
        let missing = missing(ctx, &definition, true, |_| false);
        let subject = || format!("Class[{}]", capitalized(&definition.name));
        let before = out.len();
        report(out, at.span, subject, &definition, &missing);
        open_world_warns(ctx, &mut out[before..]);
    });
}

/// A class's missing parameter, which only an unseen Hiera layer or node classifier
/// could give, is a warning in an environment `pupcheck.toml` declares open.
fn open_world_warns(ctx: &InterpretedFile, found: &mut [Diagnostic]) {
    for finding in found {
        crate::rules::warn_if_declared_open(ctx.env, finding, "a node classifier or a Hiera layer");
    }
}

/// Puppet's words for the parameters without a default that a declaration of
/// `definition` does not give (`given`), and that, for a class, no Hiera layer may
/// bind (automatic parameter lookup).
fn missing(
    ctx: &InterpretedFile,
    definition: &Definition,
    is_class: bool,
    given: impl Fn(&str) -> bool,
) -> Vec<String> {
    definition
        .params
        .iter()
        .flatten()
        .filter(|p| p.default.is_none() && !p.captures_rest)
        .filter(|p| !given(&p.name.name))
        .filter(|p| !is_class || !class_parameter_may_be_bound(ctx.env, &definition.name, &p.name.name))
        .map(|p| format!("expects a value for parameter '{}'", p.name.name))
        .collect()
}

fn report(
    out: &mut Vec<Diagnostic>,
    span: Span,
    subject: impl FnOnce() -> String,
    definition: &Definition,
    missing: &[String],
) {
    if missing.is_empty() {
        return;
    }
    let subject = subject();
    out.push(
        RULE.diagnostic(span, of_subject(&subject, missing))
            .with_note(format!(
                "{subject} is defined in {}",
                crate::source::shown_path(&definition.path)
            )),
    );
}

//! Where a fix may put code in place of a variable reference.

use crate::analysis::context::FileContext;
use crate::analysis::walks::each_interpolation;
use crate::source::Span;

/// Where a fix may put code in place of a variable reference (`$::kernel`): the
/// starts of the variables interpolated without braces (`"x $::kernel"`), whose
/// replacement needs `${...}` to stay one interpolation.
pub struct VariableSites {
    bare_interpolations: std::collections::HashSet<u32>,
}

impl VariableSites {
    pub fn of(ctx: &FileContext) -> VariableSites {
        let text = &ctx.source.text;
        let mut bare_interpolations = std::collections::HashSet::new();
        each_interpolation(ctx, |e| {
            if text[e.span.range()].starts_with('$') {
                bare_interpolations.insert(e.span.start);
            }
        });
        VariableSites {
            bare_interpolations,
        }
    }

    /// The text replacing the variable at `span` by the expression `code` (written
    /// without a leading `$`: `facts['kernel']`): `$code` in code, `${code}` in a string,
    /// and `code` alone inside `${...}`, where the `$` is outside the span.
    pub fn replacement(&self, ctx: &FileContext, span: Span, code: &str) -> String {
        if !ctx.source.text[span.range()].starts_with('$') {
            code.to_string()
        } else if self.bare_interpolations.contains(&span.start) {
            format!("${{{code}}}")
        } else {
            format!("${code}")
        }
    }
}

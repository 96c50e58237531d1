//! Inlay hints: the type of each variable an assignment sets, as pupcheck's evaluation
//! knows it (`$port = $x + 1` shows `: Integer`), within the range the editor shows.
//! Off unless the client asks for them at initialisation (`initializationOptions`:
//! `{"inlayHints": true}`): a hint on every assignment is much to read.

use crate::ast::{Expr, ExprKind};
use crate::infer::answer::{answers_at, Answer};
use crate::infer::FileView;
use crate::source::Span;

/// Longest type shown; a longer one is cut (hover shows it whole).
const MAX_LABEL: usize = 40;

/// The hints of the assignments inside `range` (byte offsets): where the variable's
/// name ends, and the type label.
pub fn assignment_types(view: &FileView, range: Span) -> Vec<(u32, String)> {
    let mut hints = Vec::new();
    for expr in view.exprs.iter().copied() {
        let ExprKind::Assignment { left, .. } = &expr.kind else {
            continue;
        };
        if !matches!(left.kind, ExprKind::Variable(_))
            || left.span.start < range.start
            || left.span.end > range.end
        {
            continue;
        }
        if let Some(label) = label(view, left) {
            hints.push((left.span.end, label));
        }
    }
    hints
}

/// `: Integer`, `: String` (each type the evaluation gives, once); nothing when the
/// value is not known at all or fails (a failure is a diagnostic).
fn label(view: &FileView, variable: &Expr) -> Option<String> {
    let (_, answers) = answers_at(view, variable.span.start)?;
    let mut types: Vec<String> = Vec::new();
    for answer in answers {
        let ty = match answer {
            Answer::Value(_, ty) | Answer::AnyOf(ty) => ty,
            Answer::Unknown | Answer::Error(_) | Answer::NotModelled(_) => return None,
        };
        let ty = crate::report::mismatch::alias_names(&ty);
        if !types.contains(&ty) {
            types.push(ty);
        }
    }
    if types.is_empty() {
        return None;
    }
    let mut text = format!(": {}", types.join(" | "));
    if text.chars().count() > MAX_LABEL {
        text = text.chars().take(MAX_LABEL - 1).collect::<String>() + "…";
    }
    Some(text)
}

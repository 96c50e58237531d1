//! Inlay hints: the type of each variable an assignment sets, as pupcheck's evaluation
//! knows it (`$port = $x + 1` shows `: Integer`), within the range the editor shows.
//! Off unless the client asks for them at initialisation (`initializationOptions`:
//! `{"inlayHints": true}`): a hint on every assignment is much to read.

use crate::ast::{Expr, ExprKind};
use crate::infer::answer::{answers_of, Answer};
use crate::infer::FileView;
use crate::source::Span;

/// Longest type shown; a longer one is cut (hover shows it whole).
const MAX_LABEL: usize = 40;

/// The hints of the assignments inside `range` (byte offsets): where the variable's
/// name ends, and the type label.
pub fn assignment_types(
    view: &FileView,
    range: Span,
    resume: Option<&crate::infer::ResumePoints>,
) -> Vec<(u32, String)> {
    // Each assignment in the range, with the variable it sets; explained together.
    let assignments: Vec<(&Expr, &Expr)> = view
        .exprs
        .iter()
        .copied()
        .filter_map(|expr| match &expr.kind {
            ExprKind::Assignment { left, .. }
                if matches!(left.kind, ExprKind::Variable(_))
                    && range.start <= left.span.start
                    && left.span.end <= range.end =>
            {
                Some((expr, left.as_ref()))
            }
            _ => None,
        })
        .collect();
    let explained: Vec<&Expr> = assignments.iter().map(|(a, _)| *a).collect();
    let answers = answers_of(view, &explained, resume);
    assignments
        .iter()
        .filter_map(|(assignment, variable)| {
            let found = answers.get(&(std::ptr::from_ref(*assignment) as usize))?;
            Some((variable.span.end, label(found)?))
        })
        .collect()
}

/// `: Integer`, `: String` (each type the evaluation gives, once); nothing when the
/// value is not known at all or fails (a failure is a diagnostic).
fn label(answers: &[Answer]) -> Option<String> {
    let mut types: Vec<String> = Vec::new();
    for answer in answers {
        let ty = match answer {
            Answer::Value(_, ty) | Answer::AnyOf(ty) => ty,
            Answer::Unknown | Answer::Error(_) | Answer::NotModelled(_) => return None,
        };
        let ty = crate::report::mismatch::alias_names(ty);
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

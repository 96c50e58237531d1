//! SemVer ranges in Puppet's (SemanticPuppet's) syntax: `>=1.0.0 <2.0.0`, `1.x`,
//! `~1.2`, `^1.2`, `1.0.0 - 2.0.0`, alternatives joined with `||`.
//!
//! The range keeps the text it was written with, which is how Puppet prints a range
//! inside a type (`SemVer['~> 1.2']`); a `SemVerRange` value prints normalised
//! ([`VersionRange::normalized`]: `>=1.2.0 <1.3.0`), as SemanticPuppet does.

use std::fmt;

use semver::Version;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    Ge,
    Gt,
    Le,
    Lt,
}

/// One range: alternatives, each an intersection of comparisons.
#[derive(Debug, Clone, PartialEq)]
pub struct VersionRange {
    text: String,
    alternatives: Vec<Vec<(Op, Version)>>,
}

impl fmt::Display for VersionRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

fn partial(s: &str) -> Option<(Vec<u64>, Option<Version>)> {
    // A full version keeps its pre-release part; a partial one (`1`, `1.2`, `1.x`)
    // gives the numbers before the first wildcard.
    if let Ok(v) = Version::parse(s) {
        return Some((vec![v.major, v.minor, v.patch], Some(v)));
    }
    let mut nums = Vec::new();
    for p in s.split('.') {
        if p == "x" || p == "X" || p == "*" {
            break;
        }
        nums.push(p.parse::<u64>().ok()?);
    }
    if nums.len() > 3 {
        return None;
    }
    Some((nums, None))
}

fn v(nums: &[u64]) -> Version {
    Version::new(
        nums.first().copied().unwrap_or(0),
        nums.get(1).copied().unwrap_or(0),
        nums.get(2).copied().unwrap_or(0),
    )
}

/// The smallest version above every version starting with `nums`.
fn bump(nums: &[u64]) -> Option<Version> {
    match nums.len() {
        0 => None,
        1 => Some(Version::new(nums[0] + 1, 0, 0)),
        2 => Some(Version::new(nums[0], nums[1] + 1, 0)),
        _ => Some(Version::new(nums[0], nums[1], nums[2] + 1)),
    }
}

/// A bound of a range: the version and whether it is included.
type Bound<'a> = Option<(&'a Version, bool)>;

/// `>= 1.0.0  < 2.0.0` is `>=1.0.0 <2.0.0`: an operator takes the version after it,
/// spaces or not.
fn join_operators(alt: &str) -> String {
    let mut out = String::with_capacity(alt.len());
    let mut after_operator = false;
    for c in alt.chars() {
        if c.is_whitespace() && after_operator {
            continue;
        }
        after_operator = matches!(c, '>' | '<' | '=' | '~' | '^');
        out.push(c);
    }
    out
}

/// More `||` alternatives than this are not merged (no real range has more than a
/// few; 100,000 in no order cost minutes).
const MAX_ALTERNATIVES: usize = 1_000;

impl VersionRange {
    pub fn parse(text: &str) -> Option<VersionRange> {
        let mut merged = Merged::default();
        for alt in text.split("||") {
            merged.add(alternative(alt)?);
        }
        Some(VersionRange {
            text: text.trim().to_string(),
            alternatives: merged.alternatives,
        })
    }

    /// Whether `text` has more alternatives than pupcheck merges: merging costs the
    /// square of their count where they come in no order, so such a range is not
    /// modelled (neither valid nor invalid to the callers).
    pub fn too_many_alternatives(text: &str) -> bool {
        text.matches("||").count() >= MAX_ALTERNATIVES
    }

    /// Whether `text` is a range (`parse` would give one), without merging its
    /// alternatives: linear in the text.
    pub fn is_valid(text: &str) -> bool {
        text.split("||").all(|alt| alternative(alt).is_some())
    }

    /// The exact range `v - v` (what `type(SemVer('1.2.3'))` carries).
    pub fn exact(v: &Version) -> VersionRange {
        VersionRange {
            text: format!("{v} - {v}"),
            alternatives: vec![vec![(Op::Ge, v.clone()), (Op::Le, v.clone())]],
        }
    }

    /// Whether `ver` is in the range. A pre-release is only in an alternative that
    /// names a pre-release of the same version (`1.3.0-rc1` is not in `1.x`, it is in
    /// `>=1.3.0-rc0 <2.0.0`), as SemanticPuppet has it.
    pub fn includes(&self, ver: &Version) -> bool {
        self.alternatives.iter().any(|alt| {
            let pre_allowed = ver.pre.is_empty()
                || alt.is_empty()
                || alt.iter().any(|(_, b)| {
                    !b.pre.is_empty()
                        && (b.major, b.minor, b.patch) == (ver.major, ver.minor, ver.patch)
                });
            pre_allowed
                && alt.iter().all(|(op, b)| match op {
                    Op::Ge => ver >= b,
                    Op::Gt => ver > b,
                    Op::Le => ver <= b,
                    Op::Lt => ver < b,
                })
        })
    }

    /// SemanticPuppet's form of the range: `*`, an exact version `1.2.3`, or its
    /// bounds (`>=1.2.0 <1.3.0`), alternatives joined with ` || `.
    pub fn normalized(&self) -> String {
        let parts: Vec<String> = self
            .alternatives
            .iter()
            .map(|alt| match Self::bounds(alt) {
                (None, None) => "*".to_string(),
                (Some((lo, true)), Some((hi, true))) if lo == hi => lo.to_string(),
                (lo, hi) => {
                    let lo = lo.map(|(v, incl)| format!("{}{v}", if incl { ">=" } else { ">" }));
                    let hi = hi.map(|(v, incl)| format!("{}{v}", if incl { "<=" } else { "<" }));
                    [lo, hi].into_iter().flatten().collect::<Vec<_>>().join(" ")
                }
            })
            .collect();
        parts.join(" || ")
    }

    fn bounds(alt: &[(Op, Version)]) -> (Bound<'_>, Bound<'_>) {
        let mut lo: Bound = None;
        let mut hi: Bound = None;
        for (op, b) in alt {
            match op {
                Op::Ge | Op::Gt => {
                    let incl = *op == Op::Ge;
                    if lo.is_none_or(|(l, _)| b > l) {
                        lo = Some((b, incl))
                    }
                }
                Op::Le | Op::Lt => {
                    let incl = *op == Op::Le;
                    if hi.is_none_or(|(h, _)| b < h) {
                        hi = Some((b, incl))
                    }
                }
            }
        }
        (lo, hi)
    }

    /// Whether every version in `self` is in `other` (approximate for unions).
    pub fn covered_by(&self, other: &VersionRange) -> bool {
        self.alternatives.iter().all(|a| {
            let (alo, ahi) = Self::bounds(a);
            other.alternatives.iter().any(|b| {
                let (blo, bhi) = Self::bounds(b);
                let lo_ok = match (alo, blo) {
                    (_, None) => true,
                    (None, Some(_)) => false,
                    (Some((a, ai)), Some((b, bi))) => a > b || (a == b && (bi || !ai)),
                };
                let hi_ok = match (ahi, bhi) {
                    (_, None) => true,
                    (None, Some(_)) => false,
                    (Some((a, ai)), Some((b, bi))) => a < b || (a == b && (bi || !ai)),
                };
                lo_ok && hi_ok
            })
        })
    }
}

/// One alternative of a range (the text between `||`), as its comparisons.
fn alternative(alt: &str) -> Option<Vec<(Op, Version)>> {
    let alt = join_operators(alt.trim());
    let alt = alt.as_str();
    let mut comps = Vec::new();
    if let Some((a, b)) = alt.split_once(" - ") {
        let (an, av) = partial(a.trim())?;
        let (bn, bv) = partial(b.trim())?;
        comps.push((Op::Ge, av.unwrap_or_else(|| v(&an))));
        // SemanticPuppet fills a partial upper bound with zeros: `1.2.3 - 1.4`
        // is `>=1.2.3 <=1.4.0`.
        comps.push((Op::Le, bv.unwrap_or_else(|| v(&bn))));
    } else {
        for simple in alt.split_whitespace() {
            // `~>` (pessimistic) is `~`.
            let (op, rest) = [">=", "<=", "~>", ">", "<", "~", "^", "="]
                .iter()
                .find_map(|o| simple.strip_prefix(o).map(|r| (*o, r)))
                .unwrap_or(("", simple));
            let (nums, full) = partial(rest)?;
            let base = full.clone().unwrap_or_else(|| v(&nums));
            match op {
                ">=" => comps.push((Op::Ge, base)),
                ">" => match full {
                    Some(f) => comps.push((Op::Gt, f)),
                    None => {
                        if let Some(b) = bump(&nums) {
                            comps.push((Op::Ge, b))
                        }
                    }
                },
                "<=" => match full {
                    Some(f) => comps.push((Op::Le, f)),
                    None => {
                        if let Some(b) = bump(&nums) {
                            comps.push((Op::Lt, b))
                        }
                    }
                },
                "<" => comps.push((Op::Lt, base)),
                "~" | "~>" => {
                    comps.push((Op::Ge, base));
                    let upto = if nums.len() >= 2 {
                        &nums[..2]
                    } else {
                        &nums[..]
                    };
                    if let Some(b) = bump(upto) {
                        comps.push((Op::Lt, b))
                    }
                }
                // `^1.2` is `>=1.2.0 <2.0.0`; below 1.0.0 the minor version is
                // the one that may not change (`^0.2.3` is `<0.3.0`, `^0.0.3`
                // `<0.1.0`).
                "^" => {
                    comps.push((Op::Ge, base));
                    let upto = if nums.first() == Some(&0) && nums.len() > 1 {
                        &nums[..2]
                    } else {
                        &nums[..1.min(nums.len())]
                    };
                    if let Some(b) = bump(upto) {
                        comps.push((Op::Lt, b))
                    }
                }
                _ => match full {
                    Some(f) => {
                        comps.push((Op::Ge, f.clone()));
                        comps.push((Op::Le, f));
                    }
                    // `*` (or `x`): every version, pre-releases too.
                    None if nums.is_empty() => {}
                    None => {
                        comps.push((Op::Ge, base));
                        if let Some(b) = bump(&nums) {
                            comps.push((Op::Lt, b))
                        }
                    }
                },
            }
        }
    }
    Some(comps)
}

/// A range's alternatives as they are added, each merged with the first it overlaps
/// (`merge_into`). The highest upper bound so far is kept: an alternative starting
/// above it overlaps none and is added without comparing it with each (a range of
/// 100,000 ascending alternatives took minutes).
#[derive(Default)]
struct Merged {
    alternatives: Vec<Vec<(Op, Version)>>,
    /// The highest upper bound of the alternatives (and whether it is included);
    /// `None` when one has none (or there are none yet: then nothing overlaps).
    highest: Option<(Version, bool)>,
}

impl Merged {
    fn add(&mut self, comps: Vec<(Op, Version)>) {
        let (lo, hi) = VersionRange::bounds(&comps);
        // Above every upper bound: the test of `merge_into` fails with each.
        let above_all = self.alternatives.is_empty()
            || match (lo, &self.highest) {
                (Some((s, si)), Some((h, hi_incl))) => s > h || (s == h && !(si && *hi_incl)),
                _ => false,
            };
        let highest = match (hi, &self.highest) {
            _ if self.alternatives.is_empty() => hi.map(|(v, i)| (v.clone(), i)),
            (None, _) | (_, None) => None,
            (Some((a, ai)), Some((b, bi))) => Some(if a > b || (a == b && ai) {
                (a.clone(), ai)
            } else {
                (b.clone(), *bi)
            }),
        };
        if above_all {
            self.alternatives.push(comps);
        } else {
            merge_into(&mut self.alternatives, comps);
        }
        self.highest = highest;
    }
}

/// Adds an alternative to a range's, merged with one it overlaps (`1.x || 1.2.x` is
/// `>=1.0.0 <2.0.0`), as SemanticPuppet merges them.
fn merge_into(alternatives: &mut Vec<Vec<(Op, Version)>>, comps: Vec<(Op, Version)>) {
    let (lo, hi) = VersionRange::bounds(&comps);
    let owned = |b: Bound<'_>, low: bool| -> Vec<(Op, Version)> {
        match b {
            Some((v, true)) => vec![(if low { Op::Ge } else { Op::Le }, v.clone())],
            Some((v, false)) => vec![(if low { Op::Gt } else { Op::Lt }, v.clone())],
            None => vec![],
        }
    };
    for existing in alternatives.iter_mut() {
        let (elo, ehi) = VersionRange::bounds(existing);
        // Overlapping: each starts before the other ends.
        let starts_before_end = |start: Bound<'_>, end: Bound<'_>| match (start, end) {
            (None, _) | (_, None) => true,
            (Some((s, si)), Some((e, ei))) => s < e || (s == e && si && ei),
        };
        if starts_before_end(lo, ehi) && starts_before_end(elo, hi) {
            let new_lo = match (lo, elo) {
                (None, _) | (_, None) => None,
                (Some(a), Some(b)) => Some(if a.0 < b.0 || (a.0 == b.0 && a.1) {
                    a
                } else {
                    b
                }),
            };
            let new_hi = match (hi, ehi) {
                (None, _) | (_, None) => None,
                (Some(a), Some(b)) => Some(if a.0 > b.0 || (a.0 == b.0 && a.1) {
                    a
                } else {
                    b
                }),
            };
            let mut merged = owned(new_lo, true);
            merged.extend(owned(new_hi, false));
            *existing = merged;
            return;
        }
    }
    alternatives.push(comps);
}

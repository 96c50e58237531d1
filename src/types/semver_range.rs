//! SemVer ranges in Puppet's (SemanticPuppet's) syntax: `>=1.0.0 <2.0.0`, `1.x`,
//! `~1.2`, `^1.2`, `1.0.0 - 2.0.0`, alternatives joined with `||`.
//!
//! The range keeps the text it was written with for display; Puppet prints a
//! normalised form, which this does not reproduce (see DEVIATIONS.md).

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

impl VersionRange {
    pub fn parse(text: &str) -> Option<VersionRange> {
        let mut alternatives = Vec::new();
        for alt in text.split("||") {
            let alt = alt.trim();
            let mut comps = Vec::new();
            if let Some((a, b)) = alt.split_once(" - ") {
                let (an, av) = partial(a.trim())?;
                let (bn, bv) = partial(b.trim())?;
                comps.push((Op::Ge, av.unwrap_or_else(|| v(&an))));
                match bv {
                    Some(bv) => comps.push((Op::Le, bv)),
                    None => {
                        if let Some(b) = bump(&bn) {
                            comps.push((Op::Lt, b))
                        }
                    }
                }
            } else {
                for simple in alt.split_whitespace() {
                    let (op, rest) = [">=", "<=", ">", "<", "~", "^", "="]
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
                        "~" => {
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
                        "^" => {
                            comps.push((Op::Ge, base));
                            if let Some(b) = bump(&nums[..1.min(nums.len())]) {
                                comps.push((Op::Lt, b))
                            }
                        }
                        _ => match full {
                            Some(f) => {
                                comps.push((Op::Ge, f.clone()));
                                comps.push((Op::Le, f));
                            }
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
            alternatives.push(comps);
        }
        Some(VersionRange {
            text: text.trim().to_string(),
            alternatives,
        })
    }

    /// The exact range `v - v` (what `type(SemVer('1.2.3'))` carries).
    pub fn exact(v: &Version) -> VersionRange {
        VersionRange {
            text: format!("{v} - {v}"),
            alternatives: vec![vec![(Op::Ge, v.clone()), (Op::Le, v.clone())]],
        }
    }

    pub fn includes(&self, ver: &Version) -> bool {
        self.alternatives.iter().any(|alt| {
            alt.iter().all(|(op, b)| match op {
                Op::Ge => ver >= b,
                Op::Gt => ver > b,
                Op::Le => ver <= b,
                Op::Lt => ver < b,
            })
        })
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

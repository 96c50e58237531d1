//! Keeps operations on self-recursive aliases finite, the way Puppet's
//! `RecursionGuard` does: it records which aliases are being visited on the
//! accepting side ("this") and on the accepted side ("that"); meeting one again sets
//! a flag, and an alias met again on both sides is taken as accepted.

pub const SELF_RECURSION_IN_THIS: u8 = 1;
pub const SELF_RECURSION_IN_THAT: u8 = 2;
pub const SELF_RECURSION_IN_BOTH: u8 = 3;

#[derive(Debug, Default, Clone)]
pub struct Guard {
    state: u8,
    this: Vec<usize>,
    that: Vec<usize>,
    /// Hard stop against pathological nesting (never hit by real types).
    pub depth: u32,
}

impl Guard {
    pub fn new() -> Guard {
        Guard::default()
    }

    pub fn state(&self) -> u8 {
        self.state
    }

    /// Visits alias `id` on the accepting side while `f` runs.
    pub fn with_this<R>(&mut self, id: usize, f: impl FnOnce(u8, &mut Guard) -> R) -> R {
        if self.state & SELF_RECURSION_IN_THIS == 0 {
            if self.this.contains(&id) {
                self.state |= SELF_RECURSION_IN_THIS;
            } else {
                self.this.push(id);
                let st = self.state;
                let r = f(st, self);
                self.state &= !SELF_RECURSION_IN_THIS;
                if let Some(pos) = self.this.iter().rposition(|x| *x == id) {
                    self.this.remove(pos);
                }
                return r;
            }
        }
        let st = self.state;
        f(st, self)
    }

    /// Visits value/alias `id` on the accepted side while `f` runs.
    pub fn with_that<R>(&mut self, id: usize, f: impl FnOnce(u8, &mut Guard) -> R) -> R {
        if self.state & SELF_RECURSION_IN_THAT == 0 {
            if self.that.contains(&id) {
                self.state |= SELF_RECURSION_IN_THAT;
            } else {
                self.that.push(id);
                let st = self.state;
                let r = f(st, self);
                self.state &= !SELF_RECURSION_IN_THAT;
                if let Some(pos) = self.that.iter().rposition(|x| *x == id) {
                    self.that.remove(pos);
                }
                return r;
            }
        }
        let st = self.state;
        f(st, self)
    }

    /// Records alias `id` on the accepted side (permanently, as Puppet's `add_that`).
    pub fn add_that(&mut self, id: usize) -> u8 {
        if self.state & SELF_RECURSION_IN_THAT == 0 {
            if self.that.contains(&id) {
                self.state |= SELF_RECURSION_IN_THAT;
            } else {
                self.that.push(id);
            }
        }
        self.state
    }
}

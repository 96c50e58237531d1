//! The Puppet type system (spec 001 "Types, Values, and Variables").

//! Semantic analysis: the type system ([`types`]), the builtin function table with its
//! overload families ([`builtins`]), integer constant expressions ([`consteval`]) and attribute
//! checking ([`attrs`]). The lowering pass ([`crate::lower`]) type-checks every expression with
//! these rules as it translates it, so one walk both checks and lowers.

pub mod attrs;
pub mod builtins;
pub mod consteval;
pub mod types;

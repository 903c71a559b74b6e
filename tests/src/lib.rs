//! Cross-crate end-to-end tests.

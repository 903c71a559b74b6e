//! Unit tests of the compiling backend.

//! C ABI of fpgacl: the cl_khr_icd dispatch table and the OpenCL entry points
//! (`libfpgacl.so`, loadable by the ICD loader and directly linkable).
//!
//! Each entry point is a thin wrapper: it converts and validates handles and pointers
//! ([`handle`], [`api`]), calls the runtime (`fpgacl-runtime`), and maps the result to a
//! `cl_int`. Panics never cross the FFI boundary ([`api::api`] catches them).
#![allow(non_snake_case, clippy::missing_safety_doc, clippy::too_many_arguments)]

pub mod api;
pub mod dispatch;
pub mod entry;
pub mod handle;
pub mod info;

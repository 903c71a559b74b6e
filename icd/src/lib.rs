//! C ABI of fpgacl: the cl_khr_icd dispatch table and the OpenCL entry points
//! (`libfpgacl.so`, loadable by the ICD loader and directly linkable).
//!
//! Each entry point is a thin wrapper: it converts and validates handles and pointers
//! ([`handle`], [`api`]), calls the runtime (`fpgacl-runtime`), and maps the result to a
//! `cl_int`. Panics never cross the FFI boundary ([`api::api`] catches them).
#![allow(non_snake_case, clippy::missing_safety_doc, clippy::too_many_arguments)]

/// The library's heap: mimalloc instead of the C library's malloc. A host that enqueues
/// thousands of commands allocates their events and launches on its thread while the queue's
/// worker frees them on its own; glibc's malloc spent about a third of the CPU of such a
/// burst in `malloc`/`free` (issue 12, item 2).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

pub mod api;
pub mod dispatch;
pub mod entry;
pub mod handle;
pub mod info;

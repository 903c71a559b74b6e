//! Values of `clGet*Info` queries, produced by the runtime and copied out by the C layer.
//!
//! Plain values are encoded as the bytes the C caller receives (native-endian scalars,
//! NUL-terminated strings, arrays). Values that are OpenCL objects are returned as references
//! so that the C layer can turn them into the handles it gave out.

use std::sync::Arc;

use crate::context::Context;
use crate::device::Device;
use crate::event::Event;
use crate::memory::Mem;
use crate::program::Program;
use crate::queue::Queue;

/// A runtime object named by an info query.
#[derive(Clone)]
pub enum ObjRef {
    Platform,
    Device(Arc<Device>),
    Context(Arc<Context>),
    Queue(Arc<Queue>),
    Mem(Arc<Mem>),
    Program(Arc<Program>),
    Event(Arc<Event>),
}

/// The answer to an info query.
#[derive(Clone)]
pub enum InfoValue {
    /// Raw bytes, copied as they are.
    Bytes(Vec<u8>),
    /// One object handle, or NULL.
    Object(Option<ObjRef>),
    /// An array of object handles.
    Objects(Vec<ObjRef>),
    /// `CL_PROGRAM_BINARIES`: the caller's array of pointers is filled with these.
    Binaries(Vec<Vec<u8>>),
}

/// Native-endian bytes of a plain-old-data value.
fn pod_bytes<T: Copy>(v: &[T]) -> Vec<u8> {
    let n = std::mem::size_of_val(v);
    // SAFETY: T is a Copy scalar type without padding in every use below (integers, sizes).
    unsafe { std::slice::from_raw_parts(v.as_ptr() as *const u8, n) }.to_vec()
}

impl InfoValue {
    pub fn uint(v: u32) -> Self {
        InfoValue::Bytes(pod_bytes(&[v]))
    }
    pub fn int(v: i32) -> Self {
        InfoValue::Bytes(pod_bytes(&[v]))
    }
    pub fn ulong(v: u64) -> Self {
        InfoValue::Bytes(pod_bytes(&[v]))
    }
    pub fn size(v: usize) -> Self {
        InfoValue::Bytes(pod_bytes(&[v]))
    }
    pub fn isize_list(v: &[isize]) -> Self {
        InfoValue::Bytes(pod_bytes(v))
    }
    pub fn sizes(v: &[usize]) -> Self {
        InfoValue::Bytes(pod_bytes(v))
    }
    pub fn ulongs(v: &[u64]) -> Self {
        InfoValue::Bytes(pod_bytes(v))
    }
    pub fn bool(v: bool) -> Self {
        Self::uint(v as u32)
    }
    /// A host pointer value (`CL_MEM_HOST_PTR`).
    pub fn ptr(v: usize) -> Self {
        Self::size(v)
    }
    /// A NUL-terminated string.
    pub fn string(s: &str) -> Self {
        let mut b = Vec::with_capacity(s.len() + 1);
        b.extend_from_slice(s.as_bytes());
        b.push(0);
        InfoValue::Bytes(b)
    }
    pub fn object(o: ObjRef) -> Self {
        InfoValue::Object(Some(o))
    }
    pub fn null_object() -> Self {
        InfoValue::Object(None)
    }
}

//! OpenCL handles: what a `cl_context`, `cl_mem`, ... points to, and their validation.
//!
//! A handle is a heap-allocated `#[repr(C)]` [`Handle`] whose first field is the cl_khr_icd
//! dispatch table pointer (the ICD loader reads it), followed by a type tag, the API reference
//! count and the runtime object. Every live handle address is in a global registry with its
//! tag; a handle is only dereferenced after the registry confirms it is live and of the
//! expected type, so a wrong-type, freed or garbage pointer yields `CL_INVALID_<OBJECT>`
//! instead of a crash.
//!
//! Lifetimes follow OpenCL: `clRetain*`/`clRelease*` count API references; the runtime object
//! is shared (`Arc`) with everything that uses it internally (a buffer holds its context, a
//! pending command holds its buffers and event). When the API count reaches zero while the
//! runtime still holds the object, the handle stays valid (it can still be returned by info
//! queries, as the specification's implicit retains require) until the runtime lets go; it is
//! then freed by a sweep. Freed handles are poisoned and kept in a quarantine before their
//! memory is reused, so stale pointers keep being rejected.

use std::cell::UnsafeCell;
use std::collections::{HashMap, VecDeque};
use std::ffi::c_void;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

use fpgacl_runtime::cl::*;
use fpgacl_runtime::{CLResult, Context, Device, Event, Mem, Program, Queue};
use parking_lot::RwLock;

use crate::dispatch::Dispatch;
use crate::dispatch::DISPATCH;

/// Tag of a freed handle.
const TAG_DEAD: u64 = 0xdead_0b1e_c7fe_ed00;

/// A runtime type that has C handles.
pub trait ClObject: Send + Sync + 'static {
    /// Type tag stored in the handle.
    const TAG: u64;
    /// Error for a handle that is not a live object of this type.
    const INVALID: cl_int;
}

macro_rules! cl_object {
    ($t:ty, $tag:expr, $err:expr) => {
        impl ClObject for $t {
            const TAG: u64 = $tag;
            const INVALID: cl_int = $err;
        }
    };
}
cl_object!(Context, 0xf96a_c100_0000_0001, CL_INVALID_CONTEXT);
cl_object!(Queue, 0xf96a_c100_0000_0002, CL_INVALID_COMMAND_QUEUE);
cl_object!(Mem, 0xf96a_c100_0000_0003, CL_INVALID_MEM_OBJECT);
cl_object!(Event, 0xf96a_c100_0000_0004, CL_INVALID_EVENT);
cl_object!(Program, 0xf96a_c100_0000_0005, CL_INVALID_PROGRAM);
cl_object!(
    fpgacl_runtime::program::Kernel,
    0xf96a_c100_0000_0006,
    CL_INVALID_KERNEL
);

cl_object!(
    fpgacl_runtime::memory::image::Sampler,
    0xf96a_c100_0000_0007,
    CL_INVALID_SAMPLER
);

/// Tag of the platform handle.
pub const TAG_PLATFORM: u64 = 0xf96a_c100_0000_0010;
/// Tag of device handles.
pub const TAG_DEVICE: u64 = 0xf96a_c100_0000_0011;

/// The memory a handle points to.
#[repr(C)]
pub struct Handle<T> {
    dispatch: &'static Dispatch,
    tag: AtomicU64,
    refs: AtomicU32,
    /// Written only under the registry's write lock; read under its read lock.
    obj: UnsafeCell<Option<Arc<T>>>,
}

/// Operations the registry needs on a handle of unknown type.
struct HandleOps {
    /// Whether the handle's `Arc` is the only reference left.
    only_ref: unsafe fn(usize) -> bool,
    /// Takes the object out of the handle and poisons it.
    kill: unsafe fn(usize) -> Option<Box<dyn std::any::Any + Send>>,
    /// Frees the handle memory.
    dealloc: unsafe fn(usize),
}

unsafe fn only_ref<T: ClObject>(addr: usize) -> bool {
    let h = &*(addr as *const Handle<T>);
    (*h.obj.get())
        .as_ref()
        .is_none_or(|a| Arc::strong_count(a) == 1)
}

unsafe fn kill<T: ClObject>(addr: usize) -> Option<Box<dyn std::any::Any + Send>> {
    let h = &*(addr as *const Handle<T>);
    h.tag.store(TAG_DEAD, Ordering::SeqCst);
    (*h.obj.get())
        .take()
        .map(|a| Box::new(a) as Box<dyn std::any::Any + Send>)
}

unsafe fn dealloc<T: ClObject>(addr: usize) {
    drop(Box::from_raw(addr as *mut Handle<T>));
}

fn ops<T: ClObject>() -> &'static HandleOps {
    trait Get {
        const OPS: HandleOps;
    }
    impl<T: ClObject> Get for T {
        const OPS: HandleOps = HandleOps {
            only_ref: only_ref::<T>,
            kill: kill::<T>,
            dealloc: dealloc::<T>,
        };
    }
    &<T as Get>::OPS
}

struct Entry {
    tag: u64,
    obj: usize,
    ops: &'static HandleOps,
}

/// Hashes an address (the registry's keys) with one folded 128-bit multiply instead of
/// SipHash: every entry point looks its handles up, and a burst of launches makes millions of
/// lookups. The keys are heap addresses, not attacker-chosen.
#[derive(Default, Clone, Copy)]
struct AddrHasher(u64);

impl std::hash::Hasher for AddrHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u64(&mut self, n: u64) {
        let m = u128::from(n ^ self.0) * 0x9e37_79b9_7f4a_7c15_u128;
        self.0 = (m as u64) ^ ((m >> 64) as u64);
    }

    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }
}

type AddrMap<V> = HashMap<usize, V, std::hash::BuildHasherDefault<AddrHasher>>;

#[derive(Default)]
struct Registry {
    live: AddrMap<Entry>,
    by_obj: AddrMap<usize>,
    /// Handles whose API count is 0 but whose object the runtime still uses.
    zombies: Vec<usize>,
    /// Number of zombies at which the next create/release sweeps (grows with the number that
    /// survive a sweep, so sweeping stays amortised O(1) per call).
    sweep_at: usize,
    quarantine: VecDeque<(usize, &'static HandleOps)>,
}

/// How many freed handles are kept before their memory is reused.
const QUARANTINE: usize = 1 << 16;

fn registry() -> &'static RwLock<Registry> {
    static R: OnceLock<RwLock<Registry>> = OnceLock::new();
    R.get_or_init(Default::default)
}

impl Registry {
    /// Frees a handle (caller holds the write lock); returns the object to drop after unlock.
    fn free(&mut self, addr: usize) -> Option<Box<dyn std::any::Any + Send>> {
        let e = self.live.remove(&addr)?;
        self.by_obj.remove(&e.obj);
        // SAFETY: addr was live with these ops.
        let obj = unsafe { (e.ops.kill)(addr) };
        self.quarantine.push_back((addr, e.ops));
        while self.quarantine.len() > QUARANTINE {
            if let Some((a, o)) = self.quarantine.pop_front() {
                // SAFETY: a is no longer registered anywhere.
                unsafe { (o.dealloc)(a) };
            }
        }
        obj
    }

    /// Sweeps when enough zombies have accumulated since the last sweep.
    fn maybe_sweep(&mut self, dropped: &mut Vec<Box<dyn std::any::Any + Send>>) {
        if self.zombies.len() >= self.sweep_at {
            self.sweep(dropped);
        }
    }

    /// Frees zombies the runtime no longer uses.
    fn sweep(&mut self, dropped: &mut Vec<Box<dyn std::any::Any + Send>>) {
        let mut i = 0;
        while i < self.zombies.len() {
            let addr = self.zombies[i];
            let free = match self.live.get(&addr) {
                // SAFETY: live entry.
                Some(e) => unsafe {
                    (*(addr as *const Handle<()>)).refs.load(Ordering::SeqCst) == 0
                        && (e.ops.only_ref)(addr)
                },
                None => true,
            };
            if free {
                self.zombies.swap_remove(i);
                if self.live.contains_key(&addr) {
                    dropped.extend(self.free(addr));
                }
            } else {
                i += 1;
            }
        }
        self.sweep_at = 2 * self.zombies.len() + 16;
    }
}

// `Handle<()>` is only used above to read `refs`, which has the same offset in every
// `Handle<T>` (the fields before `obj` do not depend on T).
const _: () =
    assert!(std::mem::offset_of!(Handle<()>, refs) == std::mem::offset_of!(Handle<Context>, refs));

/// Creates the handle of a new object with an API reference count of 1.
pub fn new_handle<T: ClObject>(obj: Arc<T>) -> *mut c_void {
    let obj_addr = Arc::as_ptr(&obj) as *const () as usize;
    let h = Box::new(Handle {
        dispatch: &DISPATCH,
        tag: AtomicU64::new(T::TAG),
        refs: AtomicU32::new(1),
        obj: UnsafeCell::new(Some(obj)),
    });
    let addr = Box::into_raw(h) as usize;
    let mut dropped = Vec::new();
    {
        let mut r = registry().write();
        r.live.insert(
            addr,
            Entry {
                tag: T::TAG,
                obj: obj_addr,
                ops: ops::<T>(),
            },
        );
        r.by_obj.insert(obj_addr, addr);
        r.maybe_sweep(&mut dropped);
    }
    drop(dropped);
    addr as *mut c_void
}

fn lookup<T: ClObject, R>(h: *mut c_void, f: impl FnOnce(&Handle<T>) -> R) -> CLResult<R> {
    let addr = h as usize;
    if addr == 0 {
        return Err(T::INVALID);
    }
    let r = registry().read();
    match r.live.get(&addr) {
        Some(e) if e.tag == T::TAG => {
            // SAFETY: the registry says addr is a live Handle<T>; it cannot be freed while we
            // hold the read lock.
            let handle = unsafe { &*(addr as *const Handle<T>) };
            Ok(f(handle))
        }
        _ => Err(T::INVALID),
    }
}

/// The object behind a handle.
pub fn get<T: ClObject>(h: *mut c_void) -> CLResult<Arc<T>> {
    lookup::<T, _>(h, |handle| {
        // SAFETY: read under the registry read lock (writes need the write lock).
        unsafe { (*handle.obj.get()).clone() }
    })?
    .ok_or(T::INVALID)
}

/// `clRetain*`.
pub fn retain<T: ClObject>(h: *mut c_void) -> CLResult<()> {
    lookup::<T, _>(h, |handle| {
        handle.refs.fetch_add(1, Ordering::SeqCst);
    })
}

/// The API reference count (`CL_*_REFERENCE_COUNT`).
pub fn ref_count<T: ClObject>(h: *mut c_void) -> CLResult<u32> {
    lookup::<T, _>(h, |handle| handle.refs.load(Ordering::SeqCst))
}

/// `clRelease*`.
pub fn release<T: ClObject>(h: *mut c_void) -> CLResult<()> {
    let addr = h as usize;
    if addr == 0 {
        return Err(T::INVALID);
    }
    let mut dropped = Vec::new();
    let result = {
        let mut r = registry().write();
        match r.live.get(&addr) {
            Some(e) if e.tag == T::TAG => {
                // SAFETY: live Handle<T> under the write lock.
                let handle = unsafe { &*(addr as *const Handle<T>) };
                let prev = handle.refs.load(Ordering::SeqCst);
                if prev == 0 {
                    // Only reachable for a handle kept alive by the runtime: the caller has
                    // no reference left to release.
                    Err(T::INVALID)
                } else {
                    handle.refs.store(prev - 1, Ordering::SeqCst);
                    if prev == 1 {
                        // SAFETY: live handle.
                        if unsafe { only_ref::<T>(addr) } {
                            dropped.extend(r.free(addr));
                        } else {
                            r.zombies.push(addr);
                        }
                    }
                    r.maybe_sweep(&mut dropped);
                    Ok(())
                }
            }
            _ => Err(T::INVALID),
        }
    };
    // Runtime destructors (and the user callbacks they call) run without the lock held.
    drop(dropped);
    result
}

/// The handle of a runtime object (NULL if it has none, which does not happen for objects
/// created through the API).
pub fn handle_of<T: ClObject>(obj: &Arc<T>) -> *mut c_void {
    let key = Arc::as_ptr(obj) as *const () as usize;
    registry().read().by_obj.get(&key).copied().unwrap_or(0) as *mut c_void
}

/// Frees zombie handles whose objects the runtime has let go of (called by `clFinish` and
/// waits, so that handle memory does not pile up between creations).
pub fn sweep() {
    let mut dropped = Vec::new();
    {
        let mut r = registry().write();
        if r.zombies.is_empty() {
            return;
        }
        r.sweep(&mut dropped);
    }
    drop(dropped);
}

// ---- platform and device: static handles ----

/// The handle of the platform or a device (never freed).
#[repr(C)]
pub struct StaticHandle {
    dispatch: &'static Dispatch,
    tag: u64,
    index: usize,
}

/// The platform handle.
pub static PLATFORM_HANDLE: StaticHandle = StaticHandle {
    dispatch: &DISPATCH,
    tag: TAG_PLATFORM,
    index: 0,
};

/// Maximum number of devices of the platform.
pub const MAX_DEVICES: usize = 4;

/// Device handles, by device index.
pub static DEVICE_HANDLES: [StaticHandle; MAX_DEVICES] = [
    StaticHandle {
        dispatch: &DISPATCH,
        tag: TAG_DEVICE,
        index: 0,
    },
    StaticHandle {
        dispatch: &DISPATCH,
        tag: TAG_DEVICE,
        index: 1,
    },
    StaticHandle {
        dispatch: &DISPATCH,
        tag: TAG_DEVICE,
        index: 2,
    },
    StaticHandle {
        dispatch: &DISPATCH,
        tag: TAG_DEVICE,
        index: 3,
    },
];

/// The platform handle as a C pointer.
pub fn platform_handle() -> *mut c_void {
    &PLATFORM_HANDLE as *const StaticHandle as *mut c_void
}

/// Checks a platform handle (NULL is accepted by callers that allow it, not here).
pub fn check_platform(p: *mut c_void) -> CLResult<()> {
    if p == platform_handle() {
        Ok(())
    } else {
        Err(CL_INVALID_PLATFORM)
    }
}

/// The handle of a device.
pub fn device_handle(d: &Device) -> *mut c_void {
    &DEVICE_HANDLES[d.index] as *const StaticHandle as *mut c_void
}

/// The device behind a handle.
pub fn get_device(h: *mut c_void) -> CLResult<Arc<Device>> {
    let devices = &fpgacl_runtime::platform().devices;
    DEVICE_HANDLES
        .iter()
        .take(devices.len())
        .position(|s| s as *const StaticHandle as *mut c_void == h)
        .map(|i| devices[i].clone())
        .ok_or(CL_INVALID_DEVICE)
}

// SAFETY: handles are shared between threads by design; their mutable parts are atomics or
// guarded by the registry lock.
unsafe impl<T> Sync for Handle<T> {}
unsafe impl<T> Send for Handle<T> {}

#[cfg(test)]
mod tests {
    use super::*;

    fn context() -> Arc<Context> {
        Context::new(fpgacl_runtime::platform().devices.clone(), Vec::new(), None)
    }

    #[test]
    fn wrong_type_freed_and_garbage_handles_are_rejected() {
        let c = new_handle(context());
        assert!(get::<Context>(c).is_ok());
        assert_eq!(get::<Queue>(c).err(), Some(CL_INVALID_COMMAND_QUEUE));
        assert_eq!(get::<Mem>(c).err(), Some(CL_INVALID_MEM_OBJECT));
        let mut garbage = [0u64; 8];
        let g = garbage.as_mut_ptr() as *mut c_void;
        assert_eq!(get::<Context>(g).err(), Some(CL_INVALID_CONTEXT));
        assert_eq!(
            get::<Context>(std::ptr::null_mut()).err(),
            Some(CL_INVALID_CONTEXT)
        );
        assert_eq!(get_device(g).err(), Some(CL_INVALID_DEVICE));
        assert_eq!(check_platform(g), Err(CL_INVALID_PLATFORM));
        retain::<Context>(c).unwrap();
        assert_eq!(ref_count::<Context>(c), Ok(2));
        release::<Context>(c).unwrap();
        release::<Context>(c).unwrap();
        assert_eq!(get::<Context>(c).err(), Some(CL_INVALID_CONTEXT));
        assert_eq!(release::<Context>(c), Err(CL_INVALID_CONTEXT));
        assert_eq!(retain::<Context>(c), Err(CL_INVALID_CONTEXT));
    }

    #[test]
    fn implicitly_retained_handles_stay_valid_until_the_runtime_lets_go() {
        let ctx = context();
        let c = new_handle(ctx.clone());
        let m = new_handle(Mem::new_buffer(&ctx, 0, 64, 0).unwrap());
        drop(ctx);
        release::<Context>(c).unwrap();
        // The buffer still holds the context: its handle is still the context's handle.
        let mem = get::<Mem>(m).unwrap();
        assert_eq!(handle_of(&mem.context), c);
        assert!(get::<Context>(c).is_ok());
        assert_eq!(ref_count::<Context>(c), Ok(0));
        drop(mem);
        release::<Mem>(m).unwrap();
        sweep();
        assert_eq!(get::<Context>(c).err(), Some(CL_INVALID_CONTEXT));
        assert_eq!(get::<Mem>(m).err(), Some(CL_INVALID_MEM_OBJECT));
    }

    #[test]
    fn handles_start_with_the_dispatch_table() {
        let c = new_handle(context());
        // SAFETY: c is a live handle; its first word is the dispatch table pointer.
        let first = unsafe { *(c as *const *const Dispatch) };
        assert_eq!(first, &DISPATCH as *const Dispatch);
        let p = platform_handle();
        // SAFETY: the platform handle is a static StaticHandle.
        let first = unsafe { *(p as *const *const Dispatch) };
        assert_eq!(first, &DISPATCH as *const Dispatch);
        release::<Context>(c).unwrap();
    }
}

//! Contexts.

use std::sync::Arc;

use fpgacl_device_model::ProgramInstance;

use crate::cl::*;
use crate::device::Device;
use crate::error::CLResult;
use crate::info::{InfoValue, ObjRef};

/// The error notification callback of a context (`pfn_notify` bound to its `user_data`).
pub type ContextNotify = Box<dyn Fn(&str) + Send + Sync>;

/// An OpenCL context: a set of devices and the objects created in it.
pub struct Context {
    pub devices: Vec<Arc<Device>>,
    /// The properties as given (including the terminating 0), empty when NULL was passed.
    pub properties: Vec<cl_context_properties>,
    notify: Option<ContextNotify>,
    destructor_callbacks: parking_lot::Mutex<Vec<Box<dyn FnOnce() + Send>>>,
    /// Programs loaded on the devices (their autorun kernels run until the context goes).
    instances: parking_lot::Mutex<Vec<Arc<ProgramInstance>>>,
}

impl Context {
    /// Creates a context; `devices` is non-empty and duplicate-free (the C layer checks).
    pub fn new(
        devices: Vec<Arc<Device>>,
        properties: Vec<cl_context_properties>,
        notify: Option<ContextNotify>,
    ) -> Arc<Self> {
        crate::profiling::context_created();
        Arc::new(Context {
            devices,
            properties,
            notify,
            destructor_callbacks: parking_lot::Mutex::new(Vec::new()),
            instances: parking_lot::Mutex::new(Vec::new()),
        })
    }

    /// Whether `dev` belongs to this context.
    pub fn has_device(&self, dev: &Device) -> bool {
        self.devices.iter().any(|d| d.index == dev.index)
    }

    /// Reports an asynchronous error through the context's callback (and never fails).
    pub fn report_error(&self, msg: &str) {
        if let Some(f) = &self.notify {
            f(msg);
        }
    }

    /// Keeps a loaded program instance alive as long as the context.
    pub fn add_instance(&self, inst: &Arc<ProgramInstance>) {
        self.instances.lock().push(inst.clone());
    }

    /// Unloads a program instance (a rebuilt program replaces its old one): its autorun
    /// kernels stop.
    pub fn remove_instance(&self, inst: &Arc<ProgramInstance>) {
        self.instances.lock().retain(|i| !Arc::ptr_eq(i, inst));
        inst.shutdown();
    }

    /// Adds a destructor callback (`clSetContextDestructorCallback`), run when the context is
    /// deleted, last registered first.
    pub fn add_destructor_callback(&self, f: Box<dyn FnOnce() + Send>) {
        self.destructor_callbacks.lock().push(f);
    }

    /// `clGetContextInfo` (without the reference count).
    pub fn info(&self, param: cl_context_info) -> CLResult<InfoValue> {
        Ok(match param {
            CL_CONTEXT_NUM_DEVICES => InfoValue::uint(self.devices.len() as u32),
            CL_CONTEXT_DEVICES => InfoValue::Objects(
                self.devices
                    .iter()
                    .map(|d| ObjRef::Device(d.clone()))
                    .collect(),
            ),
            CL_CONTEXT_PROPERTIES => InfoValue::isize_list(&self.properties),
            _ => return Err(CL_INVALID_VALUE),
        })
    }
}

impl Drop for Context {
    fn drop(&mut self) {
        for inst in std::mem::take(&mut *self.instances.lock()) {
            inst.shutdown();
        }
        let cbs = std::mem::take(&mut *self.destructor_callbacks.lock());
        for cb in cbs.into_iter().rev() {
            cb();
        }
    }
}

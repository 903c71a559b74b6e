//! The platform and its emulated FPGA device, and their info queries.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

use fpgacl_device_model::Activity;

use crate::board::{board_from_env, device_name, Board};
use crate::cl::*;
use crate::error::CLResult;
use crate::info::{InfoValue, ObjRef};
use crate::memory::image as img;

/// Default `CL_PLATFORM_NAME` (hosts look for "Intel(R) FPGA SDK for OpenCL(TM)").
pub const DEFAULT_PLATFORM_NAME: &str = "Intel(R) FPGA SDK for OpenCL(TM) (fpgacl emulator)";
/// Extensions of the platform.
pub const PLATFORM_EXTENSIONS: &str = "cl_khr_icd cl_intel_channels";
/// Extensions of the device.
pub const DEVICE_EXTENSIONS: &str = "cl_khr_icd cl_khr_byte_addressable_store cl_khr_fp64 \
cl_khr_global_int32_base_atomics cl_khr_global_int32_extended_atomics \
cl_khr_local_int32_base_atomics cl_khr_local_int32_extended_atomics \
cl_khr_int64_base_atomics cl_khr_int64_extended_atomics cl_khr_3d_image_writes \
cl_intel_channels cl_altera_channels cl_intel_fpga_host_pipe";
/// Version strings.
pub const PLATFORM_VERSION: &str = concat!("OpenCL 1.2 fpgacl ", env!("CARGO_PKG_VERSION"));
pub const DEVICE_VERSION: &str = concat!("OpenCL 1.2 fpgacl ", env!("CARGO_PKG_VERSION"));
pub const DRIVER_VERSION: &str = env!("CARGO_PKG_VERSION");
pub const VENDOR: &str = "fpgacl (Intel(R) Corporation FPGA emulation)";
/// `CL_DEVICE_VENDOR_ID`: Intel's PCI vendor id, as the Intel FPGA runtime reports.
pub const VENDOR_ID: u32 = 0x1172;
/// Largest pipe packet in bytes.
pub const PIPE_MAX_PACKET_SIZE: u32 = 1 << 20;
/// `CL_DEVICE_MEM_BASE_ADDR_ALIGN` in bits (sub-buffer origins are multiples of 1/8 of it).
pub const MEM_BASE_ADDR_ALIGN_BITS: u32 = 1024;
/// `CL_DEVICE_MAX_PARAMETER_SIZE` in bytes.
pub const MAX_PARAMETER_SIZE: usize = 4096;

/// The single fpgacl platform.
pub struct Platform {
    pub name: String,
    pub devices: Vec<Arc<Device>>,
}

/// An emulated FPGA accelerator.
pub struct Device {
    /// Index of the device in `Platform::devices`.
    pub index: usize,
    pub board: Board,
    pub name: String,
    /// Running kernels of this device (shared by all its program instances), for deadlock
    /// diagnosis while the host waits.
    pub activity: Arc<Activity>,
    /// Commands of this device that will make progress without any kernel's help: kernel
    /// commands ready to start, and running non-kernel commands (transfers).
    pub busy: AtomicUsize,
    /// Kernel runs that may overlap in emulated time: they share the global memory
    /// bandwidth (timing rule B4).
    pub bandwidth: Arc<crate::bandwidth::Ledger>,
}

static PLATFORM: OnceLock<Platform> = OnceLock::new();

fn env_nonempty(var: &str) -> Option<String> {
    std::env::var(var).ok().filter(|s| !s.is_empty())
}

/// The process-wide platform (created on first use from the environment).
pub fn platform() -> &'static Platform {
    PLATFORM.get_or_init(|| {
        crate::logging::init();
        let board = board_from_env();
        let name = env_nonempty("FPGACL_DEVICE_NAME").unwrap_or_else(|| device_name(&board));
        Platform {
            name: env_nonempty("FPGACL_PLATFORM_NAME")
                .unwrap_or_else(|| DEFAULT_PLATFORM_NAME.to_string()),
            devices: vec![Arc::new(Device {
                index: 0,
                board,
                name,
                activity: Activity::new(),
                busy: AtomicUsize::new(0),
                bandwidth: crate::bandwidth::Ledger::new(),
            })],
        }
    })
}

impl Platform {
    /// `clGetPlatformInfo`.
    pub fn info(&self, param: cl_platform_info) -> CLResult<InfoValue> {
        Ok(match param {
            CL_PLATFORM_PROFILE => InfoValue::string("FULL_PROFILE"),
            CL_PLATFORM_VERSION => InfoValue::string(PLATFORM_VERSION),
            CL_PLATFORM_NAME => InfoValue::string(&self.name),
            CL_PLATFORM_VENDOR => InfoValue::string(VENDOR),
            CL_PLATFORM_EXTENSIONS => InfoValue::string(PLATFORM_EXTENSIONS),
            CL_PLATFORM_HOST_TIMER_RESOLUTION => InfoValue::ulong(1),
            CL_PLATFORM_ICD_SUFFIX_KHR => InfoValue::string("FPGACL"),
            _ => return Err(CL_INVALID_VALUE),
        })
    }

    /// Devices matching a `cl_device_type` mask (`clGetDeviceIDs`).
    pub fn devices_of_type(&self, ty: cl_device_type) -> CLResult<Vec<Arc<Device>>> {
        const KNOWN: cl_device_type = CL_DEVICE_TYPE_DEFAULT
            | CL_DEVICE_TYPE_CPU
            | CL_DEVICE_TYPE_GPU
            | CL_DEVICE_TYPE_ACCELERATOR
            | CL_DEVICE_TYPE_CUSTOM;
        if ty != CL_DEVICE_TYPE_ALL && (ty & !KNOWN != 0 || ty == 0) {
            return Err(CL_INVALID_DEVICE_TYPE);
        }
        let found: Vec<_> = self
            .devices
            .iter()
            .filter(|d| d.matches_type(ty))
            .cloned()
            .collect();
        if found.is_empty() {
            Err(CL_DEVICE_NOT_FOUND)
        } else {
            Ok(found)
        }
    }
}

/// `CL_PLATFORM_ICD_SUFFIX_KHR` (cl_khr_icd).
pub const CL_PLATFORM_ICD_SUFFIX_KHR: cl_uint = 0x0920;

impl Device {
    /// `CL_DEVICE_TYPE`: an accelerator (as Intel's FPGA runtime reports it).
    pub fn device_type(&self) -> cl_device_type {
        CL_DEVICE_TYPE_ACCELERATOR
    }

    /// Whether the device matches a `clGetDeviceIDs` type mask (`CL_DEVICE_TYPE_DEFAULT`
    /// selects the first device).
    pub fn matches_type(&self, ty: cl_device_type) -> bool {
        ty == CL_DEVICE_TYPE_ALL
            || self.device_type() & ty != 0
            || (ty & CL_DEVICE_TYPE_DEFAULT != 0 && self.index == 0)
    }

    /// Queue properties the device supports.
    pub fn queue_properties(&self) -> cl_command_queue_properties {
        CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE
    }

    /// Largest allocation.
    pub fn max_alloc(&self) -> u64 {
        self.board.max_mem_alloc_bytes
    }

    /// Largest work-group size.
    pub fn max_work_group_size(&self) -> usize {
        self.board.max_work_group_size as usize
    }

    /// `CL_DEVICE_PROFILING_TIMER_RESOLUTION` in ns.
    pub fn timer_resolution_ns(&self) -> usize {
        1
    }

    /// `clGetDeviceInfo` (without the reference count, which the C layer answers).
    pub fn info(&self, param: cl_device_info) -> CLResult<InfoValue> {
        let b = &self.board;
        let wg = self.max_work_group_size();
        let fp_full = CL_FP_DENORM
            | CL_FP_INF_NAN
            | CL_FP_ROUND_TO_NEAREST
            | CL_FP_ROUND_TO_ZERO
            | CL_FP_ROUND_TO_INF
            | CL_FP_FMA;
        Ok(match param {
            CL_DEVICE_TYPE => InfoValue::ulong(self.device_type()),
            CL_DEVICE_VENDOR_ID => InfoValue::uint(VENDOR_ID),
            CL_DEVICE_MAX_COMPUTE_UNITS => InfoValue::uint(1),
            CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS => InfoValue::uint(3),
            CL_DEVICE_MAX_WORK_ITEM_SIZES => InfoValue::sizes(&[wg, wg, wg]),
            CL_DEVICE_MAX_WORK_GROUP_SIZE => InfoValue::size(wg),
            CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR | CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR => {
                InfoValue::uint(4)
            }
            CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT | CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT => {
                InfoValue::uint(2)
            }
            CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT
            | CL_DEVICE_NATIVE_VECTOR_WIDTH_INT
            | CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG
            | CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG
            | CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT
            | CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT
            | CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE
            | CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE => InfoValue::uint(1),
            // No cl_khr_fp16: `half` is a storage format only.
            CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF | CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF => {
                InfoValue::uint(0)
            }
            CL_DEVICE_MAX_CLOCK_FREQUENCY => InfoValue::uint(b.kernel_clock_mhz.round() as u32),
            CL_DEVICE_ADDRESS_BITS => InfoValue::uint(64),
            CL_DEVICE_MAX_MEM_ALLOC_SIZE => InfoValue::ulong(b.max_mem_alloc_bytes),
            // Images are emulated with the limits Intel's runtime reports with image support
            // (`memory/image.rs`).
            CL_DEVICE_IMAGE_SUPPORT => InfoValue::bool(true),
            CL_DEVICE_MAX_READ_IMAGE_ARGS => InfoValue::uint(img::MAX_READ_IMAGE_ARGS),
            CL_DEVICE_MAX_WRITE_IMAGE_ARGS => InfoValue::uint(img::MAX_WRITE_IMAGE_ARGS),
            CL_DEVICE_MAX_SAMPLERS => InfoValue::uint(img::MAX_SAMPLERS),
            CL_DEVICE_IMAGE2D_MAX_WIDTH => InfoValue::size(img::IMAGE2D_MAX_WIDTH),
            CL_DEVICE_IMAGE2D_MAX_HEIGHT => InfoValue::size(img::IMAGE2D_MAX_HEIGHT),
            CL_DEVICE_IMAGE3D_MAX_WIDTH => InfoValue::size(img::IMAGE3D_MAX_WIDTH),
            CL_DEVICE_IMAGE3D_MAX_HEIGHT => InfoValue::size(img::IMAGE3D_MAX_HEIGHT),
            CL_DEVICE_IMAGE3D_MAX_DEPTH => InfoValue::size(img::IMAGE3D_MAX_DEPTH),
            CL_DEVICE_IMAGE_MAX_BUFFER_SIZE => InfoValue::size(img::IMAGE_MAX_BUFFER_SIZE),
            CL_DEVICE_IMAGE_MAX_ARRAY_SIZE => InfoValue::size(img::IMAGE_MAX_ARRAY_SIZE),
            CL_DEVICE_MAX_PARAMETER_SIZE => InfoValue::size(MAX_PARAMETER_SIZE),
            CL_DEVICE_MEM_BASE_ADDR_ALIGN => InfoValue::uint(MEM_BASE_ADDR_ALIGN_BITS),
            CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE => InfoValue::uint(128),
            CL_DEVICE_SINGLE_FP_CONFIG => InfoValue::ulong(fp_full),
            CL_DEVICE_DOUBLE_FP_CONFIG => InfoValue::ulong(fp_full),
            CL_DEVICE_HALF_FP_CONFIG => InfoValue::ulong(0),
            // FPGA global memory has no general cache (LSUs may add a private cache).
            CL_DEVICE_GLOBAL_MEM_CACHE_TYPE => InfoValue::uint(CL_NONE),
            CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE => {
                InfoValue::uint(b.global_memory.first().map_or(64, |g| g.width_bytes))
            }
            CL_DEVICE_GLOBAL_MEM_CACHE_SIZE => InfoValue::ulong(0),
            CL_DEVICE_GLOBAL_MEM_SIZE => InfoValue::ulong(b.global_mem_bytes()),
            CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE => InfoValue::ulong(64 << 10),
            CL_DEVICE_MAX_CONSTANT_ARGS => InfoValue::uint(8),
            CL_DEVICE_LOCAL_MEM_TYPE => InfoValue::uint(CL_LOCAL),
            CL_DEVICE_LOCAL_MEM_SIZE => InfoValue::ulong(b.local_mem_bytes),
            CL_DEVICE_ERROR_CORRECTION_SUPPORT => InfoValue::bool(false),
            CL_DEVICE_HOST_UNIFIED_MEMORY => InfoValue::bool(false),
            CL_DEVICE_PROFILING_TIMER_RESOLUTION => InfoValue::size(self.timer_resolution_ns()),
            CL_DEVICE_ENDIAN_LITTLE => InfoValue::bool(true),
            CL_DEVICE_AVAILABLE | CL_DEVICE_COMPILER_AVAILABLE | CL_DEVICE_LINKER_AVAILABLE => {
                InfoValue::bool(true)
            }
            CL_DEVICE_EXECUTION_CAPABILITIES => InfoValue::ulong(CL_EXEC_KERNEL),
            CL_DEVICE_QUEUE_PROPERTIES => InfoValue::ulong(self.queue_properties()),
            CL_DEVICE_BUILT_IN_KERNELS => InfoValue::string(""),
            CL_DEVICE_PLATFORM => InfoValue::object(ObjRef::Platform),
            CL_DEVICE_NAME => InfoValue::string(&self.name),
            CL_DEVICE_VENDOR => InfoValue::string(VENDOR),
            CL_DRIVER_VERSION => InfoValue::string(DRIVER_VERSION),
            CL_DEVICE_PROFILE => InfoValue::string("FULL_PROFILE"),
            CL_DEVICE_VERSION => InfoValue::string(DEVICE_VERSION),
            CL_DEVICE_OPENCL_C_VERSION => InfoValue::string("OpenCL C 1.2 fpgacl"),
            CL_DEVICE_EXTENSIONS => InfoValue::string(DEVICE_EXTENSIONS),
            CL_DEVICE_PRINTF_BUFFER_SIZE => InfoValue::size(1 << 20),
            CL_DEVICE_PREFERRED_INTEROP_USER_SYNC => InfoValue::bool(true),
            CL_DEVICE_PARENT_DEVICE => InfoValue::null_object(),
            CL_DEVICE_PARTITION_MAX_SUB_DEVICES => InfoValue::uint(0),
            CL_DEVICE_PARTITION_PROPERTIES | CL_DEVICE_PARTITION_TYPE => {
                InfoValue::isize_list(&[0])
            }
            CL_DEVICE_PARTITION_AFFINITY_DOMAIN => InfoValue::ulong(0),
            // OpenCL 2.x queries FPGA hosts make (pipes).
            CL_DEVICE_MAX_PIPE_ARGS => InfoValue::uint(16),
            CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS => InfoValue::uint(1),
            CL_DEVICE_PIPE_MAX_PACKET_SIZE => InfoValue::uint(PIPE_MAX_PACKET_SIZE),
            _ => return Err(CL_INVALID_VALUE),
        })
    }
}

/// Deadlock detection for a waiting host thread, decided from the device's state alone (never
/// from elapsed time, so a loaded machine that deschedules a kernel's thread cannot make a
/// correct program fail): the blocked kernels are aborted (each then fails with a fault naming
/// its channel and source line) when no other command of the device is running or about to
/// start and two samples of [`Activity::quiescence`] confirm each other: every running
/// enqueued kernel parked in a channel/pipe operation on a FIFO that nobody changed since,
/// every autorun instance parked likewise or idle (moving nothing). A command held back by a
/// user event that another host thread will set later cannot be foreseen; hosts that do this
/// while waiting on a blocked kernel get a deadlock report.
///
/// [`Activity::quiescence`]: fpgacl_device_model::Activity::quiescence
#[derive(Default)]
pub struct DeadlockWatch {
    earlier: Option<fpgacl_device_model::Quiescence>,
}

impl DeadlockWatch {
    /// Takes one sample; returns true if it aborted deadlocked kernels.
    pub fn check(&mut self, dev: &Device, ctx: &crate::context::Context) -> bool {
        let now = match dev.activity.quiescence() {
            Some(q) if dev.busy.load(Ordering::SeqCst) == 0 => q,
            _ => {
                self.earlier = None;
                return false;
            }
        };
        match self.earlier.as_ref().map(|e| now.confirms(e)) {
            Some(Some(true)) => {}
            Some(Some(false)) => return false,
            _ => {
                self.earlier = Some(now);
                return false;
            }
        }
        self.earlier = None;
        let aborted = dev.activity.abort_blocked();
        if aborted.is_empty() {
            return false;
        }
        let mut msg = String::from(
            "fpgacl: deadlock: the host is waiting, but every running kernel is blocked on a \
             channel or pipe and nothing can unblock them:",
        );
        for k in &aborted {
            msg.push_str(&format!("\n  {k}"));
        }
        log::error!("{msg}");
        ctx.report_error(&msg);
        true
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_reported_extension_has_its_kernel_macro() {
        // OpenCL C 1.2 9.1: kernels see a macro for each extension the device reports.
        let reported: Vec<&str> = super::DEVICE_EXTENSIONS.split_whitespace().collect();
        let macros = fpgacl_kernel_compiler::preprocess::DEVICE_EXTENSIONS;
        assert_eq!(reported, macros.to_vec());
    }

    use super::*;

    #[test]
    fn platform_and_device_names_follow_fpga_conventions() {
        let p = platform();
        assert!(
            p.name.contains("Intel(R) FPGA SDK for OpenCL(TM)")
                || std::env::var("FPGACL_PLATFORM_NAME").is_ok()
        );
        let d = &p.devices[0];
        assert!(d.name.contains(" : "));
        assert_eq!(
            p.devices_of_type(CL_DEVICE_TYPE_ACCELERATOR).unwrap().len(),
            1
        );
        assert_eq!(
            p.devices_of_type(CL_DEVICE_TYPE_GPU).err(),
            Some(CL_DEVICE_NOT_FOUND)
        );
        assert_eq!(
            p.devices_of_type(1 << 40).err(),
            Some(CL_INVALID_DEVICE_TYPE)
        );
        assert!(d.info(0x7fff).is_err());
    }
}

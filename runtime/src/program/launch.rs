//! `clEnqueueNDRangeKernel` / `clEnqueueTask`: validation of the work sizes and the command
//! that runs a kernel on the device model.

use std::sync::Arc;

use fpgacl_device_model::timing::banks::BankPlacement;
use fpgacl_device_model::timing::sharing::Demand;
use fpgacl_device_model::timing::{self, EvalOptions, KernelTiming};
use fpgacl_device_model::{ArgBinding, LaunchError, LaunchSpec, ProgramInstance, RunError};
use fpgacl_kernel_compiler::analysis::Report;
use fpgacl_kernel_compiler::ir::Module;
use parking_lot::Mutex;

use crate::bandwidth::Ticket;
use crate::device::Device;
use crate::queue::{command_start_ns, report_duration};

use crate::cl::*;
use crate::error::{check, CLResult};
use crate::event::Event;
use crate::memory::ops::finish_blocking;
use crate::program::kernel::{ArgValue, Kernel};
use crate::queue::{CommandOrder, Queue};

/// Everything the device needs to run one kernel launch. Argument values are a snapshot taken
/// at enqueue time (later `clSetKernelArg` calls do not affect it) and keep their memory
/// objects alive until the command ends.
#[derive(Clone)]
pub struct Launch {
    pub module: Arc<Module>,
    /// Index of the kernel in `module.kernels`.
    pub kernel_index: usize,
    pub work_dim: u32,
    pub global_offset: [usize; 3],
    pub global_size: [usize; 3],
    pub local_size: [usize; 3],
    pub args: Vec<ArgValue>,
    /// `CL_COMMAND_TASK` or `CL_COMMAND_NDRANGE_KERNEL`.
    pub command_type: cl_command_type,
    /// The program as loaded on the queue's device.
    pub instance: Arc<ProgramInstance>,
    /// The device it runs on.
    pub device: Arc<Device>,
    /// The board figures for the timing model: the device's at the program's kernel clock
    /// (`-clock=<MHz>`, [`crate::board::program_board`]).
    pub board: Arc<fpgacl_device_model::Board>,
    /// The program's static analysis (II, LSUs), when available: the timing model needs it.
    pub analysis: Option<Arc<Report>>,
    /// The emulated timing of the run, filled when it ends (for the profiler).
    pub timing: Arc<Mutex<Option<KernelTiming>>>,
    /// The launch's entry in its device's run ledger (bandwidth sharing, rule B4).
    pub ticket: Arc<Ticket>,
    /// Where the buffers are when the program was built with `-no-interleaving` (rule B5);
    /// `None`: burst-interleaved banks.
    pub banks: Option<BankPlacement>,
}

impl Launch {
    /// The device model's description of this launch.
    pub fn spec(&self) -> LaunchSpec {
        let u = |a: [usize; 3]| [a[0] as u64, a[1] as u64, a[2] as u64];
        LaunchSpec {
            kernel: self.kernel_index as u32,
            work_dim: self.work_dim,
            global_offset: u(self.global_offset),
            global_size: u(self.global_size),
            local_size: Some(u(self.local_size)),
            args: self.args.iter().map(binding).collect(),
        }
    }

    /// Runs the launch to completion on the calling (queue worker) thread, on the emulated
    /// timeline: it starts at the command's emulated START, and its duration from the timing
    /// model becomes the command's END - START. Runs that overlap in emulated time share the
    /// global memory bandwidth (rule B4): the duration is final once the device's run ledger
    /// knows every run that starts before its end ([`crate::bandwidth`]).
    pub fn run(&self) -> Result<fpgacl_device_model::RunReport, RunError> {
        let spec = self.spec();
        let board = &*self.board;
        let name = self
            .module
            .kernels
            .get(self.kernel_index)
            .map(|k| k.name.as_str())
            .unwrap_or("");
        let krep = self.analysis.as_ref().and_then(|r| r.kernel(name));
        let model = krep.and_then(|k| {
            let group = spec.local_size.unwrap_or([1; 3]);
            let items = spec.global_size.iter().map(|&x| x.max(1)).product::<u64>();
            timing::compute_model_for_launch(&self.module, k, group, items).ok()
        });
        let ledger = &self.device.bandwidth;
        let start_cycle = board.ns_to_cycles(command_start_ns());
        let (Some(krep), Some(model)) = (krep, model) else {
            // Untimed: it shares nothing, so overlapping runs need not wait for it to end.
            ledger.forget(&self.ticket);
            return crate::profiling::run_on_device(&self.instance, &spec, None);
        };
        // Until it ends, its demand is unknown: overlapping runs wait for it.
        ledger.start(&self.ticket, start_cycle);
        let plan = model.clock_plan(start_cycle);
        let run = match crate::profiling::run_on_device(&self.instance, &spec, Some(&plan)) {
            Ok(r) => r,
            Err(e) => {
                ledger.forget(&self.ticket);
                return Err(e);
            }
        };
        let mut opts = EvalOptions {
            start_cycle,
            end_tick: run.end_tick,
            ..Default::default()
        };
        let banks = self.banks.as_ref();
        match timing::evaluate_banked(&self.module, krep, board, &run, &opts, banks) {
            Ok(alone) => {
                // The ledger counts cycles at the device's clock: a program built for
                // another clock (`-clock`) converts its figures there and back (bytes are
                // clock independent).
                let dev_mhz = self.device.board.kernel_clock_mhz;
                let scale = if board.kernel_clock_mhz > 0.0 && dev_mhz > 0.0 {
                    dev_mhz / board.kernel_clock_mhz
                } else {
                    1.0
                };
                let to_dev = |c: u64| (c as f64 * scale).round() as u64;
                let demand = Demand {
                    start: if scale == 1.0 {
                        start_cycle
                    } else {
                        self.device
                            .board
                            .ns_to_cycles(board.cycles_to_ns(start_cycle))
                    },
                    pipeline: to_dev(alone.pipeline_cycles).max(1),
                    bytes: alone.demand_bytes,
                };
                let shared_dev = ledger.finish(&self.device, &self.ticket, demand);
                let shared = if scale == 1.0 {
                    shared_dev
                } else {
                    (shared_dev as f64 / scale).round() as u64
                };
                let t = if shared > alone.cycles {
                    opts.shared_cycles = Some(shared);
                    timing::evaluate_banked(&self.module, krep, board, &run, &opts, banks)
                        .unwrap_or(alone)
                } else {
                    alone
                };
                report_duration(board.cycles_to_ns(t.cycles));
                *self.timing.lock() = Some(t);
            }
            Err(_) => ledger.forget(&self.ticket),
        }
        Ok(run)
    }
}

/// Rule B5: the banks of the launch's buffers when the kernel's program was built with
/// `-no-interleaving=<memory type>` (read back from its build options, so a program created
/// from an `.aocx` keeps it); `None` for interleaved banks, and for a memory type the board
/// does not have (the option then changes nothing).
fn bank_placement(
    k: &Kernel,
    board: &fpgacl_device_model::Board,
    args: &[ArgValue],
) -> Option<BankPlacement> {
    let memory = k.no_interleaving()?;
    // Collected only for a `-no-interleaving` build (most launches have none).
    let arg_banks = args
        .iter()
        .map(|a| match a {
            ArgValue::Buffer(Some(m)) => m.bank,
            _ => 0,
        })
        .collect();
    BankPlacement::new(board, memory, arg_banks)
}

/// `clBuildProgram`: a `-no-interleaving=<memory type>` option must name `default` or a memory
/// type of every device's board (rule B5); the error is the message for the build log
/// (`CL_INVALID_BUILD_OPTIONS`). Malformed options are left to the compiler's parser.
pub fn check_memory_type(options: &str, devices: &[Arc<Device>]) -> Result<(), String> {
    let Ok(opts) = fpgacl_kernel_compiler::options::BuildOptions::parse(options) else {
        return Ok(());
    };
    let Some(name) = opts.no_interleaving else {
        return Ok(());
    };
    for d in devices {
        if BankPlacement::new(&d.board, &name, Vec::new()).is_none() {
            let kinds: Vec<&str> = d
                .board
                .global_memory
                .iter()
                .map(|g| g.kind.as_str())
                .collect();
            return Err(format!(
                "invalid value '{name}' in '-no-interleaving=': board '{}' has no such global memory type (expected default or one of: {})",
                d.board.name,
                kinds.join(", ")
            ));
        }
    }
    Ok(())
}

/// The device model's binding of one argument value.
fn binding(v: &ArgValue) -> ArgBinding {
    match v {
        ArgValue::Bytes(b) => ArgBinding::Value(b.clone()),
        ArgValue::Buffer(None) => ArgBinding::Buffer {
            mem: None,
            offset: 0,
            len: 0,
        },
        ArgValue::Buffer(Some(m)) if m.image().is_some() => match m.image_storage() {
            Some(s) => ArgBinding::Buffer {
                mem: Some(s.clone()),
                offset: 0,
                len: s.len(),
            },
            None => ArgBinding::Buffer {
                mem: None,
                offset: 0,
                len: 0,
            },
        },
        ArgValue::Buffer(Some(m)) => match m.storage() {
            Some((s, off)) => ArgBinding::Buffer {
                mem: Some(s.clone()),
                offset: off,
                len: m.size,
            },
            None => ArgBinding::Buffer {
                mem: None,
                offset: 0,
                len: 0,
            },
        },
        ArgValue::Local(n) => ArgBinding::Local(*n),
        ArgValue::Pipe(m) => match &m.pipe_fifo {
            Some(f) => ArgBinding::Pipe(f.clone()),
            None => ArgBinding::Buffer {
                mem: None,
                offset: 0,
                len: 0,
            },
        },
    }
}

/// The OpenCL status of a failed run.
pub fn run_error_code(e: &RunError) -> cl_int {
    match e {
        RunError::Launch(l) => match l {
            LaunchError::NoSuchKernel(_) | LaunchError::Autorun(_) => CL_INVALID_KERNEL,
            LaunchError::WorkDim(_) => CL_INVALID_WORK_DIMENSION,
            LaunchError::GlobalSize(_) => CL_INVALID_GLOBAL_WORK_SIZE,
            LaunchError::WorkGroupSize(_) => CL_INVALID_WORK_GROUP_SIZE,
            LaunchError::Arg { .. } => CL_INVALID_KERNEL_ARGS,
            LaunchError::LocalMemory { .. } | LaunchError::PrivateMemory { .. } => {
                CL_OUT_OF_RESOURCES
            }
            LaunchError::ShutDown => CL_INVALID_PROGRAM_EXECUTABLE,
        },
        // A kernel fault ends the command like a device error.
        RunError::Fault(_) => CL_OUT_OF_RESOURCES,
    }
}

/// Work-group size chosen by default for kernels without attributes.
pub const DEFAULT_WORK_GROUP_SIZE: usize = 256;

/// Validated work sizes of a launch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WorkSizes {
    pub offset: [usize; 3],
    pub global: [usize; 3],
    pub local: [usize; 3],
}

/// Checks an NDRange against the kernel's attributes and the device limits, and chooses a
/// local size when none is given.
pub fn check_work_sizes(
    work_dim: u32,
    offset: Option<&[usize]>,
    global: Option<&[usize]>,
    local: Option<&[usize]>,
    reqd: Option<[u32; 3]>,
    max_wg: usize,
    max_item: usize,
) -> CLResult<WorkSizes> {
    check((1..=3).contains(&work_dim), CL_INVALID_WORK_DIMENSION)?;
    let d = work_dim as usize;
    let global = global.ok_or(CL_INVALID_GLOBAL_WORK_SIZE)?;
    let mut ws = WorkSizes {
        offset: [0; 3],
        global: [1; 3],
        local: [1; 3],
    };
    for i in 0..d {
        check(global[i] != 0, CL_INVALID_GLOBAL_WORK_SIZE)?;
        ws.global[i] = global[i];
        if let Some(o) = offset {
            ws.offset[i] = o[i];
        }
        check(
            ws.offset[i].checked_add(ws.global[i]).is_some(),
            CL_INVALID_GLOBAL_OFFSET,
        )?;
    }
    // The number of work-items must be representable (the device model counts them in 64 bits).
    check(
        ws.global
            .iter()
            .try_fold(1u64, |a, &g| a.checked_mul(g as u64))
            .is_some(),
        CL_INVALID_GLOBAL_WORK_SIZE,
    )?;
    match local {
        Some(l) => {
            for i in 0..d {
                check(l[i] != 0, CL_INVALID_WORK_GROUP_SIZE)?;
                check(l[i] <= max_item, CL_INVALID_WORK_ITEM_SIZE)?;
                check(ws.global[i] % l[i] == 0, CL_INVALID_WORK_GROUP_SIZE)?;
                ws.local[i] = l[i];
            }
            if let Some(r) = reqd {
                for i in 0..3 {
                    check(ws.local[i] == r[i] as usize, CL_INVALID_WORK_GROUP_SIZE)?;
                }
            }
        }
        None => {
            if let Some(r) = reqd {
                for i in 0..3 {
                    ws.local[i] = r[i] as usize;
                    check(
                        ws.local[i] != 0 && ws.global[i] % ws.local[i] == 0,
                        CL_INVALID_WORK_GROUP_SIZE,
                    )?;
                }
            } else {
                // Largest divisor of each dimension that keeps the group within the limit and
                // within 256 work-items (the Intel compiler's default work-group size; the
                // device model chooses the same way).
                let mut budget = max_wg.min(DEFAULT_WORK_GROUP_SIZE);
                for i in 0..d {
                    let g = ws.global[i];
                    let mut best = 1;
                    let cap = budget.min(max_item).min(g);
                    for cand in (1..=cap).rev() {
                        if g % cand == 0 {
                            best = cand;
                            break;
                        }
                    }
                    ws.local[i] = best;
                    budget /= best;
                }
            }
        }
    }
    let total: usize = ws.local.iter().product();
    check(total <= max_wg, CL_INVALID_WORK_GROUP_SIZE)?;
    Ok(ws)
}

/// `clEnqueueNDRangeKernel` (and `clEnqueueTask` with `work_dim` 1 and sizes 1).
#[allow(clippy::too_many_arguments)]
pub fn enqueue_kernel(
    q: &Arc<Queue>,
    k: &Arc<Kernel>,
    command_type: cl_command_type,
    work_dim: u32,
    offset: Option<&[usize]>,
    global: Option<&[usize]>,
    local: Option<&[usize]>,
    wait: &[Arc<Event>],
) -> CLResult<Arc<Event>> {
    check(
        Arc::ptr_eq(&q.context, &k.program.context),
        CL_INVALID_CONTEXT,
    )?;
    check(
        k.program.devices.iter().any(|d| d.index == q.device.index),
        CL_INVALID_PROGRAM_EXECUTABLE,
    )?;
    let f = k.function();
    check(!f.attrs.autorun, CL_INVALID_KERNEL)?;
    let instance = k.program.instance().ok_or(CL_INVALID_PROGRAM_EXECUTABLE)?;
    let ws = check_work_sizes(
        work_dim,
        offset,
        global,
        local,
        f.attrs.reqd_work_group_size,
        k.max_work_group_size(&q.device),
        q.device.max_work_group_size(),
    )?;
    let args = k.arg_values()?;
    let banks = bank_placement(k, &q.device.board, &args);
    check(
        k.local_mem_size() <= q.device.board.local_mem_bytes,
        CL_OUT_OF_RESOURCES,
    )?;
    // Private memory of a work-group beyond the emulator's limit: refused now, not when the
    // command runs.
    if let Err(e) = instance.check_private_memory(k.index as u32, ws.local.map(|x| x as u64)) {
        let msg = format!("fpgacl: kernel '{}': {e}", f.name);
        log::error!("{msg}");
        q.context.report_error(&msg);
        return Err(run_error_code(&RunError::Launch(e)));
    }
    let launch = Launch {
        module: k.module.clone(),
        kernel_index: k.index,
        work_dim,
        global_offset: ws.offset,
        global_size: ws.global,
        local_size: ws.local,
        args,
        command_type,
        board: k.program.board(&q.device),
        instance,
        device: q.device.clone(),
        analysis: k.program.analysis(),
        timing: Arc::new(Mutex::new(None)),
        ticket: Arc::new(
            q.device
                .bandwidth
                .enqueue_on(Some((Arc::as_ptr(q) as usize, q.out_of_order()))),
        ),
        banks,
    };
    let ticket = launch.ticket.clone();
    let ctx = q.context.clone();
    let probe = crate::profiling::KernelProbe::new(q, &launch);
    let probe_ev = probe.clone();
    let ev = q.enqueue(
        command_type,
        wait,
        CommandOrder::Normal,
        Some(Box::new(move || {
            match crate::profiling::run_launch(&launch, probe.as_deref()) {
                Ok(_report) => Ok(()),
                Err(e) => {
                    let msg = format!("fpgacl: {e}");
                    log::error!("{msg}");
                    ctx.report_error(&msg);
                    Err(run_error_code(&e))
                }
            }
        })),
    )?;
    q.device.bandwidth.attach(&ticket, &ev);
    drop(ticket);
    if let Some(p) = probe_ev {
        p.attach(&ev);
    }
    finish_blocking(ev, false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn work_size_rules() {
        let g = [64usize, 4, 1];
        let ok = check_work_sizes(2, None, Some(&g), Some(&[8, 2, 1]), None, 256, 256).unwrap();
        assert_eq!(ok.local, [8, 2, 1]);
        assert_eq!(
            check_work_sizes(0, None, Some(&g), None, None, 256, 256),
            Err(CL_INVALID_WORK_DIMENSION)
        );
        assert_eq!(
            check_work_sizes(1, None, None, None, None, 256, 256),
            Err(CL_INVALID_GLOBAL_WORK_SIZE)
        );
        assert_eq!(
            check_work_sizes(1, None, Some(&[0]), None, None, 256, 256),
            Err(CL_INVALID_GLOBAL_WORK_SIZE)
        );
        assert_eq!(
            check_work_sizes(1, None, Some(&[64]), Some(&[7]), None, 256, 256),
            Err(CL_INVALID_WORK_GROUP_SIZE)
        );
        assert_eq!(
            check_work_sizes(2, None, Some(&g), Some(&[64, 4]), None, 128, 256),
            Err(CL_INVALID_WORK_GROUP_SIZE)
        );
        assert_eq!(
            check_work_sizes(1, None, Some(&[512]), Some(&[512]), None, 1024, 256),
            Err(CL_INVALID_WORK_ITEM_SIZE)
        );
        assert_eq!(
            check_work_sizes(1, Some(&[usize::MAX]), Some(&[2]), None, None, 256, 256),
            Err(CL_INVALID_GLOBAL_OFFSET)
        );
        // reqd_work_group_size must match, and is used when no local size is given
        assert_eq!(
            check_work_sizes(1, None, Some(&[64]), Some(&[8]), Some([16, 1, 1]), 256, 256),
            Err(CL_INVALID_WORK_GROUP_SIZE)
        );
        let r = check_work_sizes(1, None, Some(&[64]), None, Some([16, 1, 1]), 256, 256).unwrap();
        assert_eq!(r.local, [16, 1, 1]);
        // chosen local sizes divide the global size and respect the limit
        let c = check_work_sizes(3, None, Some(&[100, 30, 7]), None, None, 64, 64).unwrap();
        for i in 0..3 {
            assert_eq!(c.global[i] % c.local[i], 0);
        }
        assert!(c.local.iter().product::<usize>() <= 64);
    }
}

//! Shared helpers of the timing and scenario tests: compile OpenCL C, analyse it against the
//! board, run kernels and evaluate their timing.
#![allow(dead_code)]

use fpgacl_device_model::timing::{self, EvalOptions, KernelTiming};
use fpgacl_device_model::*;
use fpgacl_kernel_compiler::analysis::{self, KernelReport, Report};
use fpgacl_kernel_compiler::ir::Module;
use fpgacl_kernel_compiler::SourceFile;
use fpgacl_profile_format::SiteCounters;
use std::sync::Arc;

pub struct Kit {
    pub module: Arc<Module>,
    pub report: Report,
    pub board: Board,
    pub inst: ProgramInstance,
}

pub fn compile(src: &str) -> Arc<Module> {
    let out = fpgacl_kernel_compiler::build(
        &[SourceFile {
            name: "k.cl".into(),
            text: src.into(),
        }],
        "",
    )
    .expect("options");
    match out.module {
        Some(m) => m,
        None => panic!("build failed:\n{}", out.log),
    }
}

pub fn kit(src: &str, threads: usize) -> Kit {
    kit_on(src, threads, Board::default_board())
}

pub fn kit_on(src: &str, threads: usize, board: Board) -> Kit {
    kit_with(
        src,
        board,
        ExecConfig {
            threads,
            ..Default::default()
        },
    )
}

pub fn kit_with(src: &str, board: Board, config: ExecConfig) -> Kit {
    let module = compile(src);
    let report = analysis::analyze(&module, &board.analysis_params());
    let inst = ProgramInstance::new(module.clone(), &board, config).expect("decodes");
    Kit {
        module,
        report,
        board,
        inst,
    }
}

impl Kit {
    pub fn index(&self, name: &str) -> u32 {
        self.module
            .kernels
            .iter()
            .position(|k| k.name == name)
            .unwrap_or_else(|| panic!("no kernel {name}")) as u32
    }

    pub fn kreport(&self, name: &str) -> &KernelReport {
        self.report.kernel(name).expect("kernel report")
    }

    /// Runs a launch and evaluates it with default options.
    pub fn run(&self, spec: &LaunchSpec) -> (RunReport, KernelTiming) {
        self.run_with(spec, &EvalOptions::default())
    }

    pub fn run_with(&self, spec: &LaunchSpec, opts: &EvalOptions) -> (RunReport, KernelTiming) {
        let r = self.inst.run(spec).expect("runs");
        let t = self.evaluate(&r, opts);
        (r, t)
    }

    pub fn evaluate(&self, r: &RunReport, opts: &EvalOptions) -> KernelTiming {
        timing::evaluate(&self.module, self.kreport(&r.kernel), &self.board, r, opts)
            .expect("evaluates")
    }

    /// The counters of the (first) site at a source line of a kernel, of a kind.
    pub fn site_at<'t>(&self, t: &'t KernelTiming, line: u32, store: bool) -> &'t SiteCounters {
        let s = self
            .module
            .sites
            .iter()
            .find(|s| {
                s.loc.line == line
                    && t.site(s.id.0).is_some()
                    && matches!(
                        (s.kind, store),
                        (fpgacl_kernel_compiler::ir::SiteKind::Store, true)
                            | (fpgacl_kernel_compiler::ir::SiteKind::ChannelWrite, true)
                            | (fpgacl_kernel_compiler::ir::SiteKind::PipeWrite, true)
                            | (fpgacl_kernel_compiler::ir::SiteKind::Load, false)
                            | (fpgacl_kernel_compiler::ir::SiteKind::ChannelRead, false)
                            | (fpgacl_kernel_compiler::ir::SiteKind::PipeRead, false)
                    )
            })
            .unwrap_or_else(|| panic!("no site at line {line}"));
        t.site(s.id.0).expect("site counters")
    }

    /// The channel site of a kernel in its timing.
    pub fn fifo_site<'t>(&self, t: &'t KernelTiming, kernel: &str) -> &'t SiteCounters {
        fifo_site(&self.module, t, self.index(kernel))
    }

    /// A single-work-item launch timed on its own clock from `start` (its kernel's clock plan,
    /// as the runtime starts it) and evaluated up to the end of that clock.
    pub fn run_timed_task(
        &self,
        name: &str,
        args: Vec<ArgBinding>,
        start: u64,
    ) -> (RunReport, KernelTiming) {
        let model = timing::compute_model(&self.module, self.kreport(name)).expect("model");
        let r = self
            .inst
            .run_timed(
                &LaunchSpec::task(self.index(name), args),
                &model.clock_plan(start),
            )
            .expect("runs");
        let opts = EvalOptions {
            start_cycle: start,
            end_tick: r.end_tick,
            ..Default::default()
        };
        let t = self.evaluate(&r, &opts);
        (r, t)
    }
}

/// The (first) channel read or write site of kernel `kernel` in its timing.
pub fn fifo_site<'t>(module: &Module, t: &'t KernelTiming, kernel: u32) -> &'t SiteCounters {
    let s = module
        .sites
        .iter()
        .find(|s| {
            s.kernel == kernel
                && matches!(
                    s.kind,
                    fpgacl_kernel_compiler::ir::SiteKind::ChannelRead
                        | fpgacl_kernel_compiler::ir::SiteKind::ChannelWrite
                )
        })
        .expect("channel site");
    t.site(s.id.0).expect("site counters")
}

pub fn buf<T: Copy>(data: &[T]) -> Arc<DeviceMemory> {
    let n = std::mem::size_of_val(data);
    let m = DeviceMemory::new(n.max(1)).unwrap();
    // SAFETY: plain data.
    let bytes = unsafe { std::slice::from_raw_parts(data.as_ptr() as *const u8, n) };
    m.write(0, bytes).unwrap();
    Arc::new(m)
}

pub fn val<T: Copy>(v: T) -> ArgBinding {
    let n = std::mem::size_of::<T>();
    // SAFETY: plain data.
    let bytes = unsafe { std::slice::from_raw_parts(&v as *const T as *const u8, n) };
    ArgBinding::Value(bytes.to_vec())
}

/// Asserts `a` is within `tol` (relative) of `b`.
pub fn near(what: &str, a: f64, b: f64, tol: f64) {
    assert!(
        (a - b).abs() <= tol * b.abs().max(1e-12),
        "{what}: {a} is not within {}% of {b}",
        tol * 100.0
    );
}

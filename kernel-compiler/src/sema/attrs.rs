//! Checking of `__attribute__((...))` lists: kernel attributes into [`KernelAttrs`], variable
//! attributes (memory banking) into [`VarAttrs`], channel/pipe attributes (`depth`, `io`,
//! `blocking`).

use crate::ast::{Attribute, Expr, ExprKind};
use crate::diag::Diagnostics;
use crate::ir::KernelAttrs;

/// Deepest channel or pipe a program may declare (`depth(N)`), in elements: 2^24. An FPGA
/// builds a channel's buffer from on-chip RAM; the largest devices hold some tens of MB of it,
/// so a deeper FIFO cannot be built (the emulator allocates FIFO storage as it fills, but
/// refuses such declarations as the compiler would). Documented in the README (Limits).
pub const MAX_CHANNEL_DEPTH: u32 = 1 << 24;
/// Most compute units of one kernel (`num_compute_units(X, Y, Z)`: X * Y * Z): 256. Each is a
/// copy of the kernel's pipeline on the device (and a host thread for an autorun kernel).
/// Documented in the README (Limits).
pub const MAX_COMPUTE_UNITS: u64 = 256;

/// Evaluates an attribute argument as an integer constant (reports its own errors).
pub type EvalInt<'a> = dyn FnMut(&Expr, &mut Diagnostics) -> Option<i128> + 'a;

/// Memory attributes of a variable, kept for the analysis.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VarAttrs {
    pub numbanks: Option<u32>,
    pub bankwidth: Option<u32>,
    pub bank_bits: Vec<u32>,
    pub singlepump: bool,
    pub doublepump: bool,
    pub register: bool,
    pub memory: Option<String>,
    pub private_copies: Option<u32>,
    pub max_replicates: Option<u32>,
    pub aligned: Option<u32>,
    pub packed: bool,
    pub depth: Option<u32>,
    pub io: Option<String>,
    pub blocking: bool,
}

const KERNEL_ATTRS: &[&str] = &[
    "reqd_work_group_size",
    "max_work_group_size",
    "num_compute_units",
    "num_simd_work_items",
    "autorun",
    "max_global_work_dim",
    "uses_global_work_offset",
    "task",
    "vec_type_hint",
    "work_group_size_hint",
    "max_unroll_loops",
    "stall_free",
    "scheduler_target_fmax_mhz",
];

const VAR_ATTRS: &[&str] = &[
    "numbanks",
    "bankwidth",
    "bank_bits",
    "singlepump",
    "doublepump",
    "register",
    "memory",
    "private_copies",
    "max_replicates",
    "aligned",
    "packed",
    "depth",
    "io",
    "blocking",
    "merge",
    "simple_dual_port",
    "max_concurrency",
    "force_pow2_depth",
    "unused",
    "used",
    "always_inline",
    "noinline",
    "overloadable",
    "const",
    "pure",
];

fn positive(
    a: &Attribute,
    i: usize,
    eval: &mut EvalInt,
    diags: &mut Diagnostics,
    allow_zero: bool,
) -> Option<u32> {
    let e = a.args.get(i)?;
    let v = eval(e, diags)?;
    if v < 0 || (v == 0 && !allow_zero) || v > u32::MAX as i128 {
        diags.error(
            e.loc,
            format!(
                "'{}' attribute requires a {} integer constant, got {v}",
                a.name,
                if allow_zero {
                    "non-negative"
                } else {
                    "positive"
                }
            ),
        );
        return None;
    }
    Some(v as u32)
}

fn arity(a: &Attribute, min: usize, max: usize, diags: &mut Diagnostics) -> bool {
    let n = a.args.len();
    if n < min || n > max {
        let want = if min == max {
            format!("{min}")
        } else {
            format!("{min} to {max}")
        };
        diags.error(
            a.loc,
            format!(
                "'{}' attribute takes {want} argument{}, but {n} {} given",
                a.name,
                if max == 1 { "" } else { "s" },
                if n == 1 { "was" } else { "were" }
            ),
        );
        return false;
    }
    true
}

/// Checks kernel attributes. Variable attributes on a kernel are errors; unknown names warn.
pub fn kernel_attrs(
    attrs: &[Attribute],
    eval: &mut EvalInt,
    diags: &mut Diagnostics,
) -> KernelAttrs {
    let mut k = KernelAttrs {
        num_compute_units: [1, 1, 1],
        ..Default::default()
    };
    for a in attrs {
        match a.name.as_str() {
            "reqd_work_group_size" | "work_group_size_hint" => {
                if !arity(a, 3, 3, diags) {
                    continue;
                }
                let mut v = [1u32; 3];
                let mut ok = true;
                for (i, slot) in v.iter_mut().enumerate() {
                    match positive(a, i, eval, diags, false) {
                        Some(x) => *slot = x,
                        None => ok = false,
                    }
                }
                if ok && a.name == "reqd_work_group_size" {
                    k.reqd_work_group_size = Some(v);
                } else if ok {
                    k.work_group_size_hint = Some(v);
                }
            }
            "max_work_group_size" => {
                if !arity(a, 1, 3, diags) {
                    continue;
                }
                let mut total: u64 = 1;
                let mut ok = true;
                for i in 0..a.args.len() {
                    match positive(a, i, eval, diags, false) {
                        Some(x) => total = total.saturating_mul(x as u64),
                        None => ok = false,
                    }
                }
                if ok {
                    k.max_work_group_size = Some(total.min(u32::MAX as u64) as u32);
                }
            }
            "num_compute_units" => {
                if !arity(a, 1, 3, diags) {
                    continue;
                }
                for i in 0..a.args.len() {
                    if let Some(x) = positive(a, i, eval, diags, false) {
                        k.num_compute_units[i] = x;
                    }
                }
                let total: u64 = k.num_compute_units.iter().map(|&x| x as u64).product();
                if total > MAX_COMPUTE_UNITS {
                    diags.error(
                        a.loc,
                        format!(
                            "'num_compute_units' asks for {total} compute units; at most \
                             {MAX_COMPUTE_UNITS} are supported"
                        ),
                    );
                    k.num_compute_units = [1, 1, 1];
                }
            }
            "num_simd_work_items" => {
                if !arity(a, 1, 1, diags) {
                    continue;
                }
                if let Some(x) = positive(a, 0, eval, diags, false) {
                    if ![1, 2, 4, 8, 16].contains(&x) {
                        diags.error(
                            a.loc,
                            format!("'num_simd_work_items' must be 1, 2, 4, 8 or 16, got {x}"),
                        );
                    } else {
                        k.num_simd_work_items = Some(x);
                    }
                }
            }
            "autorun" => {
                if arity(a, 0, 0, diags) {
                    k.autorun = true;
                }
            }
            "task" => {
                if arity(a, 0, 0, diags) {
                    k.task = true;
                }
            }
            "max_global_work_dim" => {
                if !arity(a, 1, 1, diags) {
                    continue;
                }
                if let Some(x) = positive(a, 0, eval, diags, true) {
                    if x > 3 {
                        diags.error(
                            a.loc,
                            format!("'max_global_work_dim' must be 0 to 3, got {x}"),
                        );
                    } else {
                        k.max_global_work_dim = Some(x);
                    }
                }
            }
            "uses_global_work_offset" => {
                if !arity(a, 1, 1, diags) {
                    continue;
                }
                if let Some(x) = positive(a, 0, eval, diags, true) {
                    k.uses_global_work_offset = Some(x != 0);
                }
            }
            "vec_type_hint" => {
                if !arity(a, 1, 1, diags) {
                    continue;
                }
                match &a.args[0].kind {
                    ExprKind::Ident(t)
                        if crate::sema::types::builtin_type(t).is_some_and(|t| t.is_arith()) =>
                    {
                        k.vec_type_hint = Some(t.clone())
                    }
                    _ => diags.error(
                        a.args[0].loc,
                        "'vec_type_hint' needs a scalar or vector type name",
                    ),
                }
            }
            "max_unroll_loops" | "stall_free" | "scheduler_target_fmax_mhz" => {}
            n if VAR_ATTRS.contains(&n)
                && !matches!(
                    n,
                    "always_inline"
                        | "noinline"
                        | "overloadable"
                        | "const"
                        | "pure"
                        | "unused"
                        | "used"
                ) =>
            {
                diags.error(
                    a.loc,
                    format!("'{n}' attribute only applies to variables, not to kernels"),
                )
            }
            n if VAR_ATTRS.contains(&n) => {}
            n => diags.warning(a.loc, format!("unknown attribute '{n}' ignored")),
        }
    }
    if k.autorun && k.max_global_work_dim != Some(0) && k.reqd_work_group_size.is_none() {
        if let Some(a) = attrs.iter().find(|a| a.name == "autorun") {
            diags.error(
                a.loc,
                "'autorun' kernels must also have 'max_global_work_dim(0)' or 'reqd_work_group_size'",
            );
        }
    }
    k
}

/// Checks variable (and channel/pipe) attributes.
pub fn var_attrs(attrs: &[Attribute], eval: &mut EvalInt, diags: &mut Diagnostics) -> VarAttrs {
    let mut v = VarAttrs::default();
    for a in attrs {
        let one = |diags: &mut Diagnostics, eval: &mut EvalInt, zero: bool| -> Option<u32> {
            if !arity(a, 1, 1, diags) {
                return None;
            }
            positive(a, 0, eval, diags, zero)
        };
        match a.name.as_str() {
            "numbanks" => {
                if let Some(x) = one(diags, eval, false) {
                    if !x.is_power_of_two() {
                        diags.error(a.loc, format!("'numbanks' must be a power of 2, got {x}"));
                    } else {
                        v.numbanks = Some(x);
                    }
                }
            }
            "bankwidth" => {
                if let Some(x) = one(diags, eval, false) {
                    if !x.is_power_of_two() {
                        diags.error(a.loc, format!("'bankwidth' must be a power of 2, got {x}"));
                    } else {
                        v.bankwidth = Some(x);
                    }
                }
            }
            "bank_bits" => {
                if a.args.is_empty() {
                    diags.error(
                        a.loc,
                        "'bank_bits' attribute needs at least one bit position",
                    );
                }
                for i in 0..a.args.len() {
                    if let Some(x) = positive(a, i, eval, diags, true) {
                        v.bank_bits.push(x);
                    }
                }
            }
            "singlepump" => v.singlepump = arity(a, 0, 0, diags),
            "doublepump" => v.doublepump = arity(a, 0, 0, diags),
            "register" => v.register = arity(a, 0, 0, diags),
            "packed" => v.packed = arity(a, 0, 0, diags),
            "blocking" => v.blocking = arity(a, 0, 0, diags),
            "memory" => {
                if arity(a, 0, 1, diags) {
                    v.memory = Some(match a.args.first().map(|e| &e.kind) {
                        Some(ExprKind::Str(s)) => s.clone(),
                        _ => "DEFAULT".into(),
                    });
                }
            }
            "private_copies" => v.private_copies = one(diags, eval, true),
            "max_replicates" => v.max_replicates = one(diags, eval, false),
            "aligned" => {
                if a.args.is_empty() {
                    v.aligned = Some(16);
                } else if let Some(x) = one(diags, eval, false) {
                    if !x.is_power_of_two() {
                        diags.error(a.loc, "requested alignment is not a power of 2");
                    } else {
                        v.aligned = Some(x);
                    }
                }
            }
            "depth" => {
                v.depth = one(diags, eval, true);
                if let Some(d) = v.depth.filter(|&d| d > MAX_CHANNEL_DEPTH) {
                    diags.error(
                        a.loc,
                        format!(
                            "'depth({d})' exceeds the deepest supported channel or pipe \
                             ({MAX_CHANNEL_DEPTH} elements)"
                        ),
                    );
                    v.depth = None;
                }
            }
            "io" => {
                if arity(a, 1, 1, diags) {
                    match &a.args[0].kind {
                        ExprKind::Str(s) => v.io = Some(s.clone()),
                        _ => diags.error(a.args[0].loc, "'io' attribute needs a string literal"),
                    }
                }
            }
            n if VAR_ATTRS.contains(&n) => {}
            n if KERNEL_ATTRS.contains(&n) => diags.error(
                a.loc,
                format!("'{n}' attribute only applies to kernel functions"),
            ),
            n => diags.warning(a.loc, format!("unknown attribute '{n}' ignored")),
        }
    }
    if v.singlepump && v.doublepump {
        if let Some(a) = attrs.iter().find(|a| a.name == "doublepump") {
            diags.error(
                a.loc,
                "'singlepump' and 'doublepump' attributes are not compatible",
            );
        }
    }
    if v.register && (v.numbanks.is_some() || v.bankwidth.is_some() || v.memory.is_some()) {
        if let Some(a) = attrs.iter().find(|a| a.name == "register") {
            diags.error(
                a.loc,
                "'register' attribute is not compatible with memory attributes",
            );
        }
    }
    v
}

//! Targeted checks of what the lowering records for the runtime, the analysis and the device
//! model: kernel kind, argument metadata, loops, access sites, options.

use fpgacl_kernel_compiler::ir::*;
use fpgacl_kernel_compiler::preprocess::MapResolver;
use fpgacl_kernel_compiler::{build, build_with, BuildError, Severity, SourceFile, SourceMap};
use std::sync::Arc;

fn compile(text: &str) -> Arc<Module> {
    compile_opts(text, "")
}

fn compile_opts(text: &str, opts: &str) -> Arc<Module> {
    let out = build(
        &[SourceFile {
            name: "k.cl".into(),
            text: text.into(),
        }],
        opts,
    )
    .unwrap();
    out.module
        .unwrap_or_else(|| panic!("build failed:\n{}", out.log))
}

#[test]
fn single_work_item_follows_the_guide() {
    let m = compile(
        "__kernel void a(__global int *p) { p[0] = 1; }
         __kernel void b(__global int *p) { p[get_global_id(0)] = 1; }
         __kernel void c(__global int *p) { p[0] = get_global_size(0); }
         __kernel void d(__global int *p) { barrier(CLK_LOCAL_MEM_FENCE); p[0] = 1; }
         __attribute__((reqd_work_group_size(1,1,1))) __kernel void e(__global int *p) { p[get_local_id(0)] = 1; }
         __attribute__((reqd_work_group_size(64,1,1))) __kernel void f(__global int *p) { p[0] = 1; }
         __attribute__((max_global_work_dim(0))) __kernel void g(__global int *p) { p[0] = 1; }
         __attribute__((task)) __kernel void h(__global int *p) { p[get_group_id(0)] = 1; }",
    );
    let swi: Vec<(String, bool)> = m
        .kernels
        .iter()
        .map(|k| (k.name.clone(), k.single_work_item))
        .collect();
    assert_eq!(
        swi,
        vec![
            ("a".into(), true),
            ("b".into(), false),
            ("c".into(), true),
            ("d".into(), false),
            ("e".into(), true),
            ("f".into(), false),
            ("g".into(), true),
            ("h".into(), true),
        ]
    );
    assert!(m.kernel("d").unwrap().uses_barrier);
}

#[test]
fn argument_metadata_and_sizes() {
    let m = compile(
        "typedef struct { float x; int y; char z; } S;
         __kernel void k(__global const float *restrict in, __constant int *c, __local float4 *l,
                         float3 v, const uint n, S s, write_only pipe short __attribute__((blocking)) p,
                         unsigned long count) { }",
    );
    let k = &m.kernels[0];
    let names: Vec<&str> = k.args.iter().map(|a| a.type_name.as_str()).collect();
    assert_eq!(
        names,
        ["float*", "int*", "float4*", "float3", "uint", "S", "short", "ulong"]
    );
    assert_eq!(k.args[0].address, ArgAddress::Global);
    assert!(k.args[0].is_const && k.args[0].is_restrict);
    assert_eq!(
        k.args[0].kind,
        ArgKind::Buffer {
            space: AddrSpace::Global,
            elem_size: 4
        }
    );
    assert_eq!(
        k.args[1].kind,
        ArgKind::Buffer {
            space: AddrSpace::Constant,
            elem_size: 4
        }
    );
    assert_eq!(k.args[2].kind, ArgKind::LocalPtr { elem_size: 16 });
    assert_eq!(k.args[3].size, 16, "float3 is passed as 16 bytes");
    assert_eq!(
        k.args[3].kind,
        ArgKind::Value {
            ty: ValTy::vector(Scalar::F32, 3)
        }
    );
    assert!(k.args[4].is_const);
    assert_eq!(k.args[4].size, 4);
    match k.args[5].kind {
        ArgKind::ByValue { size, align, .. } => assert_eq!((size, align), (12, 4)),
        ref other => panic!("{other:?}"),
    }
    assert_eq!(
        k.args[6].kind,
        ArgKind::Pipe {
            packet_size: 2,
            write: true,
            blocking: true
        }
    );
    assert!(k.args[6].is_pipe);
    assert_eq!(k.args[6].access, ArgAccess::WriteOnly);
    assert_eq!(k.args[7].size, 8);
    for a in &k.args[..3] {
        assert_eq!(a.size, 8, "pointer args take a cl_mem");
    }
}

#[test]
fn loops_have_pragmas_trip_counts_and_nesting() {
    let m = compile(
        "__kernel void k(__global int *p, int n) {
            #pragma unroll 4
            for (int i = 0; i < 64; i++) {
                #pragma ivdep safelen(8)
                for (int j = 10; j > 0; j -= 3) p[j] += i;
            }
            for (int i = 0; i <= 9; i += 2) p[i] = 0;
            for (int i = 0; i < n; i++) p[i] = 1;
            for (int i = 0; i < 8; i++) { i++; }
            int w = 0;
            while (w < 5) w++;
            do { w--; } while (w);
        }",
    );
    let k = &m.kernels[0];
    let l = &k.loops;
    assert_eq!(l.len(), 7);
    assert_eq!(
        (l[0].kind, l[0].const_trip_count, l[0].pragmas.unroll),
        (LoopKind::For, Some(64), Some(Some(4)))
    );
    assert_eq!(l[1].parent, Some(l[0].id));
    assert_eq!(l[1].const_trip_count, Some(4));
    assert_eq!(
        l[1].pragmas.ivdep,
        Some(Ivdep {
            array: None,
            safelen: Some(8)
        })
    );
    assert_eq!(l[2].const_trip_count, Some(5));
    assert_eq!(l[3].const_trip_count, None, "bound is a variable");
    assert_eq!(l[4].const_trip_count, None, "the body writes the counter");
    assert_eq!((l[5].kind, l[6].kind), (LoopKind::While, LoopKind::DoWhile));
    assert_eq!(l[0].loc.line, 3);
    for lp in l {
        assert_eq!(k.blocks[lp.header.0 as usize].loop_header, Some(lp.id));
    }
}

/// kind, space, width, target, arg, line, col, in a loop.
type SiteBrief<'a> = (
    SiteKind,
    AddrSpace,
    u32,
    &'a str,
    Option<u32>,
    u32,
    u32,
    bool,
);

#[test]
fn access_sites_carry_location_kind_width_and_argument() {
    let m = compile(
        "#pragma OPENCL EXTENSION cl_intel_channels : enable
channel float4 ch __attribute__((depth(4)));
__kernel void k(__global const float4 *a, __global int *b, __local int *l) {
    __local int tile[16];
    for (int i = 0; i < 4; i++) {
        write_channel_intel(ch, a[i]);
        tile[i] = b[i];
    }
    l[0] = atomic_add(&b[1], tile[2]);
}",
    );
    let s = &m.sites;
    let brief: Vec<SiteBrief> = s
        .iter()
        .map(|x| {
            (
                x.kind,
                x.space,
                x.width,
                x.target.as_str(),
                x.arg,
                x.loc.line,
                x.loc.col,
                x.in_loop.is_some(),
            )
        })
        .collect();
    assert_eq!(
        brief,
        vec![
            (
                SiteKind::Load,
                AddrSpace::Global,
                16,
                "a",
                Some(0),
                6,
                33,
                true
            ),
            (
                SiteKind::ChannelWrite,
                AddrSpace::Global,
                16,
                "ch",
                None,
                6,
                9,
                true
            ),
            (
                SiteKind::Load,
                AddrSpace::Global,
                4,
                "b",
                Some(1),
                7,
                19,
                true
            ),
            (
                SiteKind::Store,
                AddrSpace::Local,
                4,
                "tile",
                None,
                7,
                9,
                true
            ),
            (
                SiteKind::Load,
                AddrSpace::Local,
                4,
                "tile",
                None,
                9,
                30,
                false
            ),
            (
                SiteKind::Atomic,
                AddrSpace::Global,
                4,
                "b",
                Some(1),
                9,
                12,
                false
            ),
            (
                SiteKind::Store,
                AddrSpace::Local,
                4,
                "l",
                Some(2),
                9,
                5,
                false
            ),
        ]
    );
    assert!(m.kernels[0].uses_fifos);
    assert_eq!(m.channels[0].depth, 4);
    assert_eq!(m.channels[0].elem_size, 16);
    assert_eq!(m.kernels[0].local_size, 64);
}

#[test]
fn constant_data_is_laid_out() {
    let m = compile(
        "__constant int t[4] = {1, 2, [3] = 7};
         __constant float f = 1.5f;
         __kernel void k(__global int *o) { o[0] = t[3] + (int)f; }",
    );
    let d = &m.constant_data;
    assert_eq!(&d[..16], &[1, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 7, 0, 0, 0]);
    assert_eq!(&d[16..20], &1.5f32.to_le_bytes());
}

#[test]
fn options_defines_werror_and_invalid_options() {
    let src = "__kernel void k(__global int *o) { o[0] = N / 0; }";
    let out = build(
        &[SourceFile {
            name: "k.cl".into(),
            text: src.into(),
        }],
        "-DN=3",
    )
    .unwrap();
    assert!(out.module.is_some());
    assert_eq!(out.diagnostics.len(), 1);
    assert_eq!(out.diagnostics[0].severity, Severity::Warning);
    let out = build(
        &[SourceFile {
            name: "k.cl".into(),
            text: src.into(),
        }],
        "-DN=3 -w",
    )
    .unwrap();
    assert!(out.module.is_some() && out.diagnostics.is_empty());
    let out = build(
        &[SourceFile {
            name: "k.cl".into(),
            text: src.into(),
        }],
        "-DN=3 -Werror",
    )
    .unwrap();
    assert!(out.module.is_none());
    assert!(
        out.log
            .contains("k.cl:1:45: error: division by zero is undefined [-Werror]"),
        "{}",
        out.log
    );
    let err = build(
        &[SourceFile {
            name: "k.cl".into(),
            text: src.into(),
        }],
        "--bogus",
    )
    .unwrap_err();
    assert!(matches!(err, BuildError::InvalidOptions(_)));
    let m = compile_opts(
        "__kernel void k(__global float *o) { o[0] = 0.1 * o[1]; }",
        "-cl-single-precision-constant",
    );
    let text = fpgacl_kernel_compiler::dump::dump_module(&m);
    assert!(!text.contains("f64"), "{text}");
}

#[test]
fn several_sources_form_one_program_and_includes_resolve() {
    let a = SourceFile {
        name: "a.cl".into(),
        text: "#define SCALE 2\nint twice(int x) { return x * SCALE; }\n".into(),
    };
    let b = SourceFile {
        name: "b.cl".into(),
        text: "__kernel void k(__global int *o) { o[0] = twice(o[1]); }\n".into(),
    };
    let out = build(&[a, b], "").unwrap();
    assert!(out.module.is_some(), "{}", out.log);
    let mut sm = SourceMap::default();
    sm.add("inc/defs.h", "#define W 4\n");
    let resolver = MapResolver::from_sources(&sm, vec!["inc".into()]);
    let main = SourceFile {
        name: "main.cl".into(),
        text: "#include \"defs.h\"\n__kernel void k(__global int *o) { o[0] = W; }\n".into(),
    };
    let out = build_with(&[main], "-I inc", &resolver).unwrap();
    let m = out.module.unwrap_or_else(|| panic!("{}", out.log));
    assert!(m.sources.files.iter().any(|f| f.name.ends_with("defs.h")));
}

#[test]
fn failed_build_log_has_location_line_and_caret() {
    let out = build(
        &[SourceFile {
            name: "bad.cl".into(),
            text: "__kernel void k() {\n  int x = y;\n}\n".into(),
        }],
        "",
    )
    .unwrap();
    assert!(out.module.is_none());
    assert_eq!(out.log, "bad.cl:2:11: error: use of undeclared identifier 'y'\n  int x = y;\n          ^\n1 error generated.\n");
}

fn build_log(text: &str) -> (bool, String) {
    let out = build(
        &[SourceFile {
            name: "k.cl".into(),
            text: text.into(),
        }],
        "",
    )
    .unwrap();
    (out.module.is_some(), out.log)
}

/// Issue 17 item 1: a warning at compile time only where a real limit applies.
#[test]
fn work_group_size_warnings_only_where_a_limit_applies() {
    // No attribute, no barrier; a large reqd size without barrier; a barrier kernel whose
    // required group fits: no warning.
    for src in [
        "kernel void a(global int *p) { p[get_global_id(0)] = 1; }",
        "__attribute__((reqd_work_group_size(32768,1,1))) kernel void a(global int *p) { p[get_global_id(0)] = 1; }",
        "__attribute__((reqd_work_group_size(4096,1,1))) kernel void a(global int *p) { local int t[16]; t[get_local_id(0) % 16] = 1; barrier(CLK_LOCAL_MEM_FENCE); p[get_global_id(0)] = t[0]; }",
    ] {
        let (ok, log) = build_log(src);
        assert!(ok && !log.contains("warning"), "{src}\n{log}");
    }
    // Beyond CL_DEVICE_MAX_WORK_GROUP_SIZE (INT_MAX): the build succeeds with a warning.
    let (ok, log) = build_log(
        "__attribute__((reqd_work_group_size(65536,65536,1))) kernel void a(global int *p) { p[get_global_id(0)] = 1; }",
    );
    assert!(ok, "{log}");
    assert!(
        log.contains("k.cl:1:")
            && log.contains("warning")
            && log.contains("4294967296 work-items")
            && log.contains("CL_DEVICE_MAX_WORK_GROUP_SIZE (2147483647)"),
        "{log}"
    );
    // One dimension beyond CL_DEVICE_MAX_WORK_ITEM_SIZES.
    let (ok, log) = build_log(
        "__attribute__((reqd_work_group_size(3000000000,1,1))) kernel void a(global int *p) { p[get_global_id(0)] = 1; }",
    );
    assert!(ok && log.contains("CL_DEVICE_MAX_WORK_ITEM_SIZES"), "{log}");
    // A barrier kernel whose required group's private state exceeds one group's limit:
    // 1M work-items with a 4 KiB private array each.
    let (ok, log) = build_log(
        "__attribute__((reqd_work_group_size(1048576,1,1))) kernel void a(global int *p) { int t[1024]; for (int i = 0; i < 1024; i++) t[i] = p[i]; barrier(CLK_GLOBAL_MEM_FENCE); p[get_global_id(0)] = t[get_local_id(0) % 1024]; }",
    );
    assert!(ok, "{log}");
    assert!(
        log.contains("has a barrier")
            && log.contains("1048576 work-items")
            && log.contains("reqd_work_group_size"),
        "{log}"
    );
    // The same through max_work_group_size.
    let (_, log) = build_log(
        "__attribute__((max_work_group_size(1048576))) kernel void a(global int *p) { int t[1024]; for (int i = 0; i < 1024; i++) t[i] = p[i]; barrier(CLK_GLOBAL_MEM_FENCE); p[get_global_id(0)] = t[get_local_id(0) % 1024]; }",
    );
    assert!(
        log.contains("has a barrier") && log.contains("max_work_group_size"),
        "{log}"
    );
    // Without the barrier the same size is fine.
    let (_, log) = build_log(
        "__attribute__((reqd_work_group_size(1048576,1,1))) kernel void a(global int *p) { int t[1024]; for (int i = 0; i < 1024; i++) t[i] = p[i]; p[get_global_id(0)] = t[get_local_id(0) % 1024]; }",
    );
    assert!(!log.contains("warning"), "{log}");
}

/// Issue 17 item 6: image and sampler kernel arguments and the image builtins.
#[test]
fn image_and_sampler_arguments() {
    let m = compile(
        "const sampler_t ps = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_LINEAR;
         float4 helper(image2d_t im, sampler_t s, float2 c) { return read_imagef(im, s, c); }
         __kernel void k(__read_only image2d_t src, write_only image2d_t dst, sampler_t s,
                         image3d_t vol, __global float4 *out) {
           int2 p = (int2)(get_global_id(0), get_global_id(1));
           const sampler_t local_s = CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;
           float4 a = read_imagef(src, s, p) + read_imagef(src, local_s, p) + helper(src, ps, (float2)(0.5f, 0.5f));
           write_imageui(dst, p, (uint4)(get_image_width(src), get_image_height(vol), get_image_depth(vol), 1));
           out[0] = a + convert_float4(read_imagei(vol, (int4)(p, 0, 0)));
           int4 d = get_image_dim(vol);
           out[1] = (float4)(d.x, d.y, d.z, d.w);
         }",
    );
    let k = m.kernel("k").unwrap();
    let kinds: Vec<(&str, &ArgKind, ArgAddress, ArgAccess)> = k
        .args
        .iter()
        .map(|a| (a.name.as_str(), &a.kind, a.address, a.access))
        .collect();
    assert_eq!(
        kinds[..4],
        [
            (
                "src",
                &ArgKind::Image {
                    dim: ImageDim::D2,
                    write: false
                },
                ArgAddress::Global,
                ArgAccess::ReadOnly
            ),
            (
                "dst",
                &ArgKind::Image {
                    dim: ImageDim::D2,
                    write: true
                },
                ArgAddress::Global,
                ArgAccess::WriteOnly
            ),
            ("s", &ArgKind::Sampler, ArgAddress::Private, ArgAccess::None),
            // No qualifier: read_only.
            (
                "vol",
                &ArgKind::Image {
                    dim: ImageDim::D3,
                    write: false
                },
                ArgAddress::Global,
                ArgAccess::ReadOnly
            ),
        ]
    );
    assert_eq!(k.args[0].type_name, "image2d_t");
    let insts: Vec<&Inst> = k.blocks.iter().flat_map(|b| &b.insts).collect();
    let reads = insts
        .iter()
        .filter(|i| matches!(i, Inst::ImageRead { .. }))
        .count();
    let writes = insts
        .iter()
        .filter(|i| matches!(i, Inst::ImageWrite { .. }))
        .count();
    let queries = insts
        .iter()
        .filter(|i| matches!(i, Inst::ImageQuery { .. }))
        .count();
    assert_eq!((reads, writes, queries), (4, 1, 4));
    // The program-scope sampler is the constant 1 | 6 | 0x20.
    assert!(insts
        .iter()
        .any(|i| matches!(i, Inst::Const { lanes, .. } if lanes == &vec![0x27u64])));
    // Every read and write is a global access site at its line, named by the image.
    let image_sites: Vec<(SiteKind, AddrSpace, u32, &str)> = m
        .sites
        .iter()
        .filter(|s| s.target == "src" || s.target == "dst" || s.target == "vol")
        .map(|s| (s.kind, s.space, s.loc.line, s.target.as_str()))
        .collect();
    assert!(
        image_sites.contains(&(SiteKind::Load, AddrSpace::Global, 7, "src")),
        "{image_sites:?}"
    );
    assert!(
        image_sites.contains(&(SiteKind::Store, AddrSpace::Global, 8, "dst")),
        "{image_sites:?}"
    );
    assert!(
        image_sites.contains(&(SiteKind::Load, AddrSpace::Global, 9, "vol")),
        "{image_sites:?}"
    );
}

/// A kernel with more image arguments than CL_DEVICE_MAX_READ_IMAGE_ARGS is refused.
#[test]
fn too_many_image_arguments_are_refused() {
    let params = |n: usize| {
        (0..n)
            .map(|i| format!("read_only image2d_t i{i}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let ok = format!("kernel void k({}) {{ }}", params(128));
    let (built, log) = build_log(&ok);
    assert!(built, "{log}");
    let bad = format!("kernel void k({}) {{ }}", params(129));
    let (built, log) = build_log(&bad);
    assert!(!built, "{log}");
    assert!(
        log.contains("129 read image arguments")
            && log.contains("CL_DEVICE_MAX_READ_IMAGE_ARGS (128)"),
        "{log}"
    );
}

/// The device reports `cl_khr_3d_image_writes` (3D image writes work in emulation), so its
/// macro is defined and a kernel that enables it and writes a 3D image builds.
#[test]
fn three_d_image_writes_are_an_enabled_extension() {
    let m = compile(
        "#pragma OPENCL EXTENSION cl_khr_3d_image_writes : enable
         #ifndef cl_khr_3d_image_writes
         #error cl_khr_3d_image_writes is not defined
         #endif
         __kernel void k(write_only image3d_t v) {
           write_imagef(v, (int4)(get_global_id(0), 0, 0, 0), (float4)(1.0f));
         }",
    );
    assert!(m.kernel("k").is_some());
}

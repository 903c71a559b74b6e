//! Predefined macros: OpenCL C 1.2 (6.10, 6.12.2 math constants, 6.12.3 limits), the
//! macros Intel's offline compiler defines, and the build options' `-D`.

use super::PpOptions;

/// Math and limit macros of OpenCL C, as `(name, replacement)` pairs.
///
/// The infinity and NaN macros expand as in Clang's OpenCL headers, to calls of the
/// builtins `__builtin_huge_valf()`, `__builtin_huge_val()`, `__builtin_inff()` and
/// `__builtin_nanf("")`, which the parser knows.
const CONSTANTS: &[(&str, &str)] = &[
    ("CHAR_BIT", "8"),
    ("SCHAR_MAX", "127"),
    ("SCHAR_MIN", "(-127-1)"),
    ("CHAR_MAX", "SCHAR_MAX"),
    ("CHAR_MIN", "SCHAR_MIN"),
    ("UCHAR_MAX", "255"),
    ("SHRT_MAX", "32767"),
    ("SHRT_MIN", "(-32767-1)"),
    ("USHRT_MAX", "65535"),
    ("INT_MAX", "2147483647"),
    ("INT_MIN", "(-2147483647-1)"),
    ("UINT_MAX", "0xffffffffU"),
    ("LONG_MAX", "0x7fffffffffffffffL"),
    ("LONG_MIN", "(-0x7fffffffffffffffL-1)"),
    ("ULONG_MAX", "0xffffffffffffffffUL"),
    ("FLT_DIG", "6"),
    ("FLT_MANT_DIG", "24"),
    ("FLT_MAX_10_EXP", "+38"),
    ("FLT_MAX_EXP", "+128"),
    ("FLT_MIN_10_EXP", "-37"),
    ("FLT_MIN_EXP", "-125"),
    ("FLT_RADIX", "2"),
    ("FLT_MAX", "0x1.fffffep127f"),
    ("FLT_MIN", "0x1.0p-126f"),
    ("FLT_EPSILON", "0x1.0p-23f"),
    ("DBL_DIG", "15"),
    ("DBL_MANT_DIG", "53"),
    ("DBL_MAX_10_EXP", "+308"),
    ("DBL_MAX_EXP", "+1024"),
    ("DBL_MIN_10_EXP", "-307"),
    ("DBL_MIN_EXP", "-1021"),
    ("DBL_MAX", "0x1.fffffffffffffp1023"),
    ("DBL_MIN", "0x1.0p-1022"),
    ("DBL_EPSILON", "0x1.0p-52"),
    ("DBL_RADIX", "2"),
    // What `ilogb` returns for 0 and NaN (the device's `ilogb` gives INT_MIN for both).
    ("FP_ILOGB0", "(-2147483647-1)"),
    ("FP_ILOGBNAN", "(-2147483647-1)"),
    ("HALF_DIG", "3"),
    ("HALF_MANT_DIG", "11"),
    ("HALF_MAX_10_EXP", "+4"),
    ("HALF_MAX_EXP", "+16"),
    ("HALF_MIN_10_EXP", "-4"),
    ("HALF_MIN_EXP", "-13"),
    ("HALF_RADIX", "2"),
    ("HALF_MAX", "((half)0x1.ffcp15f)"),
    ("HALF_MIN", "((half)0x1.0p-14f)"),
    ("HALF_EPSILON", "((half)0x1.0p-10f)"),
    ("MAXFLOAT", "0x1.fffffep127f"),
    ("HUGE_VALF", "__builtin_huge_valf()"),
    ("HUGE_VAL", "__builtin_huge_val()"),
    ("INFINITY", "__builtin_inff()"),
    ("NAN", "__builtin_nanf(\"\")"),
    ("M_E_F", "2.71828182845904523536028747135266250f"),
    ("M_LOG2E_F", "1.44269504088896340735992468100189214f"),
    ("M_LOG10E_F", "0.434294481903251827651128918916605082f"),
    ("M_LN2_F", "0.693147180559945309417232121458176568f"),
    ("M_LN10_F", "2.30258509299404568401799145468436421f"),
    ("M_PI_F", "3.14159265358979323846264338327950288f"),
    ("M_PI_2_F", "1.57079632679489661923132169163975144f"),
    ("M_PI_4_F", "0.785398163397448309615660845819875721f"),
    ("M_1_PI_F", "0.318309886183790671537767526745028724f"),
    ("M_2_PI_F", "0.636619772367581343075535053490057448f"),
    ("M_2_SQRTPI_F", "1.12837916709551257389615890312154517f"),
    ("M_SQRT2_F", "1.41421356237309504880168872420969808f"),
    ("M_SQRT1_2_F", "0.707106781186547524400844362104849039f"),
    ("M_E", "2.71828182845904523536028747135266250"),
    ("M_LOG2E", "1.44269504088896340735992468100189214"),
    ("M_LOG10E", "0.434294481903251827651128918916605082"),
    ("M_LN2", "0.693147180559945309417232121458176568"),
    ("M_LN10", "2.30258509299404568401799145468436421"),
    ("M_PI", "3.14159265358979323846264338327950288"),
    ("M_PI_2", "1.57079632679489661923132169163975144"),
    ("M_PI_4", "0.785398163397448309615660845819875721"),
    ("M_1_PI", "0.318309886183790671537767526745028724"),
    ("M_2_PI", "0.636619772367581343075535053490057448"),
    ("M_2_SQRTPI", "1.12837916709551257389615890312154517"),
    ("M_SQRT2", "1.41421356237309504880168872420969808"),
    ("M_SQRT1_2", "0.707106781186547524400844362104849039"),
];

/// The OpenCL C extensions the device supports (its `CL_DEVICE_EXTENSIONS`): OpenCL C 1.2
/// section 9.1 says each supported extension has a macro of its name defined to 1 in kernels.
/// The runtime reports exactly this list.
pub const DEVICE_EXTENSIONS: &[&str] = &[
    "cl_khr_icd",
    "cl_khr_byte_addressable_store",
    "cl_khr_fp64",
    "cl_khr_global_int32_base_atomics",
    "cl_khr_global_int32_extended_atomics",
    "cl_khr_local_int32_base_atomics",
    "cl_khr_local_int32_extended_atomics",
    "cl_khr_int64_base_atomics",
    "cl_khr_int64_extended_atomics",
    "cl_khr_3d_image_writes",
    "cl_intel_channels",
    "cl_altera_channels",
    "cl_intel_fpga_host_pipe",
];

/// The text of the predefined macros for these options, as `#define` lines (built-ins first,
/// then `-D` and `-U` in order). Useful for `fpgacl aoc -dM`-style listings and tests.
pub fn predefined_macros(opts: &PpOptions) -> String {
    let mut s = String::new();
    let mut def = |name: &str, value: &str| {
        s.push_str("#define ");
        s.push_str(name);
        s.push(' ');
        s.push_str(value);
        s.push('\n');
    };
    def("__OPENCL_VERSION__", "120");
    def("CL_VERSION_1_0", "100");
    def("CL_VERSION_1_1", "110");
    def("CL_VERSION_1_2", "120");
    def("CL_VERSION_2_0", "200");
    def("__OPENCL_C_VERSION__", &opts.cl_c_version.to_string());
    def("__ENDIAN_LITTLE__", "1");
    def("__kernel_exec(X, typen)", "__kernel __attribute__((work_group_size_hint(X, 1, 1))) __attribute__((vec_type_hint(typen)))");
    def("kernel_exec(X, typen)", "__kernel __attribute__((work_group_size_hint(X, 1, 1))) __attribute__((vec_type_hint(typen)))");
    for ext in DEVICE_EXTENSIONS {
        def(ext, "1");
    }
    def("FP_FAST_FMA", "1");
    def("FP_FAST_FMAF", "1");
    // Intel FPGA SDK for OpenCL offline compiler.
    def("INTELFPGA_CL", "1");
    def("ALTERA_CL", "1");
    def("__INTELFPGA_COMPILER__", "1700");
    def("__FPGACL__", "1");
    if let Some(board) = &opts.board {
        let id: String = board
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect();
        if !id.is_empty() {
            def(&format!("AOCL_BOARD_{id}"), "1");
            // The older spelling Intel's compiler still defines for compatibility.
            def(&format!("ACL_BOARD_{id}"), "1");
        }
    }
    if opts.fast_relaxed_math {
        def("__FAST_RELAXED_MATH__", "1");
    }
    let finite = opts.finite_math_only || opts.fast_relaxed_math;
    def("__FINITE_MATH_ONLY__", if finite { "1" } else { "0" });
    for (name, value) in CONSTANTS {
        def(name, value);
    }
    for (name, value) in &opts.defines {
        // `-D name=value` defines `name` as `value`; a value may span lines only through
        // escapes, so line breaks are flattened to spaces.
        let value = value.as_deref().unwrap_or("1").replace(['\n', '\r'], " ");
        def(name, &value);
    }
    for name in &opts.undefines {
        s.push_str("#undef ");
        s.push_str(name);
        s.push('\n');
    }
    s
}

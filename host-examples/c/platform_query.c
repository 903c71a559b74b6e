/*
 * platform_query.c: platform, device, context and queue queries.
 *
 * Checks that every OpenCL 1.2 clGetPlatformInfo / clGetDeviceInfo query
 * answers, that size queries agree with value queries, that the values meet
 * the specification's minimums and agree with each other, that contexts can
 * be created by device list and by type (the device's own type, DEFAULT and
 * ALL) and report what they were created with, and that queue queries agree.
 * On an FPGA platform it also checks what FPGA hosts rely on: an ACCELERATOR
 * device whose name reads "<board> : <description>" and cl_intel_channels.
 */
#include "common.h"

/* Kinds of device-info values, to check their sizes. */
enum kind { K_STR, K_UINT, K_ULONG, K_SIZE, K_BOOL, K_BITS, K_SIZES, K_PLATFORM, K_DEVICE,
            K_PROPS, K_ENUM };

struct dev_param {
    cl_device_info id;
    const char *name;
    enum kind kind;
};

#define P(id, kind) {id, #id, kind}
static const struct dev_param DEVICE_PARAMS[] = {
    P(CL_DEVICE_TYPE, K_BITS),
    P(CL_DEVICE_VENDOR_ID, K_UINT),
    P(CL_DEVICE_MAX_COMPUTE_UNITS, K_UINT),
    P(CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS, K_UINT),
    P(CL_DEVICE_MAX_WORK_ITEM_SIZES, K_SIZES),
    P(CL_DEVICE_MAX_WORK_GROUP_SIZE, K_SIZE),
    P(CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR, K_UINT),
    P(CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT, K_UINT),
    P(CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT, K_UINT),
    P(CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG, K_UINT),
    P(CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT, K_UINT),
    P(CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE, K_UINT),
    P(CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF, K_UINT),
    P(CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR, K_UINT),
    P(CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT, K_UINT),
    P(CL_DEVICE_NATIVE_VECTOR_WIDTH_INT, K_UINT),
    P(CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG, K_UINT),
    P(CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT, K_UINT),
    P(CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE, K_UINT),
    P(CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF, K_UINT),
    P(CL_DEVICE_MAX_CLOCK_FREQUENCY, K_UINT),
    P(CL_DEVICE_ADDRESS_BITS, K_UINT),
    P(CL_DEVICE_MAX_MEM_ALLOC_SIZE, K_ULONG),
    P(CL_DEVICE_IMAGE_SUPPORT, K_BOOL),
    P(CL_DEVICE_MAX_READ_IMAGE_ARGS, K_UINT),
    P(CL_DEVICE_MAX_WRITE_IMAGE_ARGS, K_UINT),
    P(CL_DEVICE_IMAGE2D_MAX_WIDTH, K_SIZE),
    P(CL_DEVICE_IMAGE2D_MAX_HEIGHT, K_SIZE),
    P(CL_DEVICE_IMAGE3D_MAX_WIDTH, K_SIZE),
    P(CL_DEVICE_IMAGE3D_MAX_HEIGHT, K_SIZE),
    P(CL_DEVICE_IMAGE3D_MAX_DEPTH, K_SIZE),
    P(CL_DEVICE_IMAGE_MAX_BUFFER_SIZE, K_SIZE),
    P(CL_DEVICE_IMAGE_MAX_ARRAY_SIZE, K_SIZE),
    P(CL_DEVICE_MAX_SAMPLERS, K_UINT),
    P(CL_DEVICE_MAX_PARAMETER_SIZE, K_SIZE),
    P(CL_DEVICE_MEM_BASE_ADDR_ALIGN, K_UINT),
    P(CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE, K_UINT),
    P(CL_DEVICE_SINGLE_FP_CONFIG, K_BITS),
    P(CL_DEVICE_DOUBLE_FP_CONFIG, K_BITS),
    P(CL_DEVICE_GLOBAL_MEM_CACHE_TYPE, K_ENUM),
    P(CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE, K_UINT),
    P(CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, K_ULONG),
    P(CL_DEVICE_GLOBAL_MEM_SIZE, K_ULONG),
    P(CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE, K_ULONG),
    P(CL_DEVICE_MAX_CONSTANT_ARGS, K_UINT),
    P(CL_DEVICE_LOCAL_MEM_TYPE, K_ENUM),
    P(CL_DEVICE_LOCAL_MEM_SIZE, K_ULONG),
    P(CL_DEVICE_ERROR_CORRECTION_SUPPORT, K_BOOL),
    P(CL_DEVICE_HOST_UNIFIED_MEMORY, K_BOOL),
    P(CL_DEVICE_PROFILING_TIMER_RESOLUTION, K_SIZE),
    P(CL_DEVICE_ENDIAN_LITTLE, K_BOOL),
    P(CL_DEVICE_AVAILABLE, K_BOOL),
    P(CL_DEVICE_COMPILER_AVAILABLE, K_BOOL),
    P(CL_DEVICE_LINKER_AVAILABLE, K_BOOL),
    P(CL_DEVICE_EXECUTION_CAPABILITIES, K_BITS),
    P(CL_DEVICE_QUEUE_PROPERTIES, K_BITS),
    P(CL_DEVICE_BUILT_IN_KERNELS, K_STR),
    P(CL_DEVICE_PLATFORM, K_PLATFORM),
    P(CL_DEVICE_NAME, K_STR),
    P(CL_DEVICE_VENDOR, K_STR),
    P(CL_DRIVER_VERSION, K_STR),
    P(CL_DEVICE_PROFILE, K_STR),
    P(CL_DEVICE_VERSION, K_STR),
    P(CL_DEVICE_OPENCL_C_VERSION, K_STR),
    P(CL_DEVICE_EXTENSIONS, K_STR),
    P(CL_DEVICE_PRINTF_BUFFER_SIZE, K_SIZE),
    P(CL_DEVICE_PREFERRED_INTEROP_USER_SYNC, K_BOOL),
    P(CL_DEVICE_PARENT_DEVICE, K_DEVICE),
    P(CL_DEVICE_PARTITION_MAX_SUB_DEVICES, K_UINT),
    P(CL_DEVICE_PARTITION_PROPERTIES, K_PROPS),
    P(CL_DEVICE_PARTITION_AFFINITY_DOMAIN, K_BITS),
    P(CL_DEVICE_PARTITION_TYPE, K_PROPS),
    P(CL_DEVICE_REFERENCE_COUNT, K_UINT),
};
#undef P

static size_t kind_size(enum kind k)
{
    switch (k) {
    case K_UINT: return sizeof(cl_uint);
    case K_ULONG: return sizeof(cl_ulong);
    case K_SIZE: return sizeof(size_t);
    case K_BOOL: return sizeof(cl_bool);
    case K_BITS: return sizeof(cl_bitfield);
    case K_PLATFORM: return sizeof(cl_platform_id);
    case K_DEVICE: return sizeof(cl_device_id);
    case K_ENUM: return sizeof(cl_uint);
    default: return 0; /* variable */
    }
}

/* Query one device parameter: size query, then value query, sizes must agree. */
static void *query_device(cl_device_id dev, const struct dev_param *p, size_t *size_out)
{
    size_t size = 0;
    cl_int err = clGetDeviceInfo(dev, p->id, 0, NULL, &size);
    if (err != CL_SUCCESS)
        FAILF("clGetDeviceInfo(%s) size query returned %s", p->name, cl_err_name(err));
    size_t fixed = kind_size(p->kind);
    if (fixed)
        EXPECT(size == fixed, "%s: size %zu, expected %zu", p->name, size, fixed);
    if (p->kind == K_STR)
        EXPECT(size >= 1, "%s: string size 0 (must include the terminating NUL)", p->name);
    if (p->kind == K_SIZES || p->kind == K_PROPS)
        EXPECT(size % sizeof(size_t) == 0, "%s: size %zu is not a multiple of %zu", p->name,
               size, sizeof(size_t));
    void *buf = calloc(1, size + 16);
    EXPECT(buf != NULL, "out of memory");
    size_t size2 = 0;
    err = clGetDeviceInfo(dev, p->id, size, buf, &size2);
    if (err != CL_SUCCESS)
        FAILF("clGetDeviceInfo(%s) value query returned %s", p->name, cl_err_name(err));
    EXPECT(size2 == size, "%s: size query said %zu, value query said %zu", p->name, size, size2);
    if (p->kind == K_STR) {
        EXPECT(((char *)buf)[size - 1] == '\0', "%s: string not NUL-terminated", p->name);
        EXPECT(strlen(buf) + 1 == size, "%s: size %zu but strlen %zu", p->name, size,
               strlen(buf));
    }
    /* Too small a buffer is CL_INVALID_VALUE. */
    if (size > 1) {
        char small[1];
        cl_int e2 = clGetDeviceInfo(dev, p->id, 1, small, NULL);
        EXPECT(e2 == CL_INVALID_VALUE, "%s with param_value_size 1 returned %s, expected "
               "CL_INVALID_VALUE", p->name, cl_err_name(e2));
    }
    *size_out = size;
    return buf;
}

#define DEVU(d, id) (dev_uint((d), (id), #id))
#define DEVUL(d, id) (dev_ulong((d), (id), #id))
#define DEVSZ(d, id) (dev_size((d), (id), #id))

static cl_uint dev_uint(cl_device_id d, cl_device_info id, const char *name)
{
    cl_uint v = 0;
    cl_int err = clGetDeviceInfo(d, id, sizeof v, &v, NULL);
    if (err != CL_SUCCESS)
        FAILF("clGetDeviceInfo(%s) returned %s", name, cl_err_name(err));
    return v;
}

static cl_ulong dev_ulong(cl_device_id d, cl_device_info id, const char *name)
{
    cl_ulong v = 0;
    cl_int err = clGetDeviceInfo(d, id, sizeof v, &v, NULL);
    if (err != CL_SUCCESS)
        FAILF("clGetDeviceInfo(%s) returned %s", name, cl_err_name(err));
    return v;
}

static size_t dev_size(cl_device_id d, cl_device_info id, const char *name)
{
    size_t v = 0;
    cl_int err = clGetDeviceInfo(d, id, sizeof v, &v, NULL);
    if (err != CL_SUCCESS)
        FAILF("clGetDeviceInfo(%s) returned %s", name, cl_err_name(err));
    return v;
}

/* Parse "OpenCL <major>.<minor>" at the start of a version string. */
static int parse_version(const char *s, const char *prefix, int *major, int *minor)
{
    size_t n = strlen(prefix);
    if (strncmp(s, prefix, n) != 0)
        return 0;
    return sscanf(s + n, "%d.%d", major, minor) == 2;
}

static void check_platform(cl_platform_id platform)
{
    static const struct {
        cl_platform_info id;
        const char *name;
    } params[] = {
        {CL_PLATFORM_PROFILE, "CL_PLATFORM_PROFILE"},
        {CL_PLATFORM_VERSION, "CL_PLATFORM_VERSION"},
        {CL_PLATFORM_NAME, "CL_PLATFORM_NAME"},
        {CL_PLATFORM_VENDOR, "CL_PLATFORM_VENDOR"},
        {CL_PLATFORM_EXTENSIONS, "CL_PLATFORM_EXTENSIONS"},
    };
    STEP("platform info");
    for (size_t i = 0; i < sizeof params / sizeof params[0]; i++) {
        size_t size = 0, size2 = 0;
        CHECK(clGetPlatformInfo(platform, params[i].id, 0, NULL, &size));
        EXPECT(size >= 1, "%s: size 0", params[i].name);
        char *buf = calloc(1, size);
        EXPECT(buf != NULL, "out of memory");
        CHECK(clGetPlatformInfo(platform, params[i].id, size, buf, &size2));
        EXPECT(size2 == size, "%s: sizes disagree (%zu vs %zu)", params[i].name, size, size2);
        EXPECT(buf[size - 1] == '\0' && strlen(buf) + 1 == size,
               "%s: bad string termination", params[i].name);
        if (params[i].id != CL_PLATFORM_EXTENSIONS)
            EXPECT(strlen(buf) > 0, "%s is empty", params[i].name);
        printf("  %-24s %s\n", params[i].name, buf);
        if (params[i].id == CL_PLATFORM_PROFILE)
            EXPECT(strcmp(buf, "FULL_PROFILE") == 0 || strcmp(buf, "EMBEDDED_PROFILE") == 0,
                   "unknown profile '%s'", buf);
        if (params[i].id == CL_PLATFORM_VERSION) {
            int maj = 0, min = 0;
            EXPECT(parse_version(buf, "OpenCL ", &maj, &min),
                   "CL_PLATFORM_VERSION '%s' is not 'OpenCL <major>.<minor> ...'", buf);
            EXPECT(maj > 1 || (maj == 1 && min >= 2), "platform version %d.%d < 1.2", maj, min);
        }
        if (params[i].id == CL_PLATFORM_EXTENSIONS)
            EXPECT(has_token(buf, "cl_khr_icd"), "platform extensions lack cl_khr_icd: '%s'", buf);
        if (size > 1) {
            char small[1];
            EXPECT_CODE(clGetPlatformInfo(platform, params[i].id, 1, small, NULL),
                        CL_INVALID_VALUE);
        }
        free(buf);
    }
    EXPECT_CODE(clGetPlatformInfo(platform, 0x7FFF, 0, NULL, NULL), CL_INVALID_VALUE);
}

static void check_device_ids(cl_platform_id platform, cl_device_id dev)
{
    STEP("device ids");
    cl_uint n_all = 0;
    CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, NULL, &n_all));
    EXPECT(n_all >= 1, "no devices");
    cl_device_type type = 0;
    CHECK(clGetDeviceInfo(dev, CL_DEVICE_TYPE, sizeof type, &type, NULL));
    EXPECT(type == CL_DEVICE_TYPE_CPU || type == CL_DEVICE_TYPE_GPU ||
               type == CL_DEVICE_TYPE_ACCELERATOR || type == CL_DEVICE_TYPE_CUSTOM ||
               (type & CL_DEVICE_TYPE_DEFAULT),
           "device type 0x%llx is not a valid type", (unsigned long long)type);
    /* The device is found by its own type and not by the other concrete types. */
    const cl_device_type concrete[] = {CL_DEVICE_TYPE_CPU, CL_DEVICE_TYPE_GPU,
                                       CL_DEVICE_TYPE_ACCELERATOR};
    for (size_t i = 0; i < 3; i++) {
        cl_device_id ids[16];
        cl_uint n = 0;
        cl_int err = clGetDeviceIDs(platform, concrete[i], 16, ids, &n);
        int found = 0;
        if (err == CL_SUCCESS) {
            EXPECT(n >= 1, "clGetDeviceIDs succeeded with 0 devices");
            for (cl_uint k = 0; k < n && k < 16; k++)
                found |= ids[k] == dev;
        } else {
            EXPECT(err == CL_DEVICE_NOT_FOUND, "clGetDeviceIDs(type 0x%llx) returned %s",
                   (unsigned long long)concrete[i], cl_err_name(err));
        }
        EXPECT(found == ((type & concrete[i]) != 0),
               "device of type 0x%llx %s by clGetDeviceIDs(type 0x%llx)",
               (unsigned long long)type, found ? "found" : "not found",
               (unsigned long long)concrete[i]);
    }
    cl_device_id def = NULL;
    cl_uint n_def = 0;
    CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_DEFAULT, 1, &def, &n_def));
    EXPECT(n_def == 1 && def != NULL, "CL_DEVICE_TYPE_DEFAULT must return exactly one device");
    /* num_devices alone, devices alone. */
    cl_device_id only = NULL;
    CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &only, NULL));
    EXPECT(only == dev, "first device differs between calls");
}

static void check_device_info(cl_platform_id platform, cl_device_id dev, int fpga)
{
    STEP("device info: every 1.2 query");
    for (size_t i = 0; i < sizeof DEVICE_PARAMS / sizeof DEVICE_PARAMS[0]; i++) {
        size_t size = 0;
        void *v = query_device(dev, &DEVICE_PARAMS[i], &size);
        free(v);
    }
    EXPECT_CODE(clGetDeviceInfo(dev, 0x7FFF, 0, NULL, NULL), CL_INVALID_VALUE);

    STEP("device info: values");
    char name[1024], vendor[1024], version[256], cversion[256], profile[64], driver[256];
    device_string(dev, CL_DEVICE_NAME, name, sizeof name);
    device_string(dev, CL_DEVICE_VENDOR, vendor, sizeof vendor);
    device_string(dev, CL_DEVICE_VERSION, version, sizeof version);
    device_string(dev, CL_DEVICE_OPENCL_C_VERSION, cversion, sizeof cversion);
    device_string(dev, CL_DEVICE_PROFILE, profile, sizeof profile);
    device_string(dev, CL_DRIVER_VERSION, driver, sizeof driver);
    size_t ext_size = 0;
    CHECK(clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS, 0, NULL, &ext_size));
    char *ext = calloc(1, ext_size + 1);
    EXPECT(ext != NULL, "out of memory");
    CHECK(clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS, ext_size, ext, NULL));
    printf("  device name      %s\n  device vendor    %s\n  device version   %s\n"
           "  OpenCL C         %s\n  driver           %s\n  extensions       %s\n",
           name, vendor, version, cversion, driver, ext);
    EXPECT(strlen(name) > 0 && strlen(vendor) > 0 && strlen(driver) > 0,
           "empty name/vendor/driver string");
    int maj = 0, min = 0;
    EXPECT(parse_version(version, "OpenCL ", &maj, &min),
           "CL_DEVICE_VERSION '%s' is not 'OpenCL <major>.<minor> <vendor info>'", version);
    EXPECT(maj > 1 || (maj == 1 && min >= 2), "device version %d.%d < 1.2", maj, min);
    int cmaj = 0, cmin = 0;
    EXPECT(parse_version(cversion, "OpenCL C ", &cmaj, &cmin),
           "CL_DEVICE_OPENCL_C_VERSION '%s' is not 'OpenCL C <major>.<minor> ...'", cversion);
    EXPECT(cmaj > 1 || (cmaj == 1 && cmin >= 2), "OpenCL C version %d.%d < 1.2", cmaj, cmin);
    EXPECT(strcmp(profile, "FULL_PROFILE") == 0 || strcmp(profile, "EMBEDDED_PROFILE") == 0,
           "unknown device profile '%s'", profile);
    int full = strcmp(profile, "FULL_PROFILE") == 0;

    cl_platform_id dp = NULL;
    CHECK(clGetDeviceInfo(dev, CL_DEVICE_PLATFORM, sizeof dp, &dp, NULL));
    EXPECT(dp == platform, "CL_DEVICE_PLATFORM is not the platform the device came from");
    cl_device_id parent = (cl_device_id)1;
    CHECK(clGetDeviceInfo(dev, CL_DEVICE_PARENT_DEVICE, sizeof parent, &parent, NULL));
    EXPECT(parent == NULL, "root device has a parent device");
    EXPECT(DEVU(dev, CL_DEVICE_REFERENCE_COUNT) == 1, "root device reference count must be 1");

    cl_bool b = CL_FALSE;
    CHECK(clGetDeviceInfo(dev, CL_DEVICE_AVAILABLE, sizeof b, &b, NULL));
    EXPECT(b == CL_TRUE, "device not available");
    CHECK(clGetDeviceInfo(dev, CL_DEVICE_COMPILER_AVAILABLE, sizeof b, &b, NULL));
    EXPECT(b == CL_TRUE, "compiler not available");
    if (full) {
        cl_bool lb = CL_FALSE;
        CHECK(clGetDeviceInfo(dev, CL_DEVICE_LINKER_AVAILABLE, sizeof lb, &lb, NULL));
        EXPECT(lb == CL_TRUE, "full profile with a compiler requires a linker");
    }
    cl_bool little = CL_FALSE;
    CHECK(clGetDeviceInfo(dev, CL_DEVICE_ENDIAN_LITTLE, sizeof little, &little, NULL));
    EXPECT(little == CL_TRUE, "host programs here assume a little-endian device");

    cl_uint dims = DEVU(dev, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS);
    EXPECT(dims >= 3, "CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS %u < 3", dims);
    size_t sizes_bytes = 0;
    CHECK(clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_ITEM_SIZES, 0, NULL, &sizes_bytes));
    EXPECT(sizes_bytes == dims * sizeof(size_t), "MAX_WORK_ITEM_SIZES has %zu bytes for %u dims",
           sizes_bytes, dims);
    size_t wis[16] = {0};
    EXPECT(dims <= 16, "too many dimensions");
    CHECK(clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizes_bytes, wis, NULL));
    size_t wg = DEVSZ(dev, CL_DEVICE_MAX_WORK_GROUP_SIZE);
    EXPECT(wg >= 1, "max work-group size 0");
    for (cl_uint d = 0; d < dims; d++)
        EXPECT(wis[d] >= 1, "max work-item size[%u] is 0", d);

    EXPECT(DEVU(dev, CL_DEVICE_MAX_COMPUTE_UNITS) >= 1, "no compute units");
    EXPECT(DEVU(dev, CL_DEVICE_MAX_CLOCK_FREQUENCY) >= 1, "clock frequency 0");
    cl_uint abits = DEVU(dev, CL_DEVICE_ADDRESS_BITS);
    EXPECT(abits == 32 || abits == 64, "address bits %u", abits);
    cl_ulong gmem = DEVUL(dev, CL_DEVICE_GLOBAL_MEM_SIZE);
    cl_ulong maxalloc = DEVUL(dev, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
    EXPECT(gmem > 0, "global memory size 0");
    EXPECT(maxalloc > 0 && maxalloc <= gmem, "max alloc %llu vs global %llu",
           (unsigned long long)maxalloc, (unsigned long long)gmem);
    if (full) {
        cl_ulong min_alloc = gmem / 4;
        if (min_alloc > 128ull * 1024 * 1024)
            min_alloc = 128ull * 1024 * 1024;
        EXPECT(maxalloc >= min_alloc, "max alloc %llu below spec minimum %llu",
               (unsigned long long)maxalloc, (unsigned long long)min_alloc);
        EXPECT(DEVUL(dev, CL_DEVICE_LOCAL_MEM_SIZE) >= 32 * 1024, "local memory < 32 KiB");
        EXPECT(DEVSZ(dev, CL_DEVICE_MAX_PARAMETER_SIZE) >= 1024, "max parameter size < 1024");
        EXPECT(DEVUL(dev, CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE) >= 64 * 1024,
               "constant buffer < 64 KiB");
        EXPECT(DEVU(dev, CL_DEVICE_MAX_CONSTANT_ARGS) >= 8, "max constant args < 8");
        EXPECT(DEVSZ(dev, CL_DEVICE_PRINTF_BUFFER_SIZE) >= 1024 * 1024, "printf buffer < 1 MiB");
    }
    cl_uint align_bits = DEVU(dev, CL_DEVICE_MEM_BASE_ADDR_ALIGN);
    EXPECT(align_bits >= 8 * 128 && (align_bits & (align_bits - 1)) == 0,
           "CL_DEVICE_MEM_BASE_ADDR_ALIGN %u bits: must be a power of two >= 1024 "
           "(size of long16 in bits)", align_bits);
    EXPECT(DEVSZ(dev, CL_DEVICE_PROFILING_TIMER_RESOLUTION) >= 1, "timer resolution 0");
    cl_device_local_mem_type lmt = 0;
    CHECK(clGetDeviceInfo(dev, CL_DEVICE_LOCAL_MEM_TYPE, sizeof lmt, &lmt, NULL));
    EXPECT(lmt == CL_LOCAL || lmt == CL_GLOBAL, "bad local memory type %u", lmt);
    cl_device_mem_cache_type ct = 0;
    CHECK(clGetDeviceInfo(dev, CL_DEVICE_GLOBAL_MEM_CACHE_TYPE, sizeof ct, &ct, NULL));
    EXPECT(ct == CL_NONE || ct == CL_READ_ONLY_CACHE || ct == CL_READ_WRITE_CACHE,
           "bad cache type %u", ct);

    cl_device_exec_capabilities caps = 0;
    CHECK(clGetDeviceInfo(dev, CL_DEVICE_EXECUTION_CAPABILITIES, sizeof caps, &caps, NULL));
    EXPECT(caps & CL_EXEC_KERNEL, "device cannot execute OpenCL kernels");
    cl_command_queue_properties qp = 0;
    CHECK(clGetDeviceInfo(dev, CL_DEVICE_QUEUE_PROPERTIES, sizeof qp, &qp, NULL));
    EXPECT(qp & CL_QUEUE_PROFILING_ENABLE, "queues must support profiling");
    cl_device_fp_config sfp = 0, dfp = 0;
    CHECK(clGetDeviceInfo(dev, CL_DEVICE_SINGLE_FP_CONFIG, sizeof sfp, &sfp, NULL));
    EXPECT((sfp & (CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN)) ==
               (CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN),
           "single FP config 0x%llx lacks round-to-nearest or INF/NaN", (unsigned long long)sfp);
    CHECK(clGetDeviceInfo(dev, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof dfp, &dfp, NULL));
    const cl_device_fp_config dfp_req = CL_FP_FMA | CL_FP_ROUND_TO_NEAREST | CL_FP_ROUND_TO_ZERO |
                                        CL_FP_ROUND_TO_INF | CL_FP_INF_NAN | CL_FP_DENORM;
    if (has_token(ext, "cl_khr_fp64"))
        EXPECT((dfp & dfp_req) == dfp_req, "cl_khr_fp64 reported but double FP config 0x%llx "
               "lacks required bits", (unsigned long long)dfp);
    else
        EXPECT(dfp == 0, "double FP config nonzero without cl_khr_fp64");

    cl_bool images = CL_FALSE;
    CHECK(clGetDeviceInfo(dev, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL));
    if (!images) {
        EXPECT(DEVU(dev, CL_DEVICE_MAX_READ_IMAGE_ARGS) == 0 &&
                   DEVU(dev, CL_DEVICE_MAX_WRITE_IMAGE_ARGS) == 0 &&
                   DEVU(dev, CL_DEVICE_MAX_SAMPLERS) == 0,
               "no image support but image limits are nonzero");
    } else {
        /* OpenCL 1.2 table 4.3: the minimum limits of a full-profile device with images. */
        EXPECT(DEVU(dev, CL_DEVICE_MAX_READ_IMAGE_ARGS) >= 128 &&
                   DEVU(dev, CL_DEVICE_MAX_WRITE_IMAGE_ARGS) >= 8 &&
                   DEVU(dev, CL_DEVICE_MAX_SAMPLERS) >= 16,
               "image argument/sampler limits below the OpenCL 1.2 minimums");
        size_t w2 = 0, h3 = 0, arr = 0;
        CHECK(clGetDeviceInfo(dev, CL_DEVICE_IMAGE2D_MAX_WIDTH, sizeof w2, &w2, NULL));
        CHECK(clGetDeviceInfo(dev, CL_DEVICE_IMAGE3D_MAX_HEIGHT, sizeof h3, &h3, NULL));
        CHECK(clGetDeviceInfo(dev, CL_DEVICE_IMAGE_MAX_ARRAY_SIZE, sizeof arr, &arr, NULL));
        EXPECT(w2 >= 8192 && h3 >= 2048 && arr >= 2048,
               "image size limits below the OpenCL 1.2 minimums (%zu %zu %zu)", w2, h3, arr);
    }

    /* Extensions every OpenCL 1.2 device reports (1.1 core features listed as extensions). */
    const char *required_ext[] = {
        "cl_khr_global_int32_base_atomics", "cl_khr_global_int32_extended_atomics",
        "cl_khr_local_int32_base_atomics", "cl_khr_local_int32_extended_atomics",
        "cl_khr_byte_addressable_store",
    };
    for (size_t i = 0; i < sizeof required_ext / sizeof required_ext[0]; i++)
        EXPECT(has_token(ext, required_ext[i]), "device extensions lack %s", required_ext[i]);

    /* Partition queries of a root device. */
    size_t ptype_size = 0;
    CHECK(clGetDeviceInfo(dev, CL_DEVICE_PARTITION_TYPE, 0, NULL, &ptype_size));
    if (ptype_size >= sizeof(cl_device_partition_property)) {
        cl_device_partition_property pt[8] = {0};
        CHECK(clGetDeviceInfo(dev, CL_DEVICE_PARTITION_TYPE,
                              ptype_size < sizeof pt ? ptype_size : sizeof pt, pt, NULL));
        EXPECT(pt[0] == 0, "root device reports a partition type");
    }
    /* Retain/release of a root device succeed and change nothing. */
    CHECK(clRetainDevice(dev));
    CHECK(clReleaseDevice(dev));
    EXPECT(DEVU(dev, CL_DEVICE_REFERENCE_COUNT) == 1, "root device reference count changed");

    if (fpga) {
        STEP("device info: FPGA host expectations");
        cl_device_type type = 0;
        CHECK(clGetDeviceInfo(dev, CL_DEVICE_TYPE, sizeof type, &type, NULL));
        EXPECT(type & CL_DEVICE_TYPE_ACCELERATOR, "FPGA device must be CL_DEVICE_TYPE_ACCELERATOR");
        const char *sep = strstr(name, " : ");
        EXPECT(sep != NULL && sep > name && sep[3] != '\0',
               "FPGA device name '%s' must read '<board> : <description>'", name);
        printf("  board name (aocx stem) %.*s\n", (int)(sep - name), name);
        EXPECT(has_token(ext, "cl_intel_channels"), "FPGA device lacks cl_intel_channels");
        EXPECT(maj == 1 && min == 2, "FPGA device version must be OpenCL 1.2, got '%s'", version);
    }
    free(ext);
}

static void check_context(cl_context ctx, cl_device_id dev, const cl_context_properties *props,
                          size_t nprops)
{
    cl_uint rc = 0, nd = 0;
    CHECK(clGetContextInfo(ctx, CL_CONTEXT_REFERENCE_COUNT, sizeof rc, &rc, NULL));
    EXPECT(rc >= 1, "context reference count %u", rc);
    CHECK(clGetContextInfo(ctx, CL_CONTEXT_NUM_DEVICES, sizeof nd, &nd, NULL));
    EXPECT(nd == 1, "context has %u devices, expected 1", nd);
    size_t dsize = 0;
    CHECK(clGetContextInfo(ctx, CL_CONTEXT_DEVICES, 0, NULL, &dsize));
    EXPECT(dsize == sizeof(cl_device_id), "CL_CONTEXT_DEVICES size %zu", dsize);
    cl_device_id got = NULL;
    CHECK(clGetContextInfo(ctx, CL_CONTEXT_DEVICES, sizeof got, &got, NULL));
    EXPECT(got == dev, "context device differs from the selected device");
    size_t psize = 0;
    CHECK(clGetContextInfo(ctx, CL_CONTEXT_PROPERTIES, 0, NULL, &psize));
    if (props) {
        EXPECT(psize == nprops * sizeof(cl_context_properties),
               "CL_CONTEXT_PROPERTIES size %zu, expected %zu", psize,
               nprops * sizeof(cl_context_properties));
        cl_context_properties back[16] = {0};
        EXPECT(nprops <= 16, "too many properties");
        CHECK(clGetContextInfo(ctx, CL_CONTEXT_PROPERTIES, psize, back, NULL));
        EXPECT(memcmp(back, props, psize) == 0, "CL_CONTEXT_PROPERTIES differ from the input");
    } else {
        EXPECT(psize == 0 || psize == sizeof(cl_context_properties),
               "context created without properties reports %zu bytes of properties", psize);
    }
    EXPECT_CODE(clGetContextInfo(ctx, 0x7FFF, 0, NULL, NULL), CL_INVALID_VALUE);
    /* Retain adds exactly one reference, release removes it. */
    CHECK(clRetainContext(ctx));
    cl_uint rc2 = 0;
    CHECK(clGetContextInfo(ctx, CL_CONTEXT_REFERENCE_COUNT, sizeof rc2, &rc2, NULL));
    EXPECT(rc2 == rc + 1, "retain: reference count %u -> %u", rc, rc2);
    CHECK(clReleaseContext(ctx));
    CHECK(clGetContextInfo(ctx, CL_CONTEXT_REFERENCE_COUNT, sizeof rc2, &rc2, NULL));
    EXPECT(rc2 == rc, "release: reference count %u, expected %u", rc2, rc);
}

static volatile int g_notify_calls = 0;
static void CL_CALLBACK context_notify(const char *errinfo, const void *pi, size_t cb, void *ud)
{
    (void)errinfo; (void)pi; (void)cb; (void)ud;
    __atomic_add_fetch(&g_notify_calls, 1, __ATOMIC_SEQ_CST);
}

static void check_contexts_and_queues(cl_platform_id platform, cl_device_id dev)
{
    cl_int err = CL_SUCCESS;
    STEP("context from device list");
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)platform, 0};
    cl_context ctx = clCreateContext(props, 1, &dev, context_notify, (void *)&g_notify_calls, &err);
    CHECK_ERR(err, "clCreateContext(props, callback)");
    check_context(ctx, dev, props, 3);

    STEP("context without properties");
    cl_context ctx0 = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    CHECK_ERR(err, "clCreateContext(NULL properties)");
    check_context(ctx0, dev, NULL, 0);
    CHECK(clReleaseContext(ctx0));

    STEP("contexts from type");
    cl_device_type type = 0;
    CHECK(clGetDeviceInfo(dev, CL_DEVICE_TYPE, sizeof type, &type, NULL));
    const cl_device_type types[] = {type & ~(cl_device_type)CL_DEVICE_TYPE_DEFAULT,
                                    CL_DEVICE_TYPE_DEFAULT, CL_DEVICE_TYPE_ALL};
    for (size_t i = 0; i < 3; i++) {
        cl_context c = clCreateContextFromType(props, types[i], NULL, NULL, &err);
        if (err != CL_SUCCESS)
            FAILF("clCreateContextFromType(type 0x%llx) returned %s",
                  (unsigned long long)types[i], cl_err_name(err));
        cl_uint nd = 0;
        CHECK(clGetContextInfo(c, CL_CONTEXT_NUM_DEVICES, sizeof nd, &nd, NULL));
        EXPECT(nd >= 1, "context from type has no devices");
        if (nd == 1)
            check_context(c, dev, props, 3);
        CHECK(clReleaseContext(c));
    }

    STEP("command queue info");
    cl_command_queue q = create_queue(ctx, dev, CL_QUEUE_PROFILING_ENABLE);
    cl_context qc = NULL;
    cl_device_id qd = NULL;
    cl_uint qrc = 0;
    cl_command_queue_properties qp = 0;
    CHECK(clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof qc, &qc, NULL));
    CHECK(clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof qd, &qd, NULL));
    CHECK(clGetCommandQueueInfo(q, CL_QUEUE_REFERENCE_COUNT, sizeof qrc, &qrc, NULL));
    CHECK(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof qp, &qp, NULL));
    EXPECT(qc == ctx && qd == dev, "queue context/device differ");
    EXPECT(qrc == 1, "new queue reference count %u", qrc);
    EXPECT(qp == CL_QUEUE_PROFILING_ENABLE, "queue properties 0x%llx", (unsigned long long)qp);
    EXPECT_CODE(clGetCommandQueueInfo(q, 0x7FFF, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK(clRetainCommandQueue(q));
    CHECK(clGetCommandQueueInfo(q, CL_QUEUE_REFERENCE_COUNT, sizeof qrc, &qrc, NULL));
    EXPECT(qrc == 2, "retained queue reference count %u", qrc);
    CHECK(clReleaseCommandQueue(q));
    CHECK(clFlush(q));
    CHECK(clFinish(q));

    cl_command_queue_properties dev_qp = 0;
    CHECK(clGetDeviceInfo(dev, CL_DEVICE_QUEUE_PROPERTIES, sizeof dev_qp, &dev_qp, NULL));
    if (dev_qp & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) {
        cl_command_queue q2 = create_queue(
            ctx, dev, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE);
        CHECK(clGetCommandQueueInfo(q2, CL_QUEUE_PROPERTIES, sizeof qp, &qp, NULL));
        EXPECT(qp == (CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE),
               "OOO queue properties 0x%llx", (unsigned long long)qp);
        CHECK(clReleaseCommandQueue(q2));
    }
    CHECK(clReleaseCommandQueue(q));
    EXPECT(g_notify_calls == 0, "context error callback called %d times without an error",
           g_notify_calls);
    CHECK(clReleaseContext(ctx));

    STEP("extension function lookup");
    EXPECT(clGetExtensionFunctionAddressForPlatform(platform, "clNoSuchFunctionFPGACL") == NULL,
           "lookup of an unknown extension function must return NULL");
}

int main(void)
{
    install_watchdog(120);
    cl_platform_id platform = select_platform();
    cl_device_id dev = select_device(platform);
    print_selection(platform, dev);
    int fpga = is_fpga_platform(platform);
    check_platform(platform);
    check_device_ids(platform, dev);
    check_device_info(platform, dev, fpga);
    check_contexts_and_queues(platform, dev);
    return pass("platform_query");
}

//! Atomic read-modify-write operations on both word sizes: 32-bit (`atomic_*`) and 64-bit
//! (`atom_*` on long/ulong), signed and unsigned min/max, compare-and-exchange that succeeds
//! and fails, float exchange; the old values returned and the memory left behind, once from a
//! single work-item and once from 1024 work-items on two threads.

mod timing_util;

use fpgacl_device_model::*;
use timing_util::*;

const SRC: &str = "#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable\n\
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable\n\
__kernel void rmw(__global int *s, __global uint *u, __global long *sl, __global ulong *ul,\n\
                  __global float *f, __global long *old) {\n\
  old[0] = atomic_min(&s[0], -5);\n\
  old[1] = atomic_max(&s[1], -7);\n\
  old[2] = atomic_min(&u[0], 0xfffffff0u);\n\
  old[3] = atomic_cmpxchg(&s[2], 4, 11);\n\
  old[4] = atomic_cmpxchg(&s[3], 4, 11);\n\
  old[5] = atom_add(&sl[0], 0x100000000L);\n\
  old[6] = atom_min(&sl[1], -0x100000000L);\n\
  old[7] = (long)atom_max(&ul[0], 0xffffffff00000000UL);\n\
  old[8] = (long)atom_cmpxchg(&ul[1], 7UL, 9UL);\n\
  old[9] = atomic_sub(&u[1], 3u);\n\
  old[10] = (long)(atomic_xchg(&f[0], 2.5f) * 4.0f);\n\
  old[11] = atom_xor(&sl[2], 0x0f0f0f0f0f0f0f0fL);\n\
}\n\
__kernel void many(__global int *s, __global long *sl) {\n\
  int i = get_global_id(0);\n\
  atomic_min(&s[0], 100 - i);\n\
  atomic_max(&s[1], i - 2000);\n\
  atom_add(&sl[0], (long)i << 32);\n\
  atom_min(&sl[1], -(long)i * 0x100000000L);\n\
  atom_inc(&sl[2]);\n\
}\n";

fn read<T: Copy + Default>(m: &DeviceMemory, n: usize) -> Vec<T> {
    let mut v = vec![T::default(); n];
    // SAFETY: plain data.
    let bytes = unsafe {
        std::slice::from_raw_parts_mut(v.as_mut_ptr() as *mut u8, n * std::mem::size_of::<T>())
    };
    m.read(0, bytes).unwrap();
    v
}

#[test]
fn read_modify_write_on_both_word_sizes() {
    let k = kit(SRC, 1);
    let s = buf(&[3i32, -9, 4, 6]);
    let u = buf(&[5u32, 1]);
    let sl = buf(&[1i64, 0, 0x00ff_00ff_00ff_00ff]);
    let ul = buf(&[5u64, 7]);
    let f = buf(&[1.25f32]);
    let old = buf(&[0i64; 12]);
    k.run(&LaunchSpec::task(
        k.index("rmw"),
        vec![
            ArgBinding::buffer(&s),
            ArgBinding::buffer(&u),
            ArgBinding::buffer(&sl),
            ArgBinding::buffer(&ul),
            ArgBinding::buffer(&f),
            ArgBinding::buffer(&old),
        ],
    ));
    assert_eq!(
        read::<i64>(&old, 12),
        vec![3, -9, 5, 4, 6, 1, 0, 5, 7, 1, 5, 0x00ff_00ff_00ff_00ff]
    );
    assert_eq!(read::<i32>(&s, 4), vec![-5, -7, 11, 6]);
    assert_eq!(read::<u32>(&u, 2), vec![5, 0xffff_fffe]);
    assert_eq!(
        read::<i64>(&sl, 3),
        vec![0x1_0000_0001, -0x1_0000_0000, 0x0ff0_0ff0_0ff0_0ff0]
    );
    assert_eq!(read::<u64>(&ul, 2), vec![0xffff_ffff_0000_0000, 9]);
    assert_eq!(read::<f32>(&f, 1), vec![2.5]);
}

#[test]
fn read_modify_write_from_many_work_items() {
    let k = kit(SRC, 2);
    let n = 1024i64;
    let s = buf(&[i32::MAX, i32::MIN]);
    let sl = buf(&[0i64, 0, 0]);
    k.run(&LaunchSpec::ndrange_1d(
        k.index("many"),
        n as u64,
        Some(64),
        vec![ArgBinding::buffer(&s), ArgBinding::buffer(&sl)],
    ));
    assert_eq!(read::<i32>(&s, 2), vec![100 - 1023, 1023 - 2000]);
    assert_eq!(
        read::<i64>(&sl, 3),
        vec![(n * (n - 1) / 2) << 32, -1023 * 0x1_0000_0000, n]
    );
}

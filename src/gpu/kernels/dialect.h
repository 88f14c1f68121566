// ripple's GPU kernel dialect: one kernel source compiles as CUDA C++ (NVRTC, __CUDACC_RTC__)
// and as OpenCL C 1.2. Kernels are compiled after this header (the host concatenates the files
// of a program, see src/gpu/program.cpp) and use only what it defines:
//   KERNEL, KERNEL_GROUP(size) (a kernel always launched with groups of `size` work-items: CUDA
//   fits its registers to that many threads, OpenCL requires it), GLOBAL, LOCAL (array
//   declarations), LOCAL_PTR (pointer parameters), CONSTANT, ALIGNED(bytes) (after the declarator,
//   as OpenCL C's examples place attributes),
//   DEVICE_FN (helper functions), BARRIER(), LOCAL_ID(d), GROUP_ID(d), LOCAL_SIZE(d),
//   NUM_GROUPS(d), GLOBAL_ID(d), fences, 32/64-bit atomics, real_t/complex_t and complex helpers,
//   scan_real_t (the precision of scan carries), and SHFL_UP_REAL for warp shuffles where
//   RIPPLE_HAS_SHUFFLE is 1 (any real type, float or double).
// Options: -DRIPPLE_DOUBLE=1 makes real_t double (float otherwise); -DRIPPLE_SCAN_DOUBLE=1 makes
// scan_real_t double (real_t otherwise: float data whose carries need more digits than the data);
// -DRIPPLE_NO_SHUFFLE=1 forces the local-memory fallback of every warp-level step even where
// shuffles exist.
#ifndef RIPPLE_DIALECT_H
#define RIPPLE_DIALECT_H

/* Both compilers take GNU attributes. A local array of structs that a loop reads whole gets
   ALIGNED(16): ptxas merges such reads into 16-byte loads from the nearest 16-byte boundary,
   which, for an array that starts 4 bytes past one, also read the last word of the array
   before it. The word is discarded, but if another work-item writes it then (no barrier
   between), that is a shared-memory race by compute-sanitizer's racecheck (seen on an H200:
   block_scan.h's reads of warp_totals against the writes of scratch[BLOCK - 1]). */
#define ALIGNED(bytes) __attribute__((aligned(bytes)))

#if defined(__CUDACC_RTC__) || defined(__CUDACC__)
/* ---------------------------------- CUDA C++ ---------------------------------- */
#define RIPPLE_IS_CUDA 1
typedef unsigned int u32;
typedef int i32;
typedef unsigned long long u64;
typedef long long i64;
#define KERNEL extern "C" __global__ void
#define KERNEL_GROUP(size) extern "C" __global__ void __launch_bounds__(size)
#define DEVICE_FN static __device__ __forceinline__
#define GLOBAL
#define LOCAL __shared__
#define LOCAL_PTR
#define CONSTANT const
#define VOLATILE volatile
#define RESTRICT __restrict__
#define BARRIER() __syncthreads()
#define GLOBAL_FENCE() __threadfence()
#define RIPPLE_DIM_(v, d) ((u32)((d) == 0 ? (v).x : (d) == 1 ? (v).y : (v).z))
#define LOCAL_ID(d) RIPPLE_DIM_(threadIdx, d)
#define GROUP_ID(d) RIPPLE_DIM_(blockIdx, d)
#define LOCAL_SIZE(d) RIPPLE_DIM_(blockDim, d)
#define NUM_GROUPS(d) RIPPLE_DIM_(gridDim, d)
#define GLOBAL_ID(d) ((u64)GROUP_ID(d) * LOCAL_SIZE(d) + LOCAL_ID(d))
#define ATOMIC_ADD_U32(p, v) atomicAdd((u32*)(p), (u32)(v))
#define ATOMIC_XCHG_U32(p, v) atomicExch((u32*)(p), (u32)(v))
#define ATOMIC_LOAD_U32(p) atomicOr((u32*)(p), 0u)
#define ATOMIC_ADD_U64(p, v) atomicAdd((u64*)(p), (u64)(v))
#define WARP_SIZE 32
#ifndef RIPPLE_NO_SHUFFLE
#define RIPPLE_HAS_SHUFFLE 1
#define SHFL_UP_REAL(x, delta) __shfl_up_sync(0xffffffffu, (x), (delta))
#else
#define RIPPLE_HAS_SHUFFLE 0
#endif
#if defined(RIPPLE_DOUBLE) && RIPPLE_DOUBLE
typedef double real_t;
typedef double2 complex_t;
#else
typedef float real_t;
typedef float2 complex_t;
#endif
DEVICE_FN complex_t cmake(real_t re, real_t im) {
  complex_t z;
  z.x = re;
  z.y = im;
  return z;
}

#else
/* --------------------------------- OpenCL C 1.2 -------------------------------- */
#define RIPPLE_IS_CUDA 0
#if (defined(RIPPLE_DOUBLE) && RIPPLE_DOUBLE) || (defined(RIPPLE_SCAN_DOUBLE) && RIPPLE_SCAN_DOUBLE)
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
typedef uint u32;
typedef int i32;
typedef ulong u64;
typedef long i64;
#define KERNEL __kernel void
#define KERNEL_GROUP(size) __kernel __attribute__((reqd_work_group_size(size, 1, 1))) void
#define DEVICE_FN static inline
#define GLOBAL __global
#define LOCAL __local
#define LOCAL_PTR __local
#define CONSTANT __constant
#define VOLATILE volatile
#define RESTRICT restrict
#define BARRIER() barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)
#define GLOBAL_FENCE() mem_fence(CLK_GLOBAL_MEM_FENCE)
#define LOCAL_ID(d) ((u32)get_local_id(d))
#define GROUP_ID(d) ((u32)get_group_id(d))
#define LOCAL_SIZE(d) ((u32)get_local_size(d))
#define NUM_GROUPS(d) ((u32)get_num_groups(d))
#define GLOBAL_ID(d) ((u64)get_global_id(d))
#define ATOMIC_ADD_U32(p, v) atomic_add((volatile __global u32*)(p), (u32)(v))
#define ATOMIC_XCHG_U32(p, v) atomic_xchg((volatile __global u32*)(p), (u32)(v))
#define ATOMIC_LOAD_U32(p) atomic_or((volatile __global u32*)(p), 0u)
#define ATOMIC_ADD_U64(p, v) atom_add((volatile __global u64*)(p), (u64)(v))
/* OpenCL C 1.2 has no portable sub-group shuffle (PoCL 3.1 has no sub-groups at all): warp-level
   steps run on "logical warps" of WARP_SIZE work-items through local memory. */
#define WARP_SIZE 32
#define RIPPLE_HAS_SHUFFLE 0
#if defined(RIPPLE_DOUBLE) && RIPPLE_DOUBLE
typedef double real_t;
typedef double2 complex_t;
#else
typedef float real_t;
typedef float2 complex_t;
#endif
DEVICE_FN complex_t cmake(real_t re, real_t im) { return (complex_t)(re, im); }
#endif

/* ------------------------------ common to both ------------------------------ */
#if defined(RIPPLE_SCAN_DOUBLE) && RIPPLE_SCAN_DOUBLE
typedef double scan_real_t;
#else
typedef real_t scan_real_t;
#endif

DEVICE_FN complex_t cadd(complex_t a, complex_t b) { return cmake(a.x + b.x, a.y + b.y); }
DEVICE_FN complex_t csub(complex_t a, complex_t b) { return cmake(a.x - b.x, a.y - b.y); }
DEVICE_FN complex_t cmul(complex_t a, complex_t b) {
  return cmake(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}
DEVICE_FN complex_t cconj(complex_t a) { return cmake(a.x, -a.y); }
DEVICE_FN complex_t cscale(complex_t a, real_t s) { return cmake(a.x * s, a.y * s); }
/* a * conj(b) */
DEVICE_FN complex_t cmulconj(complex_t a, complex_t b) {
  return cmake(a.x * b.x + a.y * b.y, a.y * b.x - a.x * b.y);
}

#endif /* RIPPLE_DIALECT_H */

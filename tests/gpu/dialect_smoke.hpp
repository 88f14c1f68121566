// A test kernel that uses every part of the dialect not already exercised by the library's
// kernels: work-item and group ids, local memory with a barrier, 32- and 64-bit atomics and the
// complex helpers. Compiled by NVRTC and run on OpenCL by the tests.
#pragma once

namespace ripple::gpu::test {

inline constexpr const char* kDialectSmoke = R"(
KERNEL dialect_smoke(GLOBAL const complex_t* a, GLOBAL const complex_t* b, GLOBAL complex_t* out,
                     GLOBAL u64* sum64, GLOBAL u32* ok_count, u64 n) {
  LOCAL u32 ids[256];
  const u32 t = LOCAL_ID(0);
  ids[t] = t + GROUP_ID(0) * LOCAL_SIZE(0);
  BARRIER();
  const u32 mirror = ids[LOCAL_SIZE(0) - 1 - t];
  const u64 i = GLOBAL_ID(0);
  if (i < n) {
    /* a*b + a*conj(b) - conj(conj(a)) * 0.5 = 2 a re(b) - a/2 */
    complex_t p = cadd(cmul(a[i], b[i]), cmulconj(a[i], b[i]));
    p = csub(p, cscale(cconj(cconj(a[i])), (real_t)0.5));
    out[i] = p;
    ATOMIC_ADD_U64(sum64, ((u64)i << 32) + 1);
    if (mirror == GROUP_ID(0) * LOCAL_SIZE(0) + LOCAL_SIZE(0) - 1 - t && NUM_GROUPS(0) > 0)
      ATOMIC_ADD_U32(ok_count, 1u);
  }
}
)";

}  // namespace ripple::gpu::test

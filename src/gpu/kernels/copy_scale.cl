// Batched strided copy with scaling, the FFTW "many" layout: for b < batch and i < count,
//   out[out_offset + b * out_dist + i * out_stride] = scale * in[in_offset + b * in_dist + i * in_stride]
// (strides and distances in elements, negative allowed; offsets place the origin). Elements are
// real_t, or complex_t with -DRIPPLE_COMPLEX=1 (then scale = scale_re + i scale_im). Compiled after
// dialect.h. Any 2-D grid: dimension 0 strides over i, dimension 1 over b.
#if defined(RIPPLE_COMPLEX) && RIPPLE_COMPLEX
typedef complex_t elem_t;
DEVICE_FN elem_t scale_elem(elem_t x, real_t re, real_t im) { return cmul(x, cmake(re, im)); }
#else
typedef real_t elem_t;
DEVICE_FN elem_t scale_elem(elem_t x, real_t re, real_t im) {
  (void)im;
  return x * re;
}
#endif

KERNEL copy_scale(GLOBAL const elem_t* in, GLOBAL elem_t* out, u64 count, u64 batch, u64 in_offset,
                  i64 in_stride, i64 in_dist, u64 out_offset, i64 out_stride, i64 out_dist,
                  real_t scale_re, real_t scale_im) {
  const u64 step = (u64)NUM_GROUPS(0) * LOCAL_SIZE(0);
  for (u64 b = GROUP_ID(1); b < batch; b += NUM_GROUPS(1)) {
    const i64 src_row = (i64)in_offset + (i64)b * in_dist;
    const i64 dst_row = (i64)out_offset + (i64)b * out_dist;
    for (u64 i = GLOBAL_ID(0); i < count; i += step)
      out[dst_row + (i64)i * out_stride] =
          scale_elem(in[src_row + (i64)i * in_stride], scale_re, scale_im);
  }
}

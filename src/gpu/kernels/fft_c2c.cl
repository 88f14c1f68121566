/* Batched complex-to-complex FFT of a size that fits on chip, in one kernel: each transform is
   read from global memory once, goes through all its Stockham stages in registers with the
   exchanges between stages through local memory, and is written once (scaled).
   Compiled after dialect.h, fft_codelets.h and fft_chirp.h. Constants (-D, from src/gpu/device_fft.cpp):
     FFT_N                  transform size
     FFT_STAGES             number of stages (0 for N = 1)
     FFT_R<s>, FFT_NS<s>    radix of stage s and the product of the radices before it
     FFT_TW<s>              offset of stage s's twiddles in the table (complex values)
     FFT_TPT                work-items per transform
     FFT_TPG                transforms per work-group (the group has FFT_TPT * FFT_TPG items)
     FFT_SLOTS              complex registers per work-item (the most any stage needs)
     FFT_SPLIT              1: exchange real and imaginary parts in turn (half the local memory)
     FFT_LDS_ROW, FFT_LDS_SLOT  values of local memory in 128 bytes (0: no padding) and values
                            a transform's slot spans (see FFT_LDS_AT)
     FFT_TWIDDLE            1: multiply output e of a transform with inner index i by W_T^(i e)
                            (the twiddle between the passes of a multi-pass FFT, fused into the
                            store; T = pass_tw_n, dir gives the sign; i e < T in every pass the
                            host makes: i < T / S and e < S for a pass of S points, the
                            transform's size, FFT_N + 1 for Rader's, Bluestein's N for his)
     FFT_TWIDDLE_DOUBLE     1: that twiddle is computed in double (tables and product) and
                            rounded once to real_t (float data on a device with fp64)
     FFT_BATCH_FAST         1: the launch's transforms have a fastest level of batch (fast,
                            dist_fast; see below); 0: fast is 1
     FFT_STAGED_IO          1: a side whose group of transforms is one tile of memory (their
                            inner indices consecutive in one outer index, or two where an
                            outer index holds at least a group; no fastest level) is
                            read or written by consecutive work-items through local memory: as
                            rows where it is one run (stride 1, distance FFT_N: a packed batch),
                            as columns where the transforms are adjacent (distance 1: the
                            work-items take the group's adjacent values of one element, then of
                            the next; groups of several transforms). Other sides load and store
                            directly; the tests are of the arguments, the same for every group.
                            For programs whose work-items would each read a piece of a
                            transform smaller than a memory sector per instruction (one
                            work-item a transform: element e of transform t at t N + e; a
                            column read a row apart). A c2c program without Rader's steps, real
                            steps, Bluestein's whole DFT or the split exchange (a pass twiddle,
                            and the chirp of Bluestein's storing pass, are applied as the
                            outputs go to local memory; his loading pass's chirp as the inputs
                            come out of it; elements past his N are neither read nor written).
     FFT_INTERLEAVED        1: work-item slot + FFT_TPG t is item t of the group's transform
                            slot (else t + FFT_TPT slot), so that a warp's direct loads and
                            stores of a column shape take its adjacent transforms' values of
                            one element at once (FftShape::interleaves)
     FFT_BLUESTEIN_N        N > 0: the program does steps of Bluestein's algorithm for a DFT of
                            N points (fft_chirp.h), chosen by:
     FFT_CONV_LOAD          1: elements j < N are loaded times the chirp, zeros past N
     FFT_CONV_MIDDLE        1: forward FFT, product with the chirp kernel's spectrum, the
                            stage layout back to the load layout through local memory,
                            backward FFT (in place of the one FFT)
     FFT_CONV_STORE         1: only outputs j < N are stored, times the chirp and scale
     FFT_CONV_E_STEP, FFT_CONV_I_STEP   the tables' index j of element e of the transform
                            with inner index i: j = e E_STEP + i I_STEP
                            All three with steps 1, 0: the whole DFT in this kernel (FFT_N being
                            the convolution's length M), one read and one write of global
                            memory. One each: the passes of a convolution of M = M1 M2 or
                            M1 M2 M3 (steps M / M1, 1 for the chirps, M / M2 or M / M3, 1 for
                            the spectrum; see src/gpu/device_fft_bluestein.cpp). The FFTs' directions are then
                            fixed (forward before the spectrum, backward after); dir gives the
                            chirps' and the spectrum's, and a pass twiddle takes the sign of
                            the last FFT.
     FFT_RADER              P > 0: the program is the DFT of the prime P = FFT_N + 1 by Rader's
                            algorithm (src/gpu/device_fft_rader.hpp): x[j], j < P, read in natural
                            order into local memory, a[q] = x[g^q] taken from there (chirp holds
                            the 32-bit g^q mod P), forward FFT of FFT_N, times the spectrum ((-1)^k
                            times it backward) with x[0] added to the DC term, the stage layout
                            back to the load layout, backward FFT; X[g^-r] = output r and X[0] =
                            x[0] + the forward FFT's DC term put in local memory in natural order
                            and stored from there (turned by the pass twiddle of output j with
                            FFT_TWIDDLE). A whole DFT (no Bluestein), of complex data or a whole
                            real transform, or a pass of a multi-pass FFT (a real one's first or
                            last too, but an even r2c's split pass).
     FFT_REAL_N             N > 0: a real transform of N points in this one kernel (no pass
                            twiddle; with Bluestein, the whole DFT): the transform's complex
                            sequence is read from the reals and its outputs stored as reals or as
                            the N/2 + 1 values of the half spectrum, as FFT_REAL_R2C says (1: r2c,
                            forward; 0: c2r, backward). The real side's base, stride and
                            distances count reals. Even N = 2H (FFT_N, or FFT_BLUESTEIN_N, = H):
                            the reals x[2j], x[2j+1] are z[j], j < H; with Z the DFT of z and
                            W = e^{-2 pi i / N},
                              r2c  X[k] = (Z[k] + conj Z[H-k]) / 2 - i W^k (Z[k] - conj Z[H-k]) / 2,
                                   k <= H (Z[H] = Z[0]), through local memory (fft_store_split)
                              c2r  Z[k] = (X[k] + conj X[H-k]) + i W^-k (X[k] - conj X[H-k]), k < H,
                                   in the load; z = the backward DFT of Z holds x[2j] + i x[2j+1]
                            (real_tw holds W^k, k <= H). Odd N (FFT_N, or FFT_BLUESTEIN_N, = N):
                            r2c reads x[j] + 0i and stores k <= N/2; c2r reads X[k] for k <= N/2,
                            conj X[N-k] above, and stores the real parts. c2r takes the imaginary
                            parts of X[0] (and X[H]) as zero, as numpy.fft.irfft does.
     FFT_REAL_PASS_STEP     S > 0: this kernel is instead a pass of a multi-pass complex FFT of
                            H points (odd N: of N; the pass may be Rader's or Bluestein's whole
                            DFT), or Bluestein's loading or storing pass of a convolution of that
                            size (FFT_CONV_E_STEP = S, FFT_CONV_I_STEP = 1), whose element e of
                            the transform with inner index i is index k = i + e S of the
                            sequence, k standing for e above;
                            the pass's addresses on the real side count its elements (reals, or
                            values of the half spectrum), X[k'] read from the transform's origin
                            (base - i dist_inner) + k' dist_inner; even N's reals x[2j], x[2j+1]
                            at origin + 2j dist_inner and one dist_inner on (FFT_PAIR_BASE).
     FFT_REAL_PASS_LAST     0: the first pass, whose load reads the real side (its store and
                            twiddle are a pass's): odd r2c widens the reals, odd c2r rebuilds
                            the Hermitian spectrum, even r2c pairs the reals, even c2r merges
                            X[k] with X[H-k]. 1: the last (no twiddle), whose store writes it:
                            odd r2c stores k <= N/2, odd c2r the real parts, even c2r the pairs
                            of reals, even r2c splits Z[k] with Z[H-k] (k < H), an element of
                            transform (h - i) mod S where H = C S + h (a plan's last pass: h = 0,
                            partner S - i; Bluestein's storing pass: any h; see FFT_SPLIT_MIRROR). Each outer
                            index's partners are then in adjacent slots of one group (FFT_TPG
                            even; the launch's inner is S rounded up to even, slots 2p and 2p + 1
                            holding a pair, slot 1 nothing for an odd S where no odd pairing
                            applies; fft_split_pass_index; with FFT_BATCH_FAST the pairs of
                            adjacent batch entries are adjacent: t = ((o inner/2 + q/2) fast + f) 2
                            + q % 2), so the store reads its partner's outputs from local memory.
                            Transform 0 stores X[H] too, at sequence index H.
   Stage s (after Govindaraju et al., "High performance discrete Fourier transforms on graphics
   processors", 2008): butterfly j < N/R takes x[j + r N/R] (r < R), turns it by W_{NS R}^{r k}
   (k = j mod NS), does a DFT of R and puts output r at (j / NS) NS R + k + r NS. Work-item t
   of a transform does butterflies j = t + b FFT_TPT. Twiddles come from a table the host
   computes in long double and rounds once to real_t: entry (r-1) NS + k of a stage holds
   (cos, sin) of 2 pi r k / (NS R), so a warp's lanes (consecutive k) read adjacent entries;
   dir = -1 (forward) or +1 (backward) gives the sign.
   Transform t < count (below 2^31 in a launch) is (o, i, f) = (t / (inner fast),
   t / fast % inner, t % fast) (an even r2c's last pass orders its slots otherwise: see
   FFT_REAL_PASS_LAST); its element e
   is at offset + o * dist_outer + i * dist_inner + f * dist_fast + e * stride (elements), in and
   out alike: one level of batch (inner = count, fast = 1) for plain batches, two or three for
   the passes of a multi-pass FFT, whose transposes are these addresses. i is the index the
   pass twiddle, Bluestein's tables and a real pass read; f, where there is one, is a batch of
   entries adjacent in memory, so a group's adjacent transforms read adjacent addresses.
   The inter-pass twiddle W_T^m (T = pass_tw_n) is A[m % split] * B[m / split], two tables of
   about sqrt(T) entries (cos, sin of 2 pi m / T) computed in long double on the host, one after
   the other in pass_tw. */
#ifndef FFT_N
#error "fft_c2c.cl needs -DFFT_N (and the other FFT_* constants)"
#endif

#ifndef FFT_TWIDDLE
#define FFT_TWIDDLE 0
#endif
#ifndef FFT_TWIDDLE_DOUBLE
#define FFT_TWIDDLE_DOUBLE 0
#endif
#ifndef FFT_BLUESTEIN_N
#define FFT_BLUESTEIN_N 0
#define FFT_CONV_LOAD 0
#define FFT_CONV_MIDDLE 0
#define FFT_CONV_STORE 0
#define FFT_CONV_E_STEP 1u
#define FFT_CONV_I_STEP 0u
#endif
/* Bluestein's whole DFT: its outputs are the DFT's, so a pass twiddle turns them as any pass's
   (by the plan's direction); his storing pass of a convolution is a last pass. */
#define FFT_CONV_WHOLE (FFT_CONV_LOAD && FFT_CONV_MIDDLE && FFT_CONV_STORE)
#if FFT_CONV_STORE && FFT_TWIDDLE && !FFT_CONV_WHOLE
#error "fft_c2c.cl: Bluestein's storing pass of a convolution has no pass twiddle"
#endif

#ifndef FFT_BATCH_FAST
#define FFT_BATCH_FAST 0
#endif

#ifndef FFT_RADER
#define FFT_RADER 0u
#endif
#if FFT_RADER > 0 && (FFT_RADER != FFT_N + 1 || FFT_BLUESTEIN_N > 0)
#error "fft_c2c.cl: Rader's DFT of FFT_RADER = FFT_N + 1 points is a whole DFT"
#endif
/* Values of local memory a transform has: Rader's P outputs in natural order, one more than its FFT */
#define FFT_LDS_N (FFT_RADER > 0 ? FFT_RADER : (FFT_N > 1 ? FFT_N : 1))
#ifndef FFT_LDS_ROW
#define FFT_LDS_ROW 0u
#define FFT_LDS_SLOT FFT_LDS_N
#endif

#ifndef FFT_STAGED_IO
#define FFT_STAGED_IO 0
#endif
#ifndef FFT_REAL_N
#define FFT_REAL_N 0u
#define FFT_REAL_R2C 0
#endif
#ifndef FFT_REAL_PASS_STEP
#define FFT_REAL_PASS_STEP 0u
#define FFT_REAL_PASS_LAST 0
#endif
#define FFT_REAL_EVEN (FFT_REAL_N > 0 && FFT_REAL_N % 2 == 0)
#define FFT_REAL_H (FFT_REAL_N / 2)
/* The whole real transform in this kernel (not a pass's merge) */
#define FFT_REAL_WHOLE (FFT_REAL_N > 0 && FFT_REAL_PASS_STEP == 0)
#if FFT_REAL_WHOLE && (FFT_TWIDDLE || FFT_STAGES == 0 || (FFT_BLUESTEIN_N > 0 && !(FFT_CONV_LOAD && FFT_CONV_STORE)))
#error "fft_c2c.cl: a real transform is a whole DFT in one kernel of at least two points"
#endif
/* The load reads the real side; the store writes it */
#define FFT_REAL_LOADS (FFT_REAL_N > 0 && !(FFT_REAL_PASS_STEP > 0 && FFT_REAL_PASS_LAST))
#define FFT_REAL_STORES (FFT_REAL_N > 0 && !(FFT_REAL_PASS_STEP > 0 && !FFT_REAL_PASS_LAST))
/* The store of an even r2c splits the spectrum: the whole transform's (fft_store_split), or
   its last pass's (fft_store_split_pass) */
#define FFT_REAL_SPLIT_STORE (FFT_REAL_STORES && FFT_REAL_R2C && FFT_REAL_EVEN)
#define FFT_REAL_SPLIT_PASS (FFT_REAL_SPLIT_STORE && FFT_REAL_PASS_STEP > 0)
#if FFT_REAL_SPLIT_PASS && (FFT_RADER > 0 || FFT_CONV_WHOLE)
#error "fft_c2c.cl: Rader's or Bluestein's whole DFT does not split an r2c's spectrum in a pass"
#endif
#if FFT_REAL_PASS_STEP > 0 && FFT_BLUESTEIN_N > 0 && !FFT_CONV_WHOLE &&                                       \
    (FFT_CONV_MIDDLE || FFT_CONV_LOAD == FFT_REAL_PASS_LAST || FFT_CONV_STORE != FFT_REAL_PASS_LAST ||          \
     FFT_CONV_E_STEP != FFT_REAL_PASS_STEP || FFT_CONV_I_STEP != 1u)
#error "fft_c2c.cl: a real transform's passes of a Bluestein convolution are the loading first and the storing last, of its step"
#endif
#if FFT_REAL_PASS_STEP > 0 && FFT_REAL_PASS_LAST && FFT_TWIDDLE
#error "fft_c2c.cl: a last pass has no pass twiddle"
#endif
#if FFT_REAL_SPLIT_PASS && FFT_TPG % 2 != 0
#error "fft_c2c.cl: the split pass has pairs of transforms in a group"
#endif
/* In place, an item could store an element another item has yet to load. A barrier lies
   between every load and store (the stage exchanges, Rader's and Bluestein's middle steps, the
   r2c's split) but in a program of one stage with a plain store, which therefore runs one item
   per transform (DeviceFft::shape gives a lone stage's one butterfly to one item). */
#if FFT_STAGES == 1 && FFT_TPT > 1 && !FFT_RADER && !FFT_CONV_MIDDLE && !FFT_REAL_SPLIT_STORE
#error "fft_c2c.cl: a program of one stage runs one work-item per transform (no barrier separates its loads from its stores)"
#endif

/* Index of element e of the transform with inner index i in Bluestein's tables. */
#define FFT_CONV_INDEX(e, i) ((u64)(e) * FFT_CONV_E_STEP + (u64)(i) * FFT_CONV_I_STEP)
#if FFT_TWIDDLE_DOUBLE
#if !RIPPLE_IS_CUDA
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
typedef double fft_tw_real_t;
typedef double2 fft_tw_t;
#else
typedef real_t fft_tw_real_t;
typedef complex_t fft_tw_t;
#endif

#define FFT_BUTTERFLIES(R) (FFT_N / (R))
#define FFT_PER_ITEM(R) ((FFT_BUTTERFLIES(R) + FFT_TPT - 1) / FFT_TPT)

/* The two walks over a work-item's values v (butterflies j = t + b FFT_TPT) that every load,
   exchange and store takes, the body (the macro's last arguments) run with s, the value's slot
   in v, and e, its element of the transform. Stage layout of radix R after NS: the outputs of the butterflies the stage has. */
#define FFT_FOR_EACH_OUTPUT(R, NS, t, e, s, ...)                              \
  _Pragma("unroll") for (int fft_b_ = 0; fft_b_ < FFT_PER_ITEM(R); ++fft_b_) { \
    const u32 fft_j_ = (t) + (u32)fft_b_ * FFT_TPT;                            \
    if (fft_j_ < FFT_BUTTERFLIES(R)) {                                         \
      _Pragma("unroll") for (int fft_r_ = 0; fft_r_ < (R); ++fft_r_) {         \
        const u32 e = fft_out_index(fft_j_, fft_r_, R, NS);                    \
        const int s = fft_b_ * (R) + fft_r_;                                   \
        __VA_ARGS__                                                            \
      }                                                                        \
    }                                                                          \
  }
/* Load layout of radix R: element j + r N/R into value r of butterfly j; live is 0 for the
   slots past the stage's butterflies (every slot is visited, so a load can zero them). */
#define FFT_FOR_EACH_INPUT(R, t, e, s, live, ...)                             \
  _Pragma("unroll") for (int fft_b_ = 0; fft_b_ < FFT_PER_ITEM(R); ++fft_b_) { \
    const u32 fft_j_ = (t) + (u32)fft_b_ * FFT_TPT;                            \
    const int live = fft_j_ < FFT_BUTTERFLIES(R);                              \
    _Pragma("unroll") for (int fft_r_ = 0; fft_r_ < (R); ++fft_r_) {           \
      const u32 e = fft_j_ + (u32)fft_r_ * FFT_BUTTERFLIES(R);                 \
      const int s = fft_b_ * (R) + fft_r_;                                     \
      __VA_ARGS__                                                              \
    }                                                                          \
  }

/* Local memory holds whole values, or under the split exchange one real component of each
   (part 0: re, 1: im) per round: fft_lds_part is what a value puts there, FFT_LDS_TAKE sets the
   value from what it takes back (only the round's component, so the other is never read
   before it is written). */
#if FFT_SPLIT
#define FFT_LDS_TYPE real_t
DEVICE_FN real_t fft_lds_part(complex_t z, int part) { return part ? z.y : z.x; }
#define FFT_LDS_TAKE(value, taken, part) \
  do {                                   \
    if (part)                            \
      (value).y = (taken);               \
    else                                 \
      (value).x = (taken);               \
  } while (0)
#define FFT_LDS_ROUNDS 2
#else
#define FFT_LDS_TYPE complex_t
DEVICE_FN complex_t fft_lds_part(complex_t z, int part) {
  (void)part;
  return z;
}
#define FFT_LDS_TAKE(value, taken, part) ((value) = (taken))
#define FFT_LDS_ROUNDS 1
#endif

/* Where local memory holds value e of the transform in slot q: q FFT_LDS_SLOT + FFT_LDS_AT(e).
   With FFT_LDS_ROW > 0 (the values in 128 bytes: the 32 four-byte banks of a GPU's local
   memory) a value is left out after each FFT_LDS_ROW and a slot spans an odd number of values
   (a staged column tile's, and an interleaved program's: 32 / FFT_TPG modulo FFT_LDS_ROW, so a
   warp's copy of the tile's rows, or its transforms' values, meet each bank equally; the host's
   FftShape::lds_slot), so that the values a warp's
   work-items store or load at once lie in different banks: a
   stage's outputs R apart (after the first stage, e = j R + r), and a tile's transforms
   (consecutive work-items' slots, or one element of adjacent slots). Without it a float store
   of 16 to 4096 points took 8.5-16 times the passes through the banks that it needs
   (tests/gpu/access_model). FFT_LDS_TILE(k) is value k of the group's block of transforms
   (rows: slot k / FFT_N, element k % FFT_N). */
#if FFT_LDS_ROW > 0
#define FFT_LDS_AT(e) ((e) + (e) / FFT_LDS_ROW)
#define FFT_LDS_TILE(k) ((k) / FFT_N * FFT_LDS_SLOT + FFT_LDS_AT((k) % FFT_N))
#else
#define FFT_LDS_AT(e) (e)
#define FFT_LDS_TILE(k) (k)
#endif

/* Twiddles and the DFT of one stage on the work-item's values (stage layout of radix R). */
DEVICE_FN void fft_stage(complex_t* v, u32 t, const int R, const u32 NS, GLOBAL const complex_t* tw, real_t dir) {
#pragma unroll
  for (int b = 0; b < FFT_PER_ITEM(R); ++b) {
    const u32 j = t + (u32)b * FFT_TPT;
    if (j < FFT_BUTTERFLIES(R)) {
      if (NS > 1) {
        const u32 k = j % NS;
#pragma unroll
        for (int r = 1; r < R; ++r) {
          const complex_t w = tw[(u32)(r - 1) * NS + k];
          v[b * R + r] = cmul(v[b * R + r], cmake(w.x, dir * w.y));
        }
      }
      fft_dft(v + b * R, R, dir);
    }
  }
}

/* Output position of value r of butterfly j in a stage of radix R after NS. */
DEVICE_FN u32 fft_out_index(u32 j, u32 r, const int R, const u32 NS) { return (j / NS) * NS * R + j % NS + r * NS; }

#if FFT_REAL_EVEN
/* The real index of x[2j], z[j]'s real part, for element 0 of the transform with inner index
   i; element e's is 2 e stride on, x[2j+1] FFT_PAIR_NEXT on. One kernel: j = e, the line's
   reals at base + j' stride. A pass: j = i + e S, the line's reals at its origin (base - i
   dist_inner) + j' dist_inner, so the pass's stride is S dist_inner. */
#if FFT_REAL_PASS_STEP
#define FFT_PAIR_NEXT(stride, dist_inner) (dist_inner)
#define FFT_PAIR_BASE(base, dist_inner, i) ((base) + (i64)(i) * (dist_inner))
#else
#define FFT_PAIR_NEXT(stride, dist_inner) (stride)
#define FFT_PAIR_BASE(base, dist_inner, i) (base)
#endif
#endif

/* Element e of the complex sequence the transform takes, from the input at base + e * stride
   (elements of the input's type; FFT_REAL_N: see the header). */
DEVICE_FN complex_t fft_element(GLOBAL const complex_t* in, i64 base, i64 stride, u32 e, GLOBAL const complex_t* real_tw,
                                u64 inner_index, i64 dist_inner) {
  (void)real_tw;
  (void)inner_index;
  (void)dist_inner;
#if !FFT_REAL_LOADS
  return in[base + (i64)e * stride];
#elif FFT_REAL_R2C && FFT_REAL_EVEN
  /* One complex load where the pairs are contiguous from an even real. */
  const i64 first = FFT_PAIR_BASE(base, dist_inner, inner_index), next = FFT_PAIR_NEXT(stride, dist_inner);
  if (next == 1 && (first & 1) == 0) return in[first / 2 + (i64)e * stride];
  GLOBAL const real_t* x = (GLOBAL const real_t*)in;
  const i64 at = first + (i64)(2 * e) * stride;
  return cmake(x[at], x[at + next]);
#elif FFT_REAL_R2C
  return cmake(((GLOBAL const real_t*)in)[base + (i64)e * stride], (real_t)0);
#else
  /* c2r: spectrum index k of the element, X[k'] at origin + k' step */
#if FFT_REAL_PASS_STEP
  const u64 k = inner_index + (u64)e * FFT_REAL_PASS_STEP;
  const i64 origin = base - (i64)inner_index * dist_inner, step = dist_inner;
#else
  const u64 k = e;
  const i64 origin = base, step = stride;
#endif
#if FFT_REAL_EVEN
  complex_t xk = in[base + (i64)e * stride], xh = in[origin + ((i64)FFT_REAL_H - (i64)k) * step];
  if (k == 0) {
    xk.y = (real_t)0;
    xh.y = (real_t)0;
  }
  const complex_t xc = cconj(xh);
  const complex_t s = cadd(xk, xc), d = cmul(cconj(real_tw[k]), csub(xk, xc));
  return cmake(s.x - d.y, s.y + d.x); /* s + i d */
#else
  complex_t v = k <= FFT_REAL_N / 2 ? in[base + (i64)e * stride] : cconj(in[origin + ((i64)FFT_REAL_N - (i64)k) * step]);
  if (k == 0) v.y = (real_t)0;
  return v;
#endif
#endif
}

/* Output e of the transform with inner index i, y, to base + e * stride of the output (elements
   of its type; even r2c stores through fft_store_split or fft_store_split_pass). */
DEVICE_FN void fft_put(GLOBAL complex_t* out, i64 base, i64 stride, i64 dist_inner, u32 e, u64 i, complex_t y) {
  (void)i;
  (void)dist_inner;
#if !FFT_REAL_STORES
  out[base + (i64)e * stride] = y;
#elif FFT_REAL_R2C
  /* odd N: the half spectrum, k <= N/2 */
#if FFT_REAL_PASS_STEP
  const u64 k = i + (u64)e * FFT_REAL_PASS_STEP;
#else
  const u64 k = e;
#endif
  if (k <= FFT_REAL_N / 2) out[base + (i64)e * stride] = y;
#elif FFT_REAL_EVEN
  const i64 first = FFT_PAIR_BASE(base, dist_inner, i), next = FFT_PAIR_NEXT(stride, dist_inner);
  if (next == 1 && (first & 1) == 0) {
    out[first / 2 + (i64)e * stride] = y;
    return;
  }
  GLOBAL real_t* x = (GLOBAL real_t*)out;
  const i64 at = first + (i64)(2 * e) * stride;
  x[at] = y.x;
  x[at + next] = y.y;
#else
  ((GLOBAL real_t*)out)[base + (i64)e * stride] = y.x;
#endif
}

/* Element e = j + r N/R of the transform into value r of butterfly j; with FFT_CONV_LOAD the
   elements whose table index is below FFT_BLUESTEIN_N times the chirp, zeros for the others. */
DEVICE_FN void fft_load_global(complex_t* v, u32 t, const int R, GLOBAL const complex_t* in, i64 base, i64 stride,
                               i64 dist_inner, int valid, u64 inner_index, GLOBAL const complex_t* chirp, real_t dir,
                               GLOBAL const complex_t* real_tw) {
  (void)inner_index;
  (void)chirp;
  (void)dir;
#if FFT_CONV_LOAD
  FFT_FOR_EACH_INPUT(R, t, e, s, live, {
    const u64 c = FFT_CONV_INDEX(e, inner_index);
    v[s] = (valid && live && c < FFT_BLUESTEIN_N)
               ? cmul(fft_element(in, base, stride, e, real_tw, inner_index, dist_inner), fft_chirp(chirp, c, dir))
               : cmake((real_t)0, (real_t)0);
  })
#else
  FFT_FOR_EACH_INPUT(R, t, e, s, live,
                     v[s] = (valid && live) ? fft_element(in, base, stride, e, real_tw, inner_index, dist_inner)
                                            : cmake((real_t)0, (real_t)0);)
#endif
}

/* W_T^(dir m) * scale for m < T, from the two tables (see the header). Below 2^32 points (a
   uniform branch) the split of m is a 32-bit division, some 20 instructions on a GPU against a
   64-bit division's subroutine of several times that, once per output element. */
DEVICE_FN complex_t fft_pass_twiddle(GLOBAL const fft_tw_t* tw, u64 m, u64 n, u32 split, real_t dir, real_t scale) {
  u64 hi;
  /* (n >> 32) == 0, not n <= 0xffffffffull: the same test, but Oclgrind (the race check of
     tests/gpu) cannot create a kernel whose unoptimized code compares with that constant. */
  if ((n >> 32) == 0)
    hi = (u32)m / split;
  else
    hi = m / split;
  const fft_tw_t a = tw[m - hi * split], b = tw[split + hi];
  const fft_tw_real_t re = a.x * b.x - a.y * b.y, im = a.x * b.y + a.y * b.x;
  return cmake((real_t)re * scale, (real_t)im * (dir * scale));
}

/* Output e = fft_out_index(j, r) of the transform; with FFT_TWIDDLE turned by W_T^(tw_dir i e);
   with FFT_CONV_STORE only those whose table index is below FFT_BLUESTEIN_N, times the chirp
   (and, of a whole DFT, then turned by the pass twiddle). */
DEVICE_FN void fft_store_global(const complex_t* v, u32 t, const int R, const u32 NS, GLOBAL complex_t* out, i64 base,
                                i64 stride, i64 dist_inner, real_t scale, int valid, GLOBAL const fft_tw_t* pass_tw,
                                u64 pass_tw_n, u32 pass_tw_split, u64 inner_index, real_t tw_dir,
                                GLOBAL const complex_t* chirp, real_t dir) {
  (void)chirp;
  (void)dir;
  (void)tw_dir;
#if FFT_CONV_STORE
  FFT_FOR_EACH_OUTPUT(R, NS, t, e, s, {
    const u64 c = FFT_CONV_INDEX(e, inner_index);
    if (valid && c < FFT_BLUESTEIN_N) {
      const complex_t y = cmul(v[s], fft_chirp(chirp, c, dir));
#if FFT_TWIDDLE /* the whole DFT's output e (c = e) */
      const complex_t w = fft_pass_twiddle(pass_tw, inner_index * e, pass_tw_n, pass_tw_split, tw_dir, scale);
      fft_put(out, base, stride, dist_inner, e, inner_index, cmul(y, w));
#else
      fft_put(out, base, stride, dist_inner, e, inner_index, cscale(y, scale));
#endif
    }
  })
#elif FFT_TWIDDLE
  FFT_FOR_EACH_OUTPUT(R, NS, t, e, s, {
    if (valid) {
      const complex_t w = fft_pass_twiddle(pass_tw, inner_index * e, pass_tw_n, pass_tw_split, tw_dir, scale);
      fft_put(out, base, stride, dist_inner, e, inner_index, cmul(v[s], w));
    }
  })
#else
  FFT_FOR_EACH_OUTPUT(R, NS, t, e, s,
                      if (valid) fft_put(out, base, stride, dist_inner, e, inner_index, cscale(v[s], scale));)
#endif
}

/* All values from stage layout (R, NS) to the load layout of the next stage's radix R2. The
   split exchange moves the real parts, then the imaginary parts, in place: each round writes
   and reads one field of every value, so the other still holds the old layout's. */
DEVICE_FN void fft_exchange(complex_t* v, u32 t, const int R, const u32 NS, const int R2, LOCAL_PTR FFT_LDS_TYPE* lds) {
#pragma unroll
  for (int part = 0; part < FFT_LDS_ROUNDS; ++part) {
    FFT_FOR_EACH_OUTPUT(R, NS, t, e, s, lds[FFT_LDS_AT(e)] = fft_lds_part(v[s], part);)
    BARRIER();
    FFT_FOR_EACH_INPUT(R2, t, e, s, live, if (live) FFT_LDS_TAKE(v[s], lds[FFT_LDS_AT(e)], part);)
    BARRIER();
  }
}

#if FFT_STAGES > 0
/* Every stage, from the load layout of the first radix to the stage layout of the last. */
DEVICE_FN void fft_transform(complex_t* v, u32 t, GLOBAL const complex_t* tw, LOCAL_PTR FFT_LDS_TYPE* lds, real_t dir) {
  (void)lds;
  fft_stage(v, t, FFT_R0, FFT_NS0, tw + FFT_TW0, dir);
#define FFT_NEXT(P, S)                                      \
  fft_exchange(v, t, FFT_R##P, FFT_NS##P, FFT_R##S, lds); \
  fft_stage(v, t, FFT_R##S, FFT_NS##S, tw + FFT_TW##S, dir);
#if FFT_STAGES > 1
  FFT_NEXT(0, 1)
#endif
#if FFT_STAGES > 2
  FFT_NEXT(1, 2)
#endif
#if FFT_STAGES > 3
  FFT_NEXT(2, 3)
#endif
#if FFT_STAGES > 4
  FFT_NEXT(3, 4)
#endif
#if FFT_STAGES > 5
  FFT_NEXT(4, 5)
#endif
#if FFT_STAGES > 6
  FFT_NEXT(5, 6)
#endif
#if FFT_STAGES > 7
  FFT_NEXT(6, 7)
#endif
#if FFT_STAGES > 8
  FFT_NEXT(7, 8)
#endif
#if FFT_STAGES > 9
  FFT_NEXT(8, 9)
#endif
#if FFT_STAGES > 10
  FFT_NEXT(9, 10)
#endif
#if FFT_STAGES > 11
  FFT_NEXT(10, 11)
#endif
#if FFT_STAGES > 12
#error "fft_c2c.cl handles at most 12 stages"
#endif
#undef FFT_NEXT
}
#endif

#if FFT_CONV_MIDDLE
/* Bluestein's middle step on the forward transform's outputs (stage layout of the last radix):
   output e times the chirp kernel's spectrum at the table index of e. */
DEVICE_FN void fft_multiply_spectrum(complex_t* v, u32 t, GLOBAL const complex_t* spectrum, u64 inner_index,
                                     real_t dir) {
  FFT_FOR_EACH_OUTPUT(FFT_LAST_R, FFT_LAST_NS, t, e, s,
                      v[s] = cmul(v[s], fft_chirp_spectrum(spectrum, FFT_CONV_INDEX(e, inner_index), dir));)
}
#endif

#if FFT_RADER
/* Elements j = t + k FFT_TPT < P of the natural order a work-item reads and writes. */
#define FFT_RADER_PER_ITEM ((FFT_RADER + FFT_TPT - 1) / FFT_TPT)

/* Rader's load: x[j], j < P, read in natural order (FFT_REAL_N: see fft_element) into local
   memory, a[q] = x[g^q] from there into the load layout of the first radix (perm_table holds
   g^q mod P); x[0] to *x0 (work-item 0's is the one read). Under the split exchange each round
   reads the elements again (from cache) rather than hold them in registers. */
DEVICE_FN void fft_rader_load(complex_t* v, u32 t, GLOBAL const complex_t* in, i64 base, i64 stride, i64 dist_inner,
                              int valid, u64 inner_index, GLOBAL const complex_t* real_tw, LOCAL_PTR FFT_LDS_TYPE* lds,
                              GLOBAL const complex_t* perm_table, complex_t* x0) {
  GLOBAL const u32* perm = (GLOBAL const u32*)perm_table;
#pragma unroll
  for (int part = 0; part < FFT_LDS_ROUNDS; ++part) {
#pragma unroll
    for (int k = 0; k < FFT_RADER_PER_ITEM; ++k) {
      const u32 j = t + (u32)k * FFT_TPT;
      if (j < FFT_RADER) {
        const complex_t x = valid ? fft_element(in, base, stride, j, real_tw, inner_index, dist_inner)
                                  : cmake((real_t)0, (real_t)0);
        if (k == 0) *x0 = x;
        lds[FFT_LDS_AT(j)] = fft_lds_part(x, part);
      }
    }
    BARRIER();
    /* The table is read for every slot at an index within it (an idle slot's e may be FFT_N):
       PoCL ran the guarded read of idle slots anyway, past the table, and the value read then
       indexed local memory (a crash at P = 113, whose first radix-16 stage has 7 butterflies
       on 8 work-items). */
    FFT_FOR_EACH_INPUT(FFT_R0, t, e, s, live, {
      const u32 at = perm[e % FFT_N];
      if (live)
        FFT_LDS_TAKE(v[s], lds[FFT_LDS_AT(at)], part);
      else
        v[s] = cmake((real_t)0, (real_t)0);
    })
    BARRIER();
  }
}

/* Rader's middle step on the forward FFT's outputs A[e] (stage layout of the last radix): each
   times the spectrum, backward (dir > 0) times (-1)^e; x[0] added to A[0]'s product so that the
   backward FFT adds it to every output. Work-item 0, which holds A[0], turns *x0 into X[0] =
   x[0] + A[0]. */
DEVICE_FN void fft_rader_multiply(complex_t* v, u32 t, GLOBAL const complex_t* spectrum, real_t dir, complex_t* x0) {
  FFT_FOR_EACH_OUTPUT(FFT_LAST_R, FFT_LAST_NS, t, e, s, {
    const complex_t w = spectrum[e];
    const real_t sign = (dir > (real_t)0 && (e & 1u)) ? (real_t)-1 : (real_t)1;
    const complex_t a = v[s];
    v[s] = cmul(a, cmake(sign * w.x, sign * w.y));
    if (e == 0) {
      v[s] = cadd(v[s], *x0);
      *x0 = cadd(*x0, a);
    }
  })
}
#endif

#if FFT_REAL_SPLIT_STORE || FFT_RADER
/* One real component (0: re, 1: im), or both, of the outputs v of the transform with inner
   index i (the last stage's layout; Bluestein's times the chirp) to local memory in natural
   order (sequence index >= H: past Bluestein's outputs, never read). Rader's output e is
   X[g^-e] (chirp holds g^q mod P; g^-e = g^(FFT_N - e)), and X[0] = x0 comes from work-item 0. */
DEVICE_FN void fft_outputs_to_lds(const complex_t* v, u32 t, LOCAL_PTR FFT_LDS_TYPE* lds, int part, u64 i,
                                  GLOBAL const complex_t* chirp, real_t dir, complex_t x0) {
  (void)chirp;
  (void)dir;
  (void)i;
  (void)x0;
#if FFT_RADER
  GLOBAL const u32* perm = (GLOBAL const u32*)chirp;
  FFT_FOR_EACH_OUTPUT(FFT_LAST_R, FFT_LAST_NS, t, e, s,
                      lds[FFT_LDS_AT(perm[(FFT_N - e) % FFT_N])] = fft_lds_part(v[s], part);)
  if (t == 0) lds[FFT_LDS_AT(0)] = fft_lds_part(x0, part);
#elif FFT_CONV_STORE
  FFT_FOR_EACH_OUTPUT(FFT_LAST_R, FFT_LAST_NS, t, e, s, {
    const u64 c = FFT_CONV_INDEX(e, i);
    if (c < FFT_REAL_H) lds[FFT_LDS_AT(e)] = fft_lds_part(cmul(v[s], fft_chirp(chirp, c, dir)), part);
  })
#else
  FFT_FOR_EACH_OUTPUT(FFT_LAST_R, FFT_LAST_NS, t, e, s,
                      if (e < FFT_REAL_H) lds[FFT_LDS_AT(e)] = fft_lds_part(v[s], part);)
#endif
}
#endif

#if FFT_RADER && !FFT_REAL_SPLIT_STORE
/* Rader's store: the outputs in natural order through local memory, X[j] (j < P) to base + j
   stride, coalesced (FFT_REAL_N: see fft_put), turned by W_T^(dir i j) with FFT_TWIDDLE. */
DEVICE_FN void fft_rader_store(const complex_t* v, u32 t, GLOBAL complex_t* out, i64 base, i64 stride, i64 dist_inner,
                               real_t scale, int valid, LOCAL_PTR FFT_LDS_TYPE* lds, u64 i,
                               GLOBAL const complex_t* perm_table, complex_t x0, GLOBAL const fft_tw_t* pass_tw,
                               u64 pass_tw_n, u32 pass_tw_split, real_t dir) {
  (void)pass_tw;
  (void)pass_tw_n;
  (void)pass_tw_split;
  (void)dir;
  complex_t y[FFT_RADER_PER_ITEM];
#pragma unroll
  for (int part = 0; part < FFT_LDS_ROUNDS; ++part) {
    if (part > 0) BARRIER();
    fft_outputs_to_lds(v, t, lds, part, i, perm_table, (real_t)0, x0);
    BARRIER();
#pragma unroll
    for (int k = 0; k < FFT_RADER_PER_ITEM; ++k) {
      const u32 j = t + (u32)k * FFT_TPT;
      if (j < FFT_RADER) FFT_LDS_TAKE(y[k], lds[FFT_LDS_AT(j)], part);
    }
  }
  if (!valid) return;
#pragma unroll
  for (int k = 0; k < FFT_RADER_PER_ITEM; ++k) {
    const u32 j = t + (u32)k * FFT_TPT;
    if (j >= FFT_RADER) continue;
#if FFT_TWIDDLE
    fft_put(out, base, stride, dist_inner, j, i,
            cmul(y[k], fft_pass_twiddle(pass_tw, i * j, pass_tw_n, pass_tw_split, dir, scale)));
#else
    fft_put(out, base, stride, dist_inner, j, i, cscale(y[k], scale));
#endif
  }
}
#endif

#if FFT_REAL_SPLIT_STORE
/* X[k] = ((Z[k] + conj Z[H-k]) - i W^k (Z[k] - conj Z[H-k])) * scale / 2 to out[at]. */
DEVICE_FN void fft_put_split(GLOBAL complex_t* out, i64 at, u64 k, complex_t z, complex_t zh,
                             GLOBAL const complex_t* real_tw, real_t scale) {
  const complex_t zc = cconj(zh);
  const complex_t s = cadd(z, zc), d = csub(z, zc);
  const complex_t x = cadd(s, cmul(real_tw[k], cmake(d.y, -d.x)));
  out[at] = cscale(x, (real_t)0.5 * scale);
}
#endif

#if FFT_REAL_SPLIT_STORE && !FFT_REAL_SPLIT_PASS
/* The pairs k <= H/2 a work-item finishes in fft_store_split. */
#define FFT_PAIRS_PER_ITEM ((FFT_REAL_H / 2 + FFT_TPT) / FFT_TPT)

/* One real component, or both, of Z[k] and Z[H-k] for the work-item's pairs, through local
   memory. */
DEVICE_FN void fft_gather_pairs(const complex_t* v, u32 t, LOCAL_PTR FFT_LDS_TYPE* lds, complex_t* zk, complex_t* zh,
                                int part, GLOBAL const complex_t* chirp, real_t dir, complex_t x0) {
  fft_outputs_to_lds(v, t, lds, part, 0, chirp, dir, x0);
  BARRIER();
#pragma unroll
  for (int p = 0; p < FFT_PAIRS_PER_ITEM; ++p) {
    const u32 k = t + (u32)p * FFT_TPT;
    if (k <= FFT_REAL_H / 2) {
      FFT_LDS_TAKE(zk[p], lds[FFT_LDS_AT(k % FFT_REAL_H)], part);
      FFT_LDS_TAKE(zh[p], lds[FFT_LDS_AT((FFT_REAL_H - k) % FFT_REAL_H)], part);
    }
  }
  BARRIER();
}

/* The half spectrum of an even-N r2c from the H-point transform's outputs v: work-item t
   finishes the pairs X[k], X[H-k] for k = t + p FFT_TPT <= H/2. */
DEVICE_FN void fft_store_split(const complex_t* v, u32 t, GLOBAL complex_t* out, i64 base, i64 stride, real_t scale,
                               int valid, GLOBAL const complex_t* real_tw, LOCAL_PTR FFT_LDS_TYPE* lds,
                               GLOBAL const complex_t* chirp, real_t dir, complex_t x0) {
  complex_t zk[FFT_PAIRS_PER_ITEM], zh[FFT_PAIRS_PER_ITEM];
#pragma unroll
  for (int part = 0; part < FFT_LDS_ROUNDS; ++part) fft_gather_pairs(v, t, lds, zk, zh, part, chirp, dir, x0);
  if (!valid) return;
#pragma unroll
  for (int p = 0; p < FFT_PAIRS_PER_ITEM; ++p) {
    const u32 k = t + (u32)p * FFT_TPT;
    if (k <= FFT_REAL_H / 2) {
      fft_put_split(out, base + (i64)k * stride, k, zk[p], zh[p], real_tw, scale);
      if (2 * k != FFT_REAL_H)
        fft_put_split(out, base + (i64)(FFT_REAL_H - k) * stride, FFT_REAL_H - k, zh[p], zk[p], real_tw, scale);
    }
  }
}
#endif

#if FFT_REAL_SPLIT_PASS
/* H = C S + h. Output k = i + e S of transform i needs Z[H - k], output e' of its partner
   transform (h - i) mod S: e' = C - e for i <= h, C - 1 - e above (a plan's last pass: h = 0,
   so transform 0 is its own partner and the others pair with S - i; Bluestein's storing pass:
   any h). Z[H] is Z[0]: k = 0 reads its own first output. */
#define FFT_SPLIT_C (FFT_REAL_H / FFT_REAL_PASS_STEP)
#define FFT_SPLIT_H (FFT_REAL_H % FFT_REAL_PASS_STEP)
/* The pairs are i = (O + u) mod S with partners u <-> -u mod S (u = 0, and S/2 for even S,
   their own partners), or u <-> -1 - u where h is odd and S even (none its own partner). */
#define FFT_SPLIT_ODD (FFT_SPLIT_H % 2 == 1 && FFT_REAL_PASS_STEP % 2 == 0)
#define FFT_SPLIT_ORIGIN                                                                                      \
  (FFT_SPLIT_ODD ? (FFT_SPLIT_H + 1) / 2                                                                     \
                 : (FFT_SPLIT_H % 2 == 0 ? FFT_SPLIT_H / 2 : (FFT_SPLIT_H + FFT_REAL_PASS_STEP) / 2))

/* The inner index of the transform in slot q of an outer index (see the header): partners in
   slots 2p and 2p + 1; FFT_REAL_PASS_STEP for none (slot 1 of an odd S without the odd pairing). */
DEVICE_FN u64 fft_split_pass_index(u64 q) {
  const u64 pair = q / 2;
  u64 u;
#if FFT_SPLIT_ODD
  u = q % 2 == 0 ? pair : FFT_REAL_PASS_STEP - 1 - pair;
#else
  if (q % 2 == 0)
    u = pair;
  else if (pair != 0)
    u = FFT_REAL_PASS_STEP - pair;
  else if (FFT_REAL_PASS_STEP % 2 == 0)
    u = FFT_REAL_PASS_STEP / 2;
  else
    return FFT_REAL_PASS_STEP;
#endif
  /* origin and u are below S: a subtraction, not a 64-bit division by an odd S (whose
     multiply-high sequence spilled a register in a 64-point f32 pass) */
  const u64 at = FFT_SPLIT_ORIGIN + u;
  return at >= FFT_REAL_PASS_STEP ? at - FFT_REAL_PASS_STEP : at;
}

/* Whether slot q of an outer index holds a transform that is its own partner. */
#define FFT_SPLIT_SELF(q) (!FFT_SPLIT_ODD && (q) < 2)
/* The partner's output e' for output e of transform i (k = i + e S > 0). */
#define FFT_SPLIT_MIRROR(e, i) ((i) <= FFT_SPLIT_H ? FFT_SPLIT_C - (e) : FFT_SPLIT_C - 1 - (e))
/* Z[H - k] for output e of transform i: part of it under the split exchange. */
#define FFT_SPLIT_SOURCE(e, i) ((i) == 0 && (e) == 0 ? lds[FFT_LDS_AT(0)] : partner[FFT_LDS_AT(FFT_SPLIT_MIRROR(e, i))])

/* X[k], k = i + e S < H, for the outputs v of transform i (and X[H] from Z[0], at sequence
   index H of the line), each with Z[H-k] read from local memory at `partner` (its own `lds`
   where it is its own partner) as the output is stored; under the split exchange the real
   parts come in a first round and wait in registers (one real a value, not a complex one).
   Bluestein's outputs are Z times the chirp. */
DEVICE_FN void fft_store_split_pass(const complex_t* v, u32 t, GLOBAL complex_t* out, i64 base, i64 stride,
                                    i64 dist_inner, real_t scale, int valid, GLOBAL const complex_t* real_tw,
                                    LOCAL_PTR FFT_LDS_TYPE* lds, LOCAL_PTR FFT_LDS_TYPE* partner, u64 i,
                                    GLOBAL const complex_t* chirp, real_t dir) {
#if FFT_SPLIT
  real_t partner_re[FFT_SLOTS];
  fft_outputs_to_lds(v, t, lds, 0, i, chirp, dir, cmake((real_t)0, (real_t)0));
  BARRIER();
  FFT_FOR_EACH_OUTPUT(FFT_LAST_R, FFT_LAST_NS, t, e, s, {
    if (i + (u64)e * FFT_REAL_PASS_STEP < FFT_REAL_H) partner_re[s] = FFT_SPLIT_SOURCE(e, i);
  })
  BARRIER();
  fft_outputs_to_lds(v, t, lds, 1, i, chirp, dir, cmake((real_t)0, (real_t)0));
#define FFT_SPLIT_PARTNER(e, s) cmake(partner_re[s], FFT_SPLIT_SOURCE(e, i))
#else
  fft_outputs_to_lds(v, t, lds, 0, i, chirp, dir, cmake((real_t)0, (real_t)0));
#define FFT_SPLIT_PARTNER(e, s) FFT_SPLIT_SOURCE(e, i)
#endif
  BARRIER();
  if (!valid) return;
  FFT_FOR_EACH_OUTPUT(FFT_LAST_R, FFT_LAST_NS, t, e, s, {
    const u64 k = i + (u64)e * FFT_REAL_PASS_STEP;
    if (k < FFT_REAL_H) {
      const complex_t zh = FFT_SPLIT_PARTNER(e, s);
#if FFT_CONV_STORE
      const complex_t z = cmul(v[s], fft_chirp(chirp, k, dir));
#else
      const complex_t z = v[s];
#endif
      fft_put_split(out, base + (i64)e * stride, k, z, zh, real_tw, scale);
      if (k == 0)
        fft_put_split(out, base + (i64)FFT_SPLIT_C * stride + (i64)FFT_SPLIT_H * dist_inner, FFT_REAL_H, z, zh,
                      real_tw, scale);
    }
  })
#undef FFT_SPLIT_PARTNER
}
#endif

/* Groups of up to 1024 work-items (column shapes): the bound makes ptxas keep within the
   registers that many threads have. chirp and spectrum are Bluestein's tables (fft_chirp.h),
   read only by a Bluestein program, or Rader's (chirp then holds 32-bit indices). */
#if FFT_STAGED_IO
/* Element e of the staged tile's transform with inner index i, at `at`, as the program takes it:
   in Bluestein's loading pass times the chirp, and zero (unread) past his N. The tile's
   consecutive transforms are consecutive indices of his table, so its reads are whole sectors
   too (loaded directly, a warp's lanes read it E_STEP apart). */
DEVICE_FN complex_t fft_tile_take(GLOBAL const complex_t* at, u32 e, u32 i, GLOBAL const complex_t* chirp, real_t dir) {
  (void)e;
  (void)i;
  (void)chirp;
  (void)dir;
#if FFT_CONV_LOAD
  const u64 c = FFT_CONV_INDEX(e, i);
  return c < FFT_BLUESTEIN_N ? cmul(*at, fft_chirp(chirp, c, dir)) : cmake((real_t)0, (real_t)0);
#else
  return *at;
#endif
}

/* Output y (scaled) to `at`: in Bluestein's storing pass times the chirp, and only his N. */
DEVICE_FN void fft_tile_put(GLOBAL complex_t* at, complex_t y, u32 e, u32 i, GLOBAL const complex_t* chirp, real_t dir) {
  (void)e;
  (void)i;
  (void)chirp;
  (void)dir;
#if FFT_CONV_STORE
  const u64 c = FFT_CONV_INDEX(e, i);
  if (c < FFT_BLUESTEIN_N) *at = cmul(y, fft_chirp(chirp, c, dir));
#else
  *at = y;
#endif
}
#endif

KERNEL_GROUP(FFT_TPT * FFT_TPG)
fft_c2c(GLOBAL const complex_t* in, GLOBAL complex_t* out, GLOBAL const complex_t* tw, u32 count, u32 inner, u32 fast,
        i64 in_offset, i64 in_stride, i64 in_dist_inner, i64 in_dist_outer, i64 in_dist_fast, i64 out_offset,
        i64 out_stride, i64 out_dist_inner, i64 out_dist_outer, i64 out_dist_fast, GLOBAL const fft_tw_t* pass_tw,
        u64 pass_tw_n, u32 pass_tw_split,
        GLOBAL const complex_t* chirp, GLOBAL const complex_t* spectrum, GLOBAL const complex_t* real_tw, real_t dir,
        real_t scale) {
  LOCAL FFT_LDS_TYPE lds_all[FFT_TPG * FFT_LDS_SLOT];
#if FFT_INTERLEAVED
#if FFT_STAGED_IO
#error "fft_c2c.cl: FFT_INTERLEAVED is for programs that load and store directly"
#endif
  const u32 t = LOCAL_ID(0) / FFT_TPG;
  const u32 slot = LOCAL_ID(0) % FFT_TPG;
#else
  const u32 t = LOCAL_ID(0) % FFT_TPT;
  const u32 slot = LOCAL_ID(0) / FFT_TPT;
#endif
  /* A launch holds fewer than 2^31 transforms (DeviceFft::launch splits larger ones), so the
     index and its split into (o, i, f) are 32-bit: a 64-bit division is a subroutine call, around
     which ptxas spilled registers (Bluestein's 2039 f64, Rader's 97 f64 as a column pass). A
     program without the fastest level spends no division or register on it; rest is
     o inner + (i, or the split pass's slot q). */
  const u32 transform = (u32)GROUP_ID(0) * FFT_TPG + slot;
#if FFT_BATCH_FAST && FFT_REAL_SPLIT_PASS
  /* partners in adjacent slots, then adjacent batch entries: t = ((o inner/2 + q/2) fast + f) 2 + q % 2 */
  const u32 fast_index = transform / 2 % fast;
  const u32 rest = transform / 2 / fast * 2 + transform % 2;
#elif FFT_BATCH_FAST
  const u32 fast_index = transform % fast;
  const u32 rest = transform / fast;
#else
  (void)fast;
  (void)in_dist_fast;
  (void)out_dist_fast;
  const u32 rest = transform;
#endif
#if FFT_REAL_SPLIT_PASS
  const u64 inner_index = fft_split_pass_index(rest % inner);
  const int valid = transform < count && inner_index < FFT_REAL_PASS_STEP;
#else
  const u64 inner_index = rest % inner;
  const int valid = transform < count;
#endif
  const u32 outer_index = rest / inner;
#if FFT_BATCH_FAST
  const i64 in_base = in_offset + (i64)outer_index * in_dist_outer + (i64)inner_index * in_dist_inner +
                      (i64)fast_index * in_dist_fast;
  const i64 out_base = out_offset + (i64)outer_index * out_dist_outer + (i64)inner_index * out_dist_inner +
                       (i64)fast_index * out_dist_fast;
#else
  const i64 in_base = in_offset + (i64)outer_index * in_dist_outer + (i64)inner_index * in_dist_inner;
  const i64 out_base = out_offset + (i64)outer_index * out_dist_outer + (i64)inner_index * out_dist_inner;
#endif
  (void)pass_tw;
  (void)pass_tw_n;
  (void)pass_tw_split;
  (void)spectrum;
  (void)real_tw;
  LOCAL_PTR FFT_LDS_TYPE* lds = lds_all + slot * FFT_LDS_SLOT;
  (void)lds;
  complex_t v[FFT_SLOTS];
#if FFT_STAGED_IO
#if FFT_RADER || FFT_CONV_WHOLE || FFT_REAL_N || FFT_SPLIT || FFT_STAGES == 0
#error "fft_c2c.cl: FFT_STAGED_IO is for a c2c program of at least one stage without Rader, Bluestein's whole DFT, real steps or the split exchange"
#endif
  /* The group's transforms (group_count of them: fewer in the last group) as a tile of each
     side: value (q, e) of the group's transform q at its run's origin + FFT_TILE_RUN(q)
     dist_inner + e stride. Where an outer index holds at least a group (inner >= FFT_TPG), a
     group's transforms lie in at most two: its first run0 in group_outer from group_inner on,
     the rest in the next one from 0 (Bluestein's passes of R = M / M1 transforms an entry, an
     odd R, over a batch). The tests read only arguments, so the branches and their barriers are
     the same in every group. */
  const u32 group_first = (u32)GROUP_ID(0) * FFT_TPG;
  const u32 group_count = count - group_first < (u32)FFT_TPG ? count - group_first : (u32)FFT_TPG;
  const int tiled = (inner == count || inner >= FFT_TPG) && (FFT_BATCH_FAST == 0 || fast == 1);
  const u32 group_outer = group_first / inner, group_inner = group_first % inner;
  const u32 run0 = inner - group_inner < group_count ? inner - group_inner : group_count;
#define FFT_TILE_RUN(q) ((q) < run0 ? (q) : (q) - run0)
#define FFT_TILE_INNER(q) ((q) < run0 ? group_inner + (q) : (q) - run0)
  const int in_rows = tiled && in_stride == 1 && in_dist_inner == (i64)FFT_N;
  const int in_columns = tiled && FFT_TPG > 1 && in_dist_inner == 1;
  const int out_rows = tiled && out_stride == 1 && out_dist_inner == (i64)FFT_N;
  const int out_columns = tiled && FFT_TPG > 1 && out_dist_inner == 1;
#endif
#if FFT_STAGES == 0
  if (valid) out[out_base] = cscale(in[in_base], scale);
#else
#if FFT_RADER
  complex_t x0; /* work-item 0's: x[0], then X[0] */
  fft_rader_load(v, t, in, in_base, in_stride, in_dist_inner, valid, inner_index, real_tw, lds, chirp, &x0);
  fft_transform(v, t, tw, lds, (real_t)-1);
  fft_rader_multiply(v, t, spectrum, dir, &x0);
  fft_exchange(v, t, FFT_LAST_R, FFT_LAST_NS, FFT_R0, lds);
  const real_t last_dir = (real_t)1;
#else
  const complex_t x0 = cmake((real_t)0, (real_t)0); /* Rader's X[0]: none */
  (void)x0;
#if FFT_STAGED_IO
  if (in_rows || in_columns) {
    GLOBAL const complex_t* tile0 = in + in_offset + (i64)group_outer * in_dist_outer + (i64)group_inner * in_dist_inner;
    GLOBAL const complex_t* tile1 = in + in_offset + (i64)(group_outer + 1) * in_dist_outer;
    if (in_rows) {
      for (u32 k = LOCAL_ID(0); k < group_count * FFT_N; k += FFT_TPT * FFT_TPG) {
        const u32 q = k / FFT_N, e = k % FFT_N;
        lds_all[FFT_LDS_TILE(k)] = fft_tile_take((q < run0 ? tile0 : tile1) + (i64)FFT_TILE_RUN(q) * FFT_N + e, e,
                                                 FFT_TILE_INNER(q), chirp, dir);
      }
    } else {
      for (u32 k = LOCAL_ID(0); k < FFT_TPG * FFT_N; k += FFT_TPT * FFT_TPG) {
        const u32 q = k % FFT_TPG, e = k / FFT_TPG;
        if (q < group_count)
          lds_all[q * FFT_LDS_SLOT + FFT_LDS_AT(e)] = fft_tile_take(
              (q < run0 ? tile0 : tile1) + (i64)FFT_TILE_RUN(q) + (i64)e * in_stride, e, FFT_TILE_INNER(q), chirp, dir);
      }
    }
    BARRIER();
    FFT_FOR_EACH_INPUT(FFT_R0, t, e, s, live, v[s] = (valid && live) ? lds[FFT_LDS_AT(e)] : cmake((real_t)0, (real_t)0);)
    BARRIER(); /* before the first exchange writes local memory */
  } else {
    fft_load_global(v, t, FFT_R0, in, in_base, in_stride, in_dist_inner, valid, inner_index, chirp, dir, real_tw);
  }
#else
  fft_load_global(v, t, FFT_R0, in, in_base, in_stride, in_dist_inner, valid, inner_index, chirp, dir, real_tw);
#endif
#if FFT_CONV_MIDDLE
  fft_transform(v, t, tw, lds, (real_t)-1);
  fft_multiply_spectrum(v, t, spectrum, inner_index, dir);
  fft_exchange(v, t, FFT_LAST_R, FFT_LAST_NS, FFT_R0, lds);
  const real_t last_dir = (real_t)1;
#elif FFT_CONV_LOAD
  const real_t last_dir = (real_t)-1;
#elif FFT_CONV_STORE
  const real_t last_dir = (real_t)1;
#else
  const real_t last_dir = dir;
#endif
#endif
  fft_transform(v, t, tw, lds, last_dir);
#if FFT_REAL_SPLIT_PASS
  /* slots 0 and 1 of an outer index may hold transforms that are their own partners */
  LOCAL_PTR FFT_LDS_TYPE* partner = FFT_SPLIT_SELF(rest % inner) ? lds : lds_all + (slot ^ 1u) * FFT_LDS_SLOT;
  fft_store_split_pass(v, t, out, out_base, out_stride, out_dist_inner, scale, valid, real_tw, lds, partner,
                       inner_index, chirp, dir);
#elif FFT_REAL_SPLIT_STORE
  fft_store_split(v, t, out, out_base, out_stride, scale, valid, real_tw, lds, chirp, dir, x0);
#elif FFT_RADER
  fft_rader_store(v, t, out, out_base, out_stride, out_dist_inner, scale, valid, lds, inner_index, chirp, x0, pass_tw,
                  pass_tw_n, pass_tw_split, dir);
#else
#if FFT_STAGED_IO
  if (out_rows || out_columns) {
    /* Local memory is free: the last exchange (or the staged load) ended with a barrier. */
#if FFT_TWIDDLE
    FFT_FOR_EACH_OUTPUT(FFT_LAST_R, FFT_LAST_NS, t, e, s,
                        lds[FFT_LDS_AT(e)] = cmul(v[s], fft_pass_twiddle(pass_tw, inner_index * e, pass_tw_n, pass_tw_split,
                                                             last_dir, scale));)
#else
    FFT_FOR_EACH_OUTPUT(FFT_LAST_R, FFT_LAST_NS, t, e, s, lds[FFT_LDS_AT(e)] = cscale(v[s], scale);)
#endif
    BARRIER();
    GLOBAL complex_t* tile0 = out + out_offset + (i64)group_outer * out_dist_outer + (i64)group_inner * out_dist_inner;
    GLOBAL complex_t* tile1 = out + out_offset + (i64)(group_outer + 1) * out_dist_outer;
    if (out_rows) {
      for (u32 k = LOCAL_ID(0); k < group_count * FFT_N; k += FFT_TPT * FFT_TPG) {
        const u32 q = k / FFT_N, e = k % FFT_N;
        fft_tile_put((q < run0 ? tile0 : tile1) + (i64)FFT_TILE_RUN(q) * FFT_N + e, lds_all[FFT_LDS_TILE(k)], e,
                     FFT_TILE_INNER(q), chirp, dir);
      }
    } else {
      for (u32 k = LOCAL_ID(0); k < FFT_TPG * FFT_N; k += FFT_TPT * FFT_TPG) {
        const u32 q = k % FFT_TPG, e = k / FFT_TPG;
        if (q < group_count)
          fft_tile_put((q < run0 ? tile0 : tile1) + (i64)FFT_TILE_RUN(q) + (i64)e * out_stride,
                       lds_all[q * FFT_LDS_SLOT + FFT_LDS_AT(e)], e, FFT_TILE_INNER(q), chirp, dir);
      }
    }
  } else {
    fft_store_global(v, t, FFT_LAST_R, FFT_LAST_NS, out, out_base, out_stride, out_dist_inner, scale, valid, pass_tw,
                     pass_tw_n, pass_tw_split, inner_index, last_dir, chirp, dir);
  }
#else
  /* The pass twiddle's sign: the last FFT's, which is the plan's but in a pass of Bluestein's
     convolution (its fixed directions); the plan's for his whole DFT */
  fft_store_global(v, t, FFT_LAST_R, FFT_LAST_NS, out, out_base, out_stride, out_dist_inner, scale, valid, pass_tw,
                   pass_tw_n, pass_tw_split, inner_index, FFT_CONV_WHOLE ? dir : last_dir, chirp, dir);
#endif
#endif
#endif
}

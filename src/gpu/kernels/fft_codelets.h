/* Small DFTs on values in registers (thread level of the GPU FFT): radix 2, 3, 4, 5, 7, 8, 11, 13, 16, 17 and 19,
   in place on a[0..R). dir is -1 for the forward transform (roots e^{-2 pi i / R}) and +1 for the
   backward one, so one compiled program serves both directions: the sign only multiplies sines
   (exact). Compiled after dialect.h. */
#ifndef RIPPLE_FFT_CODELETS_H
#define RIPPLE_FFT_CODELETS_H

/* dir * i * z */
DEVICE_FN complex_t fft_rot(complex_t z, real_t dir) { return cmake(-dir * z.y, dir * z.x); }

DEVICE_FN void fft_dft2(complex_t* a) {
  const complex_t t = a[1];
  a[1] = csub(a[0], t);
  a[0] = cadd(a[0], t);
}

DEVICE_FN void fft_dft4_values(complex_t* x0, complex_t* x1, complex_t* x2, complex_t* x3, real_t dir) {
  const complex_t s02 = cadd(*x0, *x2), d02 = csub(*x0, *x2);
  const complex_t s13 = cadd(*x1, *x3), d13 = fft_rot(csub(*x1, *x3), dir);
  *x0 = cadd(s02, s13);
  *x2 = csub(s02, s13);
  *x1 = cadd(d02, d13);
  *x3 = csub(d02, d13);
}

DEVICE_FN void fft_dft4(complex_t* a, real_t dir) { fft_dft4_values(&a[0], &a[1], &a[2], &a[3], dir); }

#define FFT_SQRT_HALF ((real_t)0.70710678118654752440084436210485)

/* z w8 and z w8^3, with w8 = (1 + dir i) / sqrt 2 and w8^3 = (-1 + dir i) / sqrt 2 (w8^2 = dir i:
   fft_rot) */
DEVICE_FN complex_t fft_turn8(complex_t z, real_t dir) { return cscale(cadd(z, fft_rot(z, dir)), FFT_SQRT_HALF); }
DEVICE_FN complex_t fft_turn8_3(complex_t z, real_t dir) { return cscale(csub(fft_rot(z, dir), z), FFT_SQRT_HALF); }

/* Two DFTs of 4 (even and odd inputs), the odd ones turned by w8^q, then 4 butterflies. */
DEVICE_FN void fft_dft8(complex_t* a, real_t dir) {
  complex_t e0 = a[0], e1 = a[2], e2 = a[4], e3 = a[6];
  complex_t o0 = a[1], o1 = a[3], o2 = a[5], o3 = a[7];
  fft_dft4_values(&e0, &e1, &e2, &e3, dir);
  fft_dft4_values(&o0, &o1, &o2, &o3, dir);
  o1 = fft_turn8(o1, dir);
  o2 = fft_rot(o2, dir);
  o3 = fft_turn8_3(o3, dir);
  a[0] = cadd(e0, o0);
  a[4] = csub(e0, o0);
  a[1] = cadd(e1, o1);
  a[5] = csub(e1, o1);
  a[2] = cadd(e2, o2);
  a[6] = csub(e2, o2);
  a[3] = cadd(e3, o3);
  a[7] = csub(e3, o3);
}

/* z w16^e for e = q k1 of fft_dft16 (q, k1 in 1..3): w16 = cos(pi/8) + dir i sin(pi/8). */
DEVICE_FN complex_t fft_turn16(complex_t z, int e, real_t dir) {
  const real_t c = (real_t)0.92387953251128675612818318939679, s = (real_t)0.38268343236508977172845998403040;
  switch (e) {
    case 1: return cmul(z, cmake(c, dir * s));
    case 2: return fft_turn8(z, dir);
    case 3: return cmul(z, cmake(s, dir * c));
    case 4: return fft_rot(z, dir);
    case 6: return fft_turn8_3(z, dir);
    default: return cmul(z, cmake(-c, -dir * s)); /* 9 */
  }
}

/* Four DFTs of 4 on the inputs q, q+4, q+8, q+12, their outputs k1 turned by w16^(q k1), then
   four DFTs of 4 across q give outputs k1 + 4 k2: two register stages in one, which saves a
   pass through local memory where a power of two would take a stage of 2 or 4 besides its 8s. */
DEVICE_FN void fft_dft16(complex_t* a, real_t dir) {
  complex_t y[16];
#pragma unroll
  for (int q = 0; q < 4; ++q) {
    complex_t x0 = a[q], x1 = a[q + 4], x2 = a[q + 8], x3 = a[q + 12];
    fft_dft4_values(&x0, &x1, &x2, &x3, dir);
    y[4 * q] = x0;
    y[4 * q + 1] = q ? fft_turn16(x1, q, dir) : x1;
    y[4 * q + 2] = q ? fft_turn16(x2, 2 * q, dir) : x2;
    y[4 * q + 3] = q ? fft_turn16(x3, 3 * q, dir) : x3;
  }
#pragma unroll
  for (int k1 = 0; k1 < 4; ++k1) {
    complex_t x0 = y[k1], x1 = y[4 + k1], x2 = y[8 + k1], x3 = y[12 + k1];
    fft_dft4_values(&x0, &x1, &x2, &x3, dir);
    a[k1] = x0;
    a[k1 + 4] = x1;
    a[k1 + 8] = x2;
    a[k1 + 12] = x3;
  }
}

DEVICE_FN void fft_dft3(complex_t* a, real_t dir) {
  const real_t s3 = (real_t)0.86602540378443864676372317075294;
  const complex_t t = cadd(a[1], a[2]);
  const complex_t d = cscale(fft_rot(csub(a[1], a[2]), dir), s3);
  const complex_t m = csub(a[0], cscale(t, (real_t)0.5));
  a[0] = cadd(a[0], t);
  a[1] = cadd(m, d);
  a[2] = csub(m, d);
}

/* Odd prime R: X[q] = A_q + B_q and X[R-q] = A_q - B_q with
   A_q = a0 + sum_r (a_r + a_{R-r}) cos(2 pi rq/R),  B_q = dir i sum_r (a_r - a_{R-r}) sin(2 pi rq/R). */
#define FFT_DEFINE_ODD_PRIME(R, COS, SIN)                                  \
  DEVICE_FN void fft_dft##R(complex_t* a, real_t dir) {                    \
    const real_t c[R] = COS;                                               \
    const real_t s[R] = SIN;                                               \
    complex_t sum[(R - 1) / 2], dif[(R - 1) / 2];                          \
    complex_t x0 = a[0];                                                   \
    for (int r = 1; r <= (R - 1) / 2; ++r) {                               \
      sum[r - 1] = cadd(a[r], a[R - r]);                                   \
      dif[r - 1] = fft_rot(csub(a[r], a[R - r]), dir);                     \
      x0 = cadd(x0, sum[r - 1]);                                           \
    }                                                                      \
    for (int q = 1; q <= (R - 1) / 2; ++q) {                               \
      complex_t A = a[0], B = cmake((real_t)0, (real_t)0);                 \
      for (int r = 1; r <= (R - 1) / 2; ++r) {                             \
        const int m = (r * q) % R;                                         \
        A = cadd(A, cscale(sum[r - 1], c[m]));                             \
        B = cadd(B, cscale(dif[r - 1], s[m]));                             \
      }                                                                    \
      a[q] = cadd(A, B);                                                   \
      a[R - q] = csub(A, B);                                               \
    }                                                                      \
    a[0] = x0;                                                             \
  }

#define FFT_COS5 {(real_t)1, (real_t)0.30901699437494742410229341718282, (real_t)-0.80901699437494742410229341718282, \
                  (real_t)-0.80901699437494742410229341718282, (real_t)0.30901699437494742410229341718282}
#define FFT_SIN5 {(real_t)0, (real_t)0.95105651629515357211643933337938, (real_t)0.58778525229247312916870595463907, \
                  (real_t)-0.58778525229247312916870595463907, (real_t)-0.95105651629515357211643933337938}
#define FFT_COS7 {(real_t)1, (real_t)0.62348980185873353052500488400424, (real_t)-0.22252093395631440428890256449679, \
                  (real_t)-0.90096886790241912623610231950745, (real_t)-0.90096886790241912623610231950745,         \
                  (real_t)-0.22252093395631440428890256449679, (real_t)0.62348980185873353052500488400424}
#define FFT_SIN7 {(real_t)0, (real_t)0.78183148246802980870844452667406, (real_t)0.97492791218182360701813168299393, \
                  (real_t)0.43388373911755812047576833284836, (real_t)-0.43388373911755812047576833284836,         \
                  (real_t)-0.97492791218182360701813168299393, (real_t)-0.78183148246802980870844452667406}
#define FFT_COS11 {(real_t)1, (real_t)0.84125353283118116886181164891937,                                    \
                   (real_t)0.41541501300188642552927414922962, (real_t)-0.14231483827328514044379266861637,  \
                   (real_t)-0.65486073394528506405692507246629, (real_t)-0.95949297361449738989036805706633, \
                   (real_t)-0.95949297361449738989036805706633, (real_t)-0.65486073394528506405692507246629, \
                   (real_t)-0.14231483827328514044379266861637, (real_t)0.41541501300188642552927414922962,  \
                   (real_t)0.84125353283118116886181164891937}
#define FFT_SIN11 {(real_t)0, (real_t)0.54064081745559758210763595431869,                                    \
                   (real_t)0.90963199535451837141171538307903, (real_t)0.98982144188093273237609203777672,   \
                   (real_t)0.75574957435425828377403584397234, (real_t)0.28173255684142969771141791534662,   \
                   (real_t)-0.28173255684142969771141791534662, (real_t)-0.75574957435425828377403584397234, \
                   (real_t)-0.98982144188093273237609203777672, (real_t)-0.90963199535451837141171538307903, \
                   (real_t)-0.54064081745559758210763595431869}
#define FFT_COS13 {(real_t)1, (real_t)0.8854560256532098959003755220151,                                     \
                   (real_t)0.56806474673115580251180755912752, (real_t)0.12053668025532305334906768745254,   \
                   (real_t)-0.35460488704253562596963789260002, (real_t)-0.74851074817110109863463059970135, \
                   (real_t)-0.97094181742605202715698227629379, (real_t)-0.97094181742605202715698227629379, \
                   (real_t)-0.74851074817110109863463059970135, (real_t)-0.35460488704253562596963789260002, \
                   (real_t)0.12053668025532305334906768745254, (real_t)0.56806474673115580251180755912752,   \
                   (real_t)0.8854560256532098959003755220151}
#define FFT_SIN13 {(real_t)0, (real_t)0.4647231720437685456560153351331,                                     \
                   (real_t)0.82298386589365639457961742343938, (real_t)0.99270887409805399280075164949252,   \
                   (real_t)0.93501624268541482343978459983783, (real_t)0.66312265824079520237678549266677,   \
                   (real_t)0.23931566428755776714875372626021, (real_t)-0.23931566428755776714875372626021,  \
                   (real_t)-0.66312265824079520237678549266677, (real_t)-0.93501624268541482343978459983783, \
                   (real_t)-0.99270887409805399280075164949252, (real_t)-0.82298386589365639457961742343938, \
                   (real_t)-0.4647231720437685456560153351331}
#define FFT_COS17 {(real_t)1, (real_t)0.93247222940435580457311589182156, (real_t)0.73900891722065911592453430987265, \
                   (real_t)0.44573835577653826739645754937949, (real_t)0.092268359463301995239651107154506, \
                   (real_t)-0.27366299007208286353907793543681, (real_t)-0.60263463637925638917858815498684, \
                   (real_t)-0.85021713572961415213414392294935, (real_t)-0.9829730996839017782819488448552, \
                   (real_t)-0.9829730996839017782819488448552, (real_t)-0.85021713572961415213414392294935, \
                   (real_t)-0.60263463637925638917858815498684, (real_t)-0.27366299007208286353907793543681, \
                   (real_t)0.092268359463301995239651107154506, (real_t)0.44573835577653826739645754937949, \
                   (real_t)0.73900891722065911592453430987265, (real_t)0.93247222940435580457311589182156}
#define FFT_SIN17 {(real_t)0, (real_t)0.3612416661871529487447145961837, (real_t)0.67369564364655721171269191242569, \
                   (real_t)0.89516329135506232206701649975379, (real_t)0.99573417629503452187119117890548, \
                   (real_t)0.96182564317281907040879629073152, (real_t)0.79801722728023950333280511279626, \
                   (real_t)0.5264321628773558002446077991407, (real_t)0.18374951781657033157440883962073, \
                   (real_t)-0.18374951781657033157440883962073, (real_t)-0.5264321628773558002446077991407, \
                   (real_t)-0.79801722728023950333280511279626, (real_t)-0.96182564317281907040879629073152, \
                   (real_t)-0.99573417629503452187119117890548, (real_t)-0.89516329135506232206701649975379, \
                   (real_t)-0.67369564364655721171269191242569, (real_t)-0.3612416661871529487447145961837}
#define FFT_COS19 {(real_t)1, (real_t)0.94581724170063467901966571428494, (real_t)0.78914050939639359921898114939909, \
                   (real_t)0.54694815812242687471176274669619, (real_t)0.24548548714079914892229091779637, \
                   (real_t)-0.08257934547233232460034393423744, (real_t)-0.40169542465296945751684165974262, \
                   (real_t)-0.67728157162574107476215098449563, (real_t)-0.87947375120648907139085475488184, \
                   (real_t)-0.98636130340272237360250919481907, (real_t)-0.98636130340272237360250919481907, \
                   (real_t)-0.87947375120648907139085475488184, (real_t)-0.67728157162574107476215098449563, \
                   (real_t)-0.40169542465296945751684165974262, (real_t)-0.08257934547233232460034393423744, \
                   (real_t)0.24548548714079914892229091779637, (real_t)0.54694815812242687471176274669619, \
                   (real_t)0.78914050939639359921898114939909, (real_t)0.94581724170063467901966571428494}
#define FFT_SIN19 {(real_t)0, (real_t)0.32469946920468348740757271654659, (real_t)0.61421271268966781744433583351445, \
                   (real_t)0.83716647826252857480606120093691, (real_t)0.96940026593933041673610732179617, \
                   (real_t)0.99658449300666984981935200075049, (real_t)0.91577332665505743991934923569401, \
                   (real_t)0.73572391067313162477420761196109, (real_t)0.47594739303707354443135291945512, \
                   (real_t)0.16459459028073389414365205908794, (real_t)-0.16459459028073389414365205908794, \
                   (real_t)-0.47594739303707354443135291945512, (real_t)-0.73572391067313162477420761196109, \
                   (real_t)-0.91577332665505743991934923569401, (real_t)-0.99658449300666984981935200075049, \
                   (real_t)-0.96940026593933041673610732179617, (real_t)-0.83716647826252857480606120093691, \
                   (real_t)-0.61421271268966781744433583351445, (real_t)-0.32469946920468348740757271654659}
FFT_DEFINE_ODD_PRIME(5, FFT_COS5, FFT_SIN5)
FFT_DEFINE_ODD_PRIME(7, FFT_COS7, FFT_SIN7)
FFT_DEFINE_ODD_PRIME(11, FFT_COS11, FFT_SIN11)
FFT_DEFINE_ODD_PRIME(13, FFT_COS13, FFT_SIN13)
FFT_DEFINE_ODD_PRIME(17, FFT_COS17, FFT_SIN17)
FFT_DEFINE_ODD_PRIME(19, FFT_COS19, FFT_SIN19)

/* The codelet of radix R (a compile-time constant after inlining). */
DEVICE_FN void fft_dft(complex_t* a, int R, real_t dir) {
  switch (R) {
    case 2: fft_dft2(a); break;
    case 3: fft_dft3(a, dir); break;
    case 4: fft_dft4(a, dir); break;
    case 5: fft_dft5(a, dir); break;
    case 7: fft_dft7(a, dir); break;
    case 8: fft_dft8(a, dir); break;
    case 11: fft_dft11(a, dir); break;
    case 13: fft_dft13(a, dir); break;
    case 16: fft_dft16(a, dir); break;
    case 17: fft_dft17(a, dir); break;
    case 19: fft_dft19(a, dir); break;
    default: break;
  }
}

#endif /* RIPPLE_FFT_CODELETS_H */

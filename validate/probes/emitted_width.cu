// Probe kernels for the emitted width: which of a thread's accesses ptxas
// (nvcc 13, -arch=sm_90, -O3) merges into 64- and 128-bit LDS/STS/LDG/STG.
// One probed access per source line; validate/sass/ reads the SASS of each
// line (nvdisasm -g on a -lineinfo cubin). docs/emitted-width.md has the
// table and the rule. 256-thread blocks; s[] is filled by `s[t] = in[t]`
// lines (plain 32-bit stores, not probes).
#include <cstdint>

#define K extern "C" __global__ void __launch_bounds__(256)

// --- shared, float, unroll depth, alignment of the constant part ---------
K sh_f32_u8_al16(const float *in, float *out) {
  __shared__ float s[256 * 8 + 64];
  const int t = threadIdx.x;
  for (int j = t; j < 256 * 8 + 64; j += 256) s[j] = in[j];
  __syncthreads();
  float r[8];
#pragma unroll
  for (int i = 0; i < 8; ++i)
    r[i] = s[t * 8 + i]; // PROBE
  float a = 0;
#pragma unroll
  for (int i = 0; i < 8; ++i) a += r[i] * (i + 1);
  out[t] = a;
}
K sh_f32_u8_off1(const float *in, float *out) {
  __shared__ float s[256 * 8 + 64];
  const int t = threadIdx.x;
  for (int j = t; j < 256 * 8 + 64; j += 256) s[j] = in[j];
  __syncthreads();
  float r[8];
#pragma unroll
  for (int i = 0; i < 8; ++i)
    r[i] = s[t * 8 + 1 + i]; // PROBE
  float a = 0;
#pragma unroll
  for (int i = 0; i < 8; ++i) a += r[i] * (i + 1);
  out[t] = a;
}
K sh_f32_u8_off2(const float *in, float *out) {
  __shared__ float s[256 * 8 + 64];
  const int t = threadIdx.x;
  for (int j = t; j < 256 * 8 + 64; j += 256) s[j] = in[j];
  __syncthreads();
  float r[8];
#pragma unroll
  for (int i = 0; i < 8; ++i)
    r[i] = s[t * 8 + 2 + i]; // PROBE
  float a = 0;
#pragma unroll
  for (int i = 0; i < 8; ++i) a += r[i] * (i + 1);
  out[t] = a;
}
K sh_f32_u4_al16(const float *in, float *out) {
  __shared__ float s[256 * 4 + 64];
  const int t = threadIdx.x;
  for (int j = t; j < 256 * 4 + 64; j += 256) s[j] = in[j];
  __syncthreads();
  float a = 0;
#pragma unroll
  for (int i = 0; i < 4; ++i)
    a += s[t * 4 + i] * (i + 1); // PROBE
  out[t] = a;
}
K sh_f32_u2_al8(const float *in, float *out) {
  __shared__ float s[256 * 2 + 64];
  const int t = threadIdx.x;
  for (int j = t; j < 256 * 2 + 64; j += 256) s[j] = in[j];
  __syncthreads();
  float a = 0;
#pragma unroll
  for (int i = 0; i < 2; ++i)
    a += s[t * 2 + i] * (i + 1); // PROBE
  out[t] = a;
}
K sh_f32_u3_al4(const float *in, float *out) {
  __shared__ float s[256 * 3 + 64];
  const int t = threadIdx.x;
  for (int j = t; j < 256 * 3 + 64; j += 256) s[j] = in[j];
  __syncthreads();
  float a = 0;
#pragma unroll
  for (int i = 0; i < 3; ++i)
    a += s[t * 3 + i] * (i + 1); // PROBE
  out[t] = a;
}
K sh_f32_u4_stride4_al16(const float *in, float *out) {
  __shared__ float s[256 * 4 + 64];
  const int t = threadIdx.x;
  for (int j = t; j < 256 * 4 + 64; j += 256) s[j] = in[j];
  __syncthreads();
  float a = 0;
#pragma unroll
  for (int i = 0; i < 4; ++i)
    a += s[t * 4 + 4 * i] * (i + 1); // PROBE
  out[t] = a;
}
K sh_f32_u8_stride2(const float *in, float *out) {
  __shared__ float s[256 * 16 + 64];
  const int t = threadIdx.x;
  for (int j = t; j < 256 * 16 + 64; j += 256) s[j] = in[j];
  __syncthreads();
  float a = 0;
#pragma unroll
  for (int i = 0; i < 8; ++i)
    a += s[t * 16 + 2 * i] * (i + 1); // PROBE
  out[t] = a;
}
K sh_f32_u8_nounroll(const float *in, float *out) {
  __shared__ float s[256 * 8 + 64];
  const int t = threadIdx.x;
  for (int j = t; j < 256 * 8 + 64; j += 256) s[j] = in[j];
  __syncthreads();
  float a = 0;
#pragma unroll 1
  for (int i = 0; i < 8; ++i)
    a += s[t * 8 + i] * (i + 1); // PROBE
  out[t] = a;
}
K sh_f32_u8_nopragma(const float *in, float *out) {
  __shared__ float s[256 * 8 + 64];
  const int t = threadIdx.x;
  for (int j = t; j < 256 * 8 + 64; j += 256) s[j] = in[j];
  __syncthreads();
  float a = 0;
  for (int i = 0; i < 8; ++i)
    a += s[t * 8 + i] * (i + 1); // PROBE
  out[t] = a;
}
K sh_f32_u64_nopragma(const float *in, float *out) {
  __shared__ float s[4096 + 64];
  const int t = threadIdx.x;
  for (int j = t; j < 4096 + 64; j += 256) s[j] = in[j];
  __syncthreads();
  float a = 0;
  for (int i = 0; i < 64; ++i)
    a += s[(t % 64) * 64 + i] * (i + 1); // PROBE
  out[t] = a;
}
K sh_f32_runtime_trip(const float *in, float *out, int n) {
  __shared__ float s[256 * 8 + 64];
  const int t = threadIdx.x;
  for (int j = t; j < 256 * 8 + 64; j += 256) s[j] = in[j];
  __syncthreads();
  float a = 0;
  for (int i = 0; i < n; ++i)
    a += s[t * 8 + i] * (i + 1); // PROBE
  out[t] = a;
}
K sh_f32_param_offset(const float *in, float *out, int k) {
  __shared__ float s[256 * 8 + 64];
  const int t = threadIdx.x;
  for (int j = t; j < 256 * 8 + 64; j += 256) s[j] = in[j];
  __syncthreads();
  float a = 0;
#pragma unroll
  for (int i = 0; i < 8; ++i)
    a += s[t * 8 + k + i] * (i + 1); // PROBE
  out[t] = a;
}
K sh_f32_param_offset_x4(const float *in, float *out, int k) {
  __shared__ float s[256 * 8 + 64];
  const int t = threadIdx.x;
  for (int j = t; j < 256 * 8 + 64; j += 256) s[j] = in[j];
  __syncthreads();
  float a = 0;
#pragma unroll
  for (int i = 0; i < 8; ++i)
    a += s[t * 8 + 4 * k + i] * (i + 1); // PROBE
  out[t] = a;
}
// The lane part is only 4-byte aligned (t * 5), the loop part 16.
K sh_f32_u4_tstride5(const float *in, float *out) {
  __shared__ float s[256 * 5 + 64];
  const int t = threadIdx.x;
  for (int j = t; j < 256 * 5 + 64; j += 256) s[j] = in[j];
  __syncthreads();
  float a = 0;
#pragma unroll
  for (int i = 0; i < 4; ++i)
    a += s[t * 5 + i] * (i + 1); // PROBE
  out[t] = a;
}
// The lane part only 8-byte aligned (t * 6).
K sh_f32_u4_tstride6(const float *in, float *out) {
  __shared__ float s[256 * 6 + 64];
  const int t = threadIdx.x;
  for (int j = t; j < 256 * 6 + 64; j += 256) s[j] = in[j];
  __syncthreads();
  float a = 0;
#pragma unroll
  for (int i = 0; i < 4; ++i)
    a += s[t * 6 + i] * (i + 1); // PROBE
  out[t] = a;
}

// --- SGEMM inner loop (register tiling, 1-D tiles) -------------------------
K sh_sgemm_regtile(const float *in, float *out) {
  constexpr int BM = 128, BN = 128, BK = 8, TM = 8, TN = 8;
  __shared__ float As[BM * BK];
  __shared__ float Bs[BK * BN];
  const int t = threadIdx.x;
  for (int j = t; j < BM * BK; j += 256) As[j] = in[j];
  for (int j = t; j < BK * BN; j += 256) Bs[j] = in[j + 4096];
  __syncthreads();
  const int threadCol = t % (BN / TN), threadRow = t / (BN / TN);
  float res[TM * TN] = {0}, regM[TM], regN[TN];
  for (int dotIdx = 0; dotIdx < BK; ++dotIdx) {
    for (int i = 0; i < TM; ++i)
      regM[i] = As[dotIdx * BM + threadRow * TM + i]; // PROBE
    for (int i = 0; i < TN; ++i)
      regN[i] = Bs[dotIdx * BN + threadCol * TN + i]; // PROBE
    for (int m = 0; m < TM; ++m)
      for (int n = 0; n < TN; ++n) res[m * TN + n] += regM[m] * regN[n];
  }
  float a = 0;
  for (int i = 0; i < TM * TN; ++i) a += res[i] * i;
  out[t] = a;
}
// Transposed float4 store into As (stride BM) and scalar stores of a float4's
// parts into Bs with a pad of 5 / 4.
K sh_sgemm_stores(const float4 *in, float *out) {
  constexpr int BM = 128, BN = 128, BK = 8;
  __shared__ float As[BM * BK];
  __shared__ float Bs[BK * (BN + 5)];
  __shared__ float Cs[BK * (BN + 4)];
  const int t = threadIdx.x;
  const int innerRowA = t / (BK / 4), innerColA = t % (BK / 4);
  const int innerRowB = t / (BN / 4), innerColB = t % (BN / 4);
  float4 tmp = in[t];
  As[(innerColA * 4 + 0) * BM + innerRowA] = tmp.x; // PROBE
  As[(innerColA * 4 + 1) * BM + innerRowA] = tmp.y; // PROBE
  As[(innerColA * 4 + 2) * BM + innerRowA] = tmp.z; // PROBE
  As[(innerColA * 4 + 3) * BM + innerRowA] = tmp.w; // PROBE
  float4 u = in[t + 256];
  Bs[innerRowB * (BN + 5) + innerColB * 4 + 0] = u.x; // PROBE
  Bs[innerRowB * (BN + 5) + innerColB * 4 + 1] = u.y; // PROBE
  Bs[innerRowB * (BN + 5) + innerColB * 4 + 2] = u.z; // PROBE
  Bs[innerRowB * (BN + 5) + innerColB * 4 + 3] = u.w; // PROBE
  Cs[innerRowB * (BN + 4) + innerColB * 4 + 0] = u.x; // PROBE
  Cs[innerRowB * (BN + 4) + innerColB * 4 + 1] = u.y; // PROBE
  Cs[innerRowB * (BN + 4) + innerColB * 4 + 2] = u.z; // PROBE
  Cs[innerRowB * (BN + 4) + innerColB * 4 + 3] = u.w; // PROBE
  __syncthreads();
  out[t] = As[t] + Bs[t * 3] + Cs[t * 5];
}
// Adjacent statements, loads: .x .y .z .w style, 16-byte aligned and not.
K sh_f32_stmts4_al16(const float *in, float *out) {
  __shared__ float s[256 * 4 + 64];
  const int t = threadIdx.x;
  for (int j = t; j < 256 * 4 + 64; j += 256) s[j] = in[j];
  __syncthreads();
  float a = s[t * 4 + 0]; // PROBE
  float b = s[t * 4 + 1]; // PROBE
  float c = s[t * 4 + 2]; // PROBE
  float d = s[t * 4 + 3]; // PROBE
  out[t] = a + 2 * b + 3 * c + 4 * d;
}
// 2-D shared, row pitch 132 floats (16-byte multiple) and 33 (not).
K sh_2d_pitch132(const float *in, float *out) {
  __shared__ float s[64][132];
  const int t = threadIdx.x;
  for (int j = t; j < 64 * 132; j += 256) s[j / 132][j % 132] = in[j];
  __syncthreads();
  float a = 0;
#pragma unroll
  for (int i = 0; i < 4; ++i)
    a += s[t % 64][(t / 64) * 4 + i] * (i + 1); // PROBE
  out[t] = a;
}
K sh_2d_pitch33(const float *in, float *out) {
  __shared__ float s[64][33];
  const int t = threadIdx.x;
  for (int j = t; j < 64 * 33; j += 256) s[j / 33][j % 33] = in[j];
  __syncthreads();
  float a = 0;
#pragma unroll
  for (int i = 0; i < 4; ++i)
    a += s[t % 64][(t / 64) * 4 + i] * (i + 1); // PROBE
  out[t] = a;
}
// Dynamic shared memory.
K sh_dyn_u4(const float *in, float *out) {
  extern __shared__ float ds[];
  const int t = threadIdx.x;
  for (int j = t; j < 256 * 4; j += 256) ds[j] = in[j];
  __syncthreads();
  float a = 0;
#pragma unroll
  for (int i = 0; i < 4; ++i)
    a += ds[t * 4 + i] * (i + 1); // PROBE
  out[t] = a;
}
// Stores, unrolled.
K sh_f32_store_u4(const float *in, float *out) {
  __shared__ float s[256 * 4];
  const int t = threadIdx.x;
  float v = in[t];
#pragma unroll
  for (int i = 0; i < 4; ++i)
    s[t * 4 + i] = v * (i + 1); // PROBE
  __syncthreads();
  out[t] = s[(t * 7) % 1024];
}

// --- element sizes ---------------------------------------------------------
K sh_u8_u16(const unsigned char *in, unsigned *out) {
  __shared__ unsigned char s[256 * 16 + 64];
  const int t = threadIdx.x;
  for (int j = t; j < 256 * 16 + 64; j += 256) s[j] = in[j];
  __syncthreads();
  unsigned a = 0;
#pragma unroll
  for (int i = 0; i < 16; ++i)
    a += s[t * 16 + i] * (i + 1); // PROBE
  out[t] = a;
}
K sh_u8_u4(const unsigned char *in, unsigned *out) {
  __shared__ unsigned char s[256 * 4 + 64];
  const int t = threadIdx.x;
  for (int j = t; j < 256 * 4 + 64; j += 256) s[j] = in[j];
  __syncthreads();
  unsigned a = 0;
#pragma unroll
  for (int i = 0; i < 4; ++i)
    a += s[t * 4 + i] * (i + 1); // PROBE
  out[t] = a;
}
K sh_u16_u8(const unsigned short *in, unsigned *out) {
  __shared__ unsigned short s[256 * 8 + 64];
  const int t = threadIdx.x;
  for (int j = t; j < 256 * 8 + 64; j += 256) s[j] = in[j];
  __syncthreads();
  unsigned a = 0;
#pragma unroll
  for (int i = 0; i < 8; ++i)
    a += s[t * 8 + i] * (i + 1); // PROBE
  out[t] = a;
}
K sh_u16_u2(const unsigned short *in, unsigned *out) {
  __shared__ unsigned short s[256 * 2 + 64];
  const int t = threadIdx.x;
  for (int j = t; j < 256 * 2 + 64; j += 256) s[j] = in[j];
  __syncthreads();
  unsigned a = 0;
#pragma unroll
  for (int i = 0; i < 2; ++i)
    a += s[t * 2 + i] * (i + 1); // PROBE
  out[t] = a;
}
K sh_f64_u2(const double *in, double *out) {
  __shared__ double s[256 * 2 + 64];
  const int t = threadIdx.x;
  for (int j = t; j < 256 * 2 + 64; j += 256) s[j] = in[j];
  __syncthreads();
  double a = 0;
#pragma unroll
  for (int i = 0; i < 2; ++i)
    a += s[t * 2 + i] * (i + 1); // PROBE
  out[t] = a;
}
K sh_f64_u4(const double *in, double *out) {
  __shared__ double s[256 * 4 + 64];
  const int t = threadIdx.x;
  for (int j = t; j < 256 * 4 + 64; j += 256) s[j] = in[j];
  __syncthreads();
  double a = 0;
#pragma unroll
  for (int i = 0; i < 4; ++i)
    a += s[t * 4 + i] * (i + 1); // PROBE
  out[t] = a;
}
K sh_f64_u2_off1(const double *in, double *out) {
  __shared__ double s[256 * 2 + 64];
  const int t = threadIdx.x;
  for (int j = t; j < 256 * 2 + 64; j += 256) s[j] = in[j];
  __syncthreads();
  double a = 0;
#pragma unroll
  for (int i = 0; i < 2; ++i)
    a += s[t * 2 + 1 + i] * (i + 1); // PROBE
  out[t] = a;
}

// --- global ----------------------------------------------------------------
K gl_f32_u4_plain(const float *in, float *out) {
  const int t = blockIdx.x * 256 + threadIdx.x;
  float a = 0;
#pragma unroll
  for (int i = 0; i < 4; ++i)
    a += in[t * 4 + i] * (i + 1); // PROBE
  out[t] = a;
}
K gl_f32_u4_restrict(const float *__restrict__ in, float *__restrict__ out) {
  const int t = blockIdx.x * 256 + threadIdx.x;
  float a = 0;
#pragma unroll
  for (int i = 0; i < 4; ++i)
    a += in[t * 4 + i] * (i + 1); // PROBE
  out[t] = a;
}
K gl_f32_u4_assume(const float *in, float *out) {
  const int t = blockIdx.x * 256 + threadIdx.x;
  const float *p = static_cast<const float *>(__builtin_assume_aligned(in, 16));
  float a = 0;
#pragma unroll
  for (int i = 0; i < 4; ++i)
    a += p[t * 4 + i] * (i + 1); // PROBE
  out[t] = a;
}
__device__ float gdev[1 << 20];
K gl_f32_u4_devarray(float *out) {
  const int t = blockIdx.x * 256 + threadIdx.x;
  float a = 0;
#pragma unroll
  for (int i = 0; i < 4; ++i)
    a += gdev[t * 4 + i] * (i + 1); // PROBE
  out[t] = a;
}
K gl_f32_store_u4_plain(const float *in, float *out) {
  const int t = blockIdx.x * 256 + threadIdx.x;
  float v = in[t];
#pragma unroll
  for (int i = 0; i < 4; ++i)
    out[t * 4 + i] = v * (i + 1); // PROBE
}
K gl_f32_store_u4_restrict(const float *__restrict__ in,
                           float *__restrict__ out) {
  const int t = blockIdx.x * 256 + threadIdx.x;
  float v = in[t];
#pragma unroll
  for (int i = 0; i < 4; ++i)
    out[t * 4 + i] = v * (i + 1); // PROBE
}
K gl_f32_store_stmts_assume(const float *in, float *out) {
  const int t = blockIdx.x * 256 + threadIdx.x;
  float *o = static_cast<float *>(__builtin_assume_aligned(out, 16));
  float v = in[t];
  o[t * 4 + 0] = v; // PROBE
  o[t * 4 + 1] = v * 2; // PROBE
  o[t * 4 + 2] = v * 3; // PROBE
  o[t * 4 + 3] = v * 4; // PROBE
}
K gl_f32_store_devarray(const float *in) {
  const int t = blockIdx.x * 256 + threadIdx.x;
  float v = in[t];
#pragma unroll
  for (int i = 0; i < 4; ++i)
    gdev[t * 4 + i] = v * (i + 1); // PROBE
}
K gl_u16_u8_restrict(const unsigned short *__restrict__ in, unsigned *out) {
  const int t = blockIdx.x * 256 + threadIdx.x;
  unsigned a = 0;
#pragma unroll
  for (int i = 0; i < 8; ++i)
    a += in[t * 8 + i] * (i + 1); // PROBE
  out[t] = a;
}
K gl_f64_u2_restrict(const double *__restrict__ in, double *out) {
  const int t = blockIdx.x * 256 + threadIdx.x;
  double a = 0;
#pragma unroll
  for (int i = 0; i < 2; ++i)
    a += in[t * 2 + i] * (i + 1); // PROBE
  out[t] = a;
}

// --- round 2: questions the first round left --------------------------------
// The scalar stores of a float4's parts, alone in their kernel (the Cs of
// sh_sgemm_stores shared its index with Bs: ptxas derived one from the other
// and lost the alignment). Row pitch BN + 4 (16-byte multiple) and BN + 5.
K sh_stores_parts_pad4(const float4 *in, float *out) {
  constexpr int BN = 128, BK = 8;
  __shared__ float Cs[BK * (BN + 4)];
  const int t = threadIdx.x;
  const int innerRowB = t / (BN / 4), innerColB = t % (BN / 4);
  float4 u = in[t];
  Cs[innerRowB * (BN + 4) + innerColB * 4 + 0] = u.x; // PROBE
  Cs[innerRowB * (BN + 4) + innerColB * 4 + 1] = u.y; // PROBE
  Cs[innerRowB * (BN + 4) + innerColB * 4 + 2] = u.z; // PROBE
  Cs[innerRowB * (BN + 4) + innerColB * 4 + 3] = u.w; // PROBE
  __syncthreads();
  out[t] = Cs[t * 5];
}
K sh_stores_parts_pad5(const float4 *in, float *out) {
  constexpr int BN = 128, BK = 8;
  __shared__ float Bs[BK * (BN + 5)];
  const int t = threadIdx.x;
  const int innerRowB = t / (BN / 4), innerColB = t % (BN / 4);
  float4 u = in[t];
  Bs[innerRowB * (BN + 5) + innerColB * 4 + 0] = u.x; // PROBE
  Bs[innerRowB * (BN + 5) + innerColB * 4 + 1] = u.y; // PROBE
  Bs[innerRowB * (BN + 5) + innerColB * 4 + 2] = u.z; // PROBE
  Bs[innerRowB * (BN + 5) + innerColB * 4 + 3] = u.w; // PROBE
  __syncthreads();
  out[t] = Bs[t * 5];
}
// 12 bytes at a 16-byte boundary; 8 bytes 4 past one (loads).
K sh_f32_u3_at0(const float *in, float *out) {
  __shared__ float s[256 * 4 + 64];
  const int t = threadIdx.x;
  for (int j = t; j < 256 * 4 + 64; j += 256) s[j] = in[j];
  __syncthreads();
  float a = 0;
#pragma unroll
  for (int i = 0; i < 3; ++i)
    a += s[t * 4 + i] * (i + 1); // PROBE
  out[t] = a;
}
K sh_f32_u2_at4(const float *in, float *out) {
  __shared__ float s[256 * 4 + 64];
  const int t = threadIdx.x;
  for (int j = t; j < 256 * 4 + 64; j += 256) s[j] = in[j];
  __syncthreads();
  float a = 0;
#pragma unroll
  for (int i = 0; i < 2; ++i)
    a += s[t * 4 + 1 + i] * (i + 1); // PROBE
  out[t] = a;
}
// Stores 4 bytes past a 16-byte boundary, 8 elements.
K sh_f32_store_u8_off1(const float *in, float *out) {
  __shared__ float s[256 * 8 + 64];
  const int t = threadIdx.x;
  float v = in[t];
#pragma unroll
  for (int i = 0; i < 8; ++i)
    s[t * 8 + 1 + i] = v * (i + 1); // PROBE
  __syncthreads();
  out[t] = s[(t * 7) % 1024];
}
// #pragma unroll 4 of 16: runs of 4.
K sh_f32_u16_partial4(const float *in, float *out) {
  __shared__ float s[256 * 16 + 64];
  const int t = threadIdx.x;
  for (int j = t; j < 256 * 16 + 64; j += 256) s[j] = in[j];
  __syncthreads();
  float a = 0;
#pragma unroll 4
  for (int i = 0; i < 16; ++i)
    a += s[t * 16 + i] * (i + 1); // PROBE
  out[t] = a;
}

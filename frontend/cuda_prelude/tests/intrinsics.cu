// Device intrinsics nvcc provides without any include: every cache-hint load
// and store on every plain and vector type nvcc declares them for (most of
// the stores and __ldca/__ldlu are what clang's headers lack), warp vote /
// shuffle / match / reduce, bit manipulation, fast math, conversions, clocks,
// address-space predicates, the sm_90 128-bit atomics, DPX and cluster
// functions, and the min/max overloads.
#include <cuda_runtime.h>

template <typename T>
__device__ void all_hints(const T *in, T *out, int i) {
  T a = __ldg(in + i);
  T b = __ldcg(in + i);
  T c = __ldca(in + i);
  T d = __ldcs(in + i);
  T e = __ldlu(in + i);
  T f = __ldcv(in + i);
  __stwb(out + i, a);
  __stcg(out + i + 1, b);
  __stcs(out + i + 2, c);
  __stwt(out + i + 3, d);
  __stcs(out + i + 4, e);
  __stcg(out + i + 5, f);
}

__global__ void hints_plain(char *c, signed char *sc, short *s, int *i, long *l,
                            long long *ll, unsigned char *uc,
                            unsigned short *us, unsigned *u, unsigned long *ul,
                            unsigned long long *ull, float *f, double *d) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  all_hints<char>(c, c, t);
  all_hints<signed char>(sc, sc, t);
  all_hints<short>(s, s, t);
  all_hints<int>(i, i, t);
  all_hints<long>(l, l, t);
  all_hints<long long>(ll, ll, t);
  all_hints<unsigned char>(uc, uc, t);
  all_hints<unsigned short>(us, us, t);
  all_hints<unsigned>(u, u, t);
  all_hints<unsigned long>(ul, ul, t);
  all_hints<unsigned long long>(ull, ull, t);
  all_hints<float>(f, f, t);
  all_hints<double>(d, d, t);
}

__global__ void hints_vector(char2 *c2, char4 *c4, short2 *s2, short4 *s4,
                             int2 *i2, int4 *i4, longlong2 *ll2, uchar2 *uc2,
                             uchar4 *uc4, ushort2 *us2, ushort4 *us4,
                             uint2 *u2, uint4 *u4, ulonglong2 *ull2,
                             float2 *f2, float4 *f4, double2 *d2) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  all_hints(c2, c2, t);
  all_hints(c4, c4, t);
  all_hints(s2, s2, t);
  all_hints(s4, s4, t);
  all_hints(i2, i2, t);
  all_hints(i4, i4, t);
  all_hints(ll2, ll2, t);
  all_hints(uc2, uc2, t);
  all_hints(uc4, uc4, t);
  all_hints(us2, us2, t);
  all_hints(us4, us4, t);
  all_hints(u2, u2, t);
  all_hints(u4, u4, t);
  all_hints(ull2, ull2, t);
  all_hints(f2, f2, t);
  all_hints(f4, f4, t);
  all_hints(d2, d2, t);
}

struct alignas(16) Pair64 {
  unsigned long long lo, hi;
};

__global__ void warp_and_bits(const unsigned *in, unsigned *out, Pair64 *p) {
  const unsigned full = 0xffffffffu;
  int lane = threadIdx.x & 31;
  unsigned v = in[blockIdx.x * blockDim.x + threadIdx.x];
  unsigned r = __popc(v) + __popcll(0xffull) + __clz((int)v) + __clzll(1ll) +
               __ffs((int)v) + __ffsll(2ll) + __brev(v) + __byte_perm(v, v, 0x3210) +
               __funnelshift_l(v, v, 3) + __funnelshift_r(v, v, 5) +
               __funnelshift_lc(v, v, 40) + __mul24(3, 4) + __umulhi(v, v) +
               __sad(1, 2, 3u) + __usad(1u, 2u, 3u) + __vabsdiffu4(v, v) +
               __vadd4(v, v) + __dp4a(v, v, 0u) + __dp2a_lo(1, 2, 3) +
               __nv_bswap32(v);
  r += __ballot_sync(full, v & 1) + __any_sync(full, lane == 0) +
       __all_sync(full, 1) + __activemask() + __match_any_sync(full, v) +
       __reduce_add_sync(full, v) + __reduce_max_sync(full, (int)v) +
       __reduce_or_sync(full, v) + __shfl_sync(full, v, 0) +
       __shfl_up_sync(full, v, 1) + __shfl_down_sync(full, v, 1, 16) +
       __shfl_xor_sync(full, v, 4);
  int pred = 0;
  r += __match_all_sync(full, (float)v, &pred) + pred;
  r += __syncthreads_count(v > 3) + __syncthreads_and(1) + __syncthreads_or(0);
  __syncwarp();
  __syncwarp(0x0000ffffu);
  __threadfence_block();
  __threadfence();
  __threadfence_system();
  __nanosleep(100);
  long long t0 = clock64();
  r += (unsigned)(clock() + t0);
  out[blockIdx.x * blockDim.x + threadIdx.x] = r + min(r, 4u) + max((int)r, 5) +
                                               min((int)r, 6u) + max(7ull, (unsigned long long)r);
  Pair64 expected = {0, 0}, desired = {1, 2};
  Pair64 old = atomicCAS(p, expected, desired);
  old = atomicExch(p + 1, old);
  atomicExch_block(p + 2, old);
}

__global__ void math_intrinsics(const float *x, float *y, double *z,
                                float2 *acc2, float4 *acc4) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = x[i], s, c;
  __sincosf(v, &s, &c);
  sincosf(v, &s, &c);
  float r = __tanhf(v) + __expf(v) + __exp10f(v) + __logf(v) + __log2f(v) +
            __powf(v, 2.0f) + __sinf(v) + __cosf(v) + __tanf(v) +
            __fdividef(v, 3.0f) + __saturatef(v) + __frcp_rn(v) +
            __fsqrt_rn(v) + __frsqrt_rn(v) + __fmaf_rn(v, v, v) +
            __fmul_rz(v, v) + __fadd_rd(v, v) + __fdiv_rn(v, 2.0f) + rsqrtf(v) +
            rcbrtf(v) + normcdff(v) + normcdfinvf(v) + erfinvf(v) + erfcxf(v) +
            exp10f(v) + sinpif(v) + cospif(v) + rsqrt(v) + fminf(v, s) +
            fmaxf(v, c) + fdimf(v, 1.0f) + copysignf(v, -1.0f) + truncf(v) +
            roundf(v) + rintf(v) + nearbyintf(v) + floorf(v) + ceilf(v) +
            log1pf(v) + expm1f(v) + cbrtf(v) + hypotf(v, s) + atan2f(v, c) +
            lgammaf(v) + tgammaf(v) + erff(v) + erfcf(v) + min(v, 1.0f) + max(v, 0.0f);
  r += __int_as_float(__float_as_int(v)) + __uint_as_float(__float_as_uint(v)) +
       (float)__float2int_rn(v) + (float)__float2uint_rz(v) +
       (float)__float2ll_rd(v) + __int2float_rn(i) + __uint2float_rz(3u) +
       __ll2float_rn(4ll);
  double d = z[i];
  d += __dadd_rn(d, d) + __dmul_rz(d, d) + __fma_rn(d, d, d) + __drcp_rn(d) +
       __dsqrt_rn(d) + rsqrt(d) + normcdf(d) + __hiloint2double(__double2hiint(d), __double2loint(d)) +
       __longlong_as_double(__double_as_longlong(d)) + (double)__double2float_rn(d) +
       min(d, 1.0) + max(d, 2.0f);
  y[i] = r;
  z[i] = d;
  atomicAdd(acc2, make_float2(r, 1.0f));
  atomicAdd_block(acc4, make_float4(r, r, r, 1.0f));
}

__global__ void address_spaces(const float *g, float *out) {
  __shared__ float sh[128];
  sh[threadIdx.x] = g[threadIdx.x];
  __syncthreads();
  size_t sa = __cvta_generic_to_shared(&sh[threadIdx.x]);
  unsigned flags = __isShared(sh) | (__isGlobal(g) << 1) | (__isLocal(out) << 2) |
                   (__isConstant(g) << 3);
  out[threadIdx.x] = sh[127 - threadIdx.x] + (float)(sa + flags);
}

__global__ void __cluster_dims__(2, 1, 1) dpx_and_clusters(int *out) {
  __shared__ int buf[64];
  buf[threadIdx.x] = threadIdx.x;
  __cluster_barrier_arrive();
  __cluster_barrier_wait();
  unsigned rank = __clusterRelativeBlockRank();
  int *remote = (int *)__cluster_map_shared_rank(buf, rank ^ 1);
  bool pred = false;
  int v = __viaddmax_s32(remote[threadIdx.x], 1, 2) + __vimax3_s32(1, 2, 3) +
          __vibmax_s32(4, 5, &pred) + (int)__clusterSizeInBlocks() +
          (int)__clusterDimIsSpecified() + (pred ? 1 : 0);
  dim3 cidx = __clusterIdx();
  out[blockIdx.x * blockDim.x + threadIdx.x] = v + (int)cidx.x;
}

int main() {
  void *p;
  cudaMalloc(&p, 1 << 26);
  hints_plain<<<1, 32>>>((char *)p, (signed char *)p, (short *)p, (int *)p,
                         (long *)p, (long long *)p, (unsigned char *)p,
                         (unsigned short *)p, (unsigned *)p,
                         (unsigned long *)p, (unsigned long long *)p,
                         (float *)p, (double *)p);
  warp_and_bits<<<64, 256>>>((const unsigned *)p, (unsigned *)p, (Pair64 *)p);
  math_intrinsics<<<64, 256>>>((const float *)p, (float *)p, (double *)p,
                               (float2 *)p, (float4 *)p);
  address_spaces<<<1, 128>>>((const float *)p, (float *)p);
  dpx_and_clusters<<<2, 64>>>((int *)p);
  cudaDeviceSynchronize();
  cudaFree(p);
  return 0;
}

// Half and bfloat16 kernels: __half2 / __nv_bfloat162 packed math, scalar
// conversions, operators, warp shuffles on 16-bit types, cache-hinted loads
// and stores of __half / __nv_bfloat16, and the host side that converts.
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <vector>

__global__ void hadd2_kernel(const __half2 *__restrict__ a,
                             const __half2 *__restrict__ b,
                             __half2 *__restrict__ c, int n2) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n2)
    c[i] = __hadd2(a[i], b[i]);
}

__global__ void gelu_half2(__half2 *x, int n2) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n2)
    return;
  __half2 v = __ldg(&x[i]);
  const __half2 k0 = __float2half2_rn(0.7978845608f);
  const __half2 k1 = __float2half2_rn(0.044715f);
  __half2 inner = __hmul2(k0, __hfma2(__hmul2(k1, v), __hmul2(v, v), v));
  float2 f = __half22float2(inner);
  __half2 t = __floats2half2_rn(tanhf(f.x), tanhf(f.y));
  x[i] = __hmul2(__hmul2(__float2half2_rn(0.5f), v),
                 __hadd2(__float2half2_rn(1.0f), t));
}

__global__ void softmax_row_half(const __half *in, __half *out, int cols) {
  const __half *row = in + (size_t)blockIdx.x * cols;
  __half *orow = out + (size_t)blockIdx.x * cols;
  float m = -65504.0f;
  for (int c = threadIdx.x; c < cols; c += 32)
    m = fmaxf(m, __half2float(row[c]));
  for (int o = 16; o > 0; o >>= 1)
    m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
  float s = 0.0f;
  for (int c = threadIdx.x; c < cols; c += 32)
    s += __expf(__half2float(row[c]) - m);
  for (int o = 16; o > 0; o >>= 1)
    s += __shfl_xor_sync(0xffffffffu, s, o);
  for (int c = threadIdx.x; c < cols; c += 32)
    orow[c] = __float2half(__expf(__half2float(row[c]) - m) / s);
}

__global__ void half_ops(__half *h, __half2 *h2, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  __half a = h[i];
  __half b = __float2half(2.0f);
  __half c = a * b + a - b / a;
  c += __hfma(a, b, c);
  __half d = hexp(c) + hsqrt(__habs(c)) + hlog(b) + hrcp(b);
  bool gt = a > b, eq = __heq(a, b);
  __half2 p = h2[i];
  p = p * p + __halves2half2(a, b);
  p = h2exp(__hmax2(p, __half2half2(d)));
  __half sh = __shfl_down_sync(0xffffffffu, c, 1);
  __half2 sh2 = __shfl_xor_sync(0xffffffffu, p, 2);
  out[i] = __half2float(c) + __half2float(d) + (gt ? 1.0f : 0.0f) +
           (eq ? 1.0f : 0.0f) + __low2float(p) + __high2float(sh2) +
           __half2float(sh) + (float)__half2int_rn(a);
  __half2_raw raw = p;
  h2[i] = __half2(raw);
}

__global__ void bf16_ops(const __nv_bfloat16 *x, const __nv_bfloat162 *x2,
                         __nv_bfloat16 *y, __nv_bfloat162 *y2, float *out,
                         int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  __nv_bfloat16 a = __ldcs(&x[i]);
  __nv_bfloat162 p = __ldg(&x2[i]);
  __nv_bfloat16 b = __float2bfloat16(0.5f) * a + __hmax(a, __float2bfloat16(0.0f));
  __nv_bfloat162 q = __hfma2(p, p, __bfloat162bfloat162(b));
  q = __hmul2(q, __floats2bfloat162_rn(1.0f, 2.0f));
  float2 f = __bfloat1622float2(q);
  __stcs(&y[i], b);
  __stcs(&y2[i], q);
  out[i] = __bfloat162float(b) + f.x + f.y + __low2float(q) +
           __bfloat162float(__shfl_sync(0xffffffffu, a, 0));
}

__global__ void half_cache_hints(const __half *in, __half *out,
                                 const __nv_bfloat16 *bin,
                                 __nv_bfloat16 *bout, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    __half v = __ldcs(in + i) + __ldg(in + i) + __ldcg(in + i) + __ldlu(in + i);
    __stcs(out + i, v);
    __stcg(out + i, v);
    __stwt(out + i, v);
    __nv_bfloat16 w = __ldcs(bin + i) + __ldca(bin + i) + __ldcv(bin + i);
    __stcs(bout + i, w);
    __stwb(bout + i, w);
  }
}

__global__ void half_atomics(__half *acc, __half2 *acc2, __nv_bfloat16 *bacc,
                             const __half *v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(acc, v[i]);
  atomicAdd(acc2, __halves2half2(v[i], v[i]));
  atomicAdd(bacc, __float2bfloat16(__half2float(v[i])));
}

int main() {
  const int n = 1 << 20;
  std::vector<__half> h(n);
  for (int i = 0; i < n; ++i)
    h[i] = __float2half(0.001f * i);
  std::vector<__nv_bfloat16> b(n);
  for (int i = 0; i < n; ++i)
    b[i] = __float2bfloat16(__half2float(h[i]));
  __half *dh;
  __nv_bfloat16 *db;
  float *out;
  cudaMalloc(&dh, n * sizeof(__half));
  cudaMalloc(&db, n * sizeof(__nv_bfloat16));
  cudaMalloc(&out, n * sizeof(float));
  cudaMemcpy(dh, h.data(), n * sizeof(__half), cudaMemcpyHostToDevice);
  cudaMemcpy(db, b.data(), n * sizeof(__nv_bfloat16), cudaMemcpyHostToDevice);
  hadd2_kernel<<<n / 512, 256>>>((const __half2 *)dh, (const __half2 *)dh,
                                 (__half2 *)dh, n / 2);
  gelu_half2<<<n / 512, 256>>>((__half2 *)dh, n / 2);
  softmax_row_half<<<n / 1024, 32>>>(dh, dh, 1024);
  half_ops<<<n / 512, 256>>>(dh, (__half2 *)dh, out, n / 2);
  bf16_ops<<<n / 512, 256>>>(db, (const __nv_bfloat162 *)db, db,
                             (__nv_bfloat162 *)db, out, n / 2);
  half_cache_hints<<<n / 256, 256>>>(dh, dh, db, db, n);
  half_atomics<<<n / 256, 256>>>(dh, (__half2 *)dh, db, dh);
  cudaDeviceSynchronize();
  cudaFree(dh);
  cudaFree(db);
  cudaFree(out);
  return 0;
}

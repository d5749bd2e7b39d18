// The four ways a thread can read a row (blocked, striped, blocked +
// vectorized, staged through shared memory with padding) on bf16 rows, a
// product along each row; float4 / uint4 reinterpret_cast loads and stores;
// cache-hinted __ldg / __ldcs / __stcs on float and float4; a misaligned
// vector path guarded by an alignment check.
#include <cstdint>
#include <cuda_runtime.h>
#include <cuda_bf16.h>

constexpr int N = 4096;

// blocked: thread t reads V consecutive elements.
template <int THREADS>
__global__ void row_product_blocked(const __nv_bfloat16 *__restrict__ X,
                                    float *__restrict__ out) {
  constexpr int V = N / THREADS;
  const __nv_bfloat16 *row = X + (size_t)blockIdx.x * N;
  float p = 1.0f;
#pragma unroll 4
  for (int c = 0; c < V; ++c)
    p *= __bfloat162float(row[threadIdx.x * V + c]);
  atomicAdd(&out[blockIdx.x], p);
}

// striped: consecutive threads read consecutive elements.
template <int THREADS>
__global__ void row_product_striped(const __nv_bfloat16 *__restrict__ X,
                                    float *__restrict__ out) {
  constexpr int V = N / THREADS;
  const __nv_bfloat16 *row = X + (size_t)blockIdx.x * N;
  float p = 1.0f;
  for (int c = 0; c < V; ++c)
    p *= __bfloat162float(row[c * THREADS + threadIdx.x]);
  atomicAdd(&out[blockIdx.x], p);
}

// blocked + vectorized: 16-byte uint4 loads of 8 bf16.
template <int THREADS>
__global__ void row_product_blocked_vec(const __nv_bfloat16 *__restrict__ X,
                                        float *__restrict__ out) {
  constexpr int V = N / THREADS;
  const uint4 *row =
      reinterpret_cast<const uint4 *>(X + (size_t)blockIdx.x * N);
  float p = 1.0f;
  for (int c = 0; c < V / 8; ++c) {
    uint4 u = row[threadIdx.x * (V / 8) + c];
    const __nv_bfloat162 *h = reinterpret_cast<const __nv_bfloat162 *>(&u);
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      float2 f = __bfloat1622float2(h[k]);
      p *= f.x * f.y;
    }
  }
  atomicAdd(&out[blockIdx.x], p);
}

// staged: coalesced copy into shared memory, then blocked reads from it.
template <int THREADS, int PAD>
__global__ void row_product_staged(const __nv_bfloat16 *__restrict__ X,
                                   float *__restrict__ out) {
  constexpr int V = N / THREADS;
  __shared__ __nv_bfloat16 sh[THREADS][V + PAD];
  const __nv_bfloat16 *row = X + (size_t)blockIdx.x * N;
  for (int c = 0; c < V; ++c) {
    int idx = c * THREADS + threadIdx.x;
    sh[idx / V][idx % V] = row[idx];
  }
  __syncthreads();
  float p = 1.0f;
  for (int c = 0; c < V; ++c)
    p *= __bfloat162float(sh[threadIdx.x][c]);
  atomicAdd(&out[blockIdx.x], p);
}

__global__ void copy_float4(const float *__restrict__ in,
                            float *__restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i * 4 + 3 < n) {
    float4 v = reinterpret_cast<const float4 *>(in)[i];
    reinterpret_cast<float4 *>(out)[i] = v;
  }
}

__global__ void copy_float4_hinted(const float4 *__restrict__ in,
                                   float4 *__restrict__ out, int n4) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4) {
    float4 v = __ldcs(in + i);
    v.x *= 2.0f;
    __stcs(out + i, v);
  }
}

__global__ void scalar_hinted(const float *__restrict__ in,
                              float *__restrict__ out, int n, int offset) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + offset < n) {
    float a = __ldg(in + i + offset);
    float b = __ldcs(in + i);
    __stcs(out + i, a + b);
  }
}

__global__ void copy_maybe_vector(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  bool aligned = ((reinterpret_cast<uintptr_t>(in) |
                   reinterpret_cast<uintptr_t>(out)) % 16) == 0;
  if (aligned) {
    if (i < n / 4)
      reinterpret_cast<float4 *>(out)[i] =
          __ldg(reinterpret_cast<const float4 *>(in) + i);
  } else {
    for (int k = i; k < n; k += blockDim.x * gridDim.x)
      out[k] = in[k];
  }
}

__global__ void gather_even(const float *in, float *out, int n) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (2 * k < n)
    out[k] = in[2 * k];
}

__global__ void double2_and_int4(const double2 *a, int4 *b, uint2 *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    double2 d = a[i];
    int4 v = make_int4((int)d.x, (int)d.y, 0, 1);
    b[i] = v;
    c[i] = make_uint2(v.x, v.y);
  }
}

int main() {
  const int rows = 65536;
  __nv_bfloat16 *X;
  float *out;
  cudaMalloc(&X, (size_t)rows * N * sizeof(__nv_bfloat16));
  cudaMalloc(&out, rows * sizeof(float));
  row_product_blocked<256><<<rows, 256>>>(X, out);
  row_product_striped<256><<<rows, 256>>>(X, out);
  row_product_blocked_vec<256><<<rows, 256>>>(X, out);
  row_product_staged<256, 0><<<rows, 256>>>(X, out);
  row_product_staged<256, 2><<<rows, 256>>>(X, out);
  row_product_staged<128, 8><<<rows, 128>>>(X, out);
  float *f = reinterpret_cast<float *>(X);
  copy_float4<<<1024, 256>>>(f, f + 4 * 1024 * 256, 4 * 1024 * 256);
  copy_float4_hinted<<<1024, 256>>>((const float4 *)f, (float4 *)f, 1024 * 256);
  scalar_hinted<<<1024, 256>>>(f, f, 1024 * 256, 1);
  copy_maybe_vector<<<1024, 256>>>(f + 1, f, 1024 * 256);
  gather_even<<<1024, 256>>>(f, f, 1024 * 256);
  double2_and_int4<<<64, 256>>>((const double2 *)f, (int4 *)f, (uint2 *)f, 64 * 256);
  cudaDeviceSynchronize();
  cudaFree(X);
  cudaFree(out);
  return 0;
}

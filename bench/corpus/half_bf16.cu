// Half and bfloat16 element-wise kernels: scalar, paired (half2 /
// nv_bfloat162) and a column-major read.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

#include "common/check_helpers.h"

__global__ void scaleHalf(__half *v, __half s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    v[i] = __hmul(v[i], s);
}

__global__ void scaleHalf2(__half2 *v, __half2 s, int n2) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n2)
    v[i] = __hmul2(v[i], s);
}

__global__ void addBf16(const __nv_bfloat16 *a, const __nv_bfloat16 *b,
                        __nv_bfloat16 *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = __hadd(a[i], b[i]);
}

__global__ void addBf162(const __nv_bfloat162 *a, const __nv_bfloat162 *b,
                         __nv_bfloat162 *c, int n2) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n2)
    c[i] = __hadd2(a[i], b[i]);
}

__global__ void columnSumHalf(const __half *m, float *out, int rows,
                              int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  float s = 0;
  for (int c = 0; c < cols; ++c)
    s += __half2float(m[r * cols + c]);
  out[r] = s;
}

int main() {
  const int n = 1 << 20;
  std::vector<__half> h(n, __float2half(1.0f));
  __half *d;
  checkCuda(cudaMalloc(&d, n * sizeof(__half)));
  checkCuda(cudaMemcpy(d, h.data(), n * sizeof(__half),
                       cudaMemcpyHostToDevice));
  scaleHalf<<<n / 256, 256>>>(d, __float2half(2.0f), n);
  scaleHalf2<<<n / 512, 256>>>(reinterpret_cast<__half2 *>(d),
                               __float2half2_rn(2.0f), n / 2);
  std::printf("done\n");
  return 0;
}

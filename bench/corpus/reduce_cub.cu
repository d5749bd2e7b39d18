// Block-wide sums with CUB next to a hand-written shared-memory reduction.
#include <cub/cub.cuh>
#include <cuda_runtime.h>

#include <cstdio>
#include <numeric>
#include <vector>

#include "common/check_helpers.h"

constexpr int BLOCK = 256;

__global__ void sumCub(const float *in, float *out, int n) {
  using Reduce = cub::BlockReduce<float, BLOCK>;
  __shared__ typename Reduce::TempStorage temp;
  int i = blockIdx.x * BLOCK + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  float total = Reduce(temp).Sum(v);
  if (threadIdx.x == 0)
    out[blockIdx.x] = total;
}

__global__ void sumShared(const float *in, float *out, int n) {
  __shared__ float partial[BLOCK];
  int i = blockIdx.x * BLOCK + threadIdx.x;
  partial[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int s = BLOCK / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s)
      partial[threadIdx.x] += partial[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    out[blockIdx.x] = partial[0];
}

__global__ void sumInterleaved(const float *in, float *out, int n) {
  __shared__ float partial[BLOCK];
  int i = blockIdx.x * BLOCK + threadIdx.x;
  partial[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int s = 1; s < BLOCK; s *= 2) {
    if (threadIdx.x % (2 * s) == 0)
      partial[threadIdx.x] += partial[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    out[blockIdx.x] = partial[0];
}

int main() {
  const int n = 1 << 20, blocks = n / BLOCK;
  std::vector<float> host(n, 1.0f);
  float *in, *out;
  checkCuda(cudaMalloc(&in, n * sizeof(float)));
  checkCuda(cudaMalloc(&out, blocks * sizeof(float)));
  checkCuda(cudaMemcpy(in, host.data(), n * sizeof(float),
                       cudaMemcpyHostToDevice));
  sumCub<<<blocks, BLOCK>>>(in, out, n);
  sumShared<<<blocks, BLOCK>>>(in, out, n);
  sumInterleaved<<<blocks, BLOCK>>>(in, out, n);
  std::vector<float> sums(blocks);
  checkCuda(cudaMemcpy(sums.data(), out, blocks * sizeof(float),
                       cudaMemcpyDeviceToHost));
  std::printf("%f\n", std::accumulate(sums.begin(), sums.end(), 0.0f));
  return 0;
}

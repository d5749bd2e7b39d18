// Reductions: shared-memory tree reduction, warp-shuffle reduction with
// __shfl_down_sync / __shfl_xor_sync, a templated block size, cooperative
// groups (thread_block_tile<32>, cg::reduce) and atomics to combine blocks.
#include <cuda_runtime.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

__device__ __forceinline__ float warp_reduce_sum(float v) {
#pragma unroll
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

__device__ __forceinline__ float warp_allreduce_max(float v) {
  for (int mask = 16; mask > 0; mask >>= 1)
    v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, mask));
  return v;
}

template <int BLOCK>
__global__ void __launch_bounds__(BLOCK)
    reduce_shared(const float *__restrict__ in, float *__restrict__ out,
                  unsigned n) {
  __shared__ float sdata[BLOCK];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * (BLOCK * 2) + threadIdx.x;
  float sum = 0.0f;
  if (i < n)
    sum = in[i];
  if (i + BLOCK < n)
    sum += in[i + BLOCK];
  sdata[tid] = sum;
  __syncthreads();
  for (unsigned s = BLOCK / 2; s > 32; s >>= 1) {
    if (tid < s)
      sdata[tid] = sum = sum + sdata[tid + s];
    __syncthreads();
  }
  if (tid < 32) {
    if (BLOCK >= 64)
      sum += sdata[tid + 32];
    sum = warp_reduce_sum(sum);
  }
  if (tid == 0)
    out[blockIdx.x] = sum;
}

__global__ void reduce_warp_atomic(const float *in, float *result, int n) {
  __shared__ float warp_sums[32];
  float v = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    v += in[i];
  v = warp_reduce_sum(v);
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0)
    warp_sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < (int)(blockDim.x / 32) ? warp_sums[lane] : 0.0f;
    v = warp_reduce_sum(v);
    if (lane == 0)
      atomicAdd(result, v);
  }
}

__global__ void reduce_cg(const float *in, float *result, int n) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  float v = 0.0f;
  for (int i = block.group_index().x * block.size() + block.thread_rank(); i < n;
       i += block.size() * gridDim.x)
    v += in[i];
  v = cg::reduce(tile, v, cg::plus<float>());
  if (tile.thread_rank() == 0)
    atomicAdd(result, v);
}

__global__ void row_max(const float *m, float *out, int cols) {
  // One warp per row, lanes striped across the columns.
  const float *row = m + (size_t)blockIdx.x * cols;
  float v = -INFINITY;
  for (int c = threadIdx.x; c < cols; c += 32)
    v = fmaxf(v, row[c]);
  v = warp_allreduce_max(v);
  if (threadIdx.x == 0)
    out[blockIdx.x] = v;
}

__global__ void count_positive(const int *in, unsigned *count, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned ballot = __ballot_sync(0xffffffffu, i < n && in[i] > 0);
  if ((threadIdx.x & 31) == 0)
    atomicAdd(count, (unsigned)__popc(ballot));
}

int main() {
  const unsigned n = 1u << 24;
  float *in, *partial, *result;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&partial, 65536 * sizeof(float));
  cudaMalloc(&result, sizeof(float));
  cudaMemset(result, 0, sizeof(float));
  reduce_shared<256><<<n / 512, 256>>>(in, partial, n);
  reduce_shared<512><<<n / 1024, 512>>>(in, partial, n);
  reduce_warp_atomic<<<132 * 8, 256>>>(in, result, n);
  reduce_cg<<<132 * 8, 256>>>(in, result, n);
  row_max<<<4096, 32>>>(in, partial, 4096);
  unsigned *count;
  cudaMalloc(&count, sizeof(unsigned));
  count_positive<<<n / 256, 256>>>((const int *)in, count, n);
  cudaDeviceSynchronize();
  cudaFree(in);
  cudaFree(partial);
  cudaFree(result);
  cudaFree(count);
  return 0;
}

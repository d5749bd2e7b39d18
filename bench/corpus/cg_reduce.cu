// Cooperative groups: tiled partitions, a warp-level reduce and a grid
// group, next to the histogram helpers a samples program would carry.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_runtime.h>

#include "common/args_helpers.h"
#include "common/check_helpers.h"
#include "common/timer_helpers.h"

namespace cg = cooperative_groups;

__global__ void warpReduce(const int *in, int *out, int n) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : 0;
  int s = cg::reduce(warp, v, cg::plus<int>());
  if (warp.thread_rank() == 0)
    atomicAdd(out, s);
}

__global__ void blockHistogram(const unsigned char *data, unsigned *bins,
                               int n) {
  __shared__ unsigned local[256];
  cg::thread_block block = cg::this_thread_block();
  for (int b = threadIdx.x; b < 256; b += blockDim.x)
    local[b] = 0;
  block.sync();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    atomicAdd(&local[data[i]], 1u);
  block.sync();
  for (int b = threadIdx.x; b < 256; b += blockDim.x)
    atomicAdd(&bins[b], local[b]);
}

__global__ void rowSums(const float *m, float *out, int rows, int cols) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  if (row >= rows)
    return;
  float s = 0;
  for (int c = warp.thread_rank(); c < cols; c += 32)
    s += m[row * cols + c];
  s = cg::reduce(warp, s, cg::plus<float>());
  if (warp.thread_rank() == 0)
    out[row] = s;
}

int main(int argc, char **argv) {
  bench::Args args(argc, argv);
  const int n = args.getInt("n", 1 << 20);
  int *in, *out;
  checkCuda(cudaMalloc(&in, n * sizeof(int)));
  checkCuda(cudaMalloc(&out, sizeof(int)));
  bench::StopWatch sw;
  sw.start();
  warpReduce<<<n / 256, 256>>>(in, out, n);
  checkCuda(cudaDeviceSynchronize());
  sw.stop();
  std::printf("%.3f ms\n", sw.average());
  return 0;
}

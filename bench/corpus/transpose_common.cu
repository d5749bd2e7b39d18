// Tiled matrix transpose with the shared helpers (common/): cuda_runtime.h,
// cooperative groups and a good part of the C++ library in the preamble.
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include "common/args_helpers.h"
#include "common/check_helpers.h"
#include "common/timer_helpers.h"

namespace cg = cooperative_groups;

constexpr int TILE = 32;
constexpr int ROWS = 8;

__global__ void copyTile(float *out, const float *in, int width, int height) {
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    if (x < width && y + j < height)
      out[(y + j) * width + x] = in[(y + j) * width + x];
}

__global__ void transposeNaive(float *out, const float *in, int width,
                               int height) {
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    if (x < width && y + j < height)
      out[x * height + (y + j)] = in[(y + j) * width + x];
}

__global__ void transposeShared(float *out, const float *in, int width,
                                int height) {
  cg::thread_block block = cg::this_thread_block();
  __shared__ float tile[TILE][TILE];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
  cg::sync(block);
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

int main(int argc, char **argv) {
  bench::Args args(argc, argv);
  bench::pickDevice(argc, argv);
  const int w = args.getInt("width", 2048), h = args.getInt("height", 2048);
  std::vector<float> host = bench::randomMatrix(h, w, 7);
  float *in = nullptr, *out = nullptr;
  checkCuda(cudaMalloc(&in, host.size() * sizeof(float)));
  checkCuda(cudaMalloc(&out, host.size() * sizeof(float)));
  checkCuda(cudaMemcpy(in, host.data(), host.size() * sizeof(float),
                       cudaMemcpyHostToDevice));
  dim3 grid(w / TILE, h / TILE), block(TILE, ROWS);
  bench::StopWatch sw;
  bench::Results results;
  sw.start();
  copyTile<<<grid, block>>>(out, in, w, h);
  transposeNaive<<<grid, block>>>(out, in, w, h);
  transposeShared<<<grid, block>>>(out, in, w, h);
  checkLastError("transpose");
  checkCuda(cudaDeviceSynchronize());
  sw.stop();
  results.add("transpose", sw.average(), 0);
  results.write("transpose.txt");
  checkCuda(cudaFree(in));
  checkCuda(cudaFree(out));
  return 0;
}

// Matrix transposes: naive (strided stores), tiled through a 32x32 shared
// tile (32-way bank conflicts on the column read) and through a padded 32x33
// tile, with 32x8 blocks that each move four rows per thread; plus a 2-D copy
// for reference. 2-D launches with dim3.
#include <cuda_runtime.h>

constexpr int TILE_DIM = 32;
constexpr int BLOCK_ROWS = 8;

__global__ void copy2d(float *odata, const float *idata, int width) {
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    odata[(y + j) * width + x] = idata[(y + j) * width + x];
}

__global__ void transpose_naive(float *odata, const float *idata, int width,
                                int height) {
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < width && y + j < height)
      odata[x * height + (y + j)] = idata[(y + j) * width + x];
}

__global__ void transpose_tiled(float *odata, const float *idata, int width) {
  __shared__ float tile[TILE_DIM][TILE_DIM];
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x];
  __syncthreads();
  x = blockIdx.y * TILE_DIM + threadIdx.x;
  y = blockIdx.x * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    odata[(y + j) * width + x] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void transpose_padded(float *odata, const float *idata, int width) {
  __shared__ float tile[TILE_DIM][TILE_DIM + 1];
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
#pragma unroll
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x];
  __syncthreads();
  x = blockIdx.y * TILE_DIM + threadIdx.x;
  y = blockIdx.x * TILE_DIM + threadIdx.y;
#pragma unroll
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    odata[(y + j) * width + x] = tile[threadIdx.x][threadIdx.y + j];
}

// 16x16 blocks: a warp spans two threadIdx.y rows.
__global__ void transpose_16x16(float *out, const float *in, int n) {
  __shared__ float t[16][17];
  unsigned bx = blockIdx.x * 16, by = blockIdx.y * 16;
  t[threadIdx.y][threadIdx.x] = in[(by + threadIdx.y) * n + bx + threadIdx.x];
  __syncthreads();
  out[(bx + threadIdx.y) * n + by + threadIdx.x] = t[threadIdx.x][threadIdx.y];
}

int main() {
  const int n = 4096;
  float *a, *b;
  cudaMalloc(&a, sizeof(float) * n * n);
  cudaMalloc(&b, sizeof(float) * n * n);
  dim3 grid(n / TILE_DIM, n / TILE_DIM), block(TILE_DIM, BLOCK_ROWS);
  copy2d<<<grid, block>>>(b, a, n);
  transpose_naive<<<grid, block>>>(b, a, n, n);
  transpose_tiled<<<grid, block>>>(b, a, n);
  transpose_padded<<<grid, block>>>(b, a, n);
  transpose_16x16<<<dim3(n / 16, n / 16), dim3(16, 16)>>>(b, a, n);
  cudaDeviceSynchronize();
  cudaFree(a);
  cudaFree(b);
  return 0;
}

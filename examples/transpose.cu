// Matrix transpose, three ways (float, n x n, 32 x 8 thread blocks, each
// thread moving 4 elements of a 32 x 32 tile).
#define TILE 32
#define ROWS 8

// Naive: the read is coalesced, the write is not (lanes n floats apart).
__global__ void transpose_naive(const float *in, float *out, int n) {
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    out[x * n + (y + j)] = in[(y + j) * n + x];
}

// Tiled: both global accesses go along rows, but reading a column of the
// 32 x 32 tile, all 32 lanes hit the same shared-memory bank.
__global__ void transpose_tiled(const float *in, float *out, int n) {
  __shared__ float tile[TILE][TILE];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

void transpose(const float *in, float *out, int n) {
  dim3 grid(n / TILE, n / TILE), block(TILE, ROWS);
  transpose_naive<<<grid, block>>>(in, out, n);
  transpose_tiled<<<grid, block>>>(in, out, n);
}

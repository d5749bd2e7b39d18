// The product of each row of a bf16 matrix (65536 x 4096), one block per
// row: each thread multiplies V = 4096 / THREADS elements.
#include <cuda_bf16.h>

constexpr int N = 4096;

// Blocked, element by element: for a fixed c, adjacent lanes are V elements
// apart, so every load touches 32 sectors to use 64 bytes.
template <int THREADS, int V>
__global__ void row_product_blocked(const __nv_bfloat16 *X, float *out) {
  int row = blockIdx.x, tx = threadIdx.x;
  float acc = 1.f;
  for (int c = 0; c < V; ++c)
    acc *= __bfloat162float(X[row * N + tx * V + c]);
  out[row * THREADS + tx] = acc;
}

// Staged through shared memory, unpadded: the row stride is V / 2 words.
template <int THREADS, int V>
__global__ void row_product_staged(const __nv_bfloat16 *X, float *out) {
  __shared__ __nv_bfloat16 sh[THREADS][V];
  int row = blockIdx.x, tx = threadIdx.x;
  for (int i = tx; i < THREADS * V; i += THREADS)
    sh[i / V][i % V] = X[row * N + i];
  __syncthreads();
  float acc = 1.f;
  for (int c = 0; c < V; ++c)
    acc *= __bfloat162float(sh[tx][c]);
  out[row * THREADS + tx] = acc;
}

void row_products(const __nv_bfloat16 *X, float *out) {
  row_product_blocked<256, 16><<<65536, 256>>>(X, out);
  row_product_staged<256, 16><<<65536, 256>>>(X, out);
}

// Asynchronous copies into shared memory (cuda_pipeline primitives, the
// pipeline class, cg::memcpy_async / cg::wait) in a double-buffered loop,
// and a WMMA (tensor core) GEMM tile with half inputs and float accumulators.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_pipeline.h>
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <mma.h>

namespace cg = cooperative_groups;
using namespace nvcuda;

__global__ void double_buffered_sum(const float4 *__restrict__ in,
                                    float *__restrict__ out, int tiles) {
  __shared__ float4 buf[2][256];
  float acc = 0.0f;
  int t = threadIdx.x;
  __pipeline_memcpy_async(&buf[0][t], &in[blockIdx.x * tiles * 256 + t],
                          sizeof(float4));
  __pipeline_commit();
  for (int k = 0; k < tiles; ++k) {
    if (k + 1 < tiles)
      __pipeline_memcpy_async(&buf[(k + 1) & 1][t],
                              &in[(blockIdx.x * tiles + k + 1) * 256 + t],
                              sizeof(float4));
    __pipeline_commit();
    __pipeline_wait_prior(1);
    __syncthreads();
    float4 v = buf[k & 1][(t + 1) % 256];
    acc += v.x + v.y + v.z + v.w;
    __syncthreads();
  }
  out[blockIdx.x * 256 + t] = acc;
}

__global__ void pipeline_class(const int *in, int *out) {
  __shared__ int sh[128];
  nvcuda::experimental::pipeline pipe;
  nvcuda::experimental::memcpy_async(sh[threadIdx.x],
                                     in[blockIdx.x * 128 + threadIdx.x], pipe);
  pipe.commit_and_wait();
  __syncthreads();
  out[blockIdx.x * 128 + threadIdx.x] = sh[127 - threadIdx.x];
}

__global__ void cg_staged(const float *in, float *out, int n) {
  extern __shared__ float stage[];
  cg::thread_block block = cg::this_thread_block();
  const float *src = in + (size_t)block.group_index().x * block.size() * 4;
  cg::memcpy_async(block, stage, src, sizeof(float) * block.size() * 4);
  cg::wait(block);
  float v = 0.0f;
  for (int k = 0; k < 4; ++k)
    v += stage[block.thread_rank() * 4 + k];
  if (block.group_index().x * block.size() + block.thread_rank() < (unsigned)n)
    out[block.group_index().x * block.size() + block.thread_rank()] = v;
}

constexpr int WM = 16, WN = 16, WK = 16;

__global__ void wmma_gemm(const __half *a, const __half *b, float *c, int M,
                          int N, int K) {
  int warpM = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  int warpN = blockIdx.y * blockDim.y + threadIdx.y;
  wmma::fragment<wmma::matrix_a, WM, WN, WK, __half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, WM, WN, WK, __half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, WM, WN, WK, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  for (int k = 0; k < K; k += WK) {
    int aRow = warpM * WM, bCol = warpN * WN;
    if (aRow < M && bCol < N) {
      wmma::load_matrix_sync(fa, a + aRow * K + k, K);
      wmma::load_matrix_sync(fb, b + bCol * K + k, K);
      wmma::mma_sync(acc, fa, fb, acc);
    }
  }
  for (int i = 0; i < acc.num_elements; ++i)
    acc.x[i] *= 0.5f;
  int cRow = warpM * WM, cCol = warpN * WN;
  if (cRow < M && cCol < N)
    wmma::store_matrix_sync(c + cRow * N + cCol, acc, N, wmma::mem_row_major);
}

int main() {
  float *f;
  cudaMalloc(&f, 1 << 26);
  double_buffered_sum<<<128, 256>>>((const float4 *)f, f, 8);
  pipeline_class<<<128, 128>>>((const int *)f, (int *)f);
  cg_staged<<<128, 256, 256 * 4 * sizeof(float)>>>(f, f, 128 * 256);
  wmma_gemm<<<dim3(16, 16), dim3(128, 4)>>>((const __half *)f,
                                            (const __half *)f, f, 1024, 1024,
                                            1024);
  cudaDeviceSynchronize();
  cudaFree(f);
  return 0;
}

// Launches each kernel of siboehm/SGEMM_CUDA once at M = N = K = 4096 through
// the repository's own run_kernel (src/runner.cu), for a per-source-line
// Nsight Compute profile. The repository is not part of this one: build with
// its src/ on the include path (see sgemm_cuda.sh).
//   sgemm_cuda_driver KERNEL...
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <runner.cuh>

int main(int argc, char **argv) {
  const int S = 4096;
  size_t bytes = sizeof(float) * S * S;
  float *A, *B, *C;
  if (cudaMalloc(&A, bytes) || cudaMalloc(&B, bytes) || cudaMalloc(&C, bytes)) {
    fprintf(stderr, "sgemm_cuda_driver: cudaMalloc failed\n");
    return 2;
  }
  cudaMemset(A, 0, bytes);
  cudaMemset(B, 0, bytes);
  cudaMemset(C, 0, bytes);
  cublasHandle_t handle;
  cublasCreate(&handle);
  for (int i = 1; i < argc; ++i) {
    int k = atoi(argv[i]);
    run_kernel(k, S, S, S, 0.5f, A, B, 3.0f, C, handle);
    cudaError_t e = cudaDeviceSynchronize();
    printf("kernel %d: %s\n", k, cudaGetErrorString(e));
    if (e != cudaSuccess)
      return 1;
  }
  return 0;
}

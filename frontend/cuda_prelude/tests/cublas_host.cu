// Host code calling cuBLAS next to a kernel: parses on the built-in prelude
// (declarations only) as with the toolkit.
#include <cublas_v2.h>
#include <cublasLt.h>
#include <cuda_runtime.h>

__global__ void bias_add(float *out, const float *bias, int n, int oc) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] += bias[i % oc];
}

void matmul(cublasHandle_t handle, const float *a, const float *b, float *c,
            int m, int n, int k) {
  const float alpha = 1.0f, beta = 0.0f;
  cublasSgemm(handle, CUBLAS_OP_T, CUBLAS_OP_N, m, n, k, &alpha, a, k, b, k,
              &beta, c, m);
  cublasLtHandle_t lt;
  cublasLtCreate(&lt);
  cublasLtDestroy(lt);
}

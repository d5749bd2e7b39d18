// Host code using OpenMP, as built with `nvcc -Xcompiler -fopenmp`: nvcc's
// host compiler (GCC) has omp.h, clang has one only with libomp installed;
// fallback/omp.h stands in (searched after every other directory).
#include <omp.h>
#include <cuda_runtime.h>

__global__ void scale(float *x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= a;
}

int run_threads(float *dev, int n) {
  double t0 = omp_get_wtime();
  int sum = 0;
  omp_lock_t lock;
  omp_init_lock(&lock);
  omp_set_num_threads(omp_get_num_procs());
#pragma omp parallel for reduction(+ : sum)
  for (int i = 0; i < 4; i++) {
    omp_set_lock(&lock);
    sum += omp_get_thread_num() + omp_get_num_threads();
    omp_unset_lock(&lock);
  }
  omp_destroy_lock(&lock);
  scale<<<(n + 255) / 256, 256>>>(dev, 2.0f, n);
  return sum + omp_get_max_threads() + (int)(omp_get_wtime() - t0);
}

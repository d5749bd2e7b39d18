// Host code calling C math, string and time functions unqualified, with
// only cuda_runtime.h included: nvcc's cuda_runtime.h includes <math.h>,
// <stdlib.h>, <string.h> and <time.h> for its host pass (llm.c's
// dev/cuda/common.h relies on it).
#include <cuda_runtime.h>

template <class T> int count_bad(const T *a, int n) {
  int bad = 0;
  for (int i = 0; i < n; i++)
    if (!isfinite(a[i]) || isnan(a[i]) || isinf(a[i]))
      ++bad;
  return bad;
}

double host_seconds() {
  clock_t c = clock();
  time_t now = time(NULL);
  char buf[16];
  memcpy(buf, "abc", 4);
  double v = fabs(-1.0) + sqrt(2.0) + floor(1.5) + fmax(1.0, 2.0);
  double *p = &v;
  double r = *p + (double)c / CLOCKS_PER_SEC + (double)now;
  return r + strlen(buf) + abs(-3);
}

__global__ void finite_mask(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = isfinite(x[i]) ? 1.0f : 0.0f;
}

int host_main() {
  float a[2] = {1, 2};
  finite_mask<<<1, 32>>>(a, a, 2);
  return count_bad(a, 2) + (int)host_seconds();
}

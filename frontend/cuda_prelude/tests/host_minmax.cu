// Host code calling min()/max(), which nvcc accepts.
#include <cuda_runtime.h>
__global__ void k(float *p, int n) { p[threadIdx.x] = min(n, 3); }
int host_use(int a, int b) { return min(a, b) + max(a, b); }
unsigned host_u(unsigned a, unsigned b) { return min(a, b); }
float host_f(float a, float b) { return fminf(a, b) + max(a, b); }

// Atomics: a shared-memory histogram merged into global memory, an
// atomicCAS loop for a float maximum, the _block / _system scopes, integer
// min/max/inc/dec/and/or/xor/exch, double and unsigned long long atomics,
// float2 / float4 vector atomicAdd (sm_90) and a __managed__ counter.
#include <cuda_runtime.h>

__managed__ unsigned long long g_total = 0;
__device__ int g_flags;

__global__ void histogram256(const unsigned char *data, unsigned *hist,
                             int n) {
  __shared__ unsigned local[256];
  for (int b = threadIdx.x; b < 256; b += blockDim.x)
    local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    atomicAdd_block(&local[data[i]], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < 256; b += blockDim.x)
    if (local[b])
      atomicAdd(&hist[b], local[b]);
  if (threadIdx.x == 0)
    atomicAdd(&g_total, (unsigned long long)n);
}

__device__ float atomic_max_float(float *addr, float value) {
  int *a = reinterpret_cast<int *>(addr);
  int old = *a, assumed;
  do {
    assumed = old;
    if (__int_as_float(assumed) >= value)
      break;
    old = atomicCAS(a, assumed, __float_as_int(value));
  } while (assumed != old);
  return __int_as_float(old);
}

__global__ void atomics_zoo(const float *x, float *fmax_out, int *ints,
                            unsigned *uints, unsigned long long *ulls,
                            double *dsum, float2 *f2, float4 *f4, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float v = x[i];
  atomic_max_float(fmax_out, v);
  atomicMax(&ints[0], i);
  atomicMin(&ints[1], -i);
  atomicSub(&ints[2], 1);
  atomicExch(&ints[3], i);
  atomicAnd(&ints[4], 0xff);
  atomicOr(&ints[5], 1 << (i & 31));
  atomicXor(&ints[6], i);
  atomicInc(&uints[0], 1024u);
  atomicDec(&uints[1], 1024u);
  atomicMax_system(&uints[2], (unsigned)i);
  atomicCAS_block(&uints[3], 0u, 1u);
  atomicAdd(&ulls[0], 1ull);
  atomicMax(&ulls[1], (unsigned long long)i);
  atomicAdd(dsum, (double)v);
  atomicAdd_system(dsum + 1, 1.0);
  atomicExch(fmax_out + 1, v);
  atomicAdd(f2, make_float2(v, 1.0f));
  atomicAdd(f4, make_float4(v, v, v, 1.0f));
  atomicOr(&g_flags, 1);
}

int main() {
  unsigned char *data;
  unsigned *hist;
  cudaMalloc(&data, 1 << 24);
  cudaMallocManaged(&hist, 256 * sizeof(unsigned));
  histogram256<<<132 * 4, 256>>>(data, hist, 1 << 24);
  cudaDeviceSynchronize();
  unsigned long long total = g_total;
  cudaFree(data);
  cudaFree(hist);
  return total == 0 ? 1 : 0;
}

// Language features kernels use: templates (type, non-type, variadic,
// if constexpr, SFINAE), __host__ __device__ helpers and operators on vector
// types, struct parameters passed by value and as __grid_constant__, dynamic
// shared memory, local arrays, lambdas inside device code, __launch_bounds__,
// __maxnreg__, __noinline__ / __forceinline__, __restrict__,
// __builtin_assume_aligned, __align__ structs, unions, namespaces.
#include <cstdint>
#include <type_traits>
#include <cuda_runtime.h>

namespace linalg {

__host__ __device__ inline float2 operator+(float2 a, float2 b) {
  return make_float2(a.x + b.x, a.y + b.y);
}
__host__ __device__ inline float2 operator*(float s, float2 a) {
  return make_float2(s * a.x, s * a.y);
}
__host__ __device__ inline float dot(float4 a, float4 b) {
  return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
}

struct __align__(16) Particle {
  float3 pos;
  float mass;
};

struct Params {
  const float *in;
  float *out;
  int n;
  float coeffs[8];
};

} // namespace linalg

using namespace linalg;

template <typename T, int ITEMS, typename Enable = void> struct Loader;
template <typename T, int ITEMS>
struct Loader<T, ITEMS, typename std::enable_if<std::is_floating_point<T>::value>::type> {
  __device__ static void load(const T *src, T (&dst)[ITEMS], int base) {
#pragma unroll
    for (int k = 0; k < ITEMS; ++k)
      dst[k] = src[base + k];
  }
};

template <typename T, int ITEMS>
__global__ void __launch_bounds__(256, 2)
    blocked_sum(const T *__restrict__ in, T *__restrict__ out) {
  T items[ITEMS];
  Loader<T, ITEMS>::load(in, items, (blockIdx.x * blockDim.x + threadIdx.x) * ITEMS);
  T s = T(0);
  for (int k = 0; k < ITEMS; ++k)
    s += items[k];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

template <int N> __device__ __forceinline__ int unrolled_index(int i) {
  if constexpr (N % 2 == 0)
    return i * N / 2;
  else
    return i * N;
}

template <typename... Ts> __device__ float sum_all(Ts... xs) {
  return (0.0f + ... + static_cast<float>(xs));
}

__device__ __noinline__ float slow_path(float v) { return v * v + 1.0f; }

__global__ void __maxnreg__(64) struct_params(const __grid_constant__ Params p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= p.n)
    return;
  float acc = 0.0f;
  for (int k = 0; k < 8; ++k)
    acc += p.coeffs[k] * p.in[i + k];
  p.out[i] = acc > 100.0f ? slow_path(acc) : acc;
}

__global__ void particles(Particle *ps, float2 *vel, int n, float dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  Particle p = ps[i];
  float2 v = vel[i];
  v = v + dt * make_float2(-p.pos.x, -p.pos.y);
  p.pos.x += dt * v.x;
  p.pos.y += dt * v.y;
  ps[i] = p;
  vel[i] = v;
}

__global__ void dynamic_smem(const float *in, float *out, int n) {
  extern __shared__ float smem[];
  float *a = smem;
  float *b = smem + blockDim.x;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  a[threadIdx.x] = i < n ? in[i] : 0.0f;
  b[threadIdx.x] = 2.0f * a[threadIdx.x];
  __syncthreads();
  auto neighbor = [&](int d) { return b[(threadIdx.x + d) % blockDim.x]; };
  if (i < n)
    out[i] = a[threadIdx.x] + neighbor(1) + neighbor(blockDim.x - 1) +
             sum_all(1, 2.0f, 3.0) + unrolled_index<4>(threadIdx.x);
}

union Bits {
  float f;
  uint32_t u;
};

__global__ void aligned_views(const float *p, float4 *q, uint32_t *bits, int n4) {
  const float *ap = static_cast<const float *>(__builtin_assume_aligned(p, 16));
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4) {
    float4 v = reinterpret_cast<const float4 *>(ap)[i];
    q[i] = make_float4(dot(v, v), v.y, v.z, v.w);
    Bits b;
    b.f = v.x;
    bits[i] = b.u;
  }
}

enum class Mode { Copy, Scale };

template <Mode M>
__global__ void mode_kernel(float *data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    if (M == Mode::Scale)
      data[i] *= 3.0f;
  }
}

int main() {
  float *f;
  cudaMalloc(&f, 1 << 24);
  blocked_sum<float, 8><<<128, 256>>>(f, f);
  blocked_sum<double, 4><<<128, 256>>>((const double *)f, (double *)f);
  Params p{f, f + 4096, 4096, {1, 2, 3, 4, 5, 6, 7, 8}};
  struct_params<<<16, 256>>>(p);
  particles<<<16, 256>>>((Particle *)f, (float2 *)f, 4096, 0.01f);
  dynamic_smem<<<16, 256, 2 * 256 * sizeof(float)>>>(f, f, 4096);
  aligned_views<<<16, 256>>>(f, (float4 *)f, (uint32_t *)f, 4096);
  mode_kernel<Mode::Scale><<<16, 256>>>(f, 4096);
  mode_kernel<Mode::Copy><<<16, 256>>>(f, 4096);
  cudaDeviceSynchronize();
  cudaFree(f);
  return 0;
}

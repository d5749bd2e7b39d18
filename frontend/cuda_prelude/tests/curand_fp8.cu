// cuRAND device API (per-thread states in global memory, Philox float4
// draws), fp8 conversions (e4m3 / e5m2 and packed x2 / x4) for quantizing a
// tensor, and math_constants.h.
#include <cuda_runtime.h>
#include <cuda_fp8.h>
#include <curand_kernel.h>
#include <math_constants.h>

__global__ void setup_states(curandState *states, unsigned long long seed) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  curand_init(seed, id, 0, &states[id]);
}

__global__ void monte_carlo_pi(curandState *states, unsigned *hits, int draws) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  curandState local = states[id];
  unsigned inside = 0;
  for (int k = 0; k < draws; ++k) {
    float x = curand_uniform(&local), y = curand_uniform(&local);
    inside += (x * x + y * y <= 1.0f);
  }
  states[id] = local;
  atomicAdd(hits, inside);
}

__global__ void noise(curandStatePhilox4_32_10_t *states, float4 *out, float sigma) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  curandStatePhilox4_32_10_t s = states[id];
  float4 u = curand_normal4(&s);
  u.x *= sigma * CUDART_SQRT_HALF_F;
  out[id] = u;
  states[id] = s;
}

__global__ void quantize_e4m3(const float *in, __nv_fp8_e4m3 *out, float scale,
                              int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = __nv_fp8_e4m3(in[i] * scale);
}

__global__ void quantize_x4(const float4 *in, __nv_fp8x4_e4m3 *out, int n4) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4)
    out[i] = __nv_fp8x4_e4m3(in[i]);
}

__global__ void dequantize_e5m2(const __nv_fp8_e5m2 *in, const __nv_fp8x2_e5m2 *in2,
                                float *out, __half *hout, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float2 pair = static_cast<float2>(in2[i / 2]);
    out[i] = static_cast<float>(in[i]) + pair.x + pair.y;
    hout[i] = static_cast<__half>(in[i]);
    __nv_fp8_storage_t raw = __nv_cvt_float_to_fp8(out[i], __NV_SATFINITE, __NV_E4M3);
    __half_raw hr = __nv_cvt_fp8_to_halfraw(raw, __NV_E4M3);
    hout[i] = __hadd(hout[i], __half(hr));
  }
}

__global__ void angles(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = sinf(2.0f * CUDART_PI_F * i / n) + (float)CUDART_PI +
             (out[i] < CUDART_INF_F ? 0.0f : 1.0f);
}

int main() {
  const int threads = 128 * 256;
  curandState *states;
  curandStatePhilox4_32_10_t *philox;
  unsigned *hits;
  float *buf;
  cudaMalloc(&states, threads * sizeof(curandState));
  cudaMalloc(&philox, threads * sizeof(curandStatePhilox4_32_10_t));
  cudaMalloc(&hits, sizeof(unsigned));
  cudaMalloc(&buf, threads * sizeof(float4));
  setup_states<<<128, 256>>>(states, 1234ull);
  monte_carlo_pi<<<128, 256>>>(states, hits, 1000);
  noise<<<128, 256>>>(philox, (float4 *)buf, 0.1f);
  quantize_e4m3<<<128, 256>>>(buf, (__nv_fp8_e4m3 *)buf, 448.0f, threads);
  quantize_x4<<<128, 256>>>((const float4 *)buf, (__nv_fp8x4_e4m3 *)buf, threads);
  dequantize_e5m2<<<128, 256>>>((const __nv_fp8_e5m2 *)buf,
                                (const __nv_fp8x2_e5m2 *)buf, buf,
                                (__half *)buf, threads);
  angles<<<128, 256>>>(buf, threads);
  cudaDeviceSynchronize();
  cudaFree(states);
  cudaFree(philox);
  cudaFree(hits);
  cudaFree(buf);
  return 0;
}

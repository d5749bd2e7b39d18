// Sizes and alignments of the types whose layout decides coalescing and
// vector widths: every CUDA vector type (float4/int4/uint4/double2 are
// 16-byte aligned, float2 8, the *3 types only element-aligned), dim3, uint3,
// __half/__half2, __nv_bfloat16/__nv_bfloat162, the fp8 types and the cuRAND
// states. Checked by nvcc, by clang against the toolkit and by clang on the
// built-in prelude. (double4/long4/longlong4 and their unsigned forms are
// deprecated in CUDA 13 and would warn: their _16a/_32a forms are checked.)
#include <cstddef>
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>
#include <curand_kernel.h>

#define CHECK(T, SIZE, ALIGN)                                                  \
  static_assert(sizeof(T) == (SIZE), "sizeof(" #T ")");                        \
  static_assert(alignof(T) == (ALIGN), "alignof(" #T ")")

CHECK(char1, 1, 1);
CHECK(char2, 2, 2);
CHECK(char3, 3, 1);
CHECK(char4, 4, 4);
CHECK(uchar1, 1, 1);
CHECK(uchar2, 2, 2);
CHECK(uchar3, 3, 1);
CHECK(uchar4, 4, 4);
CHECK(short1, 2, 2);
CHECK(short2, 4, 4);
CHECK(short3, 6, 2);
CHECK(short4, 8, 8);
CHECK(ushort1, 2, 2);
CHECK(ushort2, 4, 4);
CHECK(ushort3, 6, 2);
CHECK(ushort4, 8, 8);
CHECK(int1, 4, 4);
CHECK(int2, 8, 8);
CHECK(int3, 12, 4);
CHECK(int4, 16, 16);
CHECK(uint1, 4, 4);
CHECK(uint2, 8, 8);
CHECK(uint3, 12, 4);
CHECK(uint4, 16, 16);
CHECK(long1, 8, 8);
CHECK(long2, 16, 16);
CHECK(long3, 24, 8);
CHECK(long4_16a, 32, 16);
CHECK(long4_32a, 32, 32);
CHECK(ulong1, 8, 8);
CHECK(ulong2, 16, 16);
CHECK(ulong3, 24, 8);
CHECK(ulong4_16a, 32, 16);
CHECK(ulong4_32a, 32, 32);
CHECK(longlong1, 8, 8);
CHECK(longlong2, 16, 16);
CHECK(longlong3, 24, 8);
CHECK(longlong4_16a, 32, 16);
CHECK(longlong4_32a, 32, 32);
CHECK(ulonglong1, 8, 8);
CHECK(ulonglong2, 16, 16);
CHECK(ulonglong3, 24, 8);
CHECK(ulonglong4_16a, 32, 16);
CHECK(ulonglong4_32a, 32, 32);
CHECK(float1, 4, 4);
CHECK(float2, 8, 8);
CHECK(float3, 12, 4);
CHECK(float4, 16, 16);
CHECK(double1, 8, 8);
CHECK(double2, 16, 16);
CHECK(double3, 24, 8);
CHECK(double4_16a, 32, 16);
CHECK(double4_32a, 32, 32);

CHECK(dim3, 12, 4);
CHECK(__half, 2, 2);
CHECK(__half2, 4, 4);
CHECK(__half_raw, 2, 2);
CHECK(__half2_raw, 4, 4);
CHECK(__nv_bfloat16, 2, 2);
CHECK(__nv_bfloat162, 4, 4);
CHECK(__nv_bfloat16_raw, 2, 2);
CHECK(__nv_bfloat162_raw, 4, 4);
CHECK(__nv_fp8_e4m3, 1, 1);
CHECK(__nv_fp8_e5m2, 1, 1);
CHECK(__nv_fp8x2_e4m3, 2, 2);
CHECK(__nv_fp8x4_e4m3, 4, 4);
CHECK(__nv_fp8x4_e5m2, 4, 4);
CHECK(curandState, 48, 8);
CHECK(curandStatePhilox4_32_10_t, 64, 16);
CHECK(curandStateMRG32k3a_t, 48, 8);

static_assert(offsetof(float4, w) == 12, "float4.w");
static_assert(offsetof(double2, y) == 8, "double2.y");
static_assert(offsetof(__half2, y) == 2, "__half2.y");
static_assert(offsetof(__nv_bfloat162, y) == 2, "__nv_bfloat162.y");
static_assert(offsetof(dim3, z) == 8, "dim3.z");

// Arrays of vector types keep the stride the alignment implies.
struct RowF3 {
  float3 v[3];
};
CHECK(RowF3, 36, 4);
struct PairF2F4 {
  float2 a;
  float4 b;
};
CHECK(PairF2F4, 32, 16);

__global__ void uses_builtin_vars(uint3 *t, dim3 *b) {
  uint3 tid = threadIdx;
  dim3 bdim = blockDim;
  t[blockIdx.x] = tid;
  b[blockIdx.x] = bdim;
  static_assert(sizeof(threadIdx.x) == 4, "threadIdx.x is 32-bit");
}

int main() {
  uint3 *t;
  dim3 *b;
  cudaMalloc(&t, 64 * sizeof(uint3));
  cudaMalloc(&b, 64 * sizeof(dim3));
  uses_builtin_vars<<<64, dim3(8, 4, 2)>>>(t, b);
  dim3 d(4);
  return (int)(d.y + d.z) - 2;
}

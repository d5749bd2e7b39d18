/*
 * cuda-access-lint built-in CUDA prelude (mode B: no CUDA toolkit).
 *
 * Device functions that, with a toolkit, come from the toolkit's headers
 * rather than from clang's (device_atomic_functions.h, sm_20/32/60
 * atomics, crt/math_functions.hpp's min/max, sm_20_intrinsics.h,
 * sm_61_intrinsics.h, crt/sm_90_rt.h, ...). Declarations only: a parse
 * needs no bodies. The overload sets are nvcc's (CUDA 13.0), so a call
 * resolves, or fails to, as it does with nvcc.
 */
#ifndef CUDA_ACCESS_LINT_DEVICE_FUNCTIONS_H
#define CUDA_ACCESS_LINT_DEVICE_FUNCTIONS_H
#pragma clang system_header

#include "cuda_access_lint/driver_types.h"

/* ---- Atomics (device_atomic_functions.h, sm_20/32/60_atomic_functions.h,
 *      crt/sm_90_rt.h). atomicCAS(unsigned short *) is in crt/sm_70_rt.hpp,
 *      the 128-bit templates in cuda_access_lint_supplement.h. ---------- */

__device__ double atomicAdd(double *__address, double __val);
__device__ float atomicAdd(float *__address, float __val);
__device__ float2 atomicAdd(float2 *__address, float2 __val);
__device__ float4 atomicAdd(float4 *__address, float4 __val);
__device__ int atomicAdd(int *__address, int __val);
__device__ unsigned int atomicAdd(unsigned int *__address, unsigned int __val);
__device__ unsigned long long atomicAdd(unsigned long long *__address, unsigned long long __val);
__device__ double atomicAdd_block(double *__address, double __val);
__device__ float atomicAdd_block(float *__address, float __val);
__device__ float2 atomicAdd_block(float2 *__address, float2 __val);
__device__ float4 atomicAdd_block(float4 *__address, float4 __val);
__device__ int atomicAdd_block(int *__address, int __val);
__device__ unsigned int atomicAdd_block(unsigned int *__address, unsigned int __val);
__device__ unsigned long long atomicAdd_block(unsigned long long *__address, unsigned long long __val);
__device__ double atomicAdd_system(double *__address, double __val);
__device__ float atomicAdd_system(float *__address, float __val);
__device__ float2 atomicAdd_system(float2 *__address, float2 __val);
__device__ float4 atomicAdd_system(float4 *__address, float4 __val);
__device__ int atomicAdd_system(int *__address, int __val);
__device__ unsigned int atomicAdd_system(unsigned int *__address, unsigned int __val);
__device__ unsigned long long atomicAdd_system(unsigned long long *__address, unsigned long long __val);
__device__ int atomicAnd(int *__address, int __val);
__device__ long long atomicAnd(long long *__address, long long __val);
__device__ unsigned int atomicAnd(unsigned int *__address, unsigned int __val);
__device__ unsigned long long atomicAnd(unsigned long long *__address, unsigned long long __val);
__device__ int atomicAnd_block(int *__address, int __val);
__device__ long long atomicAnd_block(long long *__address, long long __val);
__device__ unsigned int atomicAnd_block(unsigned int *__address, unsigned int __val);
__device__ unsigned long long atomicAnd_block(unsigned long long *__address, unsigned long long __val);
__device__ int atomicAnd_system(int *__address, int __val);
__device__ long long atomicAnd_system(long long *__address, long long __val);
__device__ unsigned int atomicAnd_system(unsigned int *__address, unsigned int __val);
__device__ unsigned long long atomicAnd_system(unsigned long long *__address, unsigned long long __val);
__device__ int atomicCAS(int *__address, int __compare, int __val);
__device__ unsigned int atomicCAS(unsigned int *__address, unsigned int __compare, unsigned int __val);
__device__ unsigned long long atomicCAS(unsigned long long *__address, unsigned long long __compare, unsigned long long __val);
__device__ int atomicCAS_block(int *__address, int __compare, int __val);
__device__ unsigned int atomicCAS_block(unsigned int *__address, unsigned int __compare, unsigned int __val);
__device__ unsigned long long atomicCAS_block(unsigned long long *__address, unsigned long long __compare, unsigned long long __val);
__device__ int atomicCAS_system(int *__address, int __compare, int __val);
__device__ unsigned int atomicCAS_system(unsigned int *__address, unsigned int __compare, unsigned int __val);
__device__ unsigned long long atomicCAS_system(unsigned long long *__address, unsigned long long __compare, unsigned long long __val);
__device__ unsigned int atomicDec(unsigned int *__address, unsigned int __val);
__device__ unsigned int atomicDec_block(unsigned int *__address, unsigned int __val);
__device__ unsigned int atomicDec_system(unsigned int *__address, unsigned int __val);
__device__ float atomicExch(float *__address, float __val);
__device__ int atomicExch(int *__address, int __val);
__device__ unsigned int atomicExch(unsigned int *__address, unsigned int __val);
__device__ unsigned long long atomicExch(unsigned long long *__address, unsigned long long __val);
__device__ float atomicExch_block(float *__address, float __val);
__device__ int atomicExch_block(int *__address, int __val);
__device__ unsigned int atomicExch_block(unsigned int *__address, unsigned int __val);
__device__ unsigned long long atomicExch_block(unsigned long long *__address, unsigned long long __val);
__device__ float atomicExch_system(float *__address, float __val);
__device__ int atomicExch_system(int *__address, int __val);
__device__ unsigned int atomicExch_system(unsigned int *__address, unsigned int __val);
__device__ unsigned long long atomicExch_system(unsigned long long *__address, unsigned long long __val);
__device__ unsigned int atomicInc(unsigned int *__address, unsigned int __val);
__device__ unsigned int atomicInc_block(unsigned int *__address, unsigned int __val);
__device__ unsigned int atomicInc_system(unsigned int *__address, unsigned int __val);
__device__ int atomicMax(int *__address, int __val);
__device__ long long atomicMax(long long *__address, long long __val);
__device__ unsigned int atomicMax(unsigned int *__address, unsigned int __val);
__device__ unsigned long long atomicMax(unsigned long long *__address, unsigned long long __val);
__device__ int atomicMax_block(int *__address, int __val);
__device__ long long atomicMax_block(long long *__address, long long __val);
__device__ unsigned int atomicMax_block(unsigned int *__address, unsigned int __val);
__device__ unsigned long long atomicMax_block(unsigned long long *__address, unsigned long long __val);
__device__ int atomicMax_system(int *__address, int __val);
__device__ long long atomicMax_system(long long *__address, long long __val);
__device__ unsigned int atomicMax_system(unsigned int *__address, unsigned int __val);
__device__ unsigned long long atomicMax_system(unsigned long long *__address, unsigned long long __val);
__device__ int atomicMin(int *__address, int __val);
__device__ long long atomicMin(long long *__address, long long __val);
__device__ unsigned int atomicMin(unsigned int *__address, unsigned int __val);
__device__ unsigned long long atomicMin(unsigned long long *__address, unsigned long long __val);
__device__ int atomicMin_block(int *__address, int __val);
__device__ long long atomicMin_block(long long *__address, long long __val);
__device__ unsigned int atomicMin_block(unsigned int *__address, unsigned int __val);
__device__ unsigned long long atomicMin_block(unsigned long long *__address, unsigned long long __val);
__device__ int atomicMin_system(int *__address, int __val);
__device__ long long atomicMin_system(long long *__address, long long __val);
__device__ unsigned int atomicMin_system(unsigned int *__address, unsigned int __val);
__device__ unsigned long long atomicMin_system(unsigned long long *__address, unsigned long long __val);
__device__ int atomicOr(int *__address, int __val);
__device__ long long atomicOr(long long *__address, long long __val);
__device__ unsigned int atomicOr(unsigned int *__address, unsigned int __val);
__device__ unsigned long long atomicOr(unsigned long long *__address, unsigned long long __val);
__device__ int atomicOr_block(int *__address, int __val);
__device__ long long atomicOr_block(long long *__address, long long __val);
__device__ unsigned int atomicOr_block(unsigned int *__address, unsigned int __val);
__device__ unsigned long long atomicOr_block(unsigned long long *__address, unsigned long long __val);
__device__ int atomicOr_system(int *__address, int __val);
__device__ long long atomicOr_system(long long *__address, long long __val);
__device__ unsigned int atomicOr_system(unsigned int *__address, unsigned int __val);
__device__ unsigned long long atomicOr_system(unsigned long long *__address, unsigned long long __val);
__device__ int atomicSub(int *__address, int __val);
__device__ unsigned int atomicSub(unsigned int *__address, unsigned int __val);
__device__ int atomicSub_block(int *__address, int __val);
__device__ unsigned int atomicSub_block(unsigned int *__address, unsigned int __val);
__device__ int atomicSub_system(int *__address, int __val);
__device__ unsigned int atomicSub_system(unsigned int *__address, unsigned int __val);
__device__ int atomicXor(int *__address, int __val);
__device__ long long atomicXor(long long *__address, long long __val);
__device__ unsigned int atomicXor(unsigned int *__address, unsigned int __val);
__device__ unsigned long long atomicXor(unsigned long long *__address, unsigned long long __val);
__device__ int atomicXor_block(int *__address, int __val);
__device__ long long atomicXor_block(long long *__address, long long __val);
__device__ unsigned int atomicXor_block(unsigned int *__address, unsigned int __val);
__device__ unsigned long long atomicXor_block(unsigned long long *__address, unsigned long long __val);
__device__ int atomicXor_system(int *__address, int __val);
__device__ long long atomicXor_system(long long *__address, long long __val);
__device__ unsigned int atomicXor_system(unsigned int *__address, unsigned int __val);
__device__ unsigned long long atomicXor_system(unsigned long long *__address, unsigned long long __val);

/* ---- min / max (crt/math_functions.hpp): nvcc's 16 overloads each; clang
 *      defines min(int, int) and max(int, int) itself. ---------------- */

#pragma push_macro("__CAL_MINMAX")
#define __CAL_MINMAX(R, A, B)                                                  \
  __device__ R min(const A __a, const B __b);                                  \
  __device__ R max(const A __a, const B __b);
__CAL_MINMAX(unsigned int, unsigned int, unsigned int)
__CAL_MINMAX(unsigned int, int, unsigned int)
__CAL_MINMAX(unsigned int, unsigned int, int)
__CAL_MINMAX(long, long, long)
__CAL_MINMAX(unsigned long, unsigned long, unsigned long)
__CAL_MINMAX(unsigned long, long, unsigned long)
__CAL_MINMAX(unsigned long, unsigned long, long)
__CAL_MINMAX(long long, long long, long long)
__CAL_MINMAX(unsigned long long, unsigned long long, unsigned long long)
__CAL_MINMAX(unsigned long long, long long, unsigned long long)
__CAL_MINMAX(unsigned long long, unsigned long long, long long)
__CAL_MINMAX(float, float, float)
__CAL_MINMAX(double, double, double)
__CAL_MINMAX(double, float, double)
__CAL_MINMAX(double, double, float)
#pragma pop_macro("__CAL_MINMAX")

/* ---- Address-space predicates and conversions (sm_20_intrinsics.h) ---- */

__device__ unsigned int __isGlobal(const void *ptr);
__device__ unsigned int __isShared(const void *ptr);
__device__ unsigned int __isConstant(const void *ptr);
__device__ unsigned int __isLocal(const void *ptr);
__device__ unsigned int __isGridConstant(const void *ptr);
__device__ size_t __cvta_generic_to_global(const void *ptr);
__device__ size_t __cvta_generic_to_shared(const void *ptr);
__device__ size_t __cvta_generic_to_constant(const void *ptr);
__device__ size_t __cvta_generic_to_local(const void *ptr);
__device__ size_t __cvta_generic_to_grid_constant(const void *ptr);
__device__ void *__cvta_global_to_generic(size_t rawbits);
__device__ void *__cvta_shared_to_generic(size_t rawbits);
__device__ void *__cvta_constant_to_generic(size_t rawbits);
__device__ void *__cvta_local_to_generic(size_t rawbits);
__device__ void *__cvta_grid_constant_to_generic(size_t rawbits);
__device__ unsigned short __nv_bswap16(unsigned short x);
__device__ unsigned int __nv_bswap32(unsigned int x);
__device__ unsigned long long __nv_bswap64(unsigned long long x);

/* ---- Dot products (sm_61_intrinsics.h) --------------------------------- */

__device__ int __dp2a_lo(int srcA, int srcB, int c);
__device__ unsigned int __dp2a_lo(unsigned int srcA, unsigned int srcB,
                                  unsigned int c);
__device__ int __dp2a_lo(short2 srcA, char4 srcB, int c);
__device__ unsigned int __dp2a_lo(ushort2 srcA, uchar4 srcB, unsigned int c);
__device__ int __dp2a_hi(int srcA, int srcB, int c);
__device__ unsigned int __dp2a_hi(unsigned int srcA, unsigned int srcB,
                                  unsigned int c);
__device__ int __dp2a_hi(short2 srcA, char4 srcB, int c);
__device__ unsigned int __dp2a_hi(ushort2 srcA, uchar4 srcB, unsigned int c);
__device__ int __dp4a(int srcA, int srcB, int c);
__device__ unsigned int __dp4a(unsigned int srcA, unsigned int srcB,
                               unsigned int c);
__device__ int __dp4a(char4 srcA, char4 srcB, int c);
__device__ unsigned int __dp4a(uchar4 srcA, uchar4 srcB, unsigned int c);

/* ---- Thread-block clusters (crt/sm_90_rt.h) ---------------------------- */

__device__ unsigned __isCtaShared(const void *ptr);
__device__ unsigned __isClusterShared(const void *ptr);
__device__ void *__cluster_map_shared_rank(const void *ptr,
                                           unsigned target_block_rank);
__device__ unsigned __cluster_query_shared_rank(const void *ptr);
__device__ uint2 __cluster_map_shared_multicast(const void *ptr,
                                                unsigned cluster_cta_mask);
__device__ unsigned __clusterDimIsSpecified();
__device__ dim3 __clusterDim();
__device__ dim3 __clusterRelativeBlockIdx();
__device__ dim3 __clusterGridDimInClusters();
__device__ dim3 __clusterIdx();
__device__ unsigned __clusterRelativeBlockRank();
__device__ unsigned __clusterSizeInBlocks();
__device__ void __cluster_barrier_arrive();
__device__ void __cluster_barrier_arrive_relaxed();
__device__ void __cluster_barrier_wait();
__device__ void __threadfence_cluster();

/* ---- Float overloads of CUDA math functions (crt/math_functions.hpp)
 *      that clang's headers do not give (they have the double ones). ----- */

__device__ float rsqrt(float a);
__device__ float rcbrt(float a);
__device__ float sinpi(float a);
__device__ float cospi(float a);
__device__ void sincos(float a, float *sptr, float *cptr);
__device__ void sincospi(float a, float *sptr, float *cptr);
__device__ float exp10(float a);
__device__ float erfinv(float a);
__device__ float erfcinv(float a);
__device__ float erfcx(float a);
__device__ float normcdf(float a);
__device__ float normcdfinv(float a);
__device__ float cyl_bessel_i0(float a);
__device__ float cyl_bessel_i1(float a);
__device__ float j0(float a);
__device__ float j1(float a);
__device__ float jn(int n, float a);
__device__ float y0(float a);
__device__ float y1(float a);
__device__ float yn(int n, float a);

/* ---- Rounding-mode double functions (crt/device_double_functions.h) ---- */

enum cudaRoundMode {
  cudaRoundNearest,
  cudaRoundZero,
  cudaRoundPosInf,
  cudaRoundMinInf
};
__device__ double fma(double a, double b, double c, enum cudaRoundMode mode);
__device__ double dmul(double a, double b,
                       enum cudaRoundMode mode = cudaRoundNearest);
__device__ double dadd(double a, double b,
                       enum cudaRoundMode mode = cudaRoundNearest);
__device__ double dsub(double a, double b,
                       enum cudaRoundMode mode = cudaRoundNearest);
__device__ int double2int(double a, enum cudaRoundMode mode = cudaRoundZero);
__device__ unsigned int double2uint(double a,
                                    enum cudaRoundMode mode = cudaRoundZero);
__device__ long long int double2ll(double a,
                                   enum cudaRoundMode mode = cudaRoundZero);
__device__ unsigned long long int
double2ull(double a, enum cudaRoundMode mode = cudaRoundZero);
__device__ double ll2double(long long int a,
                            enum cudaRoundMode mode = cudaRoundNearest);
__device__ double ull2double(unsigned long long int a,
                             enum cudaRoundMode mode = cudaRoundNearest);
__device__ double int2double(int a, enum cudaRoundMode mode = cudaRoundNearest);
__device__ double uint2double(unsigned int a,
                              enum cudaRoundMode mode = cudaRoundNearest);
__device__ double float2double(float a,
                               enum cudaRoundMode mode = cudaRoundNearest);

/* ---- Legacy warp vote / block reduction spellings (device_atomic_functions.h,
 *      sm_20_intrinsics.h) ------------------------------------------------ */

__device__ bool any(bool cond);
__device__ bool all(bool cond);
__device__ unsigned int ballot(bool pred);
__device__ int syncthreads_count(bool pred);
__device__ bool syncthreads_and(bool pred);
__device__ bool syncthreads_or(bool pred);

/* ---- DPX instructions (sm_90, crt/device_functions.h) ----------------- */

__device__ int __viaddmax_s32(int a, int b, int c);
__device__ int __viaddmax_s32_relu(int a, int b, int c);
__device__ int __viaddmin_s32(int a, int b, int c);
__device__ int __viaddmin_s32_relu(int a, int b, int c);
__device__ int __vibmax_s32(int a, int b, bool *pred);
__device__ int __vibmin_s32(int a, int b, bool *pred);
__device__ int __vimax3_s32(int a, int b, int c);
__device__ int __vimax3_s32_relu(int a, int b, int c);
__device__ int __vimax_s32_relu(int a, int b);
__device__ int __vimin3_s32(int a, int b, int c);
__device__ int __vimin3_s32_relu(int a, int b, int c);
__device__ int __vimin_s32_relu(int a, int b);
__device__ unsigned int __viaddmax_s16x2(unsigned int a, unsigned int b, unsigned int c);
__device__ unsigned int __viaddmax_s16x2_relu(unsigned int a, unsigned int b, unsigned int c);
__device__ unsigned int __viaddmax_u16x2(unsigned int a, unsigned int b, unsigned int c);
__device__ unsigned int __viaddmax_u32(unsigned int a, unsigned int b, unsigned int c);
__device__ unsigned int __viaddmin_s16x2(unsigned int a, unsigned int b, unsigned int c);
__device__ unsigned int __viaddmin_s16x2_relu(unsigned int a, unsigned int b, unsigned int c);
__device__ unsigned int __viaddmin_u16x2(unsigned int a, unsigned int b, unsigned int c);
__device__ unsigned int __viaddmin_u32(unsigned int a, unsigned int b, unsigned int c);
__device__ unsigned int __vibmax_s16x2(unsigned int a, unsigned int b, bool *pred_hi, bool *pred_lo);
__device__ unsigned int __vibmax_u16x2(unsigned int a, unsigned int b, bool *pred_hi, bool *pred_lo);
__device__ unsigned int __vibmax_u32(unsigned int a, unsigned int b, bool *pred);
__device__ unsigned int __vibmin_s16x2(unsigned int a, unsigned int b, bool *pred_hi, bool *pred_lo);
__device__ unsigned int __vibmin_u16x2(unsigned int a, unsigned int b, bool *pred_hi, bool *pred_lo);
__device__ unsigned int __vibmin_u32(unsigned int a, unsigned int b, bool *pred);
__device__ unsigned int __vimax3_s16x2(unsigned int a, unsigned int b, unsigned int c);
__device__ unsigned int __vimax3_s16x2_relu(unsigned int a, unsigned int b, unsigned int c);
__device__ unsigned int __vimax3_u16x2(unsigned int a, unsigned int b, unsigned int c);
__device__ unsigned int __vimax3_u32(unsigned int a, unsigned int b, unsigned int c);
__device__ unsigned int __vimax_s16x2_relu(unsigned int a, unsigned int b);
__device__ unsigned int __vimin3_s16x2(unsigned int a, unsigned int b, unsigned int c);
__device__ unsigned int __vimin3_s16x2_relu(unsigned int a, unsigned int b, unsigned int c);
__device__ unsigned int __vimin3_u16x2(unsigned int a, unsigned int b, unsigned int c);
__device__ unsigned int __vimin3_u32(unsigned int a, unsigned int b, unsigned int c);
__device__ unsigned int __vimin_s16x2_relu(unsigned int a, unsigned int b);

/* ---- Device-side runtime API (cuda_device_runtime_api.h): the calls a
 *      kernel commonly makes, and programmatic dependent launch. ------- */

extern "C" {
extern __device__ cudaError_t cudaMalloc(void **devPtr, size_t size);
extern __device__ cudaError_t cudaFree(void *devPtr);
extern __device__ cudaError_t cudaGetLastError(void);
extern __device__ cudaError_t cudaPeekAtLastError(void);
extern __device__ const char *cudaGetErrorString(cudaError_t error);
extern __device__ const char *cudaGetErrorName(cudaError_t error);
extern __device__ cudaError_t cudaGetDevice(int *device);
extern __device__ cudaError_t cudaDeviceGetAttribute(int *value,
                                                     enum cudaDeviceAttr attr,
                                                     int device);
extern __device__ cudaError_t cudaMemcpyAsync(void *dst, const void *src,
                                              size_t count,
                                              enum cudaMemcpyKind kind,
                                              cudaStream_t stream = 0);
extern __device__ cudaError_t cudaMemsetAsync(void *devPtr, int value,
                                              size_t count,
                                              cudaStream_t stream = 0);
extern __device__ cudaError_t cudaStreamCreateWithFlags(cudaStream_t *pStream,
                                                        unsigned int flags);
extern __device__ cudaError_t cudaStreamDestroy(cudaStream_t stream);
extern __device__ cudaError_t cudaStreamWaitEvent(cudaStream_t stream,
                                                  cudaEvent_t event,
                                                  unsigned int flags = 0);
extern __device__ cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event,
                                                       unsigned int flags);
extern __device__ cudaError_t cudaEventRecord(cudaEvent_t event,
                                              cudaStream_t stream = 0);
extern __device__ cudaError_t cudaEventDestroy(cudaEvent_t event);
extern __device__ cudaError_t cudaRuntimeGetVersion(int *runtimeVersion);
extern __device__ void cudaGridDependencySynchronize(void);
extern __device__ void cudaTriggerProgrammaticLaunchCompletion(void);
} /* extern "C" */

/* ---- Texture and surface objects (texture_indirect_functions.h): the
 *      common fetches, as declarations. ---------------------------------- */

template <class T> __device__ T tex1Dfetch(cudaTextureObject_t texObject, int x);
template <class T> __device__ T tex1D(cudaTextureObject_t texObject, float x);
template <class T>
__device__ T tex2D(cudaTextureObject_t texObject, float x, float y);
template <class T>
__device__ T tex3D(cudaTextureObject_t texObject, float x, float y, float z);
template <class T>
__device__ T tex2DLayered(cudaTextureObject_t texObject, float x, float y,
                          int layer);

#endif /* CUDA_ACCESS_LINT_DEVICE_FUNCTIONS_H */

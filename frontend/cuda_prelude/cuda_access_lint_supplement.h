/*
 * cuda-access-lint: supplement to clang's CUDA headers.
 *
 * Mode T (a CUDA toolkit exists): force-included after clang's
 * __clang_cuda_runtime_wrapper.h,
 *
 *   clang++ -x cuda --cuda-device-only --offload-arch=sm_90 -fsyntax-only
 *     --cuda-path=<toolkit> -isystem <toolkit>/include/cccl
 *     -Wno-unknown-cuda-version -include <abs path>/cuda_access_lint_supplement.h
 *     file.cu
 *
 * Mode B (no toolkit): included at the end of cuda_access_lint_prelude.h.
 *
 * It declares what nvcc accepts and clang 22's CUDA headers lack, found by
 * calling every global device function nvcc's headers declare (CUDA 13.0,
 * sm_90, with cuda_fp16.h, cuda_bf16.h, cuda_fp8.h, cooperative_groups.h,
 * mma.h, cuda_pipeline.h included) under clang 22.1 with the CUDA wrapper:
 *   - the cache-hint loads __ldca and __ldlu (all plain and vector types),
 *     and __ldcg/__ldcs/__ldcv for unsigned long;
 *   - the cache-hint stores __stcs, __stcg, __stwb (all plain and vector
 *     types) and __stwt for long / unsigned long. The __half, __half2,
 *     __nv_bfloat16 and __nv_bfloat162 overloads come with cuda_fp16.h /
 *     cuda_bf16.h (the toolkit's, or this directory's stubs), not from here;
 *   - __tanhf;
 *   - the sm_90 128-bit atomicCAS/atomicExch(_block/_system) templates of
 *     crt/sm_90_rt.h, which clang's wrapper never includes;
 * and fixes declaration specifiers that clang parses differently:
 *   - __managed__: clang implements 'managed' for HIP only; under CUDA the
 *     attribute is dropped with a warning and the variable becomes a host
 *     variable ("reference to __host__ variable in __global__ function").
 *     Parsed as a __device__ variable here (annotated as managed);
 *   - __maxnreg__ / __local_maxnreg__ / __inline_hint__ / __nv_pure__ expand to
 *     attributes clang does not know (a -Wunknown-attributes warning at each
 *     use); kept as annotations or dropped.
 *
 * Everything is a declaration (this is for parsing only): non-inline and
 * non-static, so a later definition by clang or by the user is a compatible
 * redeclaration. It must not conflict with toolkit headers the user includes
 * later (cuda_fp16.h, cuda_bf16.h, cooperative_groups.h, ...): it declares
 * no overload those headers declare.
 */
#ifndef CUDA_ACCESS_LINT_SUPPLEMENT_H
#define CUDA_ACCESS_LINT_SUPPLEMENT_H
#pragma clang system_header

#if !defined(__CUDA__) || !defined(__clang__) || !defined(__cplusplus)
#error "cuda_access_lint_supplement.h is for clang's CUDA mode (-x cuda)"
#endif

/* ---- Host headers nvcc's cuda_runtime.h brings in --------------------- */

/* nvcc's cuda_runtime.h includes, for its host pass, <string.h> and <time.h>
 * (crt/common_functions.h) and <math.h>, <stdlib.h>, <cmath>, <cstdlib>
 * (crt/math_functions.h), so host code in a .cu calls isfinite(), isnan(),
 * clock(), time(), memcpy() ... with no include of its own (llm.c's
 * dev/cuda/common.h does). Clang's CUDA wrapper includes only <cmath> and
 * <cstdlib>, whose names are in std:: (the global isfinite() overloads it
 * declares are __device__), so such calls fail in host functions. The same
 * headers, included here, give the host side what nvcc gives it (and no
 * more: <stdio.h>, <new> and <assert.h> come only with nvcc's device pass). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- Declaration specifiers ------------------------------------------- */

#undef __managed__
#define __managed__ \
  __attribute__((device)) __attribute__((annotate("cuda_access_lint::managed")))
#undef __maxnreg__
#define __maxnreg__(n) __attribute__((annotate("cuda_access_lint::maxnreg", n)))
#undef __local_maxnreg__
#define __local_maxnreg__(n) \
  __attribute__((annotate("cuda_access_lint::local_maxnreg", n)))
#undef __inline_hint__
#define __inline_hint__
#undef __nv_pure__
#define __nv_pure__

/* ---- Cache-hint loads and stores (sm_32_intrinsics.h) ------------------ */

/* __ldca: cache at all levels (ld.global.ca). Missing in clang 22 for every type. */
__device__ char __ldca(const char *__ptr);
__device__ signed char __ldca(const signed char *__ptr);
__device__ short __ldca(const short *__ptr);
__device__ int __ldca(const int *__ptr);
__device__ long __ldca(const long *__ptr);
__device__ long long __ldca(const long long *__ptr);
__device__ unsigned char __ldca(const unsigned char *__ptr);
__device__ unsigned short __ldca(const unsigned short *__ptr);
__device__ unsigned int __ldca(const unsigned int *__ptr);
__device__ unsigned long __ldca(const unsigned long *__ptr);
__device__ unsigned long long __ldca(const unsigned long long *__ptr);
__device__ float __ldca(const float *__ptr);
__device__ double __ldca(const double *__ptr);
__device__ char2 __ldca(const char2 *__ptr);
__device__ char4 __ldca(const char4 *__ptr);
__device__ short2 __ldca(const short2 *__ptr);
__device__ short4 __ldca(const short4 *__ptr);
__device__ int2 __ldca(const int2 *__ptr);
__device__ int4 __ldca(const int4 *__ptr);
__device__ longlong2 __ldca(const longlong2 *__ptr);
__device__ uchar2 __ldca(const uchar2 *__ptr);
__device__ uchar4 __ldca(const uchar4 *__ptr);
__device__ ushort2 __ldca(const ushort2 *__ptr);
__device__ ushort4 __ldca(const ushort4 *__ptr);
__device__ uint2 __ldca(const uint2 *__ptr);
__device__ uint4 __ldca(const uint4 *__ptr);
__device__ ulonglong2 __ldca(const ulonglong2 *__ptr);
__device__ float2 __ldca(const float2 *__ptr);
__device__ float4 __ldca(const float4 *__ptr);
__device__ double2 __ldca(const double2 *__ptr);

/* __ldlu: last use (ld.global.lu). Missing in clang 22 for every type. */
__device__ char __ldlu(const char *__ptr);
__device__ signed char __ldlu(const signed char *__ptr);
__device__ short __ldlu(const short *__ptr);
__device__ int __ldlu(const int *__ptr);
__device__ long __ldlu(const long *__ptr);
__device__ long long __ldlu(const long long *__ptr);
__device__ unsigned char __ldlu(const unsigned char *__ptr);
__device__ unsigned short __ldlu(const unsigned short *__ptr);
__device__ unsigned int __ldlu(const unsigned int *__ptr);
__device__ unsigned long __ldlu(const unsigned long *__ptr);
__device__ unsigned long long __ldlu(const unsigned long long *__ptr);
__device__ float __ldlu(const float *__ptr);
__device__ double __ldlu(const double *__ptr);
__device__ char2 __ldlu(const char2 *__ptr);
__device__ char4 __ldlu(const char4 *__ptr);
__device__ short2 __ldlu(const short2 *__ptr);
__device__ short4 __ldlu(const short4 *__ptr);
__device__ int2 __ldlu(const int2 *__ptr);
__device__ int4 __ldlu(const int4 *__ptr);
__device__ longlong2 __ldlu(const longlong2 *__ptr);
__device__ uchar2 __ldlu(const uchar2 *__ptr);
__device__ uchar4 __ldlu(const uchar4 *__ptr);
__device__ ushort2 __ldlu(const ushort2 *__ptr);
__device__ ushort4 __ldlu(const ushort4 *__ptr);
__device__ uint2 __ldlu(const uint2 *__ptr);
__device__ uint4 __ldlu(const uint4 *__ptr);
__device__ ulonglong2 __ldlu(const ulonglong2 *__ptr);
__device__ float2 __ldlu(const float2 *__ptr);
__device__ float4 __ldlu(const float4 *__ptr);
__device__ double2 __ldlu(const double2 *__ptr);

/* __ldcg / __ldcs / __ldcv: clang 22 has every type but unsigned long. */
__device__ unsigned long __ldcg(const unsigned long *__ptr);
__device__ unsigned long __ldcs(const unsigned long *__ptr);
__device__ unsigned long __ldcv(const unsigned long *__ptr);

/* __stcs: streaming store (st.global.cs). Missing in clang 22 for every type. */
__device__ void __stcs(char *__ptr, char __value);
__device__ void __stcs(signed char *__ptr, signed char __value);
__device__ void __stcs(short *__ptr, short __value);
__device__ void __stcs(int *__ptr, int __value);
__device__ void __stcs(long *__ptr, long __value);
__device__ void __stcs(long long *__ptr, long long __value);
__device__ void __stcs(unsigned char *__ptr, unsigned char __value);
__device__ void __stcs(unsigned short *__ptr, unsigned short __value);
__device__ void __stcs(unsigned int *__ptr, unsigned int __value);
__device__ void __stcs(unsigned long *__ptr, unsigned long __value);
__device__ void __stcs(unsigned long long *__ptr, unsigned long long __value);
__device__ void __stcs(float *__ptr, float __value);
__device__ void __stcs(double *__ptr, double __value);
__device__ void __stcs(char2 *__ptr, char2 __value);
__device__ void __stcs(char4 *__ptr, char4 __value);
__device__ void __stcs(short2 *__ptr, short2 __value);
__device__ void __stcs(short4 *__ptr, short4 __value);
__device__ void __stcs(int2 *__ptr, int2 __value);
__device__ void __stcs(int4 *__ptr, int4 __value);
__device__ void __stcs(longlong2 *__ptr, longlong2 __value);
__device__ void __stcs(uchar2 *__ptr, uchar2 __value);
__device__ void __stcs(uchar4 *__ptr, uchar4 __value);
__device__ void __stcs(ushort2 *__ptr, ushort2 __value);
__device__ void __stcs(ushort4 *__ptr, ushort4 __value);
__device__ void __stcs(uint2 *__ptr, uint2 __value);
__device__ void __stcs(uint4 *__ptr, uint4 __value);
__device__ void __stcs(ulonglong2 *__ptr, ulonglong2 __value);
__device__ void __stcs(float2 *__ptr, float2 __value);
__device__ void __stcs(float4 *__ptr, float4 __value);
__device__ void __stcs(double2 *__ptr, double2 __value);

/* __stcg: store cached in L2 only (st.global.cg). Missing in clang 22 for every type. */
__device__ void __stcg(char *__ptr, char __value);
__device__ void __stcg(signed char *__ptr, signed char __value);
__device__ void __stcg(short *__ptr, short __value);
__device__ void __stcg(int *__ptr, int __value);
__device__ void __stcg(long *__ptr, long __value);
__device__ void __stcg(long long *__ptr, long long __value);
__device__ void __stcg(unsigned char *__ptr, unsigned char __value);
__device__ void __stcg(unsigned short *__ptr, unsigned short __value);
__device__ void __stcg(unsigned int *__ptr, unsigned int __value);
__device__ void __stcg(unsigned long *__ptr, unsigned long __value);
__device__ void __stcg(unsigned long long *__ptr, unsigned long long __value);
__device__ void __stcg(float *__ptr, float __value);
__device__ void __stcg(double *__ptr, double __value);
__device__ void __stcg(char2 *__ptr, char2 __value);
__device__ void __stcg(char4 *__ptr, char4 __value);
__device__ void __stcg(short2 *__ptr, short2 __value);
__device__ void __stcg(short4 *__ptr, short4 __value);
__device__ void __stcg(int2 *__ptr, int2 __value);
__device__ void __stcg(int4 *__ptr, int4 __value);
__device__ void __stcg(longlong2 *__ptr, longlong2 __value);
__device__ void __stcg(uchar2 *__ptr, uchar2 __value);
__device__ void __stcg(uchar4 *__ptr, uchar4 __value);
__device__ void __stcg(ushort2 *__ptr, ushort2 __value);
__device__ void __stcg(ushort4 *__ptr, ushort4 __value);
__device__ void __stcg(uint2 *__ptr, uint2 __value);
__device__ void __stcg(uint4 *__ptr, uint4 __value);
__device__ void __stcg(ulonglong2 *__ptr, ulonglong2 __value);
__device__ void __stcg(float2 *__ptr, float2 __value);
__device__ void __stcg(float4 *__ptr, float4 __value);
__device__ void __stcg(double2 *__ptr, double2 __value);

/* __stwb: write-back store (st.global.wb). Missing in clang 22 for every type. */
__device__ void __stwb(char *__ptr, char __value);
__device__ void __stwb(signed char *__ptr, signed char __value);
__device__ void __stwb(short *__ptr, short __value);
__device__ void __stwb(int *__ptr, int __value);
__device__ void __stwb(long *__ptr, long __value);
__device__ void __stwb(long long *__ptr, long long __value);
__device__ void __stwb(unsigned char *__ptr, unsigned char __value);
__device__ void __stwb(unsigned short *__ptr, unsigned short __value);
__device__ void __stwb(unsigned int *__ptr, unsigned int __value);
__device__ void __stwb(unsigned long *__ptr, unsigned long __value);
__device__ void __stwb(unsigned long long *__ptr, unsigned long long __value);
__device__ void __stwb(float *__ptr, float __value);
__device__ void __stwb(double *__ptr, double __value);
__device__ void __stwb(char2 *__ptr, char2 __value);
__device__ void __stwb(char4 *__ptr, char4 __value);
__device__ void __stwb(short2 *__ptr, short2 __value);
__device__ void __stwb(short4 *__ptr, short4 __value);
__device__ void __stwb(int2 *__ptr, int2 __value);
__device__ void __stwb(int4 *__ptr, int4 __value);
__device__ void __stwb(longlong2 *__ptr, longlong2 __value);
__device__ void __stwb(uchar2 *__ptr, uchar2 __value);
__device__ void __stwb(uchar4 *__ptr, uchar4 __value);
__device__ void __stwb(ushort2 *__ptr, ushort2 __value);
__device__ void __stwb(ushort4 *__ptr, ushort4 __value);
__device__ void __stwb(uint2 *__ptr, uint2 __value);
__device__ void __stwb(uint4 *__ptr, uint4 __value);
__device__ void __stwb(ulonglong2 *__ptr, ulonglong2 __value);
__device__ void __stwb(float2 *__ptr, float2 __value);
__device__ void __stwb(float4 *__ptr, float4 __value);
__device__ void __stwb(double2 *__ptr, double2 __value);

/* __stwt: write-through store (st.global.wt): clang 22 has every type but long and unsigned long. */
__device__ void __stwt(long *__ptr, long __value);
__device__ void __stwt(unsigned long *__ptr, unsigned long __value);

/* ---- Math -------------------------------------------------------------- */

/* Fast hyperbolic tangent (tanh.approx.f32, sm_75+). */
__device__ float __tanhf(float __x);

/* ---- 128-bit atomics (crt/sm_90_rt.h) ---------------------------------- */

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
/* For a trivially copyable 16-byte type with 16-byte alignment, as nvcc
 * constrains them; other types find the ordinary overloads. */
template <bool __b, typename _T> struct __cal_atomic128_enable_if {};
template <typename _T> struct __cal_atomic128_enable_if<true, _T> {
  typedef _T __type;
};
#pragma push_macro("__CAL_ATOMIC128_RET")
#define __CAL_ATOMIC128_RET(_T)                                                \
  typename __cal_atomic128_enable_if<sizeof(_T) == 16 && alignof(_T) >= 16 &&  \
                                         __is_trivially_copyable(_T),          \
                                     _T>::__type
template <typename _T>
__device__ __CAL_ATOMIC128_RET(_T)
    atomicCAS(_T *__address, _T __compare, _T __val);
template <typename _T>
__device__ __CAL_ATOMIC128_RET(_T)
    atomicCAS_block(_T *__address, _T __compare, _T __val);
template <typename _T>
__device__ __CAL_ATOMIC128_RET(_T)
    atomicCAS_system(_T *__address, _T __compare, _T __val);
template <typename _T>
__device__ __CAL_ATOMIC128_RET(_T) atomicExch(_T *__address, _T __val);
template <typename _T>
__device__ __CAL_ATOMIC128_RET(_T) atomicExch_block(_T *__address, _T __val);
template <typename _T>
__device__ __CAL_ATOMIC128_RET(_T) atomicExch_system(_T *__address, _T __val);
#pragma pop_macro("__CAL_ATOMIC128_RET")
#endif

/* Host min()/max(): nvcc's host pass has them (crt/math_functions.hpp), so
 * host code in a .cu calls them freely; under clang those overloads are
 * device-only. clang overloads on __host__/__device__, so these add the host
 * side with the same signatures. */
#define __CAL_HOST_MINMAX(_R, _A, _B)                                          \
  static inline __attribute__((host)) _R min(const _A __a, const _B __b) {    \
    return (_R)__a < (_R)__b ? (_R)__a : (_R)__b;                              \
  }                                                                            \
  static inline __attribute__((host)) _R max(const _A __a, const _B __b) {    \
    return (_R)__a > (_R)__b ? (_R)__a : (_R)__b;                              \
  }
__CAL_HOST_MINMAX(int, int, int)
__CAL_HOST_MINMAX(unsigned int, unsigned int, unsigned int)
__CAL_HOST_MINMAX(unsigned int, int, unsigned int)
__CAL_HOST_MINMAX(unsigned int, unsigned int, int)
__CAL_HOST_MINMAX(long int, long int, long int)
__CAL_HOST_MINMAX(unsigned long int, unsigned long int, unsigned long int)
__CAL_HOST_MINMAX(unsigned long int, long int, unsigned long int)
__CAL_HOST_MINMAX(unsigned long int, unsigned long int, long int)
__CAL_HOST_MINMAX(long long int, long long int, long long int)
__CAL_HOST_MINMAX(unsigned long long int, unsigned long long int,
                  unsigned long long int)
__CAL_HOST_MINMAX(unsigned long long int, long long int, unsigned long long int)
__CAL_HOST_MINMAX(unsigned long long int, unsigned long long int, long long int)
__CAL_HOST_MINMAX(float, float, float)
__CAL_HOST_MINMAX(double, double, double)
__CAL_HOST_MINMAX(double, float, double)
__CAL_HOST_MINMAX(double, double, float)
#undef __CAL_HOST_MINMAX

#endif /* CUDA_ACCESS_LINT_SUPPLEMENT_H */

/*
 * cuda-access-lint built-in CUDA prelude (mode B: no CUDA toolkit).
 *
 * Stub for the toolkit's <cuda_fp8.h>: the 8-bit floating-point types
 * __nv_fp8_e4m3 / __nv_fp8_e5m2 (1 byte), their x2 (2 bytes, 2-aligned) and
 * x4 (4 bytes, 4-aligned) packs, the storage typedefs, the saturation and
 * interpretation enums and the __nv_cvt_* conversions, as declarations. All
 * constructors and conversion operators are explicit, as in the toolkit.
 * Not covered: the e8m0 scale types. Like the toolkit's, it includes
 * cuda_fp16.h and cuda_bf16.h.
 */
#ifndef __CUDA_FP8_H__
#define __CUDA_FP8_H__
#pragma clang system_header
#define __CUDA_FP8_HPP__
#define __CUDA_FP8_TYPES_EXIST__

#include "cuda_fp16.h"
#include "cuda_bf16.h"

typedef unsigned char __nv_fp8_storage_t;
typedef unsigned short int __nv_fp8x2_storage_t;
typedef unsigned int __nv_fp8x4_storage_t;

typedef enum __nv_saturation_t {
  __NV_NOSAT,
  __NV_SATFINITE
} __nv_saturation_t;

typedef enum __nv_fp8_interpretation_t {
  __NV_E4M3,
  __NV_E5M2
} __nv_fp8_interpretation_t;

__CAL_HD __nv_fp8_storage_t
__nv_cvt_double_to_fp8(const double x, const __nv_saturation_t saturate,
                       const __nv_fp8_interpretation_t fp8_interpretation);
__CAL_HD __nv_fp8x2_storage_t
__nv_cvt_double2_to_fp8x2(const double2 x, const __nv_saturation_t saturate,
                          const __nv_fp8_interpretation_t fp8_interpretation);
__CAL_HD __nv_fp8_storage_t
__nv_cvt_float_to_fp8(const float x, const __nv_saturation_t saturate,
                      const __nv_fp8_interpretation_t fp8_interpretation);
__CAL_HD __nv_fp8x2_storage_t
__nv_cvt_float2_to_fp8x2(const float2 x, const __nv_saturation_t saturate,
                         const __nv_fp8_interpretation_t fp8_interpretation);
__CAL_HD __nv_fp8_storage_t
__nv_cvt_halfraw_to_fp8(const __half_raw x, const __nv_saturation_t saturate,
                        const __nv_fp8_interpretation_t fp8_interpretation);
__CAL_HD __nv_fp8x2_storage_t __nv_cvt_halfraw2_to_fp8x2(
    const __half2_raw x, const __nv_saturation_t saturate,
    const __nv_fp8_interpretation_t fp8_interpretation);
__CAL_HD __nv_fp8_storage_t __nv_cvt_bfloat16raw_to_fp8(
    const __nv_bfloat16_raw x, const __nv_saturation_t saturate,
    const __nv_fp8_interpretation_t fp8_interpretation);
__CAL_HD __nv_fp8x2_storage_t __nv_cvt_bfloat16raw2_to_fp8x2(
    const __nv_bfloat162_raw x, const __nv_saturation_t saturate,
    const __nv_fp8_interpretation_t fp8_interpretation);
__CAL_HD __half_raw
__nv_cvt_fp8_to_halfraw(const __nv_fp8_storage_t x,
                        const __nv_fp8_interpretation_t fp8_interpretation);
__CAL_HD __half2_raw
__nv_cvt_fp8x2_to_halfraw2(const __nv_fp8x2_storage_t x,
                           const __nv_fp8_interpretation_t fp8_interpretation);

#define __CAL_FP8_STRUCT(T)                                                    \
  struct __align__(1) T {                                                      \
    __nv_fp8_storage_t __x;                                                    \
    T() = default;                                                             \
    explicit __CAL_HD T(const __half f);                                       \
    explicit __CAL_HD T(const __nv_bfloat16 f);                                \
    explicit __CAL_HD T(const float f);                                        \
    explicit __CAL_HD T(const double f);                                       \
    explicit __CAL_HD T(const unsigned short int val);                         \
    explicit __CAL_HD T(const unsigned int val);                               \
    explicit __CAL_HD T(const unsigned long int val);                          \
    explicit __CAL_HD T(const unsigned long long int val);                     \
    explicit __CAL_HD T(const short int val);                                  \
    explicit __CAL_HD T(const int val);                                        \
    explicit __CAL_HD T(const long int val);                                   \
    explicit __CAL_HD T(const long long int val);                              \
    explicit __CAL_HD operator __half() const;                                 \
    explicit __CAL_HD operator float() const;                                  \
    explicit __CAL_HD operator __nv_bfloat16() const;                          \
    explicit __CAL_HD operator double() const;                                 \
    explicit __CAL_HD operator unsigned char() const;                          \
    explicit __CAL_HD operator unsigned short int() const;                     \
    explicit __CAL_HD operator unsigned int() const;                           \
    explicit __CAL_HD operator unsigned long int() const;                      \
    explicit __CAL_HD operator unsigned long long int() const;                 \
    explicit __CAL_HD operator signed char() const;                            \
    explicit __CAL_HD operator char() const;                                   \
    explicit __CAL_HD operator short int() const;                              \
    explicit __CAL_HD operator int() const;                                    \
    explicit __CAL_HD operator long int() const;                               \
    explicit __CAL_HD operator long long int() const;                          \
    explicit __CAL_HD operator bool() const;                                   \
  };
#define __CAL_FP8X2_STRUCT(T)                                                  \
  struct __align__(2) T {                                                      \
    __nv_fp8x2_storage_t __x;                                                  \
    T() = default;                                                             \
    explicit __CAL_HD T(const __half2 f);                                      \
    explicit __CAL_HD T(const __nv_bfloat162 f);                               \
    explicit __CAL_HD T(const float2 f);                                       \
    explicit __CAL_HD T(const double2 f);                                      \
    explicit __CAL_HD operator __half2() const;                                \
    explicit __CAL_HD operator float2() const;                                 \
  };
#define __CAL_FP8X4_STRUCT(T)                                                  \
  struct __align__(4) T {                                                      \
    __nv_fp8x4_storage_t __x;                                                  \
    T() = default;                                                             \
    explicit __CAL_HD T(const __half2 flo, const __half2 fhi);                 \
    explicit __CAL_HD T(const __nv_bfloat162 flo, const __nv_bfloat162 fhi);   \
    explicit __CAL_HD T(const float4 f);                                       \
    explicit __CAL_HD T(const double4 f);                                      \
    explicit __CAL_HD T(const double4_16a f);                                  \
    explicit __CAL_HD T(const double4_32a f);                                  \
    explicit __CAL_HD operator float4() const;                                 \
  };

__CAL_FP8_STRUCT(__nv_fp8_e5m2)
__CAL_FP8X2_STRUCT(__nv_fp8x2_e5m2)
__CAL_FP8X4_STRUCT(__nv_fp8x4_e5m2)
__CAL_FP8_STRUCT(__nv_fp8_e4m3)
__CAL_FP8X2_STRUCT(__nv_fp8x2_e4m3)
__CAL_FP8X4_STRUCT(__nv_fp8x4_e4m3)

#undef __CAL_FP8_STRUCT
#undef __CAL_FP8X2_STRUCT
#undef __CAL_FP8X4_STRUCT

#endif /* __CUDA_FP8_H__ */

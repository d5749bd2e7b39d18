/*
 * cuda-access-lint built-in CUDA prelude (mode B: no CUDA toolkit).
 *
 * Stub for the toolkit's <cuda_fp16.h>: __half (2 bytes, 2-aligned), __half2
 * (4 bytes, 4-aligned), __half_raw, __half2_raw, their operators and the
 * intrinsics that take them, as declarations (see
 * cuda_access_lint/half_like.h for the part shared with cuda_bf16.h).
 * Not covered: the deprecated non-_sync shuffles, __CUDA_NO_HALF_* opt-outs.
 */
#ifndef __CUDA_FP16_H__
#define __CUDA_FP16_H__
#pragma clang system_header
#define __CUDA_FP16_HPP__
#define __CUDA_FP16_TYPES_EXIST__

#include "cuda_access_lint_prelude.h"
#include "cuda_access_lint/half_like.h"

typedef struct __align__(2) {
  unsigned short x;
} __half_raw;

typedef struct __align__(4) {
  unsigned short x;
  unsigned short y;
} __half2_raw;

__CAL_HALF_STRUCT(__half, __half_raw, __nv_bfloat16)
__CAL_HALF2_STRUCT(__half2, __half, __half2_raw)

typedef struct __half half;
typedef struct __half2 half2;
typedef __half __nv_half;
typedef __half2 __nv_half2;
typedef __half_raw __nv_half_raw;
typedef __half2_raw __nv_half2_raw;
typedef __half nv_half;
typedef __half2 nv_half2;

__CAL_HALF_OPERATORS(__half)
__CAL_HALF_OPERATORS(__half2)
__CAL_HALF_FUNCTIONS(__half, __half2)
__CAL_INT_CONVERSIONS(__half, half)

/* Conversions specific to __half. */
__CAL_HD __half __double2half(const double a);
__CAL_HD __half __float2half(const float a);
__CAL_HD __half __float2half_rn(const float a);
__CAL_HD __half __float2half_rz(const float a);
__CAL_HD __half __float2half_rd(const float a);
__CAL_HD __half __float2half_ru(const float a);
__CAL_HD float __half2float(const __half a);
__CAL_HD __half2 __float2half2_rn(const float a);
__CAL_HD __half2 __floats2half2_rn(const float a, const float b);
__CAL_HD __half2 __float22half2_rn(const float2 a);
__CAL_HD float2 __half22float2(const __half2 a);
__CAL_HD __half2 __half2half2(const __half a);
__CAL_HD __half2 __halves2half2(const __half a, const __half b);
__CAL_HD __half2 make_half2(const __half x, const __half y);
__CAL_HD __half __low2half(const __half2 a);
__CAL_HD __half __high2half(const __half2 a);
__CAL_HD __half2 __low2half2(const __half2 a);
__CAL_HD __half2 __high2half2(const __half2 a);
__CAL_HD __half2 __lows2half2(const __half2 a, const __half2 b);
__CAL_HD __half2 __highs2half2(const __half2 a, const __half2 b);

#endif /* __CUDA_FP16_H__ */

/*
 * cuda-access-lint built-in CUDA prelude (mode B: no CUDA toolkit).
 *
 * Stub for the toolkit's <cuda_bf16.h>: __nv_bfloat16 (2 bytes, 2-aligned),
 * __nv_bfloat162 (4 bytes, 4-aligned), __nv_bfloat16_raw,
 * __nv_bfloat162_raw, their operators and the intrinsics that take them, as
 * declarations (see cuda_access_lint/half_like.h for the part shared with
 * cuda_fp16.h). Like the toolkit's, it includes cuda_fp16.h.
 */
#ifndef __CUDA_BF16_H__
#define __CUDA_BF16_H__
#pragma clang system_header
#define __CUDA_BF16_HPP__
#define __CUDA_BF16_TYPES_EXIST__

#include "cuda_fp16.h"

typedef struct __align__(2) {
  unsigned short x;
} __nv_bfloat16_raw;

typedef struct __align__(4) {
  unsigned short x;
  unsigned short y;
} __nv_bfloat162_raw;

__CAL_HALF_STRUCT(__nv_bfloat16, __nv_bfloat16_raw, __half)
__CAL_HALF2_STRUCT(__nv_bfloat162, __nv_bfloat16, __nv_bfloat162_raw)

typedef __nv_bfloat16 nv_bfloat16;
typedef __nv_bfloat162 nv_bfloat162;

__CAL_HALF_OPERATORS(__nv_bfloat16)
__CAL_HALF_OPERATORS(__nv_bfloat162)
__CAL_HALF_FUNCTIONS(__nv_bfloat16, __nv_bfloat162)
__CAL_INT_CONVERSIONS(__nv_bfloat16, bfloat16)

/* Conversions specific to __nv_bfloat16. */
__CAL_HD __nv_bfloat16 __double2bfloat16(const double a);
__CAL_HD __nv_bfloat16 __float2bfloat16(const float a);
__CAL_HD __nv_bfloat16 __float2bfloat16_rn(const float a);
__CAL_HD __nv_bfloat16 __float2bfloat16_rz(const float a);
__CAL_HD __nv_bfloat16 __float2bfloat16_rd(const float a);
__CAL_HD __nv_bfloat16 __float2bfloat16_ru(const float a);
__CAL_HD float __bfloat162float(const __nv_bfloat16 a);
__CAL_HD __nv_bfloat162 __float2bfloat162_rn(const float a);
__CAL_HD __nv_bfloat162 __floats2bfloat162_rn(const float a, const float b);
__CAL_HD __nv_bfloat162 __float22bfloat162_rn(const float2 a);
__CAL_HD float2 __bfloat1622float2(const __nv_bfloat162 a);
__CAL_HD __nv_bfloat162 __bfloat162bfloat162(const __nv_bfloat16 a);
__CAL_HD __nv_bfloat162 __halves2bfloat162(const __nv_bfloat16 a,
                                           const __nv_bfloat16 b);
__CAL_HD __nv_bfloat162 make_bfloat162(const __nv_bfloat16 x,
                                       const __nv_bfloat16 y);
__CAL_HD __nv_bfloat16 __low2bfloat16(const __nv_bfloat162 a);
__CAL_HD __nv_bfloat16 __high2bfloat16(const __nv_bfloat162 a);
__CAL_HD __nv_bfloat162 __low2bfloat162(const __nv_bfloat162 a);
__CAL_HD __nv_bfloat162 __high2bfloat162(const __nv_bfloat162 a);
__CAL_HD __nv_bfloat162 __lows2bfloat162(const __nv_bfloat162 a,
                                         const __nv_bfloat162 b);
__CAL_HD __nv_bfloat162 __highs2bfloat162(const __nv_bfloat162 a,
                                          const __nv_bfloat162 b);

#endif /* __CUDA_BF16_H__ */

/*
 * cuda-access-lint built-in CUDA prelude (mode B: no CUDA toolkit).
 *
 * Shared shape of the 16-bit floating-point types of cuda_fp16.h (__half,
 * __half2) and cuda_bf16.h (__nv_bfloat16, __nv_bfloat162): the same
 * members, the same operator overloads and the same overloaded intrinsics
 * (__hadd, __hfma2, hexp, __shfl_*_sync, __ldg, __stcs, atomicAdd, ...),
 * declared for one scalar type H, its pair type H2 and their raw structs.
 * The constructors and conversion operators are the toolkit's, so implicit
 * conversions (and ambiguities: float + __half is ambiguous with nvcc too)
 * resolve as they do with nvcc. Declarations only: a parse needs no bodies.
 */
#ifndef CUDA_ACCESS_LINT_HALF_LIKE_H
#define CUDA_ACCESS_LINT_HALF_LIKE_H
#pragma clang system_header

#include "cuda_access_lint/vector_types.h"

#define __CAL_HD __host__ __device__

/* struct H: 2 bytes, 2-byte aligned, trivially default-constructible. */
#define __CAL_HALF_STRUCT(H, RAW, OTHER)                                       \
  struct OTHER;                                                                \
  struct __align__(2) H {                                                      \
  protected:                                                                   \
    unsigned short __x;                                                        \
                                                                               \
  public:                                                                      \
    H() = default;                                                             \
    __CAL_HD constexpr H(const RAW &hr) : __x(hr.x) {}                         \
    __CAL_HD H &operator=(const RAW &hr);                                      \
    __CAL_HD volatile H &operator=(const RAW &hr) volatile;                    \
    __CAL_HD volatile H &operator=(const volatile RAW &hr) volatile;           \
    __CAL_HD operator RAW() const;                                             \
    __CAL_HD operator RAW() const volatile;                                    \
    explicit __CAL_HD H(const OTHER f);                                        \
    __CAL_HD H(const float f);                                                 \
    __CAL_HD H(const double f);                                                \
    __CAL_HD operator float() const;                                           \
    __CAL_HD H &operator=(const float f);                                      \
    __CAL_HD H &operator=(const double f);                                     \
    __CAL_HD H(const short val);                                               \
    __CAL_HD H(const unsigned short val);                                      \
    __CAL_HD H(const int val);                                                 \
    __CAL_HD H(const unsigned int val);                                        \
    __CAL_HD H(const long val);                                                \
    __CAL_HD H(const unsigned long val);                                       \
    __CAL_HD H(const long long val);                                           \
    __CAL_HD H(const unsigned long long val);                                  \
    __CAL_HD operator signed char() const;                                     \
    __CAL_HD operator unsigned char() const;                                   \
    __CAL_HD operator char() const;                                            \
    __CAL_HD operator short() const;                                           \
    __CAL_HD operator unsigned short() const;                                  \
    __CAL_HD operator int() const;                                             \
    __CAL_HD operator unsigned int() const;                                    \
    __CAL_HD operator long() const;                                            \
    __CAL_HD operator unsigned long() const;                                   \
    __CAL_HD operator long long() const;                                       \
    __CAL_HD operator unsigned long long() const;                              \
    __CAL_HD H &operator=(const short val);                                    \
    __CAL_HD H &operator=(const unsigned short val);                           \
    __CAL_HD H &operator=(const int val);                                      \
    __CAL_HD H &operator=(const unsigned int val);                             \
    __CAL_HD H &operator=(const long long val);                                \
    __CAL_HD H &operator=(const unsigned long long val);                       \
    __CAL_HD constexpr operator bool() const { return (__x & 0x7FFFU) != 0U; } \
  };

/* struct H2: two H, 4 bytes, 4-byte aligned (user-provided copy: like the
 * toolkit's, not trivially copyable). */
#define __CAL_HALF2_STRUCT(H2, H, RAW2)                                        \
  struct __align__(4) H2 {                                                     \
    H x;                                                                       \
    H y;                                                                       \
    H2() = default;                                                            \
    __CAL_HD H2(const H2 &&src);                                               \
    __CAL_HD H2 &operator=(const H2 &&src);                                    \
    __CAL_HD constexpr H2(const H &a, const H &b) : x(a), y(b) {}              \
    __CAL_HD H2(const H2 &src);                                                \
    __CAL_HD H2 &operator=(const H2 &src);                                     \
    __CAL_HD H2(const RAW2 &h2r);                                              \
    __CAL_HD H2 &operator=(const RAW2 &h2r);                                   \
    __CAL_HD operator RAW2() const;                                            \
  };

/* Arithmetic and comparison operators of T (H or H2). */
#define __CAL_HALF_OPERATORS(T)                                                \
  __CAL_HD T operator+(const T &lh, const T &rh);                              \
  __CAL_HD T operator-(const T &lh, const T &rh);                              \
  __CAL_HD T operator*(const T &lh, const T &rh);                              \
  __CAL_HD T operator/(const T &lh, const T &rh);                              \
  __CAL_HD T &operator+=(T &lh, const T &rh);                                  \
  __CAL_HD T &operator-=(T &lh, const T &rh);                                  \
  __CAL_HD T &operator*=(T &lh, const T &rh);                                  \
  __CAL_HD T &operator/=(T &lh, const T &rh);                                  \
  __CAL_HD T &operator++(T &h);                                                \
  __CAL_HD T &operator--(T &h);                                                \
  __CAL_HD T operator++(T &h, const int ignored);                              \
  __CAL_HD T operator--(T &h, const int ignored);                              \
  __CAL_HD T operator+(const T &h);                                            \
  __CAL_HD T operator-(const T &h);                                            \
  __CAL_HD bool operator==(const T &lh, const T &rh);                          \
  __CAL_HD bool operator!=(const T &lh, const T &rh);                          \
  __CAL_HD bool operator>(const T &lh, const T &rh);                           \
  __CAL_HD bool operator<(const T &lh, const T &rh);                           \
  __CAL_HD bool operator>=(const T &lh, const T &rh);                          \
  __CAL_HD bool operator<=(const T &lh, const T &rh);

/* The overloaded intrinsics common to __half and __nv_bfloat16. */
#define __CAL_HALF_FUNCTIONS(H, H2)                                            \
  /* arithmetic */                                                             \
  __CAL_HD H __hadd(const H a, const H b);                                     \
  __CAL_HD H __hsub(const H a, const H b);                                     \
  __CAL_HD H __hmul(const H a, const H b);                                     \
  __CAL_HD H __hdiv(const H a, const H b);                                     \
  __CAL_HD H __hadd_rn(const H a, const H b);                                  \
  __CAL_HD H __hsub_rn(const H a, const H b);                                  \
  __CAL_HD H __hmul_rn(const H a, const H b);                                  \
  __CAL_HD H __hadd_sat(const H a, const H b);                                 \
  __CAL_HD H __hsub_sat(const H a, const H b);                                 \
  __CAL_HD H __hmul_sat(const H a, const H b);                                 \
  __CAL_HD H __hfma(const H a, const H b, const H c);                          \
  __CAL_HD H __hfma_sat(const H a, const H b, const H c);                      \
  __CAL_HD H __hfma_relu(const H a, const H b, const H c);                     \
  __CAL_HD H __hneg(const H a);                                                \
  __CAL_HD H __habs(const H a);                                                \
  __CAL_HD H2 __hadd2(const H2 a, const H2 b);                                 \
  __CAL_HD H2 __hsub2(const H2 a, const H2 b);                                 \
  __CAL_HD H2 __hmul2(const H2 a, const H2 b);                                 \
  __CAL_HD H2 __h2div(const H2 a, const H2 b);                                 \
  __CAL_HD H2 __hadd2_rn(const H2 a, const H2 b);                              \
  __CAL_HD H2 __hsub2_rn(const H2 a, const H2 b);                              \
  __CAL_HD H2 __hmul2_rn(const H2 a, const H2 b);                              \
  __CAL_HD H2 __hadd2_sat(const H2 a, const H2 b);                             \
  __CAL_HD H2 __hsub2_sat(const H2 a, const H2 b);                             \
  __CAL_HD H2 __hmul2_sat(const H2 a, const H2 b);                             \
  __CAL_HD H2 __hfma2(const H2 a, const H2 b, const H2 c);                     \
  __CAL_HD H2 __hfma2_sat(const H2 a, const H2 b, const H2 c);                 \
  __CAL_HD H2 __hfma2_relu(const H2 a, const H2 b, const H2 c);                \
  __CAL_HD H2 __hcmadd(const H2 a, const H2 b, const H2 c);                    \
  __CAL_HD H2 __hneg2(const H2 a);                                             \
  __CAL_HD H2 __habs2(const H2 a);                                             \
  /* comparisons */                                                            \
  __CAL_HD bool __heq(const H a, const H b);                                   \
  __CAL_HD bool __hne(const H a, const H b);                                   \
  __CAL_HD bool __hle(const H a, const H b);                                   \
  __CAL_HD bool __hge(const H a, const H b);                                   \
  __CAL_HD bool __hlt(const H a, const H b);                                   \
  __CAL_HD bool __hgt(const H a, const H b);                                   \
  __CAL_HD bool __hequ(const H a, const H b);                                  \
  __CAL_HD bool __hneu(const H a, const H b);                                  \
  __CAL_HD bool __hleu(const H a, const H b);                                  \
  __CAL_HD bool __hgeu(const H a, const H b);                                  \
  __CAL_HD bool __hltu(const H a, const H b);                                  \
  __CAL_HD bool __hgtu(const H a, const H b);                                  \
  __CAL_HD H2 __heq2(const H2 a, const H2 b);                                  \
  __CAL_HD H2 __hne2(const H2 a, const H2 b);                                  \
  __CAL_HD H2 __hle2(const H2 a, const H2 b);                                  \
  __CAL_HD H2 __hge2(const H2 a, const H2 b);                                  \
  __CAL_HD H2 __hlt2(const H2 a, const H2 b);                                  \
  __CAL_HD H2 __hgt2(const H2 a, const H2 b);                                  \
  __CAL_HD H2 __hequ2(const H2 a, const H2 b);                                 \
  __CAL_HD H2 __hneu2(const H2 a, const H2 b);                                 \
  __CAL_HD H2 __hleu2(const H2 a, const H2 b);                                 \
  __CAL_HD H2 __hgeu2(const H2 a, const H2 b);                                 \
  __CAL_HD H2 __hltu2(const H2 a, const H2 b);                                 \
  __CAL_HD H2 __hgtu2(const H2 a, const H2 b);                                 \
  __CAL_HD unsigned int __heq2_mask(const H2 a, const H2 b);                   \
  __CAL_HD unsigned int __hne2_mask(const H2 a, const H2 b);                   \
  __CAL_HD unsigned int __hle2_mask(const H2 a, const H2 b);                   \
  __CAL_HD unsigned int __hge2_mask(const H2 a, const H2 b);                   \
  __CAL_HD unsigned int __hlt2_mask(const H2 a, const H2 b);                   \
  __CAL_HD unsigned int __hgt2_mask(const H2 a, const H2 b);                   \
  __CAL_HD unsigned int __hequ2_mask(const H2 a, const H2 b);                  \
  __CAL_HD unsigned int __hneu2_mask(const H2 a, const H2 b);                  \
  __CAL_HD unsigned int __hleu2_mask(const H2 a, const H2 b);                  \
  __CAL_HD unsigned int __hgeu2_mask(const H2 a, const H2 b);                  \
  __CAL_HD unsigned int __hltu2_mask(const H2 a, const H2 b);                  \
  __CAL_HD unsigned int __hgtu2_mask(const H2 a, const H2 b);                  \
  __CAL_HD bool __hbeq2(const H2 a, const H2 b);                               \
  __CAL_HD bool __hbne2(const H2 a, const H2 b);                               \
  __CAL_HD bool __hble2(const H2 a, const H2 b);                               \
  __CAL_HD bool __hbge2(const H2 a, const H2 b);                               \
  __CAL_HD bool __hblt2(const H2 a, const H2 b);                               \
  __CAL_HD bool __hbgt2(const H2 a, const H2 b);                               \
  __CAL_HD bool __hbequ2(const H2 a, const H2 b);                              \
  __CAL_HD bool __hbneu2(const H2 a, const H2 b);                              \
  __CAL_HD bool __hbleu2(const H2 a, const H2 b);                              \
  __CAL_HD bool __hbgeu2(const H2 a, const H2 b);                              \
  __CAL_HD bool __hbltu2(const H2 a, const H2 b);                              \
  __CAL_HD bool __hbgtu2(const H2 a, const H2 b);                              \
  __CAL_HD H __hmax(const H a, const H b);                                     \
  __CAL_HD H __hmin(const H a, const H b);                                     \
  __CAL_HD H __hmax_nan(const H a, const H b);                                 \
  __CAL_HD H __hmin_nan(const H a, const H b);                                 \
  __CAL_HD H2 __hmax2(const H2 a, const H2 b);                                 \
  __CAL_HD H2 __hmin2(const H2 a, const H2 b);                                 \
  __CAL_HD H2 __hmax2_nan(const H2 a, const H2 b);                             \
  __CAL_HD H2 __hmin2_nan(const H2 a, const H2 b);                             \
  __CAL_HD int __hisinf(const H a);                                            \
  __CAL_HD bool __hisnan(const H a);                                           \
  __CAL_HD H2 __hisnan2(const H2 a);                                           \
  /* math */                                                                   \
  __device__ H hsqrt(const H a);                                               \
  __device__ H hrsqrt(const H a);                                              \
  __device__ H hrcp(const H a);                                                \
  __device__ H hlog(const H a);                                                \
  __device__ H hlog2(const H a);                                               \
  __device__ H hlog10(const H a);                                              \
  __device__ H hexp(const H a);                                                \
  __device__ H hexp2(const H a);                                               \
  __device__ H hexp10(const H a);                                              \
  __device__ H hcos(const H a);                                                \
  __device__ H hsin(const H a);                                                \
  __device__ H htanh(const H a);                                               \
  __device__ H htanh_approx(const H a);                                        \
  __CAL_HD H htrunc(const H h);                                                \
  __CAL_HD H hceil(const H h);                                                 \
  __CAL_HD H hfloor(const H h);                                                \
  __CAL_HD H hrint(const H h);                                                 \
  __device__ H2 h2sqrt(const H2 a);                                            \
  __device__ H2 h2rsqrt(const H2 a);                                           \
  __device__ H2 h2rcp(const H2 a);                                             \
  __device__ H2 h2log(const H2 a);                                             \
  __device__ H2 h2log2(const H2 a);                                            \
  __device__ H2 h2log10(const H2 a);                                           \
  __device__ H2 h2exp(const H2 a);                                             \
  __device__ H2 h2exp2(const H2 a);                                            \
  __device__ H2 h2exp10(const H2 a);                                           \
  __device__ H2 h2cos(const H2 a);                                             \
  __device__ H2 h2sin(const H2 a);                                             \
  __device__ H2 h2tanh(const H2 a);                                            \
  __device__ H2 h2tanh_approx(const H2 a);                                     \
  __CAL_HD H2 h2trunc(const H2 h);                                             \
  __CAL_HD H2 h2ceil(const H2 h);                                              \
  __CAL_HD H2 h2floor(const H2 h);                                             \
  __CAL_HD H2 h2rint(const H2 h);                                              \
  /* lanes */                                                                  \
  __CAL_HD float __low2float(const H2 a);                                      \
  __CAL_HD float __high2float(const H2 a);                                     \
  __CAL_HD H2 __lowhigh2highlow(const H2 a);                                   \
  /* warp shuffles */                                                          \
  __device__ H2 __shfl_sync(const unsigned int mask, const H2 var,             \
                            const int srcLane, const int width = warpSize);    \
  __device__ H2 __shfl_up_sync(const unsigned int mask, const H2 var,          \
                               const unsigned int delta,                       \
                               const int width = warpSize);                    \
  __device__ H2 __shfl_down_sync(const unsigned int mask, const H2 var,        \
                                 const unsigned int delta,                     \
                                 const int width = warpSize);                  \
  __device__ H2 __shfl_xor_sync(const unsigned int mask, const H2 var,         \
                                const int laneMask,                            \
                                const int width = warpSize);                   \
  __device__ H __shfl_sync(const unsigned int mask, const H var,               \
                           const int srcLane, const int width = warpSize);     \
  __device__ H __shfl_up_sync(const unsigned int mask, const H var,            \
                              const unsigned int delta,                        \
                              const int width = warpSize);                     \
  __device__ H __shfl_down_sync(const unsigned int mask, const H var,          \
                                const unsigned int delta,                      \
                                const int width = warpSize);                   \
  __device__ H __shfl_xor_sync(const unsigned int mask, const H var,           \
                               const int laneMask, const int width = warpSize);\
  /* cache-hint loads and stores */                                            \
  __device__ H2 __ldg(const H2 *const ptr);                                    \
  __device__ H __ldg(const H *const ptr);                                      \
  __device__ H2 __ldcg(const H2 *const ptr);                                   \
  __device__ H __ldcg(const H *const ptr);                                     \
  __device__ H2 __ldca(const H2 *const ptr);                                   \
  __device__ H __ldca(const H *const ptr);                                     \
  __device__ H2 __ldcs(const H2 *const ptr);                                   \
  __device__ H __ldcs(const H *const ptr);                                     \
  __device__ H2 __ldlu(const H2 *const ptr);                                   \
  __device__ H __ldlu(const H *const ptr);                                     \
  __device__ H2 __ldcv(const H2 *const ptr);                                   \
  __device__ H __ldcv(const H *const ptr);                                     \
  __device__ void __stwb(H2 *const ptr, const H2 value);                       \
  __device__ void __stwb(H *const ptr, const H value);                         \
  __device__ void __stcg(H2 *const ptr, const H2 value);                       \
  __device__ void __stcg(H *const ptr, const H value);                         \
  __device__ void __stcs(H2 *const ptr, const H2 value);                       \
  __device__ void __stcs(H *const ptr, const H value);                         \
  __device__ void __stwt(H2 *const ptr, const H2 value);                       \
  __device__ void __stwt(H *const ptr, const H value);                         \
  /* atomics */                                                                \
  __device__ H2 atomicAdd(H2 *const address, const H2 val);                    \
  __device__ H atomicAdd(H *const address, const H val);

/* Conversions from the integer types, with the four rounding modes:
 * __int2half_rn, __uint2bfloat16_rz, ... (PFX = half or bfloat16). */
#define __CAL_FROM_INT_RND(H, FROM, T, PFX)                                    \
  __CAL_HD H __##FROM##2##PFX##_rn(const T i);                                 \
  __CAL_HD H __##FROM##2##PFX##_rz(const T i);                                 \
  __CAL_HD H __##FROM##2##PFX##_rd(const T i);                                 \
  __CAL_HD H __##FROM##2##PFX##_ru(const T i);
/* Conversions to the integer types: __half2int_rn, __bfloat162ull_rz, ... */
#define __CAL_TO_INT_RND(H, TO, T, PFX)                                        \
  __CAL_HD T __##PFX##2##TO##_rn(const H h);                                   \
  __CAL_HD T __##PFX##2##TO##_rz(const H h);                                   \
  __CAL_HD T __##PFX##2##TO##_rd(const H h);                                   \
  __CAL_HD T __##PFX##2##TO##_ru(const H h);
#define __CAL_INT_CONVERSIONS(H, PFX)                                          \
  __CAL_FROM_INT_RND(H, int, int, PFX)                                         \
  __CAL_FROM_INT_RND(H, uint, unsigned int, PFX)                               \
  __CAL_FROM_INT_RND(H, short, short, PFX)                                     \
  __CAL_FROM_INT_RND(H, ushort, unsigned short, PFX)                           \
  __CAL_FROM_INT_RND(H, ll, long long, PFX)                                    \
  __CAL_FROM_INT_RND(H, ull, unsigned long long, PFX)                          \
  __CAL_TO_INT_RND(H, int, int, PFX)                                           \
  __CAL_TO_INT_RND(H, uint, unsigned int, PFX)                                 \
  __CAL_TO_INT_RND(H, short, short, PFX)                                       \
  __CAL_TO_INT_RND(H, ushort, unsigned short, PFX)                             \
  __CAL_TO_INT_RND(H, ll, long long, PFX)                                      \
  __CAL_TO_INT_RND(H, ull, unsigned long long, PFX)                            \
  __CAL_HD signed char __##PFX##2char_rz(const H h);                           \
  __CAL_HD unsigned char __##PFX##2uchar_rz(const H h);                        \
  __CAL_HD short __##PFX##_as_short(const H h);                                \
  __CAL_HD unsigned short __##PFX##_as_ushort(const H h);                      \
  __CAL_HD H __short_as_##PFX(const short i);                                  \
  __CAL_HD H __ushort_as_##PFX(const unsigned short i);

#endif /* CUDA_ACCESS_LINT_HALF_LIKE_H */

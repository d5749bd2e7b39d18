/*
 * cuda-access-lint built-in CUDA prelude (mode B: no CUDA toolkit).
 *
 * make_<vector type>() for every vector type, as vector_functions.h declares
 * them (static inline __host__ __device__, defined here: they are trivial).
 */
#ifndef CUDA_ACCESS_LINT_VECTOR_FUNCTIONS_H
#define CUDA_ACCESS_LINT_VECTOR_FUNCTIONS_H
#pragma clang system_header

#include "cuda_access_lint/vector_types.h"

#pragma push_macro("__CAL_MAKE1")
#pragma push_macro("__CAL_MAKE2")
#pragma push_macro("__CAL_MAKE3")
#pragma push_macro("__CAL_MAKE4")
#define __CAL_MAKE1(V, T)                                                      \
  static __inline__ __host__ __device__ V make_##V(T x) {                      \
    V t; t.x = x; return t;                                                    \
  }
#define __CAL_MAKE2(V, T)                                                      \
  static __inline__ __host__ __device__ V make_##V(T x, T y) {                 \
    V t; t.x = x; t.y = y; return t;                                           \
  }
#define __CAL_MAKE3(V, T)                                                      \
  static __inline__ __host__ __device__ V make_##V(T x, T y, T z) {            \
    V t; t.x = x; t.y = y; t.z = z; return t;                                  \
  }
#define __CAL_MAKE4(V, T)                                                      \
  static __inline__ __host__ __device__ V make_##V(T x, T y, T z, T w) {       \
    V t; t.x = x; t.y = y; t.z = z; t.w = w; return t;                         \
  }

__CAL_MAKE1(char1, signed char)
__CAL_MAKE2(char2, signed char)
__CAL_MAKE3(char3, signed char)
__CAL_MAKE4(char4, signed char)
__CAL_MAKE1(uchar1, unsigned char)
__CAL_MAKE2(uchar2, unsigned char)
__CAL_MAKE3(uchar3, unsigned char)
__CAL_MAKE4(uchar4, unsigned char)
__CAL_MAKE1(short1, short)
__CAL_MAKE2(short2, short)
__CAL_MAKE3(short3, short)
__CAL_MAKE4(short4, short)
__CAL_MAKE1(ushort1, unsigned short)
__CAL_MAKE2(ushort2, unsigned short)
__CAL_MAKE3(ushort3, unsigned short)
__CAL_MAKE4(ushort4, unsigned short)
__CAL_MAKE1(int1, int)
__CAL_MAKE2(int2, int)
__CAL_MAKE3(int3, int)
__CAL_MAKE4(int4, int)
__CAL_MAKE1(uint1, unsigned int)
__CAL_MAKE2(uint2, unsigned int)
__CAL_MAKE3(uint3, unsigned int)
__CAL_MAKE4(uint4, unsigned int)
__CAL_MAKE1(long1, long int)
__CAL_MAKE2(long2, long int)
__CAL_MAKE3(long3, long int)
__CAL_MAKE4(long4, long int)
__CAL_MAKE4(long4_16a, long int)
__CAL_MAKE4(long4_32a, long int)
__CAL_MAKE1(ulong1, unsigned long int)
__CAL_MAKE2(ulong2, unsigned long int)
__CAL_MAKE3(ulong3, unsigned long int)
__CAL_MAKE4(ulong4, unsigned long int)
__CAL_MAKE4(ulong4_16a, unsigned long int)
__CAL_MAKE4(ulong4_32a, unsigned long int)
__CAL_MAKE1(longlong1, long long int)
__CAL_MAKE2(longlong2, long long int)
__CAL_MAKE3(longlong3, long long int)
__CAL_MAKE4(longlong4, long long int)
__CAL_MAKE4(longlong4_16a, long long int)
__CAL_MAKE4(longlong4_32a, long long int)
__CAL_MAKE1(ulonglong1, unsigned long long int)
__CAL_MAKE2(ulonglong2, unsigned long long int)
__CAL_MAKE3(ulonglong3, unsigned long long int)
__CAL_MAKE4(ulonglong4, unsigned long long int)
__CAL_MAKE4(ulonglong4_16a, unsigned long long int)
__CAL_MAKE4(ulonglong4_32a, unsigned long long int)
__CAL_MAKE1(float1, float)
__CAL_MAKE2(float2, float)
__CAL_MAKE3(float3, float)
__CAL_MAKE4(float4, float)
__CAL_MAKE1(double1, double)
__CAL_MAKE2(double2, double)
__CAL_MAKE3(double3, double)
__CAL_MAKE4(double4, double)
__CAL_MAKE4(double4_16a, double)
__CAL_MAKE4(double4_32a, double)

#pragma pop_macro("__CAL_MAKE1")
#pragma pop_macro("__CAL_MAKE2")
#pragma pop_macro("__CAL_MAKE3")
#pragma pop_macro("__CAL_MAKE4")

#endif /* CUDA_ACCESS_LINT_VECTOR_FUNCTIONS_H */

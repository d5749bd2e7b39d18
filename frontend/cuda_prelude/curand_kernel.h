/*
 * cuda-access-lint built-in CUDA prelude (mode B: no CUDA toolkit).
 *
 * Stub for the toolkit's <curand_kernel.h>: the generator states with the
 * toolkit's fields (so sizeof(curandState) == 48, Philox 64, MRG32k3a 48, as
 * with the toolkit: arrays of states in global memory keep their stride),
 * curand_init, curand, curand_uniform(_double), curand_normal(2/4,
 * _double), curand_log_normal, curand_poisson and skipahead, as
 * declarations. Not covered: the Sobol (quasi-random) generators.
 */
#ifndef CURAND_KERNEL_H_
#define CURAND_KERNEL_H_
#pragma clang system_header

#include "cuda_access_lint_prelude.h"
#include "curand.h"

struct curandStateXORWOW {
  unsigned int d, v[5];
  int boxmuller_flag;
  int boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};
typedef struct curandStateXORWOW curandStateXORWOW_t;
typedef struct curandStateXORWOW curandState_t;
typedef struct curandStateXORWOW curandState;

struct curandStatePhilox4_32_10 {
  uint4 ctr;
  uint4 output;
  uint2 key;
  unsigned int STATE;
  int boxmuller_flag;
  int boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};
typedef struct curandStatePhilox4_32_10 curandStatePhilox4_32_10_t;

struct curandStateMRG32k3a {
  unsigned int s1[3];
  unsigned int s2[3];
  int boxmuller_flag;
  int boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};
typedef struct curandStateMRG32k3a curandStateMRG32k3a_t;

#define __CAL_CURAND_STATE_FUNCTIONS(S)                                        \
  __device__ void curand_init(unsigned long long seed,                         \
                              unsigned long long subsequence,                  \
                              unsigned long long offset, S *state);            \
  __device__ unsigned int curand(S *state);                                    \
  __device__ float curand_uniform(S *state);                                   \
  __device__ double curand_uniform_double(S *state);                           \
  __device__ float curand_normal(S *state);                                    \
  __device__ float2 curand_normal2(S *state);                                  \
  __device__ double curand_normal_double(S *state);                            \
  __device__ double2 curand_normal2_double(S *state);                          \
  __device__ float curand_log_normal(S *state, float mean, float stddev);      \
  __device__ float2 curand_log_normal2(S *state, float mean, float stddev);    \
  __device__ double2 curand_log_normal2_double(S *state, double mean,          \
                                               double stddev);                 \
  __device__ double curand_log_normal_double(S *state, double mean,            \
                                             double stddev);                   \
  __device__ unsigned int curand_poisson(S *state, double lambda);             \
  __device__ void skipahead(unsigned long long n, S *state);                   \
  __device__ void skipahead_sequence(unsigned long long n, S *state);
__CAL_CURAND_STATE_FUNCTIONS(curandStateXORWOW_t)
__CAL_CURAND_STATE_FUNCTIONS(curandStatePhilox4_32_10_t)
__CAL_CURAND_STATE_FUNCTIONS(curandStateMRG32k3a_t)
#undef __CAL_CURAND_STATE_FUNCTIONS

__device__ uint4 curand4(curandStatePhilox4_32_10_t *state);
__device__ float4 curand_uniform4(curandStatePhilox4_32_10_t *state);
__device__ double2 curand_uniform2_double(curandStatePhilox4_32_10_t *state);
__device__ double4 curand_uniform4_double(curandStatePhilox4_32_10_t *state);
__device__ float4 curand_normal4(curandStatePhilox4_32_10_t *state);
__device__ double4 curand_normal4_double(curandStatePhilox4_32_10_t *state);
__device__ float4 curand_log_normal4(curandStatePhilox4_32_10_t *state,
                                     float mean, float stddev);
__device__ double4 curand_log_normal4_double(curandStatePhilox4_32_10_t *state,
                                             double mean, double stddev);
__device__ void skipahead_subsequence(unsigned long long n,
                                      curandStateMRG32k3a_t *state);
__device__ uint4 curand_poisson4(curandStatePhilox4_32_10_t *state,
                                 double lambda);

#endif /* CURAND_KERNEL_H_ */

// The toolkit headers a kernel file commonly includes, together, with the
// cache-hint loads and stores that clang's own CUDA headers lack (__stcs,
// __stcg, __stwb on plain and vector types; __ldlu, __ldca) used on float,
// float4, __half, __half2, __nv_bfloat16 and __nv_bfloat162.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

__global__ void stream_scale(const float *__restrict__ in,
                             float *__restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    __stcs(out + i, 2.0f * __ldcs(in + i));
}

__global__ void stream_scale4(const float4 *__restrict__ in,
                              float4 *__restrict__ out, int n4) {
  cg::thread_block block = cg::this_thread_block();
  int i = block.group_index().x * block.size() + block.thread_rank();
  if (i < n4) {
    float4 v = __ldcs(in + i);
    v.x *= 2.0f;
    v.y *= 2.0f;
    v.z *= 2.0f;
    v.w *= 2.0f;
    __stcs(out + i, v);
  }
}

__global__ void half_streams(const __half *in, __half *out,
                             const __half2 *in2, __half2 *out2, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    __stcs(out + i, __hmul(__ldcs(in + i), __float2half(0.5f)));
    __stcs(out2 + i, __hmul2(__ldcs(in2 + i), __float2half2_rn(0.5f)));
  }
}

__global__ void bf16_streams(const __nv_bfloat16 *in, __nv_bfloat16 *out,
                             const __nv_bfloat162 *in2, __nv_bfloat162 *out2,
                             int n) {
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    __nv_bfloat16 v = __ldcs(in + i);
    __nv_bfloat162 w = __ldcs(in2 + i);
    float s = warp.shfl_down(__bfloat162float(v), 1);
    __stcs(out + i, __float2bfloat16(s));
    __stcg(out2 + i, w);
  }
}

__global__ void mixed_hints(const float2 *a, float2 *b, const int4 *c, int4 *d,
                            const double *e, double *f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    __stcg(b + i, __ldlu(a + i));
    __stwb(d + i, __ldca(c + i));
    __stcs(f + i, __ldcs(e + i) + __ldcg(e + i));
  }
}

int main() {
  float *buf;
  cudaMalloc(&buf, 1 << 24);
  stream_scale<<<1024, 256>>>(buf, buf, 1 << 18);
  stream_scale4<<<256, 256>>>((const float4 *)buf, (float4 *)buf, 1 << 16);
  half_streams<<<1024, 256>>>((const __half *)buf, (__half *)buf,
                              (const __half2 *)buf, (__half2 *)buf, 1 << 18);
  bf16_streams<<<1024, 256>>>((const __nv_bfloat16 *)buf, (__nv_bfloat16 *)buf,
                              (const __nv_bfloat162 *)buf,
                              (__nv_bfloat162 *)buf, 1 << 18);
  mixed_hints<<<256, 256>>>((const float2 *)buf, (float2 *)buf,
                            (const int4 *)buf, (int4 *)buf,
                            (const double *)buf, (double *)buf, 1 << 16);
  cudaDeviceSynchronize();
  cudaFree(buf);
  return 0;
}

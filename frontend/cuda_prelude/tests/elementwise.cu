// Elementwise kernels: one element per thread, grid-stride loops, a templated
// functor kernel, and the host code that launches them (cudaMalloc, cudaMemcpy,
// streams, events, <<<grid, block, smem, stream>>>).
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                       \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                       \
              cudaGetErrorString(err_));                                       \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

__global__ void saxpy(int n, float a, const float *__restrict__ x,
                      float *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

__global__ void vadd_grid_stride(const float *a, const float *b, float *c,
                                 size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)blockDim.x * gridDim.x)
    c[i] = a[i] + b[i];
}

__global__ void scale_offset(float *data, int n, int offset, float s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x + offset;
  if (i < n)
    data[i] = data[i] * s + sqrtf(fabsf(data[i])) + __expf(-data[i]);
}

struct Relu {
  __device__ float operator()(float v) const { return fmaxf(v, 0.0f); }
};
struct Gelu {
  __device__ float operator()(float v) const {
    return 0.5f * v * (1.0f + tanhf(0.7978845608f * (v + 0.044715f * v * v * v)));
  }
};

template <typename Op, typename T>
__global__ void apply(const T *in, T *out, int n, Op op) {
  int stride = blockDim.x * gridDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    out[i] = op(in[i]);
}

__global__ void strided_copy(const double *in, double *out, int n, int stride) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i * stride < n)
    out[i] = in[i * stride];
}

int main() {
  const int n = 1 << 20;
  std::vector<float> hx(n, 1.0f), hy(n, 2.0f);
  float *x = nullptr, *y = nullptr, *z = nullptr;
  CUDA_CHECK(cudaMalloc(&x, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc((void **)&y, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&z, n * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(x, hx.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(y, hy.data(), n * sizeof(float), cudaMemcpyHostToDevice));

  cudaStream_t stream;
  CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  cudaEvent_t start, stop;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));

  const int block = 256;
  const int grid = (n + block - 1) / block;
  CUDA_CHECK(cudaEventRecord(start, stream));
  saxpy<<<grid, block, 0, stream>>>(n, 2.0f, x, y);
  vadd_grid_stride<<<dim3(132 * 4), dim3(block), 0, stream>>>(x, y, z, n);
  scale_offset<<<grid, block>>>(z, n, 1, 0.5f);
  apply<<<grid, block, 0, stream>>>(z, y, n, Relu());
  apply<Gelu, float><<<grid, block, 0, stream>>>(y, z, n, Gelu{});
  strided_copy<<<grid / 2, block>>>((const double *)x, (double *)z, n / 2, 2);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaEventRecord(stop, stream));
  CUDA_CHECK(cudaEventSynchronize(stop));
  float ms = 0.0f;
  CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
  CUDA_CHECK(cudaMemcpyAsync(hy.data(), z, n * sizeof(float), cudaMemcpyDeviceToHost, stream));
  CUDA_CHECK(cudaStreamSynchronize(stream));
  printf("%.3f ms, y[0] = %f\n", ms, hy[0]);
  CUDA_CHECK(cudaEventDestroy(start));
  CUDA_CHECK(cudaEventDestroy(stop));
  CUDA_CHECK(cudaStreamDestroy(stream));
  CUDA_CHECK(cudaFree(x));
  CUDA_CHECK(cudaFree(y));
  CUDA_CHECK(cudaFree(z));
  CUDA_CHECK(cudaDeviceSynchronize());
  return 0;
}

// SAXPY three ways: Thrust's transform, a grid-stride kernel and a strided
// (uncoalesced) kernel on the vectors' raw pointers.
#include <thrust/device_vector.h>
#include <thrust/functional.h>
#include <thrust/host_vector.h>
#include <thrust/reduce.h>
#include <thrust/sequence.h>
#include <thrust/transform.h>

#include <cstdio>

struct Saxpy {
  float a;
  __host__ __device__ float operator()(float x, float y) const {
    return a * x + y;
  }
};

__global__ void saxpyGridStride(int n, float a, const float *x, float *y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i];
}

__global__ void saxpyStrided(int n, float a, const float *x, float *y) {
  int i = (blockIdx.x * blockDim.x + threadIdx.x) * 8;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

int main() {
  const int n = 1 << 22;
  thrust::device_vector<float> x(n), y(n);
  thrust::sequence(x.begin(), x.end());
  thrust::fill(y.begin(), y.end(), 1.0f);
  thrust::transform(x.begin(), x.end(), y.begin(), y.begin(), Saxpy{2.0f});
  saxpyGridStride<<<1024, 256>>>(n, 2.0f, thrust::raw_pointer_cast(x.data()),
                                 thrust::raw_pointer_cast(y.data()));
  saxpyStrided<<<n / 256 / 8, 256>>>(n, 2.0f,
                                     thrust::raw_pointer_cast(x.data()),
                                     thrust::raw_pointer_cast(y.data()));
  float s = thrust::reduce(y.begin(), y.end(), 0.0f, thrust::plus<float>());
  thrust::host_vector<float> h = y;
  std::printf("%f %f\n", s, h[0]);
  return 0;
}

// A .cu file that pulls in much of the C and C++ standard library (the
// force-included prelude must coexist with libstdc++ and glibc included after
// it, including clang's cuda_wrappers for <new>, <algorithm>, <cmath> and
// <complex>), and uses <cmath> / <cstring> / <cstdio> / <cassert> in device
// code.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cassert>
#include <cmath>
#include <cfloat>
#include <climits>
#include <cstdint>
#include <algorithm>
#include <numeric>
#include <vector>
#include <array>
#include <string>
#include <iostream>
#include <sstream>
#include <fstream>
#include <iomanip>
#include <memory>
#include <random>
#include <chrono>
#include <functional>
#include <type_traits>
#include <limits>
#include <utility>
#include <tuple>
#include <map>
#include <unordered_map>
#include <complex>
#include <thread>
#include <atomic>
#include <new>
#include <cuda_runtime.h>
#include <cuda_fp16.h>

template <typename T> __device__ T clampv(T v, T lo, T hi) {
  return v < lo ? lo : (v > hi ? hi : v);
}

__global__ void k(float *o, const float *in, int n, int64_t m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  assert(n > 0);
  if (i >= n)
    return;
  float x = in[i];
  x = std::sqrt(x) + std::exp(x) + std::abs(x) + std::fabs(x) +
      std::fmin(x, 1.0f) + fabsf(x) + sqrt(x) + exp(x) + pow(x, 2.0f) +
      std::pow(x, 2) + ::min(x, 2.f) + ::max(i, 3);
  x += FLT_MAX * 0.0f + (float)INT_MAX * 0.0f + (std::isfinite(x) ? 1.f : 0.f) +
       (isnan(x) ? 1.f : 0.f) + (std::isinf(x) ? 0.f : 1.f);
  x += clampv(x, 0.f, 1.f) + (float)m;
  char buf[16];
  memset(buf, 0, sizeof buf);
  memcpy(buf, in, 4);
  printf("%d %f %s\n", i, x, buf);
  o[i] = x;
}

int main(int argc, char **argv) {
  std::vector<float> h(1024);
  std::iota(h.begin(), h.end(), 0.f);
  std::sort(h.begin(), h.end());
  float *d = nullptr;
  cudaMalloc(&d, h.size() * sizeof(float));
  cudaMemcpy(d, h.data(), h.size() * sizeof(float), cudaMemcpyHostToDevice);
  k<<<(h.size() + 255) / 256, 256>>>(d, d, (int)h.size(), 0);
  std::cout << std::setw(4) << cudaGetErrorString(cudaGetLastError()) << std::endl;
  auto t0 = std::chrono::high_resolution_clock::now();
  std::mt19937 g(42);
  std::uniform_real_distribution<float> u(0, 1);
  float r = u(g);
  std::unique_ptr<float[]> p(new float[4]);
  std::string s = std::to_string(r);
  std::map<int, int> mm;
  mm[1] = 2;
  (void)t0;
  std::complex<float> c(1, 2);
  c *= c;
  std::atomic<int> a{0};
  a++;
  std::thread th([] {});
  th.join();
  printf("%s %f %d %s\n", s.c_str(), std::abs(c), argc, argv[0]);
  cudaFree(d);
  return 0;
}

// A 3-point stencil and a shifted copy.
__global__ void stencil3(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x + 1;
  // in[i - 1] and in[i + 1] start 4 bytes off a 32-byte boundary, but in[i]
  // reads the same sectors: a note, not a warning.
  out[i] = 0.25f * in[i - 1] + 0.5f * in[i] + 0.25f * in[i + 1];
}

// Reading four floats at an odd offset through float4: a misaligned vector
// access, which faults.
__global__ void shifted_vec4(const float *in, float4 *out) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  out[k] = reinterpret_cast<const float4 *>(in + 1)[k];
}

void run(const float *in, float *out, float4 *out4, int n) {
  stencil3<<<n / 256, 256>>>(in, out, n);
  shifted_vec4<<<n / 1024, 256>>>(in, out4);
}

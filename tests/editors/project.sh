# Sourced by the editor tests: a small nvcc project in $WORK/proj with the
# database CMake would write, the database clangd reads
# (--export-compile-commands), and $WORK/bin with `clangd` and
# `cuda-access-lint` on PATH. Needs TOOL and WORK.
PROJ="$WORK/proj"
mkdir -p "$PROJ/build" "$WORK/bin"
cat > "$PROJ/k.cu" <<'CU'
#define TILE 32
__global__ void transpose(const float *in, float *out, int n) {
  __shared__ float tile[TILE][TILE];
  int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += 8)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += 8)
    out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}
int blocks(int n) { return n / TILE + 0.5; }
void launch(const float *in, float *out, int n) {
  transpose<<<dim3(blocks(n), blocks(n)), dim3(TILE, 8)>>>(in, out, n);
}
CU
NVCC=/usr/local/cuda/bin/nvcc
cat > "$PROJ/build/compile_commands.json" <<JSON
[{"directory": "$PROJ/build", "file": "$PROJ/k.cu",
  "command": "$NVCC -forward-unknown-to-host-compiler --generate-code=arch=compute_90,code=[compute_90,sm_90] -Xcompiler=-Wall -x cu -c $PROJ/k.cu -o k.o"}]
JSON
"$TOOL" -p "$PROJ/build" --export-compile-commands="$PROJ/build/clangd"
ln -sf "$(command -v clangd-22)" "$WORK/bin/clangd"
ln -sf "$TOOL" "$WORK/bin/cuda-access-lint"
export PATH="$WORK/bin:$PATH"

// The typo-correction case: the kernels are fine, the host code calls an
// OpenGL/GLUT window's functions whose headers are not included (in a real
// project: an include directory the compile command lacks), so each is an
// unknown identifier, and clang looks for a correction of every one. The
// lint reports the kernels and sums the host errors up in one warning.
#include <cuda_runtime.h>
#include <cuda_fp16.h>

#include "common/args_helpers.h"
#include "common/check_helpers.h"
#include "common/timer_helpers.h"

__global__ void fillImage(uchar4 *pixels, int width, int height, float t) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height)
    return;
  unsigned char v = (unsigned char)((x + y + int(t)) & 255);
  pixels[y * width + x] = make_uchar4(v, v, v, 255);
}

__global__ void blurColumns(const uchar4 *in, uchar4 *out, int width,
                            int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= width)
    return;
  for (int y = 1; y + 1 < height; ++y) {
    uchar4 a = in[(y - 1) * width + x], b = in[y * width + x],
           c = in[(y + 1) * width + x];
    out[y * width + x] = make_uchar4((a.x + b.x + c.x) / 3,
                                     (a.y + b.y + c.y) / 3,
                                     (a.z + b.z + c.z) / 3, 255);
  }
}

static GLuint pbo;
static cudaGraphicsResource *resource;
static int width = 512, height = 512;
static bench::StopWatch frameTimer;

void display() {
  frameTimer.start();
  uchar4 *pixels = nullptr;
  size_t bytes = 0;
  checkCuda(cudaGraphicsMapResources(1, &resource, 0));
  checkCuda(cudaGraphicsResourceGetMappedPointer((void **)&pixels, &bytes,
                                                 resource));
  dim3 block(16, 16), grid(width / 16, height / 16);
  fillImage<<<grid, block>>>(pixels, width, height, frameTimer.average());
  checkCuda(cudaGraphicsUnmapResources(1, &resource, 0));
  glClear(GL_COLOR_BUFFER_BIT);
  glRasterPos2i(0, 0);
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, pbo);
  glDrawPixels(width, height, GL_RGBA, GL_UNSIGNED_BYTE, 0);
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
  glutSwapBuffers();
  glutPostRedisplay();
  frameTimer.stop();
}

void keyboard(unsigned char key, int, int) {
  if (key == 27)
    glutLeaveMainLoop();
  if (key == 'r')
    glutReshapeWindow(width, height);
}

void reshape(int w, int h) {
  width = w;
  height = h;
  glViewport(0, 0, w, h);
  glMatrixMode(GL_PROJECTION);
  glLoadIdentity();
  glOrtho(0.0, 1.0, 0.0, 1.0, 0.0, 1.0);
}

void initGL(int *argc, char **argv) {
  glutInit(argc, argv);
  glutInitDisplayMode(GLUT_RGBA | GLUT_DOUBLE);
  glutInitWindowSize(width, height);
  glutCreateWindow("fill");
  glutDisplayFunc(display);
  glutKeyboardFunc(keyboard);
  glutReshapeFunc(reshape);
  glewInit();
  if (!glewIsSupported("GL_VERSION_2_0 GL_ARB_pixel_buffer_object")) {
    std::fprintf(stderr, "missing GL extensions\n");
    std::exit(EXIT_FAILURE);
  }
  glGenBuffers(1, &pbo);
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, pbo);
  glBufferData(GL_PIXEL_UNPACK_BUFFER, width * height * 4, nullptr,
               GL_DYNAMIC_DRAW);
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
  checkCuda(cudaGraphicsGLRegisterBuffer(&resource, pbo,
                                         cudaGraphicsMapFlagsWriteDiscard));
}

int main(int argc, char **argv) {
  bench::Args args(argc, argv);
  width = args.getInt("width", 512);
  height = args.getInt("height", 512);
  initGL(&argc, argv);
  glutMainLoop();
  checkCuda(cudaGraphicsUnregisterResource(resource));
  glDeleteBuffers(1, &pbo);
  return 0;
}

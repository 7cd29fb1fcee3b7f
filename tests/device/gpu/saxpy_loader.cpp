// Loads a PTX file with the CUDA driver API, launches a saxpy kernel
// (n, a, x, y) on known data and prints y, one value a line ('%.17g').
#include <cuda.h>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#define CHECK(x)                                                          \
  do {                                                                    \
    CUresult r_ = (x);                                                    \
    if (r_ != CUDA_SUCCESS) {                                             \
      const char* s_ = nullptr;                                           \
      cuGetErrorString(r_, &s_);                                          \
      std::fprintf(stderr, "%s failed: %s\n", #x, s_ ? s_ : "?");         \
      return 2;                                                           \
    }                                                                     \
  } while (0)

int main(int argc, char** argv) {
  if (argc != 3) return std::fprintf(stderr, "usage: loader FILE.ptx KERNEL\n"), 2;
  std::ifstream f(argv[1]);
  std::stringstream ptx;
  ptx << f.rdbuf();
  std::string text = ptx.str();
  CHECK(cuInit(0));
  CUdevice dev;
  CHECK(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CHECK(cuCtxSetCurrent(ctx));
  CUmodule mod;
  CHECK(cuModuleLoadData(&mod, text.c_str()));
  CUfunction fn;
  CHECK(cuModuleGetFunction(&fn, mod, argv[2]));
  long long n = 1000;
  double a = 0.3;
  std::vector<double> x(n), y(n);
  for (long long i = 0; i < n; ++i) {
    x[i] = i * 0.1;
    y[i] = 1.0 / (i + 1);
  }
  CUdeviceptr dx, dy;
  CHECK(cuMemAlloc(&dx, n * sizeof(double)));
  CHECK(cuMemAlloc(&dy, n * sizeof(double)));
  CHECK(cuMemcpyHtoD(dx, x.data(), n * sizeof(double)));
  CHECK(cuMemcpyHtoD(dy, y.data(), n * sizeof(double)));
  void* args[] = {&n, &a, &dx, &dy};
  CHECK(cuLaunchKernel(fn, 8, 1, 1, 128, 1, 1, 0, nullptr, args, nullptr));
  CHECK(cuCtxSynchronize());
  CHECK(cuMemcpyDtoH(y.data(), dy, n * sizeof(double)));
  for (double v : y) std::printf("%.17g\n", v);
  return 0;
}

// ppy-test-vendored: a program installed the way a vendor installs one,
// `bin/` beside its `lib/`, linked into a distribution's folder. It prints
// what its library answers (it ignores the driver's `--fd 3`).
#include <cstdio>

extern "C" int ppy_vendored_answer();

int main() {
  std::printf("vendored: %d\n", ppy_vendored_answer());
  return 0;
}

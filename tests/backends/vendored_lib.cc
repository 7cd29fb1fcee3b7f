// A vendor's shared library, found by ppy-test-vendored through its RUNPATH
// `$ORIGIN/../lib` (the strict sandbox must make it visible).
extern "C" int ppy_vendored_answer() { return 42; }

/* The runtime as a static library: the header's functions with external
 * linkage, for code the LLVM backend compiles (JIT runs, executables,
 * libraries). */
#define PPY_RT_API
#define PPY_RT_DATA
#include "ppy_runtime.h"

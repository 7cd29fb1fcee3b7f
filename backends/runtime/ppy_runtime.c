/* The runtime as a static library: the header's functions with external
 * linkage, for code the LLVM backend compiles (JIT runs, executables,
 * libraries) and for the interpreter, strings included. */
#define PPY_RT_API
#define PPY_RT_DATA
#define PPY_RT_STRINGS 1
#include "ppy_runtime.h"

#include "ppy_obj.h"
#include "ppy_str.h"
#include "ppy_dict.h"

// ppy-backend-llvm: the builtin llvm backend served over gRPC, for a project
// that hosts it out of process (`[tool.ppy.backends.llvm] hosting = "helper"`).
#include "ppy/backend/serve.h"
#include "ppy/backends/llvm_backend.h"

int main(int argc, char** argv) { return ppy::serve(argc, argv, ppy::backends::create_llvm_backend); }

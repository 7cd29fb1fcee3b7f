// ppy-backend-nvvm: the builtin nvvm backend served over gRPC, for hosting it
// out of process like an installed backend (`--help` for the modes).
#include "ppy/backend/serve.h"
#include "ppy/backends/nvvm_backend.h"

int main(int argc, char** argv) { return ppy::serve(argc, argv, ppy::backends::create_nvvm_backend); }

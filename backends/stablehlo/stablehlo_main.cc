// ppy-backend-stablehlo: the builtin stablehlo backend served over gRPC, for
// hosting it out of process like an installed backend (`--help` for the modes).
#include "ppy/backend/serve.h"
#include "ppy/backends/stablehlo_backend.h"

int main(int argc, char** argv) { return ppy::serve(argc, argv, ppy::backends::create_stablehlo_backend); }

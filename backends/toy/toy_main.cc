// ppy-backend-toy: the toy backend served over gRPC (`--help` for the modes).
#include "ppy/backend/serve.h"
#include "ppy/backends/toy.h"

int main(int argc, char** argv) { return ppy::serve(argc, argv, ppy::toy::create_backend); }

// libFuzzer target for the frontend: the bytes are one module's source. Lexing,
// parsing, checking and IR generation must never crash or hang; a module the
// frontend accepts must verify (an accepted program lowered to invalid IR is a
// frontend bug, so it aborts).
//
//   frontend_fuzz -dict=tests/fuzz/frontend.dict tests/programs tests/refused
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "ppy/frontend/frontend.h"
#include "ppy/ir/text.h"
#include "ppy/ir/verifier.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 1 << 16) return 0;
  ppy::SourceModule src{"fuzz", "fuzz.ppy", std::string(reinterpret_cast<const char*>(data), size)};
  ppy::frontend::DiagnosticEngine diags;
  ppy::frontend::LowerResult r = ppy::frontend::lower_module(src, {}, diags);
  std::string rendered = ppy::frontend::render_diagnostics(diags);
  if (!r.module) {
    if (!diags.has_errors()) std::abort();  // refused without saying why
    return 0;
  }
  auto problems = ppy::ir::verify(*r.module);
  if (!problems.empty()) {
    std::fprintf(stderr, "accepted source lowered to invalid IR: %s\n%s\n", problems[0].str().c_str(),
                 ppy::ir::print_module(*r.module).c_str());
    std::abort();
  }
  return 0;
}

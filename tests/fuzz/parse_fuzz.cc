// libFuzzer target for the `ppyir 1` parser: any input either fails with a
// message or parses, and a parsed module prints to text that parses and prints
// to the same text again (print -> parse -> print is stable).
//
//   mkdir -p /tmp/parse_corpus
//   parse_fuzz -dict=tests/fuzz/parse.dict /tmp/parse_corpus tests/fuzz/corpus/parse
// (the first folder receives new inputs; the seeds stay as they are)
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "ppy/ir/text.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto m = ppy::ir::parse_module(text);
  if (!m.ok()) {
    if (m.status().message().empty()) std::abort();  // every refusal says why
    return 0;
  }
  std::string once = ppy::ir::print_module(**m);
  auto again = ppy::ir::parse_module(once);
  if (!again.ok()) {
    std::fprintf(stderr, "printed text does not parse: %s\n--- printed ---\n%s\n",
                 std::string(again.status().message()).c_str(), once.c_str());
    std::abort();
  }
  std::string twice = ppy::ir::print_module(**again);
  if (twice != once) {
    std::fprintf(stderr, "print is not stable\n--- once ---\n%s\n--- twice ---\n%s\n", once.c_str(),
                 twice.c_str());
    std::abort();
  }
  return 0;
}

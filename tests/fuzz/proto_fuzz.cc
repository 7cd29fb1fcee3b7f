// libFuzzer target: any bytes given to from_proto_bytes are refused or read; a
// module that was read writes bytes that read again, and writing those gives the
// same bytes (the conversion is a fixed point after one trip).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "ppy/ir/proto.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto m = ppy::ir::from_proto_bytes(std::string_view(reinterpret_cast<const char*>(data), size));
  if (!m.ok()) return 0;
  std::string again = ppy::ir::to_proto_bytes(**m);
  auto back = ppy::ir::from_proto_bytes(again);
  if (!back.ok()) {
    std::fprintf(stderr, "a module that was read does not read back: %s\n", std::string(back.status().message()).c_str());
    std::abort();
  }
  if (ppy::ir::to_proto_bytes(**back) != again) {
    std::fprintf(stderr, "writing a module read back gives other bytes\n");
    std::abort();
  }
  return 0;
}

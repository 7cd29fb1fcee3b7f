// libFuzzer target: any bytes given to from_proto_bytes are refused or read; a
// module that was read writes bytes that read again, and writing those gives the
// same bytes (the conversion is a fixed point after one trip); and reading the
// bytes agrees with reading the message protobuf parses from them.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "google/protobuf/io/coded_stream.h"
#include "ppy/ir/proto.h"
#include "ppy/ir/v1/ir.pb.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  auto m = ppy::ir::from_proto_bytes(bytes);
  // The bytes road (functions one at a time, strings viewed in place) and the
  // message road (protobuf parses the whole tree) agree on every input: what
  // protobuf refuses the bytes road refuses; what it parses, both read or both
  // refuse with one message.
  ppy::ir::v1::Module msg;
  google::protobuf::io::CodedInputStream in(data, static_cast<int>(size));
  in.SetRecursionLimit(ppy::ir::kMaxMessageDepth);
  const bool parsed = msg.ParseFromCodedStream(&in) && in.ConsumedEntireMessage();
  const absl::Status via_message = parsed ? ppy::ir::from_proto(msg).status() : absl::OkStatus();
  // What protobuf refuses is refused as not a module, whatever else is wrong.
  const bool agree = parsed ? via_message.ok() == m.ok() && (m.ok() || via_message.message() == m.status().message())
                            : !m.ok() && m.status().message().find("not a valid serialized") != std::string::npos;
  if (!agree) {
    std::fprintf(stderr, "the roads disagree:\n  bytes:   %s\n  message: %s\n",
                 m.ok() ? "read" : std::string(m.status().message()).c_str(),
                 !parsed ? "not a module" : via_message.ok() ? "read" : std::string(via_message.message()).c_str());
    std::abort();
  }
  // Read as it would arrive, in pieces cut where the input says: the same answer.
  ppy::ir::ModuleReader reader;
  size_t piece = size ? 1 + data[0] % 64 : 1;
  for (size_t at = 0; at < size; at += piece) reader.add(bytes.substr(at, piece));
  auto pieces = reader.finish();
  if (pieces.ok() != m.ok() || (!m.ok() && pieces.status() != m.status()) ||
      (m.ok() && ppy::ir::to_proto_bytes(**pieces) != ppy::ir::to_proto_bytes(**m))) {
    std::fprintf(stderr, "read in pieces of %zu, the module reads otherwise: %s\n", piece,
                 pieces.ok() ? "read" : std::string(pieces.status().message()).c_str());
    std::abort();
  }
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

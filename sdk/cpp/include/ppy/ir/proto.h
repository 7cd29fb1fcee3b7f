#pragma once
/// Conversion between the in-memory IR and its wire form (`ppy.ir.v1.Module`,
/// proto/ppy/ir/v1/ir.proto). Round trips are exact: IR -> proto -> IR prints the
/// same text (hints, labels, attribute dicts, locations, visibility, declarations,
/// dialect versions all kept). Two things the wire cannot tell apart: a location
/// whose file is null reads back with the file "", and a null Type travels as void.
///
/// The bytes functions are the fast road (a driver streams the bytes anyway); the
/// message functions go through bytes, for tools that want the typed tree.
/// Strings must be UTF-8: protobuf refuses anything else on reading.

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "ppy/ir/dialect.h"
#include "ppy/ir/ir.h"

namespace ppy::ir::v1 {
class Module;
}

namespace ppy::ir {

/// Fills `out` (cleared first) from `m`.
void to_proto(const Module& m, ppy::ir::v1::Module& out);
/// Rebuilds a module; refuses (InvalidArgument, `ppy.ir.v1.Module: ...`) any
/// other schema version, a dialect `reg` lacks or has only at an older version, an
/// index out of range (value id, type, string, successor block), a type cycle,
/// nesting deeper than the text reader takes, hint counts that do not match,
/// duplicate attribute keys or globals, without crashing on any input. It does
/// not verify: use before definition and unknown ops are the verifier's.
absl::StatusOr<std::unique_ptr<Module>> from_proto(const ppy::ir::v1::Module& in,
                                                   const DialectRegistry& reg = DialectRegistry::builtin());

/// How deeply messages may nest in a module read from bytes, counted from the
/// Module as protobuf's recursion limit counts: three levels per region (Region,
/// Block, Operation), for the 256 region levels the text reader takes.
inline constexpr int kMaxMessageDepth = 1024;

/// The module as serialized protobuf bytes, and back. Each thread keeps its
/// scratch buffers between calls (up to 64 MiB each), so converting many modules
/// does not fault fresh pages in every time.
std::string to_proto_bytes(const Module& m);
/// The same bytes, handed to `use` as the pieces they were written in (their
/// concatenation is the module): a caller that cuts them into chunks anyway
/// saves copying the whole module once. Strings of 64 KiB and more are views
/// of `m` itself. The views die when `use` returns; `use` must not write
/// another module on the same thread (the buffers are that thread's).
void to_proto_pieces(const Module& m, const std::function<void(const std::vector<std::string_view>&)>& use);
/// The same module in segments, handed to `use` as they are written: one each
/// time the globals and functions written, with the large strings they name,
/// reach `first_segment` bytes (twice that the next time, up to 1 MiB), and
/// the last at the end. Each segment is whole
/// top-level fields, so a ModuleReader at the other end reads one's functions
/// while the next is being written; in order they are a module that reads as
/// `to_proto_bytes` does (the fields come in another order). Views die as
/// `to_proto_pieces`'s do, when `use` returns.
void to_proto_segments(const Module& m, size_t first_segment,
                       const std::function<void(const std::vector<std::string_view>&, bool last)>& use);
/// Accepts and refuses exactly what protobuf's parse of the whole message
/// followed by `from_proto` would, with the same messages. Functions in the
/// canonical form (each field once, scalars packed, no unknown fields) are read
/// from their bytes with no message tree; others are parsed by protobuf.
absl::StatusOr<std::unique_ptr<Module>> from_proto_bytes(std::string_view bytes,
                                                         const DialectRegistry& reg = DialectRegistry::builtin());

/// Reads a module from its bytes as they arrive: each function is read as soon
/// as its bytes and the strings and types before them are in, so a receiver
/// reads while the sender is still writing. The answer is `from_proto_bytes`'s
/// on all the bytes; what cannot be read early (a function refused, a type
/// that refers ahead) is left for `finish`, which reads it in order.
class ModuleReader {
 public:
  /// The bytes are gathered in `buffer` when given (emptied first, its room
  /// used: a caller keeps one between modules so a large module does not
  /// fault fresh pages in), else in the reader's own. `buffer` must outlive
  /// the reader and is not to be touched meanwhile.
  explicit ModuleReader(const DialectRegistry& reg = DialectRegistry::builtin(), std::string* buffer = nullptr);
  ~ModuleReader();
  ModuleReader(const ModuleReader&) = delete;
  ModuleReader& operator=(const ModuleReader&) = delete;

  /// Takes the next bytes.
  void add(std::string_view bytes);
  /// The module: call once, after the last bytes.
  absl::StatusOr<std::unique_ptr<Module>> finish();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace ppy::ir

#pragma once
/// Conversions between the SDK's types and the `ppy.backend.v1` messages, and the
/// error model's mapping to E-codes. Shared by the service (`ppy::serve`) and the
/// driver's client (backend-host), so both ends read the wire the same way.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "ppy/backend/backend.h"
#include "ppy/backend/session.h"
#include "ppy/backend/v1/backend.pb.h"
#include "ppy/ir/proto.h"

namespace ppy::wire {

namespace v1 = ::ppy::backend::v1;

/// The most data one chunk message carries (modules, artifacts, files).
inline constexpr size_t kMaxChunk = size_t{1} << 20;

/// How many bytes of globals and functions the first segment of a module holds before it
/// is sent (ir::to_proto_segments): small, so the backend starts reading soon.
inline constexpr size_t kFirstSegment = size_t{16} << 10;

/// Serializes `module` and hands it to `send` in chunks of at most kMaxChunk
/// bytes, `last` set on the final one; stops at the first `send` that fails.
/// Each segment goes out as soon as it is written, its last chunk short if it
/// must be; a receiver reads it with ir::ModuleReader while the next is
/// written. The bytes are cut straight from the IR writer's buffers: one copy,
/// into the chunk. False when a `send` failed.
bool send_module_chunks(const ir::Module& module, const std::function<bool(std::string data, bool last)>& send);

/// A module's bytes reassembled from its chunks. The buffer is kept for the
/// next module when this one is read (one per process): a module of tens of
/// MiB is otherwise mapped afresh and faulted in page by page on every call,
/// which cost more than copying the chunks.
class ModuleBytes {
 public:
  ModuleBytes();
  ~ModuleBytes();
  ModuleBytes(const ModuleBytes&) = delete;
  ModuleBytes& operator=(const ModuleBytes&) = delete;

  /// The buffer itself, for an ir::ModuleReader to gather a module in.
  std::string& storage() { return buf_; }

 private:
  std::string buf_;
};

/// Reads the modules of one stream from their chunks, each while its bytes
/// come (ir::ModuleReader), in a ModuleBytes buffer. The driver reads the
/// modules a backend sends back with it, and the backend those it is sent.
class ModuleAssembler {
 public:
  explicit ModuleAssembler(const ir::DialectRegistry& reg) : reg_(reg) {}

  /// Takes the next chunk of the module being sent: null before its last
  /// chunk, then the module read. A `whole` module that is not its module's
  /// only chunk breaks the protocol (FailedPrecondition); bytes that are not a
  /// module get ir::from_proto_bytes's error.
  absl::StatusOr<std::unique_ptr<ir::Module>> add(const v1::ModuleChunk& chunk);
  /// A module has begun and not ended.
  bool mid_module() const { return reader_.has_value(); }

 private:
  const ir::DialectRegistry& reg_;
  ModuleBytes buf_;
  std::optional<ir::ModuleReader> reader_;
};

/// The step file (InvokeHeader.step_slot): a spawned helper's record of the
/// step each session is in, in its scratch folder, which the driver reads
/// after a call instead of being sent Steps. One 64-bit word a slot.
inline constexpr char kStepFileName[] = ".ppy-steps";
inline constexpr uint32_t kStepSlots = 512;
/// A step's code in its word (1..5, the protocol's; 0 is no step), and back.
uint64_t step_code(SessionStep step);
std::optional<SessionStep> step_of_code(uint64_t code);
/// The word a session stores for `step`, and the step a word read back says
/// for `token` (none when another call's token or no known code is there).
inline uint64_t step_word(uint64_t token, SessionStep step) { return token << 8 | step_code(step); }
std::optional<SessionStep> step_of_word(uint64_t word, uint64_t token);

void to_proto(const Options& options, v1::ConfigTable& out);
Options options_from_proto(const v1::ConfigTable& table);
/// A deterministic key for a table (same table, same key): the instance cache's.
std::string options_key(const Options& options);

v1::EmitFormat to_proto(const EmitFormat& format);
/// Refuses (InvalidArgument) a format without a name or with an unspecified scope.
absl::StatusOr<EmitFormat> emit_format_from_proto(const v1::EmitFormat& format);

v1::Toolchain to_proto(const ToolchainStatus& status);
ToolchainStatus toolchain_from_proto(const v1::Toolchain& toolchain);

/// The session a header asks for, and back: the one place a SessionRequest
/// meets InvokeHeader (action, format, the three switches).
SessionRequest request_from_proto(const v1::InvokeHeader& header);
void to_proto(const SessionRequest& request, v1::InvokeHeader& header);

/// The BackendContext a header carries, and back: every field the contract
/// lists, the modules' identities from the header's module list. `modules`
/// fills that list (name, identity) and the dialect versions they were
/// verified against. The registry is the builtin one on the receiving side.
BackendContext context_from_proto(const v1::InvokeHeader& header);
void to_proto(const BackendContext& context, ModuleList modules, v1::InvokeHeader& header);

/// The passes that ran, as Finished lists them, and back.
void to_proto(const std::vector<PassRun>& passes, v1::Finished& finished);
std::vector<PassRun> passes_from_proto(const v1::Finished& finished);

/// The protocol's code for a session's refusal, and back (CODE_UNSPECIFIED
/// and codes this end does not know are Internal).
v1::BackendError::Code to_proto(SessionFailure kind);
SessionFailure failure_from_proto(v1::BackendError::Code code);
/// The E-code the contract gives an error of this kind: VALIDATION, PASS_STAGE,
/// TYPE_MISMATCH, UNSUPPORTED -> E1802; PASS_BROKE_IR, PASS_FAILED -> E1904;
/// TOOLCHAIN -> E1801; anything else -> E1905.
std::string_view error_code_for(v1::BackendError::Code code);
/// A session's refusal (a status made by `session_error`, or a validation
/// refusal) as the BackendError that tells it; `backend` when it names none.
v1::BackendError error_to_proto(const absl::Status& status, std::string_view backend);
/// The status a BackendError tells: its E-code and message, the SessionError
/// (kind, module, pass) and, for a validation refusal, its fields, readable
/// with `ppy::validation_error_of`.
absl::Status status_of(const v1::BackendError& error);

}  // namespace ppy::wire

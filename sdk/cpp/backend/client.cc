#include "ppy/backend/client.h"

#include <cstdlib>
#include <future>
#include <mutex>
#include <optional>
#include <thread>

#include "absl/strings/cord.h"

#include "ppy/backend/wire.h"
#include "ppy/ir/proto.h"
#include "ppy/util/str_cat.h"

namespace ppy {

namespace v1 = ::ppy::backend::v1;

namespace {
/// Room for a piece of `size` bytes, as its first chunk announced: it then
/// grows without copying itself at every doubling. What the backend only
/// claims is believed up to 1 GiB (and reserving is address space, not memory).
void reserve(std::string& piece, uint64_t size) { piece.reserve(std::min<uint64_t>(size, uint64_t{1} << 30)); }

/// The status payload of an InvokeFailure: `<kind>\x1f<grpc code>\x1f<step>`.
constexpr char kFailurePayload[] = "type.ppy.dev/ppy.backend.InvokeFailure";
constexpr char kSep = '\x1f';
}  // namespace

absl::Status invoke_failure(const InvokeFailure& f, std::string_view message) {
  absl::Status s(f.kind == InvokeFailure::Kind::Transport ? static_cast<absl::StatusCode>(f.code)
                                                          : absl::StatusCode::kInternal,
                 absl::string_view(message.data(), message.size()));
  if (s.ok()) s = absl::UnknownError(absl::string_view(message.data(), message.size()));  // gRPC's OK is no failure: never made so
  s.SetPayload(kFailurePayload, absl::Cord(str_cat(static_cast<int>(f.kind), kSep, static_cast<int>(f.code), kSep, f.step)));
  return s;
}

std::optional<InvokeFailure> invoke_failure_of(const absl::Status& status) {
  auto payload = status.GetPayload(kFailurePayload);
  if (!payload) return std::nullopt;
  std::string text(*payload);
  size_t a = text.find(kSep), b = a == std::string::npos ? a : text.find(kSep, a + 1);
  if (b == std::string::npos) return std::nullopt;
  InvokeFailure f;
  f.kind = text.substr(0, a) == "1" ? InvokeFailure::Kind::Protocol : InvokeFailure::Kind::Transport;
  f.code = static_cast<grpc::StatusCode>(std::atoi(text.substr(a + 1, b - a - 1).c_str()));
  f.step = text.substr(b + 1);
  return f;
}

absl::StatusOr<InvokeResult> invoke(v1::Backend::StubInterface& stub, grpc::ClientContext& context,
                                    v1::InvokeHeader header, ModuleList modules, InvokeOptions options) {
  if (header.modules_size() == 0)
    for (const ir::Module* m : modules) header.add_modules()->set_name(m->name());
  if (header.modules_size() != static_cast<int>(modules.size()))
    return absl::InvalidArgumentError("the header lists other modules than those given");

  std::unique_ptr<grpc::ClientReaderWriterInterface<v1::InvokeRequest, v1::InvokeResponse>> stream;
  std::promise<bool> opened;  // the call is open and its header sent
  // With await_steps the reader answers each Step (StepSeen) while the writer
  // may still be finishing its last chunk: one Write at a time.
  std::mutex write_mu;
  const bool await_steps = header.report_steps() && header.await_steps();
  auto write = [&](const v1::InvokeRequest& r) {
    std::lock_guard<std::mutex> lock(write_mu);
    return stream->Write(r);
  };

  // The header, then each module in chunks, then (unless steps are awaited:
  // they are answered on this stream, which closes with the session) the end.
  auto write_request = [&](std::future<bool> ready) {
    std::optional<bool> header_sent;
    auto send_header = [&] {
      if (!header_sent) header_sent = ready.get();
      return *header_sent;
    };
    for (size_t i = 0; i < modules.size(); ++i) {
      bool sent = wire::send_module_chunks(*modules[i], [&](std::string data, bool last) {
        v1::InvokeRequest chunk;
        v1::ModuleChunk* c = chunk.mutable_module();
        c->set_module_index(static_cast<uint32_t>(i));
        c->set_data(std::move(data));
        c->set_last(last);
        return send_header() && write(chunk);
      });
      if (!sent) return;
    }
    if (send_header() && !await_steps) stream->WritesDone();  // no modules: the header alone
  };
  auto open = [&] {
    stream = stub.Invoke(&context);
    v1::InvokeRequest h;
    *h.mutable_header() = header;
    opened.set_value(stream->Write(h));
  };
  // Otherwise on a thread of its own: a backend that answers early (a
  // refusal) while modules are still going must not deadlock us on a channel
  // whose write waits for the backend's read. It encodes the first segment
  // while the call is being opened; the header goes as soon as the call is
  // open, so the backend's session starts while that segment is written.
  std::thread writer;
  if (options.write_inline && !await_steps) {
    open();
    write_request(opened.get_future());  // a write the answer cut short fails: the answer is read below
  } else {
    writer = std::thread(write_request, opened.get_future());
    open();
  }

  InvokeResult result;
  v1::InvokeResponse resp;
  wire::ModuleAssembler modules_in(ir::DialectRegistry::builtin());
  bool artifact_open = false, file_open = false;  // a chunked piece is being reassembled
  absl::Status protocol = absl::OkStatus();
  while (stream->Read(&resp)) {
    if (result.finished || result.error) {
      protocol = absl::InternalError("the backend answered after its final message");
      context.TryCancel();
      break;
    }
    switch (resp.msg_case()) {
      case v1::InvokeResponse::kNote: result.notes.push_back(resp.note().text()); break;
      case v1::InvokeResponse::kArtifact: {
        v1::ArtifactChunk& c = *resp.mutable_artifact();
        if (artifact_open && (c.module() != result.artifacts.back().path ||
                              c.binary() != result.artifacts.back().binary)) {
          protocol = absl::InternalError("the backend interleaved two artifacts");
          break;
        }
        if (!artifact_open && c.last()) {  // the whole artifact: moved, not copied
          result.artifacts.push_back({c.module(), std::move(*c.mutable_data()), c.binary(), false});
          break;
        }
        if (!artifact_open) {
          result.artifacts.push_back({c.module(), {}, c.binary(), false});
          reserve(result.artifacts.back().data, c.size_bytes());
        }
        result.artifacts.back().data += c.data();
        artifact_open = !c.last();
        break;
      }
      case v1::InvokeResponse::kFile: {
        const v1::FileChunk& c = resp.file();
        if (file_open && c.path() != result.files.back().path) {
          protocol = absl::InternalError("the backend interleaved two files");
          break;
        }
        if (!file_open) {
          result.files.push_back({c.path(), {}, false, c.executable()});
          reserve(result.files.back().data, c.size_bytes());
        }
        result.files.back().data += c.data();
        file_open = !c.last();
        break;
      }
      case v1::InvokeResponse::kModule: {
        if (resp.module().module_index() != result.modules.size()) {
          protocol = absl::InternalError("the backend sent the modules back out of order");
          break;
        }
        absl::StatusOr<std::unique_ptr<ir::Module>> m = modules_in.add(resp.module());
        if (!m.ok()) protocol = m.status();
        else if (*m) result.modules.push_back(std::move(*m));
        break;
      }
      case v1::InvokeResponse::kFinished: result.finished = resp.finished(); break;
      case v1::InvokeResponse::kError: result.error = resp.error(); break;
      case v1::InvokeResponse::kStep: {
        result.step = resp.step().name();  // known here before the backend begins it, when awaited
        if (!await_steps) break;
        v1::InvokeRequest seen;
        seen.mutable_step_seen()->set_name(result.step);
        write(seen);  // a stream gone says so at Finish
        break;
      }
      default: protocol = absl::InternalError("the backend sent an empty answer"); break;
    }
    if (!protocol.ok()) {
      context.TryCancel();  // stop a backend that goes on talking nonsense
      break;
    }
  }
  // The stream is over: the writer's next Write fails, if it is still writing.
  if (writer.joinable()) writer.join();
  grpc::Status status = stream->Finish();
  const InvokeFailure broken{InvokeFailure::Kind::Protocol, grpc::StatusCode::UNKNOWN, result.step};
  if (!protocol.ok()) return invoke_failure(broken, std::string(protocol.message()));
  if (!status.ok())
    return invoke_failure({InvokeFailure::Kind::Transport, status.error_code(), result.step}, status.error_message());
  if (artifact_open || file_open || modules_in.mid_module())
    return invoke_failure(broken, "the backend ended a piece without its last chunk");
  if (!result.finished && !result.error)
    return invoke_failure(broken, "the backend ended the session without a final message");
  return result;
}

}  // namespace ppy

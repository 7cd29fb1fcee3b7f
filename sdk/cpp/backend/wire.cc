#include "ppy/backend/wire.h"

#include <algorithm>
#include <mutex>

#include "absl/strings/cord.h"
#include "ppy/ir/proto.h"
#include "ppy/util/error.h"
#include "ppy/util/str_cat.h"

namespace ppy::wire {

namespace {

void value_to_proto(const ConfigValue& v, v1::ConfigValue& out) {
  const auto& s = v.storage();
  if (auto* str = std::get_if<std::string>(&s)) {
    out.set_string_value(*str);
  } else if (auto* i = std::get_if<int64_t>(&s)) {
    out.set_int_value(*i);
  } else if (auto* d = std::get_if<double>(&s)) {
    out.set_float_value(*d);
  } else if (auto* b = std::get_if<bool>(&s)) {
    out.set_bool_value(*b);
  } else if (auto* l = std::get_if<ConfigValue::List>(&s)) {
    auto* list = out.mutable_list_value();
    for (const ConfigValue& e : *l) value_to_proto(e, *list->add_values());
  } else if (auto* t = std::get_if<ConfigValue::Table>(&s)) {
    to_proto(*t, *out.mutable_table_value());
  }
}

ConfigValue value_from_proto(const v1::ConfigValue& v) {
  switch (v.kind_case()) {
    case v1::ConfigValue::kStringValue: return ConfigValue(v.string_value());
    case v1::ConfigValue::kIntValue: return ConfigValue(int64_t{v.int_value()});
    case v1::ConfigValue::kFloatValue: return ConfigValue(v.float_value());
    case v1::ConfigValue::kBoolValue: return ConfigValue(v.bool_value());
    case v1::ConfigValue::kListValue: {
      ConfigValue::List l;
      for (const auto& e : v.list_value().values()) l.push_back(value_from_proto(e));
      return ConfigValue(std::move(l));
    }
    case v1::ConfigValue::kTableValue: return ConfigValue(options_from_proto(v.table_value()));
    case v1::ConfigValue::KIND_NOT_SET: break;
  }
  return ConfigValue(std::string());
}

void append_key(std::string& out, const ConfigValue& v) {
  // Tagged and length-prefixed: two different tables never share a key.
  const auto& s = v.storage();
  if (auto* str = std::get_if<std::string>(&s)) {
    str_append(out, 's', str->size(), ':', *str);
  } else if (auto* i = std::get_if<int64_t>(&s)) {
    str_append(out, 'i', *i, ';');
  } else if (std::holds_alternative<double>(s)) {
    std::string text = v.str();
    str_append(out, 'f', text.size(), ':', text);
  } else if (auto* b = std::get_if<bool>(&s)) {
    out += *b ? "T" : "F";
  } else if (auto* l = std::get_if<ConfigValue::List>(&s)) {
    str_append(out, 'l', l->size(), ':');
    for (const ConfigValue& e : *l) append_key(out, e);
  } else if (auto* t = std::get_if<ConfigValue::Table>(&s)) {
    str_append(out, 't', t->size(), ':');
    for (const auto& [k, e] : *t) {
      str_append(out, k.size(), ':', k);
      append_key(out, e);
    }
  }
}

}  // namespace

bool send_module_chunks(const ir::Module& module, const std::function<bool(std::string data, bool last)>& send) {
  bool ok = true;
  // Segments go out as soon as they are written, so the backend reads the
  // first functions while the driver writes the next.
  ir::to_proto_segments(module, kFirstSegment, [&](const std::vector<std::string_view>& pieces, bool last) {
    size_t left = 0;
    for (std::string_view p : pieces) left += p.size();
    if (!ok || (left == 0 && !last)) return;
    if (left == 0) {
      ok = send({}, true);
      return;
    }
    std::string chunk;
    for (std::string_view p : pieces) {
      while (!p.empty() && ok) {
        if (chunk.empty()) chunk.reserve(std::min(kMaxChunk, left));
        size_t n = std::min(kMaxChunk - chunk.size(), p.size());
        chunk.append(p.substr(0, n));
        p.remove_prefix(n);
        left -= n;
        if (chunk.size() == kMaxChunk || left == 0) ok = send(std::exchange(chunk, {}), last && left == 0);
      }
    }
  });
  return ok;
}

namespace {
std::mutex& g_spare_mu = *new std::mutex;  // never destroyed: a late ~ModuleBytes
std::string& g_spare = *new std::string;     // guarded by g_spare_mu
/// Larger buffers are not kept: one odd module must not pin memory for good.
constexpr size_t kKeepAtMost = size_t{256} << 20;
}  // namespace

ModuleBytes::ModuleBytes() {
  std::lock_guard<std::mutex> lock(g_spare_mu);
  buf_.swap(g_spare);
}

ModuleBytes::~ModuleBytes() {
  if (buf_.capacity() > kKeepAtMost) return;
  buf_.clear();
  std::lock_guard<std::mutex> lock(g_spare_mu);
  if (buf_.capacity() > g_spare.capacity()) buf_.swap(g_spare);
}

absl::StatusOr<std::unique_ptr<ir::Module>> ModuleAssembler::add(const v1::ModuleChunk& chunk) {
  if (chunk.has_whole()) {
    if (!chunk.last() || reader_)
      return absl::FailedPreconditionError("a whole module must be the module's only chunk");
    return ir::from_proto(chunk.whole(), reg_);
  }
  if (!reader_ && chunk.last()) return ir::from_proto_bytes(chunk.data(), reg_);  // one chunk: read in place
  if (!reader_) reader_.emplace(reg_, &buf_.storage());
  reader_->add(chunk.data());
  if (!chunk.last()) return nullptr;
  absl::StatusOr<std::unique_ptr<ir::Module>> m = reader_->finish();
  reader_.reset();
  return m;
}

void to_proto(const Options& options, v1::ConfigTable& out) {
  out.Clear();
  auto& fields = *out.mutable_fields();
  for (const auto& [k, v] : options) value_to_proto(v, fields[k]);
}

Options options_from_proto(const v1::ConfigTable& table) {
  Options out;
  for (const auto& [k, v] : table.fields()) out.emplace(k, value_from_proto(v));
  return out;
}

uint64_t step_code(SessionStep step) {
  switch (step) {
    case SessionStep::Passes: return 1;
    case SessionStep::Validate: return 2;
    case SessionStep::Emit: return 3;
    case SessionStep::EmitProgram: return 4;
    case SessionStep::Build: return 5;
  }
  return 0;
}

std::optional<SessionStep> step_of_code(uint64_t code) {
  switch (code) {
    case 1: return SessionStep::Passes;
    case 2: return SessionStep::Validate;
    case 3: return SessionStep::Emit;
    case 4: return SessionStep::EmitProgram;
    case 5: return SessionStep::Build;
    default: return std::nullopt;
  }
}

std::optional<SessionStep> step_of_word(uint64_t word, uint64_t token) {
  if (token == 0 || word >> 8 != token) return std::nullopt;
  return step_of_code(word & 0xff);
}

std::string options_key(const Options& options) {
  std::string out;
  append_key(out, ConfigValue(options));
  return out;
}

v1::EmitFormat to_proto(const EmitFormat& format) {
  v1::EmitFormat out;
  out.set_name(format.name);
  out.set_suffix(format.suffix);
  out.set_binary(format.binary);
  out.set_scope(format.scope == EmitScope::Program ? v1::EmitFormat::SCOPE_PROGRAM
                                                   : v1::EmitFormat::SCOPE_MODULE);
  out.set_requires_toolchain(format.requires_toolchain);
  out.set_description(format.description);
  return out;
}

absl::StatusOr<EmitFormat> emit_format_from_proto(const v1::EmitFormat& format) {
  if (format.name().empty()) return absl::InvalidArgumentError("an emit format has no name");
  EmitFormat out;
  out.name = format.name();
  out.suffix = format.suffix();
  out.binary = format.binary();
  out.description = format.description();
  out.requires_toolchain = !format.has_requires_toolchain() || format.requires_toolchain();
  switch (format.scope()) {
    case v1::EmitFormat::SCOPE_MODULE: out.scope = EmitScope::Module; break;
    case v1::EmitFormat::SCOPE_PROGRAM: out.scope = EmitScope::Program; break;
    default:
      return absl::InvalidArgumentError(
          str_cat("the emit format '", format.name(),
                  "' has no scope: a format is written per module or per program"));
  }
  return out;
}

v1::Toolchain to_proto(const ToolchainStatus& status) {
  v1::Toolchain out;
  out.set_available(status.available);
  out.set_detail(status.detail);
  return out;
}

ToolchainStatus toolchain_from_proto(const v1::Toolchain& toolchain) {
  return ToolchainStatus{toolchain.available(), toolchain.detail()};
}

SessionRequest request_from_proto(const v1::InvokeHeader& header) {
  SessionRequest r;
  switch (header.action()) {
    case v1::InvokeHeader::EMIT: r.action = SessionAction::Emit; break;
    case v1::InvokeHeader::EMIT_PROGRAM: r.action = SessionAction::EmitProgram; break;
    case v1::InvokeHeader::BUILD: r.action = SessionAction::Build; break;
    default: r.action = SessionAction::Validate; break;
  }
  r.format = header.format();
  r.run_passes = header.run_passes();
  r.validate = header.validate();
  r.return_modules = header.return_modules();
  return r;
}

void to_proto(const SessionRequest& r, v1::InvokeHeader& header) {
  switch (r.action) {
    case SessionAction::Validate: header.set_action(v1::InvokeHeader::VALIDATE); break;
    case SessionAction::Emit: header.set_action(v1::InvokeHeader::EMIT); break;
    case SessionAction::EmitProgram: header.set_action(v1::InvokeHeader::EMIT_PROGRAM); break;
    case SessionAction::Build: header.set_action(v1::InvokeHeader::BUILD); break;
  }
  header.set_format(r.format);
  header.set_run_passes(r.run_passes);
  header.set_validate(r.validate);
  header.set_return_modules(r.return_modules);
}

BackendContext context_from_proto(const v1::InvokeHeader& header) {
  const v1::BackendContext& c = header.context();
  BackendContext out;
  out.root = c.root();
  out.config = c.config_digest();
  out.backend_config = options_from_proto(c.backend_config());
  out.opt_level = c.opt_level();
  out.target = c.target();
  for (const auto& [k, v] : c.plugin_fingerprints()) out.plugin_fingerprints[k] = v;
  out.entry = c.entry();
  out.entry_module = c.entry_module();
  out.entry_symbol = c.entry_symbol();
  for (const auto& m : header.modules()) out.identity[m.name()] = m.identity();
  return out;
}

void to_proto(const BackendContext& ctx, ModuleList modules, v1::InvokeHeader& header) {
  v1::BackendContext* c = header.mutable_context();
  c->set_root(ctx.root.string());
  c->set_config_digest(ctx.config);
  to_proto(ctx.backend_config, *c->mutable_backend_config());
  c->set_opt_level(ctx.opt_level);
  c->set_target(ctx.target);
  for (const auto& [k, v] : ctx.plugin_fingerprints) (*c->mutable_plugin_fingerprints())[k] = v;
  c->set_entry(ctx.entry.string());
  c->set_entry_module(ctx.entry_module);
  c->set_entry_symbol(ctx.entry_symbol);
  header.clear_modules();
  for (const ir::Module* m : modules) {
    for (const auto& [d, v] : m->dialects()) (*c->mutable_dialects())[d] = str_cat(v);
    v1::ModuleInfo* info = header.add_modules();
    info->set_name(m->name());
    if (auto it = ctx.identity.find(m->name()); it != ctx.identity.end()) info->set_identity(it->second);
  }
}

void to_proto(const std::vector<PassRun>& passes, v1::Finished& finished) {
  for (const PassRun& r : passes) {
    v1::PassRun* p = finished.add_passes();
    p->set_name(r.name);
    p->set_changed(r.changed);
  }
}

std::vector<PassRun> passes_from_proto(const v1::Finished& finished) {
  std::vector<PassRun> out;
  for (const auto& p : finished.passes()) out.push_back({p.name(), p.changed()});
  return out;
}

v1::BackendError::Code to_proto(SessionFailure kind) {
  switch (kind) {
    case SessionFailure::Validation: return v1::BackendError::VALIDATION;
    case SessionFailure::PassStage: return v1::BackendError::PASS_STAGE;
    case SessionFailure::PassBrokeIr: return v1::BackendError::PASS_BROKE_IR;
    case SessionFailure::TypeMismatch: return v1::BackendError::TYPE_MISMATCH;
    case SessionFailure::Toolchain: return v1::BackendError::TOOLCHAIN;
    case SessionFailure::Unsupported: return v1::BackendError::UNSUPPORTED;
    case SessionFailure::PassFailed: return v1::BackendError::PASS_FAILED;
    case SessionFailure::BadModule: return v1::BackendError::BAD_MODULE;
    case SessionFailure::Internal: return v1::BackendError::INTERNAL;
  }
  return v1::BackendError::INTERNAL;
}

SessionFailure failure_from_proto(v1::BackendError::Code code) {
  switch (code) {
    case v1::BackendError::VALIDATION: return SessionFailure::Validation;
    case v1::BackendError::PASS_STAGE: return SessionFailure::PassStage;
    case v1::BackendError::PASS_BROKE_IR: return SessionFailure::PassBrokeIr;
    case v1::BackendError::TYPE_MISMATCH: return SessionFailure::TypeMismatch;
    case v1::BackendError::TOOLCHAIN: return SessionFailure::Toolchain;
    case v1::BackendError::UNSUPPORTED: return SessionFailure::Unsupported;
    case v1::BackendError::PASS_FAILED: return SessionFailure::PassFailed;
    case v1::BackendError::BAD_MODULE: return SessionFailure::BadModule;
    default: return SessionFailure::Internal;
  }
}

std::string_view error_code_for(v1::BackendError::Code code) { return ppy::error_code_for(failure_from_proto(code)); }

v1::BackendError error_to_proto(const absl::Status& s, std::string_view backend) {
  v1::BackendError e;
  SessionError what = session_error_of(s).value_or(SessionError{});
  e.set_code(to_proto(what.kind));
  e.set_backend(std::string(backend));
  if (std::optional<BackendValidationError> v = validation_error_of(s)) {
    e.set_code(v1::BackendError::VALIDATION);
    if (!v->backend.empty()) e.set_backend(v->backend);
    e.set_what(v->what);
    e.set_capability(v->capability);
    if (v->location && v->location->file) {
      e.mutable_location()->set_file(*v->location->file);
      e.mutable_location()->set_line(v->location->line);
      e.mutable_location()->set_col(v->location->col);
    }
  }
  e.set_module(what.module);
  e.set_pass(what.pass);
  e.set_message(error_text(s));
  return e;
}

absl::Status status_of(const v1::BackendError& error) {
  std::string message = error.message();
  std::optional<BackendValidationError> v;
  if (error.code() == v1::BackendError::VALIDATION) {
    v = BackendValidationError{error.backend(), error.what(), error.capability(), std::nullopt};
    if (error.has_location())
      v->location = ir::Location(error.location().file(), error.location().line(), error.location().col());
    if (message.empty()) message = v->message();
  }
  if (message.empty()) message = str_cat("backend '", error.backend(), "' failed: ", error.what());
  absl::Status out = session_error({failure_from_proto(error.code()), error.module(), error.pass()}, message);
  // The backend's own words are the message; a refusal's fields travel beside them.
  if (v)
    validation_error(*v).ForEachPayload(
        [&](absl::string_view url, const absl::Cord& payload) { out.SetPayload(url, payload); });
  return out;
}

}  // namespace ppy::wire

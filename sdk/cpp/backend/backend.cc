#include "ppy/backend/backend.h"

#include <cctype>
#include <cmath>

#include "absl/strings/cord.h"
#include "ppy/ir/text.h"
#include "ppy/util/error.h"
#include "ppy/util/str_cat.h"

namespace ppy {

namespace {

/// The status payload that carries a validation refusal's fields.
constexpr char kValidationPayload[] = "type.ppy.dev/ppy.backend.ValidationError";
constexpr char kSep = '\x1f';

void append_toml_string(std::string& out, const std::string& s) {
  out.push_back('"');
  for (char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      default: out.push_back(c);
    }
  }
  out.push_back('"');
}

bool is_bare_key(const std::string& k) {
  if (k.empty()) return false;
  for (char c : k)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_')) return false;
  return true;
}

void append_toml(std::string& out, const ConfigValue& v, bool top) {
  const auto& s = v.storage();
  if (auto* str = std::get_if<std::string>(&s)) {
    if (top) out += *str;
    else append_toml_string(out, *str);
  } else if (auto* i = std::get_if<int64_t>(&s)) {
    str_append(out, *i);
  } else if (auto* d = std::get_if<double>(&s)) {
    if (std::isnan(*d)) out += "nan";
    else if (std::isinf(*d)) out += *d < 0 ? "-inf" : "inf";
    else out += ir::format_float(*d);
  } else if (auto* b = std::get_if<bool>(&s)) {
    out += *b ? "true" : "false";
  } else if (auto* l = std::get_if<ConfigValue::List>(&s)) {
    out.push_back('[');
    for (size_t k = 0; k < l->size(); ++k) {
      if (k) out += ", ";
      append_toml(out, (*l)[k], false);
    }
    out.push_back(']');
  } else if (auto* t = std::get_if<ConfigValue::Table>(&s)) {
    out.push_back('{');
    bool first = true;
    for (const auto& [key, val] : *t) {
      out += first ? "" : ", ";
      first = false;
      if (is_bare_key(key)) out += key;
      else append_toml_string(out, key);
      out += " = ";
      append_toml(out, val, false);
    }
    out.push_back('}');
  }
}

std::vector<std::string> split(std::string_view s, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  for (size_t i = 0; i <= s.size(); ++i)
    if (i == s.size() || s[i] == sep) {
      out.emplace_back(s.substr(start, i - start));
      start = i + 1;
    }
  return out;
}

/// Forwards to the backend's pass and records that it ran, so the one that
/// broke the IR or failed is known whatever the PassManager's wording.
class RecordingPass final : public ir::Pass {
 public:
  RecordingPass(std::unique_ptr<ir::Pass> inner, std::vector<PassRun>* runs, std::string* current)
      : inner_(std::move(inner)), runs_(runs), current_(current) {}
  std::string_view name() const override { return inner_->name(); }
  absl::StatusOr<bool> run_on_module(ir::Module& m, const ir::PassContext& ctx) override {
    *current_ = std::string(inner_->name());
    absl::StatusOr<bool> r = inner_->run_on_module(m, ctx);
    if (r.ok()) runs_->push_back(PassRun{*current_, *r});
    return r;
  }

 private:
  std::unique_ptr<ir::Pass> inner_;
  std::vector<PassRun>* runs_;
  std::string* current_;
};

}  // namespace

std::string ConfigValue::str() const {
  std::string out;
  append_toml(out, *this, true);
  return out;
}

std::string option(const Options& options, std::string_view key, std::string_view fallback) {
  auto it = options.find(key);
  return it == options.end() ? std::string(fallback) : it->second.str();
}

absl::StatusOr<std::string> manifest_toml(const Backend& backend, std::string_view executable) {
  const std::string name(backend.name());
  bool valid = !name.empty();
  for (char c : name)
    valid = valid && (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.');
  if (!valid)
    return absl::InvalidArgumentError(
        str_cat("'", name, "' is not a backend name (letters, digits, '-', '_', '.')"));
  const Distribution dist = backend.distribution();
  if (dist.name.empty() || dist.version.empty())
    return absl::InvalidArgumentError(str_cat(
        "backend '", name, "' declares no distribution name and version (override distribution())"));
  auto key = [](std::string& out, const std::string& k) {
    if (is_bare_key(k)) out += k;
    else append_toml_string(out, k);
  };
  std::string out = str_cat("# The distribution of backend '", name, "', as `", executable,
                            " --print-manifest` prints it\n# from the backend class (",
                            kSdkVersion, ").\n[distribution]\nname = ");
  append_toml_string(out, dist.name);
  out += "\nversion = ";
  append_toml_string(out, dist.version);
  out += "\n\n[backends.";
  key(out, name);
  out += "]\nexecutable = ";
  append_toml_string(out, std::string(executable));
  out += "\n";
  std::vector<EmitFormat> formats = backend.emit_formats();
  if (!formats.empty()) {
    out += "\n[backend-formats]\n";
    for (const EmitFormat& f : formats) {
      key(out, f.name);
      out += " = ";
      append_toml_string(out, name);
      out += "\n";
    }
  }
  return out;
}

std::string BackendValidationError::message() const {
  std::string out = str_cat("backend '", backend, "' cannot take ", what);
  if (location && location->file) str_append(out, " at ", location->str());
  if (!phrasing.empty()) {
    std::string words = phrasing;
    for (size_t at = words.find("{}"); at != std::string::npos; at = words.find("{}", at + capability.size()))
      words.replace(at, 2, capability);
    str_append(out, " ", words);
  } else if (!capability.empty()) {
    str_append(out, " (needs ", capability, ")");
  }
  return out;
}

absl::Status validation_error(const BackendValidationError& error) {
  absl::Status s = coded_error("E1802", error.message());
  std::string payload = str_cat(error.backend, kSep, error.what, kSep, error.capability);
  if (error.location && error.location->file)
    str_append(payload, kSep, *error.location->file, kSep, error.location->line, kSep,
               error.location->col);
  s.SetPayload(kValidationPayload, absl::Cord(payload));
  return s;
}

std::optional<BackendValidationError> validation_error_of(const absl::Status& status) {
  auto payload = status.GetPayload(kValidationPayload);
  if (!payload) return std::nullopt;
  std::vector<std::string> f = split(std::string(*payload), kSep);
  if (f.size() != 3 && f.size() != 6) return std::nullopt;
  BackendValidationError e{f[0], f[1], f[2], std::nullopt};
  if (f.size() == 6)
    e.location = ir::Location(f[3], static_cast<uint32_t>(std::stoul(f[4])),
                              static_cast<uint32_t>(std::stoul(f[5])));
  return e;
}

void BackendContext::note(std::string text) {
  if (on_note) on_note(text);
  notes_.push_back(std::move(text));
}

void BackendPassRegistrar::add(Factory factory) { factories_.push_back(std::move(factory)); }

absl::StatusOr<Artifact> Backend::emit(const ir::Module& module, const EmitFormat& format,
                                       BackendContext& context) const {
  return absl::UnimplementedError(
      str_cat("backend '", name(), "' does not emit '", format.name, "' per module"));
}

absl::StatusOr<Artifact> Backend::emit_program(ModuleList modules, const EmitFormat& format,
                                               BackendContext& context) const {
  return absl::UnimplementedError(
      str_cat("backend '", name(), "' does not emit '", format.name, "' for a program"));
}

absl::StatusOr<BuildResult> Backend::build(ModuleList modules,
                                           const std::filesystem::path& output_dir,
                                           BackendContext& context) const {
  return absl::UnimplementedError(str_cat("backend '", name(), "' does not build"));
}

std::vector<PassInfo> describe_passes(const Backend& backend) {
  BackendPassRegistrar registrar;
  backend.register_passes(registrar);
  std::vector<PassInfo> out;
  for (const auto& factory : registrar.factories()) {
    std::unique_ptr<ir::Pass> p = factory();
    out.push_back(PassInfo{p ? std::string(p->name()) : std::string("(null pass)"),
                           std::string(ir::stage_name(ir::Stage::Backend))});
  }
  return out;
}

absl::StatusOr<std::vector<PassRun>> run_backend_passes(const Backend& backend, ir::Module& module,
                                                        const BackendContext& context,
                                                        PassFailure* failure) {
  BackendPassRegistrar registrar;
  backend.register_passes(registrar);
  std::vector<PassRun> runs;
  std::string current;
  ir::PassManager pm(ir::PassContext{context.registry, context.opt_level});
  const std::string owner(backend.name());
  for (const auto& factory : registrar.factories()) {
    std::unique_ptr<ir::Pass> p = factory();
    if (!p) {
      absl::Status s = absl::InternalError(
          str_cat("backend '", owner, "' registered a pass factory that made no pass"));
      if (failure) *failure = PassFailure{s, {}, false};
      return s;
    }
    absl::Status added = pm.add(ir::Stage::Backend,
                                std::make_unique<RecordingPass>(std::move(p), &runs, &current),
                                ir::PassOwner::Backend, owner);
    if (!added.ok()) {
      if (failure) *failure = PassFailure{added, {}, false};
      return added;
    }
  }
  if (registrar.factories().empty()) return runs;
  pm.set_verify_each(true);
  absl::Status s = pm.run(module, ir::Stage::Backend, ir::Stage::Backend);
  if (s.ok()) return runs;
  if (failure) {
    failure->status = s;
    failure->pass = current;
    // The last pass that started either returned this error itself or ran and
    // left the IR invalid; nothing started means the IR was invalid on arrival.
    failure->broke_ir = !current.empty() && !runs.empty() && runs.back().name == current &&
                        error_code(s) == "E1904";
  }
  if (!current.empty() && error_code(s).empty())
    return coded_error("E1904",
                       str_cat("backend pass '", current, "' of backend '", owner,
                               "' failed: ", std::string(s.message())),
                       s.code());
  return s;
}

}  // namespace ppy

#include "opening.h"

#include <filesystem>
#include <map>
#include <optional>
#include <thread>

#include "diagnostics.h"
#include "plugin_dialects.h"
#include "ppy/driver/backend_context.h"
#include "ppy/driver/keys_memo.h"
#include "ppy/driver/output.h"
#include "ppy/driver/output_tree.h"
#include "ppy/util/str_cat.h"

namespace ppy::driver {
namespace {

/// The backend's context for what `out` compiled (or remembered).
int make_opened_context(const OpeningRequest& r, Streams io, Opened& out) {
  const Compilation& compiled = out.compilation;
  auto config = backend_config(compiled.project ? &*compiled.project : nullptr, out.backend->info().name);
  if (!config.ok()) return fail(io.err, config.status());
  out.context = make_context(compiled, out.backend->info(), *config, r.target);
  return 0;
}

/// E1802 for an op of a plugin's dialect the opened backend does not declare
/// (its manifest's `dialects`); the `ir` backend writes the IR as it is, any dialect.
absl::Status refuse_undeclared(const Opened& out) {
  const std::string& name = out.backend->info().name;
  if (name == "ir") return absl::OkStatus();
  std::vector<std::string> declared;
  for (const host::BackendEntry& e : out.catalog->index().backends())
    if (e.name == name) declared = e.dialects;
  return refuse_plugin_dialects(out.compilation, str_cat("backend '", name, "'"), declared);
}

/// Compiles the target into `out.compilation`.
int compile_into(const OpeningRequest& r, Streams io, BuildReport* progress, const Project* p, Opened& out) {
  frontend::DiagnosticEngine diags;
  CompileOptions copts{r.target, r.opt_level, ir::Stage::BeforeBackend, r.jobs, p};
  copts.portable_paths = true;  // its artifacts are cached: the same in every checkout
  if (progress) copts.on_module = [progress](const std::string& m, size_t total) { progress->module_done(m, total); };
  auto c = compile(copts, diags);
  if (progress) progress->clear();
  if (!c.ok()) return report_failure(io.err, c.status(), diags);
  out.compilation = std::move(*c);
  out.compiled = true;
  if (auto s = refuse_undeclared(out); !s.ok()) return fail(io.err, s);  // plugins (plugin_dialects.cc)
  if (!out.keys_memo.empty()) write_keys_memo(out.keys_memo, out.compilation);
  return 0;
}

}  // namespace

int open_command(const OpeningRequest& r, Streams io, BuildReport* progress, Opened& out) {
  auto command_line = command_line_settings(r.host);
  if (!command_line.ok()) return fail(io.err, command_line.status());
  // -o before anything starts; build's default folder is known, and checked,
  // once the project is compiled.
  if (r.output) {
    if (auto s = check_output_location(*r.output); !s.ok()) return fail(io.err, s);
    if (r.replace_output)
      if (auto s = check_replaceable(*r.output); !s.ok()) return fail(io.err, s);
  }
  // The backend is known before any analysis; its table comes from the project.
  auto project = r.target.ends_with(".ppyir") ? absl::StatusOr<Project>(absl::NotFoundError(""))
                                              : load_project(r.target);
  const Project* p = project.ok() ? &*project : nullptr;
  // The keys memo (build) is found and read while the backend starts: the
  // helper's spawn and handshake are mostly waiting on the helper.
  std::optional<int> memo_opt_level;
  std::optional<std::map<std::string, ModuleKey>> memo_keys;
  std::thread memo_reader;
  if (r.keys_first && p) {
    memo_opt_level = r.opt_level.value_or(p->opt_level.value_or(2));
    memo_reader = std::thread([&] {
      out.keys_memo =
          keys_memo_path((std::filesystem::path(p->root) / ".ppy-cache").string(), *p, *memo_opt_level, true);
      memo_keys = read_keys_memo(out.keys_memo, *p, *memo_opt_level);
    });
  }
  struct Join {  // however the opening ends
    std::thread& t;
    ~Join() {
      if (t.joinable()) t.join();
    }
  } join{memo_reader};
  out.catalog.emplace(BackendCatalog::discover());
  auto backend = r.format.empty() ? out.catalog->load(r.backend, p, *command_line)
                                  : out.catalog->format_owner(r.format, p, *command_line);
  if (!backend.ok()) return fail(io.err, backend.status());
  out.backend = *backend;
  if (progress)
    progress->say(sandbox_warning(*out.backend));
  else
    io.err << sandbox_warning(*out.backend);
  const host::BackendInfo& info = out.backend->info();
  out.format = r.format.empty() ? nullptr : info.format(r.format);
  if (auto s = host::require_toolchain(info, out.format); !s.ok()) return fail(io.err, s);

  if (memo_reader.joinable()) memo_reader.join();
  if (memo_opt_level) {
    if (memo_keys) {
      out.compilation.opt_level = *memo_opt_level;
      out.compilation.keys = std::move(*memo_keys);
      out.compilation.project = *p;
      out.compilation.portable_paths = true;
      out.compiled = false;
      return make_opened_context(r, io, out);
    }
  }
  if (int failed = compile_into(r, io, progress, p, out)) return failed;
  return make_opened_context(r, io, out);
}

int compile_opened(const OpeningRequest& r, Streams io, BuildReport* progress, Opened& out) {
  if (out.compiled) return 0;
  std::map<std::string, std::string> remembered = out.context.identity;
  std::optional<Project> project = out.compilation.project;
  if (int failed = compile_into(r, io, progress, project ? &*project : nullptr, out)) return failed;
  auto config = backend_config(project ? &*project : nullptr, out.backend->info().name);
  if (!config.ok()) return fail(io.err, config.status());
  if (make_context(out.compilation, out.backend->info(), *config, r.target).identity != remembered)
    return fail(io.err, absl::InternalError(str_cat("the keys remembered in ", out.keys_memo,
                                                    " are not the compiled modules' (remove it and rebuild)")));
  return 0;
}

}  // namespace ppy::driver

#include "opening.h"

#include "diagnostics.h"
#include "ppy/driver/backend_context.h"
#include "ppy/driver/output.h"
#include "ppy/driver/output_tree.h"

namespace ppy::driver {

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

  frontend::DiagnosticEngine diags;
  CompileOptions copts{r.target, r.opt_level, ir::Stage::BeforeBackend, r.jobs, p};
  copts.portable_paths = true;  // its artifacts are cached: the same in every checkout
  if (progress) copts.on_module = [progress](const std::string& m, size_t total) { progress->module_done(m, total); };
  auto c = compile(copts, diags);
  if (progress) progress->clear();
  if (!c.ok()) return report_failure(io.err, c.status(), diags);
  out.compilation = std::move(*c);
  const Compilation& compiled = out.compilation;
  auto config = backend_config(compiled.project ? &*compiled.project : nullptr, info.name);
  if (!config.ok()) return fail(io.err, config.status());
  out.context = make_context(compiled, info, *config, r.target);
  return 0;
}

}  // namespace ppy::driver

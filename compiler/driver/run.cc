// `ppy run`, `ppy check` and `ppy inspect`: the roads that stay above the boundary.
#include <ostream>

#include "diagnostics.h"
#include "ppy/driver/commands.h"
#include "ppy/driver/compile.h"
#include "ppy/frontend/frontend.h"
#include "ppy/interp/interp.h"
#include "ppy/ir/linker.h"
#include "ppy/ir/text.h"

namespace ppy::driver {

int run(const RunOptions& opts, Streams io) {
  frontend::DiagnosticEngine diags;
  auto c = compile({opts.target, opts.opt_level}, diags);
  if (!c.ok()) return report_failure(io.err, c.status(), diags);
  std::string entry = c->project ? c->project->entry : std::string();
  if (entry.empty()) entry = c->modules.front()->name();
  auto linked = ir::link(std::move(c->modules));
  if (!linked.ok()) {
    report(io.err, linked.status());
    return 1;
  }
  return interp::run_main(**linked, entry, io.out, io.err).exit_code;
}

int check(const std::string& target, Streams io) {
  auto project = load_project(target);
  if (!project.ok()) {
    report(io.err, project.status());
    return 1;
  }
  frontend::DiagnosticEngine diags;
  bool clean = frontend::check_project(*project, diags);
  io.err << frontend::render_diagnostics(diags);
  return clean && !diags.has_errors() ? 0 : 1;
}

int inspect(const InspectOptions& opts, Streams io) {
  auto stage = ir::parse_stage(opts.stage);
  if (!stage || *stage == ir::Stage::Backend) {
    report(io.err, absl::InvalidArgumentError(
                       "--stage takes after-ir-generation, after-canonicalization, before-optimization, "
                       "after-optimization or before-backend"));
    return 2;
  }
  frontend::DiagnosticEngine diags;
  auto c = compile({opts.target, opts.opt_level, *stage}, diags);
  if (!c.ok()) return report_failure(io.err, c.status(), diags);
  for (auto& m : c->modules) io.out << ir::print_module(*m);
  return 0;
}

}  // namespace ppy::driver

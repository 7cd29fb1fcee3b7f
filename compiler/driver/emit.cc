#include <ostream>

#include "diagnostics.h"
#include "ppy/driver/commands.h"
#include "ppy/driver/compile.h"
#include "ppy/driver/output.h"
#include "ppy/ir/linker.h"
#include "ppy/ir/text.h"
#include "ppy/util/str_cat.h"

namespace ppy::driver {

int emit(const EmitOptions& opts, Streams io) {
  if (opts.legacy_format) {
    report(io.err, coded_error("E1002", "`--format` applies to the builtin kinds; name the format as the first argument"));
    return 2;
  }
  if (opts.format != "ir" && opts.format != "linked-ir") {
    report(io.err, coded_error("E1903", str_cat("no backend emits '", opts.format, "'; the formats are ir, linked-ir")));
    return 2;
  }
  frontend::DiagnosticEngine diags;
  auto c = compile({opts.target, opts.opt_level}, diags);
  if (!c.ok()) return report_failure(io.err, c.status(), diags);
  std::vector<EmittedArtifact> artifacts;
  bool program = opts.format == "linked-ir";
  std::vector<std::string> names;
  for (auto& m : c->modules) names.push_back(m->name());
  if (auto s = check_placement(names, ".ppyir", program, false, opts.output, false); !s.ok()) {
    report(io.err, s);
    return 2;
  }
  if (program) {
    auto linked = ir::link(std::move(c->modules));
    if (!linked.ok()) {
      report(io.err, linked.status());
      return 1;
    }
    artifacts.push_back({"linked", ir::print_module(**linked)});
  } else {
    for (auto& m : c->modules) artifacts.push_back({m->name(), ir::print_module(*m)});
  }
  if (auto s = place_artifacts(artifacts, ".ppyir", opts.output, io.out); !s.ok()) {
    report(io.err, s);
    return 1;
  }
  return 0;
}

}  // namespace ppy::driver

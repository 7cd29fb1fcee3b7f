#include <fstream>
#include <ostream>

#include "diagnostics.h"
#include "ppy/driver/commands.h"
#include "ppy/ir/text.h"
#include "ppy/ir/verifier.h"
#include "ppy/util/str_cat.h"

namespace ppy::driver {

namespace {

bool ends_with(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

int emit(const EmitOptions& opts, Streams io) {
  if (opts.format != "ir") {
    report(io.err, coded_error("E1903", str_cat("no backend emits '", opts.format, "'; the formats are ir")));
    return 2;
  }
  if (!ends_with(opts.target, ".ppyir")) {
    report(io.err, absl::InvalidArgumentError(str_cat(opts.target, ": expected a .ppyir file")));
    return 2;
  }
  auto module = ir::read_module_file(opts.target);
  if (!module.ok()) {
    report(io.err, absl::InvalidArgumentError(str_cat(opts.target, ": ", std::string(module.status().message()))));
    return 1;
  }
  auto diags = ir::verify(**module);
  if (!diags.empty()) {
    for (auto& d : diags) io.err << opts.target << ": error: " << d.str() << "\n";
    return 1;
  }
  if (opts.output) {
    if (auto s = ir::write_module_file(**module, *opts.output); !s.ok()) {
      report(io.err, s);
      return 1;
    }
    return 0;
  }
  io.out << ir::print_module(**module);
  return 0;
}

}  // namespace ppy::driver

// The reference interpreter's entry: finds the function to run and hands it
// to the machine (machine.cc).
#include "ppy/interp/interp.h"

#include <ostream>
#include <string>

#include "internal.h"
#include "ppy/util/str_cat.h"

namespace ppy::interp {
namespace {

std::string_view qualname(const ir::Function& f) {
  const ir::Attribute* q = f.attributes().get("ppy.qualname");
  return q && q->is<std::string>() ? std::string_view(q->as_string()) : std::string_view();
}

/// The entry's index: by symbol, by qualname, or as `<module>.__main__` (the
/// module's code), else `<module>.main`.
int32_t find_entry(const ir::Module& m, std::string_view entry) {
  if (!entry.empty() && entry[0] == '@') entry.remove_prefix(1);
  auto& fs = m.functions();
  for (size_t i = 0; i < fs.size(); ++i)
    if (fs[i]->name() == entry && !fs[i]->is_declaration()) return static_cast<int32_t>(i);
  for (size_t i = 0; i < fs.size(); ++i)
    if (qualname(*fs[i]) == entry && !fs[i]->is_declaration()) return static_cast<int32_t>(i);
  for (const char* suffix : {".__main__", ".main"}) {
    std::string as_module = ppy::str_cat(entry, suffix);
    for (size_t i = 0; i < fs.size(); ++i)
      if (qualname(*fs[i]) == as_module && !fs[i]->is_declaration()) return static_cast<int32_t>(i);
  }
  return -1;
}

}  // namespace

std::string nothing_to_run(std::string_view entry) {
  if (!entry.empty() && entry[0] == '@') entry.remove_prefix(1);
  return ppy::str_cat("error: module '", entry, "' has nothing to run: no module-level code and no `def main()` ",
                      "(a program runs its entry module's code, else its main(); docs/language.md, *Modules and ",
                      "projects*)");
}

RunResult run_main(const ir::Module& linked, std::string_view entry, std::ostream& out, std::ostream& err,
                   const RunOptions& options) {
  int32_t index = find_entry(linked, entry);
  if (index < 0) {
    err << nothing_to_run(entry) << "\n";
    return {2};
  }
  RunOptions opts = options;
  if (opts.recursion_limit < 1) opts.recursion_limit = 1;
  return {detail::run_function(linked, index, out, err, opts)};
}

}  // namespace ppy::interp

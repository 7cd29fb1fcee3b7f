#include "run_built.h"

#include <sstream>

#include "child_program.h"

namespace ppy::driver {

BuiltForRun build_for_run(const RunOptions& opts, const std::string& folder, const std::vector<std::string>& llvm_only,
                          const std::map<std::string, std::string>& llvm_values, Streams io) {
  BuildOptions b;
  b.target = opts.target;
  b.backend = "llvm";
  b.opt_level = opts.opt_level;
  b.output = folder + "/out";
  b.llvm_only = {"--standalone"};
  b.llvm_only.insert(b.llvm_only.end(), llvm_only.begin(), llvm_only.end());
  b.llvm_values = llvm_values;
  std::ostringstream out, err;
  if (int status = build(b, {out, err}); status != 0) {
    io.err << err.str();
    return {"", status};
  }
  std::istringstream said(err.str());
  for (std::string line; std::getline(said, line);)
    if (line.starts_with("warning[")) io.err << line << "\n";
  return {out.str().substr(0, out.str().find('\n')), 0};
}

int run_built(const RunOptions& opts, const BuiltForRun& built, Streams io, const std::vector<std::string>& env) {
  std::vector<std::string> argv = {built.executable};
  argv.insert(argv.end(), opts.args.begin(), opts.args.end());
  return run_child(argv, {}, io.out, env);
}

}  // namespace ppy::driver

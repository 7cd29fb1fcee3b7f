#pragma once
// Running a program the driver made (`ppy run --backend c`'s executable):
// in the foreground, on the driver's own standard streams.

#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

namespace ppy::driver {

/// Runs `argv` in `cwd` with the driver's stdin, stdout and stderr, waits for
/// it and answers its exit status (128 + N when signal N ended it; 127 when it
/// could not be started). The child dies with the driver (PR_SET_PDEATHSIG),
/// so a killed driver leaves no program running. `out` is flushed first, so
/// what the driver wrote comes before what the program writes. `env` entries
/// (`NAME=value`) are added to the driver's environment for the child.
/// `program`, when given, is the file run, `argv[0]` then only what the
/// program sees as its name (`ppy run --backend c`: the script's path, as
/// python3 shows it in sys.argv[0]).
[[nodiscard]] int run_child(const std::vector<std::string>& argv, const std::filesystem::path& cwd, std::ostream& out,
                            const std::vector<std::string>& env = {}, const std::filesystem::path& program = {});

/// Runs a tool (a compiler) to completion with its stdout and stderr captured
/// into `output`; answers its exit status as run_child does.
[[nodiscard]] int run_tool_captured(const std::vector<std::string>& argv, std::string& output);

/// A folder of its own under the system's temporary directory for a build the
/// driver makes and runs once (`ppy run --sanitize`, `--profile`, `--pgo`),
/// removed with everything in it when this goes out of scope.
class ScratchFolder {
 public:
  /// Makes `<tmp>/<prefix>-XXXXXX`; false (errno says why) when it cannot.
  [[nodiscard]] bool make(const std::string& prefix);
  ~ScratchFolder();
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace ppy::driver

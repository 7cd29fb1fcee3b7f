#include "ppy/driver/llvm_roads.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <memory>

#include "ppy/util/error.h"
#include "ppy/util/str_cat.h"

extern char** environ;

namespace ppy::driver {
namespace {

std::unique_ptr<LlvmRoads>& installed() {
  static auto* roads = new std::unique_ptr<LlvmRoads>();
  return *roads;
}

std::vector<std::string>& command_line() {
  static auto* args = new std::vector<std::string>();
  return *args;
}

}  // namespace

const std::vector<std::string>& llvm_road_builtins() {
  static const auto* names = new std::vector<std::string>{"llvm", "nvvm"};
  return *names;
}

const std::vector<std::string>& llvm_road_formats() {
  static const auto* formats = new std::vector<std::string>{"asm", "llvm-ir", "nvvm-ir", "object", "ptx"};
  return *formats;
}

void install_llvm_roads(LlvmRoads roads) { installed() = std::make_unique<LlvmRoads>(std::move(roads)); }

const LlvmRoads* llvm_roads() { return installed().get(); }

void remember_command_line(int argc, char** argv) { command_line().assign(argv, argv + argc); }

absl::Status need_llvm_roads() {
  if (llvm_roads()) return absl::OkStatus();
  std::error_code ec;
  std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  std::filesystem::path full = self.parent_path() / "ppy-llvm";
  const std::vector<std::string>& args = command_line();
  std::string why = "no command line to hand over";
  if (ec) {
    why = ec.message();
  } else if (!args.empty()) {
    std::vector<char*> argv;
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execve(full.c_str(), argv.data(), environ);
    why = std::strerror(errno);  // execve returned: it failed
  }
  return coded_error("E1903", str_cat("this command needs LLVM (the llvm and nvvm "
                                      "backends, ppy run's JIT), which ",
                                      "this ppy does not link, and ", full.string(), " cannot be run (", why, ")"));
}

}  // namespace ppy::driver

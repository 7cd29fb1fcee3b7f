// The `ppy` command line: parses arguments with CLI11 and calls the driver's roads.
#include <iostream>

#include "CLI/CLI.hpp"
#include "ppy/driver/commands.h"
#include "ppy/driver/llvm_roads.h"

namespace {

void add_opt_level(CLI::App* cmd, std::optional<int>& level) {
  cmd->add_option("-O", level, "optimization level, 0 to 3 (default: the project's, else 2)")
      ->check(CLI::Range(0, 3));
}

void add_host_flags(CLI::App* cmd, ppy::driver::HostFlags& host) {
  cmd->add_option("--sandbox", host.sandbox, "the helper's sandbox: off, default or strict (default: its table's)")
      ->check(CLI::IsMember({"off", "default", "strict"}));
  cmd->add_option("--backend-timeout", host.backend_timeout_ms,
                  "every backend call's deadline, in milliseconds, 1 to 86400000")
      ->check(CLI::Range(1, 86'400'000));
}

}  // namespace

int main(int argc, char** argv) {
  ppy::driver::remember_command_line(argc, argv);  // for handing a command to ppy-llvm
  ppy::driver::prepare_driver_process();
  CLI::App app{"ppy: a compiler for a typed subset of Python, with out-of-process backends"};
  app.require_subcommand(1);
  app.footer("Run `ppy COMMAND --help` for a command's options.");
  ppy::driver::Streams io{std::cout, std::cerr};
  int status = 0;

  ppy::driver::EmitOptions emit;
  auto* emit_cmd = app.add_subcommand("emit", "Write one artifact per module (or one per program) in FORMAT");
  emit_cmd->add_option("format", emit.format, "ir, linked-ir, or a format an installed backend emits")->required();
  emit_cmd->add_option("target", emit.target, "a .ppy file, a .ppyir file, or a project folder")->required();
  emit_cmd->add_option("-o,--output", emit.output, "output file (one module) or folder (one file per module)");
  emit_cmd->add_option("-j,--jobs", emit.jobs, "module-scoped emits at once (default: the number of cores)");
  // `--format` alone runs clang-format over C; `--format NAME` is the old way of
  // naming the format, refused with a pointer.
  emit_cmd->add_option("--format", emit.legacy_format, "format the C through clang-format (c, cpp, header, cuda, hip)")
      ->expected(0, 1);
  for (const char* flag : {"--standalone", "--header-only", "--unsafe"})
    emit_cmd->add_flag_callback(flag, [&emit, flag] { emit.flags.push_back(flag + 2); });
  add_opt_level(emit_cmd, emit.opt_level);
  add_host_flags(emit_cmd, emit.host);
  emit_cmd->add_flag("--no-cache", emit.no_cache, "neither read nor write the artifact cache (a backend being developed)");
  emit_cmd->callback([&] { status = ppy::driver::emit(emit, io); });

  ppy::driver::RunOptions run;
  auto* run_cmd = app.add_subcommand("run", "Compile a program through LLVM and run its main() in a JIT");
  run_cmd->add_option("target", run.target, "a .ppy file or a project folder")->required();
  run_cmd->add_flag("--interp", run.interp, "run with the reference IR interpreter instead");
  run_cmd->add_option("--backend", run.backend, "build with this backend and run its output (llvm, python)");
  add_opt_level(run_cmd, run.opt_level);
  run_cmd->add_option("args", run.args, "the program's arguments (sys.argv[1:]), after --");
  run_cmd->callback([&] { status = ppy::driver::run(run, io); });

  std::string check_target;
  auto* check_cmd = app.add_subcommand("check", "Report the source's diagnostics; generate nothing");
  check_cmd->add_option("target", check_target, "a .ppy file or a project folder")->required();
  check_cmd->callback([&] { status = ppy::driver::check(check_target, io); });

  ppy::driver::InspectOptions inspect;
  auto* inspect_cmd = app.add_subcommand("inspect", "Print the IR as it stands after a pipeline stage");
  inspect_cmd->add_option("--stage", inspect.stage,
                          "after-ir-generation, after-canonicalization, before-optimization, "
                          "after-optimization, before-backend, or backend (with --backend)")
      ->required();
  inspect_cmd->add_option("--backend", inspect.backend,
                          "with --stage backend: print the IR after this backend's passes (see `ppy backends`)");
  inspect_cmd->add_option("target", inspect.target, "a .ppy file or a project folder")->required();
  add_opt_level(inspect_cmd, inspect.opt_level);
  inspect_cmd->callback([&] { status = ppy::driver::inspect(inspect, io); });

  ppy::driver::BuildOptions build;
  auto* build_cmd = app.add_subcommand("build", "Build a program with a backend and list what it wrote");
  build_cmd->add_option("target", build.target, "a .ppy file, a .ppyir file, or a project folder")->required();
  build.backend = "llvm";
  build_cmd->add_option("--backend", build.backend, "the backend to build with (see `ppy backends`; default: llvm)");
  build_cmd->add_option("-o,--output", build.output, "output folder (default: <project>/.ppy-cache/backends/NAME)");
  add_host_flags(build_cmd, build.host);
  build_cmd->add_flag("-q,--quiet", build.quiet, "print only errors (no progress, outputs or summary)");
  build_cmd->add_flag("--no-cache", build.no_cache, "neither read nor write the artifact cache (a backend being developed)");
  build_cmd->add_option("-j,--jobs", build.jobs, "modules through the shared passes at once (default: the number of cores)");
  add_opt_level(build_cmd, build.opt_level);
  // The LLVM road's options: accepted by the parser so the refusal can say why (E1002).
  auto* llvm = build_cmd->add_option_group("LLVM road", "options of the LLVM backend, refused for any other");
  for (const char* flag : {"--unsafe", "--pgo", "--prover", "--host-cpu", "--standalone", "--python-extension",
                           "--library", "--report-opt", "--warm"})
    llvm->add_flag_callback(flag, [&build, flag] { build.llvm_only.push_back(flag); });
  for (const char* opt : {"--sanitize", "--report-opt-json", "--target"})
    llvm->add_option_function<std::string>(opt, [&build, opt](const std::string& value) {
      build.llvm_only.push_back(opt);
      build.llvm_values[opt] = value;
    });
  build_cmd->callback([&] { status = ppy::driver::build(build, io); });

  ppy::driver::CacheCommandOptions cache;
  auto* cache_cmd = app.add_subcommand("cache", "Show or empty the project's artifact cache (safe while builds run)");
  cache_cmd->require_subcommand(1);
  for (auto [name, what] : {std::pair{"stats", "Size, entries and hits/misses per backend"},
                            std::pair{"clean", "Remove every entry no build is reading now"}}) {
    auto* sub = cache_cmd->add_subcommand(name, what);
    sub->add_option("target", cache.target, "the project folder or .ppy file (default: .)");
    sub->callback([&cache, &status, &io, name] {
      cache.action = name;
      status = ppy::driver::cache_command(cache, io);
    });
  }

  app.add_subcommand("doctor", "Say which backends can work here and which protections the sandbox has")
      ->callback([&] { status = ppy::driver::doctor(io); });
  app.add_subcommand("backends", "List the installed backends discovery finds (starts nothing)")
      ->callback([&] { status = ppy::driver::list_backends(io); });

  ppy::driver::ConformanceOptions conformance;
  auto* conf_cmd = app.add_subcommand("conformance", "Run the contract's checks against an installed backend");
  conf_cmd->add_option("name", conformance.name, "the backend (optional with --manifest of one backend)");
  conf_cmd->add_option("--manifest", conformance.manifest, "check the backend of this manifest.toml, not the search path's");
  conf_cmd->add_option("--option", conformance.options, "KEY=VALUE of the backend's table (repeatable)");
  conf_cmd->add_option("--missing-toolchain", conformance.missing_toolchain,
                       "KEY=VALUE of a table under which its toolchain is missing (repeatable)");
  conf_cmd->callback([&] { status = ppy::driver::conformance(conformance, io); });

  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {  // --help
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "error[E1002]: " << e.what() << "\nRun `ppy --help`, or `ppy COMMAND --help`, for the options.\n";
    return 2;
  }
  return status;
}

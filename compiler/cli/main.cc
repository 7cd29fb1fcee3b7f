// The `ppy` command line: parses arguments with CLI11 and calls the driver's roads.
#include <iostream>
#include <sstream>

#include "CLI/CLI.hpp"
#include "ppy/backend/api_version.h"
#include "ppy/driver/commands.h"
#include "ppy/driver/plugins_listing.h"
#include "ppy/driver/compile.h"
#include "ppy/driver/llvm_roads.h"
#include "ppy/ir/text.h"

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

/// `ppy --version` and `ppy version`: what a bug report needs to name.
std::string version_text() {
  std::ostringstream out;
  out << "ppy " << ppy::driver::compiler_version() << "\n"
      << "IR schema: ppyir " << ppy::ir::kIRSchemaVersion << "\n"
      << "backend API: " << ppy::kBackendApiVersion << "\n"
      << "LLVM: " << PPY_LLVM_VERSION;  // CLI11 ends the --version text with its own newline
  return out.str();
}

using Described = std::pair<const char*, const char*>;

/// The source backends' emit flags (docs/source-backends.md).
constexpr Described kEmitFlags[] = {
    {"--standalone", "c, cpp: the whole program, ending in int main(void) (a project: emit linked-ir first)"},
    {"--header-only", "c, cpp: every function static inline, under an include guard"},
    {"--unsafe", "c, cpp, cuda, hip: integer arithmetic wraps instead of raising OverflowError"},
};

/// The LLVM road's flags and options (docs/llvm.md): accepted by the parser for
/// every backend so that the refusal for another can say why (E1002).
constexpr Described kLlvmRoadFlags[] = {
    {"--unsafe", "integer arithmetic wraps instead of raising OverflowError; bounds checks stay"},
    {"--host-cpu", "tune for this machine's processor, its features enabled"},
    {"--no-traceback", "link no frames for tracebacks: an uncaught exception prints its last line alone"},
    {"--standalone", "one statically linked executable, nothing else needed to run it"},
    {"--python-extension", "a CPython extension module exposing the @export functions"},
    {"--library", "a static and a shared library, a C header and a pkg-config file"},
    {"--report-opt", "LLVM's optimization remarks (inlining, vectorization, LICM, unrolling) as notes"},
    {"--warm", "also cache the objects `ppy run` would make on first use"},
};
constexpr Described kLlvmRoadOptions[] = {
    {"--sanitize", "address, undefined or address,undefined: instrument the code and the runtime (docs/llvm.md)"},
    {"--report-opt-json", "write the optimization remarks as JSON to this file in the output folder"},
    {"--pgo", "optimize with this profile (written by `ppy run --profile`; docs/llvm.md)"},
    {"--prover", "z3 or off: prove overflow guards away with the Z3 solver where the range analysis cannot"},
    {"--target", "the target triple to build objects for (e.g. aarch64-linux-gnu)"},
};

/// `--diagnostics-format`, on the commands that compile source.
void add_diagnostics_format(CLI::App* cmd) {
  cmd->add_option_function<std::string>(
         "--diagnostics-format",
         [](const std::string& name) {
           if (!ppy::driver::set_diagnostics_format(name)) throw CLI::ValidationError("--diagnostics-format", name);
         },
         "how source errors are written on stderr: text (default), json, or sarif (SARIF 2.1.0)")
      ->check(CLI::IsMember({"text", "json", "sarif"}));
}

}  // namespace

int main(int argc, char** argv) {
  ppy::driver::remember_command_line(argc, argv);  // for handing a command to ppy-llvm
  ppy::driver::prepare_driver_process();
  CLI::App app{"ppy: a compiler for a typed subset of Python, with out-of-process backends"};
  app.require_subcommand(1);
  app.footer("Run `ppy COMMAND --help` (or `ppy help COMMAND`) for a command's options.");
  app.set_version_flag("--version", [] { return version_text(); }, "print the compiler, IR schema, backend API and LLVM versions");
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
  for (auto [flag, what] : kEmitFlags)
    emit_cmd->add_flag_callback(flag, [&emit, flag] { emit.flags.push_back(flag + 2); }, what);
  add_opt_level(emit_cmd, emit.opt_level);
  add_host_flags(emit_cmd, emit.host);
  emit_cmd->add_flag("--no-cache", emit.no_cache, "neither read nor write the artifact cache (a backend being developed)");
  add_diagnostics_format(emit_cmd);
  emit_cmd->callback([&] { status = ppy::driver::emit(emit, io); });

  ppy::driver::RunOptions run;
  auto* run_cmd = app.add_subcommand("run", "Compile a program through LLVM and run its main() in a JIT");
  run_cmd->add_option("target", run.target, "a .ppy file or a project folder")->required();
  run_cmd->add_flag("--interp", run.interp, "run with the reference IR interpreter instead");
  run_cmd->add_option("--backend", run.backend, "build with this backend and run its output (llvm, c, python)");
  add_opt_level(run_cmd, run.opt_level);
  add_diagnostics_format(run_cmd);
  run_cmd->add_option("--sanitize", run.sanitize,
                      "address, undefined or address,undefined: build an instrumented executable and run it");
  // Profile-guided optimization (docs/llvm.md): record a profile, or build with one.
  run_cmd->add_flag("--profile", run.profile, "run an instrumented build and write its profile (PROGRAM.ppyprof)");
  run_cmd->add_option("--profile-out", run.profile_out, "with --profile: the profile's file (merged into if it exists)");
  run_cmd->add_option("--pgo", run.pgo, "build with this profile (from --profile) and run that build");
  run_cmd->add_option("args", run.args, "the program's arguments (sys.argv[1:]), after --");
  run_cmd->callback([&] { status = ppy::driver::run(run, io); });

  std::string check_target;
  auto* check_cmd = app.add_subcommand("check", "Report the source's diagnostics; generate nothing");
  check_cmd->add_option("target", check_target, "a .ppy file or a project folder")->required();
  add_diagnostics_format(check_cmd);
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
  for (auto [flag, what] : kLlvmRoadFlags)
    llvm->add_flag_callback(flag, [&build, flag] { build.llvm_only.push_back(flag); }, what);
  for (auto [opt, what] : kLlvmRoadOptions)
    llvm->add_option_function<std::string>(
        opt,
        [&build, opt](const std::string& value) {
          build.llvm_only.push_back(opt);
          build.llvm_values[opt] = value;
        },
        what);
  add_diagnostics_format(build_cmd);
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
  app.add_subcommand("plugins", "List the installed plugins discovery finds (starts nothing)")
      ->callback([&] { status = ppy::driver::list_plugins(io); });

  ppy::driver::ConformanceOptions conformance;
  auto* conf_cmd = app.add_subcommand(
      "conformance", "Run the contract's checks against an installed backend or plugin (its pass server)");
  conf_cmd->add_option("name", conformance.name,
                       "the backend or plugin; both when a distribution ships the two under one name "
                       "(optional with --manifest of one)");
  conf_cmd->add_option("--manifest", conformance.manifest,
                       "check the backend or plugin of this manifest.toml, not the search path's");
  conf_cmd->add_option("--option", conformance.options, "KEY=VALUE of the backend's or plugin's table (repeatable)");
  conf_cmd->add_option("--missing-toolchain", conformance.missing_toolchain,
                       "KEY=VALUE of a table under which its toolchain is missing (repeatable)");
  conf_cmd->callback([&] { status = ppy::driver::conformance(conformance, io); });

  app.add_subcommand("version", "Print the compiler, IR schema, backend API and LLVM versions")->callback([&] {
    io.out << version_text() << "\n";
  });
  std::string help_topic;
  auto* help_cmd = app.add_subcommand("help", "Print the options of COMMAND (or the commands, without one)");
  help_cmd->add_option("command", help_topic, "the command to describe");
  help_cmd->callback([&] {
    if (help_topic.empty()) {
      // app.help() would describe the command being run (`help`) instead.
      io.out << app.get_formatter()->make_help(&app, app.get_name(), CLI::AppFormatMode::Normal);
      return;
    }
    CLI::App* topic = nullptr;
    try {
      topic = app.get_subcommand(help_topic);
    } catch (const CLI::OptionNotFound&) {
    }
    if (topic == nullptr) {
      io.err << "error[E1002]: there is no command '" << help_topic << "'\nRun `ppy --help` for the commands.\n";
      status = 2;
      return;
    }
    io.out << topic->help(app.get_name());  // the usage line `ppy build --help` prints
  });

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

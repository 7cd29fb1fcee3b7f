// The `ppy` command line: parses arguments with CLI11 and calls the driver's roads.
#include <iostream>

#include "CLI/CLI.hpp"
#include "ppy/driver/commands.h"

int main(int argc, char** argv) {
  CLI::App app{"ppy: a compiler for a typed subset of Python, with out-of-process backends"};
  app.require_subcommand(1);
  ppy::driver::Streams io{std::cout, std::cerr};
  int status = 0;

  ppy::driver::EmitOptions emit;
  auto* emit_cmd = app.add_subcommand("emit", "Write one artifact per module (or one per program) in FORMAT");
  emit_cmd->add_option("format", emit.format, "ir, linked-ir, or a format an installed backend emits")->required();
  emit_cmd->add_option("target", emit.target, "a .ppy file, a .ppyir file, or a project folder")->required();
  emit_cmd->add_option("-o,--output", emit.output, "output file (one module) or folder (one file per module)");
  emit_cmd->add_option("-O", emit.opt_level, "optimization level 0-3")->check(CLI::Range(0, 3));
  emit_cmd->callback([&] { status = ppy::driver::emit(emit, io); });

  CLI11_PARSE(app, argc, argv);
  return status;
}

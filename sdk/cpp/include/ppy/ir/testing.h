#pragma once
/// Small valid modules for the tests of backends and hosts (the SDK's, the
/// toy's, a vendor's): built with the C++ API, so they need no parser.

#include <memory>
#include <string>
#include <vector>

#include "ppy/ir/ir.h"

namespace ppy::ir::testing {

/// Adds `name(x: i64) -> i64`, which doubles `x` with `adds` wrapping adds and returns it.
inline Function* add_doubling_function(Module& m, std::string name, int adds) {
  Function* f = m.add_function(std::make_unique<Function>(
      std::move(name), std::vector<Param>{{Type::i64(), {}, "x"}}, std::vector<Type>{Type::i64()}));
  Block* entry = f->create_entry_block();
  Value* v = entry->argument(0);
  for (int i = 0; i < adds; ++i)
    v = entry->append(Operation::create("core.add", {v, v}, {Type::i64()}, {{"overflow", "wrap"}}))->result();
  entry->append(Operation::create("core.ret", {v}, {}));
  return f;
}

/// A module holding `f(x: i64) -> i64` with two adds.
inline std::unique_ptr<Module> small_module(std::string name = "m") {
  auto m = std::make_unique<Module>(std::move(name));
  add_doubling_function(*m, "f", 2);
  return m;
}

}  // namespace ppy::ir::testing

#pragma once
/// `random.Random(seed)` instances (docs/stdlib.md, "random"): a class written in ppy,
/// CPython's Mersenne Twister (init_by_array seeding, genrand_uint32) and the algorithms of
/// its random.py over it, added to a module that names `random.Random`, so every road runs
/// it and `Random(42).random()` gives python3's numbers. Each reference to `random.Random`
/// (or a `Random` imported from random) becomes the class `__ppy_Random`; its generic
/// methods (choice, shuffle, sample, choices) are module functions the checker calls
/// (`rng.choice(xs)` is `__ppy_random_choice(rng, xs)`, check_calls.cc).

#include <string>

#include "ast.h"

namespace ppy::frontend {

/// The class that stands for random.Random, and the prefix of its generic methods' functions.
inline constexpr const char* kRandomClass = "__ppy_Random";
inline constexpr const char* kRandomGenericPrefix = "__ppy_random_";

/// Adds the class to `ast` and rewrites its references, when `ast` names random.Random.
void add_random_class(ModuleAst& ast, const std::string& file);

}  // namespace ppy::frontend

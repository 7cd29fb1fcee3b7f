#pragma once
// What the checker's files share (checker.cc, declarer.cc, the body checker's
// check_*.cc): the names of the ppy subset's special modules, and dotted paths.
// Not an API: nothing outside compiler/frontend includes it.

#include <functional>
#include <optional>
#include <set>
#include <string>

#include "ast.h"

namespace ppy::frontend::checking {

/// Every `math.*`, `ppy.*` name the subset knows, modules included.
const std::set<std::string>& special_names();
/// Whether `m` is one of the special modules (`math`, `ppy`, `ppy.cuda`, ...).
bool is_special_module(const std::string& m);
/// io (issue 33, check_io.cc): sys, os and os.path, and the names of theirs
/// (and the builtins input and open) the subset has.
bool is_io_module(const std::string& m);
bool is_io_name(const std::string& name);
/// stdlib: the modules random and time, and their functions' names (check_random.cc).
bool is_stdlib_module(const std::string& m);
bool is_random_name(const std::string& name);
/// stdlib: collections' dict classes (check_collections.cc): `collections.Counter` and the like, the methods
/// they add to a dict, and their annotations (`Counter[str]` is `dict[str, int]`).
bool is_collections_class_name(const std::string& name);
bool is_collections_method(const std::string& name);
std::optional<Ty> collections_annotation(const Expr& a, const std::function<Ty(const Expr&)>& elem,
                                         const std::function<void(Pos, const char*, std::string)>& error);
/// stdlib: collections.deque (check_deque.cc): its left-hand methods and its annotation (`deque[int]` is
/// `list[int]`).
bool is_deque_method(const std::string& name);
std::optional<Ty> deque_annotation(const Expr& a, const std::function<Ty(const Expr&)>& elem,
                                   const std::function<void(Pos, const char*, std::string)>& error);
/// `a.b.c` for a chain of names and attributes, else nullopt.
std::optional<std::string> dotted(const Expr& e);
/// A tuple or optional annotation (`tuple[int, float]`, `int | None`): its
/// type (Error when reported), or nullopt when `a` is neither; `elem` reads
/// an element's annotation.
std::optional<Ty> compound_annotation(const Expr& a, const std::function<Ty(const Expr&)>& elem,
                                      const std::function<void(Pos, const char*, std::string)>& error);

}  // namespace ppy::frontend::checking

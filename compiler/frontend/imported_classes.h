#pragma once
// Classes imported from another module (issue 32, docs/language.md "Classes"):
// `from shapes import Circle` and `import shapes; shapes.Circle(2.0)`. A class
// keeps one home, the module that declares it (ClassInfo::owner): its type ids,
// its methods (compiled once, there), its dataclass defaults and constants;
// another module names the class, and calls its methods as external functions.
// Not an API: only compiler/frontend includes it.

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "checker.h"

namespace ppy::frontend::checking {

/// The module that declares class `cls` (`m` for its own classes).
const ModuleInfo& owner_of(const ModuleInfo& m, Ty cls);

/// The method `name` that class `impl` defines, from its own module (null when none).
const FuncInfo* class_method(const ModuleInfo& m, Ty impl, const std::string& name);

/// The class an annotation names through an import, when it names one: `Circle`
/// (or `"Circle"`) after `from shapes import Circle`, `shapes.Circle` after
/// `import shapes`. Declaring needs no other module: a class is interned by its
/// module and name, and check_module verifies it was declared there.
std::optional<Ty> imported_class(const ModuleInfo& m, const Expr& a);

/// Binds the classes `m` imports into `m.classes`, once every module is
/// declared: `from shapes import Circle` as "Circle", `import shapes` as
/// "shapes.Circle" for each class of shapes. True when binding `b` named a class.
bool bind_imported_classes(ModuleInfo& m, const std::string& local, const Binding& b, const ModuleInterfaces& all);

/// The name `m`'s code calls list helper `op` (object_list_helpers.h) of class
/// `cls` by: the helper itself for a class of `m`; for an imported class, a
/// name `m` binds to the helper of the class's module.
std::string list_helper_for(ModuleInfo& m, const std::string& op, Ty cls);

/// Whether `cls` is an enum (enum_classes.h) of another module than `m`.
bool foreign_enum(const ModuleInfo& m, Ty cls);

/// `Color.RED` of an enum `cls` of another module: the name `m` calls that
/// module's `__ppy_Color_member` by, and the member's index; nullopt when `cls`
/// is no such enum or has no such member.
std::optional<std::string> foreign_enum_member(ModuleInfo& m, Ty cls, const std::string& member, int64_t& index);

/// `Color(v)` ("of") and `Color` as a value ("all": its members) of an enum
/// `cls` of another module: the name `m` calls that module's helper
/// `__ppy_Color_<what>` by (enum_classes.h); nullopt when there is none.
std::optional<std::string> foreign_enum_helper(ModuleInfo& m, Ty cls, const std::string& what);

/// A name for class `t` that `m`'s code resolves (what the checker's rewrites
/// write into `isinstance(x, K)`): its own name for a class of `m`, else the
/// name `m` imports it by, else a name bound for it now.
std::string class_spelling(ModuleInfo& m, Ty t);

/// The type ids of class `k` and its subclasses: its module's range
/// `[tid, tid_end)`, then the range of each subclass another module declares.
std::vector<std::pair<int64_t, int64_t>> tid_ranges(Ty k);

/// Another module's method by its qualname (`shapes.Circle.area`), or null
/// (a function, or a module that is not the project's).
const FuncInfo* foreign_method(const std::string& qualname, const ModuleInterfaces& all);

/// A qualname split into its module (the longest prefix `all` has) and the
/// function in it (`Circle.area` for a method); the split at the last dot when no
/// module matches.
std::pair<std::string, std::string> split_callee(const std::string& qualname, const ModuleInterfaces& all);

}  // namespace ppy::frontend::checking

#pragma once
/// Exception classes of the program (docs/language.md, "Exceptions"): a
/// class deriving from a builtin exception, or from another such class. Its
/// instance is an ordinary object whose struct starts (after `__tid`) with
/// three hidden str fields that BaseException keeps in CPython:
///   `__classes`  its class, then its bases up to the builtin one, space-separated
///                (what a raise hands the runtime: ppy_exc_raise_object);
///   `__str`      `str()` of its args (what `str(e)` gives without `__str__`);
///   `__args`     the reprs of its args, comma-separated (`repr(e)`: `Name(args)`);
///   `__argv`     a list of each arg's `str()`, which `e.args` reads back (exception_args.h);
///   `__argraw`   true while `__args` holds the only argument, a str, as given (not
///                its repr) and `__argv` is unset: `raise E("text")` allocates
///                neither, and `repr(e)` / `e.args` make them when read (issue 32).
/// The constructor's arguments fill them, as BaseException.__new__ does, and
/// `super().__init__(...)` of the root class refills them.

#include <string>
#include <string_view>

#include "types.h"

namespace ppy::frontend {

inline constexpr std::string_view kExcClassesField = "__classes";
inline constexpr std::string_view kExcStrField = "__str";
inline constexpr std::string_view kExcArgsField = "__args";
inline constexpr std::string_view kExcArgvField = "__argv";
inline constexpr std::string_view kExcArgRawField = "__argraw";
/// The target a checked `super().__init__(...)` of an exception class's root
/// names: BaseException's own, which lowering writes inline.
inline constexpr std::string_view kBaseExceptionInit = "BaseException.__init__";

/// Makes `c` an exception class deriving from the builtin exception `builtin`
/// (its hidden fields first).
void make_exception_class(ClassInfo& c, std::string_view builtin);
/// Whether `t` is an exception class of the program.
bool is_exception_class(Ty t);
/// Whether `n` names one of an exception class's hidden fields.
bool is_hidden_field(std::string_view n);
/// Whether `c` has a field other than the hidden ones.
bool has_own_fields(const ClassInfo& c);
/// `c`'s `__classes`: its name, then each base's, the builtin one last.
std::string exception_classes(const ClassInfo& c);
/// The nearest class that both `a` and `b` are (Error when none).
Ty common_class(Ty a, Ty b);

}  // namespace ppy::frontend

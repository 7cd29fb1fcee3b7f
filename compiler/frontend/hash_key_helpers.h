#pragma once
/// Objects as dict keys and set members (issue 32; docs/runtime.md, "Dicts and
/// sets"). The runtime's tables hash an object key by identity (`o`), which is
/// Python's own rule for a class without `__eq__`. For a class whose `==` is
/// its own (`__eq__`, a dataclass), each key goes first through a helper
/// written in ppy beside the class, `__ppy_key_Point(k) -> Point`, that hands
/// back one object for each set of equal ones (the first it saw), so that the
/// identity table finds equal keys as Python's dict does:
/// - `__eq__` and `__hash__`: by `k.__hash__()`, then `is` or `==` among the
///   objects seen with that hash (Python's probe calls them alike);
/// - a frozen dataclass (or NamedTuple) whose fields are ints and strs: by the
///   tuple of its fields, as its generated `__hash__` and `__eq__` compare;
/// - `__eq__` without `__hash__`, a dataclass that is not frozen: no helper;
///   the key's use raises TypeError `unhashable type: 'Point'` where it is,
///   as Python's dict does.
/// The checker calls the helper's name (hash_key_helper) wherever a key of
/// such a class enters or looks up a table, and refuses the key (E1010) when
/// the class has none (a frozen dataclass with other fields).

#include <string>

#include "ast.h"
#include "types.h"

namespace ppy::frontend {

/// The helper a key of class `cls` goes through.
std::string hash_key_helper(const std::string& cls);

/// Whether a key of class `cls` goes through its helper: its `==` (or a
/// base's) is its own, `__eq__` or a dataclass's.
[[nodiscard]] bool object_key_helped(Ty cls);

/// Whether instances of `cls` are unhashable as Python makes them: the
/// nearest class (from `cls` up) deciding defines `__eq__` without
/// `__hash__`, or is a dataclass that is not frozen.
[[nodiscard]] bool unhashable_class(Ty cls);

/// Whether a key of type `key` (a class, or a tuple holding classes) goes
/// through a helper: Counter() of a list, which the runtime counts by the
/// elements themselves, does not take such keys.
[[nodiscard]] bool helped_key(Ty key);

/// Adds after each class of `ast` whose equality is its own the helper (and
/// the module variables it keeps its objects in) described above.
void add_hash_key_helpers(ModuleAst& ast, const std::string& file);

}  // namespace ppy::frontend

#pragma once
/// An inherited `@classmethod` called through a subclass (`Sub.create()`, where
/// `create` is the base's and makes `cls(...)`; docs/language.md, "Classes").
/// ppy makes a class method a function of the class that defines it, its `cls`
/// that class; so each subclass of the module that does not define the method
/// gets a copy of it before the declarer runs (monomorphized per class, as a
/// generic is), whose `cls` is then the subclass, as Python binds it.

#include "ast.h"

namespace ppy::frontend {

/// Copies into each class of `ast` the class methods its base (a class of the
/// module) has and it does not define. A copy's result annotation naming the
/// base (`-> "Shape"`) names the subclass: `cls(...)` makes one of it.
void add_inherited_classmethods(ModuleAst& ast);

}  // namespace ppy::frontend

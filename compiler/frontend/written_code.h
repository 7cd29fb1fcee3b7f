#pragma once
/// Code the frontend writes for a program as Python text (a dataclass's order
/// methods, an enum's members and lookups): parsed like the program's own, then
/// placed at the construct that asked for it, where diagnostics and tracebacks
/// point.

#include <functional>
#include <string>
#include <vector>

#include "ast.h"

namespace ppy::frontend {

/// The statements of `text` (nothing when it does not parse, which is a bug
/// of the writer, not the program's: the construct then stays as written).
[[nodiscard]] std::vector<StmtPtr> parse_written(const std::string& text, const std::string& file);

/// Gives every node of `s` (and of what it nests) the position `p`.
void place_written(Stmt& s, Pos p);
void place_written(Expr& e, Pos p);

/// Each class statement of `ast` in order (a base above its subclasses), followed
/// by what `written_for` writes for it: the walk of every pass that adds helpers
/// beside a class (hash keys, the iteration protocol, list helpers).
void add_after_each_class(ModuleAst& ast, const std::function<std::vector<StmtPtr>(Stmt& cls)>& written_for);

}  // namespace ppy::frontend

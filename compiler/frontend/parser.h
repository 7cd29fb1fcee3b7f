#pragma once
// Recursive-descent parser for the ppy subset. Syntax errors are E1001;
// Python that parses but lies outside the subset is E1010. The parser recovers
// at statement level, so one run reports every such error.

#include <string>
#include <string_view>

#include "ast.h"
#include "ppy/frontend/diagnostics.h"

namespace ppy::frontend {

/// Nesting limits: deeper input is refused (E1090), never a stack overflow.
inline constexpr int kMaxNesting = 150;
inline constexpr int kMaxExprDepth = 400;
inline constexpr int kMaxElifs = 1000;

/// Lexes and parses one module.
ModuleAst parse_module(std::string_view src, const std::string& file, DiagnosticEngine& diags);

}  // namespace ppy::frontend

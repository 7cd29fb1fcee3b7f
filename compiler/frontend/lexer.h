#pragma once
// Python tokens for the ppy subset: names, numbers, strings, operators,
// NEWLINE/INDENT/DEDENT (none inside brackets), comments and `\` continuations.

#include <string>
#include <string_view>
#include <vector>

#include "ast.h"
#include "ppy/frontend/diagnostics.h"

namespace ppy::frontend {

enum class Tok : uint8_t { Name, Int, Float, String, Op, Newline, Indent, Dedent, End };

struct Token {
  Tok kind;
  Pos pos;
  std::string text;  ///< source spelling (name, operator); decoded value for strings
  int64_t ival = 0;
  double fval = 0;
  bool too_big = false;  ///< an int literal beyond i64
  char prefix = 0;       ///< string prefix letter that matters (`f`, `b`), else 0
};

/// Tokenizes `src`; errors go to `diags` as E1001 under `file`. Always ends with End.
std::vector<Token> lex(std::string_view src, const std::string& file, DiagnosticEngine& diags);

}  // namespace ppy::frontend

#pragma once
/// The Python spelling of runtime calls: the `python` column of
/// ppy/runtime/abi.def, compiled once into the text between operands and the
/// precedence each operand's place needs, so an operand is parenthesized
/// exactly where Python's grammar requires.

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "ppy/runtime/abi.h"
#include "python_text.h"

namespace ppy::backends::python {

/// A compiled template.
struct CallTemplate {
  struct Piece {
    enum Kind { kText, kOperand, kTextAttr } kind;
    std::string text;       ///< kText: copied as it is
    size_t operand = 0;     ///< kOperand: which operand
    int need = kStatement;  ///< kOperand: the precedence its place needs
  };
  std::vector<Piece> pieces;
  /// How tightly the expansion binds (its loosest top-level operator, or an
  /// atom); kStatement for `raise ...`.
  int prec = kAtom;
  /// The template is one operand and nothing else: the expansion is the operand.
  bool bare_operand = false;
  /// "*": the writer spells the call itself (hand_written_calls()).
  bool by_hand = false;
  /// The `_ppy_*` helpers it names (ppy_helpers.py).
  std::vector<std::string> helpers;

  /// The call with `operand(i)` for `$i` and `text_literal` for `$text`.
  /// Empty text for "": nothing is written.
  Expr expand(const std::function<Expr(size_t)>& operand, std::string_view text_literal) const;
};

/// Compiles `text` for a function of `num_operands` operands that takes the
/// `text` attribute where `has_text`. An error says why the template is
/// refused: not the Python expression subset the writer parses, an operand
/// out of range or used twice (an inlined operand would run twice), `$text`
/// without the text flag, an unknown helper.
[[nodiscard]] absl::StatusOr<CallTemplate> compile_call_template(std::string_view text, size_t num_operands,
                                                                 bool has_text);

/// The compiled template of `fn` (compiled on first use, kept).
const absl::StatusOr<CallTemplate>& call_template(const runtime::RuntimeFunction& fn);

/// The runtime functions whose "*" template the writer spells by hand: print's
/// items, slices (their omitted bounds), ppy_dict_new (a dict or a set).
bool hand_written_call(std::string_view symbol);

/// Whether the Python backend writes a call of `fn`: its template compiles,
/// and a "*" one is spelled by hand.
bool writes_call(const runtime::RuntimeFunction& fn);

}  // namespace ppy::backends::python

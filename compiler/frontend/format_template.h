#pragma once
/// The templates of `str.format` and of `%`-formatting, parsed at compile time
/// from a literal (or a module constant): the checker types each field's
/// argument against its spec, lowering formats each field with the f-string
/// machinery. Both parse the same text with the same function, so they agree
/// on which argument each field takes.

#include <cstddef>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "ast.h"
#include "checker.h"

namespace ppy::frontend {

/// One piece of a template: literal text, or a field formatting an argument.
struct FormatPiece {
  bool field = false;
  std::string text;       ///< the literal text (not a field)
  size_t arg = 0;         ///< the argument: positional first, then keywords in call order
  char conversion = 0;    ///< 'r' or 's' (`!r`, `%r`), 0 for none
  std::string spec;       ///< the spec `format()` takes
  char percent_type = 0;  ///< a %-field's type (`d`, `s`, `f`, ...); 0 in str.format
  /// What a field reaches through its argument, `.name` / `[key]` (`{0.x}`, `{p.pos[1]}`,
  /// `{d[key]}`; `text` the field's whole name): reach_steps() reads it.
  std::string reach;
};

/// One step of a field that reaches through its argument, as python3's
/// `str.format` takes it: `.name` an attribute, `[key]` an item (CPython's
/// FieldNameIterator).
struct ReachStep {
  bool attribute = false;  ///< `.name`, else `[key]`
  std::string name;        ///< the attribute's name or the key's text
  bool index = false;      ///< a key of digits only, which python3 reads as an int
  int64_t i = 0;           ///< that int
};

/// The steps of a field's `reach`; false when python3 raises on its spelling
/// (`{0.}`, `{0[1}`: ValueError, which the run-time formatter raises).
[[nodiscard]] bool reach_steps(std::string_view reach, std::vector<ReachStep>& out);

/// What step `s` takes out of a value of type `t`, known at compile time: a
/// class's field, a tuple's element, a list's element (an int key), a dict's
/// value (a key of its key type). Error where python3 raises or the subset
/// leaves the step to the run-time formatter; then `why` says what it reaches
/// where the subset refuses it (E1010): an attribute of a builtin type (python3's
/// `{0.real}`), a method or property, an item of a str, of a dict by a key of
/// another type, or of an object.
Ty reach_type(Ty t, const ReachStep& s, std::string& why);

/// Why a template is not read at compile time: the E-code and the message
/// (Python's wording for what Python rejects, E1010 for what the subset leaves
/// out, "run" for what the run-time formatter does: nested fields, `*`,
/// `%(name)s`). All but E1010 are formatted at run time (check_format.cc).
struct FormatError {
  const char* code = "E1030";
  std::string message;
};

/// Parses `text` as `str.format`'s template for `npositional` positional
/// arguments and the keyword arguments `keywords` (in call order). False, with
/// `err` filled, when Python would raise or the subset refuses.
[[nodiscard]] bool parse_brace_template(std::string_view text, size_t npositional,
                                        const std::vector<std::string>& keywords, std::vector<FormatPiece>& out,
                                        FormatError& err);

/// Parses `text` as `%`-formatting's template for `nargs` arguments (a tuple's
/// elements, or one value). Each field's spec is the `format()` spec that
/// prints as the %-field does, given the argument converted as
/// `percent_type` says (docs/language.md, "Strings").
[[nodiscard]] bool parse_percent_template(std::string_view text, size_t nargs, std::vector<FormatPiece>& out,
                                          FormatError& err);

/// The keys a `%`-template names (`%(name)s`), each once, in order; `unnamed`
/// is set when a field takes no key (it formats the dict itself).
std::vector<std::string> percent_keys(std::string_view text, bool& unnamed);

namespace checking {
/// Whether `n` is a numeric builtin of check_number.cc (hex, round, pow...).
bool is_number_builtin(const std::string& n);
/// The value of `string.<name>` or `math.nan` (text_constants.cc); false for another name.
bool text_constant(const std::string& full, ConstInfo& c);
/// Adds the special modules' names of text: builtins.def's math functions, math.nan, string's constants.
void add_text_names(std::set<std::string>& names);
/// Whether builtins.def lists `math.<name>` (check_math.cc).
bool is_math_table_function(const std::string& name);
/// Whether `spec` (a format spec) is one Python takes for a value of type `t`
/// and the runtime formats; else the reason and its E-code (check_str.cc).
bool check_spec(const std::string& spec, Ty t, std::string& why, const char*& code);
}  // namespace checking

}  // namespace ppy::frontend

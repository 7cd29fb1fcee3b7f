// The constants of the `string` module and `math.nan` (docs/stdlib.md): their
// values, and the names the special modules add for them and for builtins.def's
// math functions.
#include <cmath>
#include <string>

#include "builtins.h"
#include "checker.h"
#include "checker_internal.h"
#include "format_template.h"

namespace ppy::frontend::checking {

bool text_constant(const std::string& full, ConstInfo& c) {
  static const std::pair<const char*, const char*> strings[] = {
      {"string.ascii_letters", "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"},
      {"string.ascii_lowercase", "abcdefghijklmnopqrstuvwxyz"},
      {"string.ascii_uppercase", "ABCDEFGHIJKLMNOPQRSTUVWXYZ"},
      {"string.digits", "0123456789"},
      {"string.hexdigits", "0123456789abcdefABCDEF"},
      {"string.octdigits", "01234567"},
      {"string.punctuation", "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"},
      {"string.whitespace", " \t\n\r\x0b\x0c"},
      {"string.printable",
       "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~ "
       "\t\n\r\x0b\x0c"},
  };
  for (const auto& [name, text] : strings)
    if (full == name) {
      c.ty = Ty::Str;
      c.s = text;
      return true;
    }
  if (full == "math.nan") {
    c.ty = Ty::Float;
    c.f = std::nan("");
    return true;
  }
  return false;
}

void add_text_names(std::set<std::string>& names) {
  for (const BuiltinMethod& m : builtin_methods())
    if (m.receiver == "math") names.insert("math." + std::string(m.name));
  names.insert({"math.nan", "string", "string.ascii_letters", "string.ascii_lowercase", "string.ascii_uppercase",
                "string.digits", "string.hexdigits", "string.octdigits", "string.punctuation", "string.whitespace",
                "string.printable"});
}

}  // namespace ppy::frontend::checking

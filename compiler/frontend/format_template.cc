#include "format_template.h"

#include <cctype>
#include <cstdio>

#include "field_init.h"
#include "ppy/util/str_cat.h"
#include "types.h"

namespace ppy::frontend {
namespace {

bool fail(FormatError& err, std::string message, const char* code = "E1030") {
  err.code = code;
  err.message = std::move(message);
  return false;
}

bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

/// Appends literal text to the last piece, or starts one.
void literal(std::vector<FormatPiece>& out, std::string_view text) {
  if (out.empty() || out.back().field) out.emplace_back();
  out.back().text += text;
}

}  // namespace

bool reach_steps(std::string_view reach, std::vector<ReachStep>& out) {
  size_t i = 0, n = reach.size();
  while (i < n) {
    ReachStep s;
    size_t j = i + 1;
    if (reach[i] == '.') {
      s.attribute = true;
      while (j < n && reach[j] != '.' && reach[j] != '[') ++j;
      s.name = std::string(reach.substr(i + 1, j - i - 1));
      i = j;
    } else if (reach[i] == '[') {
      while (j < n && reach[j] != ']') ++j;
      if (j == n) return false;  // Missing ']' in format string
      s.name = std::string(reach.substr(i + 1, j - i - 1));
      i = j + 1;
      if (i < n && reach[i] != '.' && reach[i] != '[') return false;  // Only '.' or '[' may follow ']'
    } else {
      return false;
    }
    if (s.name.empty()) return false;  // Empty attribute in format string
    if (!s.attribute && all_digits(s.name)) {
      if (s.name.size() > 18) return false;  // past an int64: the run-time formatter's IndexError
      s.index = true;
      s.i = std::stoll(s.name);
    }
    out.push_back(std::move(s));
  }
  return true;
}

Ty reach_type(Ty t, const ReachStep& s, std::string& why) {
  std::string type = ty_name(t);
  std::string a = str_cat(std::string_view("aeiou").find(type[0]) != std::string_view::npos ? "an " : "a ", type);
  if (s.attribute) {
    const ClassInfo* c = is_class(t) ? class_info(t) : nullptr;
    if (!c) {  // `{0.real}`: python3 has some
      why = str_cat("an attribute of ", a);
      return Ty::Error;
    }
    int k = c->field(s.name);
    if (k >= 0 && !s.name.starts_with("__") && !is_field_set_flag(s.name) && c->field(field_set_flag(s.name)) < 0)
      return c->fields[static_cast<size_t>(k)].second;
    if (k >= 0 || c->methods.count(s.name)) why = str_cat("a method, a property or a field set on some paths of ", a);
    return Ty::Error;  // AttributeError
  }
  if (is_tuple(t)) {
    std::vector<Ty> elems = tuple_elems(t);
    return s.index && s.i < static_cast<int64_t>(elems.size()) ? elems[static_cast<size_t>(s.i)] : Ty::Error;
  }
  if (is_list(t)) return s.index ? list_elem(t) : Ty::Error;
  if (is_dict(t) && key_of(t) == (s.index ? Ty::Int : Ty::Str)) return dict_value(t);
  if (t == Ty::Str || is_dict(t) || is_class(t) || is_optional(t))  // a str's char, an object's __getitem__
    why = str_cat("an item of ", a);
  return Ty::Error;  // TypeError: not subscriptable
}

bool parse_brace_template(std::string_view text, size_t npositional, const std::vector<std::string>& keywords,
                          std::vector<FormatPiece>& out, FormatError& err) {
  enum { Unknown, Auto, Manual } numbering = Unknown;
  size_t next_auto = 0;
  size_t i = 0, n = text.size();
  while (i < n) {
    char c = text[i];
    if (c == '}') {
      if (i + 1 < n && text[i + 1] == '}') {
        literal(out, "}");
        i += 2;
        continue;
      }
      return fail(err, "Single '}' encountered in format string");
    }
    if (c != '{') {
      size_t j = text.find_first_of("{}", i);
      if (j == std::string_view::npos) j = n;
      literal(out, text.substr(i, j - i));
      i = j;
      continue;
    }
    if (i + 1 < n && text[i + 1] == '{') {
      literal(out, "{");
      i += 2;
      continue;
    }
    if (i + 1 >= n) return fail(err, "Single '{' encountered in format string");
    // A field runs to its matching '}' (braces in its spec nest).
    size_t start = ++i;
    int depth = 1;
    for (; i < n; ++i) {
      if (text[i] == '{')
        ++depth;
      else if (text[i] == '}' && --depth == 0)
        break;
    }
    if (i >= n) return fail(err, "expected '}' before end of string");
    std::string_view body = text.substr(start, i - start);
    ++i;
    size_t name_end = body.find_first_of("!:");
    std::string_view name = body.substr(0, name_end);
    FormatPiece f;
    f.field = true;
    if (name_end != std::string_view::npos && body[name_end] == '!') {
      if (name_end + 1 >= body.size()) return fail(err, "end of string while looking for conversion specifier");
      char conv = body[name_end + 1];
      if (name_end + 2 < body.size() && body[name_end + 2] != ':')
        return fail(err, "expected ':' after conversion specifier");
      if (conv == 'a') return fail(err, "the conversion '!a' is outside the ppy subset", "E1010");
      if (conv != 'r' && conv != 's') return fail(err, str_cat("Unknown conversion specifier ", std::string(1, conv)));
      f.conversion = conv;
      name_end += 2;
    }
    if (name_end != std::string_view::npos && name_end < body.size()) f.spec = std::string(body.substr(name_end + 1));
    if (f.spec.find('{') != std::string::npos)
      return fail(err, "a nested field in a format spec (`{x:{w}}`): formatted at run time", "run");
    if (size_t cut = name.find_first_of(".["); cut != std::string_view::npos) {  // `{0.name}`, `{p[1]}`
      f.text = std::string(name);
      f.reach = std::string(name.substr(cut));
      name = name.substr(0, cut);
    }
    if (name.empty()) {
      if (numbering == Manual)
        return fail(err, "cannot switch from manual field specification to automatic field numbering");
      numbering = Auto;
      f.arg = next_auto++;
      if (f.arg >= npositional)
        return fail(err, str_cat("Replacement index ", f.arg, " out of range for positional args tuple"));
    } else if (all_digits(name)) {
      if (numbering == Auto)
        return fail(err, "cannot switch from automatic field numbering to manual field specification");
      numbering = Manual;
      if (name.size() > 9 || std::stoul(std::string(name)) >= npositional)
        return fail(err, str_cat("Replacement index ", name, " out of range for positional args tuple"));
      f.arg = std::stoul(std::string(name));
    } else {
      size_t k = 0;
      while (k < keywords.size() && keywords[k] != name) ++k;
      if (k == keywords.size()) return fail(err, str_cat("KeyError: '", name, "' (no keyword argument of that name)"));
      f.arg = npositional + k;
    }
    out.push_back(std::move(f));
  }
  return true;
}

bool parse_percent_template(std::string_view text, size_t nargs, std::vector<FormatPiece>& out, FormatError& err) {
  size_t used = 0, i = 0, n = text.size();
  while (i < n) {
    size_t j = text.find('%', i);
    if (j == std::string_view::npos) {
      literal(out, text.substr(i));
      break;
    }
    if (j > i) literal(out, text.substr(i, j - i));
    i = j + 1;
    if (i < n && text[i] == '(')
      return fail(err, "%-formatting by name (`%(name)s`): formatted at run time", "run");
    bool minus = false, plus = false, space = false, alt = false, zero = false;
    for (; i < n; ++i) {
      char c = text[i];
      if (c == '-')
        minus = true;
      else if (c == '+')
        plus = true;
      else if (c == ' ')
        space = true;
      else if (c == '#')
        alt = true;
      else if (c == '0')
        zero = true;
      else
        break;
    }
    std::string width, precision;
    bool has_precision = false;
    if (i < n && text[i] == '*') return fail(err, "a '*' width in %-formatting: formatted at run time", "run");
    while (i < n && std::isdigit(static_cast<unsigned char>(text[i]))) width += text[i++];
    if (i < n && text[i] == '.') {
      has_precision = true;
      ++i;
      if (i < n && text[i] == '*')
        return fail(err, "a '*' precision in %-formatting: formatted at run time", "run");
      while (i < n && std::isdigit(static_cast<unsigned char>(text[i]))) precision += text[i++];
      if (precision.empty()) precision = "0";
    }
    while (i < n && (text[i] == 'h' || text[i] == 'l' || text[i] == 'L')) ++i;
    if (i >= n) return fail(err, "incomplete format");
    char type = text[i++];
    if (type == '%') {
      literal(out, "%");
      continue;
    }
    FormatPiece f;
    f.field = true;
    f.arg = used++;
    f.percent_type = type == 'i' || type == 'u' ? 'd' : type;
    std::string sign = plus ? "+" : space ? " " : "";
    std::string pad = zero && !minus ? "0" : "";
    std::string left = minus ? "<" : "";
    switch (type) {
      case 'd':
      case 'i':
      case 'u':
      case 'x':
      case 'X':
      case 'o':
        if (has_precision) return fail(err, "a precision on an integer's %-field: formatted at run time", "run");
        f.spec = str_cat(left, sign, alt && type != 'd' && type != 'i' && type != 'u' ? "#" : "", pad, width,
                         std::string(1, f.percent_type));
        break;
      case 'e':
      case 'E':
      case 'f':
      case 'F':
      case 'g':
      case 'G':
        f.spec =
            str_cat(left, sign, alt ? "#" : "", pad, width, ".", has_precision ? precision : "6", std::string(1, type));
        break;
      case 's':
      case 'r':
      case 'c':
        if (type != 'c') f.conversion = type;
        if (!width.empty() || has_precision)
          f.spec = str_cat(minus ? "<" : ">", width, has_precision ? "." : "", precision);
        break;
      case 'a':
        return fail(err, "the %-field '%a': formatted at run time", "run");
      default: {
        char code[8];
        std::snprintf(code, sizeof code, "0x%x", static_cast<unsigned char>(type));
        return fail(err,
                    str_cat("unsupported format character '", std::string(1, type), "' (", code, ") at index ", i - 1));
      }
    }
    out.push_back(std::move(f));
  }
  if (used > nargs) return fail(err, "not enough arguments for format string");
  if (used < nargs) return fail(err, "not all arguments converted during string formatting");
  return true;
}

std::vector<std::string> percent_keys(std::string_view text, bool& unnamed) {
  std::vector<std::string> keys;
  for (size_t i = text.find('%'); i != std::string_view::npos && i + 1 < text.size(); i = text.find('%', i)) {
    ++i;
    if (text[i] == '%') {
      ++i;
      continue;
    }
    if (text[i] != '(') {
      unnamed = true;
      continue;
    }
    size_t start = ++i;
    int depth = 1;
    for (; i < text.size() && depth > 0; ++i) depth += text[i] == '(' ? 1 : text[i] == ')' ? -1 : 0;
    if (depth > 0) break;  // "incomplete format key", raised at run time
    std::string key(text.substr(start, i - 1 - start));
    bool seen = false;
    for (const std::string& k : keys) seen = seen || k == key;
    if (!seen) keys.push_back(std::move(key));
  }
  return keys;
}

}  // namespace ppy::frontend

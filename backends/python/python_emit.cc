// Canonical IR to Python 3 source. Each function's CFG is structured into
// while/if (backends/source); a CFG that is not is written as a block-dispatch
// loop. Integers are Python ints checked against the i64 range where the IR
// says an op raises OverflowError, so every exception python3 would raise on
// the original program is raised here with the same message.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <map>
#include <set>
#include <unordered_map>

#include "ppy/backends/python_backend.h"
#include "ppy/backends/source/structure.h"
#include "ppy/backends/source/values.h"
#include "ppy/ir/text.h"
#include "ppy/util/error.h"
#include "ppy/util/status_macros.h"
#include "ppy/util/str_cat.h"

namespace ppy::backends {
namespace {

using source::FunctionValues;
using source::Node;
using source::Seq;


/// Python's reserved words and the builtins the generated code calls.
const std::set<std::string, std::less<>>& python_reserved() {
  static const auto* r = new std::set<std::string, std::less<>>{
      "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue", "def", "del",
      "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in", "is", "lambda",
      "nonlocal", "not", "or", "pass", "raise", "return", "try", "while", "with", "yield", "match", "case",
      "print", "len", "int", "float", "bool", "abs", "min", "max", "range", "math", "list", "str", "object",
      "type", "sys", "OverflowError", "IndexError", "ZeroDivisionError", "ValueError", "AssertionError",
      "RuntimeError", "RecursionError", "MemoryError", "__name__", "self"};
  return *r;
}

/// A Python string literal for `s` (UTF-8 kept; escapes for quotes, backslash
/// and control characters).
std::string py_string(std::string_view s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20 || c == 0x7f) {
          static const char* hex = "0123456789abcdef";
          out += "\\x";
          out.push_back(hex[c >> 4]);
          out.push_back(hex[c & 15]);
        } else {
          out.push_back(static_cast<char>(c));
        }
    }
  }
  return out + "\"";
}

/// The exception and default message of a guard kind (docs/runtime.md).
std::pair<std::string, std::string> guard_exception(const ir::Operation& op) {
  static const std::map<std::string, std::pair<std::string, std::string>> kKinds = {
      {"overflow", {"OverflowError", "integer overflow"}},
      {"bounds", {"IndexError", "list index out of range"}},
      {"zero_division", {"ZeroDivisionError", "division by zero"}},
      {"range", {"ValueError", "math range error"}},
      {"contract", {"AssertionError", ""}},
      {"assert", {"AssertionError", ""}},
  };
  std::pair<std::string, std::string> what = {"RuntimeError", "guard failed"};
  if (const ir::Attribute* k = op.attr("kind"); k && k->is<std::string>())
    if (auto it = kKinds.find(k->as_string()); it != kKinds.end()) what = it->second;
  if (const ir::Attribute* m = op.attr("message"); m && m->is<std::string>()) what.second = m->as_string();
  return what;
}

std::string raise_text(const std::string& exc, const std::string& msg) {
  return msg.empty() ? str_cat("raise ", exc) : str_cat("raise ", exc, "(", py_string(msg), ")");
}

std::string_view str_attr(const ir::Operation& op, std::string_view key) {
  const ir::Attribute* a = op.attr(key);
  return a && a->is<std::string>() ? std::string_view(a->as_string()) : std::string_view();
}

bool int_type(ir::Type t) { return t.kind() == ir::TypeKind::I64 || t.kind() == ir::TypeKind::Index; }

bool raising_int(const ir::Operation& op) {
  std::string_view o = str_attr(op, "overflow");
  return o == "python" || o == "checked";
}

/// An integer division whose divisor is a constant other than -1, which
/// cannot overflow (only INT64_MIN // -1 does).
bool safe_divisor(const ir::Operation& op) {
  const ir::Operation* d = op.operand(1)->def();
  if (!d || d->name() != "core.const") return false;
  const ir::Attribute* v = d->attr("value");
  return v && v->is<int64_t>() && v->as_int() != -1;
}

/// Ops whose Python spelling needs a statement after it (the i64 range check).
bool needs_check(const ir::Operation& op) {
  const std::string& n = op.name();
  if (op.num_results() != 1 || !int_type(op.result(0)->type())) return false;
  if (n == "core.add" || n == "core.sub" || n == "core.mul" || n == "core.neg") return raising_int(op);
  if (n == "core.div") return raising_int(op) && !safe_divisor(op);
  if (n == "core.cast") return op.operand(0)->type().is_float();
  return false;
}

/// The value of an integer constant `v`, if it is one.
std::optional<int64_t> const_int(const ir::Value* v) {
  const ir::Operation* d = v->def();
  if (!d || d->name() != "core.const" || !int_type(v->type())) return std::nullopt;
  const ir::Attribute* a = d->attr("value");
  if (a && a->is<int64_t>()) return a->as_int();
  return std::nullopt;
}

/// An op whose check is `MIN <= x <= MAX` on the exact (Python) result.
bool range_checked(const ir::Operation& op) {
  const std::string& n = op.name();
  return (n == "core.add" || n == "core.sub" || n == "core.mul" || n == "core.neg") && needs_check(op);
}

/// What a range-checked `core.add`/`core.sub` adds to its other operand when
/// that is a constant's: `x + k`, `k + x`, `x - k`. The operand is in `*x`.
std::optional<__int128> constant_offset(const ir::Operation& op, const ir::Value** x) {
  if (!range_checked(op) || op.name() == "core.mul" || op.name() == "core.neg") return std::nullopt;
  if (auto k = const_int(op.operand(1))) {
    *x = op.operand(0);
    return op.name() == "core.add" ? __int128(*k) : -__int128(*k);
  }
  if (auto k = const_int(op.operand(0)); k && op.name() == "core.add") {
    *x = op.operand(1);
    return *k;
  }
  return std::nullopt;
}

/// `v` as a Python literal, in hex as the range checks write their bounds.
std::string hex_literal(__int128 v) {
  unsigned __int128 m = v < 0 ? -static_cast<unsigned __int128>(v) : static_cast<unsigned __int128>(v);
  char digits[24];
  std::snprintf(digits, sizeof digits, "0x%llX", static_cast<unsigned long long>(m));
  return str_cat(v < 0 ? "-" : "", digits);
}

/// Helpers a module defines when it uses them.
const std::map<std::string, std::string>& helper_texts() {
  static const auto* h = new std::map<std::string, std::string>{
      {"_ppy_exc",
       "_ppy_caught = [None]  # the exception the innermost try body raised\n"
       "\n"
       "\n"
       "def _ppy_exc(name, msg):\n"
       "    \"\"\"The builtin exception `name` with message `msg` (a KeyError's message is its key's repr).\"\"\"\n"
       "    import builtins\n"
       "    cls = getattr(builtins, name)\n"
       "    if name == \"KeyError\" and msg:\n"
       "        import ast\n"
       "        return cls(ast.literal_eval(msg))\n"
       "    return cls(msg) if msg else cls()\n"
       "\n"
       "\n"
       "def _ppy_exc_matches(name, cls):\n"
       "    import builtins\n"
       "    return issubclass(getattr(builtins, name), getattr(builtins, cls))\n"},
      {"_ppy_wrap",
       "def _ppy_wrap(v):\n"
       "    \"\"\"v reduced to a signed 64-bit integer (wrapping arithmetic).\"\"\"\n"
       "    return ((v + 0x8000000000000000) & 0xFFFFFFFFFFFFFFFF) - 0x8000000000000000\n"},
      {"_ppy_list_repr",
       "def _ppy_list_repr(l, d):\n"
       "    \"\"\"repr(l), its elements as the descriptor d says (docs/runtime.md): a bool may be held as 0 or "
       "1, an optional is (present, value).\"\"\"\n"
       "    return '[' + ', '.join(_ppy_repr_of(x, d) for x in l) + ']'\n"
       "\n"
       "\n"
       "def _ppy_repr_of(x, d):\n"
       "    c = d[0]\n"
       "    if c == 'b':\n"
       "        return 'True' if x else 'False'\n"
       "    if c == '[':\n"
       "        return _ppy_list_repr(x, d[1:])\n"
       "    if c == 'n':\n"
       "        return 'None'\n"
       "    if c == '?':\n"
       "        return _ppy_repr_of(x[1], d[1:]) if x[0] else 'None'\n"
       "    if c == '(':\n"
       "        parts, i = [], 1\n"
       "        for v in x:\n"
       "            e = _ppy_desc_end(d, i)\n"
       "            parts.append(_ppy_repr_of(v, d[i:e]))\n"
       "            i = e\n"
       "        return '(' + ', '.join(parts) + (',)' if len(parts) == 1 else ')')\n"
       "    return repr(x)\n"
       "\n"
       "\n"
       "def _ppy_desc_end(d, i):\n"
       "    \"\"\"Where the descriptor at d[i] ends.\"\"\"\n"
       "    if d[i] in '[?':\n"
       "        return _ppy_desc_end(d, i + 1)\n"
       "    if d[i] == '(':\n"
       "        i += 1\n"
       "        while d[i] != ')':\n"
       "            i = _ppy_desc_end(d, i)\n"
       "    return i + 1\n"},
      {"_ppy_dict_repr",
       "def _ppy_dict_repr(d, desc):\n"
       "    \"\"\"repr(d) of a dict (desc 'K:V') or a set (desc 'K'), as the runtime's: a bool may be held as 0 or "
       "1.\"\"\"\n"
       "    item = _ppy_repr_of\n"
       "    k, colon, v = desc.partition(':')\n"
       "    if not colon:\n"
       "        return '{' + ', '.join(item(x, k) for x in d) + '}' if d else 'set()'\n"
       "    return '{' + ', '.join(item(x, k) + ': ' + item(y, v) for x, y in d.items()) + '}'\n"},
      {"_ppy_dict_check",
       "def _ppy_dict_check(d, n):\n"
       "    \"\"\"A loop's step over d, begun at n entries: Python's RuntimeError when that changed.\"\"\"\n"
       "    if len(d) != n:\n"
       "        raise RuntimeError('Set changed size during iteration' if isinstance(d, set)\n"
       "                           else 'dictionary changed size during iteration')\n"},
      {"_ppy_sum_i64",
       "def _ppy_sum_i64(l):\n"
       "    \"\"\"sum(l) of ints, OverflowError past 64 bits as ppy's ints.\"\"\"\n"
       "    s = 0\n"
       "    for x in l:\n"
       "        s += x\n"
       "        if not -0x8000000000000000 <= s <= 0x7FFFFFFFFFFFFFFF:\n"
       "            raise OverflowError('integer overflow')\n"
       "    return s\n"},
      {"_ppy_str_cmp",
       "def _ppy_str_cmp(a, b):\n"
       "    \"\"\"-1, 0 or 1, as ppy_str_compare (docs/runtime.md).\"\"\"\n"
       "    return (a > b) - (a < b)\n"},
      {"_ppy_str_to_i64",
       "def _ppy_str_to_i64(s):\n"
       "    \"\"\"int(s) within 64 bits, as ppy defines it.\"\"\"\n"
       "    v = int(s)\n"
       "    if not -0x8000000000000000 <= v <= 0x7FFFFFFFFFFFFFFF:\n"
       "        raise OverflowError(\"integer overflow\")\n"
       "    return v\n"},
      {"_ppy_pow_i64",
       "def _ppy_pow_i64(base, exp):\n"
       "    \"\"\"int ** int within 64 bits, as ppy defines it.\"\"\"\n"
       "    if exp < 0:\n"
       "        raise ValueError(\"negative exponent\")\n"
       "    result = 1\n"
       "    while exp > 0:\n"
       "        if exp & 1:\n"
       "            result *= base\n"
       "            if not -0x8000000000000000 <= result <= 0x7FFFFFFFFFFFFFFF:\n"
       "                raise OverflowError(\"integer overflow\")\n"
       "        exp >>= 1\n"
       "        if exp > 0:\n"
       "            base *= base\n"
       "            if not -0x8000000000000000 <= base <= 0x7FFFFFFFFFFFFFFF:\n"
       "                raise OverflowError(\"integer overflow\")\n"
       "    return result\n"},
      {"_ppy_shl",
       "def _ppy_shl(a, b):\n"
       "    \"\"\"a << b within 64 bits: OverflowError when the result leaves them.\"\"\"\n"
       "    if a == 0:\n"
       "        return 0\n"
       "    if b < 0 or b > 63:\n"
       "        raise OverflowError(\"integer overflow\")\n"
       "    r = a << b\n"
       "    if not -0x8000000000000000 <= r <= 0x7FFFFFFFFFFFFFFF:\n"
       "        raise OverflowError(\"integer overflow\")\n"
       "    return r\n"},
      {"_ppy_shl_wrap",
       "def _ppy_shl_wrap(a, b):\n"
       "    \"\"\"a << b wrapped to 64 bits; a count outside 0..63 gives 0.\"\"\"\n"
       "    if b < 0 or b > 63:\n"
       "        return 0\n"
       "    return ((a << b) + 0x8000000000000000 & 0xFFFFFFFFFFFFFFFF) - 0x8000000000000000\n"},
      {"_ppy_shr",
       "def _ppy_shr(a, b):\n"
       "    \"\"\"a >> b; a negative count leaves only the sign, as the IR defines it.\"\"\"\n"
       "    return a >> b if b >= 0 else (-1 if a < 0 else 0)\n"},
      {"_ppy_div_trunc",
       "def _ppy_div_trunc(a, b):\n"
       "    \"\"\"Integer division rounding toward zero.\"\"\"\n"
       "    q = abs(a) // abs(b)\n"
       "    return q if (a < 0) == (b < 0) else -q\n"},
      {"_ppy_mod_trunc",
       "def _ppy_mod_trunc(a, b):\n"
       "    \"\"\"Integer remainder with the dividend's sign.\"\"\"\n"
       "    r = abs(a) % abs(b)\n"
       "    return r if a >= 0 else -r\n"},
      {"_ppy_exp",
       "def _ppy_exp(x):\n"
       "    \"\"\"math.exp with IEEE results (inf on overflow) instead of an exception.\"\"\"\n"
       "    try:\n"
       "        return math.exp(x)\n"
       "    except OverflowError:\n"
       "        return math.inf\n"},
      {"_ppy_exp2",
       "def _ppy_exp2(x):\n"
       "    \"\"\"2.0 ** x with IEEE results.\"\"\"\n"
       "    try:\n"
       "        return 2.0 ** x\n"
       "    except OverflowError:\n"
       "        return math.inf\n"},
      {"_ppy_pow",
       "def _ppy_pow(a, b):\n"
       "    \"\"\"math.pow with IEEE results instead of exceptions.\"\"\"\n"
       "    try:\n"
       "        return math.pow(a, b)\n"
       "    except OverflowError:\n"
       "        odd = b == math.floor(b) and math.fmod(b, 2.0) != 0.0\n"
       "        return -math.inf if a < 0 and odd else math.inf\n"
       "    except ValueError:\n"
       "        if a == 0.0:\n"
       "            odd = b == math.floor(b) and math.fmod(b, 2.0) != 0.0\n"
       "            return math.copysign(math.inf, a) if odd else math.inf\n"
       "        return math.nan\n"},
      {"_ppy_floor",
       "def _ppy_floor(x):\n"
       "    \"\"\"math.floor as a float (NaN and infinities pass through).\"\"\"\n"
       "    return float(math.floor(x)) if math.isfinite(x) else x\n"},
      {"_ppy_ceil",
       "def _ppy_ceil(x):\n"
       "    \"\"\"math.ceil as a float (NaN and infinities pass through).\"\"\"\n"
       "    return float(math.ceil(x)) if math.isfinite(x) else x\n"},
      {"_ppy_trunc",
       "def _ppy_trunc(x):\n"
       "    \"\"\"math.trunc as a float (NaN and infinities pass through).\"\"\"\n"
       "    return float(math.trunc(x)) if math.isfinite(x) else x\n"},
      {"_ppy_fdiv_trunc",
       "def _ppy_fdiv_trunc(a, b):\n"
       "    \"\"\"Float division rounded toward zero.\"\"\"\n"
       "    return _ppy_trunc(a / b)\n"},
  };
  return *h;
}

/// An expression and how tightly it binds (higher binds tighter).
struct Expr {
  std::string text;
  int prec;
};

enum Prec {
  kTernary = 1, kOr = 2, kAnd = 3, kNot = 4, kCmp = 5, kBitOr = 6, kBitXor = 7, kBitAnd = 8,
  kAdd = 10, kMul = 11, kUnary = 12, kPow = 13, kAtom = 20,
};

std::string paren(const Expr& e, int need) { return e.prec >= need ? e.text : str_cat("(", e.text, ")"); }

class ModuleWriter {
 public:
  explicit ModuleWriter(const ir::Module& m) : m_(m) {}

  absl::StatusOr<std::string> run() {
    // Python names of the module's functions, and the modules it calls into.
    for (auto& f : m_.functions()) {
      if (f->is_declaration()) continue;
      std::string n = source::identifier(last_part(qualname(*f)));
      if (n.empty() || python_reserved().count(n) || used_names_.count(n)) n = source::identifier(f->name());
      while (used_names_.count(n)) n += "_";
      used_names_.insert(n);
      fn_names_[f->name()] = n;
    }
    for (auto& f : m_.functions()) {
      if (!f->is_declaration()) continue;
      std::string q = qualname(*f);
      size_t dot = q.rfind('.');
      if (dot == std::string::npos) continue;
      std::string mod = q.substr(0, dot);
      std::string alias = mod;
      std::string root = mod.substr(0, mod.find('.'));
      if (used_names_.count(root)) alias = "_ppy_mod_" + source::identifier(mod);
      imports_[mod] = alias;
      fn_names_[f->name()] = str_cat(alias, ".", last_part(q));
    }
    // Python names of the module's mutable globals (module variables): the
    // source name where it is free, else the symbol's.
    for (auto& [name, g] : m_.globals()) {
      if (!g.is_mutable || !(g.type.is_scalar() || g.type.kind() == ir::TypeKind::Buffer ||
                             (g.type.is_ptr() && g.type.elem().kind() == ir::TypeKind::I8)))
        continue;
      std::string n = name;
      std::string prefix = source::identifier(m_.name()) + "_";
      if (n.starts_with(prefix)) n = n.substr(prefix.size());
      n = source::identifier(n);
      if (n.empty() || python_reserved().count(n) || used_names_.count(n)) n = source::identifier(name);
      while (used_names_.count(n) || python_reserved().count(n)) n += "_";
      used_names_.insert(n);
      global_names_[name] = n;
    }
    std::string body;
    for (auto& f : m_.functions()) {
      if (f->is_declaration()) continue;
      PPY_ASSIGN_OR_RETURN(std::string text, function(*f));
      str_append(body, "\n\n", text);
    }
    std::string out = str_cat("\"\"\"Module ", m_.name(), ", written by ppy's python backend from canonical IR.\"\"\"\n");
    bool any_import = uses_math_ || !imports_.empty();
    if (any_import) out += "\n";
    if (uses_math_) out += "import math\n";
    for (auto& [mod, alias] : imports_)
      out += alias == mod ? str_cat("import ", mod, "\n") : str_cat("import ", mod, " as ", alias, "\n");
    if (!m_.globals().empty()) {
      out += "\n";
      for (auto& [name, g] : m_.globals()) {
        if (!g.initializer) continue;
        if (auto it = global_names_.find(name); it != global_names_.end()) {
          str_append(out, it->second, " = ", attribute_literal(*g.initializer, g.type), "\n");
          continue;
        }
        std::string n = name;
        std::string prefix = source::identifier(m_.name()) + "_";
        if (n.starts_with(prefix)) n = n.substr(prefix.size());
        n = source::identifier(n);
        if (used_names_.count(n) || python_reserved().count(n)) continue;
        str_append(out, n, " = ", attribute_literal(*g.initializer, g.type), "\n");
      }
    }
    for (auto& [name, text] : helper_texts())
      if (helpers_.count(name)) str_append(out, "\n\n", text);
    out += body;
    if (const ir::Function* main = entry()) {
      str_append(out, "\n\nif __name__ == \"__main__\":\n    ", fn_names_.at(main->name()), "()\n");
    }
    return out;
  }

 private:
  static std::string qualname(const ir::Function& f) {
    const ir::Attribute* q = f.attributes().get("ppy.qualname");
    return q && q->is<std::string>() ? q->as_string() : f.name();
  }
  static std::string last_part(const std::string& q) {
    size_t dot = q.rfind('.');
    return dot == std::string::npos ? q : q.substr(dot + 1);
  }

  /// `<module>.__main__` (the module's code), else `<module>.main`, taking
  /// nothing and returning nothing, or null.
  const ir::Function* entry() const {
    for (const char* suffix : {".__main__", ".main"})
      for (auto& f : m_.functions())
        if (!f->is_declaration() && qualname(*f) == m_.name() + suffix && f->params().empty() &&
            f->results().empty())
          return f.get();
    return nullptr;
  }

  std::string attribute_literal(const ir::Attribute& a, ir::Type t) {
    if (a.is<bool>()) return t.is_float() ? (a.as_bool() ? "1.0" : "0.0") : a.as_bool() ? "True" : "False";
    if (t.is_bool()) return (a.is<int64_t>() ? a.as_int() != 0 : a.is<double>() && a.as_float() != 0) ? "True" : "False";
    if (t.is_float()) return float_literal(a.is<double>() ? a.as_float() : a.is<int64_t>() ? static_cast<double>(a.as_int()) : 0.0).text;
    if (a.is<int64_t>()) return std::to_string(a.as_int());
    if (a.is<double>()) return std::to_string(static_cast<int64_t>(a.as_float()));
    return "None";
  }

  Expr float_literal(double d) {
    if (std::isnan(d)) {
      uses_math_ = true;
      return {"math.nan", kAtom};
    }
    if (std::isinf(d)) {
      uses_math_ = true;
      return d > 0 ? Expr{"math.inf", kAtom} : Expr{"-math.inf", kUnary};
    }
    std::string s = ir::format_float(d);
    return {s, s[0] == '-' ? kUnary : kAtom};
  }

  absl::Status refuse(const ir::Operation& op, std::string what) {
    return validation_error({"python", str_cat(what, " in ", fn_->name()), "", op.loc() ? op.loc() : fn_->loc()});
  }

  // --- one function ---

  absl::StatusOr<std::string> function(const ir::Function& f) {
    fn_ = &f;
    status_ = absl::OkStatus();
    find_fused_checks(f);
    source::ValueOptions vo;
    vo.inlinable = [this](const ir::Operation& op) { return !needs_check(op) || fused_.count(&op); };
    vo.reserved = python_reserved();
    vo.coalesce_copies = true;
    for (auto& n : used_names_) vo.reserved.insert(n);
    for (auto& [mod, alias] : imports_) vo.reserved.insert(alias.substr(0, alias.find('.')));
    FunctionValues values(f, &m_, vo);
    values_ = &values;
    std::string params;
    for (auto& a : f.body().entry()->arguments())
      str_append(params, params.empty() ? "" : ", ", values.name(a.get()));
    out_.clear();
    indent_ = 1;
    // Stack slots handed to a try body (docs/runtime.md, "Exceptions") are
    // one-element lists here and there, so what it assigns is seen after it.
    cells_.clear();
    ir::walk(f.body(), [&](const ir::Operation& op) {
      if (op.name() == "core.call")
        for (const ir::Value* v : op.operands())
          if (source::is_slot(v)) cells_.insert(v);
    });
    for (auto& a : f.body().entry()->arguments())
      if (a->type().is_ptr() && a->type().ptr_space() == "stack") cells_.insert(a.get());
    for (const ir::Value* c : cells_) {
      if (!source::is_slot(c)) continue;
      bool param = false;
      for (auto& a : f.body().entry()->arguments()) param = param || values.name(a.get()) == values.name(c);
      line(str_cat(values.name(c), " = [", param ? values.name(c) : "None", "]"));
    }
    if (auto s = source::structure(f)) {
      seq(*s, /*top=*/true);
    } else {
      dispatch(f);
    }
    PPY_RETURN_IF_ERROR(status_);
    // A function that assigns module variables declares them global.
    std::set<std::string> assigned;
    ir::walk(f.body(), [&](const ir::Operation& op) {
      if (op.name() == "core.store" && op.num_operands() == 2)
        if (const std::string* g = global_of(op.operand(1))) assigned.insert(*g);
    });
    if (!assigned.empty()) {
      std::string names;
      for (auto& g : assigned) str_append(names, names.empty() ? "" : ", ", g);
      out_ = str_cat("    global ", names, "\n", out_);
    }
    if (out_.empty()) out_ = "    pass\n";
    return str_cat("def ", fn_names_.at(f.name()), "(", params, "):\n", out_);
  }

  void line(std::string_view text) {
    out_.append(static_cast<size_t>(indent_) * 4, ' ');
    out_ += text;
    out_ += "\n";
  }

  /// A suite: the statements of `s` one level in, or `pass`.
  void suite(const Seq& s) {
    ++indent_;
    size_t before = out_.size();
    seq(s, false);
    if (out_.size() == before) line("pass");
    --indent_;
  }

  /// Whether `n` writes no statement of its own (a block whose every op is
  /// inlined or a declaration).
  bool silent_block(const Node& n) {
    if (n.kind != Node::Kind::Block) return false;
    const auto& ops = n.block->operations();
    for (size_t i = 0; i + 1 < ops.size(); ++i)
      if (values_->is_statement(*ops[i])) return false;
    return true;
  }

  void seq(const Seq& s, bool top) {
    for (size_t i = 0; i < s.size(); ++i) {
      const Node& n = s[i];
      switch (n.kind) {
        case Node::Kind::Block: block_ops(*n.block); break;
        case Node::Kind::Edge: edge(*n.edge); break;
        case Node::Kind::Break: line("break"); break;
        case Node::Kind::Continue: line("continue"); break;
        case Node::Kind::Return: {
          const ir::Operation& t = *n.op;
          if (t.name() == "core.unreachable") {
            line(raise_text("RuntimeError", str_cat("@", fn_->name(), " reached core.unreachable")));
          } else if (t.num_operands() == 0) {
            if (!(top && i + 1 == s.size())) line("return");
          } else {
            std::string vals;
            for (const ir::Value* v : t.operands()) str_append(vals, vals.empty() ? "" : ", ", expr(v).text);
            line("return " + vals);
          }
          break;
        }
        case Node::Kind::If: if_stmt(n, false); break;
        case Node::Kind::Loop: loop(n); break;
      }
    }
  }

  // --- what a branch says of integers: bounds that make a check needless ---

  /// Bounds known to hold of integer values where the writer is (inclusive).
  struct Bounds {
    std::map<const ir::Value*, int64_t> upper, lower;
  };


  /// What `c` being `truth` says: `a < b` gives a <= b - 1 and b >= a + 1.
  Bounds implied(const ir::Value* c, bool truth) {
    Bounds b;
    const ir::Operation* d = c->def();
    if (!d || d->name() != "core.cmp" || !int_type(d->operand(0)->type())) return b;
    std::string p(str_attr(*d, "predicate"));
    if (!truth) {
      static const std::map<std::string, std::string> kInverse = {
          {"eq", "ne"}, {"ne", "eq"}, {"lt", "ge"}, {"le", "gt"}, {"gt", "le"}, {"ge", "lt"}};
      auto it = kInverse.find(p);
      if (it == kInverse.end()) return b;
      p = it->second;
    }
    const ir::Value* x = d->operand(0);
    const ir::Value* y = d->operand(1);
    if (p == "gt" || p == "ge") {
      std::swap(x, y);
      p = p == "gt" ? "lt" : "le";
    }
    constexpr int64_t kMax = INT64_MAX, kMin = INT64_MIN;
    auto kx = const_int(x), ky = const_int(y);
    if (p == "lt") {  // x < y
      b.upper[x] = ky ? *ky - 1 : kMax - 1;
      b.lower[y] = kx ? *kx + 1 : kMin + 1;
      if (ky && *ky == kMin) b.upper.erase(x);
      if (kx && *kx == kMax) b.lower.erase(y);
    } else if (p == "le") {  // x <= y
      if (ky) b.upper[x] = *ky;
      if (kx) b.lower[y] = *kx;
    } else if (p == "eq") {
      if (ky) b.upper[x] = b.lower[x] = *ky;
      if (kx) b.upper[y] = b.lower[y] = *kx;
    }
    return b;
  }

  /// Runs `body` with `more` known, then forgets it.
  template <class F>
  void knowing(const Bounds& more, F&& body) {
    Bounds saved = bounds_;
    for (auto& [v, u] : more.upper)
      if (!bounds_.upper.count(v) || u < bounds_.upper[v]) bounds_.upper[v] = u;
    for (auto& [v, l] : more.lower)
      if (!bounds_.lower.count(v) || l > bounds_.lower[v]) bounds_.lower[v] = l;
    body();
    bounds_ = std::move(saved);
  }

  /// Whether `v + k` stays within i64, by what is known of v.
  bool add_fits(const ir::Value* v, int64_t k) {
    if (auto c = const_int(v)) {
      int64_t r;
      return !__builtin_add_overflow(*c, k, &r);
    }
    if (k >= 0) {
      auto it = bounds_.upper.find(v);
      return it != bounds_.upper.end() && it->second <= INT64_MAX - k;
    }
    auto it = bounds_.lower.find(v);
    return it != bounds_.lower.end() && it->second >= INT64_MIN - k;
  }

  /// An overflow-checked op that cannot overflow here (`i + 1` under `i < n`).
  bool cannot_overflow(const ir::Operation& op) {
    const std::string& n = op.name();
    if (n != "core.add" && n != "core.sub") return false;
    auto k1 = const_int(op.operand(1));
    if (n == "core.add") {
      if (k1) return add_fits(op.operand(0), *k1);
      if (auto k0 = const_int(op.operand(0))) return add_fits(op.operand(1), *k0);
      return false;
    }
    return k1 && *k1 != INT64_MIN && add_fits(op.operand(0), -*k1);
  }

  void if_stmt(const Node& n, bool elif) {
    const ir::Value* c = n.op->operand(0);
    const Seq* then_s = &n.then_seq;
    const Seq* else_s = &n.else_seq;
    Expr cond = expr(c);
    bool then_truth = true;
    if (then_s->empty() && !else_s->empty()) {
      cond = negate(c);
      std::swap(then_s, else_s);
      then_truth = false;
    }
    if (then_s->empty() && else_s->empty()) {
      if (source::effects_of(*n.op).any() || (values_->inlined(c) && tree_has_effects(c))) line(str_cat("if ", cond.text, ":"));
      else return;
      ++indent_;
      line("pass");
      --indent_;
      return;
    }
    line(str_cat(elif ? "elif " : "if ", cond.text, ":"));
    knowing(implied(c, then_truth), [&] { suite(*then_s); });
    if (else_s->empty()) return;
    knowing(implied(c, !then_truth), [&] {
      // `else:` holding only a silent block and another if: `elif`.
      if (else_s->size() == 2 && silent_block((*else_s)[0]) && (*else_s)[1].kind == Node::Kind::If) {
        (void)block_ops(*(*else_s)[0].block);
        if_stmt((*else_s)[1], true);
        return;
      }
      // An else whose copies all went (coalesced) is not written.
      size_t before = out_.size();
      line("else:");
      size_t body = out_.size();
      suite(*else_s);
      if (std::string_view(out_).substr(body) == str_cat(std::string((indent_ + 1) * 4, ' '), "pass\n"))
        out_.resize(before);
    });
  }

  bool tree_has_effects(const ir::Value* v) {
    const ir::Operation* d = v->def();
    if (!d || !values_->inlined(v)) return false;
    if (source::effects_of(*d, &m_).any()) return true;
    for (const ir::Value* o : d->operands())
      if (tree_has_effects(o)) return true;
    return false;
  }

  void loop(const Node& n) {
    // `while True:` whose body starts with a silent header and an if one arm
    // of which only breaks: `while cond:` over the other arm.
    const Seq& b = n.body;
    if (b.size() == 2 && silent_block(b[0]) && b[1].kind == Node::Kind::If) {
      const Node& i = b[1];
      auto only_break = [](const Seq& s) { return s.size() == 1 && s[0].kind == Node::Kind::Break; };
      const ir::Value* c = i.op->operand(0);
      if (only_break(i.else_seq)) {
        if (for_range(n, c, i.then_seq)) return;
        line(str_cat("while ", expr(c).text, ":"));
        knowing(implied(c, true), [&] { suite(i.then_seq); });
        return;
      }
      if (only_break(i.then_seq)) {
        line(str_cat("while ", negate(c).text, ":"));
        knowing(implied(c, false), [&] { suite(i.else_seq); });
        return;
      }
    }
    line("while True:");
    suite(b);
  }

  /// Every edge in `s` (nested statements too) that goes to `header`.
  static void edges_to(const Seq& s, const ir::Block* header, std::vector<const ir::Successor*>& out) {
    for (const Node& n : s) {
      if (n.kind == Node::Kind::Edge && n.edge->block == header) out.push_back(n.edge);
      edges_to(n.then_seq, header, out);
      edges_to(n.else_seq, header, out);
      edges_to(n.body, header, out);
    }
  }

  /// `while i < n:` whose every way back to the header passes `i + 1` for i,
  /// with n fixed outside the loop and i not read after it, is
  /// `for i in range(i, n):` (Python counts, and i + 1 cannot overflow below n).
  bool for_range(const Node& loop, const ir::Value* c, const Seq& body) {
    const ir::Block* header = loop.block;
    const ir::Operation* cmp = c->def();
    if (!values_->inlined(c) || !cmp || cmp->name() != "core.cmp" || str_attr(*cmp, "predicate") != "lt") return false;
    const ir::Value* i = cmp->operand(0);
    const ir::Value* n = cmp->operand(1);
    if (i->arg_owner() != header || !int_type(i->type())) return false;
    size_t k = i->index();
    // n: a variable set before the loop (or a literal), never inside it.
    std::set<const ir::Block*> inside;
    collect_blocks(loop.body, inside);
    if (const ir::Operation* nd = n->def()) {
      if (nd->name() != "core.const" && (values_->inlined(n) || inside.count(nd->parent()))) return false;
    } else if (inside.count(n->arg_owner())) {
      return false;
    }
    std::vector<const ir::Successor*> back;
    edges_to(body, header, back);
    if (back.empty()) return false;
    std::set<const ir::Operation*> steps;
    for (const ir::Successor* e : back) {
      const ir::Value* next = e->args.at(k);
      const ir::Operation* add = next->def();
      if (!add || add->name() != "core.add" || add->operand(0) != i || const_int(add->operand(1)) != 1) return false;
      steps.insert(add);
    }
    // i read only inside the loop (its header included).
    bool outside = false;
    for (auto& blk : fn_->body().blocks()) {
      if (inside.count(blk.get()) || blk.get() == header) continue;
      for (auto& op : blk->operations()) {
        for (const ir::Value* v : op->operands()) outside = outside || v == i;
        for (auto& s : op->successors())
          for (const ir::Value* v : s.args) outside = outside || v == i;
      }
    }
    // Nor by the header's branch out: Python leaves i at n - 1, not n, when the loop ends.
    for (auto& s : loop.body[1].op->successors()) {
      if (inside.count(s.block)) continue;
      std::set<const ir::Value*> read;
      for (const ir::Value* v : s.args) values_->variables_read(v, read);
      outside = outside || read.count(i);
    }
    if (outside) return false;
    // The steps are needless where their only reads are those edges.
    for (const ir::Operation* add : steps)
      if (values_->uses(add->result(0)) == static_cast<int>(std::count_if(back.begin(), back.end(), [&](auto* e) {
            return e->args.at(k) == add->result(0);
          })))
        skip_ops_.insert(add);
    skip_moves_.insert({header, k});
    const std::string& name = values_->name(i);
    line(str_cat("for ", name, " in range(", name, ", ", expr(n).text, "):"));
    knowing(implied(c, true), [&] { suite(body); });
    skip_moves_.erase({header, k});
    return true;
  }

  static void collect_blocks(const Seq& s, std::set<const ir::Block*>& out) {
    for (const Node& n : s) {
      if (n.block) out.insert(n.block);
      collect_blocks(n.then_seq, out);
      collect_blocks(n.else_seq, out);
      collect_blocks(n.body, out);
    }
  }

  /// The fallback for a CFG that is not structurable: a loop over a block
  /// number, one `if` per block.
  void dispatch(const ir::Function& f) {
    auto blocks = source::reachable_blocks(f);
    std::map<const ir::Block*, size_t> number;
    for (size_t i = 0; i < blocks.size(); ++i) number[blocks[i]] = i;
    line("_block = 0");
    line("while True:");
    ++indent_;
    for (size_t i = 0; i < blocks.size(); ++i) {
      line(str_cat(i == 0 ? "if" : "elif", " _block == ", i, ":"));
      ++indent_;
      const ir::Block& b = *blocks[i];
      block_ops(b);
      const ir::Operation& t = *b.terminator();
      auto go = [&](const ir::Successor& s) {
        edge(s);
        line(str_cat("_block = ", number.at(s.block)));
      };
      if (t.name() == "core.br") {
        go(t.successors()[0]);
      } else if (t.name() == "core.cond_br") {
        line(str_cat("if ", expr(t.operand(0)).text, ":"));
        ++indent_;
        go(t.successors()[0]);
        --indent_;
        line("else:");
        ++indent_;
        go(t.successors()[1]);
        --indent_;
      } else if (t.name() == "core.unreachable") {
        line(raise_text("RuntimeError", str_cat("@", f.name(), " reached core.unreachable")));
      } else {
        std::string vals;
        for (const ir::Value* v : t.operands()) str_append(vals, vals.empty() ? "" : ", ", expr(v).text);
        line(vals.empty() ? "return" : "return " + vals);
      }
      --indent_;
    }
    --indent_;
  }

  void edge(const ir::Successor& s) {
    auto moves = values_->moves(s);
    if (moves.empty()) return;
    std::string lhs, rhs;
    for (auto& [to, from] : moves) {
      if (skip_moves_.count({s.block, to->index()})) continue;
      str_append(lhs, lhs.empty() ? "" : ", ", values_->name(to));
      str_append(rhs, rhs.empty() ? "" : ", ", expr(from).text);
    }
    if (!lhs.empty()) line(str_cat(lhs, " = ", rhs));
  }

  // --- ops ---

  void block_ops(const ir::Block& b) {
    const auto& ops = b.operations();
    std::vector<PrintItem> prints;
    for (size_t i = 0; i + 1 < ops.size(); ++i) {
      const ir::Operation& op = *ops[i];
      if (!values_->is_statement(op) || skip_ops_.count(&op)) continue;
      if (auto item = print_item(op)) {
        // An argument computed with effects (a call, a raise) is computed here,
        // after what was printed before it: a print() of its own.
        if (item->kind == PrintItem::Value && tree_has_effects(op.operand(0))) flush_prints(prints);
        prints.push_back(*item);
        continue;
      }
      flush_prints(prints);
      statement(op);
    }
    flush_prints(prints);
  }

  struct PrintItem {
    enum Kind { Value, Text, Space, Newline } kind;
    std::string text;  ///< an expression (Value) or the literal text (Text)
  };

  std::optional<PrintItem> print_item(const ir::Operation& op) {
    if (op.name() != "core.call_extern") return std::nullopt;
    std::string_view c = str_attr(op, "callee");
    if (c == "ppy_print_i64" || c == "ppy_print_f64" || c == "ppy_print_bool")
      return PrintItem{PrintItem::Value, expr(op.operand(0)).text};
    if (c == "ppy_print_str") return PrintItem{PrintItem::Text, std::string(str_attr(op, "text"))};
    if (c == "ppy_print_string") return PrintItem{PrintItem::Value, expr(op.operand(0)).text};
    if (c == "ppy_print_space") return PrintItem{PrintItem::Space, ""};
    if (c == "ppy_print_newline") return PrintItem{PrintItem::Newline, ""};
    return std::nullopt;
  }

  /// Consecutive print pieces as `print(...)` calls, one per line printed.
  void flush_prints(std::vector<PrintItem>& items) {
    size_t start = 0;
    while (start < items.size()) {
      size_t end = start;
      while (end < items.size() && items[end].kind != PrintItem::Newline) ++end;
      bool newline = end < items.size();
      print_call(std::span<const PrintItem>(items.data() + start, end - start), newline);
      start = newline ? end + 1 : end;
    }
    items.clear();
  }

  void print_call(std::span<const PrintItem> items, bool newline) {
    auto arg = [](const PrintItem& it) { return it.kind == PrintItem::Value ? it.text : py_string(it.text); };
    // print(a, b, c): arguments separated by single spaces.
    bool spaced = items.size() % 2 == 1;
    for (size_t i = 0; i < items.size() && spaced; ++i)
      spaced = (i % 2 == 1) == (items[i].kind == PrintItem::Space);
    std::vector<std::string> args;
    if (spaced) {
      for (size_t i = 0; i < items.size(); i += 2) args.push_back(arg(items[i]));
    } else {
      // Pieces printed back to back: adjacent texts joined, no separator.
      std::string text;
      bool have_text = false;
      for (const PrintItem& it : items) {
        if (it.kind == PrintItem::Value) {
          if (have_text) args.push_back(py_string(text));
          text.clear();
          have_text = false;
          args.push_back(it.text);
        } else {
          text += it.kind == PrintItem::Space ? " " : it.text;
          have_text = true;
        }
      }
      if (have_text) args.push_back(py_string(text));
      if (args.size() > 1) args.push_back("sep=\"\"");
    }
    if (!newline) args.push_back("end=\"\"");
    std::string joined;
    for (auto& a : args) str_append(joined, joined.empty() ? "" : ", ", a);
    line(str_cat("print(", joined, ")"));
  }

  void statement(const ir::Operation& op) {
    const std::string& n = op.name();
    if (n == "core.store") {
      const ir::Value* slot = op.operand(1);
      if (const std::string* g = global_of(slot)) {
        line(str_cat(*g, " = ", expr(op.operand(0)).text));
        return;
      }
      if (op.operand(0)->type().kind() == ir::TypeKind::Struct) {  // an object's fields (docs/runtime.md,
                                                                   // "Objects")
        line(str_cat(paren(expr(slot), kAtom), "[:", op.operand(0)->type().storage()->fields.size(),
                     "] = ", expr(op.operand(0)).text));
        return;
      }
      if (!source::is_slot(slot) && !cells_.count(slot)) return fail(op, "a store through a pointer");
      const ir::Value* v = op.operand(0);
      if (!values_->inlined(v) && values_->name(v) == values_->name(slot)) return;
      line(str_cat(values_->name(slot), cells_.count(slot) ? "[0]" : "", " = ", expr(v).text));
      return;
    }
    if (n == "core.buffer_store") {
      line(str_cat(paren(expr(op.operand(1)), kAtom), "[", expr(op.operand(2)).text, "] = ", expr(op.operand(0)).text));
      return;
    }
    if (n == "core.call") {
      const ir::Attribute* cs = op.attr("capture_status");
      if (cs && cs->is<bool>() && cs->as_bool()) return capture(op);
    }
    if (n == "core.guard") {
      auto [exc, msg] = guard_exception(op);
      line(str_cat("if ", negate(op.operand(0)).text, ":"));
      ++indent_;
      line(raise_text(exc, msg));
      --indent_;
      return;
    }
    if (op.num_results() == 0 || (op.num_results() == 1 && values_->uses(op.result(0)) == 0 && !needs_check(op))) {
      Expr e = op_expr(op);
      if (!e.text.empty()) line(e.text);
      return;
    }
    if (op.num_results() != 1) return fail(op, str_cat(n, " with ", op.num_results(), " results"));
    const std::string& name = values_->name(op.result(0));
    line(str_cat(name, " = ", op_expr(op).text));
    if (needs_check(op) && (covers_inner(op) || !cannot_overflow(op))) {
      line(check_text(op, name));
      ++indent_;
      line(raise_text("OverflowError", "integer overflow"));
      --indent_;
    }
  }

  void fail(const ir::Operation& op, std::string what) {
    if (status_.ok()) status_ = refuse(op, std::move(what));
  }

  /// `v` read: its variable, or the expression it is written as.
  Expr expr(const ir::Value* v) {
    if (!values_->inlined(v)) return {values_->name(v), kAtom};
    return op_expr(*v->def());
  }

  /// `not v`, with comparisons of integers turned around instead.
  Expr negate(const ir::Value* v) {
    const ir::Operation* d = v->def();
    if (d && values_->inlined(v)) {
      if (d->name() == "core.cmp" && !d->operand(0)->type().is_float()) {
        static const std::map<std::string, std::string> kInverse = {
            {"eq", "!="}, {"ne", "=="}, {"lt", ">="}, {"le", ">"}, {"gt", "<="}, {"ge", "<"}};
        auto it = kInverse.find(std::string(str_attr(*d, "predicate")));
        if (it != kInverse.end())
          return {str_cat(paren(expr(d->operand(0)), kCmp + 1), " ", it->second, " ", paren(expr(d->operand(1)), kCmp + 1)),
                  kCmp};
      }
      if (d->name() == "core.xor" && d->result(0)->type().is_bool() && is_true(d->operand(1))) return expr(d->operand(0));
      if (d->name() == "core.const" && d->result(0)->type().is_bool()) return {truthy(*d) ? "False" : "True", kAtom};
    }
    return {str_cat("not ", paren(expr(v), kNot)), kNot};
  }

  static bool truthy(const ir::Operation& c) {
    const ir::Attribute* a = c.attr("value");
    if (!a) return false;
    if (a->is<bool>()) return a->as_bool();
    if (a->is<int64_t>()) return a->as_int() != 0;
    return a->is<double>() && a->as_float() != 0;
  }
  static bool is_true(const ir::Value* v) {
    const ir::Operation* d = v->def();
    return d && d->name() == "core.const" && v->type().is_bool() && truthy(*d);
  }

  Expr binary(const ir::Operation& op, const char* sym, int prec) {
    return {str_cat(paren(expr(op.operand(0)), prec), " ", sym, " ", paren(expr(op.operand(1)), prec + 1)), prec};
  }
  Expr call(std::string_view fn, std::initializer_list<const ir::Value*> args) {
    std::string a;
    for (const ir::Value* v : args) str_append(a, a.empty() ? "" : ", ", expr(v).text);
    return {str_cat(fn, "(", a, ")"), kAtom};
  }
  Expr helper(const char* name, std::initializer_list<const ir::Value*> args) {
    helpers_.insert(name);
    std::string_view h = name;
    if (h != "_ppy_wrap" && h != "_ppy_pow_i64" && !h.ends_with("_trunc") && !h.starts_with("_ppy_sh"))
      uses_math_ = true;
    if (std::string_view(name) == "_ppy_fdiv_trunc") {
      helpers_.insert("_ppy_trunc");
      uses_math_ = true;
    }
    return call(name, args);
  }
  Expr wrapped(Expr e, const ir::Operation& op) {
    if (!int_type(op.result(0)->type()) || raising_int(op) || str_attr(op, "overflow") == "proven") return e;
    helpers_.insert("_ppy_wrap");
    return {str_cat("_ppy_wrap(", e.text, ")"), kAtom};
  }

  Expr op_expr(const ir::Operation& op) {
    const std::string& n = op.name();
    ir::Type rt = op.num_results() ? op.result(0)->type() : ir::Type::void_();
    if (n == "core.const") {
      const ir::Attribute* a = op.attr("value");
      if (!a) return {"0", kAtom};
      std::string s = attribute_literal(*a, rt);
      if (rt.is_float()) {
        double d = a->is<double>() ? a->as_float() : a->is<int64_t>() ? static_cast<double>(a->as_int()) : 0.0;
        return float_literal(d);
      }
      return {s, s[0] == '-' ? kUnary : kAtom};
    }
    if (n == "core.shl")
      return helper(raising_int(op) ? "_ppy_shl" : "_ppy_shl_wrap", {op.operand(0), op.operand(1)});
    if (n == "core.shr") return helper("_ppy_shr", {op.operand(0), op.operand(1)});
    if (n == "core.add") return wrapped(binary(op, "+", kAdd), op);
    if (n == "core.sub") return wrapped(binary(op, "-", kAdd), op);
    if (n == "core.mul") return wrapped(binary(op, "*", kMul), op);
    if (n == "core.neg") return wrapped({str_cat("-", paren(expr(op.operand(0)), kUnary)), kUnary}, op);
    if (n == "core.div" || n == "core.mod") {
      bool div = n == "core.div";
      std::string_view r = str_attr(op, "rounding");
      if (rt.is_float()) {
        if (div && r.empty()) return binary(op, "/", kMul);
        if (r == "floor") return binary(op, div ? "//" : "%", kMul);
        if (div) return helper("_ppy_fdiv_trunc", {op.operand(0), op.operand(1)});
        uses_math_ = true;
        return call("math.fmod", {op.operand(0), op.operand(1)});
      }
      Expr e = r == "floor" ? binary(op, div ? "//" : "%", kMul)
                            : helper(div ? "_ppy_div_trunc" : "_ppy_mod_trunc", {op.operand(0), op.operand(1)});
      return div && !safe_divisor(op) ? wrapped(e, op) : e;
    }
    if (n == "core.and" || n == "core.or") {
      bool is_and = n == "core.and";
      // Booleans read as `and` / `or` when skipping the right side changes nothing.
      if (rt.is_bool() && !tree_has_effects(op.operand(1)))
        return binary(op, is_and ? "and" : "or", is_and ? kAnd : kOr);
      return binary(op, is_and ? "&" : "|", is_and ? kBitAnd : kBitOr);
    }
    if (n == "core.xor") {
      if (rt.is_bool() && is_true(op.operand(1))) return {str_cat("not ", paren(expr(op.operand(0)), kNot)), kNot};
      return binary(op, "^", kBitXor);
    }
    if (n == "core.cmp") {
      static const std::map<std::string, std::string> kSym = {{"eq", "=="}, {"ne", "!="}, {"lt", "<"},
                                                              {"le", "<="}, {"gt", ">"},  {"ge", ">="}};
      auto it = kSym.find(std::string(str_attr(op, "predicate")));
      if (it == kSym.end()) return fail(op, "core.cmp without a predicate"), Expr{"False", kAtom};
      std::string sym = it->second;
      if (op.operand(0)->type().is_ptr() && (sym == "==" || sym == "!="))
        sym = sym == "==" ? "is" : "is not";  // handles (objects) compare by identity
      return {str_cat(paren(expr(op.operand(0)), kCmp + 1), " ", sym, " ", paren(expr(op.operand(1)), kCmp + 1)), kCmp};
    }
    if (n == "core.select")
      return {str_cat(paren(expr(op.operand(1)), kTernary + 1), " if ", paren(expr(op.operand(0)), kTernary + 1), " else ",
                      paren(expr(op.operand(2)), kTernary)),
              kTernary};
    if (n == "core.cast") return cast(op);
    if (n == "core.struct_make") {
      std::string a;
      for (const ir::Value* v : op.operands()) str_append(a, a.empty() ? "" : ", ", expr(v).text);
      return {str_cat("(", a, op.num_operands() == 1 ? ",)" : ")"), kAtom};
    }
    if (n == "core.struct_extract") {
      const ir::Attribute* f = op.attr("field");
      ir::Type st = op.operand(0)->type();
      int64_t ix = f && f->is<int64_t>() ? f->as_int() : 0;
      if (f && f->is<std::string>())
        for (size_t k = 0; k < st.storage()->fields.size(); ++k)
          if (st.storage()->fields[k].name == f->as_string()) ix = static_cast<int64_t>(k);
      return {str_cat(paren(expr(op.operand(0)), kAtom), "[", ix, "]"), kAtom};
    }
    if (n == "core.tuple_make") {
      std::string a;
      for (const ir::Value* v : op.operands()) str_append(a, a.empty() ? "" : ", ", expr(v).text);
      return {str_cat("(", a, op.num_operands() == 1 ? ",)" : ")"), kAtom};
    }
    if (n == "core.tuple_extract") {
      const ir::Attribute* ix = op.attr("index");
      return {str_cat(paren(expr(op.operand(0)), kAtom), "[", ix && ix->is<int64_t>() ? ix->as_int() : 0, "]"), kAtom};
    }
    if (n == "core.load") {
      if (op.result(0)->type().kind() == ir::TypeKind::Struct) return call("tuple", {op.operand(0)});
      if (const std::string* g = global_of(op.operand(0))) return {*g, kAtom};
      if (cells_.count(op.operand(0))) return {values_->name(op.operand(0)) + "[0]", kAtom};
      return {values_->name(op.operand(0)), kAtom};
    }
    if (n == "core.buffer_load")
      return {str_cat(paren(expr(op.operand(0)), kAtom), "[", expr(op.operand(1)).text, "]"), kAtom};
    if (n == "core.buffer_len") return call("len", {op.operand(0)});
    if (n == "core.call") {
      const ir::Attribute* c = op.attr("callee");
      std::string name = c && c->is<ir::SymbolRef>() ? c->as_symbol().name : "";
      auto it = fn_names_.find(name);
      if (it == fn_names_.end()) return fail(op, str_cat("a call to @", name, ", which the module does not declare")), Expr{"None", kAtom};
      std::string a;
      for (const ir::Value* v : op.operands()) str_append(a, a.empty() ? "" : ", ", expr(v).text);
      return {str_cat(it->second, "(", a, ")"), kAtom};
    }
    if (n == "core.call_extern") {
      std::string_view c = str_attr(op, "callee");
      if (c == "ppy_pow_i64") return helper("_ppy_pow_i64", {op.operand(0), op.operand(1)});
      if (c == "ppy_list_new_i64" || c == "ppy_list_new_f64")
        return {str_cat(c == "ppy_list_new_i64" ? "[0]" : "[0.0]", " * ", paren(expr(op.operand(0)), kMul + 1)), kMul};
      if (c == "ppy_str_join")
        return {str_cat(paren(expr(op.operand(0)), kAtom), ".join(", expr(op.operand(1)).text, ")"), kAtom};
      if (c == "ppy_str_split" || c == "ppy_str_split_ws")
        return {str_cat(paren(expr(op.operand(0)), kAtom), ".split(",
                        c == "ppy_str_split" ? expr(op.operand(1)).text : "", ")"),
                kAtom};
      if (c.starts_with("ppy_str_")) return string_op(op, c);
      if (c.starts_with("ppy_exc_")) return exc_op(op, c);
      // An object is a Python list: its type id, then its fields
      // (docs/runtime.md, "Objects").
      if (c == "ppy_obj_new")
        return {str_cat("[", expr(op.operand(1)).text, "] + [None] * (", paren(expr(op.operand(0)), kMul + 1),
                        " // 8 - 1)"),
                kAdd};
      if (c == "ppy_obj_null") return {"None", kAtom};
      // Lists are Python lists (docs/runtime.md, "Lists").
      if (c == "ppy_list_new_ptr") return {str_cat("[None] * ", paren(expr(op.operand(0)), kMul + 1)), kMul};
      if (c.starts_with("ppy_list_append_"))
        return {str_cat(paren(expr(op.operand(0)), kAtom), ".append(", expr(op.operand(1)).text, ")"), kAtom};
      if (c.starts_with("ppy_list_pop_at_"))
        return {str_cat(paren(expr(op.operand(0)), kAtom), ".pop(", expr(op.operand(1)).text, ")"), kAtom};
      if (c.starts_with("ppy_list_pop_")) return {str_cat(paren(expr(op.operand(0)), kAtom), ".pop()"), kAtom};
      if (c == "ppy_list_sort" || c == "ppy_list_reverse" || c == "ppy_list_clear")
        return {str_cat(paren(expr(op.operand(0)), kAtom), ".", c.substr(9), "()"), kAtom};
      if (c.starts_with("ppy_list_index_") || c.starts_with("ppy_list_count_") || c.starts_with("ppy_list_remove_")) {
        std::string_view m = c.substr(9, c.find('_', 9) - 9);
        return {str_cat(paren(expr(op.operand(0)), kAtom), ".", m, "(", expr(op.operand(1)).text, ")"), kAtom};
      }
      if (c == "ppy_list_repr") return helper("_ppy_list_repr", {op.operand(0), op.operand(1)});
      auto arg = [&](size_t i, int prec) { return paren(expr(op.operand(i)), prec); };
      if (c.starts_with("ppy_list_insert_"))
        return {str_cat(arg(0, kAtom), ".insert(", expr(op.operand(1)).text, ", ", expr(op.operand(2)).text, ")"),
                kAtom};
      if (c == "ppy_list_extend") return {str_cat(arg(0, kAtom), ".extend(", expr(op.operand(1)).text, ")"), kAtom};
      if (c == "ppy_list_slice") return string_op(op, "ppy_str_slice");  // the same subscript
      if (c == "ppy_list_concat") return {str_cat(arg(0, kAdd), " + ", arg(1, kAdd + 1)), kAdd};
      if (c.starts_with("ppy_list_contains_"))
        return {str_cat("int(", arg(1, kCmp + 1), " in ", arg(0, kCmp + 1), ")"), kAtom};
      if (c == "ppy_list_sorted") return call("sorted", {op.operand(0)});
      if (c == "ppy_list_sum_i64") return helper("_ppy_sum_i64", {op.operand(0)});
      if (c == "ppy_list_sum_from_i64") {
        helpers_.insert("_ppy_sum_i64");
        return {str_cat("_ppy_sum_i64([", expr(op.operand(1)).text, "] + ", paren(expr(op.operand(0)), kAdd + 1), ")"),
                kAtom};
      }
      if (c == "ppy_list_sum_from_f64")
        return {str_cat("sum(", expr(op.operand(0)).text, ", ", expr(op.operand(1)).text, ")"), kAtom};
      if (c == "ppy_list_sum_f64") return {str_cat("sum(", expr(op.operand(0)).text, ", 0.0)"), kAtom};
      if (c.starts_with("ppy_list_min_"))
        return {str_cat("(max if ", arg(1, kCmp), " else min)(", expr(op.operand(0)).text, ")"), kAtom};
      if (c == "ppy_list_root") return {"", kAtom};  // Python's globals need no root: no line
      if (c == "ppy_list_lt" || c == "ppy_list_le" || c == "ppy_list_gt" || c == "ppy_list_ge") {
        std::string_view sym = c == "ppy_list_lt" ? "<" : c == "ppy_list_le" ? "<=" : c == "ppy_list_gt" ? ">" : ">=";
        return {str_cat("int(", paren(expr(op.operand(0)), kCmp + 1), " ", sym, " ",
                        paren(expr(op.operand(1)), kCmp + 1), ")"),
                kAtom};
      }
      if (c == "ppy_list_eq")
        return {
            str_cat("int(", paren(expr(op.operand(0)), kCmp + 1), " == ", paren(expr(op.operand(1)), kCmp + 1), ")"),
            kAtom};
      if (c.starts_with("ppy_dict_") || c.starts_with("ppy_set_")) return dict_op(op, c);
      return fail(op, str_cat("the runtime function '", c, "'")), Expr{"None", kAtom};
    }
    if (op.dialect() == "math") return math(op);
    fail(op, n);
    return {"None", kAtom};
  }

  /// `core.call {capture_status = true}` (a try body): a real try statement;
  /// the status is 1 when it raised, and the exception is kept for ppy_exc_*.
  void capture(const ir::Operation& op) {
    const ir::Attribute* c = op.attr("callee");
    std::string name = c && c->is<ir::SymbolRef>() ? c->as_symbol().name : "";
    auto it = fn_names_.find(name);
    if (it == fn_names_.end() || op.num_results() != 2) return fail(op, str_cat("a capture_status call of @", name));
    helpers_.insert("_ppy_exc");
    std::string a;
    for (const ir::Value* v : op.operands())
      str_append(a, a.empty() ? "" : ", ", cells_.count(v) ? values_->name(v) : expr(v).text);
    auto target = [&](const ir::Value* r) { return values_->uses(r) ? values_->name(r) : std::string("_"); };
    line("try:");
    ++indent_;
    line(str_cat(target(op.result(0)), " = ", it->second, "(", a, ")"));
    line(str_cat(target(op.result(1)), " = 0"));
    --indent_;
    line("except Exception as _ppy_e:");
    ++indent_;
    line("_ppy_caught[0] = _ppy_e");
    line(str_cat(target(op.result(1)), " = 1"));
    --indent_;
  }

  /// A dict or set function of the runtime as Python's own dict and set (docs/runtime.md, "Dicts and sets").
  Expr dict_op(const ir::Operation& op, std::string_view c) {
    auto arg = [&](size_t i, int prec) { return paren(expr(op.operand(i)), prec); };
    auto text = [&](size_t i) { return expr(op.operand(i)).text; };
    if (c == "ppy_dict_new") {
      const ir::Operation* d = op.operand(0)->def();
      const ir::Attribute* t = d ? d->attr("text") : nullptr;
      bool dict = t && t->is<std::string>() && t->as_string().find(':') != std::string::npos;
      return {dict ? "{}" : "set()", kAtom};
    }
    if (c == "ppy_dict_len") return call("len", {op.operand(0)});
    if (c.starts_with("ppy_dict_contains_"))
      return {str_cat("int(", arg(1, kCmp + 1), " in ", arg(0, kCmp + 1), ")"), kAtom};
    if (c.starts_with("ppy_dict_get_or_")) return {str_cat(arg(0, kAtom), ".get(", text(1), ", ", text(2), ")"), kAtom};
    if (c.starts_with("ppy_dict_get_")) return {str_cat(arg(0, kAtom), "[", text(1), "]"), kAtom};
    if (c.starts_with("ppy_dict_pop_or_")) return {str_cat(arg(0, kAtom), ".pop(", text(1), ", ", text(2), ")"), kAtom};
    if (c.starts_with("ppy_dict_pop_")) return {str_cat(arg(0, kAtom), ".pop(", text(1), ")"), kAtom};
    if (c.starts_with("ppy_dict_set_"))
      return {str_cat(arg(0, kAtom), ".__setitem__(", text(1), ", ", text(2), ")"), kAtom};
    if (c == "ppy_dict_keys") return call("list", {op.operand(0)});
    if (c == "ppy_dict_values") return {str_cat("list(", arg(0, kAtom), ".values())"), kAtom};
    if (c == "ppy_dict_check_iter") return helper("_ppy_dict_check", {op.operand(0), op.operand(1)});
    if (c == "ppy_dict_repr") {
      helpers_.insert("_ppy_list_repr");
      return helper("_ppy_dict_repr", {op.operand(0), op.operand(1)});
    }
    if (c == "ppy_dict_eq") return {str_cat("int(", arg(0, kCmp + 1), " == ", arg(1, kCmp + 1), ")"), kAtom};
    if (c == "ppy_dict_clear") return {str_cat(arg(0, kAtom), ".clear()"), kAtom};
    if (c.starts_with("ppy_set_")) {
      std::string_view m = c.substr(8, c.rfind('_') - 8);
      return {str_cat(arg(0, kAtom), ".", m, "(", text(1), ")"), kAtom};
    }
    return fail(op, str_cat("the runtime function '", c, "'")), Expr{"None", kAtom};
  }

  /// The runtime's exception functions as Python's own (docs/runtime.md, "Exceptions").
  Expr exc_op(const ir::Operation& op, std::string_view c) {
    helpers_.insert("_ppy_exc");
    if (c == "ppy_exc_name") return {"type(_ppy_caught[0]).__name__", kAtom};
    if (c == "ppy_exc_message") return {"str(_ppy_caught[0])", kAtom};
    if (c == "ppy_exc_matches")
      return {str_cat("_ppy_exc_matches(", expr(op.operand(0)).text, ", ", expr(op.operand(1)).text, ")"), kAtom};
    return {str_cat("raise _ppy_exc(", expr(op.operand(0)).text, ", ", expr(op.operand(1)).text, ")"), kAtom};
  }

  /// A string function of the runtime as Python's own str (docs/runtime.md, "Strings").
  Expr string_op(const ir::Operation& op, std::string_view c) {
    auto arg = [&](size_t i, int prec) { return paren(expr(op.operand(i)), prec); };
    auto method = [&](std::string_view m) {
      std::string a;
      for (size_t i = 1; i < op.num_operands(); ++i) str_append(a, a.empty() ? "" : ", ", expr(op.operand(i)).text);
      return Expr{str_cat(arg(0, kAtom), ".", m, "(", a, ")"), kAtom};
    };
    if (c == "ppy_str_literal") return {py_string(str_attr(op, "text")), kAtom};
    if (c == "ppy_str_concat") return {str_cat(arg(0, kAdd), " + ", arg(1, kAdd + 1)), kAdd};
    if (c == "ppy_str_repeat") return {str_cat(arg(0, kMul), " * ", arg(1, kMul + 1)), kMul};
    if (c == "ppy_str_len") return call("len", {op.operand(0)});
    if (c == "ppy_str_index") return {str_cat(arg(0, kAtom), "[", expr(op.operand(1)).text, "]"), kAtom};
    if (c == "ppy_str_slice") {
      const ir::Operation* d = op.operand(4)->def();
      const ir::Attribute* v = d && d->name() == "core.const" ? d->attr("value") : nullptr;
      if (!v || !v->is<int64_t>()) return fail(op, "ppy_str_slice with bounds it cannot read"), Expr{"None", kAtom};
      int64_t omitted = v->as_int();
      std::string start = omitted & 1 ? "" : expr(op.operand(1)).text;
      std::string stop = omitted & 2 ? "" : expr(op.operand(2)).text;
      return {str_cat(arg(0, kAtom), "[", start, ":", stop, ":", expr(op.operand(3)).text, "]"), kAtom};
    }
    if (c == "ppy_str_compare") return helper("_ppy_str_cmp", {op.operand(0), op.operand(1)});
    if (c == "ppy_str_contains") return {str_cat("int(", arg(1, kCmp + 1), " in ", arg(0, kCmp + 1), ")"), kAtom};
    if (c == "ppy_str_from_i64" || c == "ppy_str_from_f64") return call("str", {op.operand(0)});
    if (c == "ppy_str_from_bool") return {str_cat("str(bool(", expr(op.operand(0)).text, "))"), kAtom};
    if (c == "ppy_str_to_i64") return helper("_ppy_str_to_i64", {op.operand(0)});
    if (c == "ppy_str_to_f64") return call("float", {op.operand(0)});
    if (c == "ppy_str_repr") return call("repr", {op.operand(0)});
    if (c == "ppy_str_ord") return call("ord", {op.operand(0)});
    if (c == "ppy_str_chr") return call("chr", {op.operand(0)});
    if (c.starts_with("ppy_str_format_")) return call("format", {op.operand(0), op.operand(1)});
    if (c == "ppy_str_startswith" || c == "ppy_str_endswith") {
      Expr m = method(c.substr(8));
      return {str_cat("int(", m.text, ")"), kAtom};
    }
    static const std::set<std::string, std::less<>> kMethods = {"ppy_str_upper", "ppy_str_lower", "ppy_str_strip",
                                                                "ppy_str_lstrip", "ppy_str_rstrip", "ppy_str_find",
                                                                "ppy_str_count", "ppy_str_replace"};
    if (kMethods.count(c)) return method(c.substr(8));
    return fail(op, str_cat("the runtime function '", c, "'")), Expr{"None", kAtom};
  }

  Expr math(const ir::Operation& op) {
    std::string f = op.name().substr(5);
    uses_math_ = true;
    if (f == "sqrt" || f == "sin" || f == "cos" || f == "tan" || f == "log" || f == "log2" || f == "log10")
      return call("math." + f, {op.operand(0)});
    if (f == "abs") return call("abs", {op.operand(0)});
    if (f == "exp") return helper("_ppy_exp", {op.operand(0)});
    if (f == "exp2") return helper("_ppy_exp2", {op.operand(0)});
    if (f == "floor") return helper("_ppy_floor", {op.operand(0)});
    if (f == "ceil") return helper("_ppy_ceil", {op.operand(0)});
    if (f == "trunc") return helper("_ppy_trunc", {op.operand(0)});
    if (f == "pow") return helper("_ppy_pow", {op.operand(0), op.operand(1)});
    fail(op, op.name());
    return {"None", kAtom};
  }

  Expr cast(const ir::Operation& op) {
    ir::Type from = op.operand(0)->type(), to = op.result(0)->type();
    Expr a = expr(op.operand(0));
    if (from == to || (int_type(from) && int_type(to)) || (from.is_ptr() && to.is_ptr())) return a;
    if (to.is_float()) return {str_cat("float(", a.text, ")"), kAtom};
    if (to.is_bool()) return {str_cat(paren(a, kCmp + 1), from.is_float() ? " != 0.0" : " != 0"), kCmp};
    if (int_type(to)) return {str_cat("int(", a.text, ")"), kAtom};
    fail(op, str_cat("core.cast from ", from.str(), " to ", to.str()));
    return a;
  }

  /// A range-checked op read only by a range-checked add or sub of a constant
  /// in its block is written inside that sum, and the sum's one check covers
  /// both (`n = n * 3 + 1`): t and t + k both within i64 is exactly t + k
  /// within i64 ∩ (i64 + k), Python's integers being exact.
  void find_fused_checks(const ir::Function& f) {
    fused_.clear();
    std::unordered_map<const ir::Value*, int> uses;
    ir::walk(f.body(), [&](const ir::Operation& op) {
      for (const ir::Value* v : op.operands()) ++uses[v];
      for (auto& s : op.successors())
        for (const ir::Value* v : s.args) ++uses[v];
    });
    std::set<const ir::Operation*> sums;  // a sum that covers an inner op is not inner itself
    ir::walk(f.body(), [&](const ir::Operation& op) {
      const ir::Value* x = nullptr;
      if (!constant_offset(op, &x)) return;
      const ir::Operation* d = x->def();
      if (!d || d->parent() != op.parent() || !range_checked(*d) || uses[x] != 1 || sums.count(d)) return;
      fused_.insert(d);
      sums.insert(&op);
    });
  }

  /// Whether `op`'s check covers an inner op (find_fused_checks).
  bool covers_inner(const ir::Operation& op) {
    const ir::Value* x = nullptr;
    return constant_offset(op, &x) && values_->inlined(x) && fused_.count(x->def());
  }

  /// The range check after `name = <op>`: one-sided where the op can only
  /// leave the range one way (adding or subtracting a constant), narrowed
  /// where it covers an inner op.
  std::string check_text(const ir::Operation& op, const std::string& name) {
    if (covers_inner(op)) {
      const ir::Value* x = nullptr;
      __int128 k = *constant_offset(op, &x);
      __int128 hi = std::min<__int128>(INT64_MAX, INT64_MAX + k), lo = std::max<__int128>(INT64_MIN, INT64_MIN + k);
      return str_cat("if ", name, " > ", hex_literal(hi), " or ", name, " < ", hex_literal(lo), ":");
    }
    int side = 0;  // +1: can only pass the top; -1: only the bottom
    if (op.name() == "core.add" || op.name() == "core.sub") {
      auto k = const_int(op.operand(1));
      if (!k && op.name() == "core.add") k = const_int(op.operand(0));
      if (k && *k != 0) side = (*k > 0) == (op.name() == "core.add") ? 1 : -1;
    }
    if (side > 0) return str_cat("if ", name, " > 0x7FFFFFFFFFFFFFFF:");
    if (side < 0) return str_cat("if ", name, " < -0x8000000000000000:");
    // Two plain comparisons: CPython runs them about a quarter faster than the
    // chained `not MIN <= x <= MAX`, and the value is almost always in range.
    return str_cat("if ", name, " > 0x7FFFFFFFFFFFFFFF or ", name, " < -0x8000000000000000:");
  }

  const ir::Module& m_;
  Bounds bounds_;
  std::set<std::pair<const ir::Block*, size_t>> skip_moves_;  ///< header arguments a `for` sets
  std::set<const ir::Operation*> skip_ops_;                   ///< steps a `for` makes
  std::set<const ir::Operation*> fused_;                      ///< checked ops a sum's check covers
  std::map<std::string, std::string> fn_names_;  ///< symbol -> Python spelling of a call
  std::set<std::string> used_names_;             ///< the module's function and global names
  std::map<std::string, std::string> global_names_;  ///< a mutable global's symbol -> its Python name

  /// The Python variable whose address `v` is (`core.const @g`), or null.
  const std::string* global_of(const ir::Value* v) const {
    const std::string* symbol = source::global_symbol(v);
    if (!symbol) return nullptr;
    auto it = global_names_.find(*symbol);
    return it == global_names_.end() ? nullptr : &it->second;
  }
  std::map<std::string, std::string> imports_;   ///< module -> alias
  std::set<std::string> helpers_;
  std::set<const ir::Value*> cells_;  ///< slots (and slot parameters) held in one-element lists
  bool uses_math_ = false;
  const ir::Function* fn_ = nullptr;
  const FunctionValues* values_ = nullptr;
  std::string out_;
  int indent_ = 0;
  absl::Status status_;
};

}  // namespace

absl::StatusOr<std::string> python_source(const ir::Module& module) { return ModuleWriter(module).run(); }

std::string python_module_path(const std::string& module, ModuleList modules) {
  std::string path = module;
  for (char& c : path)
    if (c == '.') c = '/';
  for (const ir::Module* m : modules)
    if (m->name().starts_with(module + ".")) return path + "/__init__.py";
  return path + ".py";
}

}  // namespace ppy::backends

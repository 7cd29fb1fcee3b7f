// The C spelling the writer's parts share (c_syntax.h).
#include "c_syntax.h"

#include <cmath>

#include "ppy/ir/text.h"
#include "ppy/util/str_cat.h"

namespace ppy::backends::cgen {

std::string paren(const Expr& e, int need) { return e.prec >= need ? e.text : str_cat("(", e.text, ")"); }

const std::set<std::string, std::less<>>& c_reserved() {
  static const auto* r = new std::set<std::string, std::less<>>{
      "auto",   "break",    "case",      "char",     "const",    "continue", "default",  "do",         "double",
      "else",   "enum",     "extern",    "float",    "for",      "goto",     "if",       "inline",     "int",
      "long",   "register", "restrict",  "return",   "short",    "signed",   "sizeof",   "static",     "struct",
      "switch", "typedef",  "union",     "unsigned", "void",     "volatile", "while",    "bool",       "true",
      "false",  "class",    "new",       "delete",   "this",     "template", "typename", "namespace",  "using",
      "public", "private",  "protected", "virtual",  "operator", "friend",   "try",      "catch",      "throw",
      "and",    "or",       "not",       "xor",      "asm",      "main",     "exit",     "abort",      "printf",
      "malloc", "free",     "memcpy",    "sqrt",     "sin",      "cos",      "tan",      "exp",        "exp2",
      "log",    "log2",     "log10",     "floor",    "ceil",     "trunc",    "fabs",     "pow",        "fmod",
      "NAN",    "INFINITY", "threadIdx", "blockIdx", "blockDim", "gridDim",  "dim3",     "lists_mark", "result",
      "errno",  "stdin",    "stdout",    "stderr",   "int64_t",  "uint64_t", "int32_t",  "size_t",     "nullptr"};
  return *r;
}

std::string c_string(std::string_view s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (c < 0x20 || c >= 0x7f || c == '?') {
          // Octal, three digits, so a digit after it cannot join it; `?` too (trigraphs).
          out += '\\';
          out += static_cast<char>('0' + (c >> 6));
          out += static_cast<char>('0' + ((c >> 3) & 7));
          out += static_cast<char>('0' + (c & 7));
        } else {
          out.push_back(static_cast<char>(c));
        }
    }
  }
  return out + "\"";
}

std::string_view str_attr(const ir::Operation& op, std::string_view key) {
  const ir::Attribute* a = op.attr(key);
  return a && a->is<std::string>() ? std::string_view(a->as_string()) : std::string_view();
}

bool int_type(ir::Type t) { return t.kind() == ir::TypeKind::I64 || t.kind() == ir::TypeKind::Index; }

std::string float_literal(double d) {
  if (std::isnan(d)) return "NAN";
  if (std::isinf(d)) return d > 0 ? "INFINITY" : "-INFINITY";
  std::string s = ir::format_float(d);
  // Python's repr is a C double literal too, once it has a '.' or an exponent.
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

}  // namespace ppy::backends::cgen

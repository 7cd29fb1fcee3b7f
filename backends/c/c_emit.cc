// Canonical IR to C, C++, CUDA and HIP. The CFG is structured into while/if
// (backends/source); one that is not is written with labels and gotos. The
// native runtime's text is pasted at the top of every unit, so `cc unit.c -lm`
// needs nothing else.
#include <cmath>
#include <functional>
#include <map>
#include <set>

#include "ppy/backends/c_backend.h"
#include "ppy/backends/source/structure.h"
#include "ppy/backends/source/values.h"
#include "ppy/ir/text.h"
#include "ppy/runtime/runtime_source.h"
#include "ppy/util/error.h"
#include "ppy/util/status_macros.h"
#include "ppy/util/str_cat.h"

namespace ppy::backends {
namespace {

using Dialect = COptions::Dialect;
using source::FunctionValues;
using source::Node;
using source::Seq;

const std::set<std::string, std::less<>>& c_reserved() {
  static const auto* r = new std::set<std::string, std::less<>>{
      "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else", "enum", "extern",
      "float", "for", "goto", "if", "inline", "int", "long", "register", "restrict", "return", "short", "signed",
      "sizeof", "static", "struct", "switch", "typedef", "union", "unsigned", "void", "volatile", "while", "bool",
      "true", "false", "class", "new", "delete", "this", "template", "typename", "namespace", "using", "public",
      "private", "protected", "virtual", "operator", "friend", "try", "catch", "throw", "and", "or", "not", "xor",
      "asm", "main", "exit", "abort", "printf", "malloc", "free", "memcpy", "sqrt", "sin", "cos", "tan", "exp",
      "exp2", "log", "log2", "log10", "floor", "ceil", "trunc", "fabs", "pow", "fmod", "NAN", "INFINITY",
      "threadIdx", "blockIdx", "blockDim", "gridDim", "dim3", "lists_mark", "result", "errno", "stdin",
      "stdout", "stderr", "int64_t", "uint64_t", "int32_t", "size_t", "nullptr"};
  return *r;
}

std::string c_string(std::string_view s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
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

std::string_view str_attr(const ir::Operation& op, std::string_view key) {
  const ir::Attribute* a = op.attr(key);
  return a && a->is<std::string>() ? std::string_view(a->as_string()) : std::string_view();
}

bool int_type(ir::Type t) { return t.kind() == ir::TypeKind::I64 || t.kind() == ir::TypeKind::Index; }

bool raising_int(const ir::Operation& op) {
  std::string_view o = str_attr(op, "overflow");
  return o == "python" || o == "checked";
}

/// Helpers for checked and wrapping arithmetic the runtime does not spell.
const std::map<std::string, std::string>& helper_texts() {
  static const auto* h = new std::map<std::string, std::string>{
      {"ppy_c_add",
       "static inline int64_t ppy_c_add(int64_t a, int64_t b) {\n"
       "  int64_t r;\n"
       "  if (__builtin_add_overflow(a, b, &r)) ppy_rt_overflow();\n"
       "  return r;\n"
       "}\n"},
      {"ppy_c_sub",
       "static inline int64_t ppy_c_sub(int64_t a, int64_t b) {\n"
       "  int64_t r;\n"
       "  if (__builtin_sub_overflow(a, b, &r)) ppy_rt_overflow();\n"
       "  return r;\n"
       "}\n"},
      {"ppy_c_mul",
       "static inline int64_t ppy_c_mul(int64_t a, int64_t b) {\n"
       "  int64_t r;\n"
       "  if (__builtin_mul_overflow(a, b, &r)) ppy_rt_overflow();\n"
       "  return r;\n"
       "}\n"},
      {"ppy_c_neg",
       "static inline int64_t ppy_c_neg(int64_t a) {\n"
       "  if (a == INT64_MIN) ppy_rt_overflow();\n"
       "  return -a;\n"
       "}\n"},
      {"ppy_c_shl",
       "static inline int64_t ppy_c_shl(int64_t a, int64_t b) {\n"
       "  if (a == 0) return 0;\n"
       "  if (b < 0 || b > 63) ppy_rt_overflow();\n"
       "  int64_t r = (int64_t)((uint64_t)a << b);\n"
       "  if ((r >> b) != a) ppy_rt_overflow();\n"
       "  return r;\n"
       "}\n"},
      {"ppy_c_shl_wrap",
       "static inline int64_t ppy_c_shl_wrap(int64_t a, int64_t b) {\n"
       "  return b < 0 || b > 63 ? 0 : (int64_t)((uint64_t)a << b);\n"
       "}\n"},
      {"ppy_c_shr",
       "static inline int64_t ppy_c_shr(int64_t a, int64_t b) {\n"
       "  return b < 0 || b > 63 ? (a < 0 ? -1 : 0) : a >> b;\n"
       "}\n"},
      {"ppy_c_div_trunc",
       "static inline int64_t ppy_c_div_trunc(int64_t a, int64_t b) {\n"
       "  if (b == 0) ppy_rt_raise(\"ZeroDivisionError\", \"integer division or modulo by zero\");\n"
       "  if (a == INT64_MIN && b == -1) ppy_rt_overflow();\n"
       "  return a / b;\n"
       "}\n"},
      {"ppy_c_mod_trunc",
       "static inline int64_t ppy_c_mod_trunc(int64_t a, int64_t b) {\n"
       "  if (b == 0) ppy_rt_raise(\"ZeroDivisionError\", \"integer modulo by zero\");\n"
       "  return b == -1 ? 0 : a % b;\n"
       "}\n"},
  };
  return *h;
}

struct Expr {
  std::string text;
  int prec;
};

enum Prec { kAssign = 1, kTernary = 3, kOrOr = 4, kAndAnd = 5, kBitOr = 6, kBitXor = 7, kBitAnd = 8, kEq = 9,
            kRel = 10, kAdd = 12, kMul = 13, kUnary = 14, kPostfix = 15, kAtom = 16 };

std::string paren(const Expr& e, int need) { return e.prec >= need ? e.text : str_cat("(", e.text, ")"); }

class CWriter {
 public:
  CWriter(const ir::Module& m, const COptions& o) : m_(m), o_(o) {}

  absl::StatusOr<std::string> run() {
    bool device_dialect = o_.dialect == Dialect::Cuda || o_.dialect == Dialect::Hip;
    for (auto& f : m_.functions()) {
      fn_names_[f->name()] = source::identifier(f->name());
      const ir::Attribute* k = f->attributes().get("gpu.kind");
      if (k && !device_dialect && o_.dialect != Dialect::Header)
        return refuse_fn(*f, str_cat("the ", k->is<std::string>() ? k->as_string() : "device", " function ", f->name()));
    }
    if (o_.dialect == Dialect::Header && !o_.header_only) return export_header();
    recursive_ = recursive_functions();
    // The globals the functions take the address of (module variables): one
    // static variable each, named as its symbol.
    std::string globals;
    for (auto& f : m_.functions())
      ir::walk(f->body(), [&](const ir::Operation& op) {
        const ir::Attribute* a = op.name() == "core.const" ? op.attr("value") : nullptr;
        if (!a || !a->is<ir::SymbolRef>() || global_names_.count(a->as_symbol().name)) return;
        auto g = m_.globals().find(a->as_symbol().name);
        if (g == m_.globals().end() || !(g->second.type.is_scalar() || g->second.type.kind() == ir::TypeKind::Buffer ||
                                         (g->second.type.is_ptr() && g->second.type.elem().kind() == ir::TypeKind::I8)))
          return;
        std::string name = source::identifier(g->first);
        global_names_[g->first] = name;
        str_append(globals, "static ", g->second.is_mutable ? "" : "const ", c_type(g->second.type), " ", name, " = ",
                   global_initializer(g->second), ";\n");
      });
    std::string body, protos;
    for (auto& f : m_.functions()) {
      if (f->is_declaration() && f->visibility() != ir::Visibility::Extern && !f->attributes().get("ppy.external"))
        continue;
      str_append(protos, signature(*f), ";\n");
      if (f->is_declaration()) continue;
      PPY_ASSIGN_OR_RETURN(std::string text, function(*f));
      str_append(body, "\n", text);
    }
    const ir::Function* entry = main_function();
    if (o_.standalone) {
      for (auto& f : m_.functions())
        if (f->is_declaration())
          return refuse_fn(*f, str_cat("a call to ", f->name(), ", defined in another module"),
                           "the whole program in one module for --standalone: link it first (`ppy emit "
                           "linked-ir DIR -o prog.ppyir`, then `ppy emit c prog.ppyir --standalone`)");
      if (!entry)
        return validation_error({"c", str_cat("module ", m_.name(), " without ", m_.name(), ".main()"),
                                 "a program entry for --standalone", std::nullopt});
    }
    std::string out = str_cat("/* Module ", m_.name(), ", written by ppy's c backend from canonical IR. */\n");
    std::string guard;
    if (o_.header_only) {
      guard = str_cat("PPY_", upper(source::identifier(m_.name())), "_H");
      str_append(out, "#ifndef ", guard, "\n#define ", guard, "\n");
    }
    if (o_.dialect == Dialect::Cuda) out += "#include <cuda_runtime.h>\n";
    if (o_.dialect == Dialect::Hip) out += "#include <hip/hip_runtime.h>\n";
    if (o_.dialect == Dialect::C) out += "#include <stdbool.h>\n";
    // Strings (ppy_str.h) only for a unit that uses them: they need Boehm's
    // collector (`-lgc`, docs/runtime.md).
    // Lists live on the collector too: a unit that makes, takes or returns one gets it.
    bool strings = false;
    for (auto& f : m_.functions()) {
      for (auto& p : f->params()) strings = strings || p.type.kind() == ir::TypeKind::Buffer;
      for (auto& t : f->results()) strings = strings || t.kind() == ir::TypeKind::Buffer;
      ir::walk(f->body(), [&](const ir::Operation& op) {
        if (op.name() == "core.call_extern" &&
            (str_attr(op, "callee").starts_with("ppy_str_") || str_attr(op, "callee").starts_with("ppy_exc_") ||
             str_attr(op, "callee").starts_with("ppy_list_") || str_attr(op, "callee").starts_with("ppy_obj_") ||
             str_attr(op, "callee").starts_with("ppy_dict_") || str_attr(op, "callee").starts_with("ppy_set_") ||
             str_attr(op, "callee") == "ppy_print_string"))
          strings = true;
        // A tuple in a list is boxed by ppy_list_box (docs/runtime.md, "Lists").
        if ((op.name() == "core.buffer_load" || op.name() == "core.buffer_store") &&
            op.operand(op.name() == "core.buffer_load" ? 0 : 1)->type().elem().kind() == ir::TypeKind::Tuple)
          strings = true;
      });
    }
    if (strings) out += "#define PPY_RT_STRINGS 1\n";
    out += "\n/* ---- the ppy native runtime (backends/runtime/ppy_runtime.h) ---- */\n";
    out += std::string(runtime::source());
    if (!out.ends_with("\n")) out += "\n";
    out += "/* ---- end of the runtime ---- */\n";
    std::string helpers;
    for (auto& [name, text] : helper_texts())
      if (helpers_.count(name)) str_append(helpers, "\n", text);
    out += helpers;
    if (!tuple_defs_.empty()) str_append(out, "\n", tuple_defs_);
    if (!globals.empty()) str_append(out, "\n", globals);
    str_append(out, "\n", protos, thunks_, body);
    if (o_.standalone && entry)
      str_append(out, "\nint main(void) { return ppy_rt_run(", fn_names_.at(entry->name()), "); }\n");
    if (o_.header_only) str_append(out, "\n#endif /* ", guard, " */\n");
    return out;
  }

 private:
  static std::string upper(std::string s) {
    for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return s;
  }
  static std::string qualname(const ir::Function& f) {
    const ir::Attribute* q = f.attributes().get("ppy.qualname");
    return q && q->is<std::string>() ? q->as_string() : f.name();
  }
  /// `<module>.__main__()` (the entry module's code), else `<module>.main()`;
  /// in a linked module (one named for its file), the one `<any
  /// module>.__main__()` there is, else the one `<any module>.main()`.
  const ir::Function* main_function() const {
    for (const char* suffix : {".__main__", ".main"}) {
      const ir::Function* only = nullptr;
      int candidates = 0;
      for (auto& f : m_.functions()) {
        if (f->is_declaration() || !f->params().empty() || !f->results().empty()) continue;
        std::string q = qualname(*f);
        if (q == m_.name() + suffix) return f.get();
        if (q.ends_with(suffix)) {
          only = f.get();
          ++candidates;
        }
      }
      if (candidates == 1) return only;
      if (candidates > 1) return nullptr;
    }
    return nullptr;
  }
  static bool exported(const ir::Function& f) {
    const ir::Attribute* e = f.attributes().get("ppy.export");
    return e && e->is<bool>() && e->as_bool();
  }

  absl::Status refuse_fn(const ir::Function& f, std::string what, std::string capability = "device code") {
    return validation_error({"c", std::move(what), std::move(capability), f.loc()});
  }

  /// The `header` format: the C declarations of the exports.
  absl::StatusOr<std::string> export_header() {
    std::string guard = str_cat("PPY_", upper(source::identifier(m_.name())), "_H");
    std::string out = str_cat("/* The exports of module ", m_.name(), ", written by ppy's c backend. */\n#ifndef ",
                              guard, "\n#define ", guard, "\n\n#include <stdint.h>\n");
    bool lists = false;
    std::string decls;
    for (auto& f : m_.functions()) {
      if (f->is_declaration() || !exported(*f)) continue;
      for (auto& p : f->params()) lists = lists || p.type.kind() == ir::TypeKind::Buffer;
      str_append(decls, signature(*f), ";\n");
    }
    out += "#ifndef __cplusplus\n#include <stdbool.h>\n#endif\n";
    if (lists) out += "\ntypedef struct ppy_list ppy_list; /* ppy_runtime.h: length, then the elements */\n";
    str_append(out, "\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n", decls,
               "\n#ifdef __cplusplus\n}\n#endif\n\n#endif /* ", guard, " */\n");
    return out;
  }

  /// Functions that call themselves through the module's call graph: they count
  /// their depth for RecursionError, as Python does.
  std::set<const ir::Function*> recursive_functions() const {
    std::map<const ir::Function*, std::set<const ir::Function*>> calls;
    for (auto& f : m_.functions())
      ir::walk(f->body(), [&](const ir::Operation& op) {
        if (op.name() != "core.call") return;
        const ir::Attribute* c = op.attr("callee");
        if (!c || !c->is<ir::SymbolRef>()) return;
        if (const ir::Function* g = m_.function(c->as_symbol().name); g && !g->is_declaration())
          calls[f.get()].insert(g);
      });
    std::set<const ir::Function*> out;
    for (auto& f : m_.functions()) {
      std::set<const ir::Function*> seen;
      std::vector<const ir::Function*> work(calls[f.get()].begin(), calls[f.get()].end());
      while (!work.empty()) {
        const ir::Function* g = work.back();
        work.pop_back();
        if (g == f.get()) {
          out.insert(g);
          break;
        }
        if (!seen.insert(g).second) continue;
        for (auto* h : calls[g]) work.push_back(h);
      }
    }
    return out;
  }

  std::string c_type(ir::Type t) const {
    switch (t.kind()) {
      case ir::TypeKind::I64: case ir::TypeKind::Index: return "int64_t";
      case ir::TypeKind::F64: return "double";
      case ir::TypeKind::Bool: return "bool";
      case ir::TypeKind::Buffer: return "ppy_list*";
      case ir::TypeKind::Ptr:
        if (t.elem().kind() == ir::TypeKind::I8) return "ppy_str*";  // a str handle (docs/runtime.md)
        return str_cat(t.ptr_const() ? "const " : "", c_type(t.elem()), "*");
      case ir::TypeKind::Tuple:
        return tuple_struct(t);
      case ir::TypeKind::Struct:
        return object_struct(t);
      default:
        return "void";
    }
  }

  /// A tuple is a struct of its members `f0, f1, ...`, passed and returned by
  /// value; each tuple type the module uses is defined once, members first.
  std::string tuple_struct(ir::Type t) const {
    std::string name = "ppy_T";
    for (size_t i = 0; i < t.num_elems(); ++i) {
      ir::Type e = t.elem(i);
      str_append(name, "_", type_tag(e));
    }
    name += "_E";
    if (tuple_defined_.insert(t.str()).second) {
      std::string fields;
      for (size_t i = 0; i < t.num_elems(); ++i) str_append(fields, " ", c_type(t.elem(i)), " f", i, ";");
      str_append(tuple_defs_, "typedef struct", fields.empty() ? " { char none; }" : str_cat(" {", fields, " }"), " ",
                 name, ";\n");
    }
    return name;
  }

  /// A member type in a tuple struct's name: a C identifier.
  std::string type_tag(ir::Type e) const {
    if (e.kind() == ir::TypeKind::Tuple) return tuple_struct(e);
    if (e.kind() == ir::TypeKind::Ptr && e.elem().kind() == ir::TypeKind::I8) return "str";
    if (e.kind() == ir::TypeKind::Buffer) return str_cat("L", type_tag(e.elem()));
    return e.str();
  }

  /// ppy_box_T / ppy_unbox_T: a tuple in a list is a box of its leaves, one
  /// 8-byte slot each, nested tuples flattened, a bool as 0 or 1 (docs/runtime.md, "Lists").
  std::string boxed(ir::Type t) const {
    std::string name = tuple_struct(t);
    if (!tuple_boxed_.insert(name).second) return name;
    std::string put, get;
    int64_t k = 0;
    std::function<void(ir::Type, const std::string&)> leaves = [&](ir::Type m, const std::string& path) {
      if (m.kind() == ir::TypeKind::Tuple) {
        for (size_t i = 0; i < m.num_elems(); ++i) leaves(m.elem(i), str_cat(path, ".f", i));
        return;
      }
      std::string slot = str_cat("b[", k++, "]");
      if (m.is_float()) {
        str_append(put, "  memcpy(&", slot, ", &", path, ", 8);\n");
        str_append(get, "  memcpy(&", path, ", &", slot, ", 8);\n");
      } else if (m.kind() == ir::TypeKind::Bool) {
        str_append(put, "  ", slot, " = ", path, ";\n");
        str_append(get, "  ", path, " = ", slot, " != 0;\n");
      } else if (m.kind() == ir::TypeKind::I64 || m.kind() == ir::TypeKind::Index) {
        str_append(put, "  ", slot, " = ", path, ";\n");
        str_append(get, "  ", path, " = ", slot, ";\n");
      } else {
        str_append(put, "  ", slot, " = (int64_t)(intptr_t)", path, ";\n");
        str_append(get, "  ", path, " = (", c_type(m), ")(intptr_t)", slot, ";\n");
      }
    };
    leaves(t, "v");
    str_append(tuple_defs_, "static inline void* ppy_box_", name, "(", name,
               " v) {\n  int64_t* b = (int64_t*)ppy_list_box(", k, ");\n", put, "  return b;\n}\n");
    str_append(tuple_defs_, "static inline ", name, " ppy_unbox_", name,
               "(const void* p) {\n  const int64_t* b = (const int64_t*)p;\n  ", name, " v;\n", get,
               "  return v;\n}\n");
    return name;
  }

  /// An object's memory (`struct<Name, __tid: i64, ...>`, docs/runtime.md
  /// "Objects"): a struct of fields `f_<name>`, read and written through
  /// memcpy (a derived object is read through its base's struct too).
  std::string object_struct(ir::Type t) const {
    auto it = object_names_.find(t.str());
    if (it != object_names_.end()) return it->second;
    std::string name = str_cat("ppy_S", object_names_.size(), "_", source::identifier(t.storage()->name));
    std::string fields;
    for (auto& f : t.storage()->fields) str_append(fields, " ", c_type(ir::Type(f.type)), " f_", f.name, ";");
    object_names_[t.str()] = name;
    str_append(tuple_defs_, "typedef struct {", fields, " } ", name, ";\n", "static inline ", name, " ", name,
               "_load(const void* p) { ", name, " v; memcpy(&v, p, sizeof v); return v; }\n", "static inline void ",
               name, "_store(void* p, ", name, " v) { memcpy(p, &v, sizeof v); }\n");
    return name;
  }

  std::string signature(const ir::Function& f) {
    std::string params;
    const FunctionValues* v = nullptr;
    FunctionValues* own = nullptr;
    std::unique_ptr<FunctionValues> holder;
    if (!f.is_declaration()) {
      holder = std::make_unique<FunctionValues>(f, &m_, value_options());
      own = holder.get();
      v = own;
    }
    for (size_t i = 0; i < f.params().size(); ++i) {
      std::string name = v ? v->name(f.body().entry()->argument(i)) : str_cat("arg", i);
      str_append(params, params.empty() ? "" : ", ", c_type(f.params()[i].type), " ", name);
    }
    if (params.empty()) params = "void";
    std::string prefix;
    const ir::Attribute* k = f.attributes().get("gpu.kind");
    std::string kind = k && k->is<std::string>() ? k->as_string() : "";
    if (kind == "kernel") prefix = "__global__ ";
    else if (kind == "device") prefix = "__device__ ";
    if (o_.header_only) prefix = "static inline " + prefix;
    else if (o_.dialect == Dialect::Cpp && exported(f)) prefix = "extern \"C\" " + prefix;
    std::string ret = f.results().empty() ? "void" : c_type(f.results()[0]);
    return str_cat(prefix, ret, " ", fn_names_.at(f.name()), "(", params, ")");
  }

  source::ValueOptions value_options() const {
    source::ValueOptions vo;
    vo.one_effectful_operand = true;
    vo.reserved = c_reserved();
    for (auto& [sym, n] : fn_names_) vo.reserved.insert(n);
    for (auto& [sym, n] : global_names_) vo.reserved.insert(n);
    // Prints stay statements; the rest may be written inside an expression.
    vo.inlinable = [](const ir::Operation& op) { return op.name() != "core.call_extern" || op.num_results() == 1; };
    return vo;
  }

  // --- one function ---

  absl::StatusOr<std::string> function(const ir::Function& f) {
    fn_ = &f;
    status_ = absl::OkStatus();
    gpu_ = f.attributes().get("gpu.kind") != nullptr;
    FunctionValues values(f, &m_, value_options());
    values_ = &values;
    out_.clear();
    indent_ = 1;
    // Slots nobody loads are not declared (a variable only written is a
    // warning); their stores keep only what has effects.
    read_slots_.clear();
    ir::walk(f.body(), [&](const ir::Operation& op) {
      if (op.name() == "core.load" && source::is_slot(op.operand(0))) read_slots_.insert(op.operand(0));
      if (op.name() == "core.call")  // a slot handed to a try body (its address)
        for (const ir::Value* v : op.operands())
          if (source::is_slot(v)) read_slots_.insert(v);
    });
    // Declarations: every variable the body assigns, zero-initialized.
    for (const ir::Value* v : values.variables()) {
      bool slot = source::is_slot(v);
      ir::Type t = slot ? v->type().elem() : v->type();
      if (slot ? !read_slots_.count(v) : values.uses(v) == 0) continue;
      line(str_cat(c_type(t), " ", values.name(v), " = ", zero(t), ";"));
    }
    if (recursive_.count(&f)) line("ppy_rt_enter();");
    if (auto s = source::structure(f)) {
      seq(*s, true);
    } else {
      gotos(f);
    }
    PPY_RETURN_IF_ERROR(status_);
    return str_cat(signature(f), " {\n", out_, "}\n");
  }

  std::string zero(ir::Type t) const {
    if (t.kind() == ir::TypeKind::Tuple || t.kind() == ir::TypeKind::Struct)
      return o_.dialect == Dialect::C ? "{0}" : "{}";
    if (t.is_float()) return "0.0";
    if (t.is_bool()) return "false";
    if (t.kind() == ir::TypeKind::Buffer || t.is_ptr()) return "0";
    return "0";
  }

  void line(std::string_view text) {
    out_.append(static_cast<size_t>(indent_) * 2, ' ');
    out_ += text;
    out_ += "\n";
  }

  bool silent_block(const Node& n) {
    if (n.kind != Node::Kind::Block) return false;
    const auto& ops = n.block->operations();
    for (size_t i = 0; i + 1 < ops.size(); ++i)
      if (statement_of(*ops[i])) return false;
    return true;
  }

  /// Whether `op` writes a statement (a store to a slot nobody reads does not).
  bool statement_of(const ir::Operation& op) {
    if (!values_->is_statement(op)) return false;
    if (op.name() == "core.store" && source::is_slot(op.operand(1))) {
      const ir::Value* v = op.operand(0);
      if (!values_->inlined(v) && values_->name(v) == values_->name(op.operand(1))) return false;
    }
    return true;
  }

  void suite(const Seq& s) {
    ++indent_;
    seq(s, false);
    --indent_;
  }

  void seq(const Seq& s, bool top) {
    for (size_t i = 0; i < s.size(); ++i) {
      const Node& n = s[i];
      switch (n.kind) {
        case Node::Kind::Block: block_ops(*n.block); break;
        case Node::Kind::Edge: edge(*n.edge); break;
        case Node::Kind::Break: line("break;"); break;
        case Node::Kind::Continue: line("continue;"); break;
        case Node::Kind::Return: ret(*n.op, top && i + 1 == s.size()); break;
        case Node::Kind::If: if_stmt(n, false); break;
        case Node::Kind::Loop: loop(n); break;
      }
    }
  }

  void ret(const ir::Operation& t, bool last) {
    if (t.name() == "core.unreachable") {
      line(gpu_ ? "return;" : "ppy_rt_raise(\"SystemError\", \"reached core.unreachable\");");
      return;
    }
    bool cleanup = recursive_.count(fn_) != 0;
    std::string value = t.num_operands() ? expr(t.operand(0)).text : "";
    bool braces = cleanup && !value.empty();
    if (braces) {
      // The value is computed before the lists it may read are freed.
      line("{");
      ++indent_;
      line(str_cat(c_type(t.operand(0)->type()), " result = ", value, ";"));
      value = "result";
    }
    if (recursive_.count(fn_)) line("ppy_rt_leave();");
    if (!value.empty()) line(str_cat("return ", value, ";"));
    else if (!last) line("return;");
    if (braces) {
      --indent_;
      line("}");
    }
  }

  void if_stmt(const Node& n, bool elif) {
    const ir::Value* c = n.op->operand(0);
    const Seq* then_s = &n.then_seq;
    const Seq* else_s = &n.else_seq;
    Expr cond = expr(c);
    if (then_s->empty() && !else_s->empty()) {
      cond = negate(c);
      std::swap(then_s, else_s);
    }
    if (then_s->empty() && else_s->empty()) {
      line(str_cat("(void)(", cond.text, ");"));
      return;
    }
    std::string head = str_cat("if (", cond.text, ") {");
    if (elif) out_.append(head + "\n");
    else line(head);
    suite(*then_s);
    if (else_s->empty()) {
      line("}");
      return;
    }
    if (else_s->size() == 2 && silent_block((*else_s)[0]) && (*else_s)[1].kind == Node::Kind::If) {
      out_.append(static_cast<size_t>(indent_) * 2, ' ');
      out_ += "} else ";
      if_stmt((*else_s)[1], true);
      return;
    }
    line("} else {");
    suite(*else_s);
    line("}");
  }

  void loop(const Node& n) {
    const Seq& b = n.body;
    if (b.size() == 2 && silent_block(b[0]) && b[1].kind == Node::Kind::If) {
      const Node& i = b[1];
      auto only_break = [](const Seq& s) { return s.size() == 1 && s[0].kind == Node::Kind::Break; };
      const ir::Value* c = i.op->operand(0);
      if (only_break(i.else_seq)) {
        line(str_cat("while (", expr(c).text, ") {"));
        suite(i.then_seq);
        line("}");
        return;
      }
      if (only_break(i.then_seq)) {
        line(str_cat("while (", negate(c).text, ") {"));
        suite(i.else_seq);
        line("}");
        return;
      }
    }
    line("while (1) {");
    suite(b);
    line("}");
  }

  /// The fallback: each block under a label, branches as gotos.
  void gotos(const ir::Function& f) {
    auto blocks = source::reachable_blocks(f);
    std::map<const ir::Block*, size_t> number;
    for (size_t i = 0; i < blocks.size(); ++i) number[blocks[i]] = i;
    for (size_t i = 0; i < blocks.size(); ++i) {
      if (i > 0) out_ += str_cat("block", i, ":;\n");
      const ir::Block& b = *blocks[i];
      block_ops(b);
      const ir::Operation& t = *b.terminator();
      auto go = [&](const ir::Successor& s) {
        edge(s);
        line(str_cat("goto block", number.at(s.block), ";"));
      };
      if (t.name() == "core.br") {
        go(t.successors()[0]);
      } else if (t.name() == "core.cond_br") {
        line(str_cat("if (", expr(t.operand(0)).text, ") {"));
        ++indent_;
        go(t.successors()[0]);
        --indent_;
        line("} else {");
        ++indent_;
        go(t.successors()[1]);
        --indent_;
        line("}");
      } else {
        ret(t, false);
      }
    }
  }

  /// The block arguments an edge sets, as a parallel assignment: in an order
  /// where no value is overwritten before it is read, through temporaries
  /// where the moves form a cycle.
  void edge(const ir::Successor& s) {
    struct Move {
      const ir::Value* to;
      std::string text;
      std::set<const ir::Value*> reads;
    };
    std::vector<Move> pending;
    for (auto& [to, from] : values_->moves(s)) {
      if (values_->uses(to) == 0) continue;
      Move m{to, expr(from).text, {}};
      values_->variables_read(from, m.reads);
      pending.push_back(std::move(m));
    }
    while (!pending.empty()) {
      bool progressed = false;
      for (size_t i = 0; i < pending.size(); ++i) {
        bool read_by_other = false;
        for (size_t j = 0; j < pending.size(); ++j)
          if (j != i && pending[j].reads.count(pending[i].to)) read_by_other = true;
        if (read_by_other) continue;
        line(str_cat(values_->name(pending[i].to), " = ", pending[i].text, ";"));
        pending.erase(pending.begin() + static_cast<long>(i));
        progressed = true;
        break;
      }
      if (progressed) continue;
      // A cycle: every remaining value through a temporary.
      line("{");
      ++indent_;
      for (size_t i = 0; i < pending.size(); ++i)
        line(str_cat(c_type(pending[i].to->type()), " next", i, " = ", pending[i].text, ";"));
      for (size_t i = 0; i < pending.size(); ++i) line(str_cat(values_->name(pending[i].to), " = next", i, ";"));
      --indent_;
      line("}");
      pending.clear();
    }
  }

  // --- ops ---

  void block_ops(const ir::Block& b) {
    const auto& ops = b.operations();
    for (size_t i = 0; i + 1 < ops.size(); ++i)
      if (statement_of(*ops[i])) statement(*ops[i]);
  }

  void statement(const ir::Operation& op) {
    const std::string& n = op.name();
    if (n == "core.store") {
      const ir::Value* slot = op.operand(1);
      if (source::is_slot(slot)) {
        const ir::Value* v = op.operand(0);
        bool param = !values_->inlined(v) && v->arg_owner() == fn_->body().entry();
        if (!read_slots_.count(slot) && !param) {
          if (values_->inlined(v) && tree_has_effects(v)) line(str_cat("(void)", paren(expr(v), kUnary), ";"));
          return;
        }
        if (!read_slots_.count(slot)) return;
        line(str_cat(values_->name(slot), " = ", expr(v).text, ";"));
      } else if (const std::string* g = global_of(slot)) {
        line(str_cat(*g, " = ", expr(op.operand(0)).text, ";"));
      } else if (op.operand(0)->type().kind() == ir::TypeKind::Struct) {
        line(str_cat(c_type(op.operand(0)->type()), "_store(", expr(slot).text, ", ", expr(op.operand(0)).text, ");"));
      } else {
        line(str_cat("*", paren(expr(slot), kUnary), " = ", expr(op.operand(0)).text, ";"));
      }
      return;
    }
    if (n == "core.buffer_store") {
      ir::Type elem = op.operand(1)->type().elem();
      if (elem.kind() == ir::TypeKind::Tuple) {  // a new box (docs/runtime.md, "Lists")
        line(str_cat("((void**)", paren(expr(op.operand(1)), kPostfix), "->data)[", expr(op.operand(2)).text,
                     "] = ppy_box_", boxed(elem), "(", expr(op.operand(0)).text, ");"));
        return;
      }
      line(str_cat(element(op.operand(1), op.operand(2)), " = ", expr(op.operand(0)).text, ";"));
      return;
    }
    if (n == "core.guard") {
      auto [exc, msg] = guard_exception(op);
      line(str_cat("if (", negate(op.operand(0)).text, ") ppy_rt_raise(", c_string(exc), ", ", c_string(msg), ");"));
      return;
    }
    if (n == "core.call_extern" && op.num_results() == 0) {
      std::string_view c = str_attr(op, "callee");
      if (c == "ppy_print_str") {
        std::string_view text = str_attr(op, "text");
        line(str_cat("ppy_print_str(", c_string(text), ", ", static_cast<int64_t>(text.size()), ");"));
        return;
      }
      std::string args;
      for (const ir::Value* v : op.operands()) str_append(args, args.empty() ? "" : ", ", expr(v).text);
      if (c == "ppy_print_bool") args = str_cat("(int32_t)", paren(expr(op.operand(0)), kUnary));
      line(str_cat(c, "(", args, ");"));
      return;
    }
    if (n == "core.call") {
      const ir::Attribute* cs = op.attr("capture_status");
      if (cs && cs->is<bool>() && cs->as_bool()) return capture(op);
    }
    if (n == "gpu.launch") return launch(op);
    if (n == "gpu.barrier") {
      line("__syncthreads();");
      return;
    }
    if (op.num_results() == 0) {
      line(op_expr(op).text + ";");
      return;
    }
    if (op.num_results() != 1) return fail(op, str_cat(n, " with ", op.num_results(), " results"));
    if (values_->uses(op.result(0)) == 0) {
      line(str_cat("(void)", paren(op_expr(op), kUnary), ";"));
      return;
    }
    line(str_cat(values_->name(op.result(0)), " = ", op_expr(op).text, ";"));
  }

  /// `core.call {capture_status = true}` (a try body, docs/runtime.md
  /// "Exceptions"): the arguments in a frame, a thunk of the callee run by the
  /// runtime's ppy_rt_try, which answers the status; a slot goes by its address.
  void capture(const ir::Operation& op) {
    const ir::Attribute* c = op.attr("callee");
    std::string callee = c && c->is<ir::SymbolRef>() ? c->as_symbol().name : "";
    const ir::Function* g = m_.function(callee);
    if (!g || !fn_names_.count(callee) || g->results().size() + 1 != op.num_results())
      return fail(op, str_cat("a capture_status call of @", callee));
    std::string fname = fn_names_.at(callee);
    std::string frame = fname + "_frame", thunk = fname + "_thunk";
    if (thunked_.insert(callee).second) {
      std::string fields, args;
      for (size_t i = 0; i < g->params().size(); ++i) {
        str_append(fields, " ", c_type(g->params()[i].type), " a", i, ";");
        str_append(args, i ? ", " : "", "f->a", i);
      }
      bool result = !g->results().empty();
      if (result) str_append(fields, " ", c_type(g->results()[0]), " r;");
      str_append(thunks_, "typedef struct {", fields.empty() ? " char none;" : fields, " } ", frame, ";\n",
                 "static void ", thunk, "(void* p) {\n  ", frame, "* f = (", frame, "*)p;\n  ", result ? "f->r = " : "",
                 fname, "(", args, ");\n}\n");
    }
    std::string init;
    for (const ir::Value* v : op.operands())
      str_append(init, init.empty() ? "" : ", ", source::is_slot(v) ? str_cat("&", values_->name(v)) : expr(v).text);
    line("{");
    ++indent_;
    line(str_cat(frame, " f = {", init.empty() ? "0" : init, "};"));
    const ir::Value* status = op.result(op.num_results() - 1);
    line(str_cat(values_->uses(status) ? values_->name(status) + " = " : "(void)", "ppy_rt_try(", thunk, ", &f);"));
    if (op.num_results() == 2 && values_->uses(op.result(0))) line(str_cat(values_->name(op.result(0)), " = f.r;"));
    --indent_;
    line("}");
  }

  /// `gpu.launch`: lists go to device memory and back around the kernel.
  void launch(const ir::Operation& op) {
    const ir::Attribute* c = op.attr("callee");
    std::string callee = c && c->is<ir::SymbolRef>() ? c->as_symbol().name : "";
    if (!fn_names_.count(callee)) return fail(op, str_cat("a launch of @", callee, ", which the module does not define"));
    bool hip = o_.dialect == Dialect::Hip;
    std::string api = hip ? "hip" : "cuda";
    line("{");
    ++indent_;
    std::string args;
    std::vector<std::string> copies_back;
    std::vector<std::string> frees;
    for (size_t i = 6; i < op.num_operands(); ++i) {
      const ir::Value* a = op.operand(i);
      const ir::Operation* d = a->def();
      if (d && d->name() == "core.cast" && d->operand(0)->def() &&
          d->operand(0)->def()->name() == "core.buffer_data")
        d = d->operand(0)->def();
      if (d && d->name() == "core.buffer_data") {
        std::string list = expr(d->operand(0)).text;
        ir::Type elem = d->operand(0)->type().elem();
        std::string t = c_type(elem);
        std::string dev = str_cat("device", i - 6);
        std::string host = str_cat(elem.is_float() ? "PPY_LIST_F64(" : "PPY_LIST_I64(", list, ")");
        std::string bytes = str_cat("(size_t)ppy_list_len(", list, ") * sizeof(", t, ")");
        line(str_cat(t, "* ", dev, " = 0;"));
        line(str_cat(api, "Malloc((void**)&", dev, ", ", bytes, ");"));
        line(str_cat(api, "Memcpy(", dev, ", ", host, ", ", bytes, ", ", api, "MemcpyHostToDevice);"));
        bool is_const = a->type().is_ptr() && a->type().ptr_const();
        if (!is_const) copies_back.push_back(str_cat(api, "Memcpy(", host, ", ", dev, ", ", bytes, ", ", api, "MemcpyDeviceToHost);"));
        frees.push_back(str_cat(api, "Free(", dev, ");"));
        str_append(args, args.empty() ? "" : ", ", dev);
      } else {
        str_append(args, args.empty() ? "" : ", ", expr(a).text);
      }
    }
    auto dim = [&](size_t first) {
      return str_cat("dim3((unsigned)", paren(expr(op.operand(first)), kUnary), ", (unsigned)",
                     paren(expr(op.operand(first + 1)), kUnary), ", (unsigned)", paren(expr(op.operand(first + 2)), kUnary), ")");
    };
    line(str_cat(fn_names_.at(callee), "<<<", dim(0), ", ", dim(3), ">>>(", args, ");"));
    line(str_cat(api, "DeviceSynchronize();"));
    for (auto& s : copies_back) line(s);
    for (auto& s : frees) line(s);
    --indent_;
    line("}");
  }

  void fail(const ir::Operation& op, std::string what) {
    if (status_.ok())
      status_ = validation_error({"c", str_cat(what, " in ", fn_->name()), "", op.loc() ? op.loc() : fn_->loc()});
  }

  Expr expr(const ir::Value* v) {
    if (!values_->inlined(v)) return {values_->name(v), kAtom};
    return op_expr(*v->def());
  }

  /// A list's element: an 8-byte slot (ppy_runtime.h), a bool held as int64_t.
  std::string element(const ir::Value* list, const ir::Value* index) {
    ir::Type elem = list->type().elem();
    if (elem.is_float()) return str_cat("PPY_LIST_F64(", expr(list).text, ")[", expr(index).text, "]");
    if (elem.kind() == ir::TypeKind::I64 || elem.kind() == ir::TypeKind::Bool)
      return str_cat("PPY_LIST_I64(", expr(list).text, ")[", expr(index).text, "]");
    if (elem.kind() == ir::TypeKind::Tuple)  // its box, unpacked (docs/runtime.md, "Lists")
      return str_cat("ppy_unbox_", boxed(elem), "(((void**)", paren(expr(list), kPostfix), "->data)[", expr(index).text,
                     "])");
    return str_cat("((", c_type(elem), "*)", paren(expr(list), kPostfix), "->data)[", expr(index).text, "]");
  }

  Expr negate(const ir::Value* v) {
    const ir::Operation* d = v->def();
    if (d && values_->inlined(v)) {
      bool flt = d->num_operands() && d->operand(0)->type().is_float();
      if (d->name() == "core.cmp") {
        std::string_view p = str_attr(*d, "predicate");
        // NaN compares false both ways: only == and != turn around for floats.
        static const std::map<std::string_view, std::string_view> kInverse = {
            {"eq", "ne"}, {"ne", "eq"}, {"lt", "ge"}, {"le", "gt"}, {"gt", "le"}, {"ge", "lt"}};
        if (auto it = kInverse.find(p); it != kInverse.end() && (!flt || p == "eq" || p == "ne"))
          return compare(*d, it->second);
      }
      if (d->name() == "core.xor" && d->result(0)->type().is_bool() && is_true(d->operand(1))) return expr(d->operand(0));
    }
    return {str_cat("!", paren(expr(v), kUnary)), kUnary};
  }

  Expr compare(const ir::Operation& op, std::string_view pred) {
    static const std::map<std::string_view, std::pair<const char*, int>> kSym = {
        {"eq", {"==", kEq}}, {"ne", {"!=", kEq}}, {"lt", {"<", kRel}},
        {"le", {"<=", kRel}}, {"gt", {">", kRel}}, {"ge", {">=", kRel}}};
    auto it = kSym.find(pred);
    if (it == kSym.end()) return fail(op, "core.cmp without a predicate"), Expr{"false", kAtom};
    // A handle compared with itself (`a is a` once the slots are gone): cc
    // warns of the tautology.
    if (op.operand(0) == op.operand(1) && op.operand(0)->type().is_ptr())
      return {pred == "eq" || pred == "le" || pred == "ge" ? "true" : "false", kAtom};
    int prec = it->second.second;
    // `!a == b` draws -Wlogical-not-parentheses: a negation is parenthesized here.
    auto side = [&](const ir::Value* v) {
      Expr e = expr(v);
      return e.text.starts_with("!") ? str_cat("(", e.text, ")") : paren(e, prec + 1);
    };
    return {str_cat(side(op.operand(0)), " ", it->second.first, " ", side(op.operand(1))), prec};
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
  /// `&`, `|`, `^`, `&&`, `||` with every compound operand in parentheses
  /// (what -Wparentheses asks for).
  Expr bitwise(const ir::Operation& op, const char* sym, int prec) {
    return {str_cat(paren(expr(op.operand(0)), kUnary), " ", sym, " ", paren(expr(op.operand(1)), kUnary)), prec};
  }
  Expr call(std::string_view fn, std::initializer_list<const ir::Value*> args) {
    std::string a;
    for (const ir::Value* v : args) str_append(a, a.empty() ? "" : ", ", expr(v).text);
    return {str_cat(fn, "(", a, ")"), kPostfix};
  }
  Expr helper(const char* name, std::initializer_list<const ir::Value*> args) {
    helpers_.insert(name);
    return call(name, args);
  }
  /// Wrapping two's-complement arithmetic, through uint64_t (no UB).
  Expr wrapping(const ir::Operation& op, const char* sym) {
    return {str_cat("(int64_t)((uint64_t)", paren(expr(op.operand(0)), kUnary), " ", sym, " (uint64_t)",
                    paren(expr(op.operand(1)), kUnary), ")"),
            kUnary};
  }

  /// nvcc and hipcc fuse `a * b + c` into one fma by default, which rounds once
  /// where Python (and ppy's other roads) round twice; their `_rn` intrinsics
  /// round as written and are never fused.
  static const char* rounded_device_op(ir::Type t, std::string_view sym) {
    bool d = t.kind() == ir::TypeKind::F64;
    if (sym == "+") return d ? "__dadd_rn" : "__fadd_rn";
    if (sym == "-") return d ? "__dsub_rn" : "__fsub_rn";
    if (sym == "*") return d ? "__dmul_rn" : "__fmul_rn";
    return nullptr;
  }

  Expr arith(const ir::Operation& op, const char* sym, int prec, const char* checked) {
    ir::Type rt = op.result(0)->type();
    if (gpu_ && (rt.kind() == ir::TypeKind::F64 || rt.kind() == ir::TypeKind::F32))
      if (const char* fn = rounded_device_op(rt, sym)) return call(fn, {op.operand(0), op.operand(1)});
    if (!int_type(rt)) return binary(op, sym, prec);
    std::string_view mode = str_attr(op, "overflow");
    if (raising_int(op) && !o_.unsafe && !gpu_) return helper(checked, {op.operand(0), op.operand(1)});
    if (mode == "proven" && std::string_view(sym) != "*") return binary(op, sym, prec);
    return wrapping(op, sym);
  }

  std::string float_literal(double d) {
    if (std::isnan(d)) return "NAN";
    if (std::isinf(d)) return d > 0 ? "INFINITY" : "-INFINITY";
    std::string s = ir::format_float(d);
    // Python's repr is a C double literal too, once it has a '.' or an exponent.
    if (s.find_first_of(".e") == std::string::npos) s += ".0";
    return s;
  }

  Expr op_expr(const ir::Operation& op) {
    const std::string& n = op.name();
    ir::Type rt = op.num_results() ? op.result(0)->type() : ir::Type::void_();
    if (n == "core.const") {
      const ir::Attribute* a = op.attr("value");
      if (const std::string* g = global_of(op.result(0))) return {str_cat("&", *g), kUnary};
      if (rt.is_float()) {
        double d = !a ? 0.0 : a->is<double>() ? a->as_float() : a->is<int64_t>() ? static_cast<double>(a->as_int()) : 0.0;
        std::string s = float_literal(d);
        return {s, s[0] == '-' ? kUnary : kAtom};
      }
      if (rt.is_bool()) return {a && truthy(op) ? "true" : "false", kAtom};
      int64_t v = !a ? 0 : a->is<int64_t>() ? a->as_int() : a->is<bool>() ? a->as_bool() : 0;
      if (v == INT64_MIN) return {"INT64_MIN", kAtom};
      std::string s = std::to_string(v);
      return {s, v < 0 ? kUnary : kAtom};
    }
    if (n == "core.add") return arith(op, "+", kAdd, "ppy_c_add");
    if (n == "core.sub") return arith(op, "-", kAdd, "ppy_c_sub");
    if (n == "core.mul") return arith(op, "*", kMul, "ppy_c_mul");
    if (n == "core.neg") {
      if (!int_type(rt)) return {str_cat("-", paren(expr(op.operand(0)), kUnary)), kUnary};
      if (raising_int(op) && !o_.unsafe && !gpu_) return helper("ppy_c_neg", {op.operand(0)});
      return {str_cat("(int64_t)(0 - (uint64_t)", paren(expr(op.operand(0)), kUnary), ")"), kUnary};
    }
    if (n == "core.shl")
      return helper(raising_int(op) && !o_.unsafe ? "ppy_c_shl" : "ppy_c_shl_wrap", {op.operand(0), op.operand(1)});
    if (n == "core.shr") return helper("ppy_c_shr", {op.operand(0), op.operand(1)});
    if (n == "core.div" || n == "core.mod") {
      bool div = n == "core.div";
      std::string_view r = str_attr(op, "rounding");
      if (rt.is_float()) {
        if (div && r.empty()) return binary(op, "/", kMul);
        if (r == "floor") return call(div ? "ppy_float_floordiv" : "ppy_float_floormod", {op.operand(0), op.operand(1)});
        if (div) return {str_cat("trunc(", binary(op, "/", kMul).text, ")"), kPostfix};
        return call("fmod", {op.operand(0), op.operand(1)});
      }
      if (gpu_) return binary(op, div ? "/" : "%", kMul);
      if (r == "floor") return call(div ? "ppy_int_floordiv" : "ppy_int_floormod", {op.operand(0), op.operand(1)});
      return helper(div ? "ppy_c_div_trunc" : "ppy_c_mod_trunc", {op.operand(0), op.operand(1)});
    }
    if (n == "core.and" || n == "core.or") {
      bool is_and = n == "core.and";
      if (rt.is_bool() && !tree_has_effects(op.operand(1))) return bitwise(op, is_and ? "&&" : "||", is_and ? kAndAnd : kOrOr);
      return bitwise(op, is_and ? "&" : "|", is_and ? kBitAnd : kBitOr);
    }
    if (n == "core.xor") {
      if (rt.is_bool() && is_true(op.operand(1))) return {str_cat("!", paren(expr(op.operand(0)), kUnary)), kUnary};
      if (rt.is_bool()) return bitwise(op, "!=", kEq);
      return bitwise(op, "^", kBitXor);
    }
    if (n == "core.cmp") return compare(op, str_attr(op, "predicate"));
    if (n == "core.select")
      return {str_cat(paren(expr(op.operand(0)), kOrOr), " ? ", paren(expr(op.operand(1)), kOrOr), " : ",
                      paren(expr(op.operand(2)), kTernary)),
              kTernary};
    if (n == "core.cast") return cast(op);
    if (n == "core.tuple_make") {
      std::string a;
      for (const ir::Value* v : op.operands()) str_append(a, a.empty() ? "" : ", ", expr(v).text);
      if (o_.dialect == Dialect::C) return {str_cat("(", c_type(rt), "){", a, "}"), kPostfix};
      return {str_cat(c_type(rt), "{", a, "}"), kPostfix};
    }
    if (n == "core.struct_make") {
      std::string a;
      for (const ir::Value* v : op.operands()) str_append(a, a.empty() ? "" : ", ", expr(v).text);
      if (o_.dialect == Dialect::C) return {str_cat("(", c_type(rt), "){", a, "}"), kPostfix};
      return {str_cat(c_type(rt), "{", a, "}"), kPostfix};
    }
    if (n == "core.struct_extract") {
      const ir::Attribute* f = op.attr("field");
      ir::Type st = op.operand(0)->type();
      std::string field = f && f->is<std::string>() ? f->as_string() : "";
      if (f && f->is<int64_t>() && static_cast<size_t>(f->as_int()) < st.storage()->fields.size())
        field = st.storage()->fields[static_cast<size_t>(f->as_int())].name;
      return {str_cat(paren(expr(op.operand(0)), kPostfix), ".f_", field), kPostfix};
    }
    if (n == "core.tuple_extract") {
      const ir::Attribute* ix = op.attr("index");
      return {str_cat(paren(expr(op.operand(0)), kPostfix), ".f", ix && ix->is<int64_t>() ? ix->as_int() : 0),
              kPostfix};
    }
    if (n == "core.load") {
      if (source::is_slot(op.operand(0))) return {values_->name(op.operand(0)), kAtom};
      if (const std::string* g = global_of(op.operand(0))) return {*g, kAtom};
      if (rt.kind() == ir::TypeKind::Struct)
        return {str_cat(c_type(rt), "_load(", expr(op.operand(0)).text, ")"), kPostfix};
      return {str_cat("*", paren(expr(op.operand(0)), kUnary)), kUnary};
    }
    if (n == "core.ptr_offset") return binary(op, "+", kAdd);
    if (n == "core.buffer_load") {
      if (op.operand(0)->type().elem().kind() == ir::TypeKind::Bool)  // a bool's slot holds 0 or 1
        return {str_cat("(", element(op.operand(0), op.operand(1)), " != 0)"), kAtom};
      return {element(op.operand(0), op.operand(1)), kPostfix};
    }
    if (n == "core.buffer_len") return call("ppy_list_len", {op.operand(0)});
    if (n == "core.buffer_data") {
      bool f = op.operand(0)->type().elem().is_float();
      return call(f ? "PPY_LIST_F64" : "PPY_LIST_I64", {op.operand(0)});
    }
    if (n == "core.call") {
      const ir::Attribute* c = op.attr("callee");
      std::string name = c && c->is<ir::SymbolRef>() ? c->as_symbol().name : "";
      auto it = fn_names_.find(name);
      if (it == fn_names_.end()) return fail(op, str_cat("a call to @", name)), Expr{"0", kAtom};
      std::string a;
      for (const ir::Value* v : op.operands()) str_append(a, a.empty() ? "" : ", ", expr(v).text);
      return {str_cat(it->second, "(", a, ")"), kPostfix};
    }
    if (n == "core.call_extern") {
      std::string_view c = str_attr(op, "callee");
      if (c == "ppy_pow_i64") return call("ppy_pow_i64", {op.operand(0), op.operand(1)});
      if (c.starts_with("ppy_list_")) {
        std::string a;
        for (const ir::Value* v : op.operands()) str_append(a, a.empty() ? "" : ", ", expr(v).text);
        // void* as the element's own type (C++ does not convert it)
        if (c == "ppy_list_pop_ptr" || c == "ppy_list_pop_at_ptr" || c == "ppy_list_min_ptr" ||
            c == "ppy_list_min_desc")
          return {str_cat("(", c_type(op.result(0)->type()), ")", c, "(", a, ")"), kUnary};
        return {str_cat(c, "(", a, ")"), kPostfix};
      }
      if (c.starts_with("ppy_dict_") || c.starts_with("ppy_set_")) {  // ppy_dict.h: handles are void*
        std::string a;
        for (const ir::Value* v : op.operands()) str_append(a, a.empty() ? "" : ", ", expr(v).text);
        if (op.num_results() && op.result(0)->type().kind() != ir::TypeKind::I64 &&
            op.result(0)->type().kind() != ir::TypeKind::F64)
          return {str_cat("(", c_type(op.result(0)->type()), ")", c, "(", a, ")"), kUnary};
        return {str_cat(c, "(", a, ")"), kPostfix};
      }
      if (c == "ppy_str_literal") {
        std::string_view text = str_attr(op, "text");
        return {str_cat("ppy_str_literal(", c_string(text), ", ", static_cast<int64_t>(text.size()), ")"), kPostfix};
      }
      if (c.starts_with("ppy_str_") || c.starts_with("ppy_exc_")) {
        std::string a;
        for (const ir::Value* v : op.operands()) str_append(a, a.empty() ? "" : ", ", expr(v).text);
        return {str_cat(c, "(", a, ")"), kPostfix};
      }
      if (c == "ppy_obj_new" || c == "ppy_obj_null") {  // an object's handle (docs/runtime.md,
                                                        // "Objects")
        std::string a;
        for (const ir::Value* v : op.operands()) str_append(a, a.empty() ? "" : ", ", expr(v).text);
        return {str_cat("(ppy_str*)", c, "(", a, ")"), kUnary};
      }
      return fail(op, str_cat("the runtime function '", c, "'")), Expr{"0", kAtom};
    }
    if (op.dialect() == "math") {
      std::string f = n.substr(5);
      if (f == "abs") f = "fabs";
      if (f == "pow") return call("pow", {op.operand(0), op.operand(1)});
      return call(f, {op.operand(0)});
    }
    if (op.dialect() == "gpu") {
      static const std::map<std::string, std::string> kIds = {{"gpu.thread_id", "threadIdx"}, {"gpu.block_id", "blockIdx"},
                                                              {"gpu.block_dim", "blockDim"}, {"gpu.grid_dim", "gridDim"}};
      if (auto it = kIds.find(n); it != kIds.end()) {
        std::string dim(str_attr(op, "dim"));
        return {str_cat("(int64_t)", it->second, ".", dim.empty() ? "x" : dim), kUnary};
      }
    }
    fail(op, n);
    return {"0", kAtom};
  }

  bool tree_has_effects(const ir::Value* v) {
    const ir::Operation* d = v->def();
    if (!d || !values_->inlined(v)) return false;
    if (source::effects_of(*d, &m_).any()) return true;
    for (const ir::Value* o : d->operands())
      if (tree_has_effects(o)) return true;
    return false;
  }

  Expr cast(const ir::Operation& op) {
    ir::Type from = op.operand(0)->type(), to = op.result(0)->type();
    Expr a = expr(op.operand(0));
    if (from == to || (int_type(from) && int_type(to))) return a;
    if (to.is_float()) return {str_cat("(double)", paren(a, kUnary)), kUnary};
    if (to.is_bool()) return {str_cat(paren(a, kEq + 1), from.is_float() ? " != 0.0" : " != 0"), kEq};
    if (int_type(to) && from.is_bool()) return {str_cat("(int64_t)", paren(a, kUnary)), kUnary};
    if (int_type(to) && from.is_float()) {
      if (gpu_) return {str_cat("(int64_t)", paren(a, kUnary)), kUnary};
      return {str_cat("ppy_float_to_i64(", a.text, ")"), kPostfix};
    }
    if (from.is_ptr() && to.is_ptr()) return {str_cat("(", c_type(to), ")", paren(a, kUnary)), kUnary};
    fail(op, str_cat("core.cast from ", from.str(), " to ", to.str()));
    return a;
  }

  const ir::Module& m_;
  COptions o_;
  std::map<std::string, std::string> fn_names_;
  std::map<std::string, std::string> global_names_;  ///< a global's symbol -> its C variable
  mutable std::set<std::string> tuple_defined_;      ///< tuple types (IR spelling) with a struct in tuple_defs_
  mutable std::set<std::string> tuple_boxed_;        ///< tuple structs with ppy_box_T / ppy_unbox_T
  mutable std::map<std::string, std::string> object_names_;  ///< struct types (IR spelling) -> their C typedef
  mutable std::string tuple_defs_;                   ///< their typedefs, members before the tuples holding them
  std::set<std::string> thunked_;                    ///< callees of capture_status calls with a thunk in thunks_
  std::string thunks_;                               ///< their frames and thunks, after the prototypes

  /// The C variable whose address `v` is (`core.const @g`), or null.
  const std::string* global_of(const ir::Value* v) const {
    const std::string* symbol = source::global_symbol(v);
    if (!symbol) return nullptr;
    auto it = global_names_.find(*symbol);
    return it == global_names_.end() ? nullptr : &it->second;
  }

  std::string global_initializer(const ir::Global& g) {
    const ir::Attribute* a = g.initializer ? &*g.initializer : nullptr;
    if (g.type.is_float())
      return float_literal(!a                 ? 0.0
                           : a->is<double>()  ? a->as_float()
                           : a->is<int64_t>() ? static_cast<double>(a->as_int())
                                              : 0.0);
    if (g.type.is_bool()) return a && a->is<bool>() && a->as_bool() ? "true" : "false";
    int64_t v = !a ? 0 : a->is<int64_t>() ? a->as_int() : a->is<bool>() ? a->as_bool() : 0;
    return v == INT64_MIN ? "INT64_MIN" : std::to_string(v);
  }
  std::set<std::string> helpers_;
  std::set<const ir::Function*> recursive_;
  std::set<const ir::Value*> read_slots_;
  const ir::Function* fn_ = nullptr;
  const FunctionValues* values_ = nullptr;
  bool gpu_ = false;
  std::string out_;
  int indent_ = 0;
  absl::Status status_;
};

}  // namespace

absl::StatusOr<std::string> c_source(const ir::Module& module, const COptions& options) {
  return CWriter(module, options).run();
}

}  // namespace ppy::backends

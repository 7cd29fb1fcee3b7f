// The checker: declarations, names, types, definite assignment, effects.
#include "checker.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>

#include "parser.h"
#include "ppy/util/str_cat.h"

namespace ppy::frontend {

Ty ty_from_name(const std::string& s) {
  for (Ty t : {Ty::None, Ty::Int, Ty::Float, Ty::Bool, Ty::ListInt, Ty::ListFloat, Ty::PtrInt,
               Ty::PtrFloat, Ty::ConstPtrInt, Ty::ConstPtrFloat})
    if (s == ty_name(t)) return t;
  return Ty::Error;
}

namespace {

const std::set<std::string>& special_names() {
  static const std::set<std::string> s = {
      "math", "math.sqrt", "math.sin", "math.cos", "math.tan", "math.exp", "math.log", "math.log2",
      "math.log10", "math.floor", "math.ceil", "math.trunc", "math.fabs", "math.pow", "math.pi", "math.e",
      "math.inf", "math.tau", "ppy", "ppy.export", "ppy.cuda", "ppy.native", "ppy.cuda.kernel",
      "ppy.cuda.device", "ppy.cuda.thread_id", "ppy.cuda.block_id", "ppy.cuda.block_dim",
      "ppy.cuda.grid_dim", "ppy.cuda.global_id", "ppy.cuda.syncthreads", "ppy.cuda.launch",
      "ppy.native.ptr", "ppy.native.const_ptr", "ppy.native.offset", "ppy.native.load",
      "ppy.native.store", "ppy.xla", "ppy.xla.jit"};
  return s;
}
bool is_special_module(const std::string& m) { return m == "math" || m == "ppy" || m == "ppy.cuda" || m == "ppy.native" ||
                                                  m == "ppy.xla"; }

/// `a.b.c` for a chain of names and attributes, else nullopt.
std::optional<std::string> dotted(const Expr& e) {
  if (e.kind == ExprKind::Name) return e.str;
  if (e.kind == ExprKind::Attribute) {
    auto base = dotted(*e.kids[0]);
    if (base) return *base + "." + e.str;
  }
  return std::nullopt;
}

class Declarer {
 public:
  Declarer(ModuleInfo& m, DiagnosticEngine& d) : m_(m), d_(d) {}

  /// Declarations first; what is left is module-level code, moved into the
  /// module's code function (`__main__` for the entry module, `__init__` for
  /// the others), which runs as Python runs a module's body.
  void run() {
    // Names bound at module level by more than one `NAME = <constant>` are variables.
    std::map<std::string, int> bound;
    for (auto& s : m_.ast.body) count_bindings(*s, bound);
    std::vector<StmtPtr> kept, code;
    bool guard_only = true;  // every code statement came from the `__main__` guard
    for (auto& s : m_.ast.body) {
      switch (s->kind) {
        case StmtKind::Import:
        case StmtKind::ImportFrom:
          if (!code.empty())
            error(s->pos, "E1010",
                  "an import after module-level code is outside the ppy subset (ppy runs the modules a module "
                  "imports before its code): move it up");
          declare_import(*s);
          kept.push_back(std::move(s));
          continue;
        case StmtKind::Def:
          declare_function(*s->def);
          kept.push_back(std::move(s));
          continue;
        case StmtKind::Assign:
        case StmtKind::AnnAssign:
          if (is_constant(*s, bound)) {
            declare_constant(*s);
            kept.push_back(std::move(s));
          } else {
            guard_only = false;
            code.push_back(std::move(s));
          }
          continue;
        case StmtKind::If:
          if (is_main_guard(*s)) {
            // Python runs the guard's body only in the module it starts.
            if (m_.is_entry)
              for (auto& b : s->body) code.push_back(std::move(b));
            s->body.clear();
            kept.push_back(std::move(s));
            continue;
          }
          break;
        case StmtKind::Pass:
          kept.push_back(std::move(s));
          continue;
        case StmtKind::Expr:
          if (s->value->kind == ExprKind::Str) {  // docstring
            kept.push_back(std::move(s));
            continue;
          }
          break;
        default:
          break;
      }
      guard_only = false;
      code.push_back(std::move(s));
    }
    m_.ast.body = std::move(kept);
    for (auto& [name, n] : bound)
      if (!m_.consts.count(name)) m_.module_vars.insert(name);
    if (code.empty()) return;
    // `if __name__ == "__main__": main()` alone: main() is the entry, as ever.
    if (m_.is_entry && guard_only && code.size() == 1 && is_call_of_main(*code[0])) {
      m_.main_calls.emplace_back("main", code[0]->value->pos);
      return;
    }
    declare_module_code(std::move(code));
  }

 private:
  static bool is_call_of_main(const Stmt& s) {
    return s.kind == StmtKind::Expr && s.value->kind == ExprKind::Call && s.value->kids.size() == 1 &&
           s.value->keywords.empty() && s.value->kids[0]->kind == ExprKind::Name && s.value->kids[0]->str == "main";
  }

  static bool is_main_guard(const Stmt& s) {
    const Expr& t = *s.value;
    return t.kind == ExprKind::Compare && t.ops.size() == 1 && t.ops[0] == "==" &&
           t.kids[0]->kind == ExprKind::Name && t.kids[0]->str == "__name__" && t.kids[1]->kind == ExprKind::Str &&
           t.kids[1]->str == "__main__" && s.orelse.empty();
  }

  static void count_target(const Expr& t, std::map<std::string, int>& bound) {
    if (t.kind == ExprKind::Name) ++bound[t.str];
    if (t.kind == ExprKind::Tuple)
      for (auto& k : t.kids) count_target(*k, bound);
  }
  /// Counts the names a module-level statement binds (in its blocks too; the
  /// guard's only in the entry module, the only one where it runs).
  void count_bindings(const Stmt& s, std::map<std::string, int>& bound) {
    if (s.kind == StmtKind::Def || s.kind == StmtKind::Import || s.kind == StmtKind::ImportFrom) return;
    if (s.kind == StmtKind::If && is_main_guard(s) && !m_.is_entry) return;
    for (auto& t : s.targets) count_target(*t, bound);
    for (auto& b : s.body) count_bindings(*b, bound);
    for (auto& b : s.orelse) count_bindings(*b, bound);
  }

  /// `NAME = <constant>` binding NAME once: a constant, folded and inlined (a
  /// list there is refused as before: it would be a module-level list).
  bool is_constant(const Stmt& s, const std::map<std::string, int>& bound) {
    if (s.targets.size() != 1 || s.targets[0]->kind != ExprKind::Name || !s.value) return false;
    auto it = bound.find(s.targets[0]->str);
    if (it == bound.end() || it->second != 1) return false;
    const Expr& v = *s.value;
    bool list = v.kind == ExprKind::List || (v.kind == ExprKind::Binary && v.str == "*" &&
                                             (v.kids[0]->kind == ExprKind::List || v.kids[1]->kind == ExprKind::List));
    quiet_ = true;  // declare_constant folds it again and reports
    bool folds = fold(v).has_value();
    quiet_ = false;
    return list || folds;
  }

  void declare_import(const Stmt& s) {
    auto prefixes = [&](const std::string& dotted) {
      for (size_t dot = dotted.find('.'); dot != std::string::npos; dot = dotted.find('.', dot + 1))
        m_.imports.push_back(dotted.substr(0, dot));
      m_.imports.push_back(dotted);
    };
    if (s.kind == StmtKind::Import) {
      for (auto& n : s.names) {
        if (!is_special_module(n.name.substr(0, n.name.find('.')))) prefixes(n.name);
        if (!n.asname.empty()) {
          bind(n.asname, module_binding(n.name, n.pos));
        } else {
          std::string first = n.name.substr(0, n.name.find('.'));
          Binding b = module_binding(first, n.pos);
          if (n.name.starts_with("ppy.") && first == "ppy") b.kind = Binding::Special;
          bind(first, b);
        }
      }
      return;
    }
    bool special = is_special_module(s.module);
    if (!special) prefixes(s.module);
    for (auto& n : s.names) {
      Binding b;
      b.pos = n.pos;
      if (special) {
        b.kind = Binding::Special;
        b.name = s.module + "." + n.name;
      } else {
        b.kind = Binding::Func;  // refined in phase 2 (function, constant or submodule)
        b.module = s.module;
        b.name = n.name;
        m_.imports.push_back(s.module + "." + n.name);  // a submodule, when it is one
      }
      bind(n.asname.empty() ? n.name : n.asname, b);
    }
  }

  /// The module's code as a function of no parameters returning None.
  void declare_module_code(std::vector<StmtPtr> code) {
    std::string name = m_.is_entry ? "__main__" : "__init__";
    if (defined(name)) {
      error(code[0]->pos, "E1021",
            str_cat("'", name, "' is defined in module ", m_.name, ", which names the function its module-level code "
                    "runs in"));
      return;
    }
    m_.code_def = std::make_unique<FuncDef>();
    m_.code_def->name = name;
    m_.code_def->pos = code[0]->pos;
    m_.code_def->body = std::move(code);
    m_.code_def->incomplete = m_.ast.incomplete;
    FuncInfo f;
    f.def = m_.code_def.get();
    f.name = name;
    f.result = Ty::None;
    f.module_code = true;
    m_.func_index[name] = m_.funcs.size();
    m_.funcs.push_back(std::move(f));
  }

  void error(Pos p, const char* code, std::string msg) { d_.error(code, m_.path, p.line, p.col, std::move(msg)); }

  Binding module_binding(const std::string& name, Pos p) {
    Binding b;
    b.pos = p;
    if (is_special_module(name)) {
      b.kind = Binding::Special;
      b.name = name;
    } else {
      b.kind = Binding::Module;
      b.module = name;
    }
    return b;
  }

  void bind(const std::string& name, Binding b) {
    if (m_.bindings.count(name)) {
      error(b.pos, "E1021", str_cat("'", name, "' is imported twice"));
      return;
    }
    m_.bindings[name] = std::move(b);
  }

  bool defined(const std::string& n) { return m_.func_index.count(n) || m_.consts.count(n) || m_.bindings.count(n); }

  Ty annotation_type(const Expr* a, bool allow_none, const std::string& what) {
    if (!a) return Ty::Error;
    auto bad = [&]() {
      error(a->pos, "E1031",
            str_cat("the type of ", what,
                    " must be int, float, bool, list[int], list[float]",
                    allow_none ? " or None" : "", " (or a native pointer in GPU code)"));
      return Ty::Error;
    };
    if (a->kind == ExprKind::NoneLit) return allow_none ? Ty::None : bad();
    if (a->kind == ExprKind::Name) {
      if (a->str == "int") return Ty::Int;
      if (a->str == "float") return Ty::Float;
      if (a->str == "bool") return Ty::Bool;
      if (a->str == "list") {
        error(a->pos, "E1031", str_cat("the type of ", what, " needs its element type: list[int] or list[float]"));
        return Ty::Error;
      }
      return bad();
    }
    if (a->kind == ExprKind::Subscript) {
      auto base = dotted(*a->kids[0]);
      const Expr& arg = *a->kids[1];
      bool is_int = arg.kind == ExprKind::Name && arg.str == "int";
      bool is_float = arg.kind == ExprKind::Name && arg.str == "float";
      if (base && (*base == "list" || *base == "List")) {
        if (is_int) return Ty::ListInt;
        if (is_float) return Ty::ListFloat;
        error(a->pos, "E1031", str_cat("the type of ", what, ": lists hold int or float only"));
        return Ty::Error;
      }
      if (base) {
        std::string path = resolve_special(*base);
        if (path == "ppy.native.ptr" && (is_int || is_float)) return is_int ? Ty::PtrInt : Ty::PtrFloat;
        if (path == "ppy.native.const_ptr" && (is_int || is_float)) return is_int ? Ty::ConstPtrInt : Ty::ConstPtrFloat;
      }
    }
    return bad();
  }

  std::string resolve_special(const std::string& path) {
    std::string first = path.substr(0, path.find('.'));
    auto it = m_.bindings.find(first);
    if (it == m_.bindings.end() || it->second.kind != Binding::Special) return "";
    return it->second.name + path.substr(first.size());
  }

  void declare_function(FuncDef& def) {
    if (defined(def.name)) {
      error(def.pos, "E1021", str_cat("'", def.name, "' is defined twice in module ", m_.name));
      return;
    }
    FuncInfo f;
    f.def = &def;
    f.name = def.name;
    for (auto& deco : def.decorators) {
      auto path = dotted(*deco);
      std::string sp = path ? resolve_special(*path) : "";
      if (sp == "ppy.export") f.exported = true;
      else if (sp == "ppy.cuda.kernel") f.gpu_kind = "kernel";
      else if (sp == "ppy.cuda.device") f.gpu_kind = "device";
      else if (sp == "ppy.xla.jit") f.xla_jit = true;
      else
        error(deco->pos, "E1010",
              "this decorator is outside the ppy subset (the subset has @export, @cuda.kernel, @cuda.device and "
              "@xla.jit)");
    }
    if (f.xla_jit && !f.gpu_kind.empty())
      error(def.pos, "E1010", str_cat("'", def.name, "' cannot be both @xla.jit and @cuda.", f.gpu_kind));
    bool gpu = !f.gpu_kind.empty();
    std::set<std::string> seen;
    for (auto& p : def.params) {
      if (!seen.insert(p.name).second)
        error(p.pos, "E1021", str_cat("duplicate parameter '", p.name, "' in function '", def.name, "'"));
      if (!p.annotation) {
        error(p.pos, "E1031", str_cat("parameter '", p.name, "' of '", def.name, "' needs a type annotation"));
        p.ty = Ty::Error;
      } else {
        p.ty = annotation_type(p.annotation.get(), false, str_cat("parameter '", p.name, "'"));
        if (is_ptr(p.ty) && !gpu)
          error(p.pos, "E1100", "native pointers are only for @cuda.kernel and @cuda.device functions");
        if (is_list(p.ty) && gpu)
          error(p.pos, "E1100", str_cat("a GPU function cannot take a list ('", p.name, "'); pass a native.ptr"));
      }
      f.params.push_back(p.ty);
      f.defaults.push_back(default_value(p, def.name, gpu));
      f.locals.emplace_back(p.name, p.ty);
    }
    if (!def.returns) {
      error(def.pos, "E1031", str_cat("function '", def.name, "' needs a return annotation (-> None when it returns nothing)"));
      f.result = Ty::Error;
    } else {
      f.result = annotation_type(def.returns.get(), true, str_cat("the result of '", def.name, "'"));
      if (is_list(f.result)) {
        error(def.returns->pos, "E1040",
              str_cat("function '", def.name,
                      "' cannot return a list: a list lives in the frame that makes it and would outlive it; "
                      "take the list as a parameter and fill it instead"));
        f.result = Ty::Error;
      }
      if (is_ptr(f.result)) {
        error(def.returns->pos, "E1100", "a function cannot return a native pointer");
        f.result = Ty::Error;
      }
      if (f.gpu_kind == "kernel" && f.result != Ty::None && f.result != Ty::Error)
        error(def.returns->pos, "E1100", str_cat("kernel '", def.name, "' must return None"));
    }
    m_.func_index[def.name] = m_.funcs.size();
    m_.funcs.push_back(std::move(f));
  }

  /// A parameter's default: a constant of the parameter's type, evaluated
  /// here once as Python evaluates it when `def` runs.
  std::optional<ConstInfo> default_value(const Param& p, const std::string& fname, bool gpu) {
    if (!p.default_value) return std::nullopt;
    const Expr& e = *p.default_value;
    if (gpu) {
      error(e.pos, "E1100", str_cat("GPU function '", fname, "' cannot have default parameter values"));
      return std::nullopt;
    }
    auto v = fold(e);
    if (!v) {
      error(e.pos, "E1010",
            str_cat("the default of parameter '", p.name,
                    "' must be a constant int, float or bool expression (literals, operators and earlier module "
                    "constants)"));
      return std::nullopt;
    }
    if (v->ty == Ty::Error || p.ty == Ty::Error) return std::nullopt;
    if (v->ty != p.ty) {
      error(e.pos, "E1030",
            str_cat("the default of parameter '", p.name, "' is ", ty_name(v->ty), ", not ", ty_name(p.ty),
                    p.ty == Ty::Float && v->ty != Ty::Float
                        ? " (Python keeps an int an int: write a float literal such as 1.0)"
                        : ""));
      return std::nullopt;
    }
    v->pos = e.pos;
    return v;
  }

  std::optional<ConstInfo> fold(const Expr& e) {
    ConstInfo c;
    c.pos = e.pos;
    switch (e.kind) {
      case ExprKind::Int: c.ty = Ty::Int; c.i = e.ival; return c;
      case ExprKind::Float: c.ty = Ty::Float; c.f = e.fval; return c;
      case ExprKind::Bool: c.ty = Ty::Bool; c.b = e.bval; return c;
      case ExprKind::Name:
      case ExprKind::Attribute: {
        if (e.kind == ExprKind::Name)
          if (auto it = m_.consts.find(e.str); it != m_.consts.end()) return it->second;
        // math's constants, however imported (`math.pi`, `from math import pi`).
        auto path = dotted(e);
        std::string sp = path ? resolve_special(*path) : "";
        if (sp == "math.pi" || sp == "math.e" || sp == "math.tau" || sp == "math.inf") {
          c.ty = Ty::Float;
          c.f = sp == "math.pi" ? M_PI : sp == "math.e" ? M_E : sp == "math.tau" ? 2 * M_PI : INFINITY;
          return c;
        }
        break;
      }
      case ExprKind::Unary: {
        auto v = fold(*e.kids[0]);
        if (!v) return v;
        if (v->ty == Ty::Bool && e.str != "not") {
          v->ty = Ty::Int;
          v->i = v->b;
        }
        if (e.str == "-") {
          if (v->ty == Ty::Int) {
            if (v->i == INT64_MIN) break;
            v->i = -v->i;
          } else {
            v->f = -v->f;
          }
          return v;
        }
        if (e.str == "+") return v;
        break;
      }
      case ExprKind::Binary: {
        auto a = fold(*e.kids[0]), b = fold(*e.kids[1]);
        if (!a || !b || a->ty == Ty::Bool || b->ty == Ty::Bool) break;
        const std::string& op = e.str;
        if (a->ty == Ty::Int && b->ty == Ty::Int) {
          int64_t r = 0;
          bool ovf = false;
          if (op == "+") ovf = __builtin_add_overflow(a->i, b->i, &r);
          else if (op == "-") ovf = __builtin_sub_overflow(a->i, b->i, &r);
          else if (op == "*") ovf = __builtin_mul_overflow(a->i, b->i, &r);
          else if (op == "**" && b->i >= 0) {
            r = 1;
            for (int64_t k = 0; k < b->i && !ovf; ++k) {
              ovf = __builtin_mul_overflow(r, a->i, &r);
              if (r == 0 || r == 1) break;
            }
          } else if ((op == "<<" || op == ">>") && b->i >= 0) {
            int64_t k = std::min<int64_t>(b->i, 63);
            if (op == ">>") r = a->i >> k;
            else if (a->i == 0) r = 0;
            else {
              r = static_cast<int64_t>(static_cast<uint64_t>(a->i) << k);
              ovf = b->i > 63 || (r >> k) != a->i;
            }
          } else if ((op == "//" || op == "%") && b->i != 0 && !(a->i == INT64_MIN && b->i == -1)) {
            int64_t q = a->i / b->i, m = a->i % b->i;
            if (m != 0 && ((m < 0) != (b->i < 0))) { --q; m += b->i; }
            r = op == "//" ? q : m;
          } else {
            break;
          }
          if (ovf) {
            if (!quiet_) error(e.pos, "E1080", "this constant does not fit in 64 bits (ppy's int is i64)");
            c.ty = Ty::Error;
            return c;
          }
          c.ty = Ty::Int;
          c.i = r;
          return c;
        }
        double x = a->ty == Ty::Int ? static_cast<double>(a->i) : a->f;
        double y = b->ty == Ty::Int ? static_cast<double>(b->i) : b->f;
        c.ty = Ty::Float;
        if (op == "+") c.f = x + y;
        else if (op == "-") c.f = x - y;
        else if (op == "*") c.f = x * y;
        else if (op == "/" && y != 0) c.f = x / y;
        else break;
        return c;
      }
      default:
        break;
    }
    return std::nullopt;
  }

  void declare_constant(Stmt& s) {
    if (s.targets.size() != 1 || s.targets[0]->kind != ExprKind::Name) {
      error(s.pos, "E1010", "module-level assignments must give one name a constant value");
      return;
    }
    const std::string& name = s.targets[0]->str;
    if (!s.value) {
      error(s.pos, "E1010", str_cat("module-level '", name, "' needs a value"));
      return;
    }
    if (s.value->kind == ExprKind::List || (s.value->kind == ExprKind::Binary && s.value->str == "*" &&
                                            (s.value->kids[0]->kind == ExprKind::List || s.value->kids[1]->kind == ExprKind::List))) {
      error(s.value->pos, "E1040",
            str_cat("module-level list '", name,
                    "' would outlive every function's frame; lists live in the function that makes them"));
      return;
    }
    if (defined(name)) {
      error(s.pos, "E1021", str_cat("'", name, "' is defined twice in module ", m_.name, "; module-level names are constants"));
      return;
    }
    auto v = fold(*s.value);
    if (!v) {
      error(s.value->pos, "E1010",
            str_cat("module-level '", name,
                    "' must be a constant int, float or bool expression (literals, + - * and earlier constants)"));
      return;
    }
    if (v->ty == Ty::Error) return;
    if (s.kind == StmtKind::AnnAssign) {
      Ty want = annotation_type(s.annotation.get(), false, str_cat("'", name, "'"));
      if (want != Ty::Error && want != v->ty) {
        error(s.value->pos, "E1030", str_cat("'", name, "' is declared ", ty_name(want), " but its value is ", ty_name(v->ty)));
        return;
      }
    }
    v->pos = s.pos;
    m_.consts[name] = *v;
    m_.const_order.push_back(name);
  }

 private:
  ModuleInfo& m_;
  DiagnosticEngine& d_;
  bool quiet_ = false;  ///< fold() without reporting (a trial)
};

// ---------------------------------------------------------------------------

struct Flow {
  bool reachable = true;
  std::set<std::string> assigned;
};

Flow merge(const Flow& a, const Flow& b) {
  if (!a.reachable) return b;
  if (!b.reachable) return a;
  Flow r;
  for (auto& n : a.assigned)
    if (b.assigned.count(n)) r.assigned.insert(n);
  return r;
}

class BodyChecker {
 public:
  BodyChecker(ModuleInfo& m, FuncInfo& f, const ModuleInterfaces& all, DiagnosticEngine& d)
      : m_(m), f_(f), all_(all), d_(d), gpu_(!f.gpu_kind.empty()) {}

  void run() {
    FuncDef& def = *f_.def;
    for (auto& [n, t] : f_.locals) {
      types_[n] = t;
      flow_.assigned.insert(n);
      order_.push_back(n);
    }
    collect_locals(def.body);
    block(def.body);
    if (flow_.reachable && f_.result != Ty::None && f_.result != Ty::Error)
      error(def.pos, "E1050",
            str_cat("function '", def.name, "' can reach its end without returning a ", ty_name(f_.result),
                    " (Python would return None)"));
    f_.locals.clear();
    for (auto& n : order_) f_.locals.emplace_back(n, types_[n]);
  }

 private:
  void error(Pos p, const char* code, std::string msg) {
    f_.has_body_errors = true;
    // A statement the parser dropped may have bound the name: no follow-on errors.
    if (f_.def->incomplete && (std::string_view(code) == "E1020" || std::string_view(code) == "E1060")) return;
    d_.error(code, m_.path, p.line, p.col, std::move(msg));
  }
  void effect(const char* e) { f_.effects.insert(e); }
  void raises() {
    if (!gpu_) effect("raises");
  }

  // Names assigned anywhere in the body are locals (Python's rule).
  void collect_target(const Expr& t) {
    if (t.kind == ExprKind::Name) {
      if (!types_.count(t.str)) {
        types_[t.str] = Ty::Error;
        unknown_.insert(t.str);
      }
    } else if (t.kind == ExprKind::Tuple) {
      for (auto& k : t.kids) collect_target(*k);
    }
  }
  void collect_locals(const std::vector<StmtPtr>& body) {
    for (auto& s : body) {
      for (auto& t : s->targets) collect_target(*t);
      collect_locals(s->body);
      collect_locals(s->orelse);
    }
  }
  void note_local(const std::string& n) {
    if (std::find(order_.begin(), order_.end(), n) == order_.end()) order_.push_back(n);
  }

  // --- statements ---
  void block(std::vector<StmtPtr>& body) {
    for (auto& s : body) {
      if (!flow_.reachable) s->dead = true;
      stmt(*s);
    }
  }

  void stmt(Stmt& s) {
    line_ = s.pos.line;
    switch (s.kind) {
      case StmtKind::Pass:
        return;
      case StmtKind::Expr:
        if (s.value->kind == ExprKind::Str) return;  // docstring
        expr(*s.value, Ty::Error, true);
        return;
      case StmtKind::Assign: {
        Ty vt = Ty::Error;
        for (auto& t : s.targets)
          if (t->kind == ExprKind::Tuple && s.value->kind != ExprKind::Tuple) {
            error(t->pos, "E1010", "unpacking is outside the ppy subset, except `a, b = x, y` of equal lengths");
            return;
          }
        if (s.value->kind == ExprKind::Tuple) {
          for (auto& t : s.targets)
            if (t->kind != ExprKind::Tuple || t->kids.size() != s.value->kids.size()) {
              error(s.value->pos, "E1010", "tuples are outside the ppy subset, except `a, b = x, y` of equal lengths");
              return;
            }
          for (auto& k : s.value->kids) value(*k, Ty::Error);
          for (auto& t : s.targets)
            for (size_t i = 0; i < t->kids.size(); ++i) assign(*t->kids[i], s.value->kids[i]->ty, *s.value->kids[i]);
          return;
        }
        Ty hint = Ty::Error;
        if (s.targets.size() == 1 && s.targets[0]->kind == ExprKind::Name) {
          auto it = types_.find(s.targets[0]->str);
          if (it != types_.end()) hint = it->second;
        }
        vt = value(*s.value, hint);
        for (auto& t : s.targets) assign(*t, vt, *s.value);
        return;
      }
      case StmtKind::AnnAssign: {
        Expr& t = *s.targets[0];
        if (t.kind != ExprKind::Name) {
          error(t.pos, "E1010", "an annotated assignment must name a local variable");
          return;
        }
        Ty want = annotation(s.annotation.get());
        if (want == Ty::Error) return;
        Ty& have = types_[t.str];
        if (have != Ty::Error && have != want) {
          error(s.annotation->pos, "E1030", str_cat("'", t.str, "' already holds ", ty_name(have), "; it cannot be declared ", ty_name(want)));
          return;
        }
        have = want;
        unknown_.erase(t.str);
        note_local(t.str);
        if (s.value) {
          Ty vt = value(*s.value, want);
          assign(t, vt, *s.value);
        }
        return;
      }
      case StmtKind::AugAssign:
        aug_assign(s);
        return;
      case StmtKind::If: {
        condition(*s.value);
        Flow before = flow_;
        block(s.body);
        Flow after_then = flow_;
        flow_ = before;
        block(s.orelse);
        flow_ = merge(after_then, flow_);
        return;
      }
      case StmtKind::While: {
        condition(*s.value);
        bool forever = s.value->kind == ExprKind::Bool && s.value->bval;
        Flow before = flow_;
        loops_.push_back({});
        block(s.body);
        std::vector<Flow> breaks = std::move(loops_.back());
        loops_.pop_back();
        Flow out;
        out.reachable = false;
        if (!forever) out = before;
        for (auto& b : breaks) out = merge(out, b);
        flow_ = out;
        return;
      }
      case StmtKind::For:
        for_stmt(s);
        return;
      case StmtKind::Break:
      case StmtKind::Continue:
        if (loops_.empty()) {
          error(s.pos, "E1001", str_cat("'", s.kind == StmtKind::Break ? "break" : "continue", "' outside loop"));
          return;
        }
        if (s.kind == StmtKind::Break && flow_.reachable) loops_.back().push_back(flow_);
        flow_.reachable = false;
        return;
      case StmtKind::Return: {
        if (f_.module_code) {
          error(s.pos, "E1001", "'return' outside function");
          return;
        }
        if (s.value && !(s.value->kind == ExprKind::NoneLit)) {
          Ty t = value(*s.value, f_.result);
          if (f_.result == Ty::None) {
            error(s.value->pos, "E1050", str_cat("function '", f_.name, "' is declared -> None but returns a value"));
          } else if (t != Ty::Error && f_.result != Ty::Error && t != f_.result) {
            error(s.value->pos, "E1030", str_cat("function '", f_.name, "' returns ", ty_name(f_.result), ", not ", ty_name(t), hint_for(f_.result, t)));
          }
        } else if (f_.result != Ty::None && f_.result != Ty::Error) {
          error(s.pos, "E1050", str_cat("function '", f_.name, "' must return a ", ty_name(f_.result)));
        }
        flow_.reachable = false;
        return;
      }
      case StmtKind::Assert:
        if (gpu_) {
          error(s.pos, "E1100", "assert is not available in GPU code");
          return;
        }
        condition(*s.value);
        if (s.annotation && s.annotation->kind != ExprKind::Str)
          error(s.annotation->pos, "E1010", "an assert message must be a string literal");
        raises();
        return;
      case StmtKind::Def:
        error(s.pos, "E1010", f_.module_code ? "a function defined inside a module-level block is outside the ppy subset"
                                             : "a nested function is outside the ppy subset");
        return;
      case StmtKind::Import:
      case StmtKind::ImportFrom:
        error(s.pos, "E1010", f_.module_code ? "an import inside a module-level block is outside the ppy subset"
                                             : "an import inside a function is outside the ppy subset; import at "
                                               "module level");
        return;
    }
  }

  static std::string hint_for(Ty want, Ty got) {
    if (want == Ty::Float && (got == Ty::Int || got == Ty::Bool))
      return " (Python keeps an int an int: write a float literal such as 1.0, or float(x))";
    return "";
  }

  Ty annotation(const Expr* a) {
    if (!a) return Ty::Error;
    if (a->kind == ExprKind::Name) {
      if (a->str == "int") return Ty::Int;
      if (a->str == "float") return Ty::Float;
      if (a->str == "bool") return Ty::Bool;
    }
    if (a->kind == ExprKind::Subscript && a->kids[0]->kind == ExprKind::Name &&
        (a->kids[0]->str == "list" || a->kids[0]->str == "List") && a->kids[1]->kind == ExprKind::Name) {
      if (a->kids[1]->str == "int") return Ty::ListInt;
      if (a->kids[1]->str == "float") return Ty::ListFloat;
    }
    error(a->pos, "E1031", "a local's type must be int, float, bool, list[int] or list[float]");
    return Ty::Error;
  }

  /// Assigns a value of type `vt` to the target `t`.
  void assign(Expr& t, Ty vt, const Expr& v) {
    if (t.kind == ExprKind::Name) {
      auto it = types_.find(t.str);
      if (it == types_.end()) return;  // cannot happen: collected
      t.ref = Ref::Local;
      t.target = t.str;
      if (vt == Ty::Error) {
        flow_.assigned.insert(t.str);
        return;
      }
      if (vt == Ty::None || vt == Ty::Str || (is_ptr(vt) && !gpu_)) {
        error(v.pos, "E1030", str_cat("cannot store ", vt == Ty::None ? "None" : ty_name(vt), " in a variable"));
        return;
      }
      if (unknown_.count(t.str)) {
        it->second = vt;
        unknown_.erase(t.str);
        note_local(t.str);
      } else if (it->second != Ty::Error && it->second != vt) {
        error(v.pos, "E1030",
              str_cat("'", t.str, "' holds ", ty_name(it->second), "; it cannot be given a ", ty_name(vt),
                      hint_for(it->second, vt)));
        return;
      }
      t.ty = it->second;
      flow_.assigned.insert(t.str);
      return;
    }
    if (t.kind == ExprKind::Subscript) {
      Ty bt = value(*t.kids[0], Ty::Error);
      index(*t.kids[1]);
      if (bt == Ty::Error) return;
      if (!is_list(bt)) {
        error(t.pos, "E1030", str_cat("cannot assign through an index of ", ty_name(bt), is_ptr(bt) ? "; use native.store" : ""));
        return;
      }
      t.ty = elem_of(bt);
      if (vt != Ty::Error && vt != t.ty)
        error(v.pos, "E1030", str_cat("cannot store ", ty_name(vt), " in a ", ty_name(bt), hint_for(t.ty, vt)));
      effect("writes");
      raises();
      return;
    }
    if (t.kind == ExprKind::Attribute) {
      error(t.pos, "E1010", "assigning to an attribute is outside the ppy subset");
      return;
    }
    error(t.pos, "E1001", "cannot assign to this expression");
  }

  void aug_assign(Stmt& s) {
    Expr& t = *s.targets[0];
    if (t.kind != ExprKind::Name && t.kind != ExprKind::Subscript) {
      error(t.pos, "E1010", "augmented assignment needs a variable or a list element");
      return;
    }
    Ty tt;
    if (t.kind == ExprKind::Name) {
      tt = value(t, Ty::Error);
    } else {
      Ty bt = value(*t.kids[0], Ty::Error);
      index(*t.kids[1]);
      if (bt != Ty::Error && !is_list(bt)) {
        error(t.pos, "E1030", str_cat("cannot assign through an index of ", ty_name(bt)));
        return;
      }
      tt = bt == Ty::Error ? Ty::Error : elem_of(bt);
      t.ty = tt;
      effect("reads");
      effect("writes");
      raises();
    }
    Ty vt = value(*s.value, Ty::Error);
    if (tt == Ty::Error || vt == Ty::Error) return;
    Ty r = arith(s.op, tt, vt, s.pos);
    if (r == Ty::Error) return;
    if (r != tt) {
      error(s.pos, "E1030",
            str_cat("'", s.op, "=' would turn ", t.kind == ExprKind::Name ? str_cat("'", t.str, "'") : std::string("the element"),
                    " from ", ty_name(tt), " into ", ty_name(r), "; a variable keeps one type"));
    }
  }

  void for_stmt(Stmt& s) {
    Expr& t = *s.targets[0];
    Expr& it = *s.value;
    Ty var_ty = Ty::Error;
    bool is_range = it.kind == ExprKind::Call && it.kids[0]->kind == ExprKind::Name && it.kids[0]->str == "range" &&
                    !types_.count("range") && !m_.func_index.count("range");
    if (is_range) {
      it.ref = Ref::Builtin;
      it.target = "range";
      size_t n = it.kids.size() - 1;
      if (n < 1 || n > 3 || !it.keywords.empty()) {
        error(it.pos, "E1032", "range() takes 1 to 3 positional arguments");
      }
      for (size_t i = 1; i < it.kids.size(); ++i) {
        Ty a = value(*it.kids[i], Ty::Int);
        if (a != Ty::Error && a != Ty::Int && a != Ty::Bool)
          error(it.kids[i]->pos, "E1030", str_cat("range() takes int arguments, not ", ty_name(a)));
      }
      if (n == 3) {
        const Expr& st = *it.kids[3];
        bool const_step = st.kind == ExprKind::Int ||
                          (st.kind == ExprKind::Unary && st.str == "-" && st.kids[0]->kind == ExprKind::Int);
        if (!const_step) raises();
        if (st.kind == ExprKind::Int && st.ival == 0) error(st.pos, "E1030", "range() arg 3 must not be zero");
      }
      raises();  // the counter's increment is checked
      var_ty = Ty::Int;
    } else {
      Ty lt = value(it, Ty::Error);
      if (lt != Ty::Error && !is_list(lt)) {
        error(it.pos, "E1010", str_cat("a for loop runs over range(...) or a list, not ", ty_name(lt)));
        lt = Ty::Error;
      }
      if (lt != Ty::Error) {
        var_ty = elem_of(lt);
        effect("reads");
      }
      it.ref = Ref::Unresolved;
    }
    if (t.kind != ExprKind::Name) {
      error(t.pos, "E1010", "a for loop's target must be one variable");
      return;
    }
    Flow before = flow_;
    Expr dummy;
    dummy.kind = ExprKind::Int;
    dummy.pos = t.pos;
    assign(t, var_ty, dummy);
    loops_.push_back({});
    block(s.body);
    std::vector<Flow> breaks = std::move(loops_.back());
    loops_.pop_back();
    Flow out = before;
    for (auto& b : breaks) out = merge(out, b);
    flow_ = out;
  }

  // --- expressions ---

  /// An expression whose value is used (not None, not a bare string).
  Ty value(Expr& e, Ty expected) {
    Ty t = expr(e, expected, false);
    if (t == Ty::None) {
      error(e.pos, "E1030", "this call returns None; its value cannot be used");
      return e.ty = Ty::Error;
    }
    if (t == Ty::Str) {
      error(e.pos, "E1010", "strings are outside the ppy subset, except as print() arguments");
      return e.ty = Ty::Error;
    }
    return t;
  }

  void condition(Expr& e) {
    Ty t = value(e, Ty::Error);
    if (is_ptr(t)) error(e.pos, "E1030", "a native pointer cannot be a condition");
  }

  void index(Expr& e) {
    Ty t = value(e, Ty::Int);
    if (t != Ty::Error && t != Ty::Int && t != Ty::Bool)
      error(e.pos, "E1030", str_cat("list indices must be int, not ", ty_name(t)));
  }

  Ty expr(Expr& e, Ty expected, bool stmt_level) { return e.ty = expr_inner(e, expected, stmt_level); }

  Ty expr_inner(Expr& e, Ty expected, bool stmt_level) {
    switch (e.kind) {
      case ExprKind::Int: return Ty::Int;
      case ExprKind::Float: return Ty::Float;
      case ExprKind::Bool: return Ty::Bool;
      case ExprKind::NoneLit:
        error(e.pos, "E1010", "None is only a return annotation in the ppy subset");
        return Ty::Error;
      case ExprKind::Str: return Ty::Str;
      case ExprKind::Name: return name(e);
      case ExprKind::Attribute: return attribute(e);
      case ExprKind::Unary: return unary(e);
      case ExprKind::Binary: return binary(e);
      case ExprKind::BoolOp: {
        Ty a = value(*e.kids[0], Ty::Error), b = value(*e.kids[1], Ty::Error);
        if (a == Ty::Error || b == Ty::Error) return Ty::Error;
        if (a == b && !is_ptr(a) && !is_list(a)) return a;
        error(e.pos, "E1030",
              str_cat("'", e.str, "' of ", ty_name(a), " and ", ty_name(b),
                      " gives either operand in Python; the subset needs both of one type (int, float or bool)"));
        return Ty::Error;
      }
      case ExprKind::Compare: return compare(e);
      case ExprKind::IfExp: {
        condition(*e.kids[0]);
        Ty a = expr(*e.kids[1], expected, false), b = expr(*e.kids[2], expected, false);
        if (a == Ty::Str && b == Ty::Str) return Ty::Str;  // only print() takes it
        if (a == Ty::Str || b == Ty::Str) {
          error(e.pos, "E1010", "strings are outside the ppy subset, except as print() arguments");
          return Ty::Error;
        }
        if (a == Ty::None || b == Ty::None) {
          error(e.pos, "E1030", "a call that returns None cannot be a value");
          return Ty::Error;
        }
        if (a == Ty::Error || b == Ty::Error) return Ty::Error;
        if (a != b) {
          error(e.pos, "E1030", str_cat("the branches of a conditional expression give ", ty_name(a), " and ", ty_name(b), "; they must agree"));
          return Ty::Error;
        }
        return a;
      }
      case ExprKind::Call: return call(e, stmt_level);
      case ExprKind::Subscript: {
        Ty bt = value(*e.kids[0], Ty::Error);
        if (e.kids[1]->kind == ExprKind::Tuple) {
          error(e.kids[1]->pos, "E1010", "multi-dimensional indexing is outside the ppy subset");
          return Ty::Error;
        }
        index(*e.kids[1]);
        if (bt == Ty::Error) return Ty::Error;
        if (!is_list(bt)) {
          error(e.pos, "E1030", str_cat(ty_name(bt), " cannot be indexed", is_ptr(bt) ? "; use native.load(native.offset(p, i))" : ""));
          return Ty::Error;
        }
        effect("reads");
        raises();
        return elem_of(bt);
      }
      case ExprKind::List: {
        if (gpu_) {
          error(e.pos, "E1100", "lists are not available in GPU code");
          return Ty::Error;
        }
        if (e.kids.empty()) {
          if (is_list(expected)) return expected;
          error(e.pos, "E1030", "the element type of an empty list is unknown; annotate it: `xs: list[int] = []`");
          return Ty::Error;
        }
        Ty et = Ty::Error;
        bool bad = false;
        for (auto& k : e.kids) {
          Ty t = value(*k, Ty::Error);
          if (t == Ty::Error) { bad = true; continue; }
          if (t != Ty::Int && t != Ty::Float) {
            error(k->pos, "E1030", str_cat("lists hold int or float, not ", ty_name(t)));
            bad = true;
            continue;
          }
          if (et == Ty::Error) et = t;
          else if (et != t) {
            error(k->pos, "E1030", "a list mixes int and float elements; write every element as a float (1.0)");
            bad = true;
          }
        }
        if (bad) return Ty::Error;
        return et == Ty::Int ? Ty::ListInt : Ty::ListFloat;
      }
      case ExprKind::Tuple:
        error(e.pos, "E1010", "tuples are outside the ppy subset, except `a, b = x, y`");
        return Ty::Error;
    }
    return Ty::Error;
  }

  // What `e` (a name or attribute chain) refers to outside locals.
  struct Resolved {
    Ref ref = Ref::Unresolved;
    std::string module;  ///< Func/Const/Module: the module
    std::string name;    ///< Func/Const: the member; Special: the path
    Ty ty = Ty::Error;
    ConstInfo value;
  };

  Resolved resolve_path(const std::string& path) {
    Resolved r;
    std::string first = path.substr(0, path.find('.'));
    std::string rest = path.size() > first.size() ? path.substr(first.size() + 1) : "";
    if (rest.empty()) {
      if (auto* f = m_.func(first)) {
        r.ref = Ref::Func;
        r.module = m_.name;
        r.name = f->name;
        return r;
      }
      auto c = m_.consts.find(first);
      if (c != m_.consts.end()) {
        r.ref = Ref::Const;
        r.value = c->second;
        r.ty = c->second.ty;
        return r;
      }
    }
    auto b = m_.bindings.find(first);
    if (b == m_.bindings.end()) {
      if (rest.empty()) {
        static const std::set<std::string> builtins = {"print", "len", "range", "int", "float", "bool", "abs", "min", "max"};
        if (builtins.count(first)) {
          r.ref = Ref::Builtin;
          r.name = first;
        }
      }
      return r;
    }
    const Binding& bd = b->second;
    if (bd.kind == Binding::Special) {
      std::string full = bd.name + (rest.empty() ? "" : "." + rest);
      if (!special_names().count(full)) return r;
      r.name = full;
      if (full.starts_with("math.")) r.ref = Ref::Math;
      else if (full.starts_with("ppy.cuda.")) r.ref = Ref::Cuda;
      else if (full.starts_with("ppy.native.")) r.ref = Ref::Native;
      else r.ref = Ref::Ppy;
      if (full == "math.pi" || full == "math.e" || full == "math.inf" || full == "math.tau") {
        r.ref = Ref::Const;
        r.ty = Ty::Float;
        r.value.ty = Ty::Float;
        r.value.f = full == "math.pi" ? M_PI : full == "math.e" ? M_E : full == "math.tau" ? 2 * M_PI : INFINITY;
      }
      return r;
    }
    std::string full;
    if (bd.kind == Binding::Module) full = bd.module + (rest.empty() ? "" : "." + rest);
    else full = bd.module + "." + bd.name + (rest.empty() ? "" : "." + rest);
    // The longest prefix naming a module of the project; the rest is one member.
    for (size_t cut = full.size();;) {
      std::string mod = full.substr(0, cut);
      auto it = all_.find(mod);
      if (it != all_.end() && mod != m_.name) {
        std::string member = cut < full.size() ? full.substr(cut + 1) : "";
        if (member.empty()) {
          r.ref = Ref::Module;
          r.module = mod;
          return r;
        }
        if (member.find('.') != std::string::npos) return r;
        auto f = it->second.functions.find(member);
        if (f != it->second.functions.end()) {
          r.ref = Ref::Func;
          r.module = mod;
          r.name = member;
          return r;
        }
        auto c = it->second.constants.find(member);
        if (c != it->second.constants.end()) {
          r.ref = Ref::Const;
          r.ty = ty_from_name(c->second.type);
          r.value.ty = r.ty;
          r.value.i = c->second.i;
          r.value.f = c->second.f;
          r.value.b = c->second.b;
          return r;
        }
        return r;
      }
      size_t dot = full.rfind('.', cut - 1);
      if (dot == std::string::npos || cut == 0) break;
      cut = dot;
    }
    return r;
  }

  Ty use_const(Expr& e, const Resolved& r) {
    e.ref = Ref::Const;
    e.ival = r.value.i;
    e.fval = r.value.f;
    e.bval = r.value.b;
    return r.ty;
  }

  Ty name(Expr& e) {
    auto lt = types_.find(e.str);
    if (lt != types_.end()) {
      e.ref = Ref::Local;
      e.target = e.str;
      if (flow_.reachable && !flow_.assigned.count(e.str)) {
        error(e.pos, "E1060",
              str_cat("'", e.str, "' might be used before it is assigned (", "ppy needs every path to assign a local before reading it)"));
        return Ty::Error;
      }
      return lt->second;
    }
    Resolved r = resolve_path(e.str);
    if (r.ref == Ref::Const) return use_const(e, r);
    if (r.ref == Ref::Unresolved && m_.module_vars.count(e.str)) {
      error(e.pos, "E1010",
            str_cat("'", e.str, "' is a module-level variable; functions read module-level constants only "
                    "(module variables and `global` are outside the ppy subset)"));
      return Ty::Error;
    }
    if (r.ref == Ref::Unresolved) {
      error(e.pos, "E1020", str_cat("name '", e.str, "' is not defined"));
      return Ty::Error;
    }
    error(e.pos, "E1030", str_cat("'", e.str, "' is a ", r.ref == Ref::Module ? "module" : "function",
                                  "; it can only be called or used as cuda.launch's kernel"));
    return Ty::Error;
  }

  Ty attribute(Expr& e) {
    auto path = dotted(e);
    if (path) {
      std::string first = path->substr(0, path->find('.'));
      if (!types_.count(first)) {
        Resolved r = resolve_path(*path);
        if (r.ref == Ref::Const) return use_const(e, r);
        if (r.ref == Ref::Unresolved) {
          if (!m_.bindings.count(first) && !m_.consts.count(first) && !m_.func_index.count(first))
            error(e.kids[0]->pos, "E1020", str_cat("name '", first, "' is not defined"));
          else
            error(e.pos, "E1020", str_cat("'", *path, "' is not defined (or is outside the ppy subset)"));
          return Ty::Error;
        }
        error(e.pos, "E1030", str_cat("'", *path, "' cannot be used as a value"));
        return Ty::Error;
      }
    }
    Ty bt = value(*e.kids[0], Ty::Error);
    if (bt != Ty::Error) error(e.pos, "E1010", str_cat("attributes of ", ty_name(bt), " are outside the ppy subset"));
    return Ty::Error;
  }

  Ty unary(Expr& e) {
    Ty t = value(*e.kids[0], Ty::Error);
    if (t == Ty::Error) return t;
    if (e.str == "not") {
      if (is_ptr(t)) error(e.pos, "E1030", "'not' of a native pointer");
      return Ty::Bool;
    }
    if (!is_numeric(t)) {
      error(e.pos, "E1030", str_cat("bad operand type for unary ", e.str, ": ", ty_name(t)));
      return Ty::Error;
    }
    if (e.str == "~") {
      if (t == Ty::Float) {
        error(e.pos, "E1030", "bad operand type for unary ~: float");
        return Ty::Error;
      }
      return Ty::Int;
    }
    if (e.str == "-" && t != Ty::Float) raises();
    return t == Ty::Bool ? Ty::Int : t;
  }

  /// The result type of `a op b` for numbers, or Error (reported).
  Ty arith(const std::string& op, Ty a, Ty b, Pos p) {
    if (op == "<<" || op == ">>") {
      if (a == Ty::Float || b == Ty::Float || !is_numeric(a) || !is_numeric(b)) {
        error(p, "E1030", str_cat("unsupported operand types for ", op, ": ", ty_name(a), " and ", ty_name(b)));
        return Ty::Error;
      }
      if (gpu_) {
        error(p, "E1100", str_cat("'", op, "' is not available in GPU code"));
        return Ty::Error;
      }
      raises();  // a negative count (ValueError); `<<` past i64 (OverflowError)
      return Ty::Int;
    }
    if (op == "@") {
      error(p, "E1010", "the '@' operator is outside the ppy subset");
      return Ty::Error;
    }
    if (!is_numeric(a) || !is_numeric(b)) {
      error(p, "E1030", str_cat("unsupported operand types for ", op, ": ", ty_name(a), " and ", ty_name(b)));
      return Ty::Error;
    }
    if (op == "&" || op == "|" || op == "^") {
      if (a == Ty::Float || b == Ty::Float) {
        error(p, "E1030", str_cat("unsupported operand types for ", op, ": ", ty_name(a), " and ", ty_name(b)));
        return Ty::Error;
      }
      return a == Ty::Bool && b == Ty::Bool ? Ty::Bool : Ty::Int;
    }
    bool flt = a == Ty::Float || b == Ty::Float;
    if (op == "/") {
      raises();
      return Ty::Float;
    }
    if (op == "//" || op == "%" || op == "**") raises();
    if (!flt) raises();
    if (op == "**" && gpu_ && !flt) {
      error(p, "E1100", "int ** int is not available in GPU code");
      return Ty::Error;
    }
    return flt ? Ty::Float : Ty::Int;
  }

  Ty binary(Expr& e) {
    const std::string& op = e.str;
    // `[x] * n` and `n * [x]`: a list of n copies.
    if (op == "*" && (e.kids[0]->kind == ExprKind::List || e.kids[1]->kind == ExprKind::List)) {
      Expr& lst = e.kids[0]->kind == ExprKind::List ? *e.kids[0] : *e.kids[1];
      Expr& cnt = e.kids[0]->kind == ExprKind::List ? *e.kids[1] : *e.kids[0];
      if (lst.kids.size() != 1) {
        error(lst.pos, "E1010", "list repetition is supported for one-element lists only: `[x] * n`");
        return Ty::Error;
      }
      Ty lt = value(lst, Ty::Error);
      Ty ct = value(cnt, Ty::Int);
      if (lt == Ty::Error || ct == Ty::Error) return Ty::Error;
      if (ct != Ty::Int && ct != Ty::Bool) {
        error(cnt.pos, "E1030", str_cat("can't multiply a list by ", ty_name(ct)));
        return Ty::Error;
      }
      e.target = "repeat";
      effect("writes");
      return lt;
    }
    Ty a = value(*e.kids[0], Ty::Error), b = value(*e.kids[1], Ty::Error);
    if (a == Ty::Error || b == Ty::Error) return Ty::Error;
    if (is_list(a) || is_list(b)) {
      error(e.pos, "E1010", str_cat("'", op, "' on lists is outside the ppy subset (lists have a fixed length)"));
      return Ty::Error;
    }
    return arith(op, a, b, e.pos);
  }

  Ty compare(Expr& e) {
    for (auto& op : e.ops)
      if (op == "in" || op == "not in" || op == "is" || op == "is not") {
        error(e.pos, "E1010", str_cat("the '", op, "' operator is outside the ppy subset"));
        return Ty::Error;
      }
    bool ok = true;
    std::vector<Ty> ts;
    for (auto& k : e.kids) {
      ts.push_back(value(*k, Ty::Error));
      if (ts.back() == Ty::Error) ok = false;
    }
    if (!ok) return Ty::Error;
    for (size_t i = 0; i + 1 < ts.size(); ++i)
      if (!is_numeric(ts[i]) || !is_numeric(ts[i + 1])) {
        error(e.pos, "E1030", str_cat("cannot compare ", ty_name(ts[i]), " and ", ty_name(ts[i + 1])));
        return Ty::Error;
      }
    return Ty::Bool;
  }

  // --- calls ---
  Ty call(Expr& e, bool stmt_level) {
    Expr& callee = *e.kids[0];
    auto path = dotted(callee);
    if (!path) {
      for (size_t i = 1; i < e.kids.size(); ++i) value(*e.kids[i], Ty::Error);
      error(callee.pos, "E1010", "only named functions can be called in the ppy subset");
      return Ty::Error;
    }
    std::string first = path->substr(0, path->find('.'));
    if (types_.count(first)) {
      if (callee.kind == ExprKind::Attribute) {
        Ty bt = value(*callee.kids[0], Ty::Error);
        if (is_list(bt))
          error(callee.pos, "E1010",
                str_cat("list method '", callee.str, "' is outside the ppy subset (lists have a fixed length; make them with [x] * n)"));
        else if (bt != Ty::Error)
          error(callee.pos, "E1010", str_cat("methods of ", ty_name(bt), " are outside the ppy subset"));
        return Ty::Error;
      }
      error(callee.pos, "E1030", str_cat("'", first, "' is a local variable, not a function"));
      return Ty::Error;
    }
    Resolved r = resolve_path(*path);
    e.ref = r.ref;
    switch (r.ref) {
      case Ref::Func: return user_call(e, r);
      case Ref::Builtin: return builtin(e, r.name, stmt_level);
      case Ref::Math: return math_call(e, r.name);
      case Ref::Cuda:
      case Ref::Native: return gpu_call(e, r.name);
      case Ref::Unresolved:
        if (!m_.bindings.count(first) && !m_.func_index.count(first) && !m_.consts.count(first)) {
          static const std::set<std::string> known = {"str", "input", "open", "sum", "sorted", "list", "dict",
                                                      "set", "tuple", "round", "isinstance", "enumerate", "zip",
                                                      "map", "filter", "repr", "type", "divmod", "pow", "any", "all"};
          if (known.count(first)) error(callee.pos, "E1010", str_cat("the builtin '", first, "' is outside the ppy subset"));
          else error(callee.pos, "E1020", str_cat("name '", first, "' is not defined"));
        } else {
          error(callee.pos, "E1020", str_cat("'", *path, "' is not defined (or is outside the ppy subset)"));
        }
        return Ty::Error;
      default:
        error(callee.pos, "E1030", str_cat("'", *path, "' is not callable"));
        return Ty::Error;
    }
  }

  bool signature(const Resolved& r, std::vector<std::string>& names, std::vector<Ty>& params, Ty& result,
                 std::string& kind, std::vector<std::optional<ConstInfo>>* defaults = nullptr) {
    if (r.module == m_.name) {
      FuncInfo* f = m_.func(r.name);
      for (auto& p : f->def->params) names.push_back(p.name);
      params = f->params;
      result = f->result;
      kind = f->gpu_kind;
      if (defaults) *defaults = f->defaults;
      return true;
    }
    const FuncSignature& s = all_.at(r.module).functions.at(r.name);
    names = s.param_names;
    for (auto& t : s.param_types) params.push_back(ty_from_name(t));
    if (defaults) {
      defaults->assign(names.size(), std::nullopt);
      for (size_t i = 0; i < s.param_defaults.size() && i < names.size(); ++i)
        if (const auto& d = s.param_defaults[i]) {
          ConstInfo c;
          c.ty = ty_from_name(d->type);
          c.i = d->i;
          c.f = d->f;
          c.b = d->b;
          (*defaults)[i] = c;
        }
    }
    result = ty_from_name(s.result_type);
    kind = s.gpu_kind;
    return true;
  }

  /// Arguments in parameter order (keywords placed), or false (reported).
  bool bind_args(Expr& e, const std::string& fname, const std::vector<std::string>& names, std::vector<Expr*>& out,
                 const std::vector<std::optional<ConstInfo>>& defaults) {
    size_t npos = e.kids.size() - 1;
    if (npos > names.size()) {
      error(e.pos, "E1032", str_cat(fname, "() takes ", names.size(), " argument", names.size() == 1 ? "" : "s", " but ", npos, " were given"));
      return false;
    }
    out.assign(names.size(), nullptr);
    for (size_t i = 0; i < npos; ++i) out[i] = e.kids[i + 1].get();
    for (auto& k : e.keywords) {
      auto it = std::find(names.begin(), names.end(), k.name);
      if (it == names.end()) {
        error(k.pos, "E1032", str_cat(fname, "() got an unexpected keyword argument '", k.name, "'"));
        return false;
      }
      size_t i = static_cast<size_t>(it - names.begin());
      if (out[i]) {
        error(k.pos, "E1032", str_cat(fname, "() got multiple values for argument '", k.name, "'"));
        return false;
      }
      out[i] = k.value.get();
    }
    for (size_t i = 0; i < names.size(); ++i)
      if (!out[i] && !(i < defaults.size() && defaults[i])) {
        error(e.pos, "E1032", str_cat(fname, "() missing required argument '", names[i], "'"));
        return false;
      }
    return true;
  }

  Ty user_call(Expr& e, const Resolved& r) {
    std::vector<std::string> names;
    std::vector<Ty> params;
    Ty result;
    std::string kind;
    std::vector<std::optional<ConstInfo>> defaults;
    signature(r, names, params, result, kind, &defaults);
    std::string shown = r.module == m_.name ? r.name : r.module + "." + r.name;
    e.target = r.module + "." + r.name;
    if (f_.module_code && r.module == m_.name && m_.func(r.name)->def->pos.line > line_) {
      error(e.kids[0]->pos, "E1020", str_cat("name '", r.name, "' is not defined (its `def` comes later in the module)"));
      return Ty::Error;
    }
    if (kind == "kernel") {
      error(e.pos, "E1100", str_cat("kernel '", shown, "' cannot be called directly; launch it with cuda.launch(", r.name, ", grid, block, ...)"));
      return Ty::Error;
    }
    if (kind == "device" && !gpu_) {
      error(e.pos, "E1100", str_cat("device function '", shown, "' can only be called from GPU code"));
      return Ty::Error;
    }
    if (kind.empty() && gpu_) {
      error(e.pos, "E1100", str_cat("GPU code cannot call the host function '", shown, "'"));
      return Ty::Error;
    }
    std::vector<Expr*> args;
    if (!bind_args(e, shown, names, args, defaults)) {
      for (size_t i = 1; i < e.kids.size(); ++i) value(*e.kids[i], Ty::Error);
      return Ty::Error;
    }
    // A parameter left out takes its default: the constant, passed as a keyword.
    for (size_t i = 0; i < args.size(); ++i) {
      if (args[i]) continue;
      const ConstInfo& d = *defaults[i];
      Keyword k;
      k.name = names[i];
      k.pos = e.pos;
      k.value = std::make_unique<Expr>();
      k.value->kind = d.ty == Ty::Float ? ExprKind::Float : d.ty == Ty::Bool ? ExprKind::Bool : ExprKind::Int;
      k.value->pos = e.pos;
      k.value->ival = d.i;
      k.value->fval = d.f;
      k.value->bval = d.b;
      args[i] = k.value.get();
      e.keywords.push_back(std::move(k));
    }
    bool ok = true;
    for (size_t i = 0; i < args.size(); ++i) {
      Ty t = value(*args[i], params[i]);
      if (t == Ty::Error || params[i] == Ty::Error) { ok = false; continue; }
      if (t != params[i]) {
        error(args[i]->pos, "E1030", str_cat("argument '", names[i], "' of ", shown, "() is ", ty_name(params[i]), ", not ", ty_name(t), hint_for(params[i], t)));
        ok = false;
      }
      args[i]->param_index = static_cast<int>(i);
    }
    f_.callees.insert(e.target);
    if (r.module != m_.name) m_.externals.insert(e.target);
    if (!ok) return Ty::Error;
    return result;
  }

  Ty builtin(Expr& e, const std::string& n, bool stmt_level) {
    e.target = n;
    size_t nargs = e.kids.size() - 1;
    if (gpu_ && n != "int" && n != "float" && n != "abs" && n != "min" && n != "max" && n != "bool") {
      error(e.pos, "E1100", str_cat(n, "() is not available in GPU code"));
      return Ty::Error;
    }
    if (n == "print") {
      effect("io");
      for (auto& k : e.keywords) {
        if (k.name == "flush" && k.value->kind == ExprKind::Bool) continue;  // output is unbuffered anyway
        if (k.name != "sep" && k.name != "end") {
          error(k.pos, "E1010", str_cat("print(", k.name, "=...) is outside the ppy subset"));
          return Ty::Error;
        }
        if (k.value->kind != ExprKind::Str) {
          error(k.value->pos, "E1010", str_cat("print's ", k.name, " must be a string literal"));
          return Ty::Error;
        }
      }
      for (size_t i = 1; i < e.kids.size(); ++i) {
        Ty t = expr(*e.kids[i], Ty::Error, false);
        if (t == Ty::None) error(e.kids[i]->pos, "E1030", "this call returns None; printing it is outside the ppy subset");
        else if (is_ptr(t)) error(e.kids[i]->pos, "E1030", "a native pointer cannot be printed");
        else if (is_list(t)) effect("reads");
      }
      return Ty::None;
    }
    if (!e.keywords.empty()) {
      error(e.keywords[0].pos, "E1032", str_cat(n, "() takes no keyword arguments"));
      return Ty::Error;
    }
    auto arity = [&](size_t lo, size_t hi) {
      if (nargs < lo || nargs > hi) {
        error(e.pos, "E1032", lo == hi ? str_cat(n, "() takes exactly ", lo, " argument", lo == 1 ? "" : "s", " (", nargs, " given)")
                                       : str_cat(n, "() takes ", lo, " to ", hi, " arguments (", nargs, " given)"));
        return false;
      }
      return true;
    };
    if (n == "range") {
      error(e.pos, "E1010", "range() is only supported as the iterable of a for loop");
      return Ty::Error;
    }
    if (n == "len") {
      if (!arity(1, 1)) return Ty::Error;
      Ty t = value(*e.kids[1], Ty::Error);
      if (t == Ty::Error) return t;
      if (!is_list(t)) {
        error(e.kids[1]->pos, "E1030", str_cat("object of type '", ty_name(t), "' has no len()"));
        return Ty::Error;
      }
      return Ty::Int;
    }
    if (n == "int" || n == "float" || n == "bool") {
      if (nargs == 0) {
        e.target = n + "0";
        return n == "int" ? Ty::Int : n == "float" ? Ty::Float : Ty::Bool;
      }
      if (!arity(0, 1)) return Ty::Error;
      Ty t = value(*e.kids[1], Ty::Error);
      if (t == Ty::Error) return t;
      if (n == "bool" ? (!is_numeric(t) && !is_list(t)) : !is_numeric(t)) {
        error(e.kids[1]->pos, "E1030", str_cat(n, "() of ", ty_name(t), " is outside the ppy subset"));
        return Ty::Error;
      }
      if (n == "int" && t == Ty::Float) raises();
      return n == "int" ? Ty::Int : n == "float" ? Ty::Float : Ty::Bool;
    }
    if (n == "abs") {
      if (!arity(1, 1)) return Ty::Error;
      Ty t = value(*e.kids[1], Ty::Error);
      if (t == Ty::Error) return t;
      if (!is_numeric(t)) {
        error(e.kids[1]->pos, "E1030", str_cat("bad operand type for abs(): ", ty_name(t)));
        return Ty::Error;
      }
      if (t != Ty::Float) raises();
      return t == Ty::Float ? Ty::Float : Ty::Int;
    }
    if (n == "min" || n == "max") {
      if (nargs < 2) {
        error(e.pos, "E1032", str_cat(n, "() takes two or more numbers in the ppy subset (", nargs, " given)"));
        return Ty::Error;
      }
      Ty common = Ty::Error;
      for (size_t i = 1; i < e.kids.size(); ++i) {
        Ty t = value(*e.kids[i], Ty::Error);
        if (t == Ty::Error) return t;
        if (t != Ty::Int && t != Ty::Float) {
          error(e.kids[i]->pos, "E1030", str_cat(n, "() of ", ty_name(t), " is outside the ppy subset"));
          return Ty::Error;
        }
        if (common == Ty::Error) common = t;
        else if (common != t) {
          error(e.kids[i]->pos, "E1030", str_cat(n, "() of int and float returns either in Python; the subset needs one type"));
          return Ty::Error;
        }
      }
      return common;
    }
    (void)stmt_level;
    return Ty::Error;
  }

  Ty math_call(Expr& e, const std::string& n) {
    e.target = n;
    size_t want = n == "math.pow" ? 2 : 1;
    if (e.kids.size() - 1 != want || !e.keywords.empty()) {
      error(e.pos, "E1032", str_cat(n, "() takes exactly ", want, " argument", want == 1 ? "" : "s"));
      return Ty::Error;
    }
    for (size_t i = 1; i < e.kids.size(); ++i) {
      Ty t = value(*e.kids[i], Ty::Float);
      if (t == Ty::Error) return t;
      if (!is_numeric(t)) {
        error(e.kids[i]->pos, "E1030", str_cat(n, "() takes a number, not ", ty_name(t)));
        return Ty::Error;
      }
    }
    if (n == "math.floor" || n == "math.ceil" || n == "math.trunc") {
      raises();
      return Ty::Int;
    }
    if (n == "math.sqrt" || n == "math.log" || n == "math.log2" || n == "math.log10" || n == "math.exp" ||
        n == "math.pow" || n == "math.sin" || n == "math.cos" || n == "math.tan")
      raises();
    return Ty::Float;
  }

  Ty gpu_call(Expr& e, const std::string& n) {
    e.target = n;
    size_t nargs = e.kids.size() - 1;
    if (n == "ppy.cuda.launch") {
      if (gpu_) {
        error(e.pos, "E1100", "cuda.launch is only available in host code");
        return Ty::Error;
      }
      if (nargs < 3) {
        error(e.pos, "E1032", "cuda.launch takes (kernel, grid, block, *args)");
        return Ty::Error;
      }
      auto kpath = dotted(*e.kids[1]);
      Resolved kr = kpath ? resolve_path(*kpath) : Resolved{};
      std::vector<std::string> names;
      std::vector<Ty> params;
      Ty result;
      std::string kind;
      if (kr.ref != Ref::Func || (signature(kr, names, params, result, kind), kind != "kernel")) {
        error(e.kids[1]->pos, "E1100", "cuda.launch's first argument must be a @cuda.kernel function");
        return Ty::Error;
      }
      e.kids[1]->ref = Ref::Func;
      e.kids[1]->target = kr.module + "." + kr.name;
      for (size_t i : {2, 3}) {
        Expr& g = *e.kids[i];
        std::vector<Expr*> dims;
        if (g.kind == ExprKind::Tuple) for (auto& k : g.kids) dims.push_back(k.get());
        else dims.push_back(&g);
        if (dims.empty() || dims.size() > 3) {
          error(g.pos, "E1100", "a launch's grid and block are an int or a tuple of up to three ints");
          return Ty::Error;
        }
        for (Expr* d : dims) {
          Ty t = value(*d, Ty::Int);
          if (t != Ty::Int && t != Ty::Error) {
            error(d->pos, "E1030", "a launch's grid and block sizes are ints");
            return Ty::Error;
          }
        }
        g.ty = Ty::Int;
      }
      if (nargs - 3 != params.size()) {
        error(e.pos, "E1032", str_cat("kernel '", kr.name, "' takes ", params.size(), " arguments but ", nargs - 3, " were given"));
        return Ty::Error;
      }
      for (size_t i = 0; i < params.size(); ++i) {
        Expr& a = *e.kids[4 + i];
        Ty t = value(a, Ty::Error);
        if (t == Ty::Error) continue;
        bool ok = t == params[i] || (is_ptr(params[i]) && is_list(t) && elem_of(t) == elem_of(params[i]));
        if (!ok) error(a.pos, "E1030", str_cat("argument '", names[i], "' of kernel '", kr.name, "' is ", ty_name(params[i]), ", not ", ty_name(t)));
      }
      f_.callees.insert(e.kids[1]->target);
      if (kr.module != m_.name) m_.externals.insert(e.kids[1]->target);
      effect("io");
      effect("reads");
      effect("writes");
      return Ty::None;
    }
    if (!gpu_) {
      error(e.pos, "E1100", str_cat(n.substr(4), " is only available in @cuda.kernel and @cuda.device functions"));
      return Ty::Error;
    }
    if (n == "ppy.cuda.thread_id" || n == "ppy.cuda.block_id" || n == "ppy.cuda.block_dim" ||
        n == "ppy.cuda.grid_dim" || n == "ppy.cuda.global_id") {
      e.str = "x";
      if (nargs > 1 || (nargs == 1 && (e.kids[1]->kind != ExprKind::Str ||
                                        (e.kids[1]->str != "x" && e.kids[1]->str != "y" && e.kids[1]->str != "z")))) {
        error(e.pos, "E1100", str_cat(n.substr(4), "() takes an optional dimension: \"x\", \"y\" or \"z\""));
        return Ty::Error;
      }
      if (nargs == 1) e.str = e.kids[1]->str;
      return Ty::Int;
    }
    if (n == "ppy.cuda.syncthreads") {
      if (nargs != 0) error(e.pos, "E1032", "cuda.syncthreads() takes no arguments");
      return Ty::None;
    }
    if (n == "ppy.native.offset") {
      if (nargs != 2) {
        error(e.pos, "E1032", "native.offset takes (pointer, index)");
        return Ty::Error;
      }
      Ty p = value(*e.kids[1], Ty::Error);
      Ty i = value(*e.kids[2], Ty::Int);
      if (p == Ty::Error || i == Ty::Error) return Ty::Error;
      if (!is_ptr(p) || i != Ty::Int) {
        error(e.pos, "E1030", "native.offset takes a native pointer and an int");
        return Ty::Error;
      }
      return p;
    }
    if (n == "ppy.native.load") {
      if (nargs != 1) {
        error(e.pos, "E1032", "native.load takes one pointer");
        return Ty::Error;
      }
      Ty p = value(*e.kids[1], Ty::Error);
      if (p == Ty::Error) return p;
      if (!is_ptr(p)) {
        error(e.kids[1]->pos, "E1030", str_cat("native.load takes a native pointer, not ", ty_name(p)));
        return Ty::Error;
      }
      effect("reads");
      return elem_of(p);
    }
    if (n == "ppy.native.store") {
      if (nargs != 2) {
        error(e.pos, "E1032", "native.store takes (pointer, value)");
        return Ty::Error;
      }
      Ty p = value(*e.kids[1], Ty::Error);
      Ty v = value(*e.kids[2], Ty::Error);
      if (p == Ty::Error || v == Ty::Error) return Ty::Error;
      if (p == Ty::ConstPtrInt || p == Ty::ConstPtrFloat) {
        error(e.kids[1]->pos, "E1100", "native.store through a const_ptr");
        return Ty::Error;
      }
      if (!is_ptr(p) || v != elem_of(p)) {
        error(e.pos, "E1030", str_cat("native.store needs a pointer and a value of its element type (", is_ptr(p) ? ty_name(elem_of(p)) : "?", ")"));
        return Ty::Error;
      }
      effect("writes");
      return Ty::None;
    }
    error(e.pos, "E1010", str_cat(n.substr(4), " is outside the ppy subset"));
    return Ty::Error;
  }

  ModuleInfo& m_;
  FuncInfo& f_;
  const ModuleInterfaces& all_;
  DiagnosticEngine& d_;
  bool gpu_;
  std::map<std::string, Ty> types_;
  std::set<std::string> unknown_;
  std::vector<std::string> order_;
  Flow flow_;
  std::vector<std::vector<Flow>> loops_;
  uint32_t line_ = 0;  ///< the statement being checked (module code calls only what is defined above it)
};

std::string ty_string(Ty t) { return ty_name(t); }

}  // namespace

void declare_module(ModuleInfo& m, const std::string& text, DiagnosticEngine& diags) {
  m.ast = parse_module(text, m.path, diags);
  Declarer(m, diags).run();
}

ModuleInterface interface_of(const ModuleInfo& m) {
  ModuleInterface out;
  out.name = m.name;
  for (const FuncInfo& f : m.funcs) {
    FuncSignature s;
    s.name = f.name;
    for (auto& p : f.def->params) s.param_names.push_back(p.name);
    for (Ty t : f.params) s.param_types.push_back(ty_string(t));
    for (const auto& d : f.defaults) {
      std::optional<ConstantValue> v;
      if (d) v = ConstantValue{ty_string(d->ty), d->i, d->f, d->b};
      s.param_defaults.push_back(v);
    }
    s.result_type = ty_string(f.result);
    s.effects.assign(f.effects.begin(), f.effects.end());
    s.gpu_kind = f.gpu_kind;
    s.exported = f.exported;
    out.functions[f.name] = std::move(s);
  }
  for (auto& [n, c] : m.consts) {
    ConstantValue v;
    v.type = ty_string(c.ty);
    v.i = c.i;
    v.f = c.f;
    v.b = c.b;
    out.constants[n] = v;
  }
  out.imports = m.imports;
  return out;
}

void check_module(ModuleInfo& m, const ModuleInterfaces& all, DiagnosticEngine& diags) {
  // Import bindings: every project module named must exist, and every imported name.
  for (auto& [local, b] : m.bindings) {
    if (b.kind == Binding::Special) {
      if (!special_names().count(b.name))
        diags.error("E1070", m.path, b.pos.line, b.pos.col, str_cat("'", b.name, "' is not available in the ppy subset"));
      continue;
    }
    if (b.kind == Binding::Module) {
      bool found = false;
      for (auto& [name, _] : all)
        if (name == b.module || name.starts_with(b.module + ".")) found = true;
      if (!found || b.module == m.name)
        diags.error("E1070", m.path, b.pos.line, b.pos.col,
                    b.module == m.name ? str_cat("module ", m.name, " imports itself")
                                       : str_cat("no module named '", b.module, "' in the project"));
      continue;
    }
    auto mod = all.find(b.module);
    bool package = false;
    for (auto& [name, _] : all)
      if (name.starts_with(b.module + ".")) package = true;
    if ((mod == all.end() && !package) || b.module == m.name) {
      diags.error("E1070", m.path, b.pos.line, b.pos.col,
                  b.module == m.name ? str_cat("module ", m.name, " imports from itself")
                                     : str_cat("no module named '", b.module, "' in the project"));
      continue;
    }
    if (mod != all.end() && mod->second.functions.count(b.name)) {
      b.kind = Binding::Func;
    } else if (mod != all.end() && mod->second.constants.count(b.name)) {
      b.kind = Binding::Const;
    } else if (all.count(b.module + "." + b.name)) {
      b.kind = Binding::Module;
      b.module = b.module + "." + b.name;
      b.name.clear();
    } else {
      diags.error("E1070", m.path, b.pos.line, b.pos.col,
                  str_cat("cannot import name '", b.name, "' from '", b.module, "'"));
    }
  }
  for (auto& [local, b] : m.bindings)
    if (m.func_index.count(local) || m.consts.count(local))
      diags.error("E1021", m.path, b.pos.line, b.pos.col, str_cat("'", local, "' is both imported and defined in module ", m.name));
  for (FuncInfo& f : m.funcs) BodyChecker(m, f, all, diags).run();
  for (auto& [name, pos] : m.main_calls) {
    FuncInfo* f = m.func(name);
    if (!f)
      diags.error("E1020", m.path, pos.line, pos.col, str_cat("name '", name, "' is not defined"));
    else if (!f->params.empty() || !f->gpu_kind.empty())
      diags.error("E1032", m.path, pos.line, pos.col,
                  str_cat("the program entry '", name, "' must be a host function without parameters"));
  }
  if (FuncInfo* code = m.func("__main__"); code && code->module_code) {
    // Python's import order: each module's imports first, each module once.
    std::set<std::string> seen = {m.name};
    std::function<void(const std::vector<std::string>&)> visit = [&](const std::vector<std::string>& imports) {
      for (const std::string& i : imports) {
        auto it = all.find(i);
        if (it == all.end() || !seen.insert(i).second) continue;
        visit(it->second.imports);
        if (it->second.functions.count("__init__")) m.init_order.push_back(i);
      }
    };
    visit(m.imports);
    for (const std::string& i : m.init_order) {
      code->callees.insert(i + ".__init__");
      m.externals.insert(i + ".__init__");
    }
    return;  // main() is an ordinary function then
  }
  if (FuncInfo* main = m.func("main"); main && (!main->params.empty() || (main->result != Ty::None && main->result != Ty::Error)))
    diags.error("E1032", m.path, main->def->pos.line, main->def->pos.col,
                "main() is a program's entry: it takes no parameters and returns None");
}

void propagate_effects(ModuleInfo& m, const ModuleInterfaces& all) {
  for (bool changed = true; changed;) {
    changed = false;
    for (FuncInfo& f : m.funcs) {
      size_t before = f.effects.size();
      for (const std::string& q : f.callees) {
        size_t dot = q.rfind('.');
        std::string mod = q.substr(0, dot), fn = q.substr(dot + 1);
        if (mod == m.name) {
          if (FuncInfo* g = m.func(fn)) f.effects.insert(g->effects.begin(), g->effects.end());
        } else if (auto it = all.find(mod); it != all.end()) {
          auto s = it->second.functions.find(fn);
          if (s != it->second.functions.end()) f.effects.insert(s->second.effects.begin(), s->second.effects.end());
        }
      }
      if (f.effects.size() != before) changed = true;
    }
  }
}

}  // namespace ppy::frontend

// The checker's first phase: signatures, constants, imports and the module's
// own code, declared before any body is checked.
#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>

#include "checker.h"
#include "dunder_methods.h"
#include "builtin_exceptions.h"
#include "class_field_annotations.h"
#include "class_ids.h"
#include "exception_classes.h"
#include "iter_protocol.h"
#include "io_helpers.h"
#include "lazy_values.h"
#include "field_init.h"
#include "check_dataclass.h"
#include "class_sugar.h"
#include "dataclass_options.h"
#include "hash_key_helpers.h"
#include "object_list_helpers.h"
#include "checker_internal.h"
#include "plugin_stub.h"
#include "fold_constant.h"
#include "format_template.h"
#include "generic_classes.h"
#include "generics.h"
#include "imported_classes.h"
#include "parser.h"
#include "quoted_annotations.h"
#include "final_annotations.h"
#include "cache_decorators.h"
#include "nested_decorators.h"
#include "random_class.h"
#include "eq_object.h"
#include "ppy/util/str_cat.h"
#include "types.h"
#include "starred.h"

namespace ppy::frontend {
namespace {

using checking::dotted;
using checking::is_special_module;
using checking::special_names;

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
    // A name a function declares `global` is a variable, never a constant.
    for (auto& s : m_.ast.body)
      if (s->kind == StmtKind::Def) collect_global_names(s->def->body);
    // Class names first: an annotation may name a class defined below (as a
    // string in Python).
    for (auto& s : m_.ast.body)
      if (s->kind == StmtKind::Class) {
        if (defined(s->def->name) || m_.classes.count(s->def->name)) continue;  // reported when declared
        Ty t = class_type(m_.name, s->def->name);
        *class_info(t) = ClassInfo{};
        class_info(t)->ty = t;
        class_info(t)->module = m_.name;
        class_info(t)->owner = &m_;
        class_info(t)->name = s->def->name;
        m_.classes[s->def->name] = t;
      }
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
        case StmtKind::Class:
          declare_class(*s);
          kept.push_back(std::move(s));
          continue;
        case StmtKind::Assign:
        case StmtKind::AnnAssign:
          if (type_name(*s, bound)) {  // generics: a type alias or a TypeVar (type_alias.cc)
            kept.push_back(std::move(s));
            continue;
          }
          if (is_constant(*s, bound)) {
            declare_constant(*s);
            kept.push_back(std::move(s));
          } else {
            if (s->value)
              for (auto& t : s->targets) note_bound_line(*t, s->pos.line);
            guard_only = false;
            code.push_back(std::move(s));
          }
          continue;
        case StmtKind::Global:  // a no-op at module level, as in Python
          kept.push_back(std::move(s));
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
    number_classes();
    add_field_set_flags(m_);  // field_init.h: fields that may be read before assigned
    for (auto& [name, n] : bound)
      if (!m_.consts.count(name)) m_.module_vars.insert(name);
    if (code.empty()) return;
    // `if __name__ == "__main__": main()` alone: main() is the entry, as ever.
    if (m_.is_entry && guard_only && code.size() == 1 && is_call_of_main(*code[0])) {
      m_.main_calls.emplace_back("main", code[0]->value->pos);
      m_.guard_code = std::move(code);
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

  /// Names of `global` statements in a function body (its blocks included).
  void collect_global_names(const std::vector<StmtPtr>& body) {
    for (auto& s : body) {
      if (s->kind == StmtKind::Global)
        for (auto& n : s->names) global_names_.insert(n.name);
      for_each_suite(*s, [&](const std::vector<StmtPtr>& b) { collect_global_names(b); });
    }
  }

  /// Records the line of the first module-level assignment of each name `t` binds.
  void note_bound_line(const Expr& t, uint32_t line) {
    if (t.kind == ExprKind::Name) m_.var_bound_line.emplace(t.str, line);
    if (t.kind == ExprKind::Tuple || is_starred(t))
      for (auto& k : t.kids) note_bound_line(*k, line);
  }

  static void count_target(const Expr& t, std::map<std::string, int>& bound) {
    if (t.kind == ExprKind::Name) ++bound[t.str];
    if (t.kind == ExprKind::Tuple || is_starred(t))
      for (auto& k : t.kids) count_target(*k, bound);
  }
  /// Counts the names a module-level statement binds (in its blocks too; the
  /// guard's only in the entry module, the only one where it runs).
  void count_bindings(const Stmt& s, std::map<std::string, int>& bound) {
    // A class statement's targets are its bases, which it reads, not binds.
    if (s.kind == StmtKind::Def || s.kind == StmtKind::Class || s.kind == StmtKind::Import ||
        s.kind == StmtKind::ImportFrom)
      return;
    if (s.kind == StmtKind::If && is_main_guard(s) && !m_.is_entry) return;
    for (auto& t : s.targets) count_target(*t, bound);
    for (auto& h : s.handlers)
      if (!h.name.empty()) ++bound[h.name];
    for_each_suite(s, [&](const std::vector<StmtPtr>& body) {
      for (auto& b : body) count_bindings(*b, bound);
    });
  }

  /// `NAME = <constant>` binding NAME once: a constant, folded and inlined (a
  /// list is a module variable: it changes, `NAME.append(x)`).
  bool is_constant(const Stmt& s, const std::map<std::string, int>& bound) {
    if (s.targets.size() != 1 || s.targets[0]->kind != ExprKind::Name || !s.value) return false;
    auto it = bound.find(s.targets[0]->str);
    if (it == bound.end() || it->second != 1 || global_names_.count(it->first)) return false;
    const Expr& v = *s.value;
    bool list = v.kind == ExprKind::List || (v.kind == ExprKind::Binary && v.str == "*" &&
                                             (v.kids[0]->kind == ExprKind::List || v.kids[1]->kind == ExprKind::List));
    quiet_ = true;  // declare_constant folds it again and reports
    bool folds = fold(v).has_value();
    quiet_ = false;
    return !list && folds;
  }

  /// generics: declares a type alias or TypeVar (type_alias.cc); false for any other statement.
  bool type_name(Stmt& s, const std::map<std::string, int>& bound) {
    return checking::declare_type_name(
        m_, s, [&](const Expr& a) { return annotation_type(&a, false, str_cat("type alias '", s.targets[0]->str, "'")); },
        [&](const std::string& path) { return resolve_special(path); },
        [&](const std::string& n) { return bound.count(n) && bound.at(n) == 1 && !global_names_.count(n); }, err());
  }
  checking::ErrorFn err() {
    return [this](Pos p, const char* code, std::string msg) { error(p, code, std::move(msg)); };
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
    if (auto had = m_.bindings.find(name); had != m_.bindings.end()) {
      // io (issue 33): `import os` and `import os.path` both bind `os`, as in Python.
      if (had->second.kind == Binding::Special && b.kind == Binding::Special && had->second.name == b.name &&
          checking::is_io_module(b.name))
        return;
      error(b.pos, "E1021", str_cat("'", name, "' is imported twice"));
      return;
    }
    m_.bindings[name] = std::move(b);
  }

  bool defined(const std::string& n) { return m_.func_index.count(n) || m_.consts.count(n) || m_.bindings.count(n) ||
                                              m_.generic_funcs.count(n) || m_.type_aliases.count(n); }

  Ty annotation_type(const Expr* a, bool allow_none, const std::string& what) {
    if (!a) return Ty::Error;
    if (auto t = checking::named_type(m_, type_args_, *a)) return *t;  // generics: T, an alias (type_alias.cc)
    if (a->kind == ExprKind::Name && m_.type_vars.count(a->str))
      return error(a->pos, "E1031", str_cat("'", a->str, "' is a TypeVar: only generic functions may name it")), Ty::Error;
    if (auto c = checking::compound_annotation(
            *a, [&](const Expr& x) { return annotation_type(&x, false, what); },
            [&](Pos p, const char* code, std::string msg) { error(p, code, std::move(msg)); }))
      return *c;
    auto bad = [&]() {
      error(a->pos, "E1031",
            str_cat("the type of ", what,
                    " must be int, float, bool, str, list[T], a tuple, T | "
                    "None, a class",
                    allow_none ? " or None" : "", " (or a native pointer in GPU code)"));
      return Ty::Error;
    };
    if (a->kind == ExprKind::NoneLit) return allow_none ? Ty::None : bad();
    if (a->kind == ExprKind::Name || a->kind == ExprKind::Str)
      if (auto it = m_.classes.find(a->str); it != m_.classes.end()) return it->second;
    if (auto path = dotted(*a); path && resolve_special(*path) == "typing.TextIO") return Ty::File;  // io (issue 33)
    if (a->kind == ExprKind::Name && is_builtin_exception(a->str)) return Ty::Exc;  // issue 32: an exception as a value
    if (a->kind == ExprKind::Name) {
      if (a->str == "int") return Ty::Int;
      if (a->str == "float") return Ty::Float;
      if (a->str == "bool") return Ty::Bool;
      if (a->str == "str") return Ty::Str;
      if (a->str == "list") {
        error(a->pos, "E1031", str_cat("the type of ", what, " needs its element type: list[int], list[str], ..."));
        return Ty::Error;
      }
      return bad();
    }
    if (a->kind == ExprKind::Subscript) {
      auto base = dotted(*a->kids[0]);
      const Expr& arg = *a->kids[1];
      bool is_int = arg.kind == ExprKind::Name && arg.str == "int";
      bool is_float = arg.kind == ExprKind::Name && arg.str == "float";
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

  /// A function, or (`self_class` set) a method `Class.name` whose first
  /// parameter is self.
  void declare_function(FuncDef& def, Ty self_class = Ty::Error) {
    std::string qual = self_class == Ty::Error ? def.name : str_cat(ty_name(self_class), ".", def.name);
    if (self_class != Ty::Error ? m_.func_index.count(qual) != 0 : defined(def.name) || m_.classes.count(def.name)) {
      error(def.pos, "E1021", str_cat("'", qual, "' is defined twice in module ", m_.name));
      return;
    }
    if (type_args_.empty() &&  // generics: a template, instantiated per call (type_alias.cc, check_generic.cc)
        checking::declare_if_generic(
            m_, def, self_class != Ty::Error,
            [&](const Param& p) { return annotation_type(p.annotation.get(), false, str_cat("parameter '", p.name, "'")); },
            [&](const Param& p) { return default_value(p, def.name, false); }, err()))
      return;
    FuncInfo f;
    f.def = &def;
    f.name = qual;
    f.type_args = type_args_;
    for (auto& deco : def.decorators) {
      if (checking::plugin_decorator(*deco, [&](auto& p) { return resolve_special(p); }, err())) continue;
      if (deco->kind == ExprKind::Call) {
        auto path = dotted(*deco->kids[0]);
        if (path && resolve_special(*path) == "ppy.opt") {
          const Expr* level = deco->kids.size() == 2 && deco->keywords.empty() ? deco->kids[1].get() : nullptr;
          if (!level || level->kind != ExprKind::Int || level->ival < 0 || level->ival > 3)
            error(level ? level->pos : deco->pos, "E1032", "@ppy.opt(level) requires an int level in 0..3");
          else if (f.opt_level >= 0)
            error(deco->pos, "E1010", str_cat("'", def.name, "' has @ppy.opt twice"));
          else
            f.opt_level = static_cast<int>(level->ival);
          continue;
        }
      }
      auto path = dotted(*deco);
      std::string sp = path ? resolve_special(*path) : "";
      if (sp == "ppy.pure") {
        f.pure_claim = true;
        f.pure_pos = deco->pos;
      } else if (sp == "ppy.export")
        f.exported = true;
      else if (sp == "ppy.cuda.kernel") f.gpu_kind = "kernel";
      else if (sp == "ppy.cuda.device") f.gpu_kind = "device";
      else if (sp == "ppy.xla.jit") f.xla_jit = true;
      else
        error(deco->pos, "E1010",
              "this decorator is outside the ppy subset (the subset has @export, @ppy.pure, @ppy.opt(n), "
              "@cuda.kernel, @cuda.device and @xla.jit)");
    }
    if (f.xla_jit && !f.gpu_kind.empty())
      error(def.pos, "E1010", str_cat("'", def.name, "' cannot be both @xla.jit and @cuda.", f.gpu_kind));
    bool gpu = !f.gpu_kind.empty();
    std::set<std::string> seen;
    for (auto& p : def.params) {
      if (!seen.insert(p.name).second)
        error(p.pos, "E1021", str_cat("duplicate parameter '", p.name, "' in function '", def.name, "'"));
      if (self_class != Ty::Error && &p == &def.params[0]) {  // self: an instance of the class
        p.ty = self_class;
        if (p.default_value) error(p.pos, "E1010", "a default for self is outside the ppy subset");
      } else if (!p.annotation) {
        error(p.pos, "E1031", str_cat("parameter '", p.name, "' of '", def.name, "' needs a type annotation"));
        p.ty = Ty::Error;
      } else {
        p.ty = annotation_type(p.annotation.get(), false, str_cat("parameter '", p.name, "'"));
        if (is_ptr(p.ty) && !gpu)
          error(p.pos, "E1100", "native pointers are only for @cuda.kernel and @cuda.device functions");
        if (is_list(p.ty) && gpu)
          error(p.pos, "E1100", str_cat("a GPU function cannot take a list ('", p.name, "'); pass a native.ptr"));
        if (p.ty >= Ty::FirstCompound && gpu)
          error(p.pos, "E1100", str_cat("a GPU function cannot take ", ty_name(p.ty), " ('", p.name, "')"));
      }
      f.params.push_back(p.ty);
      f.defaults.push_back(default_value(p, def.name, gpu));
      f.locals.emplace_back(p.name, p.ty);
    }
    if (!def.returns && self_class != Ty::Error && def.name == "__init__") {
      f.result = Ty::None;  // __init__ returns None, annotated or not
    } else if (!def.returns) {
      error(def.pos, "E1031",
            str_cat("function '", def.name, "' needs a return annotation (-> None when it returns nothing)"));
      f.result = Ty::Error;
    } else {
      f.result = annotation_type(def.returns.get(), true, str_cat("the result of '", def.name, "'"));
      if (is_list(f.result) && gpu) {
        error(def.returns->pos, "E1100", "a GPU function cannot return a list");
        f.result = Ty::Error;
      }
      if (is_ptr(f.result)) {
        error(def.returns->pos, "E1100", "a function cannot return a native pointer");
        f.result = Ty::Error;
      }
      if (f.result >= Ty::FirstCompound && gpu) {
        error(def.returns->pos, "E1100", str_cat("a GPU function cannot return ", ty_name(f.result)));
        f.result = Ty::Error;
      }
      if (f.gpu_kind == "kernel" && f.result != Ty::None && f.result != Ty::Error)
        error(def.returns->pos, "E1100", str_cat("kernel '", def.name, "' must return None"));
    }
    if (self_class != Ty::Error && def.name == "__init__" && f.result != Ty::None && f.result != Ty::Error)
      error(def.returns->pos, "E1030", "__init__ must return None");
    m_.func_index[qual] = m_.funcs.size();
    m_.funcs.push_back(std::move(f));
  }

  // --- classes (docs/language.md, "Classes") ---

  /// Whether `e` is `self.NAME` (NAME in `field`).
  static bool self_attr(const Expr& e, const std::string& self, std::string* field) {
    if (e.kind != ExprKind::Attribute || e.kids[0]->kind != ExprKind::Name || e.kids[0]->str != self) return false;
    *field = e.str;
    return true;
  }

  /// Adds field `n` of type `t` (declared at `p`) to class `c`; the same type
  /// again is no change.
  void add_field(ClassInfo& c, const std::string& n, Ty t, Pos p) {
    int i = c.field(n);
    if (i < 0) {
      c.fields.emplace_back(n, t);
      return;
    }
    if (t != Ty::Error && c.fields[static_cast<size_t>(i)].second != Ty::Error &&
        c.fields[static_cast<size_t>(i)].second != t)
      error(p, "E1030",
            str_cat("field '", n, "' of class ", c.name, " is ", ty_name(c.fields[static_cast<size_t>(i)].second),
                    "; it cannot also be ", ty_name(t)));
  }

  /// The type of `v`, the value an `__init__` assigns a field (issue 32), where
  /// it follows from what the declarer knows: literals, module constants,
  /// `__init__`'s parameters (`params`), fields assigned above (`self.x`),
  /// arithmetic and comparisons of those, the builtins whose result type is
  /// fixed (`len(rows)`, `next(self.it)`, `int(s)`), calls of the module's
  /// functions declared above (an enum member `S.A` is one) and of its classes,
  /// list, dict, set and tuple displays whose elements share one such type
  /// (`[Node(2), Node(3)]`, `(0, 0)`, `[0] * n`). Error where it does not (an empty
  /// display included: the caller asks for an annotation).
  Ty value_type(const Expr& v, const ClassInfo& c, const std::string& self, const std::map<std::string, Ty>& params) {
    auto type = [&](const Expr& e) { return value_type(e, c, self, params); };
    auto number = [](Ty t) { return t == Ty::Int || t == Ty::Float; };
    auto same = [&](size_t from, size_t step) {  // the one type of kids[from], kids[from + step], ...
      Ty t = Ty::Error;
      for (size_t i = from; i < v.kids.size(); i += step) {
        Ty k = type(*v.kids[i]);
        if (k == Ty::Error || (t != Ty::Error && k != t)) return Ty::Error;
        t = k;
      }
      return t;
    };
    if (v.kind == ExprKind::Name && params.count(v.str)) return params.at(v.str);
    std::string f;
    if (self_attr(v, self, &f)) {
      int i = c.field(f);
      return i < 0 ? Ty::Error : c.fields[static_cast<size_t>(i)].second;
    }
    if (v.kind == ExprKind::Name || v.kind == ExprKind::Unary || v.kind == ExprKind::Binary ||
        v.kind == ExprKind::Attribute || v.kind <= ExprKind::Str) {
      bool was = quiet_;
      quiet_ = true;
      auto k = params.empty() || !mentions_param(v, params) ? fold(v) : std::nullopt;
      quiet_ = was;
      if (k && k->ty != Ty::Error) return k->ty;
    }
    if (v.kind == ExprKind::Attribute)  // a class constant (`self.limit = Config.MAX`)
      if (auto path = dotted(v); path && !params.count(path->substr(0, path->find('.'))))
        if (auto it = m_.consts.find(*path); it != m_.consts.end()) return it->second.ty;
    switch (v.kind) {
      case ExprKind::Unary: {
        Ty a = type(*v.kids[0]);
        if (v.str == "not") return Ty::Bool;
        if ((v.str == "-" || v.str == "+") && number(a)) return a;
        if (v.str == "~" && a == Ty::Int) return a;
        return Ty::Error;
      }
      case ExprKind::Binary: {
        Ty a = type(*v.kids[0]), b = type(*v.kids[1]);
        const std::string& op = v.str;
        if (number(a) && number(b)) {
          if (op == "/") return Ty::Float;
          if (op == "+" || op == "-" || op == "*" || op == "//" || op == "%")
            return a == Ty::Float || b == Ty::Float ? Ty::Float : Ty::Int;
          if (a == Ty::Int && b == Ty::Int && (op == "&" || op == "|" || op == "^" || op == "<<" || op == ">>"))
            return Ty::Int;
          return Ty::Error;
        }
        if (a == Ty::Str && b == Ty::Str && op == "+") return Ty::Str;
        if (((a == Ty::Str && b == Ty::Int) || (a == Ty::Int && b == Ty::Str)) && op == "*") return Ty::Str;
        if (is_list(a) && a == b && op == "+") return a;
        if (is_list(a) && b == Ty::Int && op == "*") return a;  // `[0] * n`
        return Ty::Error;
      }
      case ExprKind::Compare:
        return Ty::Bool;
      case ExprKind::List:  // a display whose elements share one type (`[Node(2), Node(3)]`)
      case ExprKind::Set: {
        Ty e = same(0, 1);
        return e == Ty::Error ? Ty::Error : v.kind == ExprKind::List ? list_of(e) : set_of(e);
      }
      case ExprKind::Dict: {
        Ty k = same(0, 2), d = same(1, 2);
        return k == Ty::Error || d == Ty::Error ? Ty::Error : dict_of(k, d);
      }
      case ExprKind::ListComp:  // `[list(r) for r in rows]`, `{w.lower() for w in words}`
      case ExprKind::SetComp: {
        if (v.bval && v.kind == ExprKind::ListComp) return Ty::Error;  // a generator expression
        Ty it = comprehension_source(*v.kids[1], type);
        if (it == Ty::Error || v.ops.empty()) return Ty::Error;
        std::map<std::string, Ty> scope = params;
        std::vector<Ty> parts = v.ops.size() == 1 ? std::vector<Ty>{it} : tuple_elems(it);
        if (parts.size() != v.ops.size()) return Ty::Error;
        for (size_t i = 0; i < parts.size(); ++i) scope[v.ops[i]] = parts[i];
        Ty e = value_type(*v.kids[0], c, self, scope);
        bool inner = v.kids[0]->kind == ExprKind::ListComp && v.kids[0]->str == "for";  // a later `for` clause
        return e == Ty::Error || inner ? e : v.kind == ExprKind::ListComp ? list_of(e) : set_of(e);
      }
      case ExprKind::Tuple: {  // `self.pos = (0, 0)`
        std::vector<Ty> elems;
        for (auto& k : v.kids)
          if (elems.push_back(type(*k)); elems.back() == Ty::Error) return Ty::Error;
        return elems.empty() ? Ty::Error : tuple_of(elems);
      }
      case ExprKind::IfExp: {
        Ty a = type(*v.kids[1]), b = type(*v.kids[2]);
        return a == b ? a : Ty::Error;
      }
      case ExprKind::Subscript: {  // an element of a list, dict or str (not a slice)
        if (v.kids[1]->kind == ExprKind::Slice) return Ty::Error;
        Ty a = type(*v.kids[0]);
        return is_list(a) ? list_elem(a) : is_dict(a) ? dict_value(a) : a == Ty::Str ? Ty::Str : Ty::Error;
      }
      case ExprKind::Call: {
        if (v.kids[0]->kind == ExprKind::Attribute && v.keywords.empty() && type(*v.kids[0]->kids[0]) == Ty::Str) {
          const std::string& m = v.kids[0]->str;  // a str's method (`self.key = name.lower()`)
          static const std::set<std::string> to_str = {"upper", "lower", "strip", "lstrip", "rstrip", "title",
                                                       "capitalize", "replace", "join", "casefold", "zfill"};
          static const std::set<std::string> to_int = {"find", "rfind", "count", "index", "rindex"};
          if (to_str.count(m)) return Ty::Str;
          if (to_int.count(m)) return Ty::Int;
          if (m == "split" || m == "splitlines" || m == "rsplit") return list_of(Ty::Str);
          if (m.starts_with("is") || m == "startswith" || m == "endswith") return Ty::Bool;
          return Ty::Error;
        }
        if (v.kids[0]->kind != ExprKind::Name || !v.keywords.empty() || params.count(v.kids[0]->str))
          return Ty::Error;
        const std::string& callee = v.kids[0]->str;
        if (m_.classes.count(callee)) return m_.classes.at(callee);  // `self.rng = Random(seed)`
        if (auto it = m_.func_index.find(callee); it != m_.func_index.end()) return m_.funcs[it->second].result;
        if (defined(callee)) return Ty::Error;
        size_t n = v.kids.size() - 1;
        Ty a = n >= 1 ? type(*v.kids[1]) : Ty::Error;
        if (callee == "len" && n == 1) return Ty::Int;
        if ((callee == "int" || callee == "float" || callee == "str" || callee == "bool") && n <= 1)
          return callee == "int" ? Ty::Int : callee == "float" ? Ty::Float : callee == "str" ? Ty::Str : Ty::Bool;
        if (callee == "abs" && n == 1 && number(a)) return a;
        if (callee == "round" && n == 1 && number(a)) return Ty::Int;
        if (callee == "next" && n == 1 && is_iterator(a)) return iterator_elem(a);
        if (callee == "sorted" && n == 1 && is_list(a)) return a;
        if (callee == "list" && n == 1 && is_list(a)) return a;  // a copy: `self.rows = [list(r) for r in rows]`
        if (callee == "set" && n == 1 && is_list(a)) return set_of(list_elem(a));
        if (callee == "sum" && n == 1 && is_list(a) && number(list_elem(a))) return list_elem(a);
        if ((callee == "min" || callee == "max") && n >= 2) {
          for (size_t i = 2; i <= n; ++i)
            if (type(*v.kids[i]) != a) return Ty::Error;
          return number(a) || a == Ty::Str ? a : Ty::Error;
        }
        return Ty::Error;
      }
      default:
        return Ty::Error;
    }
  }

  /// What a comprehension's `for` takes from `it`: a list's elements, a str's
  /// characters, `range(...)`'s ints, a dict's keys; Error for anything else.
  template <typename TypeOf>
  static Ty comprehension_source(const Expr& it, const TypeOf& type) {
    if (it.kind == ExprKind::Call && it.kids[0]->kind == ExprKind::Name && it.kids[0]->str == "range" &&
        it.keywords.empty())
      return Ty::Int;
    Ty t = type(it);
    return is_list(t) ? list_elem(t) : t == Ty::Str ? Ty::Str : is_dict(t) || is_set(t) ? key_of(t) : Ty::Error;
  }

  /// Whether `e` names one of `params` (a parameter shadows a module constant).
  static bool mentions_param(const Expr& e, const std::map<std::string, Ty>& params) {
    if (e.kind == ExprKind::Name && params.count(e.str)) return true;
    for (auto& k : e.kids)
      if (mentions_param(*k, params)) return true;
    return false;
  }

  /// The fields an `__init__` assigns (`self.x: T = v`, `self.x = param`,
  /// `self.x = literal`), at its top level.
  void init_fields(ClassInfo& c, FuncDef& init) {
    if (init.params.empty()) return;
    const std::string& self = init.params[0].name;
    std::map<std::string, Ty> params;
    for (size_t i = 1; i < init.params.size(); ++i) params[init.params[i].name] = init.params[i].ty;
    for (auto& s : init.body) {
      std::string n;
      if (s->targets.size() == 1 && self_attr(*s->targets[0], self, &n) && c.methods.count(str_cat("@property:", n)))
        continue;  // a property's setter runs
      if (s->kind == StmtKind::AnnAssign && s->targets.size() == 1 && self_attr(*s->targets[0], self, &n)) {
        add_field(c, n, annotation_type(s->annotation.get(), false, str_cat("field '", n, "'")), s->pos);
        continue;
      }
      if (s->kind != StmtKind::Assign || !s->value) continue;
      for (auto& t : s->targets) {
        if (!self_attr(*t, self, &n) || c.field(n) >= 0) continue;
        Ty ty = value_type(*s->value, c, self, params);
        if (ty == Ty::Error) {
          error(t->pos, "E1031",
                str_cat("field '", n, "' of class ", c.name, " needs a type: annotate it (self.", n,
                        ": T = ...) or assign a parameter"));
        }
        add_field(c, n, ty, t->pos);
      }
    }
  }

  /// A constant class attribute (`MAX = 10`, `UNIT: str = "C"`): kept as the
  /// module constant `Class.NAME` (the checker reads it through the class, an
  /// instance or a subclass). False when `s` is not one (reported by the caller).
  bool class_constant(ClassInfo& c, Stmt& s) {
    if (s.targets.size() != 1 || s.targets[0]->kind != ExprKind::Name || !s.value) return false;
    std::optional<ConstInfo> v = fold(*s.value);
    if (!v) return false;
    if (s.annotation) {
      Ty t = annotation_type(s.annotation.get(), false, str_cat("class attribute '", s.targets[0]->str, "'"));
      if (t != Ty::Error && !assignable(v->ty, t)) return false;
    }
    v->pos = s.pos;
    m_.consts[str_cat(c.name, ".", s.targets[0]->str)] = *v;
    return true;
  }

  /// `__match_args__ = ("x", "y")`: kept as the class's match_args, the fields
  /// `case C(x, y)` names (parser_match.cc, check_union.cc match_field). False
  /// when `s` is not one.
  bool match_args(ClassInfo& c, const Stmt& s) {
    if (s.targets.size() != 1 || s.targets[0]->kind != ExprKind::Name || s.targets[0]->str != "__match_args__" ||
        !s.value || s.value->kind != ExprKind::Tuple)
      return false;
    std::vector<std::string> names;
    for (auto& k : s.value->kids) {
      if (k->kind != ExprKind::Str) return false;
      names.push_back(k->str);
    }
    c.match_args = std::move(names);
    return true;
  }

  /// `@staticmethod` and `@classmethod` (a function `Class.m`; a class
  /// method's `cls` is its class), `@property` and `@x.setter` (methods; the
  /// setter is `__set_x`), marked in the class's methods as `@static:m`,
  /// `@classmethod:m`, `@property:x`, `@setter:x`. False when `f` has none.
  bool decorated_member(ClassInfo& c, FuncDef& f, std::vector<FuncDef*>& methods) {
    if (f.decorators.size() != 1) return false;
    auto d = dotted(*f.decorators[0]);
    if (!d) return false;
    if (*d == "staticmethod" || *d == "classmethod") {
      if (*d == "classmethod") {
        if (f.params.empty()) return false;
        f.params.erase(f.params.begin());
      }
      c.methods[str_cat(*d == "staticmethod" ? "@static:" : "@classmethod:", f.name)] = c.ty;
      f.decorators.clear();
      f.name = str_cat(c.name, ".", f.name);
      declare_function(f);
      return true;
    }
    if (f.params.empty()) return false;
    if (*d == "property") {
      c.methods[str_cat("@property:", f.name)] = c.ty;
    } else if (*d == str_cat(f.name, ".setter")) {
      c.methods[str_cat("@setter:", f.name)] = c.ty;
      f.name = str_cat("__set_", f.name);
    } else {
      return false;
    }
    f.decorators.clear();
    methods.push_back(&f);
    return true;
  }

  /// Whether every decorator of `f` is `@ppy.pure` or `@ppy.opt(n)`, which a method takes as a function does.
  bool only_ppy_decorators(const FuncDef& f) {
    for (auto& d : f.decorators) {
      auto path = dotted(d->kind == ExprKind::Call ? *d->kids[0] : *d);
      std::string sp = path ? resolve_special(*path) : "";
      if (!(sp == "ppy.pure" && d->kind != ExprKind::Call) && !(sp == "ppy.opt" && d->kind == ExprKind::Call)) return false;
    }
    return true;
  }

  /// Whether a top-level statement of `body` is `super().__init__(...)`.
  static bool calls_super_init(const std::vector<StmtPtr>& body) {
    for (auto& s : body) {
      if (s->kind != StmtKind::Expr || s->value->kind != ExprKind::Call) continue;
      const Expr& callee = *s->value->kids[0];
      if (callee.kind == ExprKind::Attribute && callee.str == "__init__" && callee.kids[0]->kind == ExprKind::Call &&
          callee.kids[0]->kids.size() == 1 && callee.kids[0]->kids[0]->kind == ExprKind::Name &&
          callee.kids[0]->kids[0]->str == "super")
        return true;
    }
    return false;
  }

  /// Class `c` derives from `base` (of this module or, issue 32, of another one).
  void derive(ClassInfo& c, ClassInfo& base, const FuncDef& def, std::vector<std::optional<ConstInfo>>& defaults) {
    c.base = base.ty;
    c.fields = base.fields;
    c.methods = base.methods;
    c.exception_base = base.exception_base;
    if (std::find(base.subclasses.begin(), base.subclasses.end(), c.ty) == base.subclasses.end())
      base.subclasses.push_back(c.ty);  // (a module declared again, frontend.cc, pushes it once)
    if (c.dataclass != base.dataclass)
      error(def.pos, "E1010",
            "a dataclass and a plain class deriving from each other are "
            "outside the ppy subset");
    const ModuleInfo& home = checking::owner_of(m_, base.ty);
    if (auto d = home.field_defaults.find(base.name); c.dataclass && d != home.field_defaults.end()) defaults = d->second;
  }

  void declare_class(Stmt& s) {
    FuncDef& def = *s.def;
    auto it = m_.classes.find(def.name);
    if (it == m_.classes.end() || class_info(it->second)->tid != 0 || defined(def.name) ||
        m_.func_index.count(def.name)) {
      error(def.pos, "E1021", str_cat("'", def.name, "' is defined twice in module ", m_.name));
      return;
    }
    ClassInfo& c = *class_info(it->second);
    c.tid = -1;  // declared (numbered later)
    std::vector<std::optional<ConstInfo>> defaults;
    for (auto& deco : def.decorators) {
      bool call = deco->kind == ExprKind::Call;  // `@dataclass(frozen=True, order=True)`: dataclass_options.h
      if (auto path = dotted(call ? *deco->kids[0] : *deco); path && resolve_special(*path) == "dataclasses.dataclass") {
        c.dataclass = true;
        if (call) dataclass_options(c, *deco, [&](const char* code, Pos p, std::string msg) { error(p, code, msg); });
        continue;
      }
      error(deco->pos, "E1010", "this class decorator is outside the ppy subset (the subset has @dataclass)");
    }
    if (s.targets.size() > 1) error(s.targets[1]->pos, "E1010", "multiple inheritance is outside the ppy subset");
    if (!s.targets.empty()) {
      const Expr& b = *s.targets[0];
      auto bi = b.kind == ExprKind::Name ? m_.classes.find(b.str) : m_.classes.end();
      std::optional<Ty> foreign = bi == m_.classes.end() ? checking::imported_class(m_, b) : std::nullopt;
      const ClassInfo* fb = foreign ? class_info(*foreign) : nullptr;
      if (foreign && (!m_.bases_ready || (fb->owner && fb->owner->waits_for_bases))) {
        m_.waits_for_bases = true;  // declared again once the base's module is (frontend.cc)
        if (!m_.bases_ready) return;
      }
      if (foreign && fb->owner && fb->tid != 0 && !m_.waits_for_bases) {
        derive(c, *class_info(*foreign), def, defaults);
      } else if (bi == m_.classes.end() || class_info(bi->second)->tid == 0) {
        if (b.kind == ExprKind::Name && b.str == "object") {
        } else if (foreign && fb->owner) {  // its module derives from one of this module's: a cycle
          error(b.pos, "E1010",
                str_cat("a base class of another module ('", dotted(b).value_or(b.str),
                        "') that derives from a class of this one is outside the ppy subset"));
        } else if (foreign) {
          error(b.pos, "E1070", str_cat("'", dotted(b).value_or(b.str), "' is not a class of its module"));
        } else if (b.kind == ExprKind::Name && bi == m_.classes.end() && is_builtin_exception(b.str) &&
                   !c.dataclass) {
          make_exception_class(c, b.str);  // exception classes: exception_classes.h
        } else if (b.kind == ExprKind::Name && bi == m_.classes.end()) {
          error(b.pos, "E1010",
                str_cat("base class '", b.str,
                        "' is outside the ppy subset (a base is a class "
                        "defined above it in its module)"));
        } else {
          error(b.pos, "E1020", str_cat("name '", b.kind == ExprKind::Name ? b.str : "?", "' is not defined"));
        }
      } else if (bi->second == c.ty) {
        error(b.pos, "E1020", str_cat("name '", b.str, "' is not defined"));
      } else {
        derive(c, *class_info(bi->second), def, defaults);
      }
    }
    // The body: methods, and a dataclass's fields.
    std::vector<FuncDef*> methods;
    for (auto& b : def.body) {
      switch (b->kind) {
        case StmtKind::Pass:
          continue;
        case StmtKind::Expr:
          if (b->value->kind == ExprKind::Str) continue;  // docstring
          break;
        case StmtKind::Def: {
          FuncDef& f = *b->def;
          if (decorated_member(c, f, methods)) continue;  // @staticmethod, @classmethod, @property
          if (f.params.empty()) {
            error(f.pos, "E1010",
                  str_cat("method '", f.name,
                          "' without self is outside the ppy subset (no static "
                          "or class methods)"));
            continue;
          }
          if (!f.decorators.empty() && !only_ppy_decorators(f)) {  // @ppy.pure, @ppy.opt(n): declare_function reads them
            error(f.decorators[0]->pos, "E1010",
                  "this decorated method is outside the ppy subset (methods take @staticmethod, "
                  "@classmethod, @property and @name.setter)");
            continue;
          }
          // `__iter__` written as a generator makes instances iterable (lazy sequences, check_lazy.cc).
          if (f.name.size() > 4 && f.name.starts_with("__") && f.name.ends_with("__") && f.name != "__init__" &&
              f.name != "__iter__" && f.name != "__next__" /* iter_protocol.h */ && !is_supported_dunder(f.name) &&
              !(c.dataclass && f.name == "__post_init__")) {  // run by the generated __init__ (check_dataclass.h)
            error(f.pos, "E1010",
                  str_cat("method '", f.name,
                          "' is outside the ppy subset (of the special methods, "
                          "classes have __init__)"));
            continue;
          }
          if (f.name == "__init__" && c.dataclass) {
            error(f.pos, "E1010", "a dataclass with its own __init__ is outside the ppy subset");
            continue;
          }
          methods.push_back(&f);
          continue;
        }
        case StmtKind::Assign:
        case StmtKind::AnnAssign:
          if (match_args(c, *b)) continue;
          if (!c.dataclass && class_constant(c, *b)) continue;  // `MAX = 10`: read as Class.MAX or self.MAX
          if (const std::string* n = c.dataclass ? nullptr : bare_field_annotation(*b)) {  // `name: str`
            add_field(c, *n, annotation_type(b->annotation.get(), false, str_cat("field '", *n, "'")), b->pos);
            continue;
          }
          if (b->kind == StmtKind::Assign) break;
          if (c.dataclass && b->targets.size() == 1 && b->targets[0]->kind == ExprKind::Name) {
            const std::string& n = b->targets[0]->str;
            Ty t = annotation_type(b->annotation.get(), false, str_cat("field '", n, "'"));
            if (c.field(n) >= 0) {
              error(b->pos, "E1010",
                    str_cat("redeclaring field '", n, "' of a base dataclass is outside the ppy subset"));
              continue;
            }
            std::optional<ConstInfo> d;
            bool field_call = false, reported = false;
            if (b->value) {
              auto callee = b->value->kind == ExprKind::Call ? dotted(*b->value->kids[0]) : std::nullopt;
              d = dataclass_field_default(
                  *b->value, callee ? resolve_special(*callee) : "", [&](const Expr& x) { return fold(x); },
                  [&](const char* code, Pos p, std::string msg) {
                    reported = true;
                    error(p, code, msg);
                  },
                  &field_call);
              if (field_call && !field_option(*b, "compare") && (c.frozen || is_frozen_class(c.base)))
                error(b->value->pos, "E1010",
                      "field(compare=False) in a frozen dataclass is outside the ppy subset (ppy hashes it by "
                      "every field)");
              if (!field_call) d = fold(*b->value);
              if (!field_call && !d) d = enum_member_default(*b->value);
              if (!field_call && b->value->kind == ExprKind::NoneLit && is_optional(t)) {  // `next: Link | None = None`
                d = ConstInfo{};
                d->ty = none_value();
                d->pos = b->value->pos;
              }
              if (field_call && d && !d->factory.empty()) {
                bool fits = d->factory == "list" ? is_list(t) : d->factory == "dict" ? is_dict(t) : is_set(t);
                if (t != Ty::Error && !fits)
                  error(b->value->pos, "E1030",
                        str_cat("the default_factory of field '", n, "' makes a ", d->factory, ", not ", ty_name(t)));
              } else if (field_call && !d) {  // reported, or `field(compare=False)` without a default
                if (!reported && !defaults.empty() && defaults.back())
                  error(b->pos, "E1030",
                        str_cat("non-default field '", n, "' follows a field with a default (Python's TypeError)"));
              } else if (!d)
                error(b->value->pos, "E1010",
                      str_cat("the default of field '", n,
                              "' must be a constant int, float, bool or str "
                              "expression"));
              else if (d->ty != Ty::Error && t != Ty::Error && !assignable(d->ty, t)) {
                error(b->value->pos, "E1030",
                      str_cat("the default of field '", n, "' is ", ty_name(d->ty), ", not ", ty_name(t)));
                d.reset();
              }
            } else if (!defaults.empty() && defaults.back()) {
              error(b->pos, "E1030",
                    str_cat("non-default field '", n, "' follows a field with a default (Python's TypeError)"));
            }
            c.fields.emplace_back(n, t);
            // issue 32: `Person.age` of a field with a constant default is that default, as the
            // class attribute @dataclass leaves there (a factory's field has none).
            // A NamedTuple's field is its tuple getter there instead (namedtuple_classes.h).
            bool named_tuple = std::any_of(def.body.begin(), def.body.end(), [](const StmtPtr& x) {
              return x->kind == StmtKind::Def && x->def && x->def->name == "_ppy_namedtuple";
            });
            if (d && d->factory.empty() && d->member_fn.empty() && !is_none_value(d->ty) && !named_tuple &&
                !m_.consts.count(str_cat(c.name, ".", n)))
              m_.consts[str_cat(c.name, ".", n)] = *d;
            defaults.push_back(d);
            continue;
          }
          break;
        default:
          break;
      }
      error(b->pos, "E1010",
            c.dataclass ? "in a dataclass's body, only field annotations, "
                          "methods and a docstring are in the ppy subset"
                        : "class attributes other than constants are outside the ppy subset: a "
                          "class's body has its methods and constants (fields are set "
                          "in __init__, or declared by a @dataclass)");
    }
    if (c.dataclass) m_.field_defaults[c.name] = defaults;
    for (FuncDef* f : methods) {
      size_t before = m_.funcs.size();
      declare_function(*f, c.ty);
      if (m_.funcs.size() == before) continue;
      const FuncInfo& mine = m_.funcs.back();
      auto inherited = c.methods.find(f->name);
      if (inherited != c.methods.end() && f->name != "__init__") {
        const FuncInfo* theirs = checking::class_method(m_, inherited->second, f->name);
        bool same = theirs && theirs->result == mine.result && theirs->params.size() == mine.params.size();
        for (size_t i = 1; same && i < mine.params.size(); ++i) same = theirs->params[i] == mine.params[i];
        if (!same)
          error(f->pos, "E1030",
                str_cat("'", mine.name, "' overrides '", ty_name(inherited->second), ".", f->name,
                        "' with other parameter or result types (ppy calls "
                        "either through the base)"));
      }
      c.methods[f->name] = c.ty;
      if (f->name.starts_with("__set_") && c.methods.count(str_cat("@setter:", f->name.substr(6))))
        init_fields(c, *f);  // what a property's setter stores is a field too
      if (f->name == "__init__") {
        init_fields(c, *f);
        if (c.base != Ty::Error && has_own_fields(*class_info(c.base)) && !calls_super_init(f->body))
          error(f->pos, "E1010",
                str_cat("an __init__ that does not call super().__init__(...) "
                        "at its top level is outside the ppy "
                        "subset (the fields of ",
                        ty_name(c.base), " would be unset)"));
      }
    }
  }

  /// Type ids in preorder, from 1: a class and its subclasses are one range.
  void number_classes() {
    int64_t next = first_class_id(m_.name, m_.is_entry);  // unique in the project (class_ids.h)
    // A subclass in another module has that module's ids (its own range: lower_class.cc's tid_ranges).
    std::function<void(Ty)> visit = [&](Ty t) {
      ClassInfo& c = *class_info(t);
      c.tid = next++;
      for (Ty sub : c.subclasses)
        if (class_info(sub)->owner == &m_) visit(sub);
      c.tid_end = next;
    };
    for (auto& [name, t] : m_.classes) m_.class_order.push_back(t);
    std::sort(m_.class_order.begin(), m_.class_order.end());
    for (Ty t : m_.class_order)
      if (class_info(t)->base == Ty::Error || class_info(class_info(t)->base)->owner != &m_) visit(t);
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
    if (e.kind == ExprKind::NoneLit && is_optional(p.ty)) {  // `x: int | None = None`
      ConstInfo none;
      none.ty = none_value();
      none.pos = e.pos;
      return none;
    }
    auto v = fold(e);
    if (!v) {
      error(e.pos, "E1010",
            str_cat("the default of parameter '", p.name,
                    "' must be a constant int, float or bool expression (literals, operators and earlier module "
                    "constants), or None for an optional parameter"));
      return std::nullopt;
    }
    if (v->ty == Ty::Error || p.ty == Ty::Error) return std::nullopt;
    if (!assignable(v->ty, p.ty)) {
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

  /// `Status.OPEN` as a dataclass field's default: the enum's rewrite made it
  /// `__ppy_Status_member(0)` (enum_classes.h), a member of an enum of this
  /// module; none for anything else.
  std::optional<ConstInfo> enum_member_default(const Expr& e) {
    if (e.kind != ExprKind::Call || e.kids.size() != 2 || !e.keywords.empty() || e.kids[0]->kind != ExprKind::Name ||
        e.kids[1]->kind != ExprKind::Int)
      return std::nullopt;
    const std::string& fn = e.kids[0]->str;
    const std::string pre = "__ppy_", post = "_member";
    if (fn.size() <= pre.size() + post.size() || fn.compare(0, pre.size(), pre) != 0 ||
        fn.compare(fn.size() - post.size(), post.size(), post) != 0)
      return std::nullopt;
    auto cls = m_.classes.find(fn.substr(pre.size(), fn.size() - pre.size() - post.size()));
    if (cls == m_.classes.end()) return std::nullopt;
    ConstInfo c;
    c.ty = cls->second;
    c.i = e.kids[1]->ival;
    c.member_fn = fn;
    c.pos = e.pos;
    return c;
  }

  std::optional<ConstInfo> fold(const Expr& e) {
    ConstInfo c;
    c.pos = e.pos;
    switch (e.kind) {
      case ExprKind::Int: c.ty = Ty::Int; c.i = e.ival; return c;
      case ExprKind::Float: c.ty = Ty::Float; c.f = e.fval; return c;
      case ExprKind::Bool: c.ty = Ty::Bool; c.b = e.bval; return c;
      case ExprKind::Str: c.ty = Ty::Str; c.s = e.str; return c;
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
        if (checking::text_constant(sp, c)) return c;  // string's constants, math.nan (text_constants.cc)
        break;
      }
      case ExprKind::Unary: {
        auto v = fold(*e.kids[0]);
        return v ? fold_unary(e.str, *v) : v;
      }
      case ExprKind::Binary: {
        auto a = fold(*e.kids[0]), b = fold(*e.kids[1]);
        if (!a || !b) break;
        auto r = fold_binary(e.str, *a, *b);
        if (r && r->ty == Ty::Error && !quiet_)
          error(e.pos, "E1080", "this constant does not fit in 64 bits (ppy's int is i64)");
        if (r) r->pos = e.pos;
        return r;
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
      error(s.value->pos, "E1010",
            str_cat("module-level list '", name,
                    "' is outside the ppy subset (a module's constants are int, float, bool or str); "
                    "make the list in a function and pass it"));
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
  /// generics: an instantiation's type parameters, bound (declare_instance).
  std::map<std::string, Ty> type_args_;
  friend void frontend::declare_instance(ModuleInfo&, FuncDef&, const std::map<std::string, Ty>&, DiagnosticEngine&);
  std::set<std::string> global_names_;  ///< named by a `global` statement in some function
};

// ---------------------------------------------------------------------------

}  // namespace

void declare_instance(ModuleInfo& m, FuncDef& def, const std::map<std::string, Ty>& args, DiagnosticEngine& diags) {
  Declarer d(m, diags);
  d.type_args_ = args;
  d.declare_function(def);
}

void declare_module(ModuleInfo& m, const std::string& text, DiagnosticEngine& diags) {
  m.ast = parse_module(text, m.path, diags);
  unquote_annotations(m.ast, m.path);  // `x: "Node | None"` (quoted_annotations.h)
  strip_final_annotations(m.ast);  // `MAX: Final = 10` (final_annotations.h)
  expand_cache_decorators(m.ast, m.path);  // @functools.cache (cache_decorators.h)
  expand_nested_decorators(m.ast, m.path);  // decorators on nested functions (nested_decorators.h)
  add_random_class(m.ast, m.path);  // random.Random(seed) (random_class.h)
  type_eq_object(m.ast);  // `def __eq__(self, other: object)` (eq_object.h)
  expand_generic_classes(m.ast, m.path, diags);  // one class per instantiation (generic_classes.h)
  expand_class_sugar(m.ast, m.path, diags);  // Enum, NamedTuple, @dataclass(order=True) (class_sugar.h)
  add_list_helpers(m.ast, m.path);  // sorted() and `in` of lists of instances (object_list_helpers.h)
  add_hash_key_helpers(m.ast, m.path);  // objects as dict keys and set members (hash_key_helpers.h)
  add_iter_protocol_helpers(m.ast, m.path);  // classes with __next__ (iter_protocol.h)
  add_lazy_value_helpers(m.ast, m.path, text);  // map, filter, genexps as values (lazy_values.h)
  add_io_helpers(m.ast, m.path, text);  // e.code, os.environ.get(k), e.errno (io_helpers.h)
  Declarer(m, diags).run();
}

}  // namespace ppy::frontend

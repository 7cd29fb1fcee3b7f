// The body checker, a program's inputs (issue 33): sys.argv, sys.exit, the
// standard streams, input(), open() and a stream's methods, os and os.path.
// Each lowers to one runtime function of ppy_io.c / ppy_sys.c (lower_io.cc).
#include <set>

#include "body_checker.h"
#include "checker_internal.h"
#include "ppy/util/str_cat.h"
#include "types.h"

namespace ppy::frontend::checking {
namespace {

/// A stream's methods the subset has.
const std::set<std::string>& stream_methods() {
  static const std::set<std::string> s = {"read", "readline", "readlines", "write", "writelines", "flush", "close"};
  return s;
}

/// The functions of sys, os and os.path, and the builtins, the subset has.
const std::set<std::string>& io_functions() {
  static const std::set<std::string> s = {"input",           "open",
                                          "sys.exit",        "os.getcwd",
                                          "os.listdir",      "os.remove",
                                          "os.environ.get",  "os.path.exists",
                                          "os.environ.__contains__", "os.environ.__getitem__",
                                          "os.path.isfile",  "os.path.isdir",
                                          "os.path.join",    "os.path.basename",
                                          "os.path.dirname", "os.path.splitext",
                                          "__ppy_with__"};  // a with statement's item (parser_with.cc)
  return s;
}

bool is_std_stream(const std::string& n) { return n == "sys.stdin" || n == "sys.stdout" || n == "sys.stderr"; }

}  // namespace

bool is_io_module(const std::string& m) { return m == "sys" || m == "os" || m == "os.path"; }

bool is_io_name(const std::string& n) {
  if (is_io_module(n) || n == "sys.argv" || is_std_stream(n) || n == "os.environ" || io_functions().count(n) ||
      n == "typing.TextIO" || is_random_name(n))  // stdlib: random, time (check_random.cc)
    return true;
  size_t dot = n.rfind('.');
  return dot != std::string::npos && is_std_stream(n.substr(0, dot)) && stream_methods().count(n.substr(dot + 1));
}

Ty BodyChecker::sys_value(Expr& e, const std::string& n) {
  e.ref = Ref::Sys;
  e.target = n;
  if (n == "sys.argv") return list_of(Ty::Str);
  if (is_std_stream(n)) return Ty::File;
  error(e.pos, "E1030",
        str_cat("'", n, "' ", is_io_module(n) ? "is a module" : "is a function", "; it cannot be used as a value"));
  return Ty::Error;
}

Ty BodyChecker::sys_call(Expr& e, const std::string& n) {
  e.ref = Ref::Sys;
  e.target = n;
  Expr& callee = *e.kids[0];
  size_t dot = n.rfind('.');
  if (dot != std::string::npos && is_std_stream(n.substr(0, dot))) {  // sys.stdout.write(s)
    sys_value(*callee.kids[0], n.substr(0, dot));
    callee.kids[0]->ty = Ty::File;
    return file_method(e, callee);
  }
  if (is_random_name(n)) return random_call(e, n);  // stdlib: random, time (check_random.cc)
  if (!io_functions().count(n)) {
    error(callee.pos, "E1030", str_cat("'", n, "' is not callable"));
    return Ty::Error;
  }
  if (n == "__ppy_with__") {
    Ty t = value(*e.kids[1], Ty::Error);
    if (t == Ty::File || t == Ty::Error) return t;
    error(e.kids[1]->pos, "E1010",
          str_cat("a with statement over ", ty_name(t), " is outside the ppy subset (",
                  is_class(t) && is_iterator(f_.result)  // check_with.cc's with_objects_in_generator
                      ? "in a generator, its manager is a constructor call or a parameter)"
                      : "it takes a file: open(...))"));
    return Ty::Error;
  }
  effect("io");
  raises();
  size_t nargs = e.kids.size() - 1;
  // The arguments, each of one of the types `want` allows (a bool is an int).
  auto args = [&](size_t lo, size_t hi, Ty want) {
    if (nargs < lo || nargs > hi) {
      error(e.pos, "E1032",
            lo == hi ? str_cat(n, "() takes exactly ", lo, " argument", lo == 1 ? "" : "s", " (", nargs, " given)")
                     : str_cat(n, "() takes from ", lo, " to ", hi, " arguments (", nargs, " given)"));
      return false;
    }
    bool ok = true;
    for (size_t k = 1; k < e.kids.size(); ++k) {
      Ty t = value(*e.kids[k], want);
      if (t == Ty::Error)
        ok = false;
      else if (t != want) {
        error(e.kids[k]->pos, "E1030", str_cat(n, "() takes ", ty_name(want), " arguments, not ", ty_name(t)));
        ok = false;
      }
    }
    return ok;
  };
  auto no_keywords = [&] {
    if (e.keywords.empty()) return true;
    error(e.keywords[0].pos, "E1010", str_cat(n, "(", e.keywords[0].name, "=...) is outside the ppy subset"));
    return false;
  };
  if (n == "open") {
    // open(path, mode="r", encoding="utf-8"): the text modes; the mode by
    // position or keyword, an encoding only UTF-8's.
    for (auto& k : e.keywords) {
      if (k.name == "encoding" && k.value->kind == ExprKind::Str &&
          (k.value->str == "utf-8" || k.value->str == "utf8" || k.value->str == "UTF-8")) {
        k.value->ty = Ty::Str;
        continue;
      }
      if (k.name == "mode" && nargs == 1) {
        if (value(*k.value, Ty::Str) != Ty::Str) {
          error(k.value->pos, "E1030", "open()'s mode must be a str");
          return Ty::Error;
        }
        continue;
      }
      error(k.pos, "E1010",
            str_cat("open(", k.name,
                    "=...) is outside the ppy subset (it takes a path, a text mode and "
                    "encoding=\"utf-8\")"));
      return Ty::Error;
    }
    if (!args(1, 2, Ty::Str)) return Ty::Error;
    for (size_t k = 2; k < e.kids.size(); ++k)
      if (e.kids[k]->kind == ExprKind::Str && e.kids[k]->str.find('b') != std::string::npos) {
        error(e.kids[k]->pos, "E1010", "open() in a binary mode is outside the ppy subset (bytes are)");
        return Ty::Error;
      }
    return Ty::File;
  }
  if (!no_keywords()) return Ty::Error;
  if (n == "input") return args(0, 1, Ty::Str) ? Ty::Str : Ty::Error;
  if (n == "sys.exit") {
    if (nargs > 1) {
      error(e.pos, "E1032", str_cat("sys.exit() takes at most 1 argument (", nargs, " given)"));
      return Ty::Error;
    }
    if (nargs == 1) {
      Ty t = value(*e.kids[1], Ty::Int);
      if (t != Ty::Int && t != Ty::Bool && t != Ty::Str && !is_none_value(t) && t != Ty::Error) {
        error(e.kids[1]->pos, "E1010",
              str_cat("sys.exit() of ", ty_name(t),
                      " is outside the ppy subset (it takes an "
                      "int, a str or None)"));
        return Ty::Error;
      }
    }
    flow_.reachable = false;  // as a raise: nothing after it runs
    return Ty::None;
  }
  if (n == "os.getcwd") return args(0, 0, Ty::Str) ? Ty::Str : Ty::Error;
  if (n == "os.listdir") return args(1, 1, Ty::Str) ? list_of(Ty::Str) : Ty::Error;
  if (n == "os.remove") return args(1, 1, Ty::Str) ? Ty::None : Ty::Error;
  if (n == "os.environ.get") {
    if (nargs == 1) return environ_get(e);  // a str | None (check_environ.cc)
    return args(2, 2, Ty::Str) ? Ty::Str : Ty::Error;
  }
  if (n == "os.environ.__contains__") return args(1, 1, Ty::Str) ? Ty::Bool : Ty::Error;
  if (n == "os.environ.__getitem__") return args(1, 1, Ty::Str) ? Ty::Str : Ty::Error;  // KeyError when unset
  if (n == "os.path.exists" || n == "os.path.isfile" || n == "os.path.isdir")
    return args(1, 1, Ty::Str) ? Ty::Bool : Ty::Error;
  if (n == "os.path.join") {
    if (nargs < 1) {
      error(e.pos, "E1032", "os.path.join() takes at least 1 argument (0 given)");
      return Ty::Error;
    }
    return args(1, nargs, Ty::Str) ? Ty::Str : Ty::Error;
  }
  if (n == "os.path.splitext") return args(1, 1, Ty::Str) ? tuple_of({Ty::Str, Ty::Str}) : Ty::Error;
  return args(1, 1, Ty::Str) ? Ty::Str : Ty::Error;  // basename, dirname
}

Ty BodyChecker::file_method(Expr& e, Expr& callee) {
  const std::string& name = callee.str;
  std::vector<Ty> arg_ty;
  for (size_t k = 1; k < e.kids.size(); ++k)
    arg_ty.push_back(value(*e.kids[k], name == "writelines" ? list_of(Ty::Str) : Ty::Str));
  if (!stream_methods().count(name)) {
    error(callee.pos, "E1010", str_cat("the stream method '", name, "' is outside the ppy subset"));
    return Ty::Error;
  }
  effect("io");
  raises();
  e.ref = Ref::Sys;
  e.target = "file." + name;
  size_t nargs = e.kids.size() - 1;
  bool writes = name == "write" || name == "writelines";
  if (!e.keywords.empty() || nargs != (writes ? 1u : 0u)) {
    error(e.pos, nargs > (writes ? 1u : 0u) && !writes ? "E1010" : "E1032",
          writes ? str_cat(name, "() takes exactly one argument (", nargs, " given)")
                 : str_cat(name, "() with arguments is outside the ppy subset"));
    return Ty::Error;
  }
  if (writes) {
    Ty want = name == "write" ? Ty::Str : list_of(Ty::Str);
    Ty t = arg_ty[0];
    if (t != want && t != Ty::Error) {
      error(e.kids[1]->pos, "E1030",
            name == "write" ? str_cat("write() argument must be str, not ", ty_name(t))
                            : str_cat("writelines() takes a list[str], not ", ty_name(t)));
      return Ty::Error;
    }
    if (name == "writelines") effect("reads");
    return name == "write" ? Ty::Int : Ty::None;
  }
  if (name == "read" || name == "readline") return Ty::Str;
  if (name == "readlines") return list_of(Ty::Str);
  return Ty::None;  // flush, close
}

}  // namespace ppy::frontend::checking

// IR generation, a program's inputs (issue 33; check_io.cc): each of sys, os,
// os.path, input(), open() and a stream's methods is one call of the runtime
// (ppy_io.c, ppy_sys.c); `for line in f` reads a line per step.
#include "lowerer.h"

namespace ppy::frontend::lowering {
namespace {

/// The runtime function of each `module.function` that maps one to one.
const char* runtime_of(const std::string& n) {
  static const std::map<std::string, const char*> m = {{"os.getcwd", "ppy_os_getcwd"},
                                                       {"os.listdir", "ppy_os_listdir"},
                                                       {"os.remove", "ppy_os_remove"},
                                                       {"os.environ.get", "ppy_os_environ_get"},
                                                       {"os.environ.__contains__", "ppy_os_environ_has"},
                                                       {"os.environ.__getitem__", "ppy_os_environ_item"},
                                                       {"os.path.exists", "ppy_os_path_exists"},
                                                       {"os.path.isfile", "ppy_os_path_isfile"},
                                                       {"os.path.isdir", "ppy_os_path_isdir"},
                                                       {"os.path.basename", "ppy_os_path_basename"},
                                                       {"os.path.dirname", "ppy_os_path_dirname"},
                                                       {"file.read", "ppy_io_read"},
                                                       {"file.readline", "ppy_io_readline"},
                                                       {"file.readlines", "ppy_io_readlines"},
                                                       {"file.write", "ppy_io_write"},
                                                       {"file.writelines", "ppy_io_writelines"},
                                                       {"file.flush", "ppy_io_flush"},
                                                       {"file.close", "ppy_io_close"}};
  auto it = m.find(n);
  return it == m.end() ? nullptr : it->second;
}

}  // namespace

Value* FunctionLowerer::sys_value(const Expr& e) {
  Pos p = e.pos;
  if (e.target == "sys.argv") return rt("ppy_sys_argv", {}, ir_type(e.ty), p);
  if (e.target == "sys.stdin") return rt("ppy_io_stdin", {}, str_type(), p);
  if (e.target == "sys.stdout") return rt("ppy_io_stdout", {}, str_type(), p);
  return rt("ppy_io_stderr", {}, str_type(), p);
}

Value* FunctionLowerer::sys_call(const Expr& e) {
  Pos p = e.pos;
  const std::string& n = e.target;
  if (n.starts_with("random.") || n.starts_with("time.")) return random_call(e);  // stdlib (lower_random.cc)
  if (n.starts_with("collections.")) return collections_call(e);  // stdlib (lower_collections.cc)
  if (n == "__ppy_with__") return expr(*e.kids[1]);  // the stream itself (parser_with.cc)
  std::vector<Value*> args;
  if (n.starts_with("file.")) args.push_back(expr(*e.kids[0]->kids[0]));  // the stream
  for (size_t k = 1; k < e.kids.size(); ++k) args.push_back(expr(*e.kids[k]));
  if (n == "input")
    return args.empty() ? rt("ppy_io_input", {}, str_type(), p) : rt("ppy_io_input_prompt", args, str_type(), p);
  if (n == "open") {
    for (auto& k : e.keywords)
      if (k.name == "mode") args.push_back(expr(*k.value));
    if (args.size() == 1) args.push_back(str_literal("r", p));
    return rt("ppy_io_open", args, str_type(), p);
  }
  if (n == "sys.exit") {
    const Expr* a = e.kids.size() > 1 ? e.kids[1].get() : nullptr;
    if (!a || is_none_value(a->ty))
      call_extern("ppy_sys_exit_none", {}, p);
    else if (a->ty == Ty::Str)
      call_extern("ppy_sys_exit_str", args, p);
    else
      call_extern("ppy_sys_exit", {convert(args[0], a->ty, Ty::Int, p)}, p);
    emit("core.unreachable", {}, {}, {}, p);
    return nullptr;
  }
  if (n == "io.next")  // next(f), next(f, default): args are the stream, then the default
    return rt(args.size() == 1 ? "ppy_io_next" : "ppy_io_next_or", args, str_type(), p);
  if (n == "os.path.join") {
    Value* path = args[0];
    for (size_t k = 1; k < args.size(); ++k) path = rt("ppy_os_path_join", {path, args[k]}, str_type(), p);
    return path;
  }
  if (n == "os.path.splitext") {
    Value* root = rt("ppy_os_path_splitext", {args[0], const_i64(0, p)}, str_type(), p);
    Value* ext = rt("ppy_os_path_splitext", {args[0], const_i64(1, p)}, str_type(), p);
    return emit("core.tuple_make", {root, ext}, {ir_type(e.ty)}, {}, p);
  }
  const char* fn = runtime_of(n);
  if (e.ty == Ty::None) {
    call_extern(fn, args, p);
    return nullptr;
  }
  if (e.ty == Ty::Bool) return cmp("ne", rt(fn, args, Type::i64(), p), const_i64(0, p), p);
  return rt(fn, args, ir_type(e.ty), p);
}

void FunctionLowerer::lines_loop(const Expr& it, Pos p, const std::function<void(Value*)>& each) {
  Value* stream = expr(it);
  Value* line = nullptr;
  auto test = [&](Value*) {  // a line is read only when the step before it is done, as Python's loop does
    line = rt("ppy_io_readline", {stream}, str_type(), p);
    return cmp("ne", rt("ppy_str_len", {line}, Type::i64(), p), const_i64(0, p), p);
  };
  loop(new_loop("for", false), nullptr, test, [&](Value*) { each(line); }, nullptr, nullptr, p);
}

void FunctionLowerer::raise_system_exit(const Expr& v, Pos p) {
  const Expr* a = v.kind == ExprKind::Call && v.kids.size() == 2 ? v.kids[1].get() : nullptr;
  if (!a) {
    call_extern("ppy_sys_exit_none", {}, p);
  } else if (a->ty == Ty::Str) {
    call_extern("ppy_sys_exit_str", {expr(*a)}, p);
  } else if (a->ty == Ty::Int || a->ty == Ty::Bool) {
    call_extern("ppy_sys_exit", {convert(expr(*a), a->ty, Ty::Int, p)}, p);
  } else {  // a float: Python shows it and exits 1
    call_extern("ppy_sys_exit_str", {str_of(expr(*a), a->ty, p)}, p);
  }
  emit("core.unreachable", {}, {}, {}, p);
}

void FunctionLowerer::print_to_stream(const Expr& e) {
  Pos p = e.pos;
  const Expr* file = nullptr;
  const std::string* sep = nullptr;
  const std::string* end = nullptr;
  bool flush = false;
  for (auto& k : e.keywords) {
    if (k.name == "file") file = k.value.get();
    if (k.name == "sep") sep = &k.value->str;
    if (k.name == "end") end = &k.value->str;
    if (k.name == "flush") flush = k.value->bval;
  }
  // The items in Python's order: the arguments, then the stream.
  std::vector<Value*> items;
  for (size_t i = 1; i < e.kids.size(); ++i) items.push_back(str_of(expr(*e.kids[i]), e.kids[i]->ty, p));
  Value* stream = file ? expr(*file) : rt("ppy_io_stdout", {}, str_type(), p);
  Value* text = nullptr;
  auto add = [&](Value* s) { text = text ? rt("ppy_str_concat", {text, s}, str_type(), p) : s; };
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) add(str_literal(sep ? *sep : " ", p));
    add(items[i]);
  }
  add(str_literal(end ? *end : "\n", p));
  rt("ppy_io_write", {stream, text}, Type::i64(), p);
  if (flush) call_extern("ppy_io_flush", {stream}, p);
}

}  // namespace ppy::frontend::lowering

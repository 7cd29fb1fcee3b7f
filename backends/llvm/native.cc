// The system tools a native build calls, and the C texts it writes.
#include "native.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cassert>
#include <cstdlib>
#include <cstring>

#include "ppy/runtime/abi.h"
#include "ppy/util/str_cat.h"

extern char** environ;

namespace fs = std::filesystem;

namespace ppy::llvm_backend {

std::optional<fs::path> find_program(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::string dirs = path && *path ? path : "/usr/local/bin:/usr/bin:/bin";
  size_t start = 0;
  while (start <= dirs.size()) {
    size_t end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    fs::path candidate = fs::path(dirs.substr(start, end - start)) / name;
    if (!candidate.parent_path().empty() && ::access(candidate.c_str(), X_OK) == 0) return candidate;
    start = end + 1;
  }
  return std::nullopt;
}

std::optional<fs::path> find_linker(const std::string& triple, const std::string& host_triple) {
  auto arch = [](const std::string& t) { return t.substr(0, t.find('-')); };
  if (triple.empty() || arch(triple) == arch(host_triple)) {
    for (const char* name : {"cc", "clang-19", "clang", "gcc"})
      if (auto p = find_program(name)) return p;
    return std::nullopt;
  }
  // Debian's cross toolchains: aarch64-linux-gnu-gcc, riscv64-linux-gnu-gcc.
  std::string gnu = triple;
  if (auto p = gnu.find("-unknown-"); p != std::string::npos) gnu.replace(p, 9, "-");
  for (const std::string& name : {gnu + "-gcc", gnu + "-cc", triple + "-gcc"})
    if (auto p = find_program(name)) return p;
  return std::nullopt;
}

absl::StatusOr<std::string> run_tool(const std::vector<std::string>& argv, const fs::path& cwd) {
  int pipefd[2];
  if (::pipe2(pipefd, O_CLOEXEC) != 0) return absl::InternalError(str_cat("pipe: ", std::strerror(errno)));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipefd[1], 1);
  posix_spawn_file_actions_adddup2(&actions, pipefd[1], 2);
  posix_spawn_file_actions_addchdir_np(&actions, cwd.c_str());
  std::vector<char*> args;
  for (auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  // The tools' temporaries go to `cwd` (a sandboxed helper may write nowhere else).
  std::vector<std::string> env_storage;
  for (char** e = environ; *e; ++e)
    if (std::strncmp(*e, "TMPDIR=", 7) != 0) env_storage.push_back(*e);
  env_storage.push_back("TMPDIR=" + cwd.string());
  std::vector<char*> env;
  for (auto& e : env_storage) env.push_back(const_cast<char*>(e.c_str()));
  env.push_back(nullptr);
  pid_t pid;
  int rc = posix_spawn(&pid, argv[0].c_str(), &actions, nullptr, args.data(), env.data());
  posix_spawn_file_actions_destroy(&actions);
  ::close(pipefd[1]);
  if (rc != 0) {
    ::close(pipefd[0]);
    return absl::FailedPreconditionError(str_cat("cannot run ", argv[0], ": ", std::strerror(rc)));
  }
  std::string output;
  char buf[4096];
  for (ssize_t n; (n = ::read(pipefd[0], buf, sizeof buf)) != 0;) {
    if (n < 0) {
      if (errno == EINTR) continue;
      break;
    }
    output.append(buf, static_cast<size_t>(n));
  }
  ::close(pipefd[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return output;
  std::string command;
  for (auto& a : argv) str_append(command, command.empty() ? "" : " ", a);
  if (output.size() > 2000) output = "..." + output.substr(output.size() - 2000);
  return absl::InternalError(str_cat("`", command, "` failed (",
                                     WIFEXITED(status) ? str_cat("exit ", WEXITSTATUS(status))
                                                       : str_cat("signal ", WTERMSIG(status)),
                                     "):\n", output));
}

namespace {

std::string c_type(ir::Type t) {
  switch (t.kind()) {
    case ir::TypeKind::I64:
    case ir::TypeKind::Index: return "int64_t";
    case ir::TypeKind::F64: return "double";
    case ir::TypeKind::Bool: return "bool";
    case ir::TypeKind::Buffer: return "ppy_list*";
    case ir::TypeKind::Ptr: return t.elem().kind() == ir::TypeKind::F64 ? "double*" : "int64_t*";
    default: return "void*";
  }
}

/// The C prototype of runtime function `symbol` from its abi.def entry, its
/// parameters named `names`: the header declares what a C caller of the
/// exports needs, as the runtime's own header spells it.
std::string runtime_prototype(std::string_view symbol, std::initializer_list<std::string_view> names) {
  const runtime::RuntimeFunction* fn = runtime::find_runtime_function(symbol);
  assert(fn && fn->params.size() == names.size() && "not a runtime function of abi.def");
  auto spelled = [](std::string_view pattern) -> std::string {
    if (pattern.starts_with("buffer<")) return "ppy_list*";
    return std::string(runtime::c_type(runtime::abi_class(pattern)));
  };
  std::string out = str_cat(spelled(fn->result), " ", symbol, "(");
  size_t i = 0;
  for (std::string_view name : names) {
    str_append(out, i ? ", " : "", spelled(fn->params[i]), " ", name);
    ++i;
  }
  return out + ");\n";
}

}  // namespace

std::vector<ExportedFunction> exported_functions(std::span<const ir::Module* const> modules) {
  std::vector<ExportedFunction> out;
  for (const ir::Module* m : modules)
    for (auto& f : m->functions()) {
      const ir::Attribute* e = f->attributes().get("ppy.export");
      if (!e || !e->is<bool>() || !e->as_bool() || f->is_declaration()) continue;
      ExportedFunction x;
      x.symbol = f->name();
      if (const ir::Attribute* q = f->attributes().get("ppy.qualname"); q && q->is<std::string>())
        x.qualname = q->as_string();
      x.c_result = f->results().empty() ? "void" : c_type(f->results()[0]);
      x.result_types = f->results();
      const ir::Block* entry = f->body().entry();
      for (size_t i = 0; i < f->params().size(); ++i) {
        x.c_params.push_back(c_type(f->params()[i].type));
        x.param_types.push_back(f->params()[i].type);
        std::string name = entry && i < entry->num_arguments() ? entry->argument(i)->hint() : "";
        x.param_names.push_back(name.empty() ? str_cat("arg", i) : name);
      }
      x.loc = f->loc();
      out.push_back(std::move(x));
    }
  return out;
}

std::string c_identifier(const std::string& name) {
  std::string out;
  for (char c : name) out.push_back(std::isalnum(static_cast<unsigned char>(c)) ? c : '_');
  if (out.empty() || std::isdigit(static_cast<unsigned char>(out[0]))) out.insert(out.begin(), '_');
  return out;
}

std::string c_header(const std::string& name, const std::vector<ExportedFunction>& exports) {
  std::string guard = "PPY_" + c_identifier(name) + "_H";
  for (char& c : guard) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  std::string out = str_cat("/* ppy_", c_identifier(name), ".h: the @export functions of ", name,
                            ", written by ppy's LLVM backend. */\n#ifndef ", guard, "\n#define ", guard,
                            "\n\n#include <stdbool.h>\n#include <stdint.h>\n\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n");
  out +=
      "/* A list: a handle to its length, capacity and elements (8 bytes each),\n"
      " * made by the runtime on Boehm's collector (link -lgc). */\n"
      "typedef struct ppy_list ppy_list;\n";
  out += runtime_prototype("ppy_list_new_i64", {"n"});
  out += runtime_prototype("ppy_list_new_f64", {"n"});
  // ppy_list_len is the list guards', which no call_extern names: not in abi.def.
  out +=
      "int64_t ppy_list_len(const ppy_list* l);\n"
      "#define PPY_LIST_I64(l) (*(int64_t**)((char*)(l) + 16))\n"
      "#define PPY_LIST_F64(l) (*(double**)((char*)(l) + 16))\n"
      "/* Output is buffered; this writes it out (it also happens at exit). */\n"
      "void ppy_rt_flush(void);\n\n";
  for (auto& f : exports) {
    str_append(out, "/* ", f.qualname.empty() ? f.symbol : f.qualname, " */\n", f.c_result, " ", f.symbol, "(");
    for (size_t i = 0; i < f.c_params.size(); ++i)
      str_append(out, i ? ", " : "", f.c_params[i], " ", c_identifier(f.param_names[i]));
    if (f.c_params.empty()) out += "void";
    out += ");\n";
  }
  str_append(out, "\n#ifdef __cplusplus\n}\n#endif\n\n#endif /* ", guard, " */\n");
  return out;
}

std::string pkg_config(const std::string& name, const std::string& version, bool collector) {
  std::string lib = "ppy_" + c_identifier(name);
  return str_cat("prefix=${pcfiledir}/../..\nlibdir=${prefix}/lib\nincludedir=${prefix}/include\n\nName: ", lib,
                 "\nDescription: ", name, " compiled by ppy's LLVM backend\nVersion: ", version,
                 "\nCflags: -I${includedir}\nLibs: ${libdir}/lib", lib, ".a", collector ? " -lgc" : "", " -lm\n");
}

std::string python_extension_source(const std::string& name, const std::vector<ExportedFunction>& exports) {
  std::string mod = c_identifier(name);
  std::string out = str_cat(
      "/* The CPython extension module ", mod, ", written by ppy's LLVM backend. */\n"
      "#define PY_SSIZE_T_CLEAN\n#include <Python.h>\n#include <stdbool.h>\n#include <stdint.h>\n\n"
      "int ppy_rt_call(void (*fn)(void*), void* arg);\n"
      "void ppy_rt_last_error(const char** name, const char** message);\n\n"
      "/* A raise inside ppy code becomes the Python exception of that name. */\n"
      "static PyObject* ppy_raised(void) {\n"
      "  const char *name, *message;\n"
      "  ppy_rt_last_error(&name, &message);\n"
      "  PyObject* type = PyDict_GetItemString(PyEval_GetBuiltins(), name);\n"
      "  if (!type || !PyExceptionClass_Check(type)) type = PyExc_RuntimeError;\n"
      "  PyErr_SetString(type, message);\n"
      "  return NULL;\n"
      "}\n\n");
  std::string table;
  for (auto& f : exports) {
    std::string frame = "frame_" + f.symbol;
    // The arguments and result travel through a frame so ppy_rt_call can
    // run the call under its trap.
    str_append(out, f.c_result, " ", f.symbol, "(");
    for (size_t i = 0; i < f.c_params.size(); ++i) str_append(out, i ? ", " : "", f.c_params[i]);
    if (f.c_params.empty()) out += "void";
    out += ");\n";
    str_append(out, "struct ", frame, " {");
    for (size_t i = 0; i < f.c_params.size(); ++i) str_append(out, " ", f.c_params[i], " a", i, ";");
    if (f.c_result != "void") str_append(out, " ", f.c_result, " r;");
    str_append(out, " int unused; };\nstatic void call_", f.symbol, "(void* p) {\n  struct ", frame,
               "* f = p;\n  ");
    if (f.c_result != "void") out += "f->r = ";
    str_append(out, f.symbol, "(");
    for (size_t i = 0; i < f.c_params.size(); ++i) str_append(out, i ? ", " : "", "f->a", i);
    out += ");\n}\n";
    std::string short_name = f.qualname.substr(f.qualname.rfind('.') + 1);
    str_append(out, "static PyObject* py_", f.symbol, "(PyObject* self, PyObject* args) {\n  struct ", frame,
               " f = {0};\n");
    std::string fmt, refs;
    for (size_t i = 0; i < f.param_types.size(); ++i) {
      ir::Type t = f.param_types[i];
      if (t.is_bool()) {
        str_append(out, "  int b", i, " = 0;\n");
        fmt += "p";
        str_append(refs, ", &b", i);
      } else {
        fmt += t.is_float() ? "d" : "L";
        str_append(refs, ", &f.a", i);
      }
    }
    str_append(out, "  if (!PyArg_ParseTuple(args, \"", fmt, ":", short_name, "\"", refs, ")) return NULL;\n");
    for (size_t i = 0; i < f.param_types.size(); ++i)
      if (f.param_types[i].is_bool()) str_append(out, "  f.a", i, " = b", i, " != 0;\n");
    str_append(out, "  if (ppy_rt_call(call_", f.symbol, ", &f)) return ppy_raised();\n");
    if (f.result_types.empty())
      out += "  Py_RETURN_NONE;\n";
    else if (f.result_types[0].is_float())
      out += "  return PyFloat_FromDouble(f.r);\n";
    else if (f.result_types[0].is_bool())
      out += "  return PyBool_FromLong(f.r);\n";
    else
      out += "  return PyLong_FromLongLong(f.r);\n";
    out += "}\n\n";
    str_append(table, "  {\"", short_name, "\", py_", f.symbol, ", METH_VARARGS, \"", f.qualname, "\"},\n");
  }
  str_append(out, "static PyMethodDef methods[] = {\n", table, "  {NULL, NULL, 0, NULL},\n};\n\n",
             "static struct PyModuleDef module_def = {PyModuleDef_HEAD_INIT, \"", mod, "\", NULL, -1, methods};\n\n",
             "PyMODINIT_FUNC PyInit_", mod, "(void) { return PyModule_Create(&module_def); }\n");
  return out;
}

}  // namespace ppy::llvm_backend

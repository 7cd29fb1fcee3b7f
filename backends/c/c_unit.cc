// The shape of one unit: the runtime pasted at the top, the helpers and
// structs it calls, module variables, prototypes, the functions, and `main`
// for --standalone; or, for the `header` format, the exports' declarations.
// The CFG is structured into while/if (backends/source); one that is not is
// written with labels and gotos. The runtime's text makes the unit compile on
// its own: `cc unit.c -lm`, or, when it needs the collector (it defines
// PPY_RT_STRINGS), `cc unit.c $(pkg-config --cflags --libs bdw-gc) -lm`.
#include <cctype>

#include "c_writer.h"
#include "ppy/ir/trace.h"
#include "ppy/runtime/raise_through.h"
#include "ppy/runtime/runtime_source.h"
#include "ppy/util/error.h"
#include "ppy/util/status_macros.h"
#include "ppy/util/str_cat.h"

namespace ppy::backends {
namespace cgen {
namespace {

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

std::string qualname(const ir::Function& f) {
  const ir::Attribute* q = f.attributes().get("ppy.qualname");
  return q && q->is<std::string>() ? q->as_string() : f.name();
}

bool exported(const ir::Function& f) {
  const ir::Attribute* e = f.attributes().get("ppy.export");
  return e && e->is<bool>() && e->as_bool();
}

}  // namespace

absl::StatusOr<std::string> CWriter::run() {
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
      const ir::SymbolRef* sym =
          ir::core_op(op) == ir::CoreOp::Const ? ir::attr_if<ir::SymbolRef>(op, "value") : nullptr;
      if (!sym || global_names_.count(sym->name)) return;
      auto g = m_.globals().find(sym->name);
      if (g == m_.globals().end() || !source::global_value_type(g->second.type)) return;
      std::string name = source::identifier(g->first);
      global_names_[g->first] = name;
      bool tuple = g->second.type.kind() == ir::TypeKind::Tuple;  // zeroed, as C zeroes a static
      str_append(globals, "static ", g->second.is_mutable ? "" : "const ", c_type(g->second.type), " ", name,
                 tuple ? "" : str_cat(" = ", global_initializer(g->second)), ";\n");
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
  // The collector part of the runtime (ppy_str.h, ppy_dict.h, ...) only for a unit that
  // needs it: it needs Boehm's collector (`pkg-config --cflags --libs bdw-gc`, docs/runtime.md).
  if (needs_collector(m_)) out += "#define PPY_RT_STRINGS 1\n";
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
  for (auto& [symbol, decl] : extern_decls_) str_append(out, "\n", decl);  // plugins' native symbols
  str_append(out, "\n", protos, thunks_, body);
  if (o_.standalone && entry)
    str_append(out,
               needs_collector(m_)  // with the collector, sys.argv (issue 33)
                   ? "\nint main(int argc, char** argv) {\n  ppy_sys_set_argv(argc, argv);\n  return ppy_rt_run("
                   : "\nint main(void) { return ppy_rt_run(",
               fn_names_.at(entry->name()), needs_collector(m_) ? ");\n}\n" : "); }\n");
  if (o_.header_only) str_append(out, "\n#endif /* ", guard, " */\n");
  return out;
}

const ir::Function* CWriter::main_function() const {
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

absl::Status CWriter::refuse_fn(const ir::Function& f, std::string what, std::string capability) {
  return validation_error({"c", std::move(what), std::move(capability), f.loc()});
}

absl::StatusOr<std::string> CWriter::export_header() {
  std::string guard = str_cat("PPY_", upper(source::identifier(m_.name())), "_H");
  std::string out = str_cat("/* The exports of module ", m_.name(), ", written by ppy's c backend. */\n#ifndef ", guard,
                            "\n#define ", guard, "\n\n#include <stdint.h>\n");
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

std::set<const ir::Function*> CWriter::recursive_functions() const {
  std::map<const ir::Function*, std::set<const ir::Function*>> calls;
  // A call through a function value may reach any function taken as a value.
  std::set<const ir::Function*> values, calls_values;
  for (auto& f : m_.functions())
    ir::walk(f->body(), [&](const ir::Operation& op) {
      ir::CoreOp k = ir::core_op(op);
      if (k == ir::CoreOp::CallIndirect) calls_values.insert(f.get());
      const std::string* callee = k == ir::CoreOp::Call || k == ir::CoreOp::FuncRef ? ir::call_callee(op) : nullptr;
      if (!callee) return;
      const ir::Function* g = m_.function(*callee);
      if (!g || g->is_declaration()) return;
      (k == ir::CoreOp::FuncRef ? values : calls[f.get()]).insert(g);
    });
  for (const ir::Function* f : calls_values) calls[f].insert(values.begin(), values.end());
  std::set<const ir::Function*> out;
  for (auto& f : m_.functions()) {
    if (ir::trace_transparent(*f)) continue;  // a try body, an adapter: no level of Python's
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

std::string CWriter::signature(const ir::Function& f) {
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
  if (kind == "kernel")
    prefix = "__global__ ";
  else if (kind == "device")
    prefix = "__device__ ";
  if (o_.header_only)
    prefix = "static inline " + prefix;
  else if (o_.dialect == Dialect::Cpp && exported(f))
    prefix = "extern \"C\" " + prefix;
  std::string ret = f.results().empty() ? "void" : c_type(f.results()[0]);
  return str_cat(prefix, ret, " ", fn_names_.at(f.name()), "(", params, ")");
}

source::ValueOptions CWriter::value_options() const {
  source::ValueOptions vo;
  vo.one_effectful_operand = true;
  vo.reserved = c_reserved();
  for (auto& [sym, n] : fn_names_) vo.reserved.insert(n);
  for (auto& [sym, n] : global_names_) vo.reserved.insert(n);
  // Prints stay statements; the rest may be written inside an expression.
  vo.inlinable = [](const ir::Operation& op) {
    return ir::core_op(op) != ir::CoreOp::CallExtern || op.num_results() == 1;
  };
  // Tracebacks (issue 34): a statement writes one line before it runs, so a
  // call an exception may come through is not folded into an op of another line.
  vo.inlinable_into = runtime::inlining_keeps_line;
  return vo;
}

const std::string* CWriter::global_of(const ir::Value* v) const {
  const std::string* symbol = source::global_symbol(v);
  if (!symbol) return nullptr;
  auto it = global_names_.find(*symbol);
  return it == global_names_.end() ? nullptr : &it->second;
}

std::string CWriter::global_initializer(const ir::Global& g) {
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

}  // namespace cgen

absl::StatusOr<std::string> c_source(const ir::Module& module, const COptions& options) {
  return cgen::CWriter(module, options).run();
}

}  // namespace ppy::backends

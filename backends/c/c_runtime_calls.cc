// Calls of the native runtime (`core.call_extern {abi = "c"}`), shaped by its
// ABI table (ppy/runtime/abi.def): whether a unit needs the collector, the
// text attribute's bytes, an operand's and a result's C type. The table, not
// the callee's name, decides; the one thing it leaves open is below.
#include "c_writer.h"
#include "ppy/util/str_cat.h"

namespace ppy::backends::cgen {
namespace {

/// Where the C really differs from the table: it spells a str and an opaque
/// handle (a dict's or set's table, an object) alike, `ptr<i8>`, and these
/// return the handle as a `void*` where the other `ptr<i8>` results are a
/// `ppy_str*`. c_runtime_calls_test holds the list against the prototypes.
bool returns_opaque_handle(std::string_view symbol) {
  return symbol == "ppy_dict_new" || symbol == "ppy_obj_new" || symbol == "ppy_obj_null" ||
         symbol == "ppy_exc_object" ||
         // io (issue 33): a stream's handle
         symbol == "ppy_io_open" || symbol == "ppy_io_stdin" || symbol == "ppy_io_stdout" || symbol == "ppy_io_stderr";
}

}  // namespace

bool needs_collector(const ir::Module& module) {
  bool needs = false;
  for (auto& f : module.functions()) {
    // Lists live on the collector: a unit that makes, takes or returns one needs it.
    for (auto& p : f->params()) needs = needs || p.type.kind() == ir::TypeKind::Buffer;
    for (auto& t : f->results()) needs = needs || t.kind() == ir::TypeKind::Buffer;
    ir::walk(f->body(), [&](const ir::Operation& op) {
      const runtime::RuntimeFunction* fn = runtime::runtime_callee(op);
      if (fn && fn->has(runtime::kCollector)) needs = true;
      // A tuple in a list is boxed by ppy_list_box (docs/runtime.md, "Lists").
      ir::CoreOp k = ir::core_op(op);
      if ((k == ir::CoreOp::BufferLoad || k == ir::CoreOp::BufferStore) &&
          op.operand(k == ir::CoreOp::BufferLoad ? 0 : 1)->type().elem().kind() == ir::TypeKind::Tuple)
        needs = true;
    });
  }
  return needs;
}

std::string_view runtime_result_c_type(const runtime::RuntimeFunction& fn) {
  if (fn.result_class() != runtime::AbiClass::kPointer) return runtime::c_type(fn.result_class());
  if (fn.result.starts_with("buffer<")) return "ppy_list*";
  if (fn.result == "ptr<i8>") return returns_opaque_handle(fn.symbol) ? "void*" : "ppy_str*";
  return "void*";  // `handle`: any traced reference
}

Expr CWriter::runtime_call(const ir::Operation& op) {
  const runtime::RuntimeFunction* fn = runtime::runtime_callee(op);
  if (const std::string* library = ir::attr_if<std::string>(op, "library"); !fn && library)
    return library_call(op, *library);
  if (!fn) return fail(op, str_cat("the runtime function '", str_attr(op, "callee"), "'")), Expr{"0", kAtom};
  if (absl::Status s = runtime::check_runtime_call(*fn, op); !s.ok())
    return fail(op, str_cat("a call the runtime's ABI table does not allow (", std::string(s.message()), ")")),
           Expr{"0", kAtom};
  std::string args;
  if (fn->has(runtime::kText)) {  // the `text` attribute, as its bytes and their length
    std::string_view text = str_attr(op, "text");
    args = str_cat(c_string(text), ", ", static_cast<int64_t>(text.size()));
  }
  for (size_t i = 0; i < op.num_operands(); ++i) {
    Expr a = expr(op.operand(i));
    // An IR bool is a C bool; the runtime takes an int32_t holding 0 or 1.
    bool as_int32 = fn->param_class(i) == runtime::AbiClass::kBool;
    str_append(args, args.empty() ? "" : ", ", as_int32 ? str_cat("(int32_t)", paren(a, kUnary)) : a.text);
  }
  Expr call{str_cat(fn->symbol, "(", args, ")"), kPostfix};
  if (fn->result_class() != runtime::AbiClass::kPointer) return call;
  // A void* result as the value's own C type (C++ does not convert it).
  std::string type = c_type(op.result(0)->type());
  if (runtime_result_c_type(*fn) == type) return call;
  return {str_cat("(", type, ")", call.text), kUnary};
}

Expr CWriter::library_call(const ir::Operation& op, const std::string& library) {
  const std::string* callee = ir::extern_callee(op);
  std::string symbol = callee ? *callee : "";
  std::string params, args;
  for (size_t i = 0; i < op.num_operands(); ++i) {
    str_append(params, i ? ", " : "", c_type(op.operand(i)->type()));
    str_append(args, i ? ", " : "", expr(op.operand(i)).text);
  }
  std::string result = op.num_results() ? c_type(op.result(0)->type()) : std::string("void");
  extern_decls_.emplace(
      symbol, str_cat("/* of the native library '", library, "': link it (-l", library, ", or its file) */\n", result,
                      " ", symbol, "(", params.empty() ? "void" : params, ");\n"));
  return {str_cat(symbol, "(", args, ")"), kPostfix};
}

}  // namespace ppy::backends::cgen

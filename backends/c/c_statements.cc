// The ops written as statements of their own: stores, guards, calls without
// a result, try bodies' calls (a thunk run by ppy_rt_try) and kernel launches.
#include "c_writer.h"
#include "ppy/util/str_cat.h"

namespace ppy::backends::cgen {

void CWriter::statement(const ir::Operation& op) {
  const std::string& n = op.name();
  if (int64_t line = trace_line_of(op)) trace_line_ = line;  // tracebacks (issue 34, c_trace.cc)
  if (ir::core_op(op) != ir::CoreOp::Guard) trace_mark(op);
  switch (ir::core_op(op)) {
    case ir::CoreOp::Store:
      return store(op);
    case ir::CoreOp::BufferStore:
      return buffer_store(op);
    case ir::CoreOp::Guard: {
      ir::GuardException e = ir::guard_exception(op);
      trace_guard_at_ = trace_line_;
      std::string at = trace_guard_line();  // the frame's line, on the failing branch only
      line(str_cat("if (", negate(op.operand(0)).text, ") ", at.empty() ? "" : "(", at, "ppy_rt_raise(",
                   c_string(e.exception), ", ", c_string(e.message), ")", at.empty() ? "" : ")", ";"));
      return;
    }
    case ir::CoreOp::Call:
      if (ir::captures_status(op)) return capture(op);
      break;
    default:  // the rest are expressions (c_expr.cc), written below as a statement
      break;
  }
  if (n == "gpu.launch") return launch(op);
  if (n == "gpu.barrier") {
    line("__syncthreads();");
    return;
  }
  if (op.num_results() == 0) {  // a call without a result (of the runtime: c_runtime_calls.cc)
    line(op_expr(op).text + ";");
    return;
  }
  if (op.num_results() != 1) return fail(op, str_cat(n, " with ", op.num_results(), " results"));
  if (!values_->live(op.result(0))) {
    line(str_cat("(void)", paren(op_expr(op), kUnary), ";"));
    return;
  }
  line(str_cat(values_->name(op.result(0)), " = ", op_expr(op).text, ";"));
}

void CWriter::store(const ir::Operation& op) {
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
}

void CWriter::buffer_store(const ir::Operation& op) {
  ir::Type elem = op.operand(1)->type().elem();
  if (elem.kind() == ir::TypeKind::Tuple) {  // a new box (docs/runtime.md, "Lists")
    line(str_cat("((void**)", paren(expr(op.operand(1)), kPostfix), "->data)[", expr(op.operand(2)).text,
                 "] = ppy_box_", boxed(elem), "(", expr(op.operand(0)).text, ");"));
    return;
  }
  line(str_cat(element(op.operand(1), op.operand(2)), " = ", expr(op.operand(0)).text, ";"));
}

void CWriter::capture(const ir::Operation& op) {
  const std::string* c = ir::call_callee(op);
  std::string callee = c ? *c : "";
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
  // `ppy_frame`, not a name a program's local may have (`with open(p) as f`).
  line(str_cat(frame, " ppy_frame = {", init.empty() ? "0" : init, "};"));
  const ir::Value* status = op.result(op.num_results() - 1);
  line(str_cat(values_->uses(status) ? values_->name(status) + " = " : "(void)", "ppy_rt_try(", thunk,
               ", &ppy_frame);"));
  if (op.num_results() == 2 && values_->uses(op.result(0)))
    line(str_cat(values_->name(op.result(0)), " = ppy_frame.r;"));
  --indent_;
  line("}");
}

void CWriter::launch(const ir::Operation& op) {
  const std::string* c = ir::call_callee(op);
  std::string callee = c ? *c : "";
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
    auto is = [](const ir::Operation* o, ir::CoreOp k) { return o && ir::core_op(*o) == k; };
    if (is(d, ir::CoreOp::Cast) && is(d->operand(0)->def(), ir::CoreOp::BufferData)) d = d->operand(0)->def();
    if (is(d, ir::CoreOp::BufferData)) {
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
      if (!is_const)
        copies_back.push_back(str_cat(api, "Memcpy(", host, ", ", dev, ", ", bytes, ", ", api, "MemcpyDeviceToHost);"));
      frees.push_back(str_cat(api, "Free(", dev, ");"));
      str_append(args, args.empty() ? "" : ", ", dev);
    } else {
      str_append(args, args.empty() ? "" : ", ", expr(a).text);
    }
  }
  auto dim = [&](size_t first) {
    return str_cat("dim3((unsigned)", paren(expr(op.operand(first)), kUnary), ", (unsigned)",
                   paren(expr(op.operand(first + 1)), kUnary), ", (unsigned)",
                   paren(expr(op.operand(first + 2)), kUnary), ")");
  };
  line(str_cat(fn_names_.at(callee), "<<<", dim(0), ", ", dim(3), ">>>(", args, ");"));
  line(str_cat(api, "DeviceSynchronize();"));
  for (auto& s : copies_back) line(s);
  for (auto& s : frees) line(s);
  --indent_;
  line("}");
}

}  // namespace ppy::backends::cgen

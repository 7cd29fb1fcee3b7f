// Runtime calls (`core.call_extern` of an abi.def function): its `python`
// template expanded with the operands' expressions, or, for a "*" one, the
// writer's own spelling: print's items gathered into print() calls, slices
// that omit the bounds the source omitted, a table that is a dict or a set.
#include "ppy/runtime/abi.h"
#include "ppy/util/str_cat.h"
#include "python_template.h"
#include "python_writer.h"

namespace ppy::backends::python {

Expr ModuleWriter::runtime_call(const ir::Operation& op) {
  const runtime::RuntimeFunction* fn = runtime::runtime_callee(op);
  if (!fn) return fail(op, str_cat("the runtime function '", str_attr(op, "callee"), "'")), Expr{"None", kAtom};
  const absl::StatusOr<CallTemplate>& t = call_template(*fn);
  if (!t.ok()) return fail(op, std::string(t.status().message())), Expr{"None", kAtom};
  if (op.num_operands() != fn->params.size())
    return fail(op, str_cat("the runtime function '", fn->symbol, "' with ", op.num_operands(), " operand(s)")),
           Expr{"None", kAtom};
  if (t->by_hand) {
    if (fn->symbol == "ppy_str_slice" || fn->symbol == "ppy_list_slice") return slice(op);
    // An empty table: its descriptor says a dict ('K:V') or a set ('K').
    if (fn->symbol == "ppy_dict_new") {
      const ir::Operation* d = op.operand(0)->def();
      const ir::Attribute* desc = d ? d->attr("text") : nullptr;
      bool dict = desc && desc->is<std::string>() && desc->as_string().find(':') != std::string::npos;
      return {dict ? "{}" : "set()", kAtom};
    }
    // print's items never come here: block_ops gathers them (print_item).
    return fail(op, str_cat("the runtime function '", fn->symbol, "'")), Expr{"None", kAtom};
  }
  helpers_.insert(t->helpers.begin(), t->helpers.end());
  return t->expand([&](size_t i) { return expr(op.operand(i)); },
                   fn->has(runtime::kText) ? py_string(str_attr(op, "text")) : std::string());
}

Expr ModuleWriter::slice(const ir::Operation& op) {
  std::optional<int64_t> bounds = ir::int_constant(op.operand(4));  // which of start and stop the source omitted
  if (!bounds) return fail(op, str_cat(str_attr(op, "callee"), " with bounds it cannot read")), Expr{"None", kAtom};
  int64_t omitted = *bounds;
  if (omitted == 3 && str_attr(op, "callee") == "ppy_list_slice" && ir::int_constant(op.operand(3)) == 1)
    return {str_cat("list(", expr(op.operand(0)).text, ")"), kAtom};  // a copy, also of a deque (ppy_deque.h)
  std::string start = omitted & 1 ? "" : expr(op.operand(1)).text;
  std::string stop = omitted & 2 ? "" : expr(op.operand(2)).text;
  return {str_cat(paren(expr(op.operand(0)), kAtom), "[", start, ":", stop, ":", expr(op.operand(3)).text, "]"), kAtom};
}

std::optional<ModuleWriter::PrintItem> ModuleWriter::print_item(const ir::Operation& op) {
  if (ir::core_op(op) != ir::CoreOp::CallExtern) return std::nullopt;
  std::string_view c = str_attr(op, "callee");
  if (c == "ppy_print_i64" || c == "ppy_print_f64" || c == "ppy_print_bool")
    return PrintItem{PrintItem::Value, expr(op.operand(0)).text};
  if (c == "ppy_print_str") return PrintItem{PrintItem::Text, std::string(str_attr(op, "text"))};
  if (c == "ppy_print_string") return PrintItem{PrintItem::Value, expr(op.operand(0)).text};
  if (c == "ppy_print_space") return PrintItem{PrintItem::Space, ""};
  if (c == "ppy_print_newline") return PrintItem{PrintItem::Newline, ""};
  return std::nullopt;
}

void ModuleWriter::flush_prints(std::vector<PrintItem>& items) {
  size_t start = 0;
  while (start < items.size()) {
    size_t end = start;
    while (end < items.size() && items[end].kind != PrintItem::Newline) ++end;
    bool newline = end < items.size();
    print_call(std::span<const PrintItem>(items.data() + start, end - start), newline);
    start = newline ? end + 1 : end;
  }
  items.clear();
}

void ModuleWriter::print_call(std::span<const PrintItem> items, bool newline) {
  auto arg = [](const PrintItem& it) { return it.kind == PrintItem::Value ? it.text : py_string(it.text); };
  // print(a, b, c): arguments separated by single spaces.
  bool spaced = items.size() % 2 == 1;
  for (size_t i = 0; i < items.size() && spaced; ++i) spaced = (i % 2 == 1) == (items[i].kind == PrintItem::Space);
  std::vector<std::string> args;
  if (spaced) {
    for (size_t i = 0; i < items.size(); i += 2) args.push_back(arg(items[i]));
  } else {
    // Pieces printed back to back: adjacent texts joined, no separator.
    std::string text;
    bool have_text = false;
    for (const PrintItem& it : items) {
      if (it.kind == PrintItem::Value) {
        if (have_text) args.push_back(py_string(text));
        text.clear();
        have_text = false;
        args.push_back(it.text);
      } else {
        text += it.kind == PrintItem::Space ? " " : it.text;
        have_text = true;
      }
    }
    if (have_text) args.push_back(py_string(text));
    if (args.size() > 1) args.push_back("sep=\"\"");
  }
  if (!newline) args.push_back("end=\"\"");
  std::string joined;
  for (auto& a : args) str_append(joined, joined.empty() ? "" : ", ", a);
  line(str_cat("print(", joined, ")"));
}

}  // namespace ppy::backends::python

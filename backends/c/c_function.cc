// One function's body: its variables declared, the structured CFG
// (backends/source) as while / if / break / continue / return, or labels and
// gotos where it does not take that shape, and the block arguments an edge sets.
#include <map>

#include "c_writer.h"
#include "ppy/util/error.h"
#include "ppy/util/status_macros.h"
#include "ppy/util/str_cat.h"

namespace ppy::backends::cgen {

absl::StatusOr<std::string> CWriter::function(const ir::Function& f) {
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
    ir::CoreOp k = ir::core_op(op);
    if (k == ir::CoreOp::Load && source::is_slot(op.operand(0))) read_slots_.insert(op.operand(0));
    if (k == ir::CoreOp::Call)  // a slot handed to a try body (its address)
      for (const ir::Value* v : op.operands())
        if (source::is_slot(v)) read_slots_.insert(v);
  });
  // Declarations: every variable the body assigns, zero-initialized.
  for (const ir::Value* v : values.variables()) {
    bool slot = source::is_slot(v);
    ir::Type t = slot ? v->type().elem() : v->type();
    if (slot ? !read_slots_.count(v) : !values.live(v)) continue;
    line(str_cat(c_type(t), " ", values.name(v), " = ", zero(t), ";"));
  }
  if (recursive_.count(&f)) line("ppy_rt_enter();");
  trace_begin(f);  // tracebacks (issue 34, c_trace.cc)
  if (auto s = source::structure(f)) {
    seq(*s, true);
  } else {
    gotos(f);
  }
  PPY_RETURN_IF_ERROR(status_);
  return str_cat(signature(f), " {\n", out_, "}\n");
}

void CWriter::line(std::string_view text) {
  out_.append(static_cast<size_t>(indent_) * 2, ' ');
  out_ += text;
  out_ += "\n";
}

bool CWriter::silent_block(const Node& n) {
  if (n.kind != Node::Kind::Block) return false;
  const auto& ops = n.block->operations();
  for (size_t i = 0; i + 1 < ops.size(); ++i)
    if (statement_of(*ops[i])) return false;
  return true;
}

bool CWriter::statement_of(const ir::Operation& op) {
  if (!values_->is_statement(op)) return false;
  if (ir::core_op(op) == ir::CoreOp::Store && source::is_slot(op.operand(1))) {
    const ir::Value* v = op.operand(0);
    if (!values_->inlined(v) && values_->name(v) == values_->name(op.operand(1))) return false;
  }
  return true;
}

void CWriter::suite(const Seq& s) {
  ++indent_;
  seq(s, false);
  --indent_;
}

void CWriter::seq(const Seq& s, bool top) {
  for (size_t i = 0; i < s.size(); ++i) {
    const Node& n = s[i];
    switch (n.kind) {
      case Node::Kind::Block:
        block_ops(*n.block);
        break;
      case Node::Kind::Edge:
        edge(*n.edge);
        break;
      case Node::Kind::Break:
        line("break;");
        break;
      case Node::Kind::Continue:
        line("continue;");
        break;
      case Node::Kind::Return:
        ret(*n.op, top && i + 1 == s.size());
        break;
      case Node::Kind::If:
        if_stmt(n, false);
        break;
      case Node::Kind::Loop:
        loop(n);
        break;
    }
  }
}

void CWriter::ret(const ir::Operation& t, bool last) {
  if (ir::core_op(t) == ir::CoreOp::Unreachable) {
    line(gpu_ ? "return;" : "ppy_rt_raise(\"SystemError\", \"reached core.unreachable\");");
    return;
  }
  trace_mark(t);  // tracebacks (issue 34): the value may call
  bool cleanup = recursive_.count(fn_) != 0 || trace_ == ir::TraceRole::kOwns;
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
  trace_leave();
  if (!value.empty())
    line(str_cat("return ", value, ";"));
  else if (!last)
    line("return;");
  if (braces) {
    --indent_;
    line("}");
  }
}

void CWriter::if_stmt(const Node& n, bool elif) {
  const ir::Value* c = n.op->operand(0);
  const Seq* then_s = &n.then_seq;
  const Seq* else_s = &n.else_seq;
  if (!elif) trace_mark(*n.op);  // tracebacks (issue 34): the condition may call (an elif's: below)
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
  if (elif)
    out_.append(head + "\n");
  else
    line(head);
  suite(*then_s);
  if (else_s->empty()) {
    line("}");
    return;
  }
  if (else_s->size() == 2 && silent_block((*else_s)[0]) && (*else_s)[1].kind == Node::Kind::If &&
      !trace_marks((*else_s)[1].op)) {
    out_.append(static_cast<size_t>(indent_) * 2, ' ');
    out_ += "} else ";
    if_stmt((*else_s)[1], true);
    return;
  }
  line("} else {");
  suite(*else_s);
  line("}");
}

void CWriter::loop(const Node& n) {
  const Seq& b = n.body;
  if (b.size() == 2 && silent_block(b[0]) && b[1].kind == Node::Kind::If && !trace_marks(b[1].op)) {
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

void CWriter::gotos(const ir::Function& f) {
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
    ir::CoreOp k = ir::core_op(t);
    if (k == ir::CoreOp::Br) {
      go(t.successors()[0]);
    } else if (k == ir::CoreOp::CondBr) {
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

void CWriter::edge(const ir::Successor& s) {
  struct Move {
    const ir::Value* to;
    std::string text;
    std::set<const ir::Value*> reads;
  };
  std::vector<Move> pending;
  for (auto& [to, from] : values_->moves(s))  // tracebacks (issue 34): a value the edge computes may call
    if (values_->inlined(from) && from->def() && trace_raises_through(*from->def())) {
      trace_mark(*from->def());
      break;
    }
  for (auto& [to, from] : values_->moves(s)) {
    if (!values_->live(to)) {  // nothing reads it: only what computing it does
      if (values_->inlined(from) && tree_has_effects(from)) line(str_cat("(void)", paren(expr(from), kUnary), ";"));
      continue;
    }
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

void CWriter::block_ops(const ir::Block& b) {
  const auto& ops = b.operations();
  for (size_t i = 0; i + 1 < ops.size(); ++i)
    if (statement_of(*ops[i])) statement(*ops[i]);
}

void CWriter::fail(const ir::Operation& op, std::string what) {
  if (status_.ok())
    status_ = validation_error({"c", str_cat(what, " in ", fn_->name()), "", op.loc() ? op.loc() : fn_->loc()});
}

}  // namespace ppy::backends::cgen

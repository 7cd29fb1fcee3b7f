// One function's statements: its CFG structured into while/if/for (or a
// block-dispatch loop), its ops as assignments, guards, prints and try bodies.
#include <algorithm>
#include <map>

#include "ppy/ir/trace.h"
#include "ppy/runtime/raise_through.h"
#include "ppy/util/status_macros.h"
#include "ppy/util/str_cat.h"
#include "python_writer.h"

namespace ppy::backends::python {
namespace {

using source::FunctionValues;
using source::Node;
using source::Seq;

std::string raise_text(std::string_view exc, std::string_view msg) {
  return msg.empty() ? str_cat("raise ", exc) : str_cat("raise ", exc, "(", py_string(msg), ")");
}

std::string raise_text(const ir::GuardException& e) { return raise_text(e.exception, e.message); }

/// What reaching `core.unreachable` raises: the IR promises it never happens,
/// so getting there means a bad module, which ends the program as a guard of
/// unknown kind does (RuntimeError), naming the function.
std::string unreachable_text(const ir::Function& f) {
  return raise_text(ir::guard_exception(ir::GuardKind::Unknown).exception,
                    str_cat("@", f.name(), " reached core.unreachable"));
}

}  // namespace

absl::StatusOr<std::string> ModuleWriter::function(const ir::Function& f) {
  fn_ = &f;
  status_ = absl::OkStatus();
  find_fused_checks(f);
  source::ValueOptions vo;
  vo.inlinable = [this](const ir::Operation& op) { return !needs_check(op) || fused_.count(&op); };
  // Tracebacks (issue 34): a generated line maps to one source line, so a call
  // an exception may come through is not folded into an op of another line.
  vo.inlinable_into = runtime::inlining_keeps_line;
  vo.reserved = python_reserved();
  vo.coalesce_copies = true;
  for (auto& n : used_names_) vo.reserved.insert(n);
  for (auto& [mod, alias] : imports_) vo.reserved.insert(alias.substr(0, alias.find('.')));
  FunctionValues values(f, &m_, vo);
  values_ = &values;
  std::string params;
  for (auto& a : f.body().entry()->arguments()) str_append(params, params.empty() ? "" : ", ", values.name(a.get()));
  out_.clear();
  indent_ = 1;
  // Stack slots handed to a try body (docs/runtime.md, "Exceptions") are
  // one-element lists here and there, so what it assigns is seen after it.
  cells_.clear();
  ir::walk(f.body(), [&](const ir::Operation& op) {
    if (ir::core_op(op) == ir::CoreOp::Call)
      for (const ir::Value* v : op.operands())
        if (source::is_slot(v)) cells_.insert(v);
  });
  for (auto& a : f.body().entry()->arguments())
    if (a->type().is_ptr() && a->type().ptr_space() == "stack") cells_.insert(a.get());
  for (const ir::Value* c : cells_) {
    if (!source::is_slot(c)) continue;
    bool param = false;
    for (auto& a : f.body().entry()->arguments()) param = param || values.name(a.get()) == values.name(c);
    line(str_cat(values.name(c), " = [", param ? values.name(c) : "None", "]"));
  }
  if (auto s = source::structure(f)) {
    seq(*s, /*top=*/true);
  } else {
    dispatch(f);
  }
  PPY_RETURN_IF_ERROR(status_);
  // A function that assigns module variables declares them global.
  std::set<std::string> assigned;
  ir::walk(f.body(), [&](const ir::Operation& op) {
    if (ir::core_op(op) == ir::CoreOp::Store && op.num_operands() == 2)
      if (const std::string* g = global_of(op.operand(1))) assigned.insert(*g);
  });
  size_t shift = 0;  // tracebacks (issue 34): what goes before out_'s marks
  if (!assigned.empty()) {
    std::string names;
    for (auto& g : assigned) str_append(names, names.empty() ? "" : ", ", g);
    std::string global_line = str_cat("    global ", names, "\n");
    shift = global_line.size();
    out_ = global_line + out_;
  }
  if (out_.empty()) out_ = "    pass\n";
  std::string head = str_cat("def ", fn_names_.at(f.name()), "(", params, "):\n");
  trace_function_text(shift + head.size());
  return head + out_;
}

void ModuleWriter::line(std::string_view text) {
  trace_mark();  // tracebacks (issue 34)
  out_.append(static_cast<size_t>(indent_) * 4, ' ');
  out_ += text;
  out_ += "\n";
}

void ModuleWriter::suite(const Seq& s) {
  ++indent_;
  size_t before = out_.size();
  seq(s, false);
  if (out_.size() == before) line("pass");
  --indent_;
}

bool ModuleWriter::silent_block(const Node& n) {
  if (n.kind != Node::Kind::Block) return false;
  const auto& ops = n.block->operations();
  for (size_t i = 0; i + 1 < ops.size(); ++i)
    if (values_->is_statement(*ops[i])) return false;
  return true;
}

void ModuleWriter::seq(const Seq& s, bool top) {
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
        line("break");
        break;
      case Node::Kind::Continue:
        line("continue");
        break;
      case Node::Kind::Return: {
        const ir::Operation& t = *n.op;
        if (int64_t at = ir::trace_line(t)) src_line_ = at;  // tracebacks (issue 34)
        if (ir::core_op(t) == ir::CoreOp::Unreachable) {
          line(unreachable_text(*fn_));
        } else if (t.num_operands() == 0) {
          if (!(top && i + 1 == s.size())) line("return");
        } else {
          std::string vals;
          for (const ir::Value* v : t.operands()) str_append(vals, vals.empty() ? "" : ", ", expr(v).text);
          // The values' own ops may have moved the line (an operand read on an earlier line).
          if (t.loc() && t.loc()->line) src_line_ = t.loc()->line;
          line("return " + vals);
        }
        break;
      }
      case Node::Kind::If:
        if_stmt(n, false);
        break;
      case Node::Kind::Loop:
        loop(n);
        break;
    }
  }
}

void ModuleWriter::if_stmt(const Node& n, bool elif) {
  const ir::Value* c = n.op->operand(0);
  if (int64_t at = ir::trace_line(*n.op)) src_line_ = at;  // tracebacks (issue 34)
  const Seq* then_s = &n.then_seq;
  const Seq* else_s = &n.else_seq;
  Expr cond = expr(c);
  bool then_truth = true;
  if (then_s->empty() && !else_s->empty()) {
    cond = negate(c);
    std::swap(then_s, else_s);
    then_truth = false;
  }
  if (then_s->empty() && else_s->empty()) {
    if (source::effects_of(*n.op).any() || (values_->inlined(c) && tree_has_effects(c)))
      line(str_cat("if ", cond.text, ":"));
    else
      return;
    ++indent_;
    line("pass");
    --indent_;
    return;
  }
  line(str_cat(elif ? "elif " : "if ", cond.text, ":"));
  knowing(implied(c, then_truth), [&] { suite(*then_s); });
  if (else_s->empty()) return;
  knowing(implied(c, !then_truth), [&] {
    // `else:` holding only a silent block and another if: `elif`.
    if (else_s->size() == 2 && silent_block((*else_s)[0]) && (*else_s)[1].kind == Node::Kind::If) {
      (void)block_ops(*(*else_s)[0].block);
      if_stmt((*else_s)[1], true);
      return;
    }
    // An else whose copies all went (coalesced) is not written.
    size_t before = out_.size();
    line("else:");
    size_t body = out_.size();
    suite(*else_s);
    if (std::string_view(out_).substr(body) == str_cat(std::string((indent_ + 1) * 4, ' '), "pass\n"))
      out_.resize(before);
  });
}

bool ModuleWriter::tree_has_effects(const ir::Value* v) {
  const ir::Operation* d = v->def();
  if (!d || !values_->inlined(v)) return false;
  if (source::effects_of(*d, &m_).any()) return true;
  for (const ir::Value* o : d->operands())
    if (tree_has_effects(o)) return true;
  return false;
}

void ModuleWriter::loop(const Node& n) {
  // `while True:` whose body starts with a silent header and an if one arm
  // of which only breaks: `while cond:` over the other arm.
  const Seq& b = n.body;
  if (b.size() == 2 && silent_block(b[0]) && b[1].kind == Node::Kind::If) {
    const Node& i = b[1];
    auto only_break = [](const Seq& s) { return s.size() == 1 && s[0].kind == Node::Kind::Break; };
    const ir::Value* c = i.op->operand(0);
    if (only_break(i.else_seq)) {
      if (for_range(n, c, i.then_seq)) return;
      line(str_cat("while ", expr(c).text, ":"));
      knowing(implied(c, true), [&] { suite(i.then_seq); });
      return;
    }
    if (only_break(i.then_seq)) {
      line(str_cat("while ", negate(c).text, ":"));
      knowing(implied(c, false), [&] { suite(i.else_seq); });
      return;
    }
  }
  line("while True:");
  suite(b);
}

void ModuleWriter::edges_to(const Seq& s, const ir::Block* header, std::vector<const ir::Successor*>& out) {
  for (const Node& n : s) {
    if (n.kind == Node::Kind::Edge && n.edge->block == header) out.push_back(n.edge);
    edges_to(n.then_seq, header, out);
    edges_to(n.else_seq, header, out);
    edges_to(n.body, header, out);
  }
}

bool ModuleWriter::for_range(const Node& loop, const ir::Value* c, const Seq& body) {
  const ir::Block* header = loop.block;
  const ir::Operation* cmp = c->def();
  if (!values_->inlined(c) || !cmp || ir::core_op(*cmp) != ir::CoreOp::Cmp ||
      ir::predicate_of(*cmp) != ir::Predicate::Lt)
    return false;
  const ir::Value* i = cmp->operand(0);
  const ir::Value* n = cmp->operand(1);
  if (i->arg_owner() != header || !int_type(i->type())) return false;
  size_t k = i->index();
  // n: a variable set before the loop (or a literal), never inside it.
  std::set<const ir::Block*> inside;
  collect_blocks(loop.body, inside);
  if (const ir::Operation* nd = n->def()) {
    if (ir::core_op(*nd) != ir::CoreOp::Const && (values_->inlined(n) || inside.count(nd->parent()))) return false;
  } else if (inside.count(n->arg_owner())) {
    return false;
  }
  std::vector<const ir::Successor*> back;
  edges_to(body, header, back);
  if (back.empty()) return false;
  std::set<const ir::Operation*> steps;
  for (const ir::Successor* e : back) {
    const ir::Value* next = e->args.at(k);
    const ir::Operation* add = next->def();
    if (!add || ir::core_op(*add) != ir::CoreOp::Add || add->operand(0) != i || const_int(add->operand(1)) != 1)
      return false;
    steps.insert(add);
  }
  // i read only inside the loop (its header included).
  bool outside = false;
  for (auto& blk : fn_->body().blocks()) {
    if (inside.count(blk.get()) || blk.get() == header) continue;
    for (auto& op : blk->operations()) {
      for (const ir::Value* v : op->operands()) outside = outside || v == i;
      for (auto& s : op->successors())
        for (const ir::Value* v : s.args) outside = outside || v == i;
    }
  }
  // Nor by the header's branch out: Python leaves i at n - 1, not n, when the loop ends.
  for (auto& s : loop.body[1].op->successors()) {
    if (inside.count(s.block)) continue;
    std::set<const ir::Value*> read;
    for (const ir::Value* v : s.args) values_->variables_read(v, read);
    outside = outside || read.count(i);
  }
  if (outside) return false;
  // The steps are needless where their only reads are those edges.
  for (const ir::Operation* add : steps)
    if (values_->uses(add->result(0)) == static_cast<int>(std::count_if(back.begin(), back.end(), [&](auto* e) {
          return e->args.at(k) == add->result(0);
        })))
      skip_ops_.insert(add);
  skip_moves_.insert({header, k});
  const std::string& name = values_->name(i);
  line(str_cat("for ", name, " in range(", name, ", ", expr(n).text, "):"));
  knowing(implied(c, true), [&] { suite(body); });
  skip_moves_.erase({header, k});
  return true;
}

void ModuleWriter::collect_blocks(const Seq& s, std::set<const ir::Block*>& out) {
  for (const Node& n : s) {
    if (n.block) out.insert(n.block);
    collect_blocks(n.then_seq, out);
    collect_blocks(n.else_seq, out);
    collect_blocks(n.body, out);
  }
}

void ModuleWriter::dispatch(const ir::Function& f) {
  auto blocks = source::reachable_blocks(f);
  std::map<const ir::Block*, size_t> number;
  for (size_t i = 0; i < blocks.size(); ++i) number[blocks[i]] = i;
  line("_block = 0");
  line("while True:");
  ++indent_;
  for (size_t i = 0; i < blocks.size(); ++i) {
    line(str_cat(i == 0 ? "if" : "elif", " _block == ", i, ":"));
    ++indent_;
    const ir::Block& b = *blocks[i];
    block_ops(b);
    const ir::Operation& t = *b.terminator();
    auto go = [&](const ir::Successor& s) {
      edge(s);
      line(str_cat("_block = ", number.at(s.block)));
    };
    ir::CoreOp tc = ir::core_op(t);
    if (tc == ir::CoreOp::Br) {
      go(t.successors()[0]);
    } else if (tc == ir::CoreOp::CondBr) {
      line(str_cat("if ", expr(t.operand(0)).text, ":"));
      ++indent_;
      go(t.successors()[0]);
      --indent_;
      line("else:");
      ++indent_;
      go(t.successors()[1]);
      --indent_;
    } else if (tc == ir::CoreOp::Unreachable) {
      line(unreachable_text(f));
    } else {
      std::string vals;
      for (const ir::Value* v : t.operands()) str_append(vals, vals.empty() ? "" : ", ", expr(v).text);
      if (t.loc() && t.loc()->line) src_line_ = t.loc()->line;  // a raise its values inline (issue 34)
      line(vals.empty() ? "return" : "return " + vals);
    }
    --indent_;
  }
  --indent_;
}

/// The line of the first op written inside `v`'s expression that an exception
/// may come through (a call), 0 for none: a move that makes a call is at the
/// call's line (tracebacks, issue 34).
static int64_t raising_line(const source::FunctionValues& values, const ir::Value* v) {
  const ir::Operation* d = v->def();
  if (!d || !values.inlined(v)) return 0;
  if (runtime::exception_may_come_through(*d))
    if (int64_t at = ir::trace_line(*d)) return at;
  for (const ir::Value* x : d->operands())
    if (int64_t at = raising_line(values, x)) return at;
  return 0;
}

void ModuleWriter::edge(const ir::Successor& s) {
  auto moves = values_->moves(s);
  if (moves.empty()) return;
  std::string lhs, rhs;
  for (auto& [to, from] : moves) {
    if (skip_moves_.count({s.block, to->index()})) continue;
    if (int64_t at = raising_line(*values_, from)) src_line_ = at;
    str_append(lhs, lhs.empty() ? "" : ", ", values_->name(to));
    str_append(rhs, rhs.empty() ? "" : ", ", expr(from).text);
  }
  if (!lhs.empty()) line(str_cat(lhs, " = ", rhs));
}

// --- ops ---

void ModuleWriter::block_ops(const ir::Block& b) {
  const auto& ops = b.operations();
  std::vector<PrintItem> prints;
  for (size_t i = 0; i + 1 < ops.size(); ++i) {
    const ir::Operation& op = *ops[i];
    if (!values_->is_statement(op) || skip_ops_.count(&op)) continue;
    if (auto item = print_item(op)) {
      // An argument computed with effects (a call, a raise) is computed here,
      // after what was printed before it: a print() of its own.
      if (item->kind == PrintItem::Value && tree_has_effects(op.operand(0))) flush_prints(prints);
      // tracebacks (issue 34): a print() written for several items has its first one's line
      if (int64_t at = ir::trace_line(op); prints.empty() && at) src_line_ = at;
      prints.push_back(*item);
      continue;
    }
    flush_prints(prints);
    statement(op);
  }
  flush_prints(prints);
}

void ModuleWriter::statement(const ir::Operation& op) {
  if (int64_t at = ir::trace_line(op)) src_line_ = at;  // tracebacks (issue 34), with its comprehension
  switch (ir::core_op(op)) {
    case ir::CoreOp::Store:
      return store(op);
    case ir::CoreOp::BufferStore:
      line(str_cat(paren(expr(op.operand(1)), kAtom), "[", expr(op.operand(2)).text, "] = ", expr(op.operand(0)).text));
      return;
    case ir::CoreOp::Call:
      if (ir::captures_status(op)) return capture(op);
      break;
    case ir::CoreOp::Guard:
      line(str_cat("if ", negate(op.operand(0)).text, ":"));
      ++indent_;
      line(raise_text(ir::guard_exception(op)));
      --indent_;
      return;
    default:
      break;
  }
  if (op.num_results() == 0 || (op.num_results() == 1 && values_->uses(op.result(0)) == 0 && !needs_check(op))) {
    Expr e = op_expr(op);
    if (!e.text.empty()) line(e.text);
    return;
  }
  if (op.num_results() != 1) return fail(op, str_cat(op.name(), " with ", op.num_results(), " results"));
  const std::string& name = values_->name(op.result(0));
  line(str_cat(name, " = ", op_expr(op).text));
  if (needs_check(op) && (covers_inner(op) || !cannot_overflow(op))) {
    line(check_text(op, name));
    ++indent_;
    line(raise_text(ir::guard_exception(ir::GuardKind::Overflow)));  // what an overflow guard raises
    --indent_;
  }
}

void ModuleWriter::store(const ir::Operation& op) {
  const ir::Value* slot = op.operand(1);
  if (const std::string* g = global_of(slot)) {
    line(str_cat(*g, " = ", expr(op.operand(0)).text));
    return;
  }
  if (op.operand(0)->type().kind() == ir::TypeKind::Struct) {  // an object's fields (docs/runtime.md, "Objects")
    line(str_cat(paren(expr(slot), kAtom), "[:", op.operand(0)->type().storage()->fields.size(),
                 "] = ", expr(op.operand(0)).text));
    return;
  }
  if (!source::is_slot(slot) && !cells_.count(slot)) return fail(op, "a store through a pointer");
  const ir::Value* v = op.operand(0);
  if (!values_->inlined(v) && values_->name(v) == values_->name(slot)) return;
  line(str_cat(values_->name(slot), cells_.count(slot) ? "[0]" : "", " = ", expr(v).text));
}

void ModuleWriter::fail(const ir::Operation& op, std::string what) {
  if (status_.ok()) status_ = refuse(op, std::move(what));
}

void ModuleWriter::capture(const ir::Operation& op) {
  const std::string* callee = ir::call_callee(op);
  std::string name = callee ? *callee : "";
  auto it = fn_names_.find(name);
  if (it == fn_names_.end() || op.num_results() != 2) return fail(op, str_cat("a capture_status call of @", name));
  helpers_.insert("_ppy_caught");
  std::string a;
  for (const ir::Value* v : op.operands())
    str_append(a, a.empty() ? "" : ", ", cells_.count(v) ? values_->name(v) : expr(v).text);
  auto target = [&](const ir::Value* r) { return values_->uses(r) ? values_->name(r) : std::string("_"); };
  line("try:");
  ++indent_;
  line(str_cat(target(op.result(0)), " = ", it->second, "(", a, ")"));
  line(str_cat(target(op.result(1)), " = 0"));
  --indent_;
  line("except (Exception, SystemExit, GeneratorExit) as _ppy_e:");  // io (issue 33): sys.exit in a try; a generator closed
  ++indent_;
  line("_ppy_caught[0] = _ppy_e");
  line(str_cat(target(op.result(1)), " = 1"));
  --indent_;
}

}  // namespace ppy::backends::python

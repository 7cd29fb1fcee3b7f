// Tracebacks in C (issue 34, docs/runtime.md "Tracebacks"): a function that
// may raise links a `ppy_rt_frame` (ppy_trace.h) into the runtime's chain at
// entry and unlinks it at each return; the frame's line is written before a
// statement through which an exception may come (a call), and for a guard
// only on its failing branch. The same frames and names as the LLVM road
// (ppy/ir/trace.h).
#include "c_writer.h"
#include "ppy/ir/trace.h"
#include "ppy/runtime/raise_through.h"
#include "ppy/util/str_cat.h"

namespace ppy::backends::cgen {

void CWriter::trace_begin(const ir::Function& f) {
  trace_ = gpu_ ? ir::TraceRole::kNone : ir::trace_role(f);
  trace_line_ = 0;
  // Each op's line, whatever order the C is in (ir::trace_lines).
  trace_lines_.clear();
  if (trace_ != ir::TraceRole::kNone) trace_lines_ = ir::trace_lines(f);
  if (trace_ == ir::TraceRole::kNone) return;
  if (trace_ == ir::TraceRole::kBorrows) {  // an outlined try body: its lines are its enclosing function's
    line("ppy_rt_frame* const ppy_tb = ppy_rt_frames;");
    line("(void)ppy_tb;");
    return;
  }
  // Its comprehensions (ppy_rt_comp), a table ended by a NULL name.
  std::string comps;
  if (std::vector<ir::TraceComprehension> cs = ir::trace_comprehensions(f); !cs.empty()) {
    std::string rows;
    for (const ir::TraceComprehension& c : cs) rows += str_cat("{", c_string(c.name), ", ", c.line, ", ", c.parent, "}, ");
    line(str_cat("static const ppy_rt_comp ppy_tb_comps[] = {", rows, "{0, 0, 0}};"));
    comps = ", ppy_tb_comps";
  }
  line(str_cat("static const ppy_rt_code ppy_tb_code = {", c_string(ir::trace_frame_name(f)), ", ",
               c_string(ir::trace_file(f)), comps, "};"));
  trace_line_ = f.loc() ? static_cast<int64_t>(f.loc()->line) : 0;
  line(str_cat("ppy_rt_frame ppy_tb_frame = {ppy_rt_frames, &ppy_tb_code, ", trace_line_, "};"));
  line("ppy_rt_frame* const ppy_tb = &ppy_tb_frame;");
  line("ppy_rt_frames = ppy_tb;");
}

bool CWriter::trace_raises_through(const ir::Operation& op) {
  if (runtime::exception_may_come_through(op)) return true;
  for (const ir::Value* v : op.operands())
    if (values_->inlined(v) && v->def() && trace_raises_through(*v->def())) return true;
  return false;
}

bool CWriter::trace_marks(const ir::Operation* op) {
  return op && trace_ != ir::TraceRole::kNone && trace_raises_through(*op);
}

int64_t CWriter::trace_line_of(const ir::Operation& op) {
  if (int64_t at = ir::trace_line(op)) return at;
  if (auto it = trace_lines_.find(&op); it != trace_lines_.end() && it->second) return it->second;
  for (const ir::Value* v : op.operands())  // an op without one: what it is written with
    if (values_->inlined(v) && v->def())
      if (int64_t line = trace_line_of(*v->def())) return line;
  return 0;
}

void CWriter::trace_mark(const ir::Operation& op) {
  if (trace_ == ir::TraceRole::kNone || !trace_raises_through(op)) return;
  int64_t at = trace_line_of(op);
  if (!at) at = trace_line_;
  line(str_cat("ppy_tb->line = ", at, ";"));
}

std::string CWriter::trace_guard_line() {
  if (trace_ == ir::TraceRole::kNone) return "";
  return str_cat("ppy_tb->line = ", trace_guard_at_, ", ");
}

void CWriter::trace_leave() {
  if (trace_ == ir::TraceRole::kOwns) line("ppy_rt_frames = ppy_tb_frame.prev;");
}

}  // namespace ppy::backends::cgen

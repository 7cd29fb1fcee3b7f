// The interpreter's machine: runs the register form (internal.h) with a
// switch over dense opcodes, one frame of Slots per call depth.
#include <cmath>
#include <cstring>
#include <ostream>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "internal.h"
#include "ppy/ir/core_ops.h"
#include "ppy/pipeline/semantics.h"
#include "ppy/util/str_cat.h"
#include "ppy_str.h"

namespace ppy::interp::detail {

using ir::Type;
using ir::TypeKind;
namespace sem = ppy::pipeline::sem;

[[noreturn]] void raise(std::string name, std::string message) { throw PyError{std::move(name), std::move(message)}; }

[[noreturn]] void raise(ir::GuardKind kind, std::string_view message) {
  raise(std::string(ir::guard_exception(kind).exception), std::string(message));
}

[[noreturn]] void raise(ir::GuardKind kind) { raise(kind, ir::guard_exception(kind).message); }

[[noreturn]] void overflow() { raise(ir::GuardKind::Overflow); }

/// Brings a 64-bit integer result back to a narrow type: wrapping, or raising.
inline int64_t norm_wrap(const Inst& in, int64_t v) {
  return in.norm ? sem::wrap(v, Type::scalar(static_cast<TypeKind>(in.norm))) : v;
}
inline int64_t norm_check(const Inst& in, int64_t v) {
  if (in.norm && !sem::fits(v, Type::scalar(static_cast<TypeKind>(in.norm)))) overflow();
  return v;
}
inline double norm_f(const Inst& in, double v) { return in.norm ? static_cast<double>(static_cast<float>(v)) : v; }

namespace {

/// Python's IndexError for a store (a load's is the bounds guard's default).
constexpr std::string_view kStoreOutOfRange = "list assignment index out of range";

/// How many scalars a tuple holds, its nested tuples' included.
int32_t scalars(Type t) {
  if (t.kind() != TypeKind::Tuple) return 1;
  int32_t n = 0;
  for (size_t i = 0; i < t.num_elems(); ++i) n += scalars(t.elem(i));
  return n;
}

class Machine {
 public:
  Machine(const ir::Module& m, std::ostream& out, const RunOptions& opts) : m_(m), out_(out), opts_(opts) {
    std::unordered_map<std::string, int32_t> index;
    for (size_t i = 0; i < m.functions().size(); ++i) index.emplace(m.functions()[i]->name(), static_cast<int32_t>(i));
    // Each global of a scalar type has a slot, holding its initializer.
    std::unordered_map<std::string, int32_t> globals;
    for (auto& [name, g] : m.globals()) {
      // A tuple takes a slot per scalar, as registers do (compiler.cc, width), all zero.
      if (g.type.kind() == TypeKind::Tuple) {
        globals.emplace(name, static_cast<int32_t>(globals_.size()));
        globals_.resize(globals_.size() + static_cast<size_t>(scalars(g.type)), Slot{0});
        continue;
      }
      // A str or a list (a handle) starts null; globals_ is a root of the collector.
      if (!g.type.is_scalar() && g.type.kind() != TypeKind::Buffer && !g.type.is_ptr()) continue;
      Slot v{0};
      if (const ir::Attribute* a = g.initializer ? &*g.initializer : nullptr) {
        if (g.type.is_float())
          v.f = a->is<double>() ? a->as_float() : a->is<int64_t>() ? static_cast<double>(a->as_int()) : 0.0;
        else
          v.i = a->is<bool>() ? a->as_bool() : a->is<int64_t>() ? a->as_int() : 0;
      }
      globals.emplace(name, static_cast<int32_t>(globals_.size()));
      globals_.push_back(v);
    }
    codes_.reserve(m.functions().size());
    for (auto& f : m.functions()) codes_.push_back(compile_function(m, *f, index, globals));
    for (Code& c : codes_)
      for (CallSite& s : c.calls)
        if (s.callee >= 0) s.code = &codes_[s.callee];
    frames_.resize(static_cast<size_t>(opts_.recursion_limit) + 2);
  }

  ~Machine() { flush(); }

  /// Tracebacks (issue 34): `e` as it ends the program. Raised again by the
  /// function whose try caught it (an `except` that does not match, a
  /// `finally`), it carries the frames it first came through, as in python3.
  std::vector<TraceEntry> uncaught_trace(const PyError& e) const {
    std::vector<TraceEntry> trace = e.trace;
    if (reraised(e)) trace.insert(trace.begin(), caught_.trace.begin(), caught_.trace.end());
    return trace;
  }

  void run(int32_t entry) {
    const Code& code = codes_[entry];
    if (!code.error.empty()) throw InternalError{code.error};
    if (code.nparams != 0) throw InternalError{ppy::str_cat("the entry @", code.name, " takes parameters")};
    Slots results(static_cast<size_t>(code.nresults) + 1);
    depth_ = 1;
    levels_ = 1;
    exec(code, frame(1, code), results.data());
    flush();
  }

  /// Sends what the program printed (the runtime buffers it) to the output.
  void flush() {
    ppy_rt_flush();
    out_.flush();
  }

 private:
  Slot* frame(int depth, const Code& code) {
    // Try bodies and adapters take a frame but no level (levels_), so the stack
    // may outgrow the limit; growing moves each frame's Slots, not their buffers.
    if (static_cast<size_t>(depth) >= frames_.size()) frames_.resize(static_cast<size_t>(depth) * 2);
    Slots& f = frames_[static_cast<size_t>(depth)];
    size_t need = static_cast<size_t>(code.nregs + code.nalloca);
    if (f.size() < need) f.resize(need);
    if (code.nalloca) std::fill(f.begin() + code.nregs, f.begin() + need, Slot{0});
    return f.data();
  }

  void call(const CallSite& site, const Code& caller, Slot* r, Slot* out) {
    const Code* target = site.code;
    if (site.fn_reg >= 0) {  // core.call_indirect: the function value names the callee
      int64_t k = r[site.fn_reg].i - 1;
      if (k < 0 || k >= static_cast<int64_t>(codes_.size()))
        throw InternalError{ppy::str_cat("@", caller.name, ": an indirect call of no function")};
      target = &codes_[static_cast<size_t>(k)];
    }
    const Code& callee = *target;
    if (!callee.error.empty()) throw InternalError{callee.error};
    // Python's levels: a try body or an adapter is no frame of its own there.
    if (callee.counts_level && levels_ >= opts_.recursion_limit)
      raise("RecursionError", "maximum recursion depth exceeded");
    const int saved_levels = levels_;
    levels_ += callee.counts_level;
    Slot* f = frame(depth_ + 1, callee);
    for (int32_t k = 0; k < site.nargs; ++k) f[k] = r[caller.srcs[site.args_begin + k]];
    if (site.capture) {  // a try body: a raise inside it comes back as a status
      int saved = depth_;
      try {
        ++depth_;
        exec(callee, f, out);
        --depth_;
        levels_ = saved_levels;
        out[callee.nresults].i = 0;
      } catch (const PyError& e) {
        depth_ = saved;
        levels_ = saved_levels;
        keep_caught(e, caller);  // tracebacks (issue 34)
        ppy_exc_set(e.name.c_str(), e.message.c_str());
        if (!e.classes.empty()) ppy_exc_set_object(e.object, e.classes.c_str());
        out[callee.nresults].i = 1;
      }
      return;
    }
    ++depth_;
    exec(callee, f, out);
    --depth_;
    levels_ = saved_levels;
  }

  /// What the last try caught: its frames, innermost first, and the function
  /// whose try it was.
  struct Caught {
    std::string name, message;
    const Code* owner = nullptr;
    std::vector<TraceEntry> trace;
    void* object = nullptr;
  };
  /// `e` is the caught one raised again (ppy_rt_raising_again: the same instance, name and message).
  bool reraised(const PyError& e) const {
    return caught_.owner && e.again && e.object == caught_.object && !e.trace.empty() &&
           e.trace.front().code == caught_.owner && e.name == caught_.name && e.message == caught_.message;
  }
  void keep_caught(const PyError& e, const Code& owner) {
    std::vector<TraceEntry> trace = e.trace;
    if (reraised(e)) trace.insert(trace.begin(), caught_.trace.begin(), caught_.trace.end());
    caught_ = {e.name, e.message, &owner, std::move(trace), e.object};
  }

  static void take(const Code& code, const Edge& e, Slot* r) {
    const int32_t* src = code.srcs.data() + e.src_begin;
    if (!e.overlap) {
      for (int32_t k = 0; k < e.n; ++k) r[e.dst_base + k] = r[src[k]];
      return;
    }
    Slot tmp[16];
    Slots big;
    Slot* t = tmp;
    if (e.n > 16) {
      big.resize(static_cast<size_t>(e.n));
      t = big.data();
    }
    for (int32_t k = 0; k < e.n; ++k) t[k] = r[src[k]];
    for (int32_t k = 0; k < e.n; ++k) r[e.dst_base + k] = t[k];
  }

  void exec(const Code& code, Slot* r, Slot* results) {
    const Inst* base = code.insts.data();
    const Inst* ip = base;
    try {  // tracebacks (issue 34): an exception passing through notes this frame's line
    for (;;) {
      const Inst& in = *ip++;
      switch (in.op) {
        case Opc::Const:
          r[in.dst].i = in.imm;
          break;
        case Opc::Copy:
          r[in.dst] = r[in.a];
          break;
        case Opc::AddI:
          r[in.dst].i =
              norm_wrap(in, static_cast<int64_t>(static_cast<uint64_t>(r[in.a].i) + static_cast<uint64_t>(r[in.b].i)));
          break;
        case Opc::SubI:
          r[in.dst].i =
              norm_wrap(in, static_cast<int64_t>(static_cast<uint64_t>(r[in.a].i) - static_cast<uint64_t>(r[in.b].i)));
          break;
        case Opc::MulI:
          r[in.dst].i =
              norm_wrap(in, static_cast<int64_t>(static_cast<uint64_t>(r[in.a].i) * static_cast<uint64_t>(r[in.b].i)));
          break;
        case Opc::NegI:
          r[in.dst].i = norm_wrap(in, static_cast<int64_t>(0 - static_cast<uint64_t>(r[in.a].i)));
          break;
        case Opc::AddIC: {
          int64_t v;
          if (__builtin_add_overflow(r[in.a].i, r[in.b].i, &v)) overflow();
          r[in.dst].i = norm_check(in, v);
          break;
        }
        case Opc::SubIC: {
          int64_t v;
          if (__builtin_sub_overflow(r[in.a].i, r[in.b].i, &v)) overflow();
          r[in.dst].i = norm_check(in, v);
          break;
        }
        case Opc::MulIC: {
          int64_t v;
          if (__builtin_mul_overflow(r[in.a].i, r[in.b].i, &v)) overflow();
          r[in.dst].i = norm_check(in, v);
          break;
        }
        case Opc::NegIC: {
          int64_t v;
          if (__builtin_sub_overflow(int64_t{0}, r[in.a].i, &v)) overflow();
          r[in.dst].i = norm_check(in, v);
          break;
        }
        case Opc::DivI:
        case Opc::ModI: {
          int64_t a = r[in.a].i, b = r[in.b].i;
          if (b == 0)
            raise(ir::GuardKind::ZeroDivision,
                  in.op == Opc::DivI ? "integer division or modulo by zero" : "integer modulo by zero");
          auto rounding = static_cast<ir::Rounding>(in.mode);
          int64_t v;
          if (in.op == Opc::ModI) {
            v = *sem::int_mod(a, b, rounding);
          } else if (auto q = sem::int_div(a, b, rounding)) {
            v = *q;
          } else {
            if (in.flag) overflow();
            v = INT64_MIN;
          }
          r[in.dst].i = in.flag ? norm_check(in, v) : norm_wrap(in, v);
          break;
        }
        case Opc::AddF:
          r[in.dst].f = norm_f(in, r[in.a].f + r[in.b].f);
          break;
        case Opc::SubF:
          r[in.dst].f = norm_f(in, r[in.a].f - r[in.b].f);
          break;
        case Opc::MulF:
          r[in.dst].f = norm_f(in, r[in.a].f * r[in.b].f);
          break;
        case Opc::DivF:
          r[in.dst].f = norm_f(in, r[in.a].f / r[in.b].f);
          break;
        case Opc::DivFloorF:
          r[in.dst].f = norm_f(in, sem::float_floor_div(r[in.a].f, r[in.b].f));
          break;
        case Opc::DivTruncF:
          r[in.dst].f = norm_f(in, std::trunc(r[in.a].f / r[in.b].f));
          break;
        case Opc::ModFloorF:
          r[in.dst].f = norm_f(in, sem::float_floor_mod(r[in.a].f, r[in.b].f));
          break;
        case Opc::ModTruncF:
          r[in.dst].f = norm_f(in, std::fmod(r[in.a].f, r[in.b].f));
          break;
        case Opc::NegF:
          r[in.dst].f = -r[in.a].f;
          break;
        case Opc::And:
          r[in.dst].i = r[in.a].i & r[in.b].i;
          break;
        case Opc::Or:
          r[in.dst].i = r[in.a].i | r[in.b].i;
          break;
        case Opc::Xor:
          r[in.dst].i = r[in.a].i ^ r[in.b].i;
          break;
        case Opc::Shl: {
          sem::Shifted v = sem::shl(r[in.a].i, r[in.b].i, static_cast<int>(in.imm));
          if (in.flag && v.overflowed) overflow();
          r[in.dst].i = in.flag ? norm_check(in, v.value) : norm_wrap(in, v.value);
          break;
        }
        case Opc::ShrS:
          r[in.dst].i = sem::shr(r[in.a].i, r[in.b].i, static_cast<int>(in.imm), true);
          break;
        case Opc::ShrU:
          r[in.dst].i = sem::shr(r[in.a].i, r[in.b].i, static_cast<int>(in.imm), false);
          break;
        case Opc::CmpS:
          r[in.dst].i = sem::compare(static_cast<ir::Predicate>(in.mode), r[in.a].i, r[in.b].i);
          break;
        case Opc::CmpU:
          r[in.dst].i = sem::compare(static_cast<ir::Predicate>(in.mode), static_cast<uint64_t>(r[in.a].i),
                                     static_cast<uint64_t>(r[in.b].i));
          break;
        case Opc::CmpF:
          r[in.dst].i = sem::compare(static_cast<ir::Predicate>(in.mode), r[in.a].f, r[in.b].f);
          break;
        case Opc::Select:
          r[in.dst] = r[in.a].i ? r[in.b] : r[in.c];
          break;
        case Opc::SelectN: {
          int32_t from = r[in.a].i ? in.b : in.c;
          if (from != in.dst) std::memmove(r + in.dst, r + from, sizeof(Slot) * static_cast<size_t>(in.imm));
          break;
        }
        case Opc::Gather:
          for (int32_t k = 0; k < in.b; ++k) r[in.dst + k] = r[code.srcs[static_cast<size_t>(in.a + k)]];
          break;
        case Opc::CopyN:
          std::memmove(r + in.dst, r + in.a, sizeof(Slot) * static_cast<size_t>(in.imm));
          break;
        case Opc::LoadN:
          std::memcpy(r + in.dst, r[in.a].p, sizeof(Slot) * static_cast<size_t>(in.imm));
          break;
        case Opc::StoreN:
          std::memcpy(r[in.b].p, r + in.a, sizeof(Slot) * static_cast<size_t>(in.imm));
          break;
        case Opc::CastIToF:
          r[in.dst].f = norm_f(in, static_cast<double>(r[in.a].i));
          break;
        case Opc::CastUToF:
          r[in.dst].f = norm_f(in, static_cast<double>(static_cast<uint64_t>(r[in.a].i)));
          break;
        case Opc::CastFToF:
          r[in.dst].f = norm_f(in, r[in.a].f);
          break;
        case Opc::CastIToBool:
          r[in.dst].i = r[in.a].i != 0;
          break;
        case Opc::CastFToBool:
          r[in.dst].i = r[in.a].f != 0;
          break;
        case Opc::CastFToI: {
          double v = r[in.a].f;
          auto i = sem::float_to_int(v, Type::scalar(static_cast<TypeKind>(in.norm)));
          if (!i) {
            // As the frontend's guards before int(x) (docs/runtime.md).
            if (std::isnan(v)) raise(ir::GuardKind::Range, "cannot convert float NaN to integer");
            if (std::isinf(v)) raise(ir::GuardKind::Overflow, "cannot convert float infinity to integer");
            overflow();
          }
          r[in.dst].i = *i;
          break;
        }
        case Opc::CastIToI: {
          Type t = Type::scalar(static_cast<TypeKind>(in.norm));
          int64_t v = r[in.a].i;
          if (!sem::fits(v, t)) {
            if (in.flag) overflow();
            v = sem::wrap(v, t);
          }
          r[in.dst].i = v;
          break;
        }
        case Opc::Br: {
          const Edge& e = code.edges[static_cast<size_t>(in.a)];
          take(code, e, r);
          ip = base + e.target;
          break;
        }
        case Opc::CondBr: {
          const Edge& e = code.edges[static_cast<size_t>(r[in.c].i ? in.a : in.b)];
          take(code, e, r);
          ip = base + e.target;
          break;
        }
        case Opc::Ret:
          for (int32_t k = 0; k < in.b; ++k) results[k] = r[code.srcs[static_cast<size_t>(in.a + k)]];
          return;
        case Opc::Unreachable:
          throw InternalError{ppy::str_cat("@", code.name, " reached core.unreachable")};
        case Opc::Alloca:
          r[in.dst].p = r + code.nregs + in.imm;
          break;
        case Opc::GlobalAddr:
          r[in.dst].p = globals_.data() + in.imm;
          break;
        case Opc::Load:
          r[in.dst] = *r[in.a].p;
          break;
        case Opc::Store:
          *r[in.b].p = r[in.a];
          break;
        case Opc::PtrOffset:
          r[in.dst].p = r[in.a].p + r[in.b].i;
          break;
        case Opc::BufData:
          r[in.dst].p = elems(r[in.a].buf);
          break;
        case Opc::BufLen:
          r[in.dst].i = r[in.a].buf->len;
          break;
        case Opc::BufLoad: {
          Buffer* b = r[in.a].buf;
          uint64_t i = static_cast<uint64_t>(r[in.b].i);
          if (i >= static_cast<uint64_t>(b->len)) raise(ir::GuardKind::Bounds);
          r[in.dst] = elems(b)[i];
          break;
        }
        case Opc::BufStore: {
          Buffer* b = r[in.b].buf;
          uint64_t i = static_cast<uint64_t>(r[in.c].i);
          if (i >= static_cast<uint64_t>(b->len)) raise(ir::GuardKind::Bounds, kStoreOutOfRange);
          elems(b)[i] = r[in.a];
          break;
        }
        case Opc::BufLoadN: {
          Buffer* b = r[in.a].buf;
          uint64_t i = static_cast<uint64_t>(r[in.b].i);
          if (i >= static_cast<uint64_t>(b->len)) raise(ir::GuardKind::Bounds);
          const Slot* box = elems(b)[i].p;
          for (int64_t k = 0; k < in.imm; ++k) r[in.dst + k] = box[k];
          break;
        }
        case Opc::BufStoreN: {
          Buffer* b = r[in.b].buf;
          uint64_t i = static_cast<uint64_t>(r[in.c].i);
          if (i >= static_cast<uint64_t>(b->len)) raise(ir::GuardKind::Bounds, kStoreOutOfRange);
          Slot* box = static_cast<Slot*>(ppy_list_box(in.imm));
          for (int64_t k = 0; k < in.imm; ++k) box[k] = r[in.a + k];
          elems(b)[i].p = box;
          break;
        }
        case Opc::Call:
        case Opc::CallIndirect:
          call(code.calls[static_cast<size_t>(in.imm)], code, r, r + in.dst);
          break;
        case Opc::Guard:
          if (!r[in.a].i) {
            auto& g = code.guards[static_cast<size_t>(in.imm)];
            raise(g.first, g.second);
          }
          break;
        case Opc::Math:
          r[in.dst].f =
              norm_f(in, sem::apply_math(static_cast<sem::MathFn>(in.mode), r[in.a].f, in.b >= 0 ? r[in.b].f : 0.0));
          break;
        case Opc::Runtime:
          call_runtime(code, code.runtime_calls[static_cast<size_t>(in.imm)], r, r[in.dst]);
          break;
        case Opc::Unsupported:
          throw InternalError{ppy::str_cat("@", code.name, ": ", code.strings[static_cast<size_t>(in.imm)])};
      }
    }
    } catch (PyError& e) {
      size_t at = static_cast<size_t>(ip - base);
      e.trace.push_back({&code, at && at <= code.lines.size() ? code.lines[at - 1] : 0});
      throw;
    }
  }

  Caught caught_;  ///< tracebacks (issue 34)
  const ir::Module& m_;
  std::ostream& out_;
  RunOptions opts_;
  std::vector<Code> codes_;
  Slots globals_;  ///< the module's globals (sized once: their addresses stay)
  std::vector<Slots> frames_;
  int depth_ = 0;  ///< frames on the frame stack
  int levels_ = 0;  ///< Python's recursion levels (RecursionError): frames less the transparent ones
};

/// Where the runtime's output goes while a program runs: the interpreter's streams.
struct Sinks {
  std::ostream& out;
  std::ostream& err;
};

}  // namespace

/// Writes python3's traceback of the frames `trace` names (innermost first):
/// an outlined try body's line is its enclosing function's, an adapter has
/// no frame (ppy/ir/trace.h).
static void write_traceback(const std::vector<TraceEntry>& trace) {
  std::vector<const Code*> owners;
  std::vector<int64_t> lines;
  for (auto it = trace.rbegin(); it != trace.rend(); ++it) {
    const Code& c = *it->code;
    if (c.trace_role == ir::TraceRole::kBorrows && !lines.empty()) lines.back() = it->line;
    if (c.trace_role != ir::TraceRole::kOwns) continue;
    owners.push_back(&c);
    lines.push_back(it->line);
  }
  // The runtime's records (ppy_trace.h), their comprehension tables ended by a NULL name.
  std::vector<std::vector<ppy_rt_comp>> comps(owners.size());
  std::vector<ppy_rt_code> records(owners.size());
  std::vector<const ppy_rt_code*> codes;
  for (size_t i = 0; i < owners.size(); ++i) {
    for (const ir::TraceComprehension& c : owners[i]->comps) comps[i].push_back({c.name.c_str(), c.line, c.parent});
    comps[i].push_back({nullptr, 0, 0});
    records[i] = {owners[i]->frame_name.c_str(), owners[i]->file.c_str(), comps[i].data()};
    codes.push_back(&records[i]);
  }
  ppy_rt_traceback_write(codes.data(), lines.data(), codes.size());
}

int run_function(const ir::Module& m, int32_t entry, std::ostream& out, std::ostream& err, const RunOptions& opts) {
  ppy_rt_gc_init();
  // Runtime functions raise through the hook, as this machine does, and print
  // (ppy_print_*) to the interpreter's output.
  ppy_rt_set_raise_hook(+[](const char* name, const char* message) {
    void* object;
    const char* classes;
    ppy_rt_last_object(&object, &classes);
    throw PyError{name, message ? message : "", object, classes, {}, ppy_rt_raising_again() != 0};
  });
  Sinks sinks{out, err};
  ppy_rt_set_output(
      +[](void* ctx, const char* bytes, size_t n) {
        static_cast<Sinks*>(ctx)->out.write(bytes, static_cast<std::streamsize>(n));
      },
      +[](void* ctx, const char* bytes, size_t n) {
        static_cast<Sinks*>(ctx)->err.write(bytes, static_cast<std::streamsize>(n));
      },
      &sinks);
  struct Unhook {
    ~Unhook() {
      ppy_rt_set_output(nullptr, nullptr, nullptr);  // flushes what is left first
      ppy_rt_set_raise_hook(nullptr);
    }
  } unhook;
  Machine machine(m, out, opts);
  try {
    machine.run(entry);
  } catch (const PyError& e) {
    machine.flush();
    if (e.name != "SystemExit") write_traceback(machine.uncaught_trace(e));  // tracebacks (issue 34)
    // As the runtime reports it: `<Name>: <message>` and 1, or SystemExit's
    // status and message (issue 33).
    return ppy_rt_uncaught(e.name.c_str(), e.message.c_str());
  } catch (const InternalError& e) {
    machine.flush();
    err << "error: " << e.message << "\n";
    return 2;
  }
  return 0;
}

}  // namespace ppy::interp::detail

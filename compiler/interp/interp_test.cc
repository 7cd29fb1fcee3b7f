#include "ppy/interp/interp.h"

#include <limits>
#include <sstream>
#include <utility>

#include "gtest/gtest.h"
#include "ppy/ir/text.h"
#include "ppy/pipeline/builder.h"

namespace ppy::interp {
namespace {

using ir::AttrDict;
using ir::Attribute;
using ir::Type;
using ir::Value;
using pipeline::Builder;

const AttrDict kPy{{"overflow", Attribute("python")}};
const AttrDict kFloor{{"overflow", Attribute("python")}, {"rounding", Attribute("floor")}};
const AttrDict kTrunc{{"overflow", Attribute("python")}, {"rounding", Attribute("trunc")}};

/// A module with `@m_main` (qualname `m.main`) under construction.
struct Program {
  ir::Module module{"m"};
  ir::Function* main = nullptr;
  Builder b{nullptr};

  Program() : b(nullptr) {}

  ir::Function* add(std::string name, std::vector<Type> params, std::vector<Type> results) {
    std::vector<ir::Param> ps;
    for (Type t : params) ps.push_back({t, {}, ""});
    auto f = std::make_unique<ir::Function>("m_" + name, ps, results);
    f->attributes().set("ppy.qualname", Attribute("m." + name));
    ir::Function* fp = module.add_function(std::move(f));
    fp->create_entry_block();
    return fp;
  }
  Builder& start_main() {
    main = add("main", {}, {});
    b = Builder(main->body().entry());
    return b;
  }
  void print_i64(Value* v) { call_extern("ppy_print_i64", {v}); newline(); }
  void print_f64(Value* v) { call_extern("ppy_print_f64", {v}); newline(); }
  void print_bool(Value* v) { call_extern("ppy_print_bool", {v}); newline(); }
  void newline() { call_extern("ppy_print_newline", {}); }
  ir::Operation* call_extern(std::string callee, std::vector<Value*> args, std::vector<Type> results = {},
                             AttrDict extra = {}) {
    extra.set("abi", Attribute("c"));
    extra.set("callee", Attribute(callee));
    return b.create("core.call_extern", std::move(args), results, extra);
  }

  struct Outcome {
    int code;
    std::string out, err;
  };
  Outcome run(std::string_view entry = "m.main", RunOptions opts = {}) {
    std::ostringstream out, err;
    int code = run_main(module, entry, out, err, opts).exit_code;
    return {code, out.str(), err.str()};
  }
};

TEST(Interp, TuplesTravelFlattenedThroughCallsBranchesSlotsAndSelects) {
  // A nested tuple passed to a call, returned, kept in a stack slot, passed to
  // a block argument and picked by core.select: every scalar arrives.
  auto m = ir::parse_module(R"(ppyir 1
module @m

func @m_swap(%t: tuple<i64, tuple<f64, bool>>) -> tuple<tuple<f64, bool>, i64> attrs {ppy.qualname = "m.swap"} {
^entry:
    %a = core.tuple_extract %t {index = 0} : i64
    %b = core.tuple_extract %t {index = 1} : tuple<f64, bool>
    %r = core.tuple_make %b, %a : tuple<tuple<f64, bool>, i64>
    core.ret %r
}

func @m_main() -> () attrs {ppy.qualname = "m.main"} {
^entry:
    %slot = core.alloca : ptr<tuple<tuple<f64, bool>, i64>, stack>
    %x = core.const 2.5 : f64
    %yes = core.const true : bool
    %n = core.const 7 : i64
    %inner = core.tuple_make %x, %yes : tuple<f64, bool>
    %t = core.tuple_make %n, %inner : tuple<i64, tuple<f64, bool>>
    %s = core.call %t {callee = @m_swap} : tuple<tuple<f64, bool>, i64>
    core.store %s, %slot
    %l = core.load %slot : tuple<tuple<f64, bool>, i64>
    %eight = core.const 8 : i64
    core.br ^next(%eight, %l)
^next(%k: i64, %v: tuple<tuple<f64, bool>, i64>):
    %no = core.const false : bool
    %zero = core.const 0.0 : f64
    %other_inner = core.tuple_make %zero, %no : tuple<f64, bool>
    %other = core.tuple_make %other_inner, %k : tuple<tuple<f64, bool>, i64>
    %pick = core.select %yes, %v, %other : tuple<tuple<f64, bool>, i64>
    %f = core.tuple_extract %pick {index = 0} : tuple<f64, bool>
    %ff = core.tuple_extract %f {index = 0} : f64
    %fb = core.tuple_extract %f {index = 1} : bool
    %i = core.tuple_extract %pick {index = 1} : i64
    core.call_extern %ff {abi = "c", callee = "ppy_print_f64"}
    core.call_extern {abi = "c", callee = "ppy_print_space"}
    core.call_extern %fb {abi = "c", callee = "ppy_print_bool"}
    core.call_extern {abi = "c", callee = "ppy_print_space"}
    core.call_extern %i {abi = "c", callee = "ppy_print_i64"}
    core.call_extern {abi = "c", callee = "ppy_print_newline"}
    %p2 = core.select %no, %v, %other : tuple<tuple<f64, bool>, i64>
    %j = core.tuple_extract %p2 {index = 1} : i64
    core.call_extern %j {abi = "c", callee = "ppy_print_i64"}
    core.call_extern {abi = "c", callee = "ppy_print_newline"}
    core.ret
}
)");
  ASSERT_TRUE(m.ok()) << m.status();
  std::ostringstream out, err;
  int code = run_main(**m, "m.main", out, err, {}).exit_code;
  EXPECT_EQ(code, 0) << err.str();
  EXPECT_EQ(out.str(), "2.5 True 7\n8\n");
}

TEST(Interp, FloorAndTruncDivisionSigns) {
  Program p;
  Builder& b = p.start_main();
  for (auto [x, y] : {std::pair<int64_t, int64_t>{7, -2}, {-7, 2}, {7, 2}, {-7, -2}}) {
    Value* a = b.const_int(x);
    Value* c = b.const_int(y);
    p.print_i64(b.op("core.div", {a, c}, Type::i64(), kFloor));
    p.print_i64(b.op("core.mod", {a, c}, Type::i64(), kFloor));
    p.print_i64(b.op("core.div", {a, c}, Type::i64(), kTrunc));
    p.print_i64(b.op("core.mod", {a, c}, Type::i64(), kTrunc));
  }
  b.ret();
  auto r = p.run();
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out,
            "-4\n-1\n-3\n1\n"
            "-4\n1\n-3\n-1\n"
            "3\n1\n3\n1\n"
            "3\n-1\n3\n-1\n");
}

TEST(Interp, PythonOverflowRaisesAndWrapWraps) {
  Program p;
  Builder& b = p.start_main();
  Value* big = b.const_int(std::numeric_limits<int64_t>::max());
  Value* one = b.const_int(1);
  p.print_i64(b.op("core.add", {big, one}, Type::i64(), {{"overflow", Attribute("wrap")}}));
  p.print_i64(b.op("core.add", {big, one}, Type::i64(), kPy));
  b.ret();
  auto r = p.run();
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.out, "-9223372036854775808\n");
  EXPECT_EQ(r.err, "OverflowError: integer overflow\n");
}

TEST(Interp, ShiftsFollowTheOverflowMode) {
  Program p;
  Builder& b = p.start_main();
  const AttrDict wrap{{"overflow", Attribute("wrap")}};
  Value* minus3 = b.const_int(-3);
  p.print_i64(b.op("core.shr", {minus3, b.const_int(1)}, Type::i64()));        // -2, floor like Python
  p.print_i64(b.op("core.shr", {minus3, b.const_int(200)}, Type::i64()));      // the sign only
  p.print_i64(b.op("core.shl", {b.const_int(-1), b.const_int(63)}, Type::i64(), kPy));  // INT64_MIN fits
  p.print_i64(b.op("core.shl", {b.const_int(0), b.const_int(500)}, Type::i64(), kPy));
  p.print_i64(b.op("core.shl", {b.const_int(3), b.const_int(62)}, Type::i64(), wrap));
  p.print_i64(b.op("core.shl", {b.const_int(1), b.const_int(64)}, Type::i64(), wrap));
  p.print_i64(b.op("core.shl", {b.const_int(1), b.const_int(63)}, Type::i64(), kPy));
  b.ret();
  auto r = p.run();
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.out, "-2\n-1\n-9223372036854775808\n0\n-4611686018427387904\n0\n");
  EXPECT_EQ(r.err, "OverflowError: integer overflow\n");
}

TEST(Interp, MinDividedByMinusOneOverflows) {
  Program p;
  Builder& b = p.start_main();
  Value* min = b.const_int(std::numeric_limits<int64_t>::min());
  p.print_i64(b.op("core.mod", {min, b.const_int(-1)}, Type::i64(), kFloor));
  p.print_i64(b.op("core.div", {min, b.const_int(-1)}, Type::i64(), kFloor));
  b.ret();
  auto r = p.run();
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.out, "0\n");
  EXPECT_EQ(r.err, "OverflowError: integer overflow\n");
}

TEST(Interp, ZeroDivisionGuardRaises) {
  Program p;
  Builder& b = p.start_main();
  Value* a = b.const_int(5);
  Value* z = b.const_int(0);
  Value* ok = b.op("core.cmp", {z, b.const_int(0)}, Type::i1(), {{"predicate", Attribute("ne")}});
  b.create("core.guard", {ok}, {}, {{"kind", Attribute("zero_division")}});
  p.print_i64(b.op("core.div", {a, z}, Type::i64(), kFloor));
  b.ret();
  auto r = p.run();
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "ZeroDivisionError: division by zero\n");
}

TEST(Interp, GuardMessageAttributeAndAssert) {
  Program p;
  Builder& b = p.start_main();
  Value* f = b.const_bool(false);
  Value* t = b.const_bool(true);
  b.create("core.guard", {t}, {}, {{"kind", Attribute("bounds")}});
  p.print_bool(t);
  b.create("core.guard", {f}, {}, {{"kind", Attribute("range")}, {"message", Attribute("math domain error")}});
  b.ret();
  auto r = p.run();
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.out, "True\n");
  EXPECT_EQ(r.err, "ValueError: math domain error\n");

  Program q;
  Builder& c = q.start_main();
  c.create("core.guard", {c.const_bool(false)}, {}, {{"kind", Attribute("assert")}});
  c.ret();
  EXPECT_EQ(q.run().err, "AssertionError\n");
}

TEST(Interp, OwnChecksAndUnknownGuardsRaiseAsTheGuardTableSays) {
  // An integer division with no guard before it: the zero_division kind's
  // exception, with Python's integer wording.
  const std::pair<const char*, const char*> kDivisions[] = {
      {"core.div", "ZeroDivisionError: integer division or modulo by zero\n"},
      {"core.mod", "ZeroDivisionError: integer modulo by zero\n"},
  };
  for (auto [op, err] : kDivisions) {
    Program p;
    Builder& b = p.start_main();
    p.print_i64(b.op(op, {b.const_int(5), b.const_int(0)}, Type::i64(), kFloor));
    b.ret();
    auto r = p.run();
    EXPECT_EQ(r.code, 1) << op;
    EXPECT_EQ(r.err, err);
  }
  // A kind the table lacks still ends the program.
  Program q;
  Builder& c = q.start_main();
  c.create("core.guard", {c.const_bool(false)}, {}, {{"kind", Attribute("no_such_kind")}});
  c.ret();
  auto r = q.run();
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.err, "RuntimeError: guard failed\n");
}

/// An op of no dialect the interpreter knows is refused by name.
TEST(Interp, AnOpOutsideCoreAndMathIsRefused) {
  Program p;
  Builder& b = p.start_main();
  b.create("vendor.magic", {}, {}, {});
  b.ret();
  auto r = p.run();
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, "error: @m_main: the interpreter does not run vendor.magic\n");
}

/// fib(n) by recursion: `if n < 2: return n; return fib(n-1) + fib(n-2)`.
ir::Function* add_fib(Program& p) {
  ir::Function* fib = p.add("fib", {Type::i64()}, {Type::i64()});
  ir::Block* entry = fib->body().entry();
  ir::Block* base = fib->body().add_block("base");
  ir::Block* rec = fib->body().add_block("rec");
  Value* n = entry->argument(0);
  Builder b(entry);
  Value* lt = b.op("core.cmp", {n, b.const_int(2)}, Type::i1(), {{"predicate", Attribute("lt")}});
  b.cond_br(lt, base, {}, rec, {});
  Builder(base).ret({n});
  Builder r(rec);
  AttrDict callee{{"callee", Attribute(ir::SymbolRef{"m_fib"})}};
  Value* a = r.op("core.call", {r.op("core.sub", {n, r.const_int(1)}, Type::i64(), kPy)}, Type::i64(), callee);
  Value* c = r.op("core.call", {r.op("core.sub", {n, r.const_int(2)}, Type::i64(), kPy)}, Type::i64(), callee);
  r.ret({r.op("core.add", {a, c}, Type::i64(), kPy)});
  return fib;
}

TEST(Interp, RecursionAndEntryLookup) {
  Program p;
  add_fib(p);
  Builder& b = p.start_main();
  p.print_i64(b.op("core.call", {b.const_int(20)}, Type::i64(), {{"callee", Attribute(ir::SymbolRef{"m_fib"})}}));
  b.ret();
  for (std::string_view entry : {"m.main", "m", "@m_main", "m_main"}) {
    auto r = p.run(entry);
    EXPECT_EQ(r.code, 0) << entry << ": " << r.err;
    EXPECT_EQ(r.out, "6765\n") << entry;
  }
  auto missing = p.run("nope");
  EXPECT_EQ(missing.code, 2);
  EXPECT_NE(missing.err.find("module 'nope' has nothing to run"), std::string::npos) << missing.err;
}

TEST(Interp, UnboundedRecursionIsRecursionError) {
  Program p;
  ir::Function* f = p.add("down", {Type::i64()}, {Type::i64()});
  Builder fb(f->body().entry());
  fb.ret({fb.op("core.call", {f->body().entry()->argument(0)}, Type::i64(),
                {{"callee", Attribute(ir::SymbolRef{"m_down"})}})});
  Builder& b = p.start_main();
  p.print_i64(b.op("core.call", {b.const_int(1)}, Type::i64(), {{"callee", Attribute(ir::SymbolRef{"m_down"})}}));
  b.ret();
  auto r = p.run();
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.err, "RecursionError: maximum recursion depth exceeded\n");
  RunOptions small;
  small.recursion_limit = 10;
  EXPECT_EQ(p.run("m.main", small).code, 1);
}

TEST(Interp, LoopWithSwappingBlockArguments) {
  // a, b = 0, 1; for i in range(10): a, b = b, a + b; print(a)
  Program p;
  Builder& b = p.start_main();
  ir::Block* head = p.main->body().add_block("head");
  ir::Block* body = p.main->body().add_block("body");
  ir::Block* exit = p.main->body().add_block("exit");
  Value* i = head->add_argument(Type::i64(), "i");
  Value* x = head->add_argument(Type::i64(), "a");
  Value* y = head->add_argument(Type::i64(), "b");
  b.br(head, {b.const_int(0), b.const_int(0), b.const_int(1)});
  Builder h(head);
  h.cond_br(h.op("core.cmp", {i, h.const_int(10)}, Type::i1(), {{"predicate", Attribute("lt")}}), body, {}, exit, {});
  Builder bb(body);
  Value* next = bb.op("core.add", {i, bb.const_int(1)}, Type::i64(), kPy);
  Value* sum = bb.op("core.add", {x, y}, Type::i64(), kPy);
  bb.br(head, {next, y, sum});
  p.b = Builder(exit);
  p.print_i64(x);
  p.b.ret();
  auto r = p.run();
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, "55\n");
}

TEST(Interp, FloatsPrintAsPythonRepr) {
  Program p;
  Builder& b = p.start_main();
  p.print_f64(b.op("core.add", {b.const_float(0.1), b.const_float(0.2)}, Type::f64()));
  p.print_f64(b.const_float(1e16));
  p.print_f64(b.const_float(2.0));
  AttrDict floor{{"rounding", Attribute("floor")}};
  p.print_f64(b.op("core.div", {b.const_float(-7.0), b.const_float(2.0)}, Type::f64(), floor));
  p.print_f64(b.op("core.mod", {b.const_float(7.0), b.const_float(-2.0)}, Type::f64(), floor));
  p.print_f64(b.op("core.mod", {b.const_float(-7.5), b.const_float(2.0)}, Type::f64(), floor));
  p.print_f64(b.op("core.div", {b.const_float(1.0), b.const_float(3.0)}, Type::f64()));
  p.print_f64(b.op("math.sqrt", {b.const_float(2.0)}, Type::f64()));
  p.print_f64(b.op("math.pow", {b.const_float(2.0), b.const_float(0.5)}, Type::f64()));
  b.ret();
  auto r = p.run();
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out,
            "0.30000000000000004\n1e+16\n2.0\n-4.0\n-1.0\n0.5\n0.3333333333333333\n"
            "1.4142135623730951\n1.4142135623730951\n");
}

TEST(Interp, CastsTruncateAndRefuseInfinity) {
  Program p;
  Builder& b = p.start_main();
  p.print_i64(b.op("core.cast", {b.const_float(-2.7)}, Type::i64()));
  p.print_f64(b.op("core.cast", {b.const_int(3)}, Type::f64()));
  p.print_bool(b.op("core.cast", {b.const_int(0)}, Type::i1()));
  p.print_i64(b.op("core.cast", {b.const_float(1.0 / 0.0)}, Type::i64()));
  b.ret();
  auto r = p.run();
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.out, "-2\n3.0\nFalse\n");
  EXPECT_EQ(r.err, "OverflowError: cannot convert float infinity to integer\n");
}

TEST(Interp, ListsAndBoundsCheck) {
  Program p;
  Builder& b = p.start_main();
  Value* n = b.const_int(3, Type::index());
  Value* list = p.call_extern("ppy_list_new_i64", {n}, {Type::buffer(Type::i64())})->result();
  b.create("core.buffer_store", {b.const_int(42), list, b.const_int(1, Type::index())}, {});
  p.print_i64(b.op("core.buffer_load", {list, b.const_int(1, Type::index())}, Type::i64()));
  p.print_i64(b.op("core.buffer_load", {list, b.const_int(0, Type::index())}, Type::i64()));
  p.print_i64(b.op("core.cast", {b.op("core.buffer_len", {list}, Type::index())}, Type::i64()));
  p.print_i64(b.op("core.buffer_load", {list, b.const_int(3, Type::index())}, Type::i64()));
  b.ret();
  auto r = p.run();
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.out, "42\n0\n3\n");
  EXPECT_EQ(r.err, "IndexError: list index out of range\n");
}

TEST(Interp, StackSlots) {
  Program p;
  Builder& b = p.start_main();
  Value* slot = b.op("core.alloca", {}, Type::ptr(Type::i64(), "stack"));
  b.create("core.store", {b.const_int(5), slot}, {});
  Value* v = b.op("core.load", {slot}, Type::i64());
  b.create("core.store", {b.op("core.mul", {v, v}, Type::i64(), kPy), slot}, {});
  p.print_i64(b.op("core.load", {slot}, Type::i64()));
  b.ret();
  auto r = p.run();
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, "25\n");
}

TEST(Interp, IntegerPowerRuntime) {
  Program p;
  Builder& b = p.start_main();
  auto pow = [&](int64_t x, int64_t y) {
    return p.call_extern("ppy_pow_i64", {b.const_int(x), b.const_int(y)}, {Type::i64()})->result();
  };
  p.print_i64(pow(2, 10));
  p.print_i64(pow(-2, 63));
  p.print_i64(pow(3, 0));
  p.print_i64(pow(2, 63));
  b.ret();
  auto r = p.run();
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.out, "1024\n-9223372036854775808\n1\n");
  EXPECT_EQ(r.err, "OverflowError: integer overflow\n");

  Program q;
  Builder& c = q.start_main();
  q.call_extern("ppy_pow_i64", {c.const_int(2), c.const_int(-1)}, {Type::i64()});
  c.ret();
  EXPECT_EQ(q.run().err, "ValueError: negative exponent\n");
}

TEST(Interp, PrintPiecesAndUnknownExtern) {
  Program p;
  Builder& b = p.start_main();
  p.call_extern("ppy_print_str", {}, {}, {{"text", Attribute("x =")}});
  p.call_extern("ppy_print_space", {});
  p.call_extern("ppy_print_i64", {b.const_int(-3)});
  p.newline();
  p.call_extern("ppy_mystery", {});
  b.ret();
  auto r = p.run();
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.out, "x = -3\n");
  EXPECT_EQ(r.err, "error: @m_main: unknown runtime function 'ppy_mystery'\n");
}

TEST(Interp, CallToDeclarationIsAnError) {
  Program p;
  auto decl = std::make_unique<ir::Function>("other_f", std::vector<ir::Param>{}, std::vector<Type>{});
  decl->set_visibility(ir::Visibility::Extern);
  p.module.add_function(std::move(decl));
  Builder& b = p.start_main();
  b.create("core.call", {}, {}, {{"callee", Attribute(ir::SymbolRef{"other_f"})}});
  b.ret();
  auto r = p.run();
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("@other_f is a declaration with no body"), std::string::npos) << r.err;
}

TEST(Interp, CallsAndBranchesOfTheWrongShapeAreRefused) {
  Program p;
  add_fib(p);
  Builder& b = p.start_main();
  p.print_i64(b.op("core.call", {}, Type::i64(), {{"callee", Attribute(ir::SymbolRef{"m_fib"})}}));
  b.ret();
  auto r = p.run();
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, "error: @m_main: a call to @m_fib with 0 argument(s) and 1 result(s); it takes 1 and returns 1\n");

  Program q;
  Builder& c = q.start_main();
  ir::Block* next = q.main->body().add_block("next");
  c.br(next, {c.const_int(1)});
  Builder(next).ret();
  auto s = q.run();
  EXPECT_EQ(s.code, 2);
  EXPECT_EQ(s.err, "error: @m_main: a branch passes 1 value(s) to ^next, which takes 0\n");
}

}  // namespace
}  // namespace ppy::interp

#include "ppy/ir/verifier.h"

#include <time.h>

#include <algorithm>
#include <cstdio>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ppy/ir/text.h"

namespace ppy::ir {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

Type vec(Type t, int64_t n) { return *Type::vector(t, n); }

class VerifierTest : public ::testing::Test {
 protected:
  Function* func(std::string name, std::vector<Type> params = {}, std::vector<Type> results = {}) {
    std::vector<Param> ps;
    for (Type t : params) ps.push_back({t, {}, ""});
    return m.add_function(std::make_unique<Function>(std::move(name), std::move(ps), std::move(results)));
  }
  /// A function with its entry block `^entry`.
  Block* body(std::string name, std::vector<Type> params = {}, std::vector<Type> results = {}) {
    return func(std::move(name), std::move(params), std::move(results))->create_entry_block("entry");
  }
  static Operation* op(Block* b, std::string_view name, std::vector<Value*> operands = {},
                       std::vector<Type> results = {}, AttrDict attrs = {},
                       std::optional<Location> loc = std::nullopt) {
    return b->append(Operation::create(name, std::move(operands), results, std::move(attrs), loc));
  }
  static Value* named(Value* v, std::string hint) {
    v->set_hint(std::move(hint));
    return v;
  }
  static Value* const_i64(Block* b, int64_t v) {
    return op(b, "core.const", {}, {Type::i64()}, {{"value", v}})->result();
  }
  static Value* const_f64(Block* b, double v) {
    return op(b, "core.const", {}, {Type::f64()}, {{"value", v}})->result();
  }
  static Value* const_bool(Block* b, bool v) {
    return op(b, "core.const", {}, {Type::i1()}, {{"value", v}})->result();
  }
  static Value* add(Block* b, Value* x, Value* y) {
    return op(b, "core.add", {x, y}, {x->type()}, {{"overflow", "wrap"}})->result();
  }
  static Operation* br(Block* b, Block* to, std::vector<Value*> args = {}) {
    Operation* o = op(b, "core.br");
    o->successors().push_back({to, std::move(args)});
    return o;
  }
  static Operation* cond_br(Block* b, Value* c, Block* t, Block* f) {
    Operation* o = op(b, "core.cond_br", {c});
    o->successors().push_back({t, {}});
    o->successors().push_back({f, {}});
    return o;
  }
  static Operation* ret(Block* b, std::vector<Value*> values = {}) { return op(b, "core.ret", std::move(values)); }

  std::vector<std::string> diags() {
    std::vector<std::string> out;
    for (const Diagnostic& d : verify(m, *reg)) out.push_back(d.str());
    return out;
  }

  Module m{"t"};
  const DialectRegistry* reg = &DialectRegistry::builtin();
};

// ---- valid modules ----

TEST_F(VerifierTest, LoopWithBlockArgumentsIsValid) {
  Function* f = func("sum", {Type::i64()}, {Type::i64()});
  Block* entry = f->create_entry_block("entry");
  Value* n = entry->argument(0);
  Block* head = f->body().add_block("head");
  Value* i = head->add_argument(Type::i64(), "i");
  Value* acc = head->add_argument(Type::i64(), "acc");
  Block* loop = f->body().add_block("body");
  Block* exit = f->body().add_block("exit");

  Value* zero = const_i64(entry, 0);
  br(entry, head, {zero, zero});
  Value* c = op(head, "core.cmp", {i, n}, {Type::i1()}, {{"predicate", "lt"}})->result();
  cond_br(head, c, loop, exit);
  Value* one = const_i64(loop, 1);
  Value* i2 = add(loop, i, one);
  Value* acc2 = op(loop, "core.add", {acc, i}, {Type::i64()}, {{"overflow", "python"}})->result();
  br(loop, head, {i2, acc2});
  ret(exit, {acc});

  EXPECT_THAT(diags(), IsEmpty());
  EXPECT_TRUE(verify_status(m).ok());
}

TEST_F(VerifierTest, DeclarationsAndGlobalsAreValid) {
  Function* ext = func("util_twice", {Type::i64()}, {Type::i64()});
  ext->set_visibility(Visibility::Extern);
  m.globals()["counter"] = Global{"counter", Type::i64(), Visibility::Private, true, Attribute(int64_t{0})};
  m.globals()["pi"] = Global{"pi", Type::f64(), Visibility::Public, false, Attribute(3.14)};
  m.globals()["pair"] = Global{"pair", Type::tuple({Type::i64(), Type::i1()}), Visibility::Public, false,
                               Attribute(AttrArray{Attribute(1), Attribute(true)})};
  Block* b = body("main", {}, {Type::i64()});
  Value* x = const_i64(b, 2);
  Value* r = op(b, "core.call", {x}, {Type::i64()}, {{"callee", SymbolRef{"util_twice"}}})->result();
  ret(b, {r});
  EXPECT_THAT(diags(), IsEmpty());
}

TEST_F(VerifierTest, EveryCoreOpWithRightTypesIsValid) {
  m.dialects()["math"] = 1;
  Type buf = Type::buffer(Type::f64());
  Type tup = Type::tuple({Type::i64(), Type::f64()});
  Type st = Type::struct_("P", {{"x", Type::f64()}, {"y", Type::f64()}});
  Block* b = body("f", {buf, Type::i1()}, {Type::f64()});
  Value* bv = b->argument(0);
  Value* flag = b->argument(1);
  Value* i = const_i64(b, 3);
  Value* x = const_f64(b, 1.5);
  Value* y = op(b, "core.div", {i, i}, {Type::i64()}, {{"overflow", "checked"}, {"rounding", "floor"}})->result();
  op(b, "core.mod", {y, i}, {Type::i64()}, {{"overflow", "checked"}, {"rounding", "trunc"}});
  op(b, "core.neg", {y}, {Type::i64()}, {{"overflow", "proven"}});
  op(b, "core.sub", {x, x}, {Type::f64()});  // floats need no overflow
  op(b, "core.mul", {x, x}, {Type::f64()});
  op(b, "core.and", {flag, flag}, {Type::i1()});
  op(b, "core.xor", {i, i}, {Type::i64()});
  op(b, "core.shl", {i, i}, {Type::i64()});
  Value* s = op(b, "core.select", {flag, x, x}, {Type::f64()})->result();
  op(b, "core.cast", {i}, {Type::f64()});
  Value* p = op(b, "core.alloca", {}, {Type::ptr(Type::f64(), "stack")}, {{"count", 4}})->result();
  op(b, "core.store", {s, p}, {});
  Value* l = op(b, "core.load", {p}, {Type::f64()})->result();
  Value* q = op(b, "core.ptr_offset", {p, i}, {p->type()})->result();
  op(b, "core.load", {q}, {Type::f64()});
  op(b, "core.buffer_data", {bv}, {Type::ptr(Type::f64())});
  Value* n = op(b, "core.buffer_len", {bv}, {Type::index()})->result();
  Value* e = op(b, "core.buffer_load", {bv, n}, {Type::f64()})->result();
  op(b, "core.buffer_store", {e, bv, i}, {});
  Value* t = op(b, "core.tuple_make", {i, l}, {tup})->result();
  op(b, "core.tuple_extract", {t}, {Type::f64()}, {{"index", 1}});
  Value* pt = op(b, "core.struct_make", {x, l}, {st})->result();
  op(b, "core.struct_extract", {pt}, {Type::f64()}, {{"field", "y"}});
  Value* v = op(b, "core.const", {}, {vec(Type::f64(), 4)}, {{"value", 0.0}})->result();
  Value* vc = op(b, "core.cmp", {v, v}, {vec(Type::i1(), 4)}, {{"predicate", "eq"}})->result();
  op(b, "core.select", {vc, v, v}, {v->type()});
  op(b, "math.sqrt", {v}, {v->type()});
  op(b, "math.pow", {x, x}, {Type::f64()});
  op(b, "core.guard", {flag}, {}, {{"kind", "bounds"}, {"message", "index out of range"}});
  op(b, "core.call_extern", {x}, {}, {{"callee", "ppy_print"}, {"abi", "c"}});
  op(b, "core.call_intrinsic", {}, {Type::f64()}, {{"intrinsic", "time"}});
  ret(b, {l});
  EXPECT_THAT(diags(), IsEmpty());
}

// ---- the module's dialects ----

TEST_F(VerifierTest, ModuleDialectUnknownToTheRegistry) {
  m.dialects()["tensor"] = 1;
  EXPECT_THAT(diags(), ElementsAre("the module uses dialect 'tensor', which the registry does not have"));
}

TEST_F(VerifierTest, ModuleDialectNewerThanTheRegistry) {
  m.dialects()["core"] = 2;
  EXPECT_THAT(diags(), ElementsAre("the module uses dialect 'core' at version 2; the registry has version 1"));
}

TEST_F(VerifierTest, OpDialectNotDeclaredByTheModule) {
  Block* b = body("f");
  op(b, "math.sqrt", {const_f64(b, 2.0)}, {Type::f64()}, {}, Location("a.ppy", 3, 5));
  ret(b);
  EXPECT_THAT(diags(), ElementsAre("function @f, block ^entry, op math.sqrt at a.ppy:3:5: op math.sqrt belongs to "
                                   "dialect 'math', which the module does not declare"));
}

TEST_F(VerifierTest, OpDialectNotRegistered) {
  Block* b = body("f");
  op(b, "tensor.matmul");
  ret(b);
  EXPECT_THAT(diags(), ElementsAre("function @f, block ^entry, op tensor.matmul: op tensor.matmul belongs to "
                                   "dialect 'tensor', which the registry does not have"));
}

TEST_F(VerifierTest, UnknownOpInARegisteredDialect) {
  Block* b = body("f");
  op(b, "core.frobnicate");
  ret(b);
  EXPECT_THAT(diags(), ElementsAre("function @f, block ^entry, op core.frobnicate: unknown op core.frobnicate: "
                                   "dialect 'core' has no such op"));
}

// ---- arity, attributes, variants ----

TEST_F(VerifierTest, OperandCount) {
  Block* b = body("f");
  Value* x = const_i64(b, 1);
  op(b, "core.add", {x, x, x}, {Type::i64()}, {{"overflow", "wrap"}});
  ret(b);
  EXPECT_THAT(diags(), ElementsAre("function @f, block ^entry, op core.add: expects 2 operand(s), got 3"));
}

TEST_F(VerifierTest, ResultCount) {
  Block* b = body("f");
  op(b, "core.const", {}, {Type::i64(), Type::i64()}, {{"value", 1}});
  ret(b);
  EXPECT_THAT(diags(), ElementsAre("function @f, block ^entry, op core.const: expects 1 result(s), got 2"));
}

TEST_F(VerifierTest, SuccessorCount) {
  Function* f = func("f");
  Block* b = f->create_entry_block("entry");
  Block* next = f->body().add_block("next");
  Operation* r = ret(b);
  r->successors().push_back({next, {}});
  ret(next);
  EXPECT_THAT(diags(), ElementsAre("function @f, block ^entry, op core.ret: expects 0 successor(s), got 1"));
}

TEST_F(VerifierTest, RegionCount) {
  Block* b = body("f");
  Operation* o = op(b, "core.unreachable");
  o->add_region().add_block("inner");
  EXPECT_THAT(diags(), ElementsAre("function @f, block ^entry, op core.unreachable: expects 0 region(s), got 1",
                                   "function @f, block ^inner: block ^inner is empty; it needs a terminator"));
}

TEST_F(VerifierTest, RequiredAttributeMissing) {
  Block* b = body("f");
  Value* x = const_i64(b, 1);
  op(b, "core.cmp", {x, x}, {Type::i1()});
  ret(b);
  EXPECT_THAT(diags(), ElementsAre("function @f, block ^entry, op core.cmp: needs attribute 'predicate'"));
}

TEST_F(VerifierTest, VariantOutsideItsValues) {
  Block* b = body("f");
  Value* x = const_i64(b, 1);
  op(b, "core.cmp", {x, x}, {Type::i1()}, {{"predicate", "lx"}});
  op(b, "core.cmp", {x, x}, {Type::i1()}, {{"predicate", 3}});
  ret(b);
  EXPECT_THAT(diags(),
              ElementsAre("function @f, block ^entry, op core.cmp: predicate = 'lx' is not one of eq, ne, lt, le, gt, ge",
                          "function @f, block ^entry, op core.cmp: predicate is an int, not one of eq, ne, lt, le, gt, ge"));
}

// ---- terminators ----

TEST_F(VerifierTest, BlockWithoutTerminator) {
  Block* b = body("f");
  const_i64(b, 1);
  EXPECT_THAT(diags(), ElementsAre("function @f, block ^entry, op core.const: block ^entry does not end with a "
                                   "terminator"));
}

TEST_F(VerifierTest, EmptyBlock) {
  body("f");
  EXPECT_THAT(diags(), ElementsAre("function @f, block ^entry: block ^entry is empty; it needs a terminator"));
}

TEST_F(VerifierTest, TerminatorInTheMiddle) {
  Block* b = body("f");
  ret(b);
  const_i64(b, 1);
  ret(b);
  EXPECT_THAT(diags(), ElementsAre("function @f, block ^entry, op core.ret: the terminator core.ret is not the last "
                                   "op of block ^entry"));
}

TEST_F(VerifierTest, SuccessorsOnANonTerminator) {
  Function* f = func("f");
  Block* b = f->create_entry_block("entry");
  Block* next = f->body().add_block("next");
  Value* x = const_i64(b, 1);
  x->def()->successors().push_back({next, {}});
  br(b, next);
  ret(next);
  EXPECT_THAT(diags(), ElementsAre("function @f, block ^entry, op core.const: only a terminator may have successors"));
}

// ---- successors ----

TEST_F(VerifierTest, BranchArgumentCountAndTypes) {
  Function* f = func("f");
  Block* b = f->create_entry_block("entry");
  Block* two = f->body().add_block("two");
  two->add_argument(Type::i64());
  two->add_argument(Type::f64());
  Value* x = const_i64(b, 1);
  Operation* c = op(b, "core.cond_br", {const_bool(b, true)});
  c->successors().push_back({two, {x}});
  c->successors().push_back({two, {x, x}});
  ret(two);
  EXPECT_THAT(diags(),
              ElementsAre("function @f, block ^entry, op core.cond_br: branch to ^two passes 1 argument(s) but ^two takes 2",
                          "function @f, block ^entry, op core.cond_br: branch to ^two passes i64 as argument #1 but "
                          "^two takes f64"));
}

TEST_F(VerifierTest, BranchToAnotherFunctionsBlock) {
  Block* other = body("g");
  ret(other);
  Block* b = body("f");
  br(b, other);
  EXPECT_THAT(diags(), ElementsAre("function @f, block ^entry, op core.br: successor #0 is not a block of this "
                                   "function"));
}

TEST_F(VerifierTest, BranchToTheEntryBlock) {
  Function* f = func("f");
  Block* b = f->create_entry_block("entry");
  Block* next = f->body().add_block("next");
  br(b, next);
  br(next, b);
  EXPECT_THAT(diags(), ElementsAre("function @f, block ^next, op core.br: branch to the entry block ^entry; an entry "
                                   "block has no predecessors"));
}

TEST_F(VerifierTest, NullSuccessorAndOperand) {
  Block* b = body("f", {}, {Type::i64()});
  Block* c = body("g");
  op(b, "core.ret", {nullptr});
  br(c, nullptr);
  EXPECT_THAT(diags(), ElementsAre("function @f, block ^entry, op core.ret: operand #0 is null",
                                   "function @g, block ^entry, op core.br: successor #0 has no block"));
}

// ---- entry block and returns ----

TEST_F(VerifierTest, EntryArgumentsMustMatchParameters) {
  Function* f = func("f", {Type::i64(), Type::f64()});
  f->set_loc(Location("m.ppy", 1, 1));
  Block* b = f->body().add_block("entry");
  b->add_argument(Type::i64());
  ret(b);
  Function* g = func("g", {Type::i64(), Type::f64()});
  Block* c = g->body().add_block("start");
  c->add_argument(Type::i64());
  c->add_argument(Type::i64());
  ret(c);
  EXPECT_THAT(diags(),
              ElementsAre("function @f, block ^entry: the entry block takes 1 argument(s) but the function has 2 "
                          "parameter(s)",
                          "function @g, block ^start: entry block argument #1 is i64 but parameter #1 is f64"));
}

TEST_F(VerifierTest, ReturnMustMatchTheFunctionResults) {
  Block* b = body("f", {}, {Type::i64()});
  ret(b);
  Block* c = body("g", {}, {Type::i64()});
  ret(c, {const_f64(c, 1.0)});
  EXPECT_THAT(diags(), ElementsAre("function @f, block ^entry, op core.ret: returns 0 value(s) but @f returns 1",
                                   "function @g, block ^entry, op core.ret: returned value #0 is f64 but @g returns i64"));
}

// ---- dominance ----

TEST_F(VerifierTest, UseBeforeDefinitionInTheSameBlock) {
  Block* b = body("f", {}, {Type::i64()});
  auto c = Operation::create("core.const", {}, {Type::i64()}, {{"value", 1}});
  Value* x = named(c->result(), "x");
  ret(b, {x});
  b->append(std::move(c));
  ret(b, {x});
  EXPECT_THAT(diags(),
              ElementsAre("function @f, block ^entry, op core.ret: operand #0 (%x in ^entry) does not dominate this use",
                          "function @f, block ^entry, op core.ret: the terminator core.ret is not the last op of block "
                          "^entry"));
}

TEST_F(VerifierTest, ParentLinksMustBeRight) {
  Function* f = func("f");
  Block* b = f->create_entry_block("entry");
  b->operations().push_back(Operation::create("core.ret", {}, {}));  // bypassing Block::append
  f->body().blocks().push_back(std::make_unique<Block>("stray"));    // bypassing Region::add_block
  ret(f->body().blocks().back().get());
  EXPECT_THAT(diags(),
              ElementsAre("function @f, block ^stray: the block's parent link does not name its region",
                          "function @f, block ^entry, op core.ret: the op's parent link does not name its block"));
}

// Results are fixed by Operation::create and stored after the op (issue 20):
// no API adds one that does not know its op, so the verifier's check of the
// link (kept against memory corruption) finds every result linked.
TEST_F(VerifierTest, EveryValueKnowsItsDefinition) {
  Block* b = body("f");
  Operation* o = op(b, "core.call_intrinsic", {}, {Type::i64(), Type::f64()}, {{"intrinsic", "time"}});
  ASSERT_EQ(o->num_results(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(o->result(i)->def(), o);
    EXPECT_EQ(o->result(i)->index(), i);
    EXPECT_EQ(o->result(i)->arg_owner(), nullptr);
  }
  EXPECT_EQ(o->result(1)->type(), Type::f64());
  ret(b);
  EXPECT_THAT(diags(), ElementsAre());
}

TEST_F(VerifierTest, EveryValueHasAType) {
  Function* f = func("f", {Type::void_()}, {Type()});
  Block* b = f->create_entry_block("entry");
  op(b, "core.call_intrinsic", {}, {Type()}, {{"intrinsic", "time"}});
  ret(b, {const_i64(b, 1)});  // names the missing type rather than crashing on it
  EXPECT_THAT(diags(), ElementsAre("function @f: parameter #0 has no type", "function @f: result #0 has no type",
                                   "function @f, block ^entry, op core.call_intrinsic: result #0 has no type",
                                   "function @f, block ^entry, op core.ret: returned value #0 is i64 but @f returns "
                                   "<no type>",
                                   "function @f, block ^entry: block argument #0 has no type"));
}

TEST_F(VerifierTest, OpCannotUseItsOwnResult) {
  Block* b = body("f");
  Operation* a = op(b, "core.add", {}, {Type::i64()}, {{"overflow", "wrap"}});
  a->operands() = {a->result(), a->result()};
  ret(b);
  EXPECT_THAT(diags(), ElementsAre("function @f, block ^entry, op core.add: operand #0 (result #0 of core.add in "
                                   "^entry) does not dominate this use",
                                   "function @f, block ^entry, op core.add: operand #1 (result #0 of core.add in "
                                   "^entry) does not dominate this use"));
}

TEST_F(VerifierTest, DefinitionOnOneSideOfADiamondDoesNotDominateTheJoin) {
  Function* f = func("f", {Type::i1()}, {Type::i64()});
  Block* entry = f->create_entry_block("entry");
  Block* a = f->body().add_block("a");
  Block* b = f->body().add_block("b");
  Block* join = f->body().add_block("join");
  cond_br(entry, entry->argument(0), a, b);
  Value* x = named(const_i64(a, 1), "x");
  br(a, join);
  br(b, join);
  ret(join, {x});
  EXPECT_THAT(diags(), ElementsAre("function @f, block ^join, op core.ret: operand #0 (%x in ^a) does not dominate "
                                   "this use"));
}

TEST_F(VerifierTest, LoopHeaderValueDominatesTheLoopButNotBeforeIt) {
  // entry -> head <-> body, head -> exit; %h is defined in head.
  Function* f = func("f", {Type::i1()}, {Type::i64()});
  Block* entry = f->create_entry_block("entry");
  Block* head = f->body().add_block("head");
  Block* loop = f->body().add_block("body");
  Block* exit = f->body().add_block("exit");
  Value* early = named(const_i64(entry, 0), "early");
  Operation* to_head = br(entry, head);
  Value* h = named(const_i64(head, 1), "h");
  cond_br(head, entry->argument(0), loop, exit);
  add(loop, h, early);  // fine: head and entry dominate body
  br(loop, head);
  ret(exit, {h});  // fine: head dominates exit
  EXPECT_THAT(diags(), IsEmpty());
  to_head->operands();  // now make the entry use %h
  entry->insert(1, Operation::create("core.neg", {h}, {Type::i64()}, {{"overflow", "wrap"}}));
  EXPECT_THAT(diags(), ElementsAre("function @f, block ^entry, op core.neg: operand #0 (%h in ^head) does not "
                                   "dominate this use"));
}

TEST_F(VerifierTest, UnreachableBlocksAreNotCheckedForDominanceButDefineNothing) {
  Function* f = func("f", {}, {Type::i64()});
  Block* entry = f->create_entry_block("entry");
  Block* dead = f->body().add_block("dead");
  Value* x = named(const_i64(entry, 1), "x");
  ret(entry, {x});
  Value* y = named(add(dead, x, x), "y");  // a use in unreachable code is allowed
  ret(dead, {y});
  EXPECT_THAT(diags(), IsEmpty());

  Function* g = func("g", {}, {Type::i64()});
  Block* ge = g->create_entry_block("entry");
  Block* gd = g->body().add_block("dead");
  Value* z = named(const_i64(gd, 1), "z");
  ret(gd, {z});
  ret(ge, {z});  // but a definition there dominates nothing reachable
  EXPECT_THAT(diags(), ElementsAre("function @g, block ^entry, op core.ret: operand #0 (%z in ^dead) does not "
                                   "dominate this use"));
}

TEST_F(VerifierTest, ValueOfAnotherFunctionIsNotDefined) {
  Block* g = body("g");
  Value* x = const_i64(g, 1);
  ret(g);
  Block* b = body("f", {}, {Type::i64()});
  ret(b, {x});
  EXPECT_THAT(diags(), ElementsAre("function @f, block ^entry, op core.ret: operand #0 is not defined in this "
                                   "function"));
}

TEST_F(VerifierTest, BranchArgumentsAreUses) {
  Function* f = func("f", {Type::i1()});
  Block* entry = f->create_entry_block("entry");
  Block* a = f->body().add_block("a");
  Block* join = f->body().add_block("join");
  join->add_argument(Type::i64(), "v");
  Value* x = named(const_i64(a, 1), "x");
  Operation* c = op(entry, "core.cond_br", {entry->argument(0)});
  c->successors().push_back({a, {}});
  c->successors().push_back({join, {x}});
  br(a, join, {x});
  ret(join);
  EXPECT_THAT(diags(), ElementsAre("function @f, block ^entry, op core.cond_br: argument #0 to ^join (%x in ^a) does "
                                   "not dominate this use"));
}

// ---- labels and symbols ----

TEST_F(VerifierTest, BlockLabelsAreUniqueWithinAFunction) {
  Function* f = func("f");
  Block* entry = f->create_entry_block("entry");
  Block* again = f->body().add_block("entry");
  br(entry, again);
  ret(again);
  Block* g = body("g");  // the same label in another function is fine
  ret(g);
  EXPECT_THAT(diags(), ElementsAre("function @f, block ^entry: block ^entry is defined twice"));
}

TEST_F(VerifierTest, SymbolsAreUnique) {
  ret(body("f"));
  ret(body("f"));
  ret(body("g"));
  m.globals()["g"] = Global{"g", Type::i64()};
  EXPECT_THAT(diags(), ElementsAre("function @f is defined twice", "symbol @g names both a global and a function"));
}

TEST_F(VerifierTest, GlobalInitializerMustFitItsType) {
  m.globals()["n"] = Global{"n", Type::i64(), Visibility::Public, false, Attribute(2.5)};
  m.globals()["flag"] = Global{"flag", Type::i1(), Visibility::Public, false, Attribute(int64_t{1})};
  m.globals()["t"] = Global{"t", Type::tuple({Type::i64()}), Visibility::Public, false,
                            Attribute(AttrArray{Attribute(1), Attribute(2)})};
  m.globals()["x"] = Global{"x", Type::f64(), Visibility::Public, false, Attribute(int64_t{1})};  // an int fits
  m.globals()["fp"] = Global{"fp", Type::ptr(Type::i64()), Visibility::Public, false, Attribute(SymbolRef{"nope"})};
  m.globals()["a"] = Global{"renamed", Type::i64()};
  EXPECT_THAT(diags(), ElementsAre("global @renamed is filed under the name @a",
                                   "global @flag : bool has an initializer of another type (an int)",
                                   "global @fp is initialized with @nope, which names nothing",
                                   "global @n : i64 has an initializer of another type (a float)",
                                   "global @t : tuple<i64> has an initializer of another type (an array)"));
}

TEST_F(VerifierTest, CallMustMatchItsCallee) {
  Block* callee = body("twice", {Type::i64()}, {Type::i64()});
  ret(callee, {callee->argument(0)});
  Block* b = body("f");
  Value* x = const_i64(b, 1);
  Value* y = const_f64(b, 1.0);
  op(b, "core.call", {x}, {Type::i64()}, {{"callee", SymbolRef{"nope"}}});
  op(b, "core.call", {x, x}, {Type::i64()}, {{"callee", SymbolRef{"twice"}}});
  op(b, "core.call", {y}, {Type::i64()}, {{"callee", SymbolRef{"twice"}}});
  op(b, "core.call", {x}, {Type::f64()}, {{"callee", SymbolRef{"twice"}}});
  op(b, "core.call", {x}, {Type::i64()}, {{"callee", SymbolRef{"twice"}}, {"capture_status", true}});
  op(b, "core.call", {x}, {Type::i64(), Type::i64()}, {{"callee", SymbolRef{"twice"}}, {"capture_status", true}});
  op(b, "core.call", {x}, {Type::i64()}, {{"callee", "twice"}});
  ret(b);
  EXPECT_THAT(diags(),
              ElementsAre("function @f, block ^entry, op core.call: callee @nope is not a function of the module",
                          "function @f, block ^entry, op core.call: passes 2 argument(s) but @twice takes 1",
                          "function @f, block ^entry, op core.call: argument #0 is f64 but @twice takes i64",
                          "function @f, block ^entry, op core.call: result #0 is f64 but @twice returns i64",
                          "function @f, block ^entry, op core.call: gives 1 result(s) but @twice returns 1 plus the "
                          "i64 status",
                          "function @f, block ^entry, op core.call: callee must be a symbol (@name)"));
}

// Functions as values (docs/ir.md, "Functions as values").
TEST_F(VerifierTest, FuncRefAndCallIndirectMatchTheirCallee) {
  Type p8 = Type::ptr(Type::scalar(TypeKind::I8));
  Block* callee = body("twice", {p8, Type::i64()}, {Type::i64()});
  ret(callee, {callee->argument(1)});
  Block* b = body("f");
  Value* x = const_i64(b, 1);
  Value* fn = op(b, "core.func_ref", {}, {p8}, {{"callee", SymbolRef{"twice"}}})->result();
  op(b, "core.call_indirect", {fn, fn, x}, {Type::i64()});  // fine: the closure, then the argument
  op(b, "core.func_ref", {}, {Type::i64()}, {{"callee", SymbolRef{"twice"}}});
  op(b, "core.func_ref", {}, {p8}, {{"callee", SymbolRef{"nope"}}});
  op(b, "core.call_indirect", {fn, x}, {Type::i64()});
  op(b, "core.call_indirect", {fn, fn, x}, {Type::f64()});
  op(b, "core.call_indirect", {x, x}, {Type::i64()});
  op(b, "core.call_indirect", {}, {});
  ret(b);
  EXPECT_THAT(diags(),
              ElementsAre("function @f, block ^entry, op core.func_ref: the result must be ptr<i8>, got i64",
                          "function @f, block ^entry, op core.func_ref: callee @nope is not a function of the module",
                          "function @f, block ^entry, op core.call_indirect: passes 1 argument(s) but @twice takes 2",
                          "function @f, block ^entry, op core.call_indirect: result #0 is f64 but @twice returns i64",
                          "function @f, block ^entry, op core.call_indirect: the function value must be ptr<i8>, got "
                          "i64",
                          "function @f, block ^entry, op core.call_indirect: needs the function value as its first "
                          "operand"));
}

TEST_F(VerifierTest, FunctionValuesRoundTripThroughText) {
  const char* text = R"(ppyir 1
module @m
dialect core 1

func @twice(%closure: ptr<i8>, %x: i64) -> i64 {
^entry:
    core.ret %x
}

func @f(%x: i64) -> i64 {
^entry:
    %fn = core.func_ref {callee = @twice} : ptr<i8>
    %0 = core.call_indirect %fn, %fn, %x : i64
    core.ret %0
}
)";
  auto parsed = parse_module(text);
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_THAT(verify(**parsed), IsEmpty());
  EXPECT_EQ(print_module(**parsed), text);
}

// ---- core type rules ----

TEST_F(VerifierTest, IntegerArithmeticNeedsOverflowAndRounding) {
  Block* b = body("f");
  Value* x = const_i64(b, 1);
  op(b, "core.add", {x, x}, {Type::i64()});
  op(b, "core.mul", {x, x}, {Type::i64()}, {{"overflow", "saturate"}});
  op(b, "core.div", {x, x}, {Type::i64()}, {{"overflow", "checked"}});
  op(b, "core.mod", {x, x}, {Type::i64()}, {{"overflow", "checked"}, {"rounding", "ceil"}});
  op(b, "core.neg", {x}, {Type::i64()});
  ret(b);
  EXPECT_THAT(
      diags(),
      ElementsAre("function @f, block ^entry, op core.add: an integer add needs attribute 'overflow' (one of python, "
                  "checked, wrap, proven)",
                  "function @f, block ^entry, op core.mul: overflow = 'saturate' is not one of python, checked, wrap, "
                  "proven",
                  "function @f, block ^entry, op core.div: an integer div needs attribute 'rounding' (one of floor, "
                  "trunc)",
                  "function @f, block ^entry, op core.mod: rounding = 'ceil' is not one of floor, trunc",
                  "function @f, block ^entry, op core.neg: an integer neg needs attribute 'overflow' (one of python, "
                  "checked, wrap, proven)"));
}

TEST_F(VerifierTest, ArithmeticOperandAndResultTypes) {
  Block* b = body("f");
  Value* x = const_i64(b, 1);
  Value* y = const_f64(b, 1.0);
  Value* c = const_bool(b, true);
  op(b, "core.sub", {x, y}, {Type::i64()}, {{"overflow", "wrap"}});
  op(b, "core.sub", {y, y}, {Type::i64()});
  op(b, "core.add", {c, c}, {Type::i1()});
  op(b, "core.or", {y, y}, {Type::f64()});
  op(b, "core.and", {x, x}, {Type::i1()});
  op(b, "core.shr", {y, x}, {Type::f64()});
  ret(b);
  EXPECT_THAT(diags(),
              ElementsAre("function @f, block ^entry, op core.sub: operands must have one type, got i64 and f64",
                          "function @f, block ^entry, op core.sub: the result is i64 but the operand type is f64",
                          "function @f, block ^entry, op core.add: operands must be integers or floats, got bool",
                          "function @f, block ^entry, op core.or: operands must be integers or bools, got f64",
                          "function @f, block ^entry, op core.and: the result is bool but the operand type is i64",
                          "function @f, block ^entry, op core.shr: operand #0 must be an integer, got f64"));
}

TEST_F(VerifierTest, ComparisonsGiveBoolsOfTheOperandsShape) {
  Block* b = body("f");
  Value* x = const_i64(b, 1);
  Value* v = op(b, "core.const", {}, {vec(Type::i64(), 4)}, {{"value", 0}})->result();
  op(b, "core.cmp", {x, x}, {Type::i64()}, {{"predicate", "eq"}});
  op(b, "core.cmp", {v, v}, {Type::i1()}, {{"predicate", "eq"}});
  op(b, "core.cmp", {v, v}, {vec(Type::i1(), 2)}, {{"predicate", "eq"}});
  ret(b);
  EXPECT_THAT(diags(),
              ElementsAre("function @f, block ^entry, op core.cmp: the result is i64 but comparing i64 gives bool",
                          "function @f, block ^entry, op core.cmp: the result is bool but comparing vector<i64, 4> "
                          "gives vector<bool, 4>",
                          "function @f, block ^entry, op core.cmp: the result is vector<bool, 2> but comparing "
                          "vector<i64, 4> gives vector<bool, 4>"));
}

TEST_F(VerifierTest, ConditionsAreBool) {
  Function* f = func("f");
  Block* b = f->create_entry_block("entry");
  Block* t = f->body().add_block("t");
  Value* x = const_i64(b, 1);
  Value* y = const_f64(b, 1.0);
  op(b, "core.select", {x, y, y}, {Type::f64()});
  op(b, "core.select", {const_bool(b, true), x, y}, {Type::f64()});
  op(b, "core.guard", {x}, {}, {{"kind", "overflow"}});
  op(b, "core.guard", {const_bool(b, false)}, {}, {{"kind", "panic"}});
  cond_br(b, x, t, t);
  ret(t);
  EXPECT_THAT(diags(),
              ElementsAre("function @f, block ^entry, op core.select: the condition must be bool, got i64",
                          "function @f, block ^entry, op core.select: the selected values must have one type, got i64 "
                          "and f64",
                          "function @f, block ^entry, op core.guard: the guarded condition must be bool, got i64",
                          "function @f, block ^entry, op core.guard: kind = 'panic' is not one of overflow, bounds, "
                          "zero_division, range, contract, assert",
                          "function @f, block ^entry, op core.cond_br: the condition must be bool, got i64"));
}

TEST_F(VerifierTest, MemoryOps) {
  Block* b = body("f", {Type::ptr(Type::f64(), "generic", true), Type::buffer(Type::i64())});
  Value* cp = b->argument(0);
  Value* buf = b->argument(1);
  Value* x = const_i64(b, 1);
  Value* y = const_f64(b, 1.0);
  op(b, "core.alloca", {}, {Type::ptr(Type::f64())});
  op(b, "core.alloca", {}, {Type::ptr(Type::f64(), "stack")}, {{"count", 0}});
  op(b, "core.load", {x}, {Type::i64()});
  op(b, "core.load", {cp}, {Type::i64()});
  op(b, "core.store", {y, cp}, {});
  op(b, "core.store", {x, b->argument(0)}, {});
  op(b, "core.ptr_offset", {cp, y}, {cp->type()});
  op(b, "core.buffer_data", {buf}, {Type::ptr(Type::f64())});
  op(b, "core.buffer_len", {x}, {Type::index()});
  op(b, "core.buffer_load", {buf, x}, {Type::f64()});
  op(b, "core.buffer_store", {y, buf, x}, {});
  ret(b);
  EXPECT_THAT(
      diags(),
      ElementsAre("function @f, block ^entry, op core.alloca: the result must be a ptr<T, stack>, got ptr<f64>",
                  "function @f, block ^entry, op core.alloca: count must be a positive int",
                  "function @f, block ^entry, op core.load: operand #0 must be a pointer, got i64",
                  "function @f, block ^entry, op core.load: the result is i64 but the pointee is f64",
                  "function @f, block ^entry, op core.store: cannot store through a const pointer ptr<f64, generic, "
                  "const>",
                  "function @f, block ^entry, op core.store: cannot store through a const pointer ptr<f64, generic, "
                  "const>",
                  "function @f, block ^entry, op core.store: the stored value is i64 but the pointee is f64",
                  "function @f, block ^entry, op core.ptr_offset: operand #1 must be an integer, got f64",
                  "function @f, block ^entry, op core.buffer_data: the result must be a pointer to i64, got ptr<f64>",
                  "function @f, block ^entry, op core.buffer_len: operand #0 must be a buffer, got i64",
                  "function @f, block ^entry, op core.buffer_load: the result is f64 but the element is i64",
                  "function @f, block ^entry, op core.buffer_store: the stored value is f64 but the element is i64"));
}

TEST_F(VerifierTest, AggregatesAndConstants) {
  Type tup = Type::tuple({Type::i64(), Type::f64()});
  Type st = Type::struct_("P", {{"x", Type::f64()}});
  Block* b = body("f", {tup, st});
  Value* x = const_i64(b, 1);
  op(b, "core.tuple_make", {x}, {tup});
  op(b, "core.struct_make", {x}, {st});
  op(b, "core.tuple_extract", {b->argument(0)}, {Type::i64()}, {{"index", 2}});
  op(b, "core.tuple_extract", {b->argument(0)}, {Type::i64()}, {{"index", 1}});
  op(b, "core.struct_extract", {b->argument(1)}, {Type::f64()}, {{"field", "z"}});
  op(b, "core.struct_extract", {b->argument(0)}, {Type::f64()}, {{"field", "x"}});
  op(b, "core.const", {}, {Type::i64()}, {{"value", 1.5}});
  op(b, "core.const", {}, {Type::i1()}, {{"value", 1}});
  ret(b);
  EXPECT_THAT(
      diags(),
      ElementsAre("function @f, block ^entry, op core.tuple_make: the result is tuple<i64, f64> but the tuple of the "
                  "operands is tuple<i64>",
                  "function @f, block ^entry, op core.struct_make: field 'x' is f64 but operand #0 is i64",
                  "function @f, block ^entry, op core.tuple_extract: index must be an int below 2 for tuple<i64, f64>",
                  "function @f, block ^entry, op core.tuple_extract: the result is i64 but the member is f64",
                  "function @f, block ^entry, op core.struct_extract: struct<P, x: f64> has no field 'z'",
                  "function @f, block ^entry, op core.struct_extract: the operand must be a struct, got tuple<i64, f64>",
                  "function @f, block ^entry, op core.const: the value does not fit type i64",
                  "function @f, block ^entry, op core.const: the value does not fit type bool"));
}

// ---- math ----

TEST_F(VerifierTest, MathTakesFloatsOfOneType) {
  m.dialects()["math"] = 1;
  Block* b = body("f");
  Value* x = const_i64(b, 1);
  Value* y = const_f64(b, 1.0);
  Value* z = op(b, "core.const", {}, {Type::scalar(TypeKind::F32)}, {{"value", 1.0}})->result();
  op(b, "math.sin", {x}, {Type::i64()});
  op(b, "math.pow", {y, z}, {Type::f64()});
  op(b, "math.exp", {z}, {Type::f64()});
  ret(b);
  EXPECT_THAT(diags(),
              ElementsAre("function @f, block ^entry, op math.sin: operands must be floats or vectors of floats, got i64",
                          "function @f, block ^entry, op math.pow: operands must have one type, got f64 and f32",
                          "function @f, block ^entry, op math.exp: the result is f64 but the operand type is f32"));
}

// ---- gpu ----

class GpuTest : public VerifierTest {
 protected:
  GpuTest() { m.dialects()["gpu"] = 1; }

  static void set_kind(Function* f, const char* kind) { f->attributes().set("gpu.kind", kind); }

  /// The guide's saxpy kernel, calling a device helper that uses shared memory.
  Function* saxpy() {
    Function* helper = func("scale", {Type::f64(), Type::f64()}, {Type::f64()});
    set_kind(helper, "device");
    Block* h = helper->create_entry_block("entry");
    Value* sh = op(h, "gpu.shared_alloc", {}, {Type::ptr(Type::f64(), "shared")}, {{"count", 32}})->result();
    op(h, "core.store", {h->argument(0), sh}, {});
    op(h, "gpu.barrier");
    Value* v = op(h, "core.load", {sh}, {Type::f64()})->result();
    Value* p = op(h, "core.mul", {v, h->argument(1)}, {Type::f64()})->result();
    ret(h, {p});

    Type cx = Type::ptr(Type::f64(), "generic", true);
    Type y = Type::ptr(Type::f64(), "global");
    Function* k = func("saxpy", {Type::i64(), Type::f64(), cx, y});
    set_kind(k, "kernel");
    Block* e = k->create_entry_block("entry");
    Block* body = k->body().add_block("body");
    Block* done = k->body().add_block("done");
    Value* tid = op(e, "gpu.thread_id", {}, {Type::index()}, {{"dim", "x"}})->result();
    Value* bid = op(e, "gpu.block_id", {}, {Type::index()}, {{"dim", "x"}})->result();
    Value* bdim = op(e, "gpu.block_dim", {}, {Type::index()}, {{"dim", "x"}})->result();
    Value* base = op(e, "core.mul", {bid, bdim}, {Type::index()}, {{"overflow", "wrap"}})->result();
    Value* i = op(e, "core.add", {base, tid}, {Type::index()}, {{"overflow", "wrap"}})->result();
    Value* n = op(e, "core.cast", {e->argument(0)}, {Type::index()})->result();
    Value* c = op(e, "core.cmp", {i, n}, {Type::i1()}, {{"predicate", "lt"}})->result();
    cond_br(e, c, body, done);
    Value* xp = op(body, "core.ptr_offset", {e->argument(2), i}, {cx})->result();
    Value* xv = op(body, "core.load", {xp}, {Type::f64()})->result();
    Value* yp = op(body, "core.ptr_offset", {e->argument(3), i}, {y})->result();
    Value* yv = op(body, "core.load", {yp}, {Type::f64()})->result();
    Value* ax = op(body, "core.call", {e->argument(1), xv}, {Type::f64()}, {{"callee", SymbolRef{"scale"}}})->result();
    Value* s = op(body, "core.add", {ax, yv}, {Type::f64()})->result();
    op(body, "core.store", {s, yp}, {});
    br(body, done);
    ret(done);
    return k;
  }

  /// A host function launching @saxpy over n elements.
  Block* host_launch(std::vector<Value*>* args_out = nullptr) {
    Block* b = body("main", {Type::i64(), Type::ptr(Type::f64(), "generic", true), Type::ptr(Type::f64(), "global")});
    Value* one = const_i64(b, 1);
    Value* a = const_f64(b, 2.0);
    std::vector<Value*> operands = {one, one, one, one, one, one, b->argument(0), a, b->argument(1), b->argument(2)};
    if (args_out) *args_out = operands;
    return b;
  }
};

TEST_F(GpuTest, KernelDeviceFunctionAndLaunchAreValid) {
  saxpy();
  std::vector<Value*> operands;
  Block* b = host_launch(&operands);
  op(b, "gpu.launch", operands, {}, {{"callee", SymbolRef{"saxpy"}}});
  Value* n = const_i64(b, 16);
  op(b, "gpu.device_alloc", {n}, {Type::ptr(Type::f64())});
  ret(b);
  EXPECT_THAT(diags(), IsEmpty());
}

TEST_F(GpuTest, KindMustBeKnown) {
  Function* f = func("f");
  set_kind(f, "accelerator");
  ret(f->create_entry_block());
  EXPECT_THAT(diags(), ElementsAre("function @f: gpu.kind must be \"host\", \"device\" or \"kernel\", not "
                                   "\"accelerator\""));
}

TEST_F(GpuTest, KernelSignature) {
  Function* f = func("k", {Type::buffer(Type::f64()), Type::ptr(Type::f64(), "shared"), Type::index()},
                     {Type::i64()});
  set_kind(f, "kernel");
  f->set_loc(Location("k.ppy", 4, 1));
  EXPECT_THAT(diags(),
              ElementsAre("function @k at k.ppy:4:1: kernel @k must return nothing",
                          "function @k at k.ppy:4:1: kernel parameter #0 is buffer<f64>; a kernel takes scalars, or "
                          "pointers in global, constant or generic memory",
                          "function @k at k.ppy:4:1: kernel parameter #1 is ptr<f64, shared>; a kernel takes scalars, "
                          "or pointers in global, constant or generic memory"));
}

TEST_F(GpuTest, DeviceCodeRefusesHostOnlyOpsForeignDialectsAndHostCalls) {
  Block* host = body("helper");
  ret(host);
  Function* f = func("k", {Type::buffer(Type::i64())});
  set_kind(f, "kernel");
  Block* b = f->create_entry_block("entry");
  Value* x = const_i64(b, 1);
  op(b, "core.guard", {const_bool(b, true)}, {}, {{"kind", "assert"}}, Location("k.ppy", 2, 3));
  op(b, "core.buffer_len", {b->argument(0)}, {Type::index()});
  op(b, "gpu.device_alloc", {x}, {Type::ptr(Type::i64())});
  op(b, "core.call", {}, {}, {{"callee", SymbolRef{"helper"}}});
  ret(b);
  EXPECT_THAT(
      diags(),
      ElementsAre("function @k: kernel parameter #0 is buffer<i64>; a kernel takes scalars, or pointers in global, "
                  "constant or generic memory",
                  "function @k, block ^entry, op core.guard at k.ppy:2:3: core.guard is host-only; @k is kernel code",
                  "function @k, block ^entry, op core.buffer_len: core.buffer_len is host-only; @k is kernel code",
                  "function @k, block ^entry, op gpu.device_alloc: gpu.device_alloc is host-only; @k is kernel code",
                  "function @k, block ^entry, op core.call: device code calls only device functions; @helper is a "
                  "host function"));
}

TEST_F(GpuTest, DeviceOpsOnlyInDeviceCode) {
  Block* b = body("main");
  op(b, "gpu.thread_id", {}, {Type::index()}, {{"dim", "y"}});
  op(b, "gpu.grid_dim", {}, {Type::i64()}, {{"dim", "w"}});
  op(b, "gpu.barrier");
  op(b, "gpu.private_alloc", {}, {Type::ptr(Type::f64(), "shared")}, {{"count", 4}});
  ret(b);
  EXPECT_THAT(diags(),
              ElementsAre("function @main, block ^entry, op gpu.thread_id: gpu.thread_id runs only in device code; "
                          "@main is a host function",
                          "function @main, block ^entry, op gpu.grid_dim: dim = 'w' is not one of x, y, z",
                          "function @main, block ^entry, op gpu.barrier: gpu.barrier runs only in device code; @main "
                          "is a host function",
                          "function @main, block ^entry, op gpu.private_alloc: gpu.private_alloc runs only in device "
                          "code; @main is a host function",
                          "function @main, block ^entry, op gpu.private_alloc: the result must be a ptr<scalar, "
                          "private>, got ptr<f64, shared>"));
}

TEST_F(GpuTest, DeviceOpTypes) {
  Function* f = func("d");
  set_kind(f, "device");
  Block* b = f->create_entry_block("entry");
  Value* x = const_f64(b, 1.0);
  op(b, "gpu.block_dim", {}, {Type::i64()}, {{"dim", "x"}});
  op(b, "gpu.subgroup_shuffle", {x, x}, {Type::f64()}, {{"mode", "down"}});
  op(b, "gpu.subgroup_shuffle", {x, const_i64(b, 1)}, {Type::i64()}, {{"mode", "xor"}});
  op(b, "gpu.shared_alloc", {}, {Type::ptr(Type::f64(), "shared")}, {{"count", 0}});
  ret(b);
  EXPECT_THAT(diags(),
              ElementsAre("function @d, block ^entry, op gpu.block_dim: the result must be index, got i64",
                          "function @d, block ^entry, op gpu.subgroup_shuffle: the lane must be an integer, got f64",
                          "function @d, block ^entry, op gpu.subgroup_shuffle: the result is i64 but the shuffled "
                          "value is f64",
                          "function @d, block ^entry, op gpu.shared_alloc: count must be a positive int"));
}

TEST_F(GpuTest, LaunchChecksItsKernel) {
  saxpy();
  Block* plain = body("plain");
  ret(plain);
  std::vector<Value*> operands;
  Block* b = host_launch(&operands);
  Value* y = const_f64(b, 1.0);
  op(b, "gpu.launch", operands, {}, {{"callee", SymbolRef{"plain"}}});
  op(b, "gpu.launch", {operands.begin(), operands.begin() + 4}, {}, {{"callee", SymbolRef{"saxpy"}}});
  std::vector<Value*> wrong = operands;
  wrong[0] = y;
  wrong[7] = operands[6];
  op(b, "gpu.launch", wrong, {}, {{"callee", SymbolRef{"saxpy"}}});
  op(b, "gpu.launch", {operands.begin(), operands.end() - 1}, {}, {{"callee", SymbolRef{"saxpy"}}});
  op(b, "gpu.launch", operands, {}, {{"callee", SymbolRef{"missing"}}});
  ret(b);
  EXPECT_THAT(diags(),
              ElementsAre("function @main, block ^entry, op gpu.launch: launches @plain, which is not a kernel "
                          "(gpu.kind = \"kernel\")",
                          "function @main, block ^entry, op gpu.launch: needs 6 integer operands (grid x, y, z, block "
                          "x, y, z) before the kernel's arguments, got 4",
                          "function @main, block ^entry, op gpu.launch: operand #0 (grid size) must be an integer, got "
                          "f64",
                          "function @main, block ^entry, op gpu.launch: kernel argument #1 is i64 but @saxpy takes f64",
                          "function @main, block ^entry, op gpu.launch: passes 3 argument(s) but kernel @saxpy takes 4",
                          "function @main, block ^entry, op gpu.launch: callee @missing is not a function of the "
                          "module"));
}

TEST_F(GpuTest, LaunchIsHostOnly) {
  saxpy();
  Function* d = func("inner", {Type::i64(), Type::f64(), Type::ptr(Type::f64(), "generic", true),
                               Type::ptr(Type::f64(), "global")});
  set_kind(d, "device");
  Block* b = d->create_entry_block("entry");
  Value* one = const_i64(b, 1);
  op(b, "gpu.launch", {one, one, one, one, one, one, b->argument(0), b->argument(1), b->argument(2), b->argument(3)},
     {}, {{"callee", SymbolRef{"saxpy"}}});
  ret(b);
  EXPECT_THAT(diags(), ElementsAre("function @inner, block ^entry, op gpu.launch: gpu.launch is host-only; @inner is "
                                   "device code"));
}

// ---- a dialect the verifier has never heard of ----

/// `test` (v2): `test.scope` owns a region whose blocks end in `test.yield`;
/// `test.check` has a variant, a required attribute and its own type rule; the
/// dialect's function hook refuses a function attribute.
Dialect test_dialect() {
  Dialect d{"test", 2};
  OpSpec scope;
  scope.name = "test.scope";
  scope.operands = 0;
  scope.results = 1;
  scope.regions = 1;
  d.ops.push_back(scope);
  OpSpec yield;
  yield.name = "test.yield";
  yield.terminator = true;
  yield.successors = 0;
  d.ops.push_back(yield);
  OpSpec check;
  check.name = "test.check";
  check.operands = 1;
  check.results = 0;
  check.variant_attribute = "mode";
  check.variants = {"fast", "slow"};
  check.required_attributes = {"mode"};
  check.verify = [](const Operation& op, DiagSink& sink) {
    if (!op.operand(0)->type().is_float()) sink.error("test.check checks floats only");
  };
  d.ops.push_back(check);
  d.verify_function = [](const Function& f, const Module&, DiagSink& sink) {
    if (f.attributes().has("test.forbidden")) sink.error("test.forbidden is forbidden");
  };
  return d;
}

class NewDialectTest : public VerifierTest {
 protected:
  NewDialectTest() : extended(DialectRegistry::builtin()) {
    extended.add(test_dialect());
    reg = &extended;
    m.dialects()["test"] = 1;  // older than the registry's 2: accepted
  }
  DialectRegistry extended;
};

TEST_F(NewDialectTest, ValidUseIsClean) {
  Block* b = body("f", {Type::f64()});
  Value* outer = b->argument(0);
  Operation* scope = op(b, "test.scope", {}, {Type::i64()});
  Block* inner = scope->add_region().add_block("inner");
  op(inner, "test.check", {outer}, {}, {{"mode", "fast"}});  // outer values are visible inside
  op(inner, "test.yield");
  ret(b);
  EXPECT_THAT(diags(), IsEmpty());
}

TEST_F(NewDialectTest, BuiltinRegistryDoesNotKnowIt) {
  Block* b = body("f");
  op(b, "test.yield");
  reg = &DialectRegistry::builtin();
  EXPECT_THAT(diags(), ElementsAre("the module uses dialect 'test', which the registry does not have",
                                   "function @f, block ^entry, op test.yield: op test.yield belongs to dialect 'test', "
                                   "which the registry does not have"));
}

TEST_F(NewDialectTest, ItsSpecsAndHooksAreApplied) {
  Function* f = func("f");
  f->attributes().set("test.forbidden", true);
  Block* b = f->create_entry_block("entry");
  Value* x = const_i64(b, 1);
  op(b, "test.check", {x}, {}, {{"mode", "fast"}});
  op(b, "test.check", {x}, {}, {{"mode", "turbo"}});
  op(b, "test.check", {}, {}, {{"mode", "slow"}});
  op(b, "test.scope", {}, {Type::i64()});
  op(b, "test.unknown");
  op(b, "test.yield");
  EXPECT_THAT(diags(),
              ElementsAre("function @f, block ^entry, op test.check: test.check checks floats only",
                          "function @f, block ^entry, op test.check: mode = 'turbo' is not one of fast, slow",
                          "function @f, block ^entry, op test.check: expects 1 operand(s), got 0",
                          "function @f, block ^entry, op test.scope: expects 1 region(s), got 0",
                          "function @f, block ^entry, op test.unknown: unknown op test.unknown: dialect 'test' has no "
                          "such op",
                          "function @f: test.forbidden is forbidden"));
}

TEST_F(NewDialectTest, NestedRegionScoping) {
  Function* f = func("f", {}, {Type::f64()});
  Block* b = f->create_entry_block("entry");
  Block* after = f->body().add_block("after");
  Operation* scope = op(b, "test.scope", {}, {Type::f64()});
  Region& r = scope->add_region();
  Block* inner = r.add_block("inner");
  Block* inner2 = r.add_block("inner2");
  Value* hidden = named(const_f64(inner, 1.0), "hidden");
  op(inner, "test.check", {named(scope->result(), "s")}, {}, {{"mode", "fast"}});  // its own result: not yet
  br(inner, inner2);
  br(inner2, after);  // out of the region
  op(inner2, "test.yield");
  br(b, inner);  // into another region
  ret(after, {hidden});  // a value of an inner region, outside it
  EXPECT_THAT(
      diags(),
      ElementsAre(
          "function @f, block ^inner, op test.check: operand #0 (%s in ^entry) does not dominate this use",
          "function @f, block ^inner2, op core.br: successor #0 ^after is not a block of this region",
          "function @f, block ^inner2, op core.br: the terminator core.br is not the last op of block ^inner2",
          "function @f, block ^entry, op core.br: successor #0 ^inner is not a block of this region",
          "function @f, block ^after, op core.ret: operand #0 (%hidden in ^inner) is defined in a region that does "
          "not enclose this use"));
}

TEST_F(NewDialectTest, NestedEntryBlockHasNoPredecessors) {
  Block* b = body("f");
  Operation* scope = op(b, "test.scope", {}, {Type::f64()});
  Region& r = scope->add_region();
  Block* inner = r.add_block("inner");
  Block* loop = r.add_block("loop");
  br(inner, loop);
  br(loop, inner);
  ret(b);
  EXPECT_THAT(diags(), ElementsAre("function @f, block ^loop, op core.br: branch to the entry block ^inner; an entry "
                                   "block has no predecessors"));
}

// ---- from text ----

TEST(VerifierTextTest, ParsedKernelAndLaunchAreValid) {
  auto m = parse_module(R"(ppyir 1
module @k
dialect core 1
dialect gpu 1

func @saxpy(%n: i64, %a: f64, %x: ptr<f64, generic, const>, %y: ptr<f64>) -> () attrs {gpu.kind = "kernel"} {
^entry:
    %tid = gpu.thread_id.x : index
    %bid = gpu.block_id.x : index
    %bdim = gpu.block_dim.x : index
    %base = core.mul %bid, %bdim {overflow = "wrap"} : index
    %i = core.add %base, %tid {overflow = "wrap"} : index
    %ni = core.cast %n : index
    %c = core.cmp.lt %i, %ni : bool
    core.cond_br %c, ^body, ^done
^body:
    %xp = core.ptr_offset %x, %i : ptr<f64, generic, const>
    %xv = core.load %xp : f64
    %yp = core.ptr_offset %y, %i : ptr<f64>
    %yv = core.load %yp : f64
    %ax = core.mul %a, %xv : f64
    %s = core.add %ax, %yv : f64
    core.store %s, %yp
    core.br ^done
^done:
    core.ret
}

func @main(%n: i64, %x: ptr<f64, generic, const>, %y: ptr<f64>) -> () {
^entry:
    %one = core.const 1 : i64
    %a = core.const 2.0 : f64
    gpu.launch %one, %one, %one, %one, %one, %one, %n, %a, %x, %y {callee = @saxpy}
    core.ret
}
)");
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_THAT(verify(**m), IsEmpty());
}

TEST(VerifierTextTest, ParsedDominanceAndEntryErrorsCarryLocations) {
  auto m = parse_module(R"(ppyir 1
module @d

func @f(%c: bool) -> i64 {
^entry:
    core.cond_br %c, ^a, ^b
^a:
    %x = core.const 1 : i64 loc("d.ppy":3:1)
    core.br ^b
^b:
    core.ret %x loc("d.ppy":5:5)
}

func @g() -> () {
^entry:
    core.br ^entry
}
)");
  ASSERT_TRUE(m.ok()) << m.status();
  absl::Status s = verify_status(**m);
  EXPECT_EQ(std::string(s.message()),
            "function @f, block ^b, op core.ret at d.ppy:5:5: operand #0 (%x in ^a) does not dominate this use\n"
            "function @g, block ^entry, op core.br: branch to the entry block ^entry; an entry block has no "
            "predecessors");
}

// ---- reporting ----

TEST_F(VerifierTest, StatusListsEveryDiagnosticOnALine) {
  Block* b = body("f");
  Value* x = const_i64(b, 1);
  op(b, "core.add", {x, x}, {Type::i64()}, {}, Location("s.ppy", 7, 9));
  op(b, "core.cmp", {x, x}, {Type::i1()});
  ret(b);
  absl::Status s = verify_status(m);
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(std::string(s.message()),
            "function @f, block ^entry, op core.add at s.ppy:7:9: an integer add needs attribute 'overflow' (one of "
            "python, checked, wrap, proven)\n"
            "function @f, block ^entry, op core.cmp: needs attribute 'predicate'");
}

TEST_F(VerifierTest, DiagnosticFieldsNameTheSpot) {
  Function* f = func("f");
  Block* b = f->create_entry_block("entry");
  Block* next = f->body().add_block("next");
  br(b, next);
  op(next, "core.neg", {const_f64(next, 1.0)}, {Type::i64()}, {}, Location("x.ppy", 5, 2));
  ret(next);
  std::vector<Diagnostic> d = verify(m);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].function, "f");
  EXPECT_EQ(d[0].block, "next");
  EXPECT_EQ(d[0].op, "core.neg");
  ASSERT_TRUE(d[0].loc.has_value());
  EXPECT_EQ(d[0].loc->str(), "x.ppy:5:2");
  EXPECT_EQ(d[0].message, "the result is i64 but the operand type is f64");
}

// ---- throughput ----

/// 100k ops: one block of adds per function stage, chained by branches, so the
/// CFG and dominator code run too. Prints ops/s; run it with
/// --gtest_also_run_disabled_tests (it is timing, not behaviour).
TEST_F(VerifierTest, DISABLED_Throughput) {
  constexpr int kBlocks = 1000, kPerBlock = 100;
  Function* f = func("big", {Type::i64()}, {Type::i64()});
  Block* b = f->create_entry_block("entry");
  Value* acc = b->argument(0);
  Value* one = const_i64(b, 1);
  size_t ops = 1;
  for (int i = 0; i < kBlocks; ++i) {
    Block* next = f->body().add_block("b" + std::to_string(i));
    Value* arg = next->add_argument(Type::i64());
    for (int k = 0; k < kPerBlock - 1; ++k, ++ops) acc = add(b, acc, one);
    br(b, next, {acc});
    ++ops;
    b = next;
    acc = arg;
  }
  ret(b, {acc});
  ++ops;
  ASSERT_THAT(diags(), IsEmpty());
  // The best of several runs, in this thread's CPU time: the machine is shared.
  auto cpu_now = [] {
    timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
  };
  double best = 1e9;
  size_t n = 0;
  for (int i = 0; i < 30; ++i) {
    double t0 = cpu_now();
    n += verify(m).size();
    best = std::min(best, cpu_now() - t0);
  }
  EXPECT_EQ(n, 0u);
  std::printf("verify: %zu ops in %.3f ms, %.2f M ops/s\n", ops, best * 1e3, ops / best / 1e6);
}

}  // namespace
}  // namespace ppy::ir

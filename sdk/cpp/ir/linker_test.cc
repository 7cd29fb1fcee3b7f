// Tests of the module linker: declarations answered, clashes renamed or refused.
#include "ppy/ir/linker.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ppy/ir/text.h"
#include "ppy/ir/verifier.h"

namespace ppy::ir {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Pair;

Type i64() { return Type::i64(); }

Function* declare(Module& m, std::string name, std::vector<Type> params, std::vector<Type> results) {
  std::vector<Param> ps;
  for (Type t : params) ps.push_back({t, {}, ""});
  Function* f = m.add_function(std::make_unique<Function>(std::move(name), std::move(ps), std::move(results)));
  f->set_visibility(Visibility::Extern);
  return f;
}

/// `func @name(%x: i64) -> i64`: calls each of `callees` with %x in turn and
/// returns the last answer (or %x doubled when there are none).
Function* define(Module& m, std::string name, Visibility vis, std::vector<std::string> callees = {}) {
  Function* f = m.add_function(std::make_unique<Function>(
      std::move(name), std::vector<Param>{{i64(), {}, "x"}}, std::vector<Type>{i64()}));
  f->set_visibility(vis);
  Block* entry = f->create_entry_block();
  Value* v = entry->argument(0);
  if (callees.empty())
    v = entry->append(Operation::create("core.add", {v, v}, {i64()}, {{"overflow", "wrap"}}))->result();
  for (auto& c : callees)
    v = entry->append(Operation::create("core.call", {v}, {i64()}, {{"callee", SymbolRef{c}}}))->result();
  entry->append(Operation::create("core.ret", {v}, {}));
  return f;
}

/// The callees of @f's calls, in order, as written.
std::vector<std::string> callees(const Function& f) {
  std::vector<std::string> out;
  walk(f.body(), [&](const Operation& op) {
    if (const Attribute* c = op.attr("callee"); c && c->is<SymbolRef>()) out.push_back(c->as_symbol().name);
  });
  return out;
}

std::vector<std::string> function_names(const Module& m) {
  std::vector<std::string> out;
  for (auto& f : m.functions()) out.push_back(f->name());
  return out;
}

template <class... M>
std::vector<std::unique_ptr<Module>> modules(M... ms) {
  std::vector<std::unique_ptr<Module>> out;
  (out.push_back(std::move(ms)), ...);
  return out;
}

std::string link_error(std::vector<std::unique_ptr<Module>> ms) {
  absl::StatusOr<std::unique_ptr<Module>> r = link(std::move(ms));
  EXPECT_FALSE(r.ok());
  if (r.ok()) return "";
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  return std::string(r.status().message());
}

// ---- Declarations and definitions ------------------------------------------------

TEST(Link, ADefinitionAnswersTheDeclarationAndFunctionsMoveWhole) {
  auto main = std::make_unique<Module>("main");
  declare(*main, "twice", {i64()}, {i64()});
  define(*main, "main", Visibility::Public, {"twice"});
  auto util = std::make_unique<Module>("util");
  Function* twice = define(*util, "twice", Visibility::Public);
  Value* x = twice->body().entry()->argument(0);

  absl::StatusOr<LinkResult> r = link_with_report(modules(std::move(main), std::move(util)), "program");
  ASSERT_TRUE(r.ok()) << r.status();
  const Module& m = *r->module;
  EXPECT_EQ(m.name(), "program");
  EXPECT_THAT(function_names(m), ElementsAre("main", "twice"));
  EXPECT_EQ(m.function("twice"), twice);  // moved, not copied
  EXPECT_FALSE(twice->is_declaration());
  EXPECT_EQ(twice->body().entry()->argument(0), x);
  EXPECT_EQ(twice->body().entry()->operations()[0]->operand(0), x);
  EXPECT_EQ(twice->body().parent_function(), twice);
  EXPECT_THAT(callees(*m.function("main")), ElementsAre("twice"));
  EXPECT_THAT(r->unresolved, IsEmpty());
  EXPECT_THAT(r->renamed, IsEmpty());
  EXPECT_THAT(verify(m), IsEmpty());
}

TEST(Link, TheModulesABuildReceivesLinkAsTheyComeAndStayAsTheyWere) {
  // What `Backend::build` and `emit_program` get: a span of const modules.
  Module app("app");
  declare(app, "lib_f", {i64()}, {i64()});
  define(app, "app_main", Visibility::Public, {"lib_f"});
  Module lib("lib");
  define(lib, "lib_f", Visibility::Public);
  const std::string app_before = print_module(app), lib_before = print_module(lib);
  std::vector<const Module*> program = {&app, &lib};

  absl::StatusOr<std::unique_ptr<Module>> linked = link(std::span<const Module* const>(program), "program");
  ASSERT_TRUE(linked.ok()) << linked.status();
  EXPECT_THAT(function_names(**linked), ElementsAre("app_main", "lib_f"));
  EXPECT_NE((*linked)->function("lib_f"), lib.function("lib_f"));  // copied, not moved
  EXPECT_THAT(verify(**linked), IsEmpty());
  EXPECT_EQ(print_module(app), app_before);
  EXPECT_EQ(print_module(lib), lib_before);

  absl::StatusOr<LinkResult> report = link_with_report(std::span<const Module* const>(program));
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_THAT(report->unresolved, IsEmpty());
}

TEST(Link, ADefinitionAnswersDeclarationsOfModulesAfterIt) {
  auto util = std::make_unique<Module>("util");
  define(*util, "twice", Visibility::Public);
  auto a = std::make_unique<Module>("a");
  declare(*a, "twice", {i64()}, {i64()});
  define(*a, "fa", Visibility::Public, {"twice"});
  auto b = std::make_unique<Module>("b");
  declare(*b, "twice", {i64()}, {i64()});
  define(*b, "fb", Visibility::Public, {"twice"});
  auto m = link(modules(std::move(util), std::move(a), std::move(b)));
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ((*m)->name(), "linked");
  EXPECT_THAT(function_names(**m), ElementsAre("twice", "fa", "fb"));
  EXPECT_FALSE((*m)->function("twice")->is_declaration());
}

TEST(Link, ADeclarationOfAnotherSignatureIsRefused) {
  auto main = std::make_unique<Module>("main");
  declare(*main, "twice", {Type::f64()}, {i64()});
  auto util = std::make_unique<Module>("util");
  define(*util, "twice", Visibility::Public);
  EXPECT_EQ(link_error(modules(std::move(main), std::move(util))),
            "@twice is declared in module 'main' as (f64) -> i64 but defined in module 'util' as (i64) -> i64");

  auto results = std::make_unique<Module>("main");
  declare(*results, "twice", {i64()}, {});
  auto util2 = std::make_unique<Module>("util");
  define(*util2, "twice", Visibility::Public);
  EXPECT_THAT(link_error(modules(std::move(results), std::move(util2))),
              HasSubstr("as (i64) -> () but defined in module 'util' as (i64) -> i64"));
}

TEST(Link, AnUndefinedDeclarationIsKeptOnceAndReported) {
  auto a = std::make_unique<Module>("a");
  declare(*a, "ext", {i64()}, {i64()});
  declare(*a, "unused", {}, {});
  define(*a, "fa", Visibility::Public, {"ext"});
  auto b = std::make_unique<Module>("b");
  Function* second = declare(*b, "ext", {i64()}, {i64()});
  define(*b, "fb", Visibility::Public, {"ext"});
  absl::StatusOr<LinkResult> r = link_with_report(modules(std::move(a), std::move(b)));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_THAT(function_names(*r->module), ElementsAre("ext", "unused", "fa", "fb"));
  EXPECT_NE(r->module->function("ext"), second);  // the first declaration stands
  EXPECT_TRUE(r->module->function("ext")->is_declaration());
  EXPECT_THAT(r->unresolved, ElementsAre("ext"));
  EXPECT_THAT(unresolved_symbols(*r->module), ElementsAre("ext"));
}

TEST(Link, TwoDeclarationsMustAgree) {
  auto a = std::make_unique<Module>("a");
  declare(*a, "ext", {i64()}, {i64()});
  auto b = std::make_unique<Module>("b");
  declare(*b, "ext", {i64(), i64()}, {i64(), Type::f64()});
  EXPECT_EQ(link_error(modules(std::move(a), std::move(b))),
            "@ext is declared in module 'b' as (i64, i64) -> (i64, f64) but declared in module 'a' as (i64) -> i64");
}

TEST(Link, TwoPublicDefinitionsAreRefused) {
  auto a = std::make_unique<Module>("a");
  define(*a, "f", Visibility::Public);
  auto b = std::make_unique<Module>("b");
  define(*b, "f", Visibility::Public);
  EXPECT_EQ(link_error(modules(std::move(a), std::move(b))),
            "@f is defined by two modules, 'a' and 'b'; only a private symbol is renamed");
}

TEST(Link, TwoInstancesOfOneGenericAreOne) {
  auto a = std::make_unique<Module>("a");
  Function* first = define(*a, "id_i64", Visibility::Public);
  first->attributes().set("ppy.generic", true);
  auto b = std::make_unique<Module>("b");
  define(*b, "id_i64", Visibility::Public)->attributes().set("ppy.generic", true);
  define(*b, "user", Visibility::Public, {"id_i64"});
  absl::StatusOr<LinkResult> r = link_with_report(modules(std::move(a), std::move(b)));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_THAT(function_names(*r->module), ElementsAre("id_i64", "user"));
  EXPECT_EQ(r->module->function("id_i64"), first);
  EXPECT_THAT(r->shared, ElementsAre("id_i64"));

  // Private instances are shared too, rather than renamed; public if any copy was.
  auto p = std::make_unique<Module>("p");
  Function* kept = define(*p, "id_f", Visibility::Private);
  kept->attributes().set("ppy.generic", true);
  auto q = std::make_unique<Module>("q");
  define(*q, "id_f", Visibility::Public)->attributes().set("ppy.generic", true);
  define(*q, "quser", Visibility::Public, {"id_f"});
  absl::StatusOr<LinkResult> pq = link_with_report(modules(std::move(p), std::move(q)));
  ASSERT_TRUE(pq.ok()) << pq.status();
  EXPECT_THAT(function_names(*pq->module), ElementsAre("id_f", "quser"));
  EXPECT_EQ(pq->module->function("id_f"), kept);
  EXPECT_EQ(kept->visibility(), Visibility::Public);
  EXPECT_THAT(pq->renamed, IsEmpty());

  // Private instances of different signatures are two functions.
  auto s = std::make_unique<Module>("s");
  define(*s, "inst", Visibility::Private)->attributes().set("ppy.generic", true);
  auto t = std::make_unique<Module>("t");
  Function* other = declare(*t, "inst", {Type::f64()}, {i64()});
  other->set_visibility(Visibility::Private);
  other->create_entry_block()->append(Operation::create("core.unreachable", {}, {}));
  other->attributes().set("ppy.generic", true);
  auto st = link(modules(std::move(s), std::move(t)));
  ASSERT_TRUE(st.ok()) << st.status();
  EXPECT_THAT(function_names(**st), ElementsAre("s.inst", "t.inst"));

  // Only when both say so.
  auto c = std::make_unique<Module>("c");
  define(*c, "g", Visibility::Public)->attributes().set("ppy.generic", true);
  auto d = std::make_unique<Module>("d");
  define(*d, "g", Visibility::Public);
  EXPECT_THAT(link_error(modules(std::move(c), std::move(d))), HasSubstr("@g is defined by two modules"));
}

// ---- Private symbols ------------------------------------------------------------

TEST(Link, ClashingPrivateSymbolsAreRenamedAfterTheirModuleWithTheirUses) {
  auto a = std::make_unique<Module>("a");
  define(*a, "helper", Visibility::Private);
  define(*a, "only_a", Visibility::Private);
  Function* fa = define(*a, "fa", Visibility::Public, {"helper", "only_a"});
  auto b = std::make_unique<Module>("b");
  Function* fb = define(*b, "fb", Visibility::Public, {"helper"});
  define(*b, "helper", Visibility::Private);  // defined after its use
  // Every kind of reference in b follows the rename.
  Block* entry = fb->body().entry();
  Operation* launch = entry->insert(0, Operation::create("gpu.launch", {}, {}, {{"callee", SymbolRef{"helper"}}}));
  Operation* table = entry->insert(
      0, Operation::create("test.table", {}, {},
                           {{"fns", AttrArray{SymbolRef{"helper"}, SymbolRef{"fb"}, "helper"}},
                            {"meta", AttrDict{{"entry", SymbolRef{"helper"}}, {"n", 1}}}}));
  fb->attributes().set("ppy.wraps", SymbolRef{"helper"});
  fb->params()[0].attrs.set("ppy.from", SymbolRef{"helper"});

  absl::StatusOr<LinkResult> r = link_with_report(modules(std::move(a), std::move(b)));
  ASSERT_TRUE(r.ok()) << r.status();
  const Module& m = *r->module;
  EXPECT_THAT(function_names(m), ElementsAre("a.helper", "only_a", "fa", "fb", "b.helper"));
  EXPECT_EQ(m.function("a.helper")->visibility(), Visibility::Private);
  EXPECT_THAT(callees(*fa), ElementsAre("a.helper", "only_a"));
  EXPECT_THAT(callees(*fb), ElementsAre("b.helper", "b.helper"));
  EXPECT_EQ(launch->attr("callee")->as_symbol().name, "b.helper");
  EXPECT_EQ(table->attr("fns")->as_array()[0].as_symbol().name, "b.helper");
  EXPECT_EQ(table->attr("fns")->as_array()[1].as_symbol().name, "fb");
  EXPECT_EQ(table->attr("fns")->as_array()[2].as_string(), "helper");  // a string is not a reference
  EXPECT_EQ(table->attr("meta")->as_dict().get("entry")->as_symbol().name, "b.helper");
  EXPECT_EQ(table->attr("meta")->as_dict().get("n")->as_int(), 1);
  EXPECT_EQ(fb->attributes().get("ppy.wraps")->as_symbol().name, "b.helper");
  EXPECT_EQ(fb->params()[0].attrs.get("ppy.from")->as_symbol().name, "b.helper");
  EXPECT_THAT(r->renamed, ElementsAre(Pair(Pair("a", "helper"), "a.helper"), Pair(Pair("b", "helper"), "b.helper")));
}

TEST(Link, APrivateSymbolMovesAsideForAPublicOneAndAnswersNoDeclaration) {
  auto a = std::make_unique<Module>("a");
  define(*a, "log", Visibility::Public);
  auto b = std::make_unique<Module>("b");
  define(*b, "log", Visibility::Private);
  Function* fb = define(*b, "fb", Visibility::Public, {"log"});
  auto c = std::make_unique<Module>("c");
  declare(*c, "log", {i64()}, {i64()});
  Function* fc = define(*c, "fc", Visibility::Public, {"log"});
  auto d = std::make_unique<Module>("d");
  define(*d, "secret", Visibility::Private);
  auto e = std::make_unique<Module>("e");
  declare(*e, "secret", {i64()}, {i64()});
  define(*e, "fe", Visibility::Public, {"secret"});

  absl::StatusOr<LinkResult> r =
      link_with_report(modules(std::move(a), std::move(b), std::move(c), std::move(d), std::move(e)));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_THAT(function_names(*r->module), ElementsAre("log", "b.log", "fb", "fc", "d.secret", "secret", "fe"));
  EXPECT_FALSE(r->module->function("log")->is_declaration());  // a's, answering c
  EXPECT_THAT(callees(*fb), ElementsAre("b.log"));
  EXPECT_THAT(callees(*fc), ElementsAre("log"));
  EXPECT_TRUE(r->module->function("secret")->is_declaration());  // d's private answers nobody
  EXPECT_THAT(r->unresolved, ElementsAre("secret"));
}

TEST(Link, ARenamedSymbolAvoidsNamesAlreadyTaken) {
  auto a = std::make_unique<Module>("a");
  define(*a, "helper", Visibility::Private);
  define(*a, "a.helper", Visibility::Public);
  auto b = std::make_unique<Module>("b");
  define(*b, "helper", Visibility::Private);
  auto m = link(modules(std::move(a), std::move(b)));
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_THAT(function_names(**m), ElementsAre("a.helper.2", "a.helper", "b.helper"));
}

// ---- Globals ---------------------------------------------------------------------

TEST(Link, GlobalsAnswerDeclarationsAndPrivateOnesAreRenamed) {
  auto a = std::make_unique<Module>("a");
  a->globals()["limit"] = Global{"limit", i64(), Visibility::Public, false, Attribute(10)};
  a->globals()["count"] = Global{"count", i64(), Visibility::Private, true, Attribute(0)};
  a->globals()["self"] = Global{"self", i64(), Visibility::Private, false, Attribute(SymbolRef{"count"})};
  Function* fa = define(*a, "fa", Visibility::Public);
  fa->body().entry()->insert(0, Operation::create("test.load", {}, {}, {{"global", SymbolRef{"count"}}}));
  auto b = std::make_unique<Module>("b");
  b->globals()["limit"] = Global{"limit", i64(), Visibility::Extern, false, std::nullopt};
  b->globals()["count"] = Global{"count", i64(), Visibility::Private, true, Attribute(5)};
  b->globals()["tables"] = Global{"tables", i64(), Visibility::Extern, false, std::nullopt};
  Function* fb = define(*b, "fb", Visibility::Public);
  Operation* load = fb->body().entry()->insert(0, Operation::create("test.load", {}, {}, {{"global", SymbolRef{"count"}}}));

  absl::StatusOr<LinkResult> r = link_with_report(modules(std::move(a), std::move(b)));
  ASSERT_TRUE(r.ok()) << r.status();
  const auto& g = r->module->globals();
  std::vector<std::string> names;
  for (auto& [name, global] : g) {
    names.push_back(name);
    EXPECT_EQ(global.name, name);
  }
  EXPECT_THAT(names, ElementsAre("a.count", "b.count", "limit", "self", "tables"));
  EXPECT_EQ(g.at("limit").visibility, Visibility::Public);  // the definition, not b's declaration
  EXPECT_EQ(g.at("limit").initializer->as_int(), 10);
  EXPECT_EQ(g.at("b.count").initializer->as_int(), 5);
  EXPECT_TRUE(g.at("b.count").is_mutable);
  EXPECT_EQ(g.at("self").initializer->as_symbol().name, "a.count");
  EXPECT_EQ(g.at("tables").visibility, Visibility::Extern);
  EXPECT_EQ(fa->body().entry()->operations()[0]->attr("global")->as_symbol().name, "a.count");
  EXPECT_EQ(load->attr("global")->as_symbol().name, "b.count");
}

TEST(Link, GlobalClashesAndMismatchesAreRefused) {
  auto a = std::make_unique<Module>("a");
  a->globals()["g"] = Global{"g", i64(), Visibility::Public, false, Attribute(1)};
  auto b = std::make_unique<Module>("b");
  b->globals()["g"] = Global{"g", i64(), Visibility::Public, false, Attribute(2)};
  EXPECT_EQ(link_error(modules(std::move(a), std::move(b))),
            "@g is defined by two modules, 'a' and 'b'; only a private symbol is renamed");

  auto c = std::make_unique<Module>("c");
  c->globals()["g"] = Global{"g", i64(), Visibility::Public, false, Attribute(1)};
  auto d = std::make_unique<Module>("d");
  d->globals()["g"] = Global{"g", i64(), Visibility::Extern, true, std::nullopt};
  EXPECT_EQ(link_error(modules(std::move(c), std::move(d))),
            "@g is declared in module 'd' as mutable i64 but defined in module 'c' as i64");

  auto e = std::make_unique<Module>("e");
  e->globals()["h"] = Global{"h", i64(), Visibility::Public, false, Attribute(1)};
  auto f = std::make_unique<Module>("f");
  define(*f, "h", Visibility::Public);
  EXPECT_EQ(link_error(modules(std::move(e), std::move(f))),
            "@h is a global in module 'e' and a function in module 'f'");

  auto p = std::make_unique<Module>("p");
  p->globals()["h"] = Global{"h", i64(), Visibility::Public, false, Attribute(1)};
  auto q = std::make_unique<Module>("q");
  declare(*q, "h", {}, {i64()});
  EXPECT_EQ(link_error(modules(std::move(p), std::move(q))),
            "@h is declared as a function in module 'q' but defined as a global in module 'p'");
}

// ---- Through the text format ------------------------------------------------------

std::unique_ptr<Module> parse(std::string_view text) {
  absl::StatusOr<std::unique_ptr<Module>> m = parse_module(text);
  EXPECT_TRUE(m.ok()) << m.status();
  return m.ok() ? std::move(*m) : std::make_unique<Module>("unparsed");
}

TEST(Link, ParsedModulesLinkIntoOneThatVerifiesAndPrints) {
  auto main = parse(R"(ppyir 1
module @main

extern func @util_twice(i64) -> i64 attrs {ppy.external = true, ppy.qualname = "util.twice"}

func @main() -> i64 {
^entry:
    %0 = core.const 21 : i64
    %1 = core.call %0 {callee = @util_twice} : i64
    %2 = core.call %1 {callee = @helper} : i64
    core.ret %2
}

private func @helper(%x: i64) -> i64 {
^entry:
    core.ret %x
}
)");
  auto util = parse(R"(ppyir 1
module @util
dialect math 1

func @util_twice(%n: i64) -> i64 {
^entry:
    %0 = core.call %n {callee = @helper} : i64
    %1 = core.add %0, %0 {overflow = "wrap"} : i64
    core.ret %1
}

private func @helper(%x: i64) -> i64 {
^entry:
    core.ret %x
}
)");
  auto m = link(modules(std::move(main), std::move(util)), "program");
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_THAT(verify(**m), IsEmpty());
  EXPECT_EQ(print_module(**m), R"(ppyir 1
module @program
dialect core 1
dialect math 1

func @main() -> i64 {
^entry:
    %0 = core.const 21 : i64
    %1 = core.call %0 {callee = @util_twice} : i64
    %2 = core.call %1 {callee = @main.helper} : i64
    core.ret %2
}

private func @main.helper(%x: i64) -> i64 {
^entry:
    core.ret %x
}

func @util_twice(%n: i64) -> i64 {
^entry:
    %0 = core.call %n {callee = @util.helper} : i64
    %1 = core.add %0, %0 {overflow = "wrap"} : i64
    core.ret %1
}

private func @util.helper(%x: i64) -> i64 {
^entry:
    core.ret %x
}
)");
  // What it printed reads back as the same module.
  auto again = parse_module(print_module(**m));
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(print_module(**again), print_module(**m));
}

// ---- Module-level state ---------------------------------------------------------

TEST(Link, DialectsMergeAtTheHighestVersionAndAttributesFirstCome) {
  auto a = std::make_unique<Module>("a");
  a->dialects()["gpu"] = 1;
  a->attributes().set("ppy.target", "host");
  a->attributes().set("ppy.libraries", AttrArray{"m", "pthread"});
  auto b = std::make_unique<Module>("b");
  b->dialects()["gpu"] = 3;
  b->dialects()["math"] = 2;
  b->attributes().set("ppy.target", "device");
  b->attributes().set("ppy.libraries", AttrArray{"pthread", "cuda"});
  auto m = link(modules(std::move(a), std::move(b)));
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_THAT((*m)->dialects(), ElementsAre(Pair("core", 1), Pair("gpu", 3), Pair("math", 2)));
  EXPECT_EQ((*m)->attributes().get("ppy.target")->as_string(), "host");
  EXPECT_EQ(*(*m)->attributes().get("ppy.libraries"), Attribute(AttrArray{"m", "pthread", "cuda"}));
}

TEST(Link, NothingToLinkIsAnEmptyModule) {
  auto m = link(std::vector<std::unique_ptr<Module>>{}, "empty");
  ASSERT_TRUE(m.ok());
  EXPECT_EQ((*m)->name(), "empty");
  EXPECT_TRUE((*m)->functions().empty());
  EXPECT_THAT((*m)->dialects(), ElementsAre(Pair("core", 1)));
}

TEST(Link, MalformedInputIsRefused) {
  std::vector<std::unique_ptr<Module>> with_null;
  with_null.push_back(nullptr);
  EXPECT_EQ(link_error(std::move(with_null)), "link was given a null module");

  auto a = std::make_unique<Module>("a");
  define(*a, "f", Visibility::Public);
  declare(*a, "f", {i64()}, {i64()});
  EXPECT_EQ(link_error(modules(std::move(a))), "module 'a' has two symbols named @f");
}

}  // namespace
}  // namespace ppy::ir

// The canonical IR's throughput on one module of 100,000 operations: text parse
// and print, IR -> protobuf bytes and back, and the verifier. Each reports MB/s
// (of the text for the text and verify benchmarks, of the protobuf bytes for the
// proto ones and clone) and ops/s.
//
// The module is what the frontend writes for plain numeric code: many functions
// of straight-line integer and float arithmetic with constants, loads and stores,
// a compare, a cond_br to blocks with arguments, a call, and a location on every op.

#include <benchmark/benchmark.h>

#include <cstdio>
#include <memory>
#include <string>

#include "ppy/ir/ir.h"
#include "ppy/ir/proto.h"
#include "ppy/ir/text.h"
#include "ppy/ir/verifier.h"

namespace ppy::ir {
namespace {

constexpr int kTargetOps = 100000;

struct Builder {
  Block* b;
  Location loc;
  size_t* ops;

  Value* op(std::string_view name, std::vector<Value*> operands, std::vector<Type> results, AttrDict attrs = {},
            std::string hint = "") {
    ++loc.line;
    ++*ops;
    Operation* o = b->append(Operation::create(name, std::move(operands), results, std::move(attrs), loc));
    if (o->num_results() == 0) return nullptr;
    o->result()->set_hint(std::move(hint));
    return o->result();
  }
};

/// One function: about 50 ops in four blocks.
void add_function(Module& m, int k, size_t& ops) {
  Type i64 = Type::i64(), f64 = Type::f64(), p64 = Type::ptr(i64);
  std::vector<Param> params{{i64, {}, "a"}, {i64, {}, "b"}, {p64, {}, "p"}};
  auto f = std::make_unique<Function>("f" + std::to_string(k), std::move(params), std::vector<Type>{i64});
  uint32_t line = static_cast<uint32_t>(k) * 64 + 1;
  f->set_loc(Location("bench/numeric.ppy", line, 1));
  Block* entry = f->create_entry_block("entry");
  Block* then = f->body().add_block("then");
  Block* other = f->body().add_block("else");
  Block* join = f->body().add_block("join");
  Value *a = entry->argument(0), *b = entry->argument(1), *p = entry->argument(2);

  Builder e{entry, Location("bench/numeric.ppy", line, 5), &ops};
  Value* acc = e.op("core.const", {}, {i64}, {{"value", k}}, "acc");
  Value* facc = e.op("core.const", {}, {f64}, {{"value", 0.5}}, "total");
  for (int r = 0; r < 5; ++r) {
    Value* c = e.op("core.const", {}, {i64}, {{"value", r + 1}});
    Value* x = e.op("core.add", {a, c}, {i64}, {{"overflow", "wrap"}}, "x");
    Value* l = e.op("core.load", {p}, {i64});
    Value* y = e.op("core.mul", {x, l}, {i64}, {{"overflow", "checked"}});
    acc = e.op("core.sub", {acc, y}, {i64}, {{"overflow", "python"}}, "acc");
    e.op("core.store", {acc, p}, {});
    Value* fx = e.op("core.cast", {acc}, {f64});
    facc = e.op("core.add", {facc, fx}, {f64}, {}, "total");
  }
  Value* fi = e.op("core.cast", {facc}, {i64});
  acc = e.op("core.add", {acc, fi}, {i64}, {{"overflow", "wrap"}}, "acc");
  Value* cond = e.op("core.cmp", {acc, b}, {Type::i1()}, {{"predicate", "lt"}});
  e.op("core.cond_br", {cond}, {});
  entry->operations().back()->successors() = {{then, {acc}}, {other, {a}}};

  Value* t = then->add_argument(i64, "t");
  Builder tb{then, Location("bench/numeric.ppy", line + 40, 9), &ops};
  std::string callee = "f" + std::to_string(k > 0 ? k - 1 : 0);
  Value* r = tb.op("core.call", {t, b, p}, {i64}, {{"callee", SymbolRef{callee}}}, "r");
  tb.op("core.br", {}, {});
  then->operations().back()->successors() = {{join, {r}}};

  Value* ev = other->add_argument(i64, "e");
  Builder ob{other, Location("bench/numeric.ppy", line + 50, 9), &ops};
  Value* n = ob.op("core.neg", {ev}, {i64}, {{"overflow", "wrap"}});
  ob.op("core.br", {}, {});
  other->operations().back()->successors() = {{join, {n}}};

  Value* j = join->add_argument(i64, "j");
  Builder jb{join, Location("bench/numeric.ppy", line + 60, 5), &ops};
  jb.op("core.ret", {j}, {});
  m.add_function(std::move(f));
}

struct Fixture {
  std::unique_ptr<Module> module;
  size_t ops = 0;
  std::string text;   // empty until the printer links
  std::string bytes;
};

const Fixture& fixture() {
  static Fixture* fx = [] {
    auto* fx = new Fixture;
    fx->module = std::make_unique<Module>("bench");
    for (int k = 0; fx->ops < kTargetOps; ++k) add_function(*fx->module, k, fx->ops);
    fx->text = print_module(*fx->module);
    fx->bytes = to_proto_bytes(*fx->module);
    std::fprintf(stderr, "module: %zu ops, %zu functions, text %zu bytes, protobuf %zu bytes (%.1f B/op)\n", fx->ops,
                 fx->module->functions().size(), fx->text.size(), fx->bytes.size(),
                 double(fx->bytes.size()) / double(fx->ops));
    return fx;
  }();
  return *fx;
}

void report(benchmark::State& state, size_t bytes) {
  const Fixture& fx = fixture();
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes));
  state.counters["ops/s"] =
      benchmark::Counter(static_cast<double>(fx.ops), benchmark::Counter::kIsIterationInvariantRate);
}

/// Builds a module from `fx` each iteration with `read`; freeing it is not timed
/// (it costs the same whichever way the module came).
template <class Read>
void read_bench(benchmark::State& state, Read&& read, size_t bytes) {
  for (auto _ : state) {
    absl::StatusOr<std::unique_ptr<Module>> m = read();
    if (!m.ok()) {
      state.SkipWithError(std::string(m.status().message()).c_str());
      return;
    }
    benchmark::DoNotOptimize(m->get());
    state.PauseTiming();
    m->reset();
    state.ResumeTiming();
  }
  report(state, bytes);
}

void BM_TextParse(benchmark::State& state) {
  const Fixture& fx = fixture();
  read_bench(state, [&] { return parse_module(fx.text); }, fx.text.size());
}

void BM_TextPrint(benchmark::State& state) {
  const Fixture& fx = fixture();
  for (auto _ : state) {
    std::string text = print_module(*fx.module);
    benchmark::DoNotOptimize(text.data());
  }
  report(state, fx.text.size());
}

void BM_ProtoWrite(benchmark::State& state) {
  const Fixture& fx = fixture();
  for (auto _ : state) {
    std::string bytes = to_proto_bytes(*fx.module);
    benchmark::DoNotOptimize(bytes.data());
  }
  report(state, fx.bytes.size());
}

void BM_ProtoRead(benchmark::State& state) {
  const Fixture& fx = fixture();
  read_bench(state, [&] { return from_proto_bytes(fx.bytes); }, fx.bytes.size());
}

/// A deep copy of the module (what an in-process backend call costs instead of a
/// decode); MB/s counts the module's protobuf size, so it compares with the codec.
void BM_Clone(benchmark::State& state) {
  const Fixture& fx = fixture();
  for (auto _ : state) {
    std::unique_ptr<Module> m = clone(*fx.module);
    benchmark::DoNotOptimize(m.get());
    state.PauseTiming();
    m.reset();
    state.ResumeTiming();
  }
  report(state, fx.bytes.size());
}

void BM_Verify(benchmark::State& state) {
  const Fixture& fx = fixture();
  auto diags = verify(*fx.module);
  if (!diags.empty()) {
    state.SkipWithError(("the bench module does not verify: " + diags.front().str()).c_str());
    return;
  }
  for (auto _ : state) benchmark::DoNotOptimize(verify(*fx.module));
  report(state, fx.text.size());
}

BENCHMARK(BM_TextParse)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TextPrint)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ProtoWrite)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ProtoRead)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Clone)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Verify)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace ppy::ir

BENCHMARK_MAIN();

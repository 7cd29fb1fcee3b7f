// The canonical IR's throughput on one module of 100,000 operations: text parse
// and print, IR -> protobuf bytes and back, and the verifier. Each reports MB/s
// (of the text for the text and verify benchmarks, of the protobuf bytes for
// the proto ones and clone) and ops/s.
//
// The module is what the frontend writes for plain numeric code: many functions
// of straight-line integer and float arithmetic with constants, loads and
// stores, a compare, a cond_br to blocks with arguments, a call, and a location
// on every op.
//
// Memory (issue 20): the global operator new and delete are replaced here with
// counting ones, so the build, decode and clone benchmarks also report heap
// allocations per op (`allocs/op`, every iteration) and the bytes the module
// they make holds per op (`bytes/op`, the live heap the first one adds).

#include <benchmark/benchmark.h>
#include <malloc.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <new>
#include <string>
#include <type_traits>

#include "ppy/ir/ir.h"
#include "ppy/ir/proto.h"
#include "ppy/ir/text.h"
#include "ppy/ir/verifier.h"

namespace {

/// What the replaced operator new has handed out: calls, and bytes still live
/// (as malloc sized them).
std::atomic<uint64_t> g_allocs{0};
std::atomic<int64_t> g_live_bytes{0};

void* counted(void* p) {
  if (!p) throw std::bad_alloc();
  g_allocs.fetch_add(1, std::memory_order_relaxed);
  g_live_bytes.fetch_add(static_cast<int64_t>(malloc_usable_size(p)), std::memory_order_relaxed);
  return p;
}
void uncounted(void* p) {
  if (!p) return;
  g_live_bytes.fetch_sub(static_cast<int64_t>(malloc_usable_size(p)), std::memory_order_relaxed);
  std::free(p);
}
void* aligned(size_t n, std::align_val_t a) {
  size_t al = static_cast<size_t>(a);
  return std::aligned_alloc(al, (n + al - 1) / al * al);
}

}  // namespace

void* operator new(size_t n) { return counted(std::malloc(n ? n : 1)); }
void* operator new[](size_t n) { return counted(std::malloc(n ? n : 1)); }
void* operator new(size_t n, const std::nothrow_t&) noexcept {
  void* p = std::malloc(n ? n : 1);
  return p ? counted(p) : nullptr;
}
void* operator new[](size_t n, const std::nothrow_t&) noexcept {
  void* p = std::malloc(n ? n : 1);
  return p ? counted(p) : nullptr;
}
void* operator new(size_t n, std::align_val_t a) { return counted(aligned(n, a)); }
void* operator new[](size_t n, std::align_val_t a) { return counted(aligned(n, a)); }
void operator delete(void* p) noexcept { uncounted(p); }
void operator delete[](void* p) noexcept { uncounted(p); }
void operator delete(void* p, size_t) noexcept { uncounted(p); }
void operator delete[](void* p, size_t) noexcept { uncounted(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { uncounted(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { uncounted(p); }
void operator delete(void* p, std::align_val_t) noexcept { uncounted(p); }
void operator delete[](void* p, std::align_val_t) noexcept { uncounted(p); }
void operator delete(void* p, size_t, std::align_val_t) noexcept { uncounted(p); }
void operator delete[](void* p, size_t, std::align_val_t) noexcept { uncounted(p); }

namespace ppy::ir {
namespace {

constexpr int kTargetOps = 100000;

struct Builder {
  Block* b;
  Location loc;
  size_t* ops;

  /// Takes its lists as views, as Operation::create does: the allocations
  /// counted are the IR's, not this helper's.
  Value* op(std::string_view name, absl::Span<Value* const> operands, absl::Span<const Type> results,
            AttrDict attrs = {}, std::string_view hint = "") {
    ++loc.line;
    ++*ops;
    Operation* o = b->append(Operation::create(name, operands, results, std::move(attrs), loc));
    if (o->num_results() == 0) return nullptr;
    o->result()->set_hint(hint);
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
  std::string text;  // empty until the printer links
  std::string bytes;
};

const Fixture& fixture() {
  static Fixture* fx = [] {
    auto* fx = new Fixture;
    fx->module = std::make_unique<Module>("bench");
    for (int k = 0; fx->ops < kTargetOps; ++k) add_function(*fx->module, k, fx->ops);
    fx->text = print_module(*fx->module);
    fx->bytes = to_proto_bytes(*fx->module);
    std::fprintf(stderr,
                 "module: %zu ops, %zu functions, text %zu bytes, protobuf %zu "
                 "bytes (%.1f B/op)\n",
                 fx->ops, fx->module->functions().size(), fx->text.size(), fx->bytes.size(),
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

/// Heap allocations per op over the timed loop, and the live bytes per op of
/// the first module made (`first_bytes`, before any of its memory was
/// recycled).
struct AllocCount {
  uint64_t allocs_at_start = g_allocs.load();
  int64_t first_bytes = -1;

  void report(benchmark::State& state) const {
    double ops = static_cast<double>(fixture().ops) * static_cast<double>(state.iterations());
    state.counters["allocs/op"] = static_cast<double>(g_allocs.load() - allocs_at_start) / ops;
    if (first_bytes >= 0)
      state.counters["bytes/op"] = static_cast<double>(first_bytes) / static_cast<double>(fixture().ops);
  }
};

/// Makes a module each iteration with `make` (a StatusOr or a unique_ptr);
/// freeing it is not timed (it costs the same whichever way the module came).
template <class Make>
void make_bench(benchmark::State& state, Make&& make, size_t bytes) {
  fixture();
  AllocCount count;
  // The first module this process makes, whichever run of the benchmark it
  // is in: later ones may reuse memory an earlier one gave back.
  static int64_t first_bytes = -1;
  count.first_bytes = first_bytes;
  for (auto _ : state) {
    int64_t live = g_live_bytes.load();
    auto m = make();
    if constexpr (!std::is_same_v<decltype(m), std::unique_ptr<Module>>) {
      if (!m.ok()) {
        state.SkipWithError(std::string(m.status().message()).c_str());
        return;
      }
    }
    benchmark::DoNotOptimize(&*m);
    state.PauseTiming();
    if (first_bytes < 0) count.first_bytes = first_bytes = g_live_bytes.load() - live;
    if constexpr (std::is_same_v<decltype(m), std::unique_ptr<Module>>)
      m.reset();
    else
      m->reset();
    state.ResumeTiming();
  }
  // Counted after the loop: the paused timing's own allocations are few, and
  // the same for every road.
  count.report(state);
  report(state, bytes);
}

void BM_TextParse(benchmark::State& state) {
  const Fixture& fx = fixture();
  make_bench(
      state, [&] { return parse_module(fx.text); }, fx.text.size());
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
  AllocCount count;
  for (auto _ : state) {
    std::string bytes = to_proto_bytes(*fx.module);
    benchmark::DoNotOptimize(bytes.data());
  }
  count.report(state);
  report(state, fx.bytes.size());
}

void BM_ProtoRead(benchmark::State& state) {
  const Fixture& fx = fixture();
  make_bench(
      state, [&] { return from_proto_bytes(fx.bytes); }, fx.bytes.size());
}

/// Builds the module through the API a frontend uses (Operation::create,
/// append, set_hint); MB/s counts its protobuf size, as clone does.
void BM_Build(benchmark::State& state) {
  const Fixture& fx = fixture();
  make_bench(
      state,
      [] {
        auto m = std::make_unique<Module>("bench");
        size_t ops = 0;
        for (int k = 0; ops < kTargetOps; ++k) add_function(*m, k, ops);
        return m;
      },
      fx.bytes.size());
}

/// A deep copy of the module (what an in-process backend call costs instead of
/// a decode); MB/s counts the module's protobuf size, so it compares with the
/// codec.
void BM_Clone(benchmark::State& state) {
  const Fixture& fx = fixture();
  make_bench(
      state, [&] { return clone(*fx.module); }, fx.bytes.size());
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
BENCHMARK(BM_Build)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Verify)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace ppy::ir

BENCHMARK_MAIN();

// The backend host's costs, each next to a baseline measured in the same run so
// every figure reads as a ratio (issue 5, "Benchmark"):
//   baselines: fork+exec of /bin/true; a unix-socket round trip; a bare gRPC
//              helper (spawn, listen/connect, one unary call); a bare gRPC unary
//              call; a bare gRPC stream's throughput;
//   ours:      spawn + handshake + fingerprint of the toy helper (median, p95);
//              one small call; IR transfer to the helper and back; emit through
//              the helper vs the same backend in-process at 1k..1M operations.
// The summary after the run prints the ratios against the issue's targets.
// Needs the toy backend built (<build>/backends/toy/ppy-backend-toy).

#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <time.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <thread>

#include "ppy/backends/toy.h"
#include "grpcpp/grpcpp.h"
#include "ppy/backend/serve_grpc.h"
#include "ppy/backend/v1/backend.grpc.pb.h"
#include "ppy/host/discovery.h"
#include "ppy/host/handle.h"
#include "ppy/host/process.h"
#include "ppy/ir/proto.h"
#include "ppy/ir/verifier.h"
#include "ppy/util/memory.h"

namespace fs = std::filesystem;
namespace v1 = ::ppy::backend::v1;
using Clock = std::chrono::steady_clock;

namespace {

std::map<std::string, double> g_figures;  // name -> value, for the summary

fs::path build_dir() { return fs::read_symlink("/proc/self/exe").parent_path().parent_path(); }
fs::path toy_exe() { return build_dir() / "backends" / "toy" / "ppy-backend-toy"; }

ppy::host::BackendEntry toy_entry() {
  ppy::host::BackendEntry e;
  e.name = "toy";
  e.distribution = "ppy-toy";
  e.version = "0.1";
  e.manifest = build_dir() / "backends" / "toy" / "manifest.toml";
  e.executable = toy_exe();
  return e;
}

double ms(Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); }
double mb_per_s(size_t bytes, Clock::duration d) { return static_cast<double>(bytes) / 1e3 / ms(d); }

void percentiles(benchmark::State& state, std::vector<double>& samples, const std::string& key) {
  if (samples.empty()) return;
  std::sort(samples.begin(), samples.end());
  double median = samples[samples.size() / 2];
  double p95 = samples[std::min(samples.size() - 1, samples.size() * 95 / 100)];
  state.counters["median_ms"] = median;
  state.counters["p95_ms"] = p95;
  g_figures[key + " median ms"] = median;
  g_figures[key + " p95 ms"] = p95;
}

/// A module of `ops` operations: functions of at most 1000 `core.add`s each.
std::unique_ptr<ppy::ir::Module> module_of(int64_t ops) {
  using namespace ppy::ir;
  auto m = std::make_unique<Module>("bench");
  int64_t left = ops, n = 0;
  while (left > 0) {
    int64_t here = std::min<int64_t>(left, 1000);
    Function* f = m->add_function(std::make_unique<Function>(
        "f" + std::to_string(n++), std::vector<Param>{{Type::i64(), {}, "x"}}, std::vector<Type>{Type::i64()}));
    Block* b = f->create_entry_block();
    Value* v = b->argument(0);
    for (int64_t i = 0; i + 1 < here; ++i)
      v = b->append(Operation::create("core.add", {v, v}, {Type::i64()}, {{"overflow", "wrap"}}))->result();
    b->append(Operation::create("core.ret", {v}, {}));
    left -= here;
  }
  return m;
}

/// Processor time of a set of processes, read through their CPU clocks: this
/// one, or a helper with every process beneath it (a sandbox's init and the
/// helper it runs). On a shared, loaded machine wall time measures the queue
/// for a core as much as the work; what a call costs is the work of both sides.
class CpuClocks {
 public:
  /// This process.
  CpuClocks() : clocks_{CLOCK_PROCESS_CPUTIME_ID} {}
  /// `pid` and its descendants as they are now (a helper's tree is made at its
  /// start and stays).
  explicit CpuClocks(pid_t pid) { add_tree(pid); }
  double ms() const {
    double total = 0;
    for (clockid_t c : clocks_) {
      timespec ts{};
      if (clock_gettime(c, &ts) == 0) total += static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
    }
    return total;
  }
  size_t processes() const { return clocks_.size(); }

 private:
  void add_tree(pid_t pid) {
    clockid_t c;
    if (clock_getcpuclockid(pid, &c) == 0) clocks_.push_back(c);
    std::error_code ec;
    for (const auto& task : fs::directory_iterator("/proc/" + std::to_string(pid) + "/task", ec)) {
      std::ifstream children(task.path() / "children");
      for (pid_t child; children >> child;) add_tree(child);
    }
  }
  std::vector<clockid_t> clocks_;
};

// --------------------------------------------------------------------------- baselines

void BM_Baseline_ForkExecTrue(benchmark::State& state) {
  std::vector<double> samples;
  for (auto _ : state) {
    auto t0 = Clock::now();
    pid_t pid = fork();
    if (pid == 0) {
      execl("/bin/true", "true", nullptr);
      _exit(127);
    }
    waitpid(pid, nullptr, 0);
    samples.push_back(ms(Clock::now() - t0));
  }
  percentiles(state, samples, "fork+exec");
}
BENCHMARK(BM_Baseline_ForkExecTrue)->Unit(benchmark::kMillisecond)->Iterations(200);

/// What loading the helper costs before it does anything: `ppy-backend-toy --help`
/// (exec, the dynamic loader, static initialisers). Floor of any cold start.
void BM_Baseline_HelperExecOnly(benchmark::State& state) {
  std::vector<double> samples;
  for (auto _ : state) {
    auto t0 = Clock::now();
    pid_t pid = fork();
    if (pid == 0) {
      int null = open("/dev/null", O_WRONLY);
      dup2(null, 1);
      execl(toy_exe().c_str(), "ppy-backend-toy", "--help", nullptr);
      _exit(127);
    }
    waitpid(pid, nullptr, 0);
    samples.push_back(ms(Clock::now() - t0));
  }
  percentiles(state, samples, "helper exec only");
}
BENCHMARK(BM_Baseline_HelperExecOnly)->Unit(benchmark::kMillisecond)->Iterations(50);

void BM_Baseline_UnixSocketRoundTrip(benchmark::State& state) {
  int sv[2];
  socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
  std::thread echo([fd = sv[1]] {
    char buf[64];
    while (true) {
      ssize_t n = read(fd, buf, sizeof buf);
      if (n <= 0 || write(fd, buf, n) != n) break;
    }
  });
  char msg[64] = {};
  for (auto _ : state) {
    (void)!write(sv[0], msg, sizeof msg);
    size_t got = 0;
    while (got < sizeof msg) got += read(sv[0], msg + got, sizeof msg - got);
  }
  close(sv[0]);
  echo.join();
  close(sv[1]);
  g_figures["unix round trip us"] = 0;  // filled from the report below
}
BENCHMARK(BM_Baseline_UnixSocketRoundTrip)->Unit(benchmark::kMicrosecond);

/// The bare gRPC helper: spawn the toy with --socket, connect, one unary call.
void BM_Baseline_BareGrpcHelper(benchmark::State& state) {
  std::vector<double> samples;
  std::string sock = "/tmp/ppy-bench-" + std::to_string(getpid()) + ".sock";
  for (auto _ : state) {
    auto t0 = Clock::now();
    int out[2];
    if (pipe(out) != 0) return state.SkipWithError("pipe");
    pid_t pid = fork();
    if (pid == 0) {
      dup2(out[1], 1);
      execl(toy_exe().c_str(), "ppy-backend-toy", "--socket", sock.c_str(), nullptr);
      _exit(127);
    }
    close(out[1]);
    // Connect once it listens (it says so), not before: gRPC's reconnect
    // backoff would otherwise dominate.
    char c;
    while (read(out[0], &c, 1) == 1 && c != '\n') {
    }
    close(out[0]);
    auto channel = grpc::CreateCustomChannel("unix:" + sock, grpc::InsecureChannelCredentials(),
                                             ppy::backend_channel_arguments());
    auto stub = v1::Backend::NewStub(channel);
    grpc::ClientContext ctx;
    ctx.set_wait_for_ready(true);
    ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(20));
    v1::FingerprintRequest req;
    v1::FingerprintResponse resp;
    grpc::Status s = stub->Fingerprint(&ctx, req, &resp);
    samples.push_back(ms(Clock::now() - t0));
    if (!s.ok()) state.SkipWithError(s.error_message().c_str());
    state.PauseTiming();
    kill(pid, SIGKILL);
    waitpid(pid, nullptr, 0);
    state.ResumeTiming();
  }
  percentiles(state, samples, "bare gRPC helper");
}
BENCHMARK(BM_Baseline_BareGrpcHelper)->Unit(benchmark::kMillisecond)->Iterations(30);

/// A service that swallows an Invoke stream: the bare gRPC stream baseline.
class Sink final : public v1::Backend::Service {
 public:
  grpc::Status Fingerprint(grpc::ServerContext*, const v1::FingerprintRequest*, v1::FingerprintResponse* r) override {
    r->set_fingerprint("x");
    return grpc::Status::OK;
  }
  grpc::Status Invoke(grpc::ServerContext*,
                      grpc::ServerReaderWriter<v1::InvokeResponse, v1::InvokeRequest>* stream) override {
    v1::InvokeRequest req;
    while (stream->Read(&req)) {
    }
    v1::InvokeResponse done;
    done.mutable_finished();
    stream->Write(done);
    return grpc::Status::OK;
  }
};

struct BareServer {
  Sink sink;
  std::unique_ptr<grpc::Server> server;
  std::unique_ptr<v1::Backend::Stub> stub;
  BareServer() {
    std::string addr = "unix:/tmp/ppy-bench-bare-" + std::to_string(getpid()) + ".sock";
    grpc::ServerBuilder b;
    ppy::configure_server_builder(b, 8);
    b.AddListeningPort(addr, grpc::InsecureServerCredentials());
    b.RegisterService(&sink);
    server = b.BuildAndStart();
    stub = v1::Backend::NewStub(
        grpc::CreateCustomChannel(addr, grpc::InsecureChannelCredentials(), ppy::backend_channel_arguments()));
  }
};

/// Mean wall time of `call` per iteration, in microseconds.
template <class Call>
double timed_calls_us(benchmark::State& state, Call call) {
  auto t0 = Clock::now();
  for (auto _ : state) call();
  return ms(Clock::now() - t0) * 1e3 / static_cast<double>(state.iterations());
}

void BM_Baseline_BareGrpcUnary(benchmark::State& state) {
  BareServer s;
  g_figures["bare gRPC unary us"] = timed_calls_us(state, [&] {
    grpc::ClientContext ctx;
    v1::FingerprintRequest req;
    v1::FingerprintResponse resp;
    if (!s.stub->Fingerprint(&ctx, req, &resp).ok()) state.SkipWithError("call failed");
  });
}
BENCHMARK(BM_Baseline_BareGrpcUnary)->Unit(benchmark::kMicrosecond);

void BM_Baseline_BareGrpcStream(benchmark::State& state) {
  BareServer s;
  const size_t total = size_t{256} << 20;
  std::string chunk(size_t{1} << 20, 'x');
  auto t0 = Clock::now();
  for (auto _ : state) {
    grpc::ClientContext ctx;
    auto stream = s.stub->Invoke(&ctx);
    v1::InvokeRequest req;
    for (size_t sent = 0; sent < total; sent += chunk.size()) {
      req.mutable_module()->set_data(chunk);
      stream->Write(req);
    }
    stream->WritesDone();
    v1::InvokeResponse resp;
    while (stream->Read(&resp)) {
    }
    stream->Finish();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * total));
  g_figures["bare gRPC stream MB/s"] = mb_per_s(state.iterations() * total, Clock::now() - t0);
}
BENCHMARK(BM_Baseline_BareGrpcStream)->Unit(benchmark::kMillisecond)->UseRealTime();

/// The floor under any transfer: encoding and decoding the module in-process,
/// each byte once (a round trip through a helper does both on each way, and the
/// IR transfer counts each byte once per way, so the two figures compare).
void BM_Baseline_IrCodec(benchmark::State& state) {
  auto m = module_of(state.range(0));
  size_t bytes = 0;
  (void)ppy::ir::from_proto_bytes(ppy::ir::to_proto_bytes(*m));  // untimed, as the transfer's
  Clock::duration spent{};
  for (auto _ : state) {
    auto t0 = Clock::now();
    std::string b = ppy::ir::to_proto_bytes(*m);
    bytes = b.size();
    auto back = ppy::ir::from_proto_bytes(b);
    spent += Clock::now() - t0;
    benchmark::DoNotOptimize(back);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes));
  g_figures["IR codec MB/s @" + std::to_string(state.range(0)) + " ops"] = mb_per_s(state.iterations() * bytes, spent);
}
BENCHMARK(BM_Baseline_IrCodec)->Arg(1'000'000)->Iterations(3)->Unit(benchmark::kMillisecond)->UseRealTime();

/// What a helper spends rebuilding a module from its bytes against what an
/// in-process backend spends copying it: the gap the emit ratio cannot hide.
void BM_Baseline_DecodeVsClone(benchmark::State& state) {
  auto m = module_of(state.range(0));
  std::string b = ppy::ir::to_proto_bytes(*m);
  Clock::duration decode{}, copy{};
  for (auto _ : state) {
    auto t0 = Clock::now();
    auto back = ppy::ir::from_proto_bytes(b);
    auto t1 = Clock::now();
    auto c = ppy::ir::clone(*m);
    auto t2 = Clock::now();
    benchmark::DoNotOptimize(back);
    benchmark::DoNotOptimize(c);
    decode += t1 - t0;
    copy += t2 - t1;
  }
  double n = static_cast<double>(state.iterations());
  state.counters["decode_ms"] = ms(decode) / n;
  state.counters["clone_ms"] = ms(copy) / n;
  g_figures["decode/clone @" + std::to_string(state.range(0)) + " ops"] = ms(decode) / ms(copy);
}
BENCHMARK(BM_Baseline_DecodeVsClone)->Arg(10'000)->Arg(1'000'000)->Unit(benchmark::kMillisecond);

/// What the driver adds when modules come back: verifying them.
void BM_Baseline_Verify(benchmark::State& state) {
  auto m = module_of(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(ppy::ir::verify_status(*m));
}
BENCHMARK(BM_Baseline_Verify)->Arg(1'000'000)->Unit(benchmark::kMillisecond)->UseRealTime();

// --------------------------------------------------------------------------- ours

void BM_Host_ColdStart(benchmark::State& state) {
  std::vector<double> samples;
  ppy::host::BackendEntry e = toy_entry();
  ppy::host::ConnectOptions o;
  for (auto _ : state) {
    auto t0 = Clock::now();
    auto h = ppy::host::connect_backend(e, o);
    if (!h.ok()) {
      state.SkipWithError(std::string(h.status().message()).c_str());
      break;
    }
    auto fp = (*h)->fingerprint();
    samples.push_back(ms(Clock::now() - t0));
    state.PauseTiming();
    h->reset();
    state.ResumeTiming();
  }
  percentiles(state, samples, "host cold start");
}
BENCHMARK(BM_Host_ColdStart)->Unit(benchmark::kMillisecond)->Iterations(50);

/// The cold start's parts: spawn() returning (the driver's share before any
/// gRPC), and the helper serving (its first bytes on the socket, the HTTP/2
/// settings its server sends once it is up).
void host_spawn(benchmark::State& state, bool until_ready, const std::string& key) {
  std::vector<double> samples;
  ppy::host::ProcessOptions po;
  po.executable = toy_exe();
  po.sandbox = ppy::host::policy_from(toy_entry().settings);
  for (auto _ : state) {
    auto t0 = Clock::now();
    auto p = ppy::host::BackendProcess::spawn(po);
    if (!p.ok()) return state.SkipWithError(std::string(p.status().message()).c_str());
    int fd = (*p)->take_fd();
    if (until_ready) {
      pollfd pfd = {fd, POLLIN, 0};
      if (::poll(&pfd, 1, 10'000) != 1) return state.SkipWithError("the helper did not serve");
    }
    samples.push_back(ms(Clock::now() - t0));
    state.PauseTiming();
    close(fd);
    p->reset();
    state.ResumeTiming();
  }
  percentiles(state, samples, key);
}
void BM_Host_ColdStart_SpawnOnly(benchmark::State& state) { host_spawn(state, false, "host spawn only"); }
BENCHMARK(BM_Host_ColdStart_SpawnOnly)->Unit(benchmark::kMillisecond)->Iterations(50);
void BM_Host_ColdStart_HelperReady(benchmark::State& state) { host_spawn(state, true, "host helper ready"); }
BENCHMARK(BM_Host_ColdStart_HelperReady)->Unit(benchmark::kMillisecond)->Iterations(50);

void BM_Host_SmallCall(benchmark::State& state) {
  auto h = ppy::host::connect_backend(toy_entry());
  if (!h.ok()) return state.SkipWithError("no toy");
  g_figures["small call us"] = timed_calls_us(state, [&] { benchmark::DoNotOptimize((*h)->fingerprint()); });
}
BENCHMARK(BM_Host_SmallCall)->Unit(benchmark::kMicrosecond);

/// `m` to the toy helper and back (validate, return_modules, no passes), after
/// one untimed call so the helper's memory is warm, as the emit ratio's is.
/// Answers MB/s counting both ways, or 0 when a call failed.
double round_trips(benchmark::State& state, const ppy::ir::Module& m) {
  auto h = ppy::host::connect_backend(toy_entry());
  if (!h.ok()) {
    state.SkipWithError("no toy");
    return 0;
  }
  size_t bytes = ppy::ir::to_proto_bytes(m).size();
  ppy::host::Invocation inv;
  inv.action = ppy::host::Invocation::Action::Validate;
  inv.run_passes = false;
  inv.validate = false;
  inv.return_modules = true;
  inv.modules = {&m};
  (void)(*h)->invoke(inv);
  const CpuClocks driver, helper((*h)->process()->pid());
  Clock::duration spent{};
  const double cpu0 = driver.ms() + helper.ms();
  for (auto _ : state) {
    auto t0 = Clock::now();
    auto r = (*h)->invoke(inv);
    spent += Clock::now() - t0;
    if (!r.ok()) {
      state.SkipWithError(std::string(r.status().message()).c_str());
      return 0;
    }
  }
  // Both sides' processor time (the helper's includes freeing what it read).
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  const double cpu = driver.ms() + helper.ms() - cpu0;
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes * 2));
  state.counters["module_MB"] = bytes / 1e6;
  state.counters["cpu_MBps"] = static_cast<double>(state.iterations() * bytes * 2) / 1e3 / cpu;
  return mb_per_s(state.iterations() * bytes * 2, spent);
}

/// An op-heavy module: the cost is building the IR on each side.
void BM_Host_IrTransfer(benchmark::State& state) {
  auto m = module_of(state.range(0));
  g_figures["IR transfer MB/s @" + std::to_string(state.range(0)) + " ops"] = round_trips(state, *m);
}
BENCHMARK(BM_Host_IrTransfer)->Arg(1'000'000)->Iterations(3)->Unit(benchmark::kMillisecond)->UseRealTime();

/// A data-heavy module: `mib` globals of 1 MiB `buffer<u8>` constants (weights,
/// tables), the kind of module whose transfer is bytes rather than ops.
std::unique_ptr<ppy::ir::Module> data_module(int64_t mib) {
  using namespace ppy::ir;
  auto m = module_of(1000);
  for (int64_t i = 0; i < mib; ++i) {
    Global g;
    g.name = "blob" + std::to_string(i);
    g.type = Type::buffer(Type::scalar(TypeKind::U8));
    std::string blob(size_t{1} << 20, static_cast<char>('a' + i % 26));
    blob.replace(0, 8, std::to_string(10'000'000 + i));  // each distinct: the string table would share equal ones
    g.initializer = Attribute(std::move(blob));
    m->globals().emplace(g.name, std::move(g));
  }
  return m;
}

/// The protocol's bytes road, with little IR to build on either side. Compare
/// with the bare gRPC stream.
void BM_Host_DataTransfer(benchmark::State& state) {
  auto m = data_module(state.range(0));
  g_figures["data transfer MB/s"] = round_trips(state, *m);
}
BENCHMARK(BM_Host_DataTransfer)->Arg(64)->Iterations(5)->Unit(benchmark::kMillisecond)->UseRealTime();

/// Emit through the helper and in-process, alternating. The ratio is of
/// processor time: the driver's during each call, plus, for the helper's calls,
/// all the helper spent over the run (its own threads' and its tree's). Wall
/// time's ratio is beside it (wall_ratio), at the mercy of the machine's load.
void BM_Host_EmitRatio(benchmark::State& state) {
  auto helper = ppy::host::connect_backend(toy_entry());
  auto local = ppy::host::in_process_backend(ppy::toy::create_backend({}), {false, "ppy-toy", "0.1", ""});
  if (!helper.ok() || !local.ok()) return state.SkipWithError("no toy");
  auto m = module_of(state.range(0));
  ppy::host::Invocation inv;
  inv.action = ppy::host::Invocation::Action::Emit;
  inv.format = "toy";
  inv.modules = {m.get()};
  Clock::duration oop{}, inproc{};
  // One untimed call each first: both sides then run with memory they have
  // used before, as a driver and its helper do after the first module.
  (void)(*helper)->invoke(inv);
  (void)(*local)->invoke(inv);
  const CpuClocks driver, helper_tree((*helper)->process()->pid());
  double oop_cpu = 0, inproc_cpu = 0;
  const double helper0 = helper_tree.ms();
  for (auto _ : state) {
    const double c0 = driver.ms();
    auto t0 = Clock::now();
    auto a = (*helper)->invoke(inv);
    auto t1 = Clock::now();
    const double c1 = driver.ms();
    auto b = (*local)->invoke(inv);
    auto t2 = Clock::now();
    const double c2 = driver.ms();
    if (!a.ok() || !b.ok())
      return state.SkipWithError(std::string((a.ok() ? b : a).status().message()).c_str());
    oop += t1 - t0;
    inproc += t2 - t1;
    oop_cpu += c1 - c0;
    inproc_cpu += c2 - c1;
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(20));  // the helper's reaper frees the last module
  const double helper_cpu = helper_tree.ms() - helper0;
  double n = static_cast<double>(state.iterations());
  state.counters["helper_ms"] = ms(oop) / n;
  state.counters["inproc_ms"] = ms(inproc) / n;
  state.counters["wall_ratio"] = ms(oop) / ms(inproc);
  state.counters["driver_cpu_ms"] = oop_cpu / n;
  state.counters["helper_cpu_ms"] = helper_cpu / n;
  state.counters["inproc_cpu_ms"] = inproc_cpu / n;
  state.counters["ratio"] = (oop_cpu + helper_cpu) / inproc_cpu;
  g_figures["emit ratio (cpu) @" + std::to_string(state.range(0)) + " ops"] = (oop_cpu + helper_cpu) / inproc_cpu;
  g_figures["emit ratio (wall) @" + std::to_string(state.range(0)) + " ops"] = ms(oop) / ms(inproc);
}
BENCHMARK(BM_Host_EmitRatio)->Arg(1'000)->Arg(10'000)->Arg(100'000)->Unit(benchmark::kMillisecond);
// A single call of 1M is at the mercy of one page-fault storm: take three.
BENCHMARK(BM_Host_EmitRatio)->Arg(1'000'000)->Iterations(3)->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
  ppy::keep_freed_memory(ppy::Heaps::kPerThread);  // as the driver does
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  auto ratio = [](const std::string& name, const std::string& a, const std::string& b) {
    if (g_figures.count(a) && g_figures.count(b) && g_figures[b] != 0) g_figures[name] = g_figures[a] / g_figures[b];
  };
  ratio("small call / bare unary", "small call us", "bare gRPC unary us");
  ratio("data transfer / bare stream", "data transfer MB/s", "bare gRPC stream MB/s");
  ratio("cold start / bare gRPC helper", "host cold start median ms", "bare gRPC helper median ms");
  ratio("IR transfer / in-process codec @1000000 ops", "IR transfer MB/s @1000000 ops", "IR codec MB/s @1000000 ops");
  std::printf(
      "\nsummary (targets: cold start < 5 ms and below the bare gRPC helper; a small call no slower than the bare "
      "unary; transfer >= 1 GB/s; emit ratio < 1.3 @10k, < 1.1 @1M)\n");
  for (const auto& [k, v] : g_figures)
    if (v != 0) std::printf("  %-32s %10.3f\n", k.c_str(), v);
  return 0;
}

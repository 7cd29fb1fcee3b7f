// `ppy build TARGET --backend NAME`: the contract's build road.
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <random>
#include <regex>
#include <set>

#include "diagnostics.h"
#include "ppy/driver/artifact_cache.h"
#include "ppy/driver/backend_catalog.h"
#include "ppy/driver/backend_context.h"
#include "ppy/driver/commands.h"
#include "ppy/driver/compile.h"
#include "ppy/driver/output.h"
#include "ppy/util/str_cat.h"

namespace fs = std::filesystem;

namespace ppy::driver {
namespace {

/// What each LLVM-only option does, for its refusal.
std::string llvm_option_purpose(const std::string& flag, const std::string& backend) {
  static const std::map<std::string, std::string> kPurpose = {
      {"--unsafe", "it removes the runtime guards from LLVM code"},
      {"--sanitize", "it builds LLVM code with a sanitizer"},
      {"--pgo", "it optimizes LLVM code with a profile"},
      {"--prover", "it proves guards away before LLVM code generation"},
      {"--host-cpu", "it tunes LLVM code for this machine's processor"},
      {"--standalone", "it links a standalone executable from LLVM objects"},
      {"--python-extension", "it builds a CPython extension module from LLVM objects"},
      {"--library", "it builds a shared library from LLVM objects"},
      {"--report-opt", "it reports LLVM's optimization remarks"},
      {"--report-opt-json", "it reports LLVM's optimization remarks as JSON"},
      {"--warm", "it builds the artifact `ppy run` and `import ppy` take, which is the LLVM backend's"},
  };
  if (flag == "--target")
    return str_cat("it is the LLVM road's target triple; to name what backend '", backend,
                   "' builds for, set `target` in [tool.ppy.backends.", backend, "]");
  auto it = kPurpose.find(flag);
  return it == kPurpose.end() ? "it belongs to the LLVM road" : it->second;
}

/// `-o` as an absolute path without a trailing separator (`-o out/` names `out`).
fs::path output_path(const fs::path& out) {
  fs::path abs = fs::absolute(out).lexically_normal();
  return abs.has_filename() ? abs : abs.parent_path();
}

/// `.<out>.ppy-build-`: the prefix of the staging folders beside `out`.
std::string staging_prefix(const fs::path& out) {
  return str_cat(".", output_path(out).filename().string(), ".ppy-build-");
}

std::string staging_dir(const fs::path& out) {
  std::random_device rd;
  return (output_path(out).parent_path() / str_cat(staging_prefix(out), static_cast<int64_t>(getpid()), "-",
                                                   static_cast<uint64_t>(rd())))
      .string();
}

/// Removes the staging folders beside `out` left by builds that were killed
/// (SIGKILL leaves no chance to clean up): those whose process is gone. A
/// folder whose pid still runs (a concurrent build) is left alone.
void remove_stale_staging(const fs::path& out) {
  std::string prefix = staging_prefix(out);
  std::error_code ec;
  fs::directory_iterator it(output_path(out).parent_path(), ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    std::string name = it->path().filename().string();
    if (!name.starts_with(prefix)) continue;
    long pid = std::strtol(name.c_str() + prefix.size(), nullptr, 10);
    if (pid <= 0 || pid == getpid()) continue;
    if (::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH) continue;
    std::error_code rm;
    fs::remove_all(it->path(), rm);
  }
}

/// Removes the temporaries a killed build left beside the files it was writing
/// under `out` (`NAME.tmp-<pid>-<n>-<n>`, see write_file_atomic): those of the
/// files this build writes, whose process is gone.
void remove_stale_temporaries(const fs::path& out, const std::vector<ArtifactFile>& files) {
  std::map<fs::path, std::set<std::string>> by_folder;
  for (auto& f : files) {
    fs::path p = out / f.path;
    by_folder[p.parent_path()].insert(p.filename().string());
  }
  static const std::regex kTemporary(R"((.*)\.tmp-([0-9]+)-[0-9]+-[0-9]+)");
  for (auto& [folder, names] : by_folder) {
    std::error_code ec;
    fs::directory_iterator it(folder, ec), end;
    std::vector<fs::path> stale;
    for (; !ec && it != end; it.increment(ec)) {
      std::smatch m;
      std::string name = it->path().filename().string();
      if (!std::regex_match(name, m, kTemporary) || !names.count(m[1].str())) continue;
      long pid = std::strtol(m[2].str().c_str(), nullptr, 10);
      if (pid > 0 && pid != getpid() && ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH)
        stale.push_back(it->path());
    }
    for (auto& p : stale) fs::remove(p, ec);
  }
}

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), {});
}

constexpr const char* kOutputsFile = ".ppy-outputs";  // BuildResult.outputs, one a line

}  // namespace

int build(const BuildOptions& opts, Streams io) {
  for (auto& flag : opts.llvm_only)
    return fail(io.err, coded_error("E1002", str_cat(flag, " is an option of the LLVM road (",
                                                     llvm_option_purpose(flag, opts.backend), "); backend '",
                                                     opts.backend, "' does not take it")));
  auto overrides = HostOverrides::from(opts.host.sandbox, opts.host.backend_timeout_ms);
  if (!overrides.ok()) return fail(io.err, overrides.status());
  // Before anything starts; the default folder (in the project's cache) is
  // known, and checked, once the project is compiled.
  if (opts.output)
    if (auto s = check_output_location(*opts.output); !s.ok()) return fail(io.err, s);

  auto project = opts.target.ends_with(".ppyir") ? absl::StatusOr<Project>(absl::NotFoundError(""))
                                                 : load_project(opts.target);
  BackendCatalog catalog = BackendCatalog::discover();
  auto backend = catalog.load(opts.backend, project.ok() ? &*project : nullptr, *overrides);
  if (!backend.ok()) return fail(io.err, backend.status());
  io.err << sandbox_warning(**backend);
  const host::BackendInfo& info = (*backend)->info();
  if (auto s = host::require_toolchain(info, nullptr); !s.ok()) return fail(io.err, s);

  frontend::DiagnosticEngine diags;
  auto c = compile({opts.target, opts.opt_level, ir::Stage::BeforeBackend, opts.jobs, project.ok() ? &*project : nullptr}, diags);
  if (!c.ok()) return report_failure(io.err, c.status(), diags);
  auto config = backend_config(c->project ? &*c->project : nullptr, info.name);
  if (!config.ok()) return fail(io.err, config.status());
  BackendContext ctx = make_context(*c, info, *config, opts.target);
  fs::path out = opts.output ? fs::path(*opts.output) : fs::path(cache_root(*c, opts.target)) / "backends" / info.name;
  ArtifactCache cache(cache_root(*c, opts.target) + "/artifacts");
  std::string key = combined_key("build", ctx.identity);
  if (!opts.output)
    if (auto s = check_output_location(out.string()); !s.ok()) return fail(io.err, s);
  remove_stale_staging(out);  // what killed builds into this -o left behind

  std::vector<ArtifactFile> files;
  std::vector<std::string> outputs, notes;
  if (auto hit = cache.lookup(key)) {
    for (auto& f : *hit) {
      if (f.path != kOutputsFile) {
        files.push_back(std::move(f));
        continue;
      }
      for (size_t s = 0, e; (e = f.bytes.find('\n', s)) != std::string::npos; s = e + 1)
        outputs.push_back(f.bytes.substr(s, e - s));
    }
  } else {
    // The backend builds into a staging folder; only a whole build reaches -o.
    fs::path staging = staging_dir(out);
    host::Invocation inv;
    inv.action = host::Invocation::Action::Build;
    inv.context = &ctx;
    inv.modules = c->module_list();
    inv.output_dir = staging;
    auto r = (*backend)->invoke(inv);
    std::error_code ec;
    if (!r.ok()) {
      fs::remove_all(staging, ec);
      return fail(io.err, r.status());
    }
    notes = r->notes;
    for (auto& w : r->written)
      files.push_back({fs::relative(w, staging).string(), read_file(w)});
    std::string listed;
    for (auto& o : r->outputs) {
      outputs.push_back(fs::relative(o, staging).string());
      str_append(listed, outputs.back(), "\n");
    }
    fs::remove_all(staging, ec);
    auto stored = files;
    stored.push_back({kOutputsFile, listed});
    (void)cache.store(key, stored);  // a cache that cannot be written only costs time
  }
  remove_stale_temporaries(out, files);
  for (auto& f : files)
    if (auto s = write_file_atomic((out / f.path).string(), f.bytes); !s.ok()) return fail(io.err, s, 1);

  io.err << "backend:  " << info.name << "\n";
  io.err << "outputs:  " << outputs.size() << "\n";
  for (auto& o : outputs) io.out << (out / o).string() << "\n";
  for (auto& n : notes) io.err << "note: " << n << "\n";
  return 0;
}

}  // namespace ppy::driver

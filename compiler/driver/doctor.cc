// `ppy doctor` and `ppy backends`: what is installed and whether it can work here.
#include <iomanip>
#include <ostream>

#include "diagnostics.h"
#include "ppy/backend/api_version.h"
#include "ppy/driver/backend_catalog.h"
#include "ppy/driver/llvm_roads.h"
#include "ppy/driver/commands.h"
#include "ppy/driver/compile.h"
#include "ppy/driver/plugins_listing.h"
#include "ppy/host/sandbox.h"
#include "ppy/ir/text.h"
#include "ppy/util/escape.h"
#include "ppy/util/str_cat.h"

namespace ppy::driver {
namespace {

void header(std::ostream& out, std::string_view label, std::string_view value) {
  out << std::left << std::setw(18) << std::string(label) << value << "\n";
}

std::string format_names(const std::vector<EmitFormat>& formats) {
  std::string out;
  for (auto& f : formats) str_append(out, out.empty() ? "" : ", ", f.name);
  return out;
}

/// Which file an installed helper backend really runs: the manifest's
/// executable with its links resolved (a vendor's program linked into the
/// distribution's folder runs from where it lies). Empty for a builtin or a
/// remote backend.
std::string runs_line(const BackendCatalog& catalog, const std::string& name) {
  if (catalog.is_builtin(name)) return {};
  auto entry = catalog.index().lookup(name);
  if (!entry.ok() || !*entry || (*entry)->remote() || (*entry)->executable.empty()) return {};
  const host::BackendEntry& e = **entry;
  if (e.real_executable.empty()) return str_cat("runs ", e.executable.string(), " (which does not resolve to a file)");
  if (e.real_executable == e.executable) return str_cat("runs ", e.executable.string());
  return str_cat("runs ", e.real_executable.string(), " (the manifest names ", e.executable.string(),
                 ", a link to it)");
}

}  // namespace

int doctor(Streams io) {
  // It asks every builtin, the LLVM roads' too: all of it in `ppy-llvm` (when
  // that cannot be run, those builtins are listed unusable, saying why).
  (void)need_llvm_roads();
  auto search = host::backend_search_path(host::process_env(), host::running_install_prefix());
  std::string path;
  for (auto& p : search) str_append(path, path.empty() ? "" : ":", p.string());
  header(io.out, "ppy", compiler_version());
  header(io.out, "ppyir schema", std::to_string(ir::kIRSchemaVersion));
  header(io.out, "backend API", std::to_string(kBackendApiVersion));
  header(io.out, "backend path", path);
  // What each mode gives here, and what it asks for and cannot have.
  for (auto mode : {host::SandboxMode::Off, host::SandboxMode::Default, host::SandboxMode::Strict}) {
    host::SandboxPolicy policy;
    policy.mode = mode;
    header(io.out, str_cat("sandbox ", host::sandbox_mode_name(mode)), host::plan_sandbox(policy).summary());
  }

  BackendCatalog catalog = BackendCatalog::discover();
  auto project = load_project(".");
  const Project* p = project.ok() ? &*project : nullptr;
  bool all_usable = true;
  io.out << "backends:\n";
  for (auto& name : catalog.names()) {
    auto handle = catalog.load(name, p, {});
    if (!handle.ok()) {
      all_usable = false;
      io.out << "  " << std::left << std::setw(10) << name << " unusable: " << error_text(handle.status()) << "\n";
      if (std::string runs = runs_line(catalog, name); !runs.empty())
        io.out << std::string(13, ' ') << escape_control(runs) << "\n";
      continue;
    }
    const host::BackendInfo& info = (*handle)->info();
    std::string line = info.toolchain.available ? "available" : "unavailable";
    if (!info.toolchain.detail.empty()) str_append(line, ", ", info.toolchain.detail);
    if (!catalog.is_builtin(name)) str_append(line, " [", info.origin, "]");
    if (!info.toolchain.available) all_usable = false;
    io.out << "  " << std::left << std::setw(10) << name << " " << line << "\n";
    std::string emits = info.formats.empty() ? "" : str_cat("emits ", format_names(info.formats), "; ");
    // Whole: it is part of every artifact's cache key, and a vendor compares it.
    io.out << "  " << std::setw(10) << "" << " " << emits << "fingerprint " << escape_control(info.fingerprint)
           << "\n";
    if (std::string runs = runs_line(catalog, name); !runs.empty())
      io.out << std::string(13, ' ') << escape_control(runs) << "\n";
  }
  if (!catalog.index().plugins().empty()) io.out << "plugins:\n";
  print_plugins(catalog.index(), p, io.out, "  ");  // plugins_command.cc
  for (auto& problem : catalog.index().problems()) {
    all_usable = false;
    io.out << "!          " << problem << "\n";
  }
  return all_usable ? 0 : 1;
}

int list_backends(Streams io) {
  BackendCatalog catalog = BackendCatalog::discover();
  for (auto& name : catalog.names()) {
    if (catalog.is_builtin(name)) {
      io.out << std::left << std::setw(12) << name << " builtin\n";
      continue;
    }
    auto entry = catalog.index().lookup(name);
    if (!entry.ok() || !*entry) {
      io.out << std::left << std::setw(12) << name << " unusable: "
             << (entry.ok() ? std::string("not found") : error_text(entry.status())) << "\n";
      continue;
    }
    const host::BackendEntry& e = **entry;
    std::string formats, endpoints;
    for (auto& f : e.formats) str_append(formats, formats.empty() ? "" : ", ", f);
    for (auto& x : e.endpoints) str_append(endpoints, endpoints.empty() ? "" : ", ", x);
    io.out << std::left << std::setw(12) << name << " " << e.distribution << " " << e.version
           << (formats.empty() ? "" : "  formats: " + formats) << "  "
           << (e.remote() ? endpoints : e.manifest.parent_path().string()) << "\n";
  }
  for (auto& problem : catalog.index().problems()) io.out << "! " << problem << "\n";
  for (auto& note : catalog.index().shadowed_notes()) io.out << "  " << note << "\n";
  return 0;
}

}  // namespace ppy::driver

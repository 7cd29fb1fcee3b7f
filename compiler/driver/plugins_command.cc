// `ppy plugins` and the plugins part of `ppy doctor`: the plugin distributions
// discovery finds, read without starting anything (docs/writing-a-plugin.md).
#include <iomanip>
#include <ostream>

#include "ppy/driver/backend_catalog.h"
#include "ppy/driver/commands.h"
#include "ppy/driver/plugins_listing.h"
#include "ppy/project/plugins.h"
#include "ppy/util/escape.h"
#include "ppy/util/str_cat.h"

namespace ppy::driver {
namespace {

std::string joined(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) str_append(out, out.empty() ? "" : ", ", s);
  return out;
}

}  // namespace

void print_plugins(const host::ManifestIndex& index, const Project* project, std::ostream& out,
                   std::string_view indent) {
  for (const host::PluginEntry& p : index.plugins()) {
    std::vector<std::string> libs;
    for (const auto& l : p.libraries) libs.push_back(l.string());
    bool disabled = project && disabled_plugins(*project).count(p.name);
    out << indent << std::left << std::setw(12) << p.name << " " << p.distribution << " " << p.version
        << "  modules: " << (p.modules.empty() ? "(none it owns)" : joined(p.modules))
        << (disabled ? "  [disabled by the project's [tool.ppy.plugins." + p.name + "]]" : "") << "\n";
    std::string pad = str_cat(indent, std::string(13, ' '));
    out << pad << "stub " << escape_control(p.stub.string()) << "\n";
    if (!libs.empty()) out << pad << "libraries " << escape_control(joined(libs)) << "\n";
    if (!p.dialects.empty()) out << pad << "dialects " << escape_control(joined(p.dialects)) << "\n";  // @ppy.op
    if (!p.executable.empty()) {
      out << pad << "passes " << escape_control(p.executable.string());
      if (p.real_executable.empty())
        out << " (which does not resolve to a file)";
      else if (p.real_executable != p.executable)
        out << " (a link to " << escape_control(p.real_executable.string()) << ")";
      out << "\n";
    }
    out << pad << "fingerprint "
        << escape_control(plugin_fingerprint(p.distribution, p.version, p.stub.string(), libs, p.executable.string()))
        << "\n";
  }
}

int list_plugins(Streams io) {
  BackendCatalog catalog = BackendCatalog::discover();
  auto project = load_project(".");
  print_plugins(catalog.index(), project.ok() ? &*project : nullptr, io.out, "");
  if (catalog.index().plugins().empty()) io.out << "no plugins are installed\n";
  for (auto& problem : catalog.index().problems()) io.out << "! " << problem << "\n";
  for (auto& note : catalog.index().shadowed_notes()) io.out << "  " << note << "\n";
  return 0;
}

}  // namespace ppy::driver

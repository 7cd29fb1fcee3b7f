// ppy-e2e-dummy: the end-to-end tests' backend, served out of process by the SDK.
// Its behaviour comes from its table ([tool.ppy.backends.<name>]) and from its own
// arguments, which the manifest's `args` put after the driver's and which are
// removed before `ppy::serve` sees the rest:
//   --e2e-name NAME       the backend's name (default `dummy`)
//   --e2e-formats SPEC    its formats instead of dummy's: `name:suffix[:bin][:prog][:notool]`,
//                         comma-separated (an empty SPEC: no formats)
//   --e2e-touch PATH      create PATH at startup (proves the backend was started)
// Table keys (all optional):
//   sdk-version = "V"     fingerprint `dummy:V`, toolchain `dummy sdk V` (default 0)
//   toolchain = "missing" the toolchain is unavailable: `missing dummy-sdk`
//   fingerprint-file = P  the fingerprint also carries the contents of file P
//   wrong-type = true     answers bytes for a text format and text for a binary one
//   count-file = P        appends `<call> <modules>` to P for each emit/emit_program/build
//   pid-file = P          writes its pid to P when build starts
//   sleep-ms = N          build sleeps N ms after writing its first file
//   big-kb = N            build also writes big.bin, N KiB of a fixed pattern
//   exec-file = NAME      build also writes NAME, a shell script it marks executable
// Every emit, emit_program and build call notes what it saw:
//   `dummy: <call> [<modules>] opt=N target=T entry=E entry_module=M entry_symbol=S root=R table={k=v;...} ids={m=hex;...}`
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "ppy/backend/serve.h"
#include "ppy/ir/text.h"

namespace {

struct Args {
  std::string name = "dummy";
  std::optional<std::string> formats;
  std::string touch;
} args;

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (c == sep) {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

std::vector<ppy::EmitFormat> dummy_formats() {
  using ppy::EmitFormat;
  using ppy::EmitScope;
  return {
      EmitFormat{.name = "dummy", .suffix = ".dummy", .description = "a header and the module's IR"},
      EmitFormat{.name = "dummy-bin", .suffix = ".dbin", .binary = true, .description = "bytes per module"},
      EmitFormat{.name = "dummy-prog", .suffix = ".dprog", .description = "every module", .scope = EmitScope::Program},
      EmitFormat{.name = "dummy-prog-bin",
                 .suffix = ".dpbin",
                 .binary = true,
                 .description = "every module, bytes",
                 .scope = EmitScope::Program},
      EmitFormat{.name = "dummy-src", .suffix = ".dsrc", .description = "source only", .requires_toolchain = false},
  };
}

std::vector<ppy::EmitFormat> parse_formats(const std::string& spec) {
  std::vector<ppy::EmitFormat> out;
  if (spec.empty()) return out;
  for (auto& item : split(spec, ',')) {
    auto parts = split(item, ':');
    ppy::EmitFormat f;
    f.name = parts[0];
    f.suffix = parts.size() > 1 ? parts[1] : "." + parts[0];
    for (size_t i = 2; i < parts.size(); ++i) {
      if (parts[i] == "bin") f.binary = true;
      if (parts[i] == "prog") f.scope = ppy::EmitScope::Program;
      if (parts[i] == "notool") f.requires_toolchain = false;
    }
    out.push_back(f);
  }
  return out;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), {});
}

class DummyBackend : public ppy::Backend {
 public:
  using Backend::Backend;

  std::string_view name() const override { return args.name; }
  std::optional<int> api_version() const override { return 1; }

  std::string fingerprint() const override {
    std::string fp = args.name + ":" + option("sdk-version", "0");
    if (auto f = option("fingerprint-file"); !f.empty()) fp += ":" + read_text(f);
    return fp;
  }

  std::vector<ppy::EmitFormat> emit_formats() const override {
    return args.formats ? parse_formats(*args.formats) : dummy_formats();
  }

  ppy::ToolchainStatus toolchain_status() const override {
    if (option("toolchain") == "missing") return {false, "missing dummy-sdk"};
    return {true, "dummy sdk " + option("sdk-version", "0")};
  }

  absl::StatusOr<ppy::Artifact> emit(const ppy::ir::Module& module, const ppy::EmitFormat& format,
                                     ppy::BackendContext& context) const override {
    record(context, "emit " + format.name, {module.name()});
    if (format.binary) {
      std::string bytes = std::string("\x7f" "DBIN\0\xff\r\n", 9) + module.name() + std::string("\n\0\x80", 3);
      if (wrong_type()) return ppy::Artifact(bytes);
      return ppy::Artifact(ppy::Bytes{bytes});
    }
    std::string text = text_of(module, format.name, context);
    if (wrong_type()) return ppy::Artifact(ppy::Bytes{text});
    return ppy::Artifact(text);
  }

  absl::StatusOr<ppy::Artifact> emit_program(ppy::ModuleList modules, const ppy::EmitFormat& format,
                                             ppy::BackendContext& context) const override {
    std::vector<std::string> names;
    for (auto* m : modules) names.push_back(m->name());
    record(context, "emit_program " + format.name, names);
    if (format.binary) {
      std::string bytes = std::string("DPRG\0\xfe", 6) + static_cast<char>(modules.size());
      for (auto& n : names) bytes += n + std::string("\0", 1);
      if (wrong_type()) return ppy::Artifact(bytes);
      return ppy::Artifact(ppy::Bytes{bytes});
    }
    std::string text = "# " + format.name + " " + std::to_string(modules.size()) + " module(s)\n";
    for (auto* m : modules) text += text_of(*m, format.name, context);
    if (wrong_type()) return ppy::Artifact(ppy::Bytes{text});
    return ppy::Artifact(text);
  }

  absl::StatusOr<ppy::BuildResult> build(ppy::ModuleList modules, const std::filesystem::path& output_dir,
                                         ppy::BackendContext& context) const override {
    if (auto p = option("pid-file"); !p.empty()) {
      std::string tmp = p + ".tmp";
      std::ofstream(tmp) << getpid() << "\n";
      std::rename(tmp.c_str(), p.c_str());
    }
    std::vector<std::string> names;
    for (auto* m : modules) names.push_back(m->name());
    record(context, "build", names);
    ppy::BuildResult result;
    bool slept = false;
    for (auto* m : modules) {
      auto path = output_dir / (m->name() + ".dummy");
      std::ofstream(path, std::ios::binary) << text_of(*m, "build", context);
      result.outputs.push_back(path);
      if (!slept) {
        slept = true;
        if (int ms = std::atoi(option("sleep-ms", "0").c_str()); ms > 0)
          std::this_thread::sleep_for(std::chrono::milliseconds(ms));
      }
    }
    if (int kb = std::atoi(option("big-kb", "0").c_str()); kb > 0) {
      auto path = output_dir / "big.bin";
      std::ofstream out(path, std::ios::binary);
      for (int i = 0; i < kb; ++i) {
        std::string block(1024, static_cast<char>('a' + i % 26));
        out << block;
      }
      result.outputs.push_back(path);
    }
    if (auto name = option("exec-file"); !name.empty()) {
      auto path = output_dir / name;
      std::ofstream(path, std::ios::binary) << "#!/bin/sh\necho built by dummy\n";
      std::filesystem::permissions(path, std::filesystem::perms::owner_exec | std::filesystem::perms::group_exec |
                                             std::filesystem::perms::others_exec,
                                   std::filesystem::perm_options::add);
      result.outputs.push_back(path);
    }
    return result;
  }

 private:
  bool wrong_type() const { return option("wrong-type") == "true"; }

  static std::string describe(const ppy::BackendContext& context) {
    std::string table, ids;
    for (auto& [k, v] : context.backend_config) table += (table.empty() ? "" : ";") + k + "=" + v.str();
    for (auto& [m, id] : context.identity) ids += (ids.empty() ? "" : ";") + m + "=" + id;
    return "opt=" + std::to_string(context.opt_level) + " target=" + context.target +
           " entry=" + context.entry.string() + " entry_module=" + context.entry_module +
           " entry_symbol=" + context.entry_symbol + " root=" + context.root.string() + " table={" + table +
           "} ids={" + ids + "}";
  }

  void record(ppy::BackendContext& context, const std::string& call, const std::vector<std::string>& modules) const {
    std::string list;
    for (auto& n : modules) list += (list.empty() ? "" : ",") + n;
    context.note(args.name + ": " + call + " [" + list + "] " + describe(context));
    if (auto f = option("count-file"); !f.empty()) {
      std::ofstream out(f, std::ios::app);
      out << call << " " << list << "\n";
    }
  }

  std::string text_of(const ppy::ir::Module& m, const std::string& what, const ppy::BackendContext& context) const {
    auto id = context.identity.find(m.name());
    return "# " + what + " " + m.name() + " opt=" + std::to_string(context.opt_level) + " target=" + context.target +
           " fingerprint=" + fingerprint() + " id=" + (id == context.identity.end() ? "" : id->second) + "\n" +
           ppy::ir::print_module(m);
  }
};

}  // namespace

int main(int argc, char** argv) {
  std::vector<char*> rest = {argv[0]};
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--e2e-name" && i + 1 < argc) args.name = argv[++i];
    else if (a == "--e2e-formats" && i + 1 < argc) args.formats = argv[++i];
    else if (a == "--e2e-touch" && i + 1 < argc) args.touch = argv[++i];
    else rest.push_back(argv[i]);
  }
  if (!args.touch.empty()) std::ofstream(args.touch, std::ios::app) << getpid() << "\n";
  rest.push_back(nullptr);
  return ppy::serve(static_cast<int>(rest.size()) - 1, rest.data(), [](const ppy::Options& o) {
    return std::make_unique<DummyBackend>(o);
  });
}

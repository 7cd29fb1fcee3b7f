#pragma once
/// The backend contract in C++: what a backend implements, whether it is linked
/// into the driver (builtins) or served from its own process by `ppy::serve`
/// (installed backends; see `ppy/backend/serve.h`).
///
/// A vendor's backend derives from `ppy::Backend`, overrides what it supports and
/// declares its API version as a literal of its own:
///
///     class ToyBackend : public ppy::Backend {
///      public:
///       using Backend::Backend;
///       std::string_view name() const override { return "toy"; }
///       std::optional<int> api_version() const override { return 1; }  // a literal
///       ...
///     };
///
/// Every method may be called concurrently from several calls of a served
/// backend (a `--listen` server handles many at once), hence `const`.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "ppy/ir/dialect.h"
#include "ppy/ir/ir.h"
#include "ppy/ir/pass.h"

namespace ppy {

/// The SDK's own version, reported in the handshake (informative only).
inline constexpr std::string_view kSdkVersion = "ppy-sdk-cpp 0.1.0";

/// One value of a backend's configuration table (`[tool.ppy.backends.<name>]`),
/// typed as TOML types it.
class ConfigValue {
 public:
  using List = std::vector<ConfigValue>;
  using Table = std::map<std::string, ConfigValue, std::less<>>;
  using Storage = std::variant<std::string, int64_t, double, bool, List, Table>;

  ConfigValue() = default;
  ConfigValue(std::string s) : v_(std::move(s)) {}
  ConfigValue(std::string_view s) : v_(std::string(s)) {}
  ConfigValue(const char* s) : v_(std::string(s)) {}
  ConfigValue(int v) : v_(int64_t{v}) {}
  ConfigValue(int64_t v) : v_(v) {}
  ConfigValue(double v) : v_(v) {}
  ConfigValue(bool b) : v_(b) {}
  ConfigValue(List l) : v_(std::move(l)) {}
  ConfigValue(Table t) : v_(std::move(t)) {}

  const Storage& storage() const { return v_; }
  template <class T> bool is() const { return std::holds_alternative<T>(v_); }
  template <class T> const T& as() const { return std::get<T>(v_); }

  /// A string as it is; anything else in its TOML spelling (`4`, `true`,
  /// `[1, "a"]`, `{k = 1}`), so `option()` answers every key with text.
  std::string str() const;

  bool operator==(const ConfigValue&) const = default;

 private:
  Storage v_;
};

/// A backend's options: its table from the project configuration, handed to its
/// factory and to no other backend's.
using Options = ConfigValue::Table;

/// `options[key].str()`, or `fallback` when the key is absent.
std::string option(const Options& options, std::string_view key, std::string_view fallback = {});

enum class EmitScope {
  Module,   ///< asked once per module, through `emit`
  Program,  ///< asked once with every module, through `emit_program`
};

/// What `ppy emit <name>` may ask a backend for. A scope other than module or
/// program cannot be written.
struct EmitFormat {
  std::string name;    ///< `toy`
  std::string suffix;  ///< `.toy`, the file suffix `-o DIR` uses
  bool binary = false; ///< the artifact is bytes, not text
  std::string description;
  EmitScope scope = EmitScope::Module;
  /// Emitting checks `toolchain_status()` first (E1801); a format that only
  /// writes source may say false and emit without the SDK installed.
  bool requires_toolchain = true;

  bool operator==(const EmitFormat&) const = default;
};

/// Whether the backend can work here, and what `ppy doctor` prints.
struct ToolchainStatus {
  bool available = true;
  std::string detail;  ///< `toy sdk 1.4`, or why not: `missing toy-sdk`
};

/// The distribution a backend ships in (the manifest is the authority).
struct Distribution {
  std::string name;     ///< `ppy-toy`; empty for a builtin
  std::string version;  ///< `0.1`
};

/// A refusal from `validate` (the driver reports it as E1802).
struct BackendValidationError {
  std::string backend;     ///< the backend's name
  std::string what;        ///< what it cannot take: `gpu.thread_id in kern`
  std::string capability;  ///< what it lacks: `device kernels`
  std::optional<ir::Location> location;
  /// How the message ends, in the backend's own words, in place of `(needs
  /// <capability>)`; `{}` stands for the capability: `"(no {} on this card)"`,
  /// `"(tiles of 128 lanes; the loop has {})"`. Empty: `(needs {})`. The
  /// message crosses the protocol whole, so the user reads these words.
  std::string phrasing;

  /// `backend 'toy' cannot take gpu.thread_id in kern at k.ppy:3:5 (needs device kernels)`,
  /// or with `phrasing = "(no {} on this card)"`: `... at k.ppy:3:5 (no device kernels on this card)`.
  std::string message() const;
};

/// The status `validate` returns to refuse: FailedPrecondition with the code
/// E1802 (ppy/util/error.h) and the message `<error.message()>`, with the fields
/// attached so that `ppy::serve` (or the in-process host) can read them back
/// with `validation_error_of`.
absl::Status validation_error(const BackendValidationError& error);
/// The refusal a status carries, if it was made by `validation_error`.
std::optional<BackendValidationError> validation_error_of(const absl::Status& status);

/// An artifact's bytes, for a format declared binary. Text is a `std::string`.
struct Bytes {
  std::string data;
  bool operator==(const Bytes&) const = default;
};
/// What `emit` / `emit_program` answer: text (`std::string`) or `Bytes`. The
/// alternative must match the format's `binary`, or the driver refuses (E1802).
using Artifact = std::variant<std::string, Bytes>;

/// What `build` wrote.
struct BuildResult {
  /// Paths of the files written, absolute or relative to the output directory;
  /// every one lies inside it.
  std::vector<std::filesystem::path> outputs;
};

/// What a backend receives with the IR: every field the contract lists.
struct BackendContext {
  std::filesystem::path root;        ///< the project root
  std::string config;                ///< digest of the project configuration
  Options backend_config;            ///< the backend's own table
  int opt_level = 2;                 ///< -O N
  std::string target;                ///< the table's `target`, or empty
  /// The dialects the IR was verified against.
  const ir::DialectRegistry* registry = &ir::DialectRegistry::builtin();
  std::map<std::string, std::string> plugin_fingerprints;  ///< plugin -> fingerprint
  /// The entry module's file (the project's `entry`, or its one module), or the
  /// `.ppyir` given; empty for a library, which has no entry.
  std::filesystem::path entry;
  /// The entry module's name (`app.main`; the module whose functions' qualnames
  /// begin `app.main.`), in every build of a program, of sources or of a
  /// `.ppyir` (linked or not); empty for a library. A module carries no file, so
  /// this, not `entry`, is what to match modules against.
  std::string entry_module;
  /// The symbol the program starts at (a function of no parameters returning
  /// nothing): the entry module's code when it has any (`@app_main___main__`,
  /// which runs the code of the modules it imports first), else its `main()`
  /// (`@app_main_main`). Empty for a library.
  std::string entry_symbol;
  std::map<std::string, std::string> identity;  ///< module name -> artifact identity
  /// In `emit_program`: a fresh empty folder of its own for files the emit needs
  /// on the way (a linker's inputs), removed after the call, as `build` gets its
  /// output folder. Empty in the other methods.
  std::filesystem::path scratch;

  /// A remark the driver prints after the call (e.g. on `ppy build`'s stderr).
  void note(std::string text);
  /// The notes so far, in order.
  const std::vector<std::string>& notes() const { return notes_; }
  /// Called with each note as it is made (serve streams them right away).
  std::function<void(const std::string&)> on_note;

 private:
  std::vector<std::string> notes_;
};

/// Where a backend hangs its passes: the `backend` stage, and no other. There is
/// deliberately no way to name a stage: the stages before `backend` belong to the
/// shared pipeline and the plugins.
class BackendPassRegistrar {
 public:
  using Factory = std::function<std::unique_ptr<ir::Pass>()>;

  /// Hangs a pass made by `factory` at the `backend` stage; passes run in the
  /// order they are added. A factory is called once per module run.
  void add(Factory factory);
  template <class P>
  void add() {
    add([] { return std::unique_ptr<ir::Pass>(std::make_unique<P>()); });
  }

  const std::vector<Factory>& factories() const { return factories_; }

 private:
  std::vector<Factory> factories_;
};

/// The modules an `emit_program` or `build` gets, in the driver's order.
using ModuleList = std::span<const ir::Module* const>;

class Backend {
 public:
  explicit Backend(Options options = {}) : options_(std::move(options)) {}
  virtual ~Backend() = default;
  Backend(const Backend&) = delete;
  Backend& operator=(const Backend&) = delete;

  /// The name the backend is selected by (`--backend toy`).
  virtual std::string_view name() const = 0;

  /// The backend API version this backend implements, as a literal of its own.
  /// The base class declares none (nullopt) and the driver refuses a backend
  /// that declares none: an inherited version is not a declared one. A vendor's
  /// own base class may declare once for all its backends.
  virtual std::optional<int> api_version() const { return std::nullopt; }

  /// The distribution it ships in (reported in the handshake).
  virtual Distribution distribution() const { return {}; }

  /// What the distribution's version does not cover and would make an old
  /// artifact wrong: the SDK under it, a firmware revision. Part of the cache key.
  virtual std::string fingerprint() const { return {}; }

  /// The formats `ppy emit` may ask for.
  virtual std::vector<EmitFormat> emit_formats() const { return {}; }

  /// Hangs the backend's own passes at the `backend` stage.
  virtual void register_passes(BackendPassRegistrar& passes) const {}

  /// The backend's last word before it writes anything: refuse (with
  /// `validation_error`) what it cannot take, naming the op, type or function
  /// and the location. Never emit something wrongly instead.
  virtual absl::Status validate(const ir::Module& module, const BackendContext& context) const {
    return absl::OkStatus();
  }

  /// One module, for a module-scoped format. The default emits nothing
  /// (Unimplemented).
  virtual absl::StatusOr<Artifact> emit(const ir::Module& module, const EmitFormat& format,
                                        BackendContext& context) const;

  /// Every module at once, one artifact, for a program-scoped format. The
  /// default emits nothing (Unimplemented).
  virtual absl::StatusOr<Artifact> emit_program(ModuleList modules, const EmitFormat& format,
                                                BackendContext& context) const;

  /// Every module into `output_dir` (a fresh, empty folder this call may write
  /// freely; a served backend's files are streamed back to the driver, which
  /// writes them under `-o`). The default does not build (Unimplemented).
  virtual absl::StatusOr<BuildResult> build(ModuleList modules,
                                            const std::filesystem::path& output_dir,
                                            BackendContext& context) const;

  /// Whether it can work here. The default: available, no detail.
  virtual ToolchainStatus toolchain_status() const { return {}; }

  /// The options the factory was given.
  const Options& options() const { return options_; }
  /// `option(options(), key, fallback)`.
  std::string option(std::string_view key, std::string_view fallback = {}) const {
    return ppy::option(options_, key, fallback);
  }

 private:
  Options options_;
};

/// Makes a backend from its options; what `ppy::serve` is given. It may throw
/// (the message reaches the user as the load error) or answer null.
using BackendFactory = std::function<std::unique_ptr<Backend>(const Options&)>;

/// A backend pass as the handshake describes it: its name and the stage it asks
/// for (always `backend` through the registrar).
struct PassInfo {
  std::string name;
  std::string stage;
};
/// The distribution manifest (`manifest.toml`) that describes `backend` as one
/// distribution: its `[distribution]` name and version, `[backends.<name>]` with
/// `executable` (a file name beside the manifest, or a path), and a
/// `[backend-formats]` entry per format. What `ppy_add_backend` installs, printed
/// by a helper's `--print-manifest`, so the manifest cannot drift from the class.
/// InvalidArgument when the backend declares no distribution or version, or its
/// name is not one the driver accepts (letters, digits, `-`, `_`, `.`).
absl::StatusOr<std::string> manifest_toml(const Backend& backend, std::string_view executable);

/// The passes `backend` registers, instantiated once each to read their names.
std::vector<PassInfo> describe_passes(const Backend& backend);

/// One pass that ran, and whether it changed the module.
struct PassRun {
  std::string name;
  bool changed = false;
};

/// Why `run_backend_passes` failed: the status (E1904 for a pass that broke the
/// IR or failed, E1901 for IR that was invalid before any pass) and the pass.
struct PassFailure {
  absl::Status status;
  std::string pass;         ///< the pass that broke the IR or failed; empty otherwise
  bool broke_ir = false;    ///< the pass ran but left the IR invalid
};

/// Runs `backend`'s passes over `module` at the `backend` stage through
/// `ir::PassManager` (PassOwner::Backend), verifying before the first pass and
/// after every one, so a pass that leaves the IR invalid is named (E1904).
/// On success, the passes that ran; `failure` (when given) says which failed.
absl::StatusOr<std::vector<PassRun>> run_backend_passes(const Backend& backend, ir::Module& module,
                                                        const BackendContext& context,
                                                        PassFailure* failure = nullptr);

}  // namespace ppy

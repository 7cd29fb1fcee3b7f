#include "ppy/backends/toy.h"

#include <fstream>

#include "ppy/ir/text.h"
#include "ppy/util/str_cat.h"

namespace ppy::toy {

namespace {

void put_u32(std::string& out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}
void put_u64(std::string& out, uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

int64_t count_ops(const ir::Function& f) {
  int64_t n = 0;
  for (const auto& b : f.body().blocks()) n += static_cast<int64_t>(b->operations().size());
  return n;
}

}  // namespace

absl::StatusOr<bool> CountOps::run_on_function(ir::Function& f, const ir::PassContext& ctx) {
  ir::Attribute count(count_ops(f));
  const ir::Attribute* old = f.attributes().get("toy.ops");
  if (old && *old == count) return false;
  f.attributes().set("toy.ops", count);
  return true;
}

std::string ToyBackend::fingerprint() const { return str_cat("toy:", option("sdk-version", "0")); }

std::vector<EmitFormat> ToyBackend::emit_formats() const {
  return {
      EmitFormat{.name = "toy", .suffix = ".toy", .description = "each function, counted"},
      EmitFormat{.name = "toy-image",
                 .suffix = ".img",
                 .binary = true,
                 .description = "every module's toy text in one length-prefixed image",
                 .scope = EmitScope::Program},
  };
}

void ToyBackend::register_passes(BackendPassRegistrar& passes) const { passes.add<CountOps>(); }

absl::Status ToyBackend::validate(const ir::Module& module, const BackendContext& context) const {
  for (const auto& f : module.functions()) {
    const ir::Operation* gpu = nullptr;
    ir::walk(f->body(), [&](const ir::Operation& op) {
      if (!gpu && op.dialect() == "gpu") gpu = &op;
    });
    if (gpu)
      return validation_error(BackendValidationError{
          std::string(name()), str_cat(gpu->name(), " in ", f->name()), "device kernels",
          gpu->loc() ? gpu->loc() : f->loc()});
  }
  return absl::OkStatus();
}

std::string toy_text(const ir::Module& module) {
  std::string out;
  for (const auto& f : module.functions()) {
    if (f->is_declaration()) continue;
    const ir::Attribute* ops = f->attributes().get("toy.ops");
    int64_t n = ops && ops->is<int64_t>() ? ops->as_int() : count_ops(*f);
    str_append(out, "// ", f->name(), ": ", n, " operations\n", ir::print_function(*f), "\n");
  }
  return out;
}

std::string toy_image(ModuleList modules) {
  std::string out = "TOYIMG01";
  put_u32(out, static_cast<uint32_t>(modules.size()));
  for (const ir::Module* m : modules) {
    std::string text = toy_text(*m);
    put_u32(out, static_cast<uint32_t>(m->name().size()));
    out += m->name();
    put_u64(out, text.size());
    out += text;
  }
  return out;
}

absl::StatusOr<Artifact> ToyBackend::emit(const ir::Module& module, const EmitFormat& format,
                                          BackendContext& context) const {
  if (format.name != "toy") return Backend::emit(module, format, context);
  return Artifact(toy_text(module));
}

absl::StatusOr<Artifact> ToyBackend::emit_program(ModuleList modules, const EmitFormat& format,
                                                  BackendContext& context) const {
  if (format.name != "toy-image") return Backend::emit_program(modules, format, context);
  return Artifact(Bytes{toy_image(modules)});
}

absl::StatusOr<BuildResult> ToyBackend::build(ModuleList modules,
                                              const std::filesystem::path& output_dir,
                                              BackendContext& context) const {
  BuildResult result;
  for (const ir::Module* m : modules) {
    std::filesystem::path path = output_dir / (m->name() + ".toy");
    std::ofstream out(path, std::ios::binary);
    out << toy_text(*m);
    out.close();
    if (!out) return absl::InternalError(str_cat("cannot write ", path.string()));
    result.outputs.push_back(path);
  }
  context.note(str_cat("toy: built ", modules.size(), " module(s) with toy sdk ",
                       option("sdk-version", "0")));
  return result;
}

ToolchainStatus ToyBackend::toolchain_status() const {
  std::string sdk = option("sdk-version", "0");
  if (sdk == "missing") return ToolchainStatus{false, "missing toy-sdk"};
  return ToolchainStatus{true, str_cat("toy sdk ", sdk)};
}

std::unique_ptr<Backend> create_backend(const Options& options) {
  return std::make_unique<ToyBackend>(options);
}

}  // namespace ppy::toy

// Profile-guided optimization on the LLVM road: instrumenting, reading a
// profile, and linking compiler-rt's profile runtime.
#include "pgo.h"

#include "flags.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/ProfileData/InstrProfReader.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "ppy/util/error.h"
#include "ppy/util/str_cat.h"

namespace fs = std::filesystem;

namespace ppy::llvm_backend {

std::string profile_warning(const std::string& text) { return str_cat("warning[W2009]: ", text); }

std::string unreadable_profile(const std::string& path) {
  auto fs = llvm::vfs::getRealFileSystem();
  auto reader = llvm::IndexedInstrProfReader::create(path, *fs);
  if (!reader) return llvm::toString(reader.takeError());
  return "";
}

ProfileRequest profile_request(const BackendContext& context) {
  ProfileRequest r;
  r.generate = has_flag(context, "profile-generate");
  if (has_flag(context, "pgo")) {
    std::string path = flag_value(context, "pgo");
    std::string why = path.empty() ? "no file named" : unreadable_profile(path);
    if (why.empty())
      r.use = path;
    else
      r.unusable = str_cat("the profile '", path, "' cannot be used (", why,
                           "); building without it (write one with `ppy run --profile`)");
  }
  return r;
}

std::optional<llvm::PGOOptions> pgo_options(const ProfileRequest& request) {
  if (request.generate)
    // The file is named at run time by LLVM_PROFILE_FILE (`ppy run --profile` sets it).
    return llvm::PGOOptions("default.profraw", "", "", "", nullptr, llvm::PGOOptions::IRInstr);
  if (!request.use.empty())
    return llvm::PGOOptions(request.use, "", "", "", llvm::vfs::getRealFileSystem(), llvm::PGOOptions::IRUse);
  return std::nullopt;
}

std::string foreign_profile_warning(const llvm::Module& module, const std::string& path) {
  size_t defined = 0, counted = 0;
  for (const llvm::Function& f : module) {
    if (f.isDeclaration()) continue;
    ++defined;
    if (f.getEntryCount()) ++counted;
  }
  if (defined == 0 || counted > 0) return "";
  return str_cat("the profile '", path, "' has no counts for any function of module '", module.getModuleIdentifier(),
                 "' (recorded from another program, or before it changed); it is built as without a profile");
}

absl::StatusOr<std::vector<std::string>> profile_runtime_link_args() {
  const std::string major = std::to_string(LLVM_VERSION_MAJOR);
#if defined(__aarch64__)
  const std::string archive = "libclang_rt.profile-aarch64.a";
#else
  const std::string archive = "libclang_rt.profile-x86_64.a";
#endif
  for (const std::string& dir : {str_cat("/usr/lib/llvm-", major, "/lib/clang/", major, "/lib/linux"),
                                 str_cat("/usr/lib/clang/", major, "/lib/linux")})
    if (fs::exists(fs::path(dir) / archive))
      // As clang links it: the runtime's registration pulled in by name.
      return std::vector<std::string>{"-u__llvm_profile_runtime", (fs::path(dir) / archive).string()};
  return coded_error("E1801", str_cat("backend 'llvm' is unavailable for --profile: no ", archive, " of LLVM ", major,
                                      " (install libclang-rt-", major, "-dev)"));
}

}  // namespace ppy::llvm_backend

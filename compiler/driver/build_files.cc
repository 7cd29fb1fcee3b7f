#include "ppy/driver/build_files.h"

#include <utility>

#include "ppy/util/status_macros.h"
#include "ppy/util/str_cat.h"

namespace ppy::driver {
namespace {

constexpr const char* kOutputsFile = ".ppy-outputs";  // BuildResult.outputs, one a line, in the cache entry

}  // namespace

absl::StatusOr<BuiltFiles> built_files(host::BackendHandle& backend, const host::Invocation& build, BuildCache& cache,
                                       const std::string& key,
                                       const std::function<absl::Status(host::Invocation&)>& prepare) {
  const std::string& name = backend.info().name;
  BuiltFiles out;
  if (auto hit = cache.lookup(key, name, &out.source)) {
    for (auto& f : *hit) {
      if (f.path != kOutputsFile) {
        out.files.push_back(std::move(f));
        continue;
      }
      for (size_t s = 0, e; (e = f.bytes.find('\n', s)) != std::string::npos; s = e + 1)
        out.outputs.push_back(f.bytes.substr(s, e - s));
    }
    return out;
  }
  host::Invocation prepared;
  if (prepare) {
    prepared = build;
    PPY_RETURN_IF_ERROR(prepare(prepared));
  }
  PPY_ASSIGN_OR_RETURN(host::InvocationResult r, backend.invoke(prepare ? prepared : build));
  out.notes = std::move(r.notes);
  out.server = std::move(r.server);
  out.outputs = std::move(r.outputs);
  out.files.reserve(r.files.size() + 1);
  for (BuildFile& f : r.files) out.files.push_back({std::move(f.path), std::move(f.data), f.executable});
  std::string listed;
  for (const std::string& o : out.outputs) str_append(listed, o, "\n");
  // Stored with the list of outputs, which then leaves: one copy of the bytes.
  out.files.push_back({kOutputsFile, std::move(listed)});
  cache.store(key, out.files, name);
  out.files.pop_back();
  return out;
}

}  // namespace ppy::driver

#include "ppy/driver/portable_paths.h"

#include <filesystem>

namespace fs = std::filesystem;

namespace ppy::driver {
namespace {

void rewrite(std::optional<ir::Location>& loc, const std::string& root) {
  if (!loc || !loc->file) return;
  std::string rel = under_root(*loc->file, root);
  if (rel != *loc->file) loc = ir::Location(rel, loc->line, loc->col);
}

void rewrite_ops(ir::Region& region, const std::string& root) {
  for (auto& b : region.blocks())
    for (auto& op : b->operations()) {
      std::optional<ir::Location> loc = op->loc();
      rewrite(loc, root);
      op->set_loc(loc);
      for (auto& r : op->regions()) rewrite_ops(*r, root);
    }
}

}  // namespace

std::string under_root(const std::string& path, const std::string& root) {
  if (path.empty() || root.empty()) return path;
  fs::path p = fs::path(path).lexically_normal(), r = fs::path(root).lexically_normal();
  if (p.is_absolute() != r.is_absolute()) return path;
  fs::path rel = p.lexically_relative(r);
  if (rel.empty() || *rel.begin() == "..") return path;  // outside the project
  return rel.generic_string();
}

void make_locations_portable(ir::Module& m, const std::string& root) {
  for (auto& f : m.functions()) {
    std::optional<ir::Location> loc = f->loc();
    rewrite(loc, root);
    f->set_loc(loc);
    rewrite_ops(f->body(), root);
  }
}

}  // namespace ppy::driver

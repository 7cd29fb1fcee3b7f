// Copy coalescing: a branch argument and the block argument it is passed to
// share one variable where neither is live where the other is assigned, so the
// edge needs no copy (SSA out of SSA, as a register allocator coalesces).

#include <map>
#include <set>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "ppy/backends/source/values.h"

namespace ppy::backends::source {
namespace {

/// Where a value is assigned: the op's index in its block, -1 for a block
/// argument (assigned on the edges into the block).
struct Site {
  const ir::Block* block = nullptr;
  int pos = -1;
};

}  // namespace

void FunctionValues::coalesce_copies(const ir::Function& f) {
  const auto& blocks = f.body().blocks();
  // The variables each written op reads where it is written (an inlined
  // expression is read where its user is), and where each value is assigned.
  std::unordered_map<const ir::Block*, std::vector<std::set<const ir::Value*>>> reads;
  std::unordered_map<const ir::Block*, std::vector<const ir::Block*>> succs;
  std::unordered_map<const ir::Value*, Site> site;
  for (auto& b : blocks) {
    for (auto& a : b->arguments()) site[a.get()] = {b.get(), -1};
    const auto& ops = b->operations();
    auto& r = reads[b.get()];
    r.resize(ops.size());
    for (size_t i = 0; i < ops.size(); ++i) {
      const ir::Operation& op = *ops[i];
      for (auto& res : op.results()) site[&res] = {b.get(), static_cast<int>(i)};
      if (!is_statement(op) && i + 1 != ops.size()) continue;
      for (const ir::Value* v : op.operands()) variables_read(v, r[i]);
      for (auto& s : op.successors()) {
        for (const ir::Value* v : s.args) variables_read(v, r[i]);
        succs[b.get()].push_back(s.block);
      }
    }
  }
  // Live variables at each block's end, to a fixed point.
  std::unordered_map<const ir::Block*, std::set<const ir::Value*>> live_in, live_out;
  for (bool changed = true; changed;) {
    changed = false;
    for (auto b = blocks.rbegin(); b != blocks.rend(); ++b) {
      const ir::Block* blk = b->get();
      std::set<const ir::Value*> live;
      for (const ir::Block* s : succs[blk]) live.insert(live_in[s].begin(), live_in[s].end());
      live_out[blk] = live;
      const auto& ops = blk->operations();
      for (size_t i = ops.size(); i-- > 0;) {
        for (auto& res : ops[i]->results()) live.erase(&res);
        live.insert(reads[blk][i].begin(), reads[blk][i].end());
      }
      for (auto& a : blk->arguments()) live.erase(a.get());
      if (live != live_in[blk]) {
        live_in[blk] = std::move(live);
        changed = true;
      }
    }
  }
  // Whether `x` is still to be read right after `at` is assigned.
  auto live_after = [&](const ir::Value* x, Site at) {
    const Site& sx = site.at(x);
    const auto& r = reads[at.block];
    for (int i = at.pos + 1; i < static_cast<int>(r.size()); ++i) {
      if (sx.block == at.block && sx.pos == i) return false;  // not assigned yet
      if (r[i].count(x)) return true;
    }
    return live_out[at.block].count(x) != 0;
  };
  auto interfere = [&](const ir::Value* a, const ir::Value* b) {
    return live_after(a, site.at(b)) || live_after(b, site.at(a));
  };
  // A parameter names its group (it keeps its source name), else the block
  // argument passed to.
  // On a tie, the one assigned first.
  const ir::Block* entry = f.body().entry();
  std::unordered_map<const ir::Block*, int> order;
  for (auto& b : blocks) order.emplace(b.get(), static_cast<int>(order.size()));
  auto rank = [&](const ir::Value* v) {
    const Site& s = site.at(v);
    return std::tuple(v->arg_owner() == entry ? 0 : v->arg_owner() ? 1 : 2, order.at(s.block), s.pos);
  };
  std::map<const ir::Value*, std::vector<const ir::Value*>> members;
  auto group = [&](const ir::Value* l) -> std::vector<const ir::Value*>& {
    auto& m = members[l];
    if (m.empty()) m.push_back(l);
    return m;
  };
  for (auto& b : blocks) {
    if (b->operations().empty()) continue;
    for (auto& s : b->operations().back()->successors()) {
      for (size_t k = 0; k < s.args.size() && k < s.block->num_arguments(); ++k) {
        const ir::Value* from = s.args[k];
        const ir::Value* to = s.block->argument(k);
        if (inlined(from) || is_slot(from) || !site.count(from) || from->type() != to->type()) continue;
        const ir::Value* lf = leader(from);
        const ir::Value* lt = leader(to);
        if (lf == lt) continue;
        auto& gf = group(lf);
        auto& gt = group(lt);
        bool clash = false;
        for (const ir::Value* x : gf)
          for (const ir::Value* y : gt) clash = clash || interfere(x, y);
        if (clash) continue;
        const ir::Value* keep = rank(lf) < rank(lt) ? lf : lt;
        const ir::Value* gone = keep == lf ? lt : lf;
        auto moved = std::move(members[gone]);
        members.erase(gone);
        for (const ir::Value* v : moved) {
          leader_[v] = keep;
          members[keep].push_back(v);
        }
        leader_.erase(keep);
      }
    }
  }
}

}  // namespace ppy::backends::source

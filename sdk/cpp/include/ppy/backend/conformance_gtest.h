#pragma once
/// The conformance checks as a GoogleTest assertion, for a vendor's own tests:
///
///     TEST(MyBackend, Conforms) { ppy::conformance::expect_conformance(make_backend); }
///
/// Link PpySdk::conformance and GTest. Each failed check is one failure, saying
/// what was expected and what came back.

#include "gtest/gtest.h"
#include "ppy/backend/conformance.h"

namespace ppy::conformance {

inline void expect_conformance(BackendFactory factory, const Settings& settings = {}) {
  for (const Check& check : run_conformance_in_process(std::move(factory), settings))
    if (check.failed()) ADD_FAILURE() << check.line();
}

}  // namespace ppy::conformance

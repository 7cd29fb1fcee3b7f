#pragma once
// The sample program the conformance checks send, to a backend (conformance.cc)
// and to a plugin's passes (plugin_conformance.cc). Internal to the SDK's
// conformance library.

namespace ppy::conformance::samples {

/// The program every emit and build is asked for: two modules as the frontend
/// lowers `app.py` (`from lib import f`) and `lib.py`. Each public symbol is
/// `<module>_<function>`, and `app` reaches `lib`'s function through a
/// declaration, so a program-scoped backend may link them (`ppy/ir/linker.h`).
inline constexpr char kApp[] = R"(ppyir 1
module @app
dialect core 1

func @app_main() -> () attrs {ppy.qualname = "app.main"} loc("app.ppy":4:0) {
^entry:
    %0 = core.const 21 : i64
    %1 = core.call %0 {callee = @lib_f} : i64
    core.ret
}

extern func @lib_f(i64) -> i64 attrs {ppy.external = true, ppy.qualname = "lib.f"}
)";
inline constexpr char kLib[] = R"(ppyir 1
module @lib
dialect core 1

func @lib_f(%x: i64) -> i64 attrs {ppy.qualname = "lib.f"} loc("lib.ppy":1:0) {
^entry:
    %0 = core.add %x, %x {overflow = "wrap"} : i64
    core.ret %0
}
)";

}  // namespace ppy::conformance::samples

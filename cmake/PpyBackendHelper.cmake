# Backend helpers are started once per compile, so their start-up is on every
# build's critical path; the dynamic loader resolving ~60 gRPC/protobuf/absl
# libraries was most of it. PPY_STATIC_HELPERS links them against the static
# archives instead, and the C++ runtime, as a non-PIE (ppy_static_link.cmake).
option(PPY_STATIC_HELPERS "Link backend helper executables against static gRPC/protobuf/absl archives" ON)
set(_ppy_static_link ${CMAKE_CURRENT_LIST_DIR}/ppy_static_link.cmake)
if(PPY_STATIC_HELPERS)
  find_library(PPY_GRPCXX_ARCHIVE libgrpc++.a)
  find_library(PPY_PROTOBUF_ARCHIVE libprotobuf.a)
  find_library(PPY_ABSL_BASE_ARCHIVE libabsl_base.a)
  if(NOT PPY_GRPCXX_ARCHIVE OR NOT PPY_PROTOBUF_ARCHIVE OR NOT PPY_ABSL_BASE_ARCHIVE)
    message(STATUS "PPY_STATIC_HELPERS: no static gRPC/protobuf/absl archives; helpers link dynamically")
    set(PPY_STATIC_HELPERS OFF)
  endif()
endif()

# ppy_backend_helper(TARGET): marks an executable that calls ppy::serve as a
# helper: linked statically as above, when possible.
function(ppy_backend_helper target)
  if(NOT PPY_STATIC_HELPERS)
    return()
  endif()
  # The link line is only known at build time (imported targets name the .so
  # files), so a launcher swaps each library for its archive there.
  string(REPLACE ";" ":" _dirs "${CMAKE_CXX_IMPLICIT_LINK_DIRECTORIES}")
  set_property(TARGET ${target} PROPERTY CXX_LINKER_LAUNCHER
               ${CMAKE_COMMAND} -DPPY_LINK_DIRS=${_dirs} -P ${_ppy_static_link} --)
  target_link_options(${target} PRIVATE -Wl,--as-needed -Wl,-O1)
endfunction()

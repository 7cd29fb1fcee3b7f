# ppy_component(NAME DIR DEPS...): a library from DIR/*.cc (tests excluded) and,
# when DIR has any *_test.cc, a GoogleTest binary NAME_test registered with ctest.
# Folders of components glob their sources so adding a file needs no CMake edit.
function(ppy_component name dir)
  file(GLOB _srcs CONFIGURE_DEPENDS ${dir}/*.cc)
  file(GLOB _tests CONFIGURE_DEPENDS ${dir}/*_test.cc)
  list(FILTER _srcs EXCLUDE REGEX "(_test|_main|_fuzz)\\.cc$")
  if(NOT _srcs)  # a header-only component (or one still being written)
    set(_srcs ${CMAKE_CURRENT_BINARY_DIR}/${name}_empty.cc)
    file(WRITE ${_srcs} "// no sources\n")
  endif()
  add_library(${name} STATIC ${_srcs})
  target_link_libraries(${name} PUBLIC ${ARGN})
  target_compile_options(${name} PRIVATE -Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers)
  if(_tests)
    add_executable(${name}_test ${_tests})
    target_link_libraries(${name}_test PRIVATE ${name} GTest::gtest GTest::gmock GTest::gtest_main)
    target_compile_definitions(${name}_test PRIVATE PPY_SOURCE_DIR="${PROJECT_SOURCE_DIR}" PPY_BINARY_DIR="${PROJECT_BINARY_DIR}")
    gtest_discover_tests(${name}_test DISCOVERY_TIMEOUT 60 PROPERTIES TIMEOUT 300)
  endif()
endfunction()

# Adds every subfolder of the current folder that has a CMakeLists.txt: a top
# folder (compiler/, backend-host/, ...) is the list of its components.
function(ppy_add_components)
  file(GLOB _children LIST_DIRECTORIES true CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*)
  foreach(_child ${_children})
    if(EXISTS ${_child}/CMakeLists.txt)
      add_subdirectory(${_child})
    endif()
  endforeach()
endfunction()

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

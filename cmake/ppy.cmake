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

# ppy_backend_helper(TARGET): the fast link of a backend helper (installed with
# the SDK's CMake package, which uses it for ppy_add_backend).
include(${CMAKE_CURRENT_LIST_DIR}/PpyBackendHelper.cmake)

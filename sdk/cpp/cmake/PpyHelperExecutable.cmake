# What ppy_add_backend (PpyAddBackend.cmake) and ppy_add_plugin
# (PpyAddPlugin.cmake) share: where a distribution goes, and the helper
# executable each builds from its SOURCES, linked to the SDK the way ppy's own
# helpers are (static gRPC, protobuf and Abseil: see PpyBackendHelper.cmake).
if(NOT COMMAND ppy_backend_helper)  # ppy's own tree defines it (cmake/ppy.cmake)
  include(${CMAKE_CURRENT_LIST_DIR}/PpyBackendHelper.cmake)
endif()
set(PPY_BACKEND_DESTINATION lib/ppy/backends CACHE STRING
    "Where `cmake --install` puts each backend's distribution folder: relative to the prefix, or absolute")

# _ppy_helper_arguments(<function> <target> <what> <dir-var> <strip> <NAME> <SOURCES> <UNPARSED>)
# Checks a helper function's arguments (SOURCES given, nothing unknown) and
# sets <dir-var> to the distribution's folder name: NAME, or the target's name
# without the leading <strip> (`ppy-backend-`, `ppy-plugin-`).
function(_ppy_helper_arguments function target what dir_var strip name sources unparsed)
  if(NOT sources)
    message(FATAL_ERROR "${function}(${target}): give the ${what}'s SOURCES")
  endif()
  if(unparsed)
    message(FATAL_ERROR "${function}(${target}): unknown arguments ${unparsed}")
  endif()
  if(NOT name)
    string(REGEX REPLACE "^${strip}" "" name ${target})
  endif()
  set(${dir_var} ${name} PARENT_SCOPE)
endfunction()

# _ppy_helper_executable(<target> <dist> <source>...): the executable, built
# into the distribution's folder <dist> in the build tree.
function(_ppy_helper_executable target dist)
  add_executable(${target} ${ARGN})
  # Inside ppy's own tree the SDK is its targets; elsewhere the installed package's.
  if(TARGET PpySdk::sdk)
    target_link_libraries(${target} PRIVATE PpySdk::sdk)
  else()
    target_link_libraries(${target} PRIVATE ppy_backend_sdk)
  endif()
  set_target_properties(${target} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${dist})
  ppy_backend_helper(${target})
endfunction()

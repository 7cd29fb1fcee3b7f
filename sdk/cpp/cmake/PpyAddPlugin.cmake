# ppy_add_plugin(<target> SOURCES <file>... [NAME <dir>] [MODULES <module>...]
#                [STUB <file.pyi>] [LIBRARIES <shared-library-target>...]
#                [DIALECTS <dialect>...] [OUTPUT_DIR <folder>] [WITH_BACKEND <backend-target>]
#                [NO_INSTALL])
#
# A plugin's pass server: an executable from SOURCES (one of them calls
# ppy::serve with a plugin factory from main) linked to PpySdk::sdk the way
# backend helpers are. After each link the server prints its manifest
# (`--print-manifest`: [distribution] and [plugins.<name>] with `executable`,
# from the plugin class), and this function adds what only the build knows:
# `modules` (MODULES), `stub` (STUB, copied beside the manifest) and
# `libraries` (LIBRARIES: shared-library targets, built into lib/ beside it).
# In the build tree the distribution is <OUTPUT_DIR> (default
# <build>/backends/<dir>, so PPY_BACKEND_PATH=<build>/backends finds it);
# `cmake --install` puts it in <PPY_BACKEND_DESTINATION>/<dir>/ (plugins and
# backends share one search path). <dir> defaults to the target's name without
# a leading `ppy-plugin-`. NO_INSTALL: a build-tree plugin only (tests).
# WITH_BACKEND: a plugin shipped with a backend of ppy_add_backend (a device
# library and its backend): one distribution, one folder (the backend's), one
# manifest with both the [backends.<name>] and the [plugins.<name>] tables; the
# two classes must declare the same distribution.
# DIALECTS: the dialects the plugin registers (`dialects`; its stub's
# `@ppy.op("<dialect>.<op>")`s); with WITH_BACKEND the backend's table declares
# them too, so that backend, and no other, takes their ops.
include(${CMAKE_CURRENT_LIST_DIR}/PpyHelperExecutable.cmake)
set(_ppy_plugin_manifest ${CMAKE_CURRENT_LIST_DIR}/ppy_plugin_manifest.cmake)

# <out> = a TOML array of the strings in ARGN: ["a", "b"].
function(_ppy_toml_strings out)
  list(TRANSFORM ARGN PREPEND "\"" OUTPUT_VARIABLE _quoted)
  list(TRANSFORM _quoted APPEND "\"")
  list(JOIN _quoted ", " _list)
  set(${out} "[${_list}]" PARENT_SCOPE)
endfunction()

function(ppy_add_plugin target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "NO_INSTALL" "NAME;STUB;OUTPUT_DIR;WITH_BACKEND" "SOURCES;MODULES;LIBRARIES;DIALECTS")
  _ppy_helper_arguments(ppy_add_plugin ${target} "pass server" dir "ppy-plugin-" "${arg_NAME}" "${arg_SOURCES}"
                        "${arg_UNPARSED_ARGUMENTS}")
  set(dist ${arg_OUTPUT_DIR})
  set(backend_arg "")
  if(arg_WITH_BACKEND)
    get_target_property(dist ${arg_WITH_BACKEND} RUNTIME_OUTPUT_DIRECTORY)
    set(backend_arg -DBACKEND=$<TARGET_FILE:${arg_WITH_BACKEND}>)
  endif()
  if(NOT dist)
    set(dist ${CMAKE_BINARY_DIR}/backends/${dir})
  endif()
  _ppy_helper_executable(${target} ${dist} ${arg_SOURCES})
  if(arg_WITH_BACKEND)
    add_dependencies(${target} ${arg_WITH_BACKEND})  # its manifest is written first, then completed
  endif()

  # The lines the build adds to the [plugins.<name>] table the server prints.
  set(extra "")
  if(arg_MODULES)
    _ppy_toml_strings(_list ${arg_MODULES})
    string(APPEND extra "modules = ${_list}\n")
  endif()
  if(arg_STUB)
    get_filename_component(_stub ${arg_STUB} ABSOLUTE)
    get_filename_component(_stub_name ${arg_STUB} NAME)
    configure_file(${_stub} ${dist}/${_stub_name} COPYONLY)
    string(APPEND extra "stub = \"${_stub_name}\"\n")
    if(NOT arg_NO_INSTALL)
      install(FILES ${_stub} DESTINATION ${PPY_BACKEND_DESTINATION}/${dir})
    endif()
  endif()
  if(arg_LIBRARIES)
    set(_libs "")
    foreach(lib ${arg_LIBRARIES})
      set_target_properties(${lib} PROPERTIES LIBRARY_OUTPUT_DIRECTORY ${dist}/lib)
      list(APPEND _libs "lib/$<TARGET_FILE_NAME:${lib}>")
      add_dependencies(${target} ${lib})
      if(NOT arg_NO_INSTALL)
        install(TARGETS ${lib} LIBRARY DESTINATION ${PPY_BACKEND_DESTINATION}/${dir}/lib)
      endif()
    endforeach()
    _ppy_toml_strings(_list ${_libs})
    string(APPEND extra "libraries = ${_list}\n")
  endif()
  set(backend_extra "")
  if(arg_DIALECTS)
    _ppy_toml_strings(_list ${arg_DIALECTS})
    string(APPEND extra "dialects = ${_list}\n")
    string(APPEND backend_extra "dialects = ${_list}\n")
  endif()
  file(GENERATE OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/${target}.manifest-extra CONTENT "${extra}")
  file(GENERATE OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/${target}.manifest-backend-extra CONTENT "${backend_extra}")
  add_custom_command(TARGET ${target} POST_BUILD
    COMMAND ${CMAKE_COMMAND} -DHELPER=$<TARGET_FILE:${target}> -DOUT=${dist}/manifest.toml
            -DEXTRA=${CMAKE_CURRENT_BINARY_DIR}/${target}.manifest-extra
            -DBACKEND_EXTRA=${CMAKE_CURRENT_BINARY_DIR}/${target}.manifest-backend-extra ${backend_arg}
            -P ${_ppy_plugin_manifest}
    COMMENT "manifest.toml of ${target}" VERBATIM)
  if(NOT arg_NO_INSTALL)
    install(TARGETS ${target} RUNTIME DESTINATION ${PPY_BACKEND_DESTINATION}/${dir})
    install(FILES ${dist}/manifest.toml DESTINATION ${PPY_BACKEND_DESTINATION}/${dir})
  endif()
endfunction()

# ppy_add_backend(<target> SOURCES <file>... [NAME <dir>])
#
# A backend helper: an executable from SOURCES (one of them calls ppy::serve from
# main) linked to PpySdk::sdk the way ppy's own helpers are (static gRPC,
# protobuf and Abseil, not position-independent: see PpyBackendHelper.cmake).
# After each link the helper prints its manifest (`--print-manifest`), so the
# distribution's name, version and formats come from the backend class. In the
# build tree the distribution is <build>/backends/<dir>/ (so PPY_BACKEND_PATH=
# <build>/backends finds it); `cmake --install` puts it in
# <PPY_BACKEND_DESTINATION>/<dir>/: by default <prefix>/lib/ppy/backends, where
# a ppy installed in that prefix looks. <dir> defaults to the target's name
# without a leading `ppy-backend-`.
#
# Without write access to ppy's prefix, install into a prefix of your own and
# name its folder on PPY_BACKEND_PATH, or into the user's data folder, where
# every ppy looks last (docs/writing-a-backend.md, "Installing"):
#   cmake --install build --prefix /opt/vendor   # PPY_BACKEND_PATH=/opt/vendor/lib/ppy/backends
#   cmake -B build -DPPY_BACKEND_DESTINATION=$HOME/.local/share/ppy/backends && cmake --install build
include(${CMAKE_CURRENT_LIST_DIR}/PpyHelperExecutable.cmake)
set(_ppy_print_manifest ${CMAKE_CURRENT_LIST_DIR}/ppy_print_manifest.cmake)

function(ppy_add_backend target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "NAME" "SOURCES")
  _ppy_helper_arguments(ppy_add_backend ${target} helper dir "ppy-backend-" "${arg_NAME}" "${arg_SOURCES}"
                        "${arg_UNPARSED_ARGUMENTS}")
  set(dist ${CMAKE_BINARY_DIR}/backends/${dir})
  _ppy_helper_executable(${target} ${dist} ${arg_SOURCES})
  add_custom_command(TARGET ${target} POST_BUILD
    COMMAND ${CMAKE_COMMAND} -DHELPER=$<TARGET_FILE:${target}> -DOUT=${dist}/manifest.toml
            -P ${_ppy_print_manifest}
    COMMENT "manifest.toml of ${target}" VERBATIM)
  install(TARGETS ${target} RUNTIME DESTINATION ${PPY_BACKEND_DESTINATION}/${dir})
  install(FILES ${dist}/manifest.toml DESTINATION ${PPY_BACKEND_DESTINATION}/${dir})
endfunction()

# cmake -DHELPER=<pass server> -DOUT=<manifest.toml> -DEXTRA=<file> [-DBACKEND=<backend helper>]
#       [-DBACKEND_EXTRA=<file>] -P ppy_plugin_manifest.cmake
# Writes what `<server> --print-manifest` prints (its [plugins.<name>] table
# last) followed by the lines in EXTRA (modules, stub, libraries), which so
# belong to that table; or fails saying why. With BACKEND (a plugin shipped with
# a backend, one distribution): the backend's manifest first, then the plugin's
# table; the two classes must declare the same distribution; the lines in
# BACKEND_EXTRA (the plugin's dialects) go into the backend's table.
function(_ppy_print helper out)
  execute_process(COMMAND ${helper} --print-manifest OUTPUT_VARIABLE _toml ERROR_VARIABLE _err RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "${helper} --print-manifest failed (${_rc}): ${_err}")
  endif()
  set(${out} "${_toml}" PARENT_SCOPE)
endfunction()

_ppy_print(${HELPER} _toml)
file(READ ${EXTRA} _extra)
if(BACKEND)
  _ppy_print(${BACKEND} _backend)
  string(REGEX MATCH "\\[distribution\\]\nname = [^\n]*\nversion = [^\n]*\n" _plugin_dist "${_toml}")
  string(REGEX MATCH "\\[distribution\\]\nname = [^\n]*\nversion = [^\n]*\n" _backend_dist "${_backend}")
  if(NOT _plugin_dist STREQUAL _backend_dist)
    message(FATAL_ERROR "${HELPER} and ${BACKEND} declare different distributions:\n${_plugin_dist}\n${_backend_dist}")
  endif()
  if(BACKEND_EXTRA)
    file(READ ${BACKEND_EXTRA} _backend_extra)
    if(_backend_extra)
      string(REGEX REPLACE "(\\[backends\\.[^\n]*\n)" "\\1${_backend_extra}" _backend "${_backend}")
    endif()
  endif()
  string(FIND "${_toml}" "[plugins." _at)
  string(SUBSTRING "${_toml}" ${_at} -1 _table)
  set(_toml "${_backend}\n${_table}")
endif()
file(WRITE ${OUT}.tmp "${_toml}${_extra}")
file(RENAME ${OUT}.tmp ${OUT})

# cmake -DHELPER=<pass server> -DOUT=<manifest.toml> -DEXTRA=<file> -P ppy_plugin_manifest.cmake
# Writes what `<server> --print-manifest` prints (its [plugins.<name>] table
# last) followed by the lines in EXTRA (modules, stub, libraries), which so
# belong to that table; or fails saying why.
execute_process(COMMAND ${HELPER} --print-manifest
                OUTPUT_VARIABLE _toml ERROR_VARIABLE _err RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "${HELPER} --print-manifest failed (${_rc}): ${_err}")
endif()
file(READ ${EXTRA} _extra)
file(WRITE ${OUT}.tmp "${_toml}${_extra}")
file(RENAME ${OUT}.tmp ${OUT})

# cmake -DHELPER=<helper> -DOUT=<manifest.toml> -P ppy_print_manifest.cmake
# Writes what `<helper> --print-manifest` prints to OUT, or fails saying why
# (a backend that declares no distribution, a factory that throws).
execute_process(COMMAND ${HELPER} --print-manifest
                OUTPUT_VARIABLE _toml ERROR_VARIABLE _err RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "${HELPER} --print-manifest failed (${_rc}): ${_err}")
endif()
file(WRITE ${OUT}.tmp "${_toml}")
file(RENAME ${OUT}.tmp ${OUT})

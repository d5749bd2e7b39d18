# validate/predictions.json must equal what the analyzer writes now.
file(MAKE_DIRECTORY "${WORK_DIR}")
execute_process(
  COMMAND "${PYTHON}" "${SOURCE_DIR}/validate/report.py" --tool "${TOOL}"
          --write-predictions "${WORK_DIR}/predictions.json" --out "${WORK_DIR}"
  RESULT_VARIABLE rc OUTPUT_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "report.py failed (${rc})")
endif()
file(READ "${WORK_DIR}/predictions.json" now)
file(READ "${SOURCE_DIR}/validate/predictions.json" committed)
if(NOT now STREQUAL committed)
  message(FATAL_ERROR "validate/predictions.json is out of date: run "
    "`python3 validate/report.py --write-predictions validate/predictions.json` "
    "(diff ${WORK_DIR}/predictions.json validate/predictions.json)")
endif()

# Configures and builds validate/ (the CUDA pattern kernels and their runner)
# with nvcc. Exit 77 (skipped) when there is no nvcc.
find_program(NVCC nvcc HINTS /usr/local/cuda/bin ENV CUDA_PATH PATH_SUFFIXES bin)
if(NOT NVCC)
  message("no nvcc: skipped")
  cmake_language(EXIT 77)
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" -S "${SOURCE_DIR}" -B "${BUILD_DIR}"
                        -DCMAKE_CUDA_COMPILER=${NVCC} -DCMAKE_BUILD_TYPE=Release
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configuring validate/ failed")
endif()
include(ProcessorCount)
ProcessorCount(jobs)
execute_process(COMMAND "${CMAKE_COMMAND}" --build "${BUILD_DIR}" -j ${jobs}
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "building validate/ failed")
endif()

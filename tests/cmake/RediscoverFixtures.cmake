# Run by ctest before it reads the fixture tests (a TEST_INCLUDE_FILES
# script; see tests/CMakeLists.txt). gtest_discover_tests(... PRE_TEST) only
# lists the tests again when the test binary is newer than its cached list,
# so a fixture added after the build would not become a test. This compares
# the fixture files with those of the last listing and, when they differ,
# removes the cached list so that ctest lists them again.
#
# Set by the caller: CAL_FIXTURES_DIR_DEFAULT, CAL_TESTS_BINARY_DIR.
set(dir "${CAL_FIXTURES_DIR_DEFAULT}")
if(DEFINED ENV{CAL_FIXTURES_DIR})
  set(dir "$ENV{CAL_FIXTURES_DIR}")
endif()
file(GLOB_RECURSE fixtures RELATIVE "${dir}" "${dir}/*.cu")
list(SORT fixtures)
set(now "${dir}|${fixtures}")
set(stamp "${CAL_TESTS_BINARY_DIR}/cal_fixture_tests.fixtures")
set(before "")
if(EXISTS "${stamp}")
  file(READ "${stamp}" before)
endif()
if(NOT before STREQUAL now)
  file(GLOB stale "${CAL_TESTS_BINARY_DIR}/cal_fixture_tests*_tests.cmake")
  if(stale)
    file(REMOVE ${stale})
  endif()
  file(WRITE "${stamp}" "${now}")
endif()

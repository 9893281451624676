# What every lanehost CMake project (native/, affinity-native/) shares: the C dialect and warnings, the
# platform directory bundled libraries are installed into, which must match
# NativeLibraryLoader.platform() on the Java side, and the private C helpers in c-common/include.
# Include it right after project().
set(CMAKE_C_STANDARD 11)
set(CMAKE_C_STANDARD_REQUIRED ON)
set(CMAKE_C_EXTENSIONS OFF)
set(CMAKE_C_VISIBILITY_PRESET hidden)
set(CMAKE_POSITION_INDEPENDENT_CODE ON)
if(NOT CMAKE_BUILD_TYPE)
  set(CMAKE_BUILD_TYPE Release)
endif()
# The two errors are C's; a project that adds C++ (native/'s header test) gets the warnings only.
add_compile_options(-Wall -Wextra
                    "$<$<COMPILE_LANGUAGE:C>:-Werror=implicit-function-declaration;-Werror=incompatible-pointer-types>")

# Bundled libraries live under <prefix>/<platform>/, e.g. linux-x86_64.
string(TOLOWER "${CMAKE_SYSTEM_NAME}-${CMAKE_SYSTEM_PROCESSOR}" LANEHOST_PLATFORM)
string(REPLACE "amd64" "x86_64" LANEHOST_PLATFORM "${LANEHOST_PLATFORM}")
string(REPLACE "arm64" "aarch64" LANEHOST_PLATFORM "${LANEHOST_PLATFORM}")

# Private helpers every library compiles in (constant_report.h: the name/value report Java checks its
# mirrors against). Never installed: each library exports its own functions built on them.
set(LANEHOST_C_COMMON_INCLUDE "${CMAKE_CURRENT_LIST_DIR}/../include")
include_directories(${LANEHOST_C_COMMON_INCLUDE})

# The C tests' assertions (check.h), shared so both projects' tests read alike.
set(LANEHOST_C_TEST_INCLUDE "${CMAKE_CURRENT_LIST_DIR}/../test")

# The C tests of the shared helpers; one project (native/) adds them, after enable_testing().
function(lanehost_add_common_tests)
  add_executable(test_constant_report ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/../test/test_constant_report.c)
  target_include_directories(test_constant_report PRIVATE ${LANEHOST_C_TEST_INCLUDE})
  add_test(NAME test_constant_report COMMAND test_constant_report)
endfunction()

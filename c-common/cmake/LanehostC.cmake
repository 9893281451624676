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

# A test that cannot run here, registered anyway as one that prints why: CTest counts it skipped, never passed.
function(lanehost_skipped_test name reason)
  message(STATUS "${PROJECT_NAME}: skipping ${name}: ${reason}")
  add_test(NAME ${name} COMMAND ${CMAKE_COMMAND} -E echo "SKIPPED: ${reason}")
  set_tests_properties(${name} PROPERTIES SKIP_REGULAR_EXPRESSION "^SKIPPED: ")
endfunction()

# ---- linux-aarch64 beside the host's platform ----
# The jars bundle both linux-x86_64 and linux-aarch64 libraries. On an x86_64 build machine the project builds
# itself a second time, cross-compiled for aarch64 (Debian: gcc-aarch64-linux-gnu, and g++-aarch64-linux-gnu for
# the C++ tests) through linux-aarch64.toolchain.cmake, into <build>/linux-aarch64: only the LIBRARIES the project
# installs and the TESTS (C) and CXX_TESTS (C++) named, each a target run with no arguments. `cmake --install`
# installs that build's product beside the host's (<prefix>/linux-aarch64/), and CTest runs the named tests under
# qemu-aarch64-static (qemu-user-static) as linux-aarch64/<test>. A missing package skips what needs it, with the
# reason (a warning at configure time, a skipped test in CTest's summary). -DLANEHOST_AARCH64=OFF builds the host's
# platform only; on an aarch64 machine (or inside the cross build itself) this does nothing.
option(LANEHOST_AARCH64 "Cross-compile the linux-aarch64 libraries too and test them under qemu" ON)
function(lanehost_add_aarch64_build)
  cmake_parse_arguments(PARSE_ARGV 0 CROSS "" "" "LIBRARIES;TESTS;CXX_TESTS;CMAKE_ARGS")
  if(CMAKE_CROSSCOMPILING OR NOT LANEHOST_AARCH64 OR NOT LANEHOST_PLATFORM STREQUAL "linux-x86_64")
    return()
  endif()
  set(tests)
  foreach(test IN LISTS CROSS_TESTS CROSS_CXX_TESTS)
    list(APPEND tests linux-aarch64/${test})
  endforeach()
  find_program(LANEHOST_AARCH64_GCC aarch64-linux-gnu-gcc)
  if(NOT LANEHOST_AARCH64_GCC)
    set(reason "aarch64-linux-gnu-gcc is not installed (apt-get install gcc-aarch64-linux-gnu), so the jar gets no linux-aarch64 libraries")
    message(WARNING "${PROJECT_NAME}: ${reason}")
    foreach(test IN LISTS tests)
      lanehost_skipped_test(${test} "${reason}")
    endforeach()
    return()
  endif()
  find_program(LANEHOST_AARCH64_GXX aarch64-linux-gnu-g++)
  set(targets ${CROSS_LIBRARIES} ${CROSS_TESTS})
  if(LANEHOST_AARCH64_GXX)
    list(APPEND targets ${CROSS_CXX_TESTS})
  else()
    list(APPEND CROSS_CMAKE_ARGS -DLANEHOST_CXX_TEST=OFF)
    foreach(test IN LISTS CROSS_CXX_TESTS)
      lanehost_skipped_test(linux-aarch64/${test} "aarch64-linux-gnu-g++ is not installed (apt-get install g++-aarch64-linux-gnu)")
      list(REMOVE_ITEM tests linux-aarch64/${test})
    endforeach()
  endif()
  set(directory ${CMAKE_BINARY_DIR}/linux-aarch64)
  if(CMAKE_GENERATOR MATCHES "Makefiles")
    set(build $(MAKE) ${targets}) # shares the jobserver of the host build's make: --parallel 2 stays 2
  else()
    set(build ${CMAKE_COMMAND} --build ${directory} --target ${targets})
  endif()
  include(ExternalProject)
  ExternalProject_Add(linux_aarch64
    SOURCE_DIR ${CMAKE_CURRENT_SOURCE_DIR}
    BINARY_DIR ${directory}
    CMAKE_ARGS -DCMAKE_TOOLCHAIN_FILE=${CMAKE_CURRENT_FUNCTION_LIST_DIR}/linux-aarch64.toolchain.cmake
               -DCMAKE_BUILD_TYPE=${CMAKE_BUILD_TYPE} -DLANEHOST_TSAN=OFF -DLANEHOST_UBSAN=OFF ${CROSS_CMAKE_ARGS}
    BUILD_COMMAND ${build}
    BUILD_ALWAYS ON # the cross build's own make decides what is out of date
    INSTALL_COMMAND "")
  install(CODE "execute_process(COMMAND \"${CMAKE_COMMAND}\" --install \"${directory}\" --prefix \"\${CMAKE_INSTALL_PREFIX}\"
                                COMMAND_ERROR_IS_FATAL ANY)")
  find_program(LANEHOST_QEMU_AARCH64 qemu-aarch64-static)
  foreach(test IN LISTS tests)
    string(REPLACE "linux-aarch64/" "" program ${test})
    if(LANEHOST_QEMU_AARCH64)
      add_test(NAME ${test} COMMAND ${LANEHOST_QEMU_AARCH64} -L /usr/aarch64-linux-gnu ${directory}/${program})
    else()
      lanehost_skipped_test(${test} "qemu-aarch64-static is not installed (apt-get install qemu-user-static); built, not run")
    endif()
  endforeach()
endfunction()

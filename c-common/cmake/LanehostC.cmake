# What every lanehost CMake project (native/, affinity-native/) shares: the C dialect and warnings, and
# the platform directory bundled libraries are installed into, which must match
# NativeLibraryLoader.platform() on the Java side. Include it right after project().
set(CMAKE_C_STANDARD 11)
set(CMAKE_C_STANDARD_REQUIRED ON)
set(CMAKE_C_EXTENSIONS OFF)
set(CMAKE_C_VISIBILITY_PRESET hidden)
set(CMAKE_POSITION_INDEPENDENT_CODE ON)
if(NOT CMAKE_BUILD_TYPE)
  set(CMAKE_BUILD_TYPE Release)
endif()
add_compile_options(-Wall -Wextra -Werror=implicit-function-declaration -Werror=incompatible-pointer-types)

# Bundled libraries live under <prefix>/<platform>/, e.g. linux-x86_64.
string(TOLOWER "${CMAKE_SYSTEM_NAME}-${CMAKE_SYSTEM_PROCESSOR}" LANEHOST_PLATFORM)
string(REPLACE "amd64" "x86_64" LANEHOST_PLATFORM "${LANEHOST_PLATFORM}")
string(REPLACE "arm64" "aarch64" LANEHOST_PLATFORM "${LANEHOST_PLATFORM}")

# The C tests' assertions (check.h), shared so both projects' tests read alike.
set(LANEHOST_C_TEST_INCLUDE "${CMAKE_CURRENT_LIST_DIR}/../test")

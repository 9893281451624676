/**
 * The C ABI for hosts, seen from Java: {@link dev.lanehost.nativeabi.LanehostLibrary} binds
 * {@code liblanehost} ({@code lanehost.h}), and {@link dev.lanehost.nativeabi.TestHost} binds the
 * test-host library of foreign pthreads used by tests, samples and benchmarks. ({@code native} is a
 * Java keyword, hence {@code nativeabi}.) Both libraries are built by CMake in this module and bundled
 * in its jar; {@link dev.lanehost.nativeloader.NativeLibraryLoader} loads them.
 */
package dev.lanehost.nativeabi;

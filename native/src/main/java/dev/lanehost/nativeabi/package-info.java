/**
 * The C ABI for hosts, seen from Java: {@link dev.lanehost.nativeabi.LanehostLibrary} binds
 * {@code liblanehost} ({@code lanehost.h}). ({@code native} is a Java keyword, hence {@code nativeabi}.)
 * The library is built by CMake in this module and bundled in its jar;
 * {@link dev.lanehost.nativeloader.NativeLibraryLoader} loads it. The test host of foreign pthreads used by
 * tests, samples and benchmarks is test code of this module ({@code dev.lanehost.testhost} in its test-jar),
 * never part of the jar.
 *
 * <p>A C program can also come in first: {@code liblanehost_embed} ({@code lanehost_embed.h}) starts the JVM
 * in the program's process, runs the program's {@link dev.lanehost.nativeabi.HostSetup} against a new runtime
 * and {@link dev.lanehost.nativeabi.HostAbi}, and hands the program that host ABI's function table.
 */
package dev.lanehost.nativeabi;

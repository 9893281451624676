/**
 * The test host, seen from Java: {@link dev.lanehost.testhost.TestHost} binds {@code liblanehost_testhost}
 * ({@code lanehost_testhost.h}), pthreads Java never created that move ring bytes, make upcalls and gate
 * calls, and fuzz a host function table. Both are test code of {@code lanehost-native}: CMake builds the
 * library as a test-only target installed into the test classes, never into the product jar, and this
 * package and the library are shared with other modules' tests through the module's test-jar.
 */
package dev.lanehost.testhost;

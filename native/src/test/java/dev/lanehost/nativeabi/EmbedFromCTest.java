package dev.lanehost.nativeabi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lanehost.testsupport.ChildJvm;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The C-first way in, for real: test_embed (a C program built by CMake, {@code native/src/test/c/test_embed.c})
 * starts a JVM through liblanehost_embed in a child process, with this JDK and this test's class path, and
 * drives lanes and calls gates from its own main thread. Each test runs one scenario; the program checks the
 * statuses and results itself, and this test checks its exit code, the sentences it printed, and that HotSpot's
 * JNI checker ({@code -Xcheck:jni}) found nothing to warn about.
 */
class EmbedFromCTest {
    private static final Path PROGRAM = Path.of(System.getProperty("lanehost.cmake.dir", "target/cmake"), "test_embed");
    private static final String SETUPS = EmbedSetups.class.getName() + "$";
    /** A JVM start and a few calls; far above what a loaded machine needs, so only a hang reaches it. */
    private static final long DEADLINE_SECONDS = 120;

    private record Run(int exitCode, String output) {
    }

    private static Run run(String scenario) throws IOException, InterruptedException {
        assertTrue(Files.isExecutable(PROGRAM), PROGRAM + " is built by CMake with this module; it is missing");
        String javaHome = System.getProperty("java.home");
        File output = Files.createTempFile("test_embed-" + scenario, ".txt").toFile();
        try {
            ProcessBuilder builder = new ProcessBuilder(PROGRAM.toString(), scenario, javaHome,
                    ChildJvm.classPath())
                    .redirectErrorStream(true)
                    .redirectOutput(output);
            builder.environment().put("JAVA_HOME", javaHome); // the drive scenario takes the JDK from here
            // HotSpot's JNI checker reports a JNI call made with an exception pending, a leaked local frame...
            builder.environment().put("JAVA_TOOL_OPTIONS", "-Xcheck:jni");
            Process process = builder.start();
            if (!process.waitFor(DEADLINE_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
                throw new AssertionError("test_embed " + scenario + " did not finish in " + DEADLINE_SECONDS + " s:\n"
                        + Files.readString(output.toPath(), StandardCharsets.UTF_8));
            }
            return new Run(process.exitValue(), Files.readString(output.toPath(), StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(output.toPath());
        }
    }

    private static String passes(String scenario) throws IOException, InterruptedException {
        Run run = run(scenario);
        assertEquals(0, run.exitCode(), "test_embed " + scenario + " failed:\n" + run.output());
        assertFalse(run.output().contains("WARNING in native method"), "-Xcheck:jni found a misuse:\n" + run.output());
        assertTrue(run.output().contains("ok   " + scenario), run.output());
        // Every scenario ends like a host should: lanehost_embed_shutdown, after which nothing starts.
        assertContains(run.output(), "start after the shutdown: CLOSED lanehost_embed_shutdown ");
        return run.output();
    }

    private static void assertContains(String output, String expected) {
        assertTrue(output.contains(expected), "expected '" + expected + "' in:\n" + output);
    }

    @Test
    void aCProgramDrivesALaneAndCallsGatesFromItsOwnLoop() throws Exception {
        String output = passes("drive");
        assertContains(output, "start Frames: OK \n");
        assertContains(output, "start after the shutdown: CLOSED lanehost_embed_shutdown ended this process's JVM");
    }

    @Test
    void anUnknownSetupClassIsAnInvalidArgumentAndTheJvmStaysUsable() throws Exception {
        String output = passes("unknown-setup");
        assertContains(output, "start no.such.Setup: INVALID_ARGUMENT the setup class no.such.Setup is not on the class path");
        assertContains(output, "start Frames again: OK");
    }

    @Test
    void aSetupThatThrowsIsACallbackFailureWithTheExceptionsClassAndMessage() throws Exception {
        String output = passes("throwing-setup");
        assertContains(output, "start Throwing: CALLBACK_FAILED the setup class " + SETUPS
                + "Throwing threw java.lang.IllegalStateException: setup refuses on purpose");
        assertContains(output, "start Frames again: OK");
    }

    @Test
    void aConstructorThatThrowsIsACallbackFailure() throws Exception {
        String output = passes("throwing-constructor");
        assertContains(output, "start ThrowingConstructor: CALLBACK_FAILED the constructor of the setup class " + SETUPS
                + "ThrowingConstructor threw java.lang.UnsupportedOperationException: constructor refuses on purpose");
        assertContains(output, "EmbedSetups$ThrowingConstructor.<init>("); // its stack trace, on stderr, as a setup's
    }

    @Test
    void anExceptionWhoseMessageThrowsIsReportedByItsClass() throws Exception {
        String output = passes("unreadable-message");
        assertContains(output, "start ThrowingUnreadably: CALLBACK_FAILED the setup class " + SETUPS
                + "ThrowingUnreadably threw " + SETUPS + "Unreadable: (its getMessage() threw "
                + "java.lang.UnsupportedOperationException)");
        assertContains(output, "start Frames again: OK");
    }

    @Test
    void aClassThatCannotBeASetupIsAnInvalidArgument() throws Exception {
        String output = passes("not-a-setup");
        assertContains(output, "start NotASetup: INVALID_ARGUMENT the setup class " + SETUPS
                + "NotASetup does not implement dev.lanehost.nativeabi.HostSetup");
        assertContains(output, "start NoPublicConstructor: INVALID_ARGUMENT the setup class " + SETUPS
                + "NoPublicConstructor has no public no-argument constructor");
    }

    @Test
    void aClassPathWithoutLanehostIsAnInvalidArgumentThatSaysSo() throws Exception {
        String output = passes("no-lanehost");
        assertContains(output, "start without lanehost: INVALID_ARGUMENT dev.lanehost.nativeabi.EmbeddedRuntime cannot be "
                + "loaded (java.lang.ClassNotFoundException: dev.lanehost.nativeabi.EmbeddedRuntime): the class path must "
                + "hold lanehost-native");
    }

    @Test
    void aSecondStartMustAskForTheSameJvm() throws Exception {
        String output = passes("second-configuration");
        assertContains(output, "start another class path: INVALID_ARGUMENT the JVM of this process already runs with "
                + "another class path or other options");
        assertContains(output, "start other JVM options: INVALID_ARGUMENT");
        assertContains(output, "start Frames, same class path: OK");
        assertContains(output, "shutdown with a runtime started: 1 runtime(s) are started or starting");
    }

    @Test
    void aJvmTheHostStartedItselfIsUsedButNotShutDown() throws Exception {
        Run run = run("running-jvm");
        assertEquals(0, run.exitCode(), "test_embed running-jvm failed:\n" + run.output());
        assertFalse(run.output().contains("WARNING in native method"), "-Xcheck:jni found a misuse:\n" + run.output());
        assertContains(run.output(), "start the host's JVM with a class path: INVALID_ARGUMENT a JVM lanehost did not start "
                + "already runs in this process");
        assertContains(run.output(), "start the host's JVM: OK");
        assertContains(run.output(), "shutdown of the host's JVM: lanehost_embed did not start this process's JVM; its owner ends it");
        assertContains(run.output(), "ok   running-jvm");
    }

    @Test
    void aJvmOptionTheJvmRefusesIsAnInvalidArgumentAndTheProcessGetsOneAttempt() throws Exception {
        String output = passes("refused-jvm-option");
        assertContains(output, "start an unknown JVM option: INVALID_ARGUMENT the JVM refused one of its options "
                + "(-Djava.class.path=");
        assertContains(output, " --enable-native-access=ALL-UNNAMED -XX:+NoSuchLanehostFlag); its message is on stderr");
        assertContains(output, "start corrected: CLOSED creating this process's JVM failed earlier and is not tried twice");
        assertContains(output, "start after the shutdown: CLOSED lanehost_embed_shutdown was called before any JVM started");
    }
}

package dev.lanehost.nativeabi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lanehost.callgate.CallStatus;
import dev.lanehost.testsupport.ChildJvm;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Why every host entry catches everything: the same throwing handler, called from a C pthread, ends the JVM
 * behind a raw FFM upcall stub and is answered {@code CALLBACK_FAILED} behind the host function table. Both
 * run in a child JVM ({@link UpcallContainmentChild}), never in this one.
 */
class UpcallContainmentTest {
    private static final long CHILD_DEADLINE_SECONDS = 120;

    @TempDir
    Path directory;

    @Test
    void anExceptionEscapingARawUpcallStubEndsTheJvm() throws Exception {
        Child child = run("raw");
        assertNotEquals(0, child.exitCode(), "the child's exit code; its output:\n" + child.output());
        assertTrue(child.output().contains(UpcallContainmentChild.FAILURE), "the JVM prints the exception:\n" + child.output());
        assertFalse(child.output().contains(UpcallContainmentChild.SURVIVED), child.output());
    }

    @Test
    void theSameExceptionBehindTheTableIsCallbackFailedAndTheJvmCarriesOn() throws Exception {
        Child child = run("table");
        assertEquals(0, child.exitCode(), "the child's exit code; its output:\n" + child.output());
        String expected = UpcallContainmentChild.TABLE_ANSWER + CallStatus.CALLBACK_FAILED + " (" + CallStatus.CALLBACK_FAILED.code() + ")";
        assertTrue(child.output().contains(expected), "expected '" + expected + "' in:\n" + child.output());
    }

    private record Child(int exitCode, String output) {
    }

    /** Runs the child with this JVM's java binary and test classpath; its output goes to a file, so a hung child cannot block the read. */
    private Child run(String mode) throws IOException, InterruptedException {
        Path output = directory.resolve(mode + ".out");
        Process process = new ProcessBuilder(List.of(ChildJvm.java(), "--enable-native-access=ALL-UNNAMED", "-Xmx256m",
                "-cp", ChildJvm.classPath(), UpcallContainmentChild.class.getName(), mode))
                .redirectErrorStream(true)
                .redirectOutput(output.toFile())
                .start();
        if (!process.waitFor(CHILD_DEADLINE_SECONDS, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
            throw new AssertionError("the '" + mode + "' child did not end within " + CHILD_DEADLINE_SECONDS + " s; its output:\n"
                    + Files.readString(output, StandardCharsets.UTF_8));
        }
        return new Child(process.exitValue(), Files.readString(output, StandardCharsets.UTF_8));
    }
}

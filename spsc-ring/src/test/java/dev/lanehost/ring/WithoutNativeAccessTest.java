package dev.lanehost.ring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lanehost.testsupport.ChildJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A ring in a JVM that did not grant native access: it must still move long pieces (with {@code MemorySegment.copy})
 * and make no restricted call, so the JDK prints no warning. The tests' own JVM has native access, so a child runs
 * without it.
 */
class WithoutNativeAccessTest {
    @Test
    void aRingWithoutNativeAccessMovesLongPiecesAndMakesTheJdkWarnOfNothing(@TempDir Path dir) throws Exception {
        Path output = dir.resolve("output.txt");
        // No --enable-native-access: the JDK's default then warns on the first restricted call, to stderr.
        Process child = new ProcessBuilder(ChildJvm.java(), "-ea", "-cp", ChildJvm.classPath(),
                WithoutNativeAccessProgram.class.getName())
                .redirectErrorStream(true).redirectOutput(output.toFile()).start();
        assertTrue(child.waitFor(60, TimeUnit.SECONDS), "child JVM did not finish");
        String printed = Files.readString(output);
        assertEquals(0, child.exitValue(), printed);
        assertTrue(printed.contains("copiesLongPiecesNatively=false"), printed);
        assertTrue(printed.contains("40 long pieces moved intact"), printed);
        assertFalse(printed.contains("WARNING"), printed);
    }
}

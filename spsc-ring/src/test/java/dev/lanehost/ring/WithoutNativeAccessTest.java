package dev.lanehost.ring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lanehost.testsupport.ChildJvm;
import java.nio.file.Path;
import java.util.List;
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
        // No --enable-native-access: the JDK's default then warns on the first restricted call, to stderr.
        ChildJvm.Finished child = ChildJvm.run(List.of(ChildJvm.java(), "-ea", "-cp", ChildJvm.classPath(),
                WithoutNativeAccessProgram.class.getName()), dir.resolve("output.txt"));
        String printed = child.printed();
        assertEquals(0, child.exitCode(), printed);
        assertTrue(printed.contains("copiesLongPiecesNatively=false"), printed);
        assertTrue(printed.contains("40 long pieces moved intact"), printed);
        assertFalse(printed.contains("WARNING"), printed);
    }
}

package dev.lanehost.ring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.lanehost.testsupport.ChildJvm;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A JVM where membarrier(2) is refused, as a seccomp filter refuses it: {@code awaitReadable} says to poll instead,
 * announces nothing, and polling moves every byte. The filter holds for the whole process and cannot be lifted, so
 * a child installs it on itself; test_ring_membarrier_refused checks the same in C.
 */
class MembarrierRefusedTest {
    @Test
    void aWaitWhereMembarrierIsRefusedSaysToPollAndPollingMovesEveryByte(@TempDir Path dir) throws Exception {
        assumeTrue(SystemCall.number(0, 0) >= 0, "seccomp filters are Linux's, on x86-64, aarch64 or riscv64");
        ChildJvm.Finished child = ChildJvm.run(List.of(ChildJvm.java(), "-ea", "--enable-native-access=ALL-UNNAMED",
                "-cp", ChildJvm.classPath(), MembarrierRefusedProgram.class.getName()), dir.resolve("output.txt"));
        String printed = child.printed();
        assertEquals(0, child.exitCode(), printed);
        assertTrue(printed.contains("filter: no_new_privs 0, seccomp 0, membarrier query -1"), printed);
        assertTrue(printed.contains("awaitReadable: UnsupportedOperationException: waiting needs Linux futexes and "
                + "membarrier(2)"), printed);
        assertTrue(printed.contains("hasWaiter=false"), printed);
        assertTrue(printed.contains("copiesLongPiecesNatively=false"), printed); // its native copies rest on the fence as well
        assertTrue(printed.contains("polled 4194304 bytes intact"), printed);
        assertTrue(printed.contains("wakeCount=0"), printed);
    }
}

package dev.lanehost.nativeabi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lanehost.testsupport.ChildJvm;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A process opens 1,024 host ABIs in its life, each with trampolines of its own; the next is refused with a sentence. */
class TableLimitTest {
    @TempDir
    Path directory;

    @Test
    void theHostAbiAfterTheProcesssLastTableIsRefusedWithASentence() throws Exception {
        Path output = directory.resolve("limit.out");
        Process process = new ProcessBuilder(List.of(ChildJvm.java(), "--enable-native-access=ALL-UNNAMED", "-Xmx256m",
                "-cp", ChildJvm.classPath(), TableLimitChild.class.getName()))
                .redirectErrorStream(true).redirectOutput(output.toFile()).start();
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
            throw new AssertionError("the child did not end: " + Files.readString(output, StandardCharsets.UTF_8));
        }
        String printed = Files.readString(output, StandardCharsets.UTF_8);
        assertEquals(0, process.exitValue(), printed);
        assertTrue(printed.contains(TableLimitChild.OPENED + 1024 + "\n"), printed);
        assertTrue(printed.contains(TableLimitChild.REFUSED + "REFUSED: this process has opened 1024 host ABIs, the most it can"), printed);
    }
}

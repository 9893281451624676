package dev.lanehost.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JackLogWatchTest {
    @TempDir
    Path work;

    @Test
    void closeReadsEveryLineWrittenBeforeItAndOnlyThoseAfterTheStart() throws Exception {
        Path log = work.resolve("jackd.log");
        Files.writeString(log, "before the watch\n");
        long started = System.nanoTime();
        JackLogWatch watch = JackLogWatch.start(log);
        // Appended right before close(): the watch may still be parked in its poll, and must read them on the way out.
        Files.writeString(log, "JackEngine::XRun: client = a was not finished, state = Running\nsecond\n",
                StandardCharsets.UTF_8, StandardOpenOption.APPEND);
        watch.close();
        Files.writeString(log, "after the close\n", StandardCharsets.UTF_8, StandardOpenOption.APPEND);

        List<JackLogWatch.Line> lines = watch.linesContaining("");
        assertEquals(List.of("JackEngine::XRun: client = a was not finished, state = Running", "second"),
                lines.stream().map(JackLogWatch.Line::text).toList());
        assertTrue(lines.stream().allMatch(line -> line.nanos() >= started), "dated after the start: " + lines);
    }
}

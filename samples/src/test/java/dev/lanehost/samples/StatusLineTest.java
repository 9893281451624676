package dev.lanehost.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The samples' status line, on a clock the test sets: what it writes, and when. */
class StatusLineTest {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);

    private String written() {
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void theLineIsRewrittenInPlaceAtMostTwiceASecondWithTheElapsedAndTheRunsLength() {
        long start = 1_000_000_000L;
        StatusLine status = new StatusLine(out, start, 600);
        AtomicInteger asked = new AtomicInteger();
        assertTrue(status.update(start, () -> "callbacks " + asked.incrementAndGet()), "the first update writes");
        assertFalse(status.update(start + StatusLine.INTERVAL_NANOS - 1, () -> "callbacks " + asked.incrementAndGet()));
        assertEquals(1, asked.get(), "the counters are read only for a line that is written");
        assertTrue(status.update(start + 2_500_000_000L, () -> "callbacks " + asked.incrementAndGet()));
        assertEquals("\rt   0.0 / 600 s | callbacks 1 \rt   2.5 / 600 s | callbacks 2 ", written());
    }

    @Test
    void endingPutsTheNextWholeLineBelowTheStatusLineAndFinishWritesTheLastCounts() {
        StatusLine status = new StatusLine(out, 0, 10);
        status.end();
        assertEquals("", written(), "nothing on screen, nothing to end");
        status.update(0, () -> "frames 0");
        status.end();
        out.println("a notice");
        status.finish(100, () -> "frames 6");
        status.end();
        assertEquals("\rt   0.0 / 10 s | frames 0 " + System.lineSeparator() + "a notice" + System.lineSeparator()
                + "\rt   0.0 / 10 s | frames 6 " + System.lineSeparator(), written());
    }

    @Test
    void theOpeningLineSaysTheRunsLengthAndTheDefault() {
        assertEquals("600 s, the default (a number argument sets another)", StatusLine.duration(600, 600, "s"));
        assertEquals("30 frames (default 600 frames)", StatusLine.duration(30, 600, "frames"));
    }
}

package dev.lanehost.samples;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The frame-lane sample's console, a short run end to end (the C frame host at 60 Hz): its opening line states the
 * run's length and the default, its status line shows the frames while it runs and ends at the last frame, and the
 * statistics follow on a line of their own.
 */
class FrameLaneDemoTest {

    @Test
    void theRunStatesItsLengthShowsAStatusLineAndEndsWithItsStatistics() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream console = System.out;
        System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        try {
            FrameLaneDemo.main(new String[] {"30"});
        } finally {
            System.setOut(console);
        }
        String output = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(output.contains("for 30 frames (default 600 frames), 0.5 s"), output);
        assertTrue(Pattern.compile("\rt +[0-9.]+ / 0.5 s \\| frames +[0-9]+ / 30 \\([0-9]+ late\\) \\| turns +[0-9]+ \\| input +[0-9]+ ")
                .matcher(output).find(), output);
        assertTrue(Pattern.compile("\rt +[0-9.]+ / 0.5 s \\| frames +[0-9]+ / 30 [^\r]*" + Pattern.quote(System.lineSeparator()) + "frames [0-9]+, late")
                .matcher(output).find(), "the last status line, then the statistics below it: " + output);
    }
}

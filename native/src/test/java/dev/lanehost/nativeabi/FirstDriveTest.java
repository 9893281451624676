package dev.lanehost.nativeabi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lanehost.testsupport.ChildJvm;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A host's first real drive from a new thread, after the warm-up, runs only code the warm-up already ran: it loads
 * no class (a lazily linked call site spins one: string concatenation, a lambda, a pattern {@code switch}) and takes
 * no deoptimization (a branch or receiver class the warm-up never showed the JIT). Counted with Flight Recorder in a
 * fresh child JVM ({@link FirstDriveChild}); nothing here is timed.
 */
class FirstDriveTest {
    private static final long CHILD_DEADLINE_SECONDS = 180;

    @TempDir
    Path directory;

    @Test
    void aNewThreadsFirstDriveAfterTheWarmUpLoadsNoClassAndTakesNoDeoptimization() throws Exception {
        String output = runChild();
        String summary = output.lines().filter(line -> line.startsWith(FirstDriveChild.SUMMARY)).findFirst()
                .orElseThrow(() -> new AssertionError("the child printed no summary:\n" + output));
        assertEquals(FirstDriveChild.SUMMARY + "status 0, classes 0, deoptimizations 0, handled 1, rebinds 1", summary,
                "the drive rebinds the lane, runs the message, and meets nothing new; the child's output:\n" + output);
    }

    /**
     * The warm-up alone, with no warm drives of the host's own, then a first drive of 8 turns: the actor's run goes on
     * to its empty mailbox, which a warm-up of one-turn drives never showed the JIT (the run's loop ending there, the
     * mailbox's empty slot), so that drive deoptimized in about half of such children. Three children; only those two
     * places are asserted here (the lane's run queue may still meet one rarely, which the host's own warm drives cover).
     */
    @Test
    void aFirstDriveOfSeveralTurnsAfterTheWarmUpAloneMeetsNoDeoptimizationInTheRunOrTheMailbox() throws Exception {
        for (int child = 1; child <= 3; child++) {
            String output = runChild("0");
            List<String> inTheRun = output.lines().filter(line -> line.startsWith("deoptimization: dev.lanehost.lanes.cell.CellRun.")
                    || line.startsWith("deoptimization: dev.lanehost.lanes.queue.MpscChunkQueue.")).toList();
            assertEquals(List.of(), inTheRun, "child " + child + ": the first drive deoptimized in the actor's run or its mailbox;"
                    + " the child's output:\n" + output);
        }
    }

    /** Runs the child with this JVM's java binary and test class path; its output goes to a file, so a hung child cannot block the read. */
    private String runChild(String... arguments) throws IOException, InterruptedException {
        Path output = directory.resolve("first-drive.out");
        List<String> command = new ArrayList<>(List.of(ChildJvm.java(), "--enable-native-access=ALL-UNNAMED", "-Xmx256m",
                "-cp", ChildJvm.classPath(), FirstDriveChild.class.getName()));
        command.addAll(List.of(arguments));
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(output.toFile())
                .start();
        boolean ended = process.waitFor(CHILD_DEADLINE_SECONDS, TimeUnit.SECONDS);
        if (!ended) {
            process.destroyForcibly().waitFor();
        }
        String text = Files.readString(output, StandardCharsets.UTF_8);
        assertTrue(ended, "the child did not end within " + CHILD_DEADLINE_SECONDS + " s; its output:\n" + text);
        assertEquals(0, process.exitValue(), "the child's exit code; its output:\n" + text);
        return text;
    }
}

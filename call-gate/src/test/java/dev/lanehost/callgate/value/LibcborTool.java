package dev.lanehost.callgate.value;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs {@code cbor_interop}, the C tool over libcbor that CMake builds into {@code target/cmake}: one job
 * per line in, one answer per line out. Its path comes from the system property Surefire sets.
 */
final class LibcborTool {

    static final String PATH_PROPERTY = "lanehost.cborInteropTool";

    /** Generous: a batch of thousands of lines takes well under a second; this only stops a hung tool. */
    private static final long DEADLINE_SECONDS = 120;

    private final Path executable;

    private LibcborTool(Path executable) {
        this.executable = executable;
    }

    /** The built tool, or a failed test that says how to get it: libcbor is a required test dependency. */
    static LibcborTool built() {
        String path = System.getProperty(PATH_PROPERTY);
        if (path == null) {
            fail("the system property " + PATH_PROPERTY + " is not set: run this test through Maven (call-gate's"
                    + " pom.xml sets it to the cbor_interop tool CMake builds)");
        }
        Path executable = Path.of(path);
        if (!Files.isExecutable(executable)) {
            fail("the libcbor interop tool is missing at " + executable + ": CMake builds it only when libcbor is"
                    + " installed. Install libcbor-dev (Debian: apt-get install libcbor-dev; bin/lanehost-env.sh"
                    + " installs it when run as root, as CI does) and run the build again.");
        }
        return new LibcborTool(executable);
    }

    /** libcbor's diagnostic text for each CBOR item, given in hex; "error: ..." where libcbor refuses it. */
    List<String> decode(String job, List<String> hexItems) throws IOException, InterruptedException {
        return run("decode", job, hexItems);
    }

    /** The hex of what libcbor's encoders write for each description. */
    List<String> encode(String job, List<String> descriptions) throws IOException, InterruptedException {
        List<String> answers = run("encode", job, descriptions);
        for (int i = 0; i < answers.size(); i++) {
            if (answers.get(i).startsWith("error")) {
                fail("cbor_interop could not encode line " + (i + 1) + " of " + job + " (" + descriptions.get(i) + "): " + answers.get(i));
            }
        }
        return answers;
    }

    private List<String> run(String mode, String job, List<String> lines) throws IOException, InterruptedException {
        // Files, not pipes: the tool may write while the test is still writing, and files cannot fill up.
        Path directory = Files.createDirectories(executable.getParent().resolve("interop-jobs"));
        Path in = directory.resolve(job + ".in");
        Path out = directory.resolve(job + ".out");
        Path err = directory.resolve(job + ".err");
        Files.write(in, lines, StandardCharsets.UTF_8);
        Process process = new ProcessBuilder(executable.toString(), mode)
                .redirectInput(in.toFile())
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        if (!process.waitFor(DEADLINE_SECONDS, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            fail("cbor_interop " + mode + " did not finish " + job + " within " + DEADLINE_SECONDS + " s; input: " + in);
        }
        assertEquals(0, process.exitValue(), () -> "cbor_interop " + mode + " failed on " + in + ": " + read(err));
        List<String> answers = Files.readAllLines(out, StandardCharsets.UTF_8);
        assertEquals(lines.size(), answers.size(), () -> "one answer per line from cbor_interop " + mode + " (" + in + ")");
        return answers;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            return "(unreadable: " + e + ")";
        }
    }
}

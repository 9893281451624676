package dev.lanehost.samples.lv2;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * What the LV2 tests share: the bundle the build assembled, the test programs CMake built beside it, the hosts on
 * the machine, raw float files, and running a program with the environment a user's shell would give it (no
 * JAVA_HOME: the plugin finds its JDK itself).
 */
final class Lv2Bundle {
    static final String URI = "https://lanehost.dev/lv2/biquad";
    static final int RATE = 48000;
    static final Path DIRECTORY = Path.of("target", "lv2").toAbsolutePath();
    static final Path BUNDLE = DIRECTORY.resolve("lanehost-biquad.lv2");
    static final Path CMAKE = Path.of("target", "cmake").toAbsolutePath();

    private Lv2Bundle() {
    }

    /** Skips the test, saying why, unless the bundle and the named programs are there. */
    static void assumeBuilt(String... programs) {
        skipUnless(Files.isRegularFile(BUNDLE.resolve("lanehost_biquad.so")),
                "the LV2 bundle was not built (" + BUNDLE + "): install lv2-dev and build the samples module");
        for (String program : programs) {
            Path path = program.contains("/") ? Path.of(program) : CMAKE.resolve(program);
            skipUnless(Files.isExecutable(path), path + " was not built");
        }
    }

    /** Skips the test, saying why, unless {@code command} is on the PATH. */
    static void assumeOnPath(String command, String debianPackage) {
        skipUnless(onPath(command), command + " is not installed (apt-get install " + debianPackage + ")");
    }

    static boolean onPath(String command) {
        for (String directory : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!directory.isEmpty() && Files.isExecutable(Path.of(directory, command))) {
                return true;
            }
        }
        return false;
    }

    static void skipUnless(boolean condition, String reason) {
        if (!condition) {
            System.out.println("SKIPPED: " + reason);
        }
        assumeTrue(condition, reason);
    }

    /** A mono test signal: a rising sine plus seeded noise, within ±0.8. */
    static float[] signal(int frames, long seed) {
        Random random = new Random(seed);
        float[] samples = new float[frames];
        for (int i = 0; i < frames; i++) {
            double phase = 2 * Math.PI * (100 + 4000.0 * i / frames) * i / RATE;
            samples[i] = (float) (0.5 * Math.sin(phase) + 0.3 * (random.nextDouble() - 0.5));
        }
        return samples;
    }

    static void writeRaw(Path file, float[] samples) throws IOException {
        ByteBuffer bytes = ByteBuffer.allocate(samples.length * Float.BYTES).order(ByteOrder.nativeOrder());
        bytes.asFloatBuffer().put(samples);
        Files.write(file, bytes.array());
    }

    static float[] readRaw(Path file) throws IOException {
        ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.nativeOrder());
        float[] samples = new float[bytes.remaining() / Float.BYTES];
        bytes.asFloatBuffer().get(samples);
        return samples;
    }

    /** The reference effect (biquad_reference.c, written apart from the Java DSP) applied to {@code input}. */
    static float[] reference(Path work, float[] input, double cutoff, double q) throws IOException, InterruptedException {
        Path in = work.resolve("reference-in.f32");
        Path out = work.resolve("reference-out.f32");
        writeRaw(in, input);
        Result result = run(List.of(CMAKE.resolve("biquad_reference").toString(), Integer.toString(RATE),
                Double.toString(cutoff), Double.toString(q), in.toString(), out.toString()), Map.of(), Duration.ofSeconds(60));
        result.assertExitedWith(0);
        return readRaw(out);
    }

    record Result(int exitCode, String output) {
        void assertExitedWith(int expected) {
            if (exitCode != expected) {
                throw new AssertionError("exit code " + exitCode + ", expected " + expected + "; output:\n" + output);
            }
        }

        /** The lines that start with {@code prefix}. */
        List<String> lines(String prefix) {
            List<String> found = new ArrayList<>();
            for (String line : output.split("\n")) {
                if (line.startsWith(prefix)) {
                    found.add(line);
                }
            }
            return found;
        }
    }

    /**
     * Runs {@code command} without JAVA_HOME, with LV2_PATH at the bundle's directory and {@code environment}, its
     * output and errors in one text; killed at the deadline (a hang fails the test instead of holding the build).
     */
    static Result run(List<String> command, Map<String, String> environment, Duration deadline)
            throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().remove("JAVA_HOME");
        builder.environment().put("LV2_PATH", DIRECTORY.toString());
        builder.environment().putAll(environment);
        Path log = Files.createTempFile("lanehost-lv2-", ".log");
        try {
            Process process = builder.redirectOutput(log.toFile()).start();
            if (!process.waitFor(deadline.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly().waitFor();
                throw new AssertionError(command.get(0) + " did not end within " + deadline + "; output:\n"
                        + Files.readString(log));
            }
            return new Result(process.exitValue(), Files.readString(log));
        } finally {
            Files.deleteIfExists(log);
        }
    }

    /** The number after {@code key} in a line of words ("... key 42 ..."). */
    static long field(String line, String key) {
        String[] words = line.trim().split("\\s+");
        for (int i = 0; i + 1 < words.length; i++) {
            if (words[i].equals(key)) {
                return Long.parseLong(words[i + 1]);
            }
        }
        throw new AssertionError("no '" + key + "' in: " + line);
    }
}

package dev.lanehost.testsupport;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * What a test needs to start another JVM that sees the classes this test sees: the java binary and a class path.
 *
 * <p>Surefire runs a module's tests on the module path (the module's classes with its test classes patched in,
 * its dependencies as modules, the test libraries on the class path), so {@code java.class.path} alone is not
 * enough. The child gets everything on one class path instead: this module's test and main classes (the build
 * passes their directories as {@code lanehost.testClasses} and {@code lanehost.mainClasses}), the module path,
 * then the class path. On the class path, a child needs {@code --enable-native-access=ALL-UNNAMED}.
 */
public final class ChildJvm {

    private ChildJvm() {
    }

    /** The java binary of the running JVM. */
    public static String java() {
        return ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }

    /** A class path holding every class this test can load. */
    public static String classPath() {
        Set<String> entries = new LinkedHashSet<>();
        add(entries, System.getProperty("lanehost.testClasses"));
        add(entries, System.getProperty("lanehost.mainClasses"));
        add(entries, System.getProperty("jdk.module.path"));
        add(entries, System.getProperty("java.class.path"));
        return String.join(File.pathSeparator, entries);
    }

    /** What a child printed (stdout and stderr, interleaved) and how it exited. */
    public record Finished(int exitCode, String printed) {
    }

    /**
     * Runs {@code command} (a child JVM, maybe behind a wrapper such as {@code setpriv}) to its end, its output into
     * {@code output}; a child still running after 60 s is killed and fails the test.
     */
    public static Finished run(List<String> command, Path output) throws IOException, InterruptedException {
        Process child = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
        if (!child.waitFor(60, TimeUnit.SECONDS)) {
            child.destroyForcibly();
            throw new IllegalStateException("the child JVM did not finish within 60 s: " + Files.readString(output));
        }
        return new Finished(child.exitValue(), Files.readString(output));
    }

    private static void add(Set<String> entries, String path) {
        if (path == null) {
            return;
        }
        for (String entry : path.split(File.pathSeparator)) {
            if (!entry.isBlank()) {
                entries.add(entry);
            }
        }
    }
}

package dev.lanehost.testsupport;

import java.io.File;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Set;

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

package dev.lanehost.nativeabi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import dev.lanehost.nativeloader.NativeLibraryLoader;
import dev.lanehost.testsupport.BundledPlatforms;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The jar is target/classes: what CMake installs there is what every user of lanehost-native ships. Only
 * the libraries a user loads (for linux-x86_64 and linux-aarch64) and the public headers a C host compiles against
 * belong in it; the test host lives in the test classes and the test-jar.
 */
class BundledLibrariesTest {

    @Test
    void theProductBundlesOnlyTheLibrariesAUserLoads() throws IOException {
        String classesDir = System.getProperty("lanehost.classes.dir");
        assertNotNull(classesDir, "Surefire sets lanehost.classes.dir to the module's target/classes");
        Path bundled = Path.of(classesDir, "dev", "lanehost", "native");
        String platform = NativeLibraryLoader.platform();

        Set<String> files = new TreeSet<>();
        try (Stream<Path> walk = Files.walk(bundled)) {
            walk.filter(Files::isRegularFile).forEach(file -> files.add(bundled.relativize(file).toString()));
        }

        Set<String> expected = new TreeSet<>();
        for (String directory : new TreeSet<>(BundledPlatforms.LINUX.stream().map(BundledPlatforms.Platform::directory).toList())) {
            if (BundledPlatforms.whyNotBuilt(directory, platform).isEmpty()) { // this host's, and linux-aarch64 cross-compiled
                expected.add(directory + "/" + System.mapLibraryName("lanehost"));
                expected.add(directory + "/" + System.mapLibraryName("lanehost_embed"));
            }
        }
        Path headers = Path.of("include", "lanehost");
        try (Stream<Path> walk = Files.list(headers)) { // the public headers, as they are in the repository
            walk.forEach(header -> expected.add("include/lanehost/" + header.getFileName()));
        }
        assertEquals(expected, files, "the files under " + bundled + " (a library left from an older build goes with `mvn clean`)");
        for (String file : expected) {
            if (file.startsWith("include/")) {
                assertEquals(Files.readString(Path.of(file)), Files.readString(bundled.resolve(file)), file + " as in the repository");
            }
        }
    }
}

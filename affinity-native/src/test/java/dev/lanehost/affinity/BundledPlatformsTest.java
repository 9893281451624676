package dev.lanehost.affinity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.abort;

import dev.lanehost.nativeloader.NativeLibraryLoader;
import dev.lanehost.testsupport.BundledPlatforms;
import dev.lanehost.testsupport.BundledPlatforms.Platform;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * The jar bundles liblanehost_affinity for linux-x86_64 and linux-aarch64, and the loader picks the right one for
 * each os.arch: the resource step 2 looks up for that platform holds an ELF shared object for its machine.
 */
class BundledPlatformsTest {
    static final List<Platform> PLATFORMS = BundledPlatforms.LINUX;

    @ParameterizedTest
    @FieldSource("PLATFORMS")
    void theLoaderPicksEachArchitecturesLibraryAndTheJarHoldsOneBuiltForIt(Platform platform) throws IOException {
        String directory = NativeLibraryLoader.platform("Linux", platform.osArch());
        assertEquals(platform.directory(), directory, "the directory for os.arch " + platform.osArch());
        Optional<String> whyNotBuilt = BundledPlatforms.whyNotBuilt(directory, NativeLibraryLoader.platform());
        String resource = NativeLibraryLoader.bundledResource(directory, "lanehost_affinity");
        try (InputStream in = Affinity.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) { // skipped, saying why, only where the build could not make it
                abort(whyNotBuilt.orElseThrow(() -> new AssertionError("the jar has no " + resource + ", and this build must have bundled it")));
            }
            assertEquals(platform.elfMachine(), BundledPlatforms.elfMachine(in.readNBytes(64)), resource + ": the ELF header's e_machine");
        }
    }
}

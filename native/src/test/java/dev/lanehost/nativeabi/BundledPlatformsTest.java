package dev.lanehost.nativeabi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.abort;

import dev.lanehost.nativeloader.NativeLibraryLoader;
import dev.lanehost.testsupport.BundledPlatforms;
import dev.lanehost.testsupport.BundledPlatforms.Platform;
import java.io.IOException;
import java.io.InputStream;
import java.util.Optional;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * The jar bundles liblanehost and liblanehost_embed for linux-x86_64 and linux-aarch64, and the loader picks the
 * right one for each os.arch: the platform it computes, the resource it looks up (step 2's own two calls), found
 * through the class loader that loads the jar's classes, holds an ELF shared object for that platform's machine.
 */
class BundledPlatformsTest {
    static final List<Platform> PLATFORMS = BundledPlatforms.LINUX;

    @ParameterizedTest
    @FieldSource("PLATFORMS")
    void theLoaderPicksEachArchitecturesLibraryAndTheJarHoldsOneBuiltForIt(Platform platform) throws IOException {
        String directory = NativeLibraryLoader.platform("Linux", platform.osArch());
        assertEquals(platform.directory(), directory, "the directory for os.arch " + platform.osArch());
        Optional<String> whyNotBuilt = BundledPlatforms.whyNotBuilt(directory, NativeLibraryLoader.platform());
        for (String name : new String[] {"lanehost", "lanehost_embed"}) {
            String resource = NativeLibraryLoader.bundledResource(directory, name);
            assertEquals("dev/lanehost/native/" + directory + "/lib" + name + ".so", resource);
            try (InputStream in = LanehostLibrary.class.getClassLoader().getResourceAsStream(resource)) {
                if (in == null) { // skipped, saying why, only where the build could not make it
                    abort(whyNotBuilt.orElseThrow(() -> new AssertionError("the jar has no " + resource + ", and this build must have bundled it")));
                }
                assertEquals(platform.elfMachine(), BundledPlatforms.elfMachine(in.readNBytes(64)),
                        resource + ": the ELF header's e_machine");
            }
        }
    }

    @Test
    void theElfCheckRefusesWhatIsNotASharedObject() {
        byte[] header = new byte[64];
        assertThrows(IllegalArgumentException.class, () -> BundledPlatforms.elfMachine(header), "no ELF magic");
        header[0] = 0x7f;
        header[1] = 'E';
        header[2] = 'L';
        header[3] = 'F';
        header[4] = 2;
        header[5] = 1;
        header[16] = 2; // ET_EXEC
        assertThrows(IllegalArgumentException.class, () -> BundledPlatforms.elfMachine(header), "an executable");
        header[16] = 3;
        header[18] = (byte) 183;
        assertEquals(183, BundledPlatforms.elfMachine(header));
    }

    @Test
    void aPlatformTheJarsDoNotCarryKeepsItsOwnName() {
        assertEquals("linux-riscv64", NativeLibraryLoader.platform("Linux", "riscv64"));
        assertEquals("darwin-aarch64", NativeLibraryLoader.platform("Mac OS X", "aarch64"));
        assertNotNull(BundledPlatforms.whyNotBuilt("linux-riscv64", "linux-x86_64").orElse(null));
    }
}

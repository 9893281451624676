package dev.lanehost.testsupport;

import java.io.File;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The platforms lanehost's jars bundle libraries for, and what a bundled library's ELF header says it was built for.
 * The x86_64 build cross-compiles the linux-aarch64 libraries (c-common/cmake/LanehostC.cmake) when Debian's cross
 * compiler is installed; without it CMake warns and the jar has the host's platform only.
 */
public final class BundledPlatforms {

    /** A JVM's {@code os.arch}, the directory the loader must pick for it on Linux, and its ELF {@code e_machine}. */
    public record Platform(String osArch, String directory, int elfMachine) {
    }

    /** Both Linux platforms, each under the os.arch its JDKs report and the alias other tools use. */
    public static final List<Platform> LINUX = List.of(
            new Platform("amd64", "linux-x86_64", 62), // EM_X86_64
            new Platform("x86_64", "linux-x86_64", 62),
            new Platform("aarch64", "linux-aarch64", 183), // EM_AARCH64
            new Platform("arm64", "linux-aarch64", 183));

    private BundledPlatforms() {
    }

    /**
     * Why this build cannot have bundled {@code directory}'s libraries, or empty if it must have: the platform this
     * JVM runs on always; linux-aarch64 on an x86_64 machine whose PATH has aarch64-linux-gnu-gcc.
     */
    public static Optional<String> whyNotBuilt(String directory, String hostPlatform) {
        if (directory.equals(hostPlatform)) {
            return Optional.empty();
        }
        if (directory.equals("linux-aarch64") && hostPlatform.equals("linux-x86_64")) {
            return onPath("aarch64-linux-gnu-gcc") ? Optional.empty()
                    : Optional.of("aarch64-linux-gnu-gcc is not installed (apt-get install gcc-aarch64-linux-gnu), so the build "
                    + "bundles no linux-aarch64 libraries");
        }
        return Optional.of("the build cross-compiles only linux-aarch64, and only on linux-x86_64, not " + directory + " on " + hostPlatform);
    }

    /**
     * The {@code e_machine} of a 64-bit little-endian ELF shared object whose first bytes are {@code header}.
     *
     * @throws IllegalArgumentException naming what is wrong if the bytes are not the start of one
     */
    public static int elfMachine(byte[] header) {
        if (header.length < 20 || header[0] != 0x7f || header[1] != 'E' || header[2] != 'L' || header[3] != 'F') {
            throw new IllegalArgumentException("not an ELF file: its first bytes are not 7f 'E' 'L' 'F'");
        }
        if (header[4] != 2 || header[5] != 1) { // EI_CLASS ELFCLASS64, EI_DATA ELFDATA2LSB
            throw new IllegalArgumentException("not a 64-bit little-endian ELF file (class " + header[4] + ", data " + header[5] + ")");
        }
        ByteBuffer fields = ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN);
        int type = Short.toUnsignedInt(fields.getShort(16));
        if (type != 3) { // ET_DYN
            throw new IllegalArgumentException("not a shared object: e_type is " + type + ", not ET_DYN (3)");
        }
        return Short.toUnsignedInt(fields.getShort(18));
    }

    private static boolean onPath(String program) {
        for (String directory : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (!directory.isEmpty() && Files.isExecutable(Path.of(directory, program))) {
                return true;
            }
        }
        return false;
    }
}

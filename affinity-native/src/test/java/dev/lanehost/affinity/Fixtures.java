package dev.lanehost.affinity;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Paths and kernel views the tests compare against. */
final class Fixtures {
    /**
     * The fake sysfs trees src/test/fixtures/make-sysfs-fixtures.sh makes, which the CMake configure of this module
     * writes into target/ (Surefire runs in the module directory).
     */
    static final Path SYSFS = Path.of("target/test-fixtures/sysfs").toAbsolutePath();

    private Fixtures() {
    }

    /** Skips the calling test unless the kernel's own views it compares against, /proc and /sys, are here. */
    static void assumeProcAndSys() {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")) && Files.isDirectory(Path.of("/sys/devices/system/cpu")),
                "needs Linux's /proc/self/task and /sys/devices/system/cpu to compare against");
    }

    /**
     * This process's allowed CPUs, skipping the calling test when there are fewer than {@code atLeast}: with
     * one allowed CPU every thread already runs there, so a pin to it reads back the same whether or not
     * pinning works.
     */
    static CpuSet assumeAllowedCpus(Affinity affinity, int atLeast) {
        assumeProcAndSys();
        CpuSet allowed = affinity.allowedCpus().orElseThrow();
        assumeTrue(allowed.size() >= atLeast, "needs at least " + atLeast + " allowed CPUs to tell a pin from no pin; this process may use CPUs "
                + allowed + " (cgroup cpuset or taskset)");
        return allowed;
    }

    /** {@code Cpus_allowed_list} of a thread, as the kernel reports it. */
    static CpuSet kernelMask(long tid) {
        return CpuSet.parse(statusField(Path.of("/proc/self/task/" + tid + "/status"), "Cpus_allowed_list:"));
    }

    /** {@code Cpus_allowed_list} of the process (its thread-group leader). */
    static CpuSet processAllowed() {
        return CpuSet.parse(statusField(Path.of("/proc/self/status"), "Cpus_allowed_list:"));
    }

    static String read(Path file) {
        try {
            return Files.readString(file).strip();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String statusField(Path status, String field) {
        try {
            return Files.readAllLines(status).stream().filter(line -> line.startsWith(field))
                    .map(line -> line.substring(field.length()).strip()).findFirst().orElseThrow();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

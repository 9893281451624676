package dev.lanehost.nativeabi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lanehost.testsupport.ChildJvm;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * lanehost as a guest in a program that knows nothing of it: guest_host (native/src/test/c/guest/guest_host.c) only
 * dlopens a plugin, guest_plugin, from a bundle directory this test lays out as a plugin's would be (the plugin's
 * library, and its jars in lib/), and uses it. Each test runs one scenario in a process of its own; the program checks
 * what it can itself, and this test reads what it printed.
 */
class GuestHostTest {
    private static final Path CMAKE = Path.of(System.getProperty("lanehost.cmake.dir", "target/cmake"));
    private static final long DEADLINE_SECONDS = 180;

    @TempDir
    static Path bundle;

    private record Run(int exitCode, String output) {
    }

    /** The bundle: libguest_plugin.so, and lib/ with every jar of this test's class path (directories jarred). */
    @BeforeAll
    static void layOutTheBundle() throws IOException {
        Files.copy(CMAKE.resolve("libguest_plugin.so"), bundle.resolve("libguest_plugin.so"));
        Path lib = Files.createDirectory(bundle.resolve("lib"));
        int index = 0;
        for (String entry : ChildJvm.classPath().split(File.pathSeparator)) {
            Path path = Path.of(entry);
            String name = String.format("%02d-%s", index++, path.getFileName());
            if (Files.isDirectory(path)) {
                jar(path, lib.resolve(name + ".jar"));
            } else if (entry.endsWith(".jar")) {
                Files.copy(path, lib.resolve(name));
            }
        }
    }

    private static void jar(Path directory, Path jar) throws IOException {
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file);
             Stream<Path> files = Files.walk(directory)) {
            for (Path path : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
                out.putNextEntry(new JarEntry(directory.relativize(path).toString().replace(File.separatorChar, '/')));
                Files.copy(path, out);
                out.closeEntry();
            }
        }
    }

    /** The JDK running this test is found the way a plugin finds one: among its siblings, JAVA_HOME unset. */
    private static Run run(Map<String, String> environment, String... arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(CMAKE.resolve("guest_host").toString(), arguments[0], bundle.toString()));
        command.addAll(List.of(arguments).subList(1, arguments.length));
        Path output = Files.createTempFile(bundle, "run", ".txt");
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile())
                .directory(bundle.toFile());
        builder.environment().remove("JAVA_HOME");
        builder.environment().put("LANEHOST_JDK_DIRS", Path.of(System.getProperty("java.home")).getParent().toString());
        builder.environment().putAll(environment);
        Process process = builder.start();
        if (!process.waitFor(DEADLINE_SECONDS, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
            throw new AssertionError(String.join(" ", arguments) + " did not finish:\n" + Files.readString(output));
        }
        return new Run(process.exitValue(), Files.readString(output, StandardCharsets.UTF_8));
    }

    private static String passes(String... arguments) throws IOException, InterruptedException {
        return passes(Map.of(), arguments);
    }

    private static String passes(Map<String, String> environment, String... arguments) throws IOException, InterruptedException {
        Run run = run(environment, arguments);
        assertEquals(0, run.exitCode(), String.join(" ", arguments) + " failed:\n" + run.output());
        assertTrue(run.output().contains("ok " + arguments[0]), run.output());
        return run.output();
    }

    private static long number(String output, String pattern) {
        Matcher matcher = Pattern.compile(pattern).matcher(output);
        assertTrue(matcher.find(), "'" + pattern + "' in:\n" + output);
        return Long.parseLong(matcher.group(1));
    }

    @Test
    void aPluginFindsItsJarsAndAJdkByItselfAndItsInstanceIsNamedForItsSetup() throws Exception {
        assertTrue(passes("find").contains("instance TestGuestSetup#1\n"));
    }

    @Test
    void aBundleSettingNamesTheJdkBeforeJavaHome() throws Exception {
        Files.writeString(bundle.resolve("lanehost.conf"), "# the bundle's own JDK\njava_home=" + System.getProperty("java.home") + "\n");
        try {
            passes(Map.of("JAVA_HOME", "/no/such/jdk", "LANEHOST_JDK_DIRS", "/no/such/directory"), "find");
        } finally {
            Files.delete(bundle.resolve("lanehost.conf"));
        }
    }

    @Test
    void withNoJdkAnywhereInstantiateFailsWithOneSentenceNamingWhereItLookedAndTheHostCarriesOn() throws Exception {
        String output = passes(Map.of("LANEHOST_JDK_DIRS", "/no/such/directory"), "no-jdk");
        assertTrue(output.contains("lanehost found no JDK 25 or newer; it looked at: " + bundle.toRealPath()
                + "/lanehost.conf (no java_home=); JAVA_HOME (not set); /no/such/directory (no such directory)"), output);
        assertTrue(output.contains("host still running"), output);
    }

    @Test
    void twoInstancesInOneProcessRunAtOnceWithoutSharingStateAndFreeingOneLeavesTheOther() throws Exception {
        assertTrue(passes("two").contains("instances TestGuestSetup#1 TestGuestSetup#2"));
    }

    @Test
    void aHostThatUnloadsAndReloadsThePluginAHundredTimesNeverCrashesOrGrowsThreads() throws Exception {
        String output = passes("reload", "100");
        assertTrue(output.contains("reloaded 100 times"), output);
    }

    @Test
    void tenThousandShortLivedHostThreadsLeaveNoThreadBehind() throws Exception {
        String output = passes("churn", "10000");
        long before = number(output, "threads (\\d+) ->");
        long after = number(output, "threads \\d+ -> (\\d+)");
        assertTrue(after <= before + 2, output);
    }

    /** A resource bound, not a timing: parked threads use next to no CPU; a spinning one would use the whole window. */
    @Test
    void afterTheLastFreeTheJvmIsIdle() throws Exception {
        String output = passes("idle");
        assertTrue(number(output, "idle: (\\d+)\\.\\d ms of CPU") < 200, output);
    }

    /**
     * A bundle's ahead-of-time cache, made by GuestTraining with the class path the guest builds, is what the first
     * instance's JVM starts from (how much sooner it starts is measured in benchmarks/RESULTS.md, the plugin's start, not here).
     */
    @Test
    void aBundlesAheadOfTimeCacheIsUsedByTheFirstInstancesJvm() throws Exception {
        Path cache = bundle.resolve("lanehost.aot");
        List<String> jars = new ArrayList<>();
        try (Stream<Path> lib = Files.list(bundle.resolve("lib"))) {
            lib.map(Path::toString).filter(name -> name.endsWith(".jar")).sorted().forEach(jars::add);
        }
        Path training = bundle.resolve("training.txt");
        Process process = new ProcessBuilder(ChildJvm.java(), "-XX:AOTCacheOutput=" + cache, "--enable-native-access=ALL-UNNAMED",
                "-Xrs", "-cp", String.join(File.pathSeparator, jars), GuestTraining.class.getName(), TestGuestSetup.class.getName())
                .redirectErrorStream(true).redirectOutput(training.toFile()).start();
        assertTrue(process.waitFor(DEADLINE_SECONDS, TimeUnit.SECONDS), "the training run did not end");
        assertEquals(0, process.exitValue(), Files.readString(training));
        try {
            String output = passes(Map.of("JAVA_TOOL_OPTIONS", "-Xlog:aot"), "start");
            assertTrue(output.contains("Opened AOT cache " + cache), output);
            assertTrue(output.contains("Using AOT-linked classes: true"), output);
        } finally {
            Files.delete(cache);
        }
    }

    @Test
    void theHostsSignalHandlersInstalledBeforeTheJvmStartsKeepWorkingAndSoDoesTheJvms() throws Exception {
        assertTrue(passes("signals", "before").contains("SIGINT 2, SIGTERM 1, own faults 3, Java stack overflows 20"));
    }

    @Test
    void handlersInstalledAfterTheJvmStartsNeedLibjsigPreloadedWhichChainsThem() throws Exception {
        String libjsig = Path.of(System.getProperty("java.home"), "lib", "libjsig.so").toString();
        assertTrue(passes(Map.of("LD_PRELOAD", libjsig), "signals", "after")
                .contains("SIGINT 2, SIGTERM 1, own faults 3, Java stack overflows 20"));
        Run without = run(Map.of("JAVA_TOOL_OPTIONS", "-XX:ErrorFile=" + bundle.resolve("hs_err_%p.log")), "signals", "after");
        assertNotEquals(0, without.exitCode(), "without libjsig the host's SIGSEGV handler replaces HotSpot's:\n" + without.output());
    }
}

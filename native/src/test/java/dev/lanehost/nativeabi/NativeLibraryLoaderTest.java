package dev.lanehost.nativeabi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.lanehost.nativeloader.LoadedLibrary;
import dev.lanehost.nativeloader.NativeLibraryException;
import dev.lanehost.nativeloader.NativeLibraryLoader;
import com.sun.security.auth.module.UnixSystem;
import dev.lanehost.testsupport.ChildJvm;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The loader's three steps, its ABI check and its error messages, against the real libraries this
 * module builds. Copies of liblanehost under other names stand in for "a library somewhere else"; a
 * class loader over a temporary directory stands in for "another jar that bundles a library".
 */
class NativeLibraryLoaderTest {
    private static final String LIBRARY_PATH = System.getProperty("java.library.path");

    @TempDir
    Path directory;

    @BeforeAll
    static void loadTheRealLibrariesFirst() {
        LanehostLibrary.library(); // before any test changes the search properties
    }

    /** Each test sets the search properties it needs; none inherits them from the command line or another test. */
    @BeforeEach
    @AfterEach
    void restoreProperties() {
        System.clearProperty(NativeLibraryLoader.PATH_PROPERTY);
        System.clearProperty(NativeLibraryLoader.EXTRACT_DIR_PROPERTY);
        System.setProperty("java.library.path", LIBRARY_PATH);
    }

    @Test
    void bundledCopyIsExtractedToAVersionedDirectoryOnlyThisUserCanWrite() throws IOException {
        assumeTrue(System.getProperty(NativeLibraryLoader.PATH_PROPERTY) == null && System.getProperty(NativeLibraryLoader.EXTRACT_DIR_PROPERTY) == null,
                "the default search: neither -D" + NativeLibraryLoader.PATH_PROPERTY + " nor -D" + NativeLibraryLoader.EXTRACT_DIR_PROPERTY + " may be set");
        LoadedLibrary library = LanehostLibrary.library();
        assertEquals("step 2: bundled copy", library.step());
        assertEquals(LanehostLibrary.ABI_VERSION, library.abiVersion());
        Path versioned = library.path().getParent();
        assertTrue(versioned.getFileName().toString().matches(Pattern.quote(buildVersion()) + "-[0-9a-f]{16}"), versioned.toString());
        assertEquals(System.mapLibraryName("lanehost"), library.path().getFileName().toString());
        Path perUser = versioned.getParent();
        String runtime = System.getenv("XDG_RUNTIME_DIR");
        Path inTmp = Path.of(System.getProperty("java.io.tmpdir"), "lanehost-" + System.getProperty("user.name"));
        assertTrue(perUser.equals(inTmp) || runtime != null && perUser.equals(Path.of(runtime, "lanehost")), perUser.toString());
        for (Path directory : new Path[] {perUser, versioned}) {
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(directory, LinkOption.NOFOLLOW_LINKS)),
                    directory.toString());
            assertEquals(new UnixSystem().getUid(), ((Number) Files.getAttribute(directory, "unix:uid")).longValue(), directory.toString());
        }
    }

    @Test
    void privateXdgRuntimeDirIsPreferred() throws IOException, InterruptedException {
        Path runtime = Files.createDirectory(directory.resolve("runtime"), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Path tmp = Files.createDirectory(directory.resolve("tmp"));
        String printed = bundledPathInChildJvm(runtime, tmp);
        assertTrue(printed.startsWith(runtime.resolve("lanehost") + "/" + buildVersion() + "-"), printed);
    }

    @Test
    void xdgRuntimeDirOthersCanWriteIsPassedOverForTheTemporaryDirectory() throws IOException, InterruptedException {
        Path runtime = Files.createDirectory(directory.resolve("runtime"));
        Files.setPosixFilePermissions(runtime, PosixFilePermissions.fromString("rwxrwxrwx"));
        Path tmp = Files.createDirectory(directory.resolve("tmp"));
        String printed = bundledPathInChildJvm(runtime, tmp);
        assertTrue(printed.startsWith(tmp.resolve("lanehost-" + System.getProperty("user.name")) + "/" + buildVersion() + "-"), printed);
        try (var entries = Files.list(runtime)) {
            assertEquals(0, entries.count(), "nothing is written into an XDG_RUNTIME_DIR that is not private");
        }
    }

    @Test
    void extractionDirectoryIsCreatedOwnerOnly() throws IOException {
        Path extractDir = directory.resolve("not-yet/lanehost");
        System.setProperty(NativeLibraryLoader.EXTRACT_DIR_PROPERTY, extractDir.toString());
        LoadedLibrary library = NativeLibraryLoader.load(bundleOwner("freshdir"), "freshdir", "lanehost_abi_version", LanehostLibrary.ABI_VERSION);
        assertEquals("step 2: bundled copy", library.step());
        assertEquals(extractDir, library.path().getParent().getParent());
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(extractDir)));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(library.path().getParent())));
    }

    @Test
    void groupOrWorldWritableExtractionDirectoryIsRefusedWithTheFix() throws IOException {
        Path shared = Files.createDirectory(directory.resolve("shared"));
        Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxrwxrwx"));
        System.setProperty(NativeLibraryLoader.EXTRACT_DIR_PROPERTY, shared.toString());
        NativeLibraryException thrown = assertThrows(NativeLibraryException.class,
                () -> NativeLibraryLoader.load(bundleOwner("sharedplant"), "sharedplant", "lanehost_abi_version", LanehostLibrary.ABI_VERSION));
        String message = thrown.getMessage();
        assertTrue(message.contains("step 2: refused to extract into " + shared + ": it is group- or world-writable (rwxrwxrwx)"), message);
        assertTrue(message.contains("Fix: The bundled copy was not extracted: run 'chmod 700 " + shared + "'"), message);
        assertTrue(message.contains("-D" + NativeLibraryLoader.EXTRACT_DIR_PROPERTY + "=<a directory only you can write>"), message);
        try (var entries = Files.list(shared)) {
            assertEquals(0, entries.count(), "nothing may be written into a refused directory");
        }
    }

    @Test
    void extractionDirectoryOwnedBySomeoneElseIsRefusedWithTheFix() throws IOException {
        Path planted = Files.createDirectory(directory.resolve("planted"), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        try {
            Files.setAttribute(planted, "unix:uid", 65534);
        } catch (IOException | UnsupportedOperationException e) {
            assumeTrue(false, "giving a directory to uid 65534 (nobody) needs root: " + e);
        }
        assumeTrue(((Number) Files.getAttribute(planted, "unix:uid")).intValue() == 65534, "the directory could not be given to uid 65534");
        System.setProperty(NativeLibraryLoader.EXTRACT_DIR_PROPERTY, planted.toString());
        NativeLibraryException thrown = assertThrows(NativeLibraryException.class,
                () -> NativeLibraryLoader.load(bundleOwner("someoneelses"), "someoneelses", "lanehost_abi_version", LanehostLibrary.ABI_VERSION));
        String message = thrown.getMessage();
        assertTrue(message.contains("step 2: refused to extract into " + planted + ": it is owned by uid 65534, not by this user (uid "
                + new UnixSystem().getUid() + ")"), message);
        assertTrue(message.contains("Fix: The bundled copy was not extracted: remove " + planted), message);
    }

    @Test
    void extractionDirectoryThatIsASymbolicLinkIsRefused() throws IOException {
        Path real = Files.createDirectory(directory.resolve("real"), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Path link = Files.createSymbolicLink(directory.resolve("link"), real);
        System.setProperty(NativeLibraryLoader.EXTRACT_DIR_PROPERTY, link.toString());
        NativeLibraryException thrown = assertThrows(NativeLibraryException.class,
                () -> NativeLibraryLoader.load(bundleOwner("linked"), "linked", "lanehost_abi_version", LanehostLibrary.ABI_VERSION));
        assertTrue(thrown.getMessage().contains("refused to extract into " + link + ": it is a symbolic link"), thrown.getMessage());
    }

    @Test
    void tamperedCopyOfTheSameSizeIsReplacedNotLoaded() throws IOException {
        System.setProperty(NativeLibraryLoader.EXTRACT_DIR_PROPERTY, directory.resolve("extract").toString());
        // Same content under another name finds the versioned directory the tampered name will use.
        Path versioned = NativeLibraryLoader.load(bundleOwner("probe"), "probe", "lanehost_abi_version", LanehostLibrary.ABI_VERSION).path().getParent();
        byte[] bundled = Files.readAllBytes(LanehostLibrary.library().path());
        Path planted = versioned.resolve(System.mapLibraryName("tampered"));
        byte[] plantedBytes = new byte[bundled.length]; // same size, other content: not even an ELF file
        Files.write(planted, plantedBytes);

        LoadedLibrary library = NativeLibraryLoader.load(bundleOwner("tampered"), "tampered", "lanehost_abi_version", LanehostLibrary.ABI_VERSION);

        assertEquals("step 2: bundled copy", library.step());
        assertEquals(planted, library.path());
        assertArrayEquals(bundled, Files.readAllBytes(planted), "the planted file was replaced by the bundled copy");
        try (var entries = Files.list(versioned)) {
            assertFalse(entries.anyMatch(p -> p.getFileName().toString().endsWith(".partial")), "no temporary file is left behind");
        }
    }

    @Test
    void explicitPathIsUsedFirst() throws IOException {
        copyOfLanehostAs("explicitcopy");
        System.setProperty(NativeLibraryLoader.PATH_PROPERTY, directory.toString());
        LoadedLibrary library = NativeLibraryLoader.load(getClass(), "explicitcopy", "lanehost_abi_version", LanehostLibrary.ABI_VERSION);
        assertEquals("step 1: -D" + NativeLibraryLoader.PATH_PROPERTY, library.step());
        assertEquals(directory.resolve(System.mapLibraryName("explicitcopy")), library.path());
    }

    @Test
    void explicitPathThatLacksTheLibraryFailsWithoutSearchingFurther() {
        System.setProperty(NativeLibraryLoader.PATH_PROPERTY, directory.toString());
        NativeLibraryException thrown = assertThrows(NativeLibraryException.class,
                () -> NativeLibraryLoader.load(getClass(), "lanehost_testhost_absent", "x", 1));
        String message = thrown.getMessage();
        assertTrue(message.contains("step 1: -D" + NativeLibraryLoader.PATH_PROPERTY + ": " + directory), message);
        assertTrue(message.contains("does not exist"), message);
        assertTrue(message.contains("no other place was searched"), message);
        assertTrue(!message.contains("step 2"), message);
    }

    @Test
    void javaLibraryPathIsTheLastStep() throws IOException {
        copyOfLanehostAs("systempathcopy");
        System.setProperty("java.library.path", "/nonexistent" + java.io.File.pathSeparator + directory);
        LoadedLibrary library = NativeLibraryLoader.load(getClass(), "systempathcopy", "lanehost_abi_version", LanehostLibrary.ABI_VERSION);
        assertEquals("step 3: java.library.path", library.step());
    }

    @Test
    void missingEverywhereListsEveryStepAndTheFix() {
        System.setProperty("java.library.path", directory.toString());
        NativeLibraryException thrown = assertThrows(NativeLibraryException.class,
                () -> NativeLibraryLoader.load(getClass(), "nowhere", "nowhere_abi_version", 1));
        String message = thrown.getMessage();
        assertTrue(message.contains("step 1: -Dlanehost.native.path is not set"), message);
        assertTrue(message.contains("step 2: no bundled copy at dev/lanehost/native/" + NativeLibraryLoader.platform()), message);
        assertTrue(message.contains("step 3: " + System.mapLibraryName("nowhere") + " is in no directory"), message);
        assertTrue(message.contains("Fix: "), message);
    }

    @Test
    void wrongAbiVersionIsRefused() throws IOException {
        copyOfLanehostAs("oldrelease");
        System.setProperty(NativeLibraryLoader.PATH_PROPERTY, directory.toString());
        NativeLibraryException thrown = assertThrows(NativeLibraryException.class,
                () -> NativeLibraryLoader.load(getClass(), "oldrelease", "lanehost_abi_version", 99));
        assertTrue(thrown.getMessage().contains("reports ABI version " + LanehostLibrary.ABI_VERSION + " but this lanehost"), thrown.getMessage());
        assertTrue(thrown.getMessage().contains("needs 99"), thrown.getMessage());
    }

    @Test
    void libraryWithoutTheAbiFunctionIsRefused() throws IOException {
        copyOfLanehostAs("notours");
        System.setProperty(NativeLibraryLoader.PATH_PROPERTY, directory.toString());
        NativeLibraryException thrown = assertThrows(NativeLibraryException.class,
                () -> NativeLibraryLoader.load(getClass(), "notours", "notours_abi_version", 1));
        assertTrue(thrown.getMessage().contains("has no ABI version function notours_abi_version"), thrown.getMessage());
    }

    @Test
    void aFileThatIsNotALibraryIsRefused() throws IOException {
        Files.writeString(directory.resolve(System.mapLibraryName("garbage")), "not an ELF file");
        System.setProperty(NativeLibraryLoader.PATH_PROPERTY, directory.toString());
        NativeLibraryException thrown = assertThrows(NativeLibraryException.class,
                () -> NativeLibraryLoader.load(getClass(), "garbage", "garbage_abi_version", 1));
        assertTrue(thrown.getMessage().contains("exists but could not be loaded"), thrown.getMessage());
    }

    @Test
    void askingForAnotherAbiOfALoadedLibraryIsRefused() {
        NativeLibraryException thrown = assertThrows(NativeLibraryException.class,
                () -> NativeLibraryLoader.load(getClass(), "lanehost", "lanehost_abi_version", LanehostLibrary.ABI_VERSION + 1));
        assertTrue(thrown.getMessage().contains("already loaded"), thrown.getMessage());
    }

    private void copyOfLanehostAs(String name) throws IOException {
        Files.copy(LanehostLibrary.library().path(), directory.resolve(System.mapLibraryName(name)));
    }

    /**
     * A class whose class loader bundles a copy of liblanehost as {@code name}, as another module's jar
     * would: the loader's step 2 finds it through {@code owner.getClassLoader()}.
     */
    private Class<?> bundleOwner(String name) throws IOException {
        Path root = Files.createDirectories(directory.resolve("bundle-" + name));
        Path library = root.resolve(NativeLibraryLoader.RESOURCE_ROOT + NativeLibraryLoader.platform()).resolve(System.mapLibraryName(name));
        Files.createDirectories(library.getParent());
        Files.copy(LanehostLibrary.library().path(), library);
        String classFile = BundleOwner.class.getName().replace('.', '/') + ".class";
        Path owner = root.resolve(classFile);
        Files.createDirectories(owner.getParent());
        try (InputStream in = BundleOwner.class.getClassLoader().getResourceAsStream(classFile)) {
            Files.write(owner, in.readAllBytes());
        }
        // No parent: BundleOwner must come from this root, not from the test class path.
        URLClassLoader loader = new URLClassLoader(new URL[] {root.toUri().toURL()}, null);
        try {
            return loader.loadClass(BundleOwner.class.getName());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The project version the build filtered into the loader's resource, not a literal that goes stale. */
    private static String buildVersion() {
        String version = NativeLibraryLoader.version();
        assertTrue(!version.isBlank() && !version.equals("unknown") && !version.contains("${"), "version.properties was not filtered: " + version);
        return version;
    }

    /** Where a fresh JVM with this {@code XDG_RUNTIME_DIR} and {@code java.io.tmpdir} extracts liblanehost. */
    private String bundledPathInChildJvm(Path runtime, Path tmp) throws IOException, InterruptedException {
        Path output = directory.resolve("child-output.txt");
        ProcessBuilder builder = new ProcessBuilder(ChildJvm.java(), "--enable-native-access=ALL-UNNAMED", "-Djava.io.tmpdir=" + tmp,
                "-cp", ChildJvm.classPath(), PrintBundledPath.class.getName())
                .redirectErrorStream(true).redirectOutput(output.toFile());
        builder.environment().put("XDG_RUNTIME_DIR", runtime.toString());
        Process child = builder.start();
        assertTrue(child.waitFor(60, TimeUnit.SECONDS), "child JVM did not finish");
        String printed = Files.readString(output).strip();
        assertEquals(0, child.exitValue(), printed);
        return printed;
    }

    /** The child JVM of {@link #bundledPathInChildJvm}: prints where liblanehost was loaded from. */
    static final class PrintBundledPath {
        public static void main(String[] arguments) {
            System.out.println(LanehostLibrary.library().path());
        }
    }

    /** Loaded by {@link #bundleOwner}'s class loader; it only needs {@code java.lang.Object}. */
    static final class BundleOwner {
    }
}

package dev.lanehost.nativeabi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lanehost.nativeloader.LoadedLibrary;
import dev.lanehost.nativeloader.NativeLibraryException;
import dev.lanehost.nativeloader.NativeLibraryLoader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The loader's three steps, its ABI check and its error messages, against the real libraries this
 * module builds. Copies of liblanehost under other names stand in for "a library somewhere else".
 */
class NativeLibraryLoaderTest {
    private static final String LIBRARY_PATH = System.getProperty("java.library.path");

    @TempDir
    Path directory;

    @BeforeAll
    static void loadTheRealLibrariesFirst() {
        LanehostLibrary.library(); // before any test changes the search properties
    }

    @AfterEach
    void restoreProperties() {
        System.clearProperty(NativeLibraryLoader.PATH_PROPERTY);
        System.setProperty("java.library.path", LIBRARY_PATH);
    }

    @Test
    void bundledCopyIsExtractedToAVersionedDirectory() {
        LoadedLibrary library = LanehostLibrary.library();
        assertEquals("step 2: bundled copy", library.step());
        assertEquals(LanehostLibrary.ABI_VERSION, library.abiVersion());
        String parent = library.path().getParent().getFileName().toString();
        assertTrue(parent.matches("lanehost-0\\.1\\.0-SNAPSHOT-[0-9a-f]{16}"), parent);
        assertEquals(System.mapLibraryName("lanehost"), library.path().getFileName().toString());
    }

    @Test
    void explicitPathIsUsedFirst() throws IOException {
        copyOfLanehostAs("explicitcopy");
        System.setProperty(NativeLibraryLoader.PATH_PROPERTY, directory.toString());
        LoadedLibrary library = NativeLibraryLoader.load(getClass(), "explicitcopy", "lanehost_abi_version", 1);
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
        LoadedLibrary library = NativeLibraryLoader.load(getClass(), "systempathcopy", "lanehost_abi_version", 1);
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
        assertTrue(thrown.getMessage().contains("reports ABI version 1 but this lanehost"), thrown.getMessage());
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
                () -> NativeLibraryLoader.load(getClass(), "lanehost", "lanehost_abi_version", 2));
        assertTrue(thrown.getMessage().contains("already loaded"), thrown.getMessage());
    }

    private void copyOfLanehostAs(String name) throws IOException {
        Files.copy(LanehostLibrary.library().path(), directory.resolve(System.mapLibraryName(name)));
    }
}

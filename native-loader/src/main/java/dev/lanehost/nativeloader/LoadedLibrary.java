package dev.lanehost.nativeloader;

import java.lang.foreign.SymbolLookup;
import java.nio.file.Path;

/**
 * A library that {@link NativeLibraryLoader} loaded and version-checked.
 *
 * @param name       the library name without prefix or suffix
 * @param path       the file that was loaded
 * @param step       which search step found it, e.g. {@code "step 2: bundled copy"}
 * @param abiVersion the ABI version the library reported
 * @param lookup     its symbols; valid for the life of the JVM
 */
public record LoadedLibrary(String name, Path path, String step, int abiVersion, SymbolLookup lookup) {
}

package dev.lanehost.nativeloader;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Finds, loads and version-checks one of lanehost's shared libraries. Every module that has C code
 * loads it through this class, so there is exactly one search order to document and debug.
 *
 * <h2>Search order</h2>
 * <ol>
 *   <li><b>Explicit path.</b> If the system property {@value #PATH_PROPERTY} is set, it names a
 *       directory that must hold the library ({@code lib<name>.so} on Linux). Nothing else is
 *       tried: a user who names a path wants that copy, and silently loading another one would
 *       hide the mistake.</li>
 *   <li><b>The bundled copy.</b> The jar of the module that owns the library carries it at
 *       {@code dev/lanehost/native/<platform>/lib<name>.so}. It is extracted into
 *       {@code <per-user directory>/<version>-<content hash>/} and loaded from there. The per-user
 *       directory is {@code -D}{@value #EXTRACT_DIR_PROPERTY} if set, else
 *       {@code $XDG_RUNTIME_DIR/lanehost} if that is a private directory of this user, else
 *       {@code <java.io.tmpdir>/lanehost-<user.name>}; it and the versioned directory in it are created
 *       {@code rwx------}, and one that another user owns or can write is refused with the fix (a
 *       library is code, and such a directory would let them run theirs in this JVM). A copy already
 *       there is loaded only if its SHA-256 equals the bundled one's; any other copy is replaced, never
 *       loaded. A copy is written to a temporary file in the same directory and moved into place
 *       atomically, so concurrent JVMs never load a half-written file.</li>
 *   <li><b>{@code java.library.path}.</b> Each directory in order.</li>
 * </ol>
 *
 * <p>After loading, the library's ABI version function is called and compared with the version
 * the Java side was compiled against; a mismatch is an error, since calling a function whose
 * signature changed corrupts memory instead of failing.
 *
 * <p>When every step fails, the {@link NativeLibraryException} lists what each step tried and how
 * to fix it. A load that native access refuses ({@code --illegal-native-access=deny} without this module and the
 * owner's in {@code --enable-native-access}) ends the search at once, naming the flag to add ({@link NativeAccess}).
 * Each step is also logged at {@code DEBUG} on the {@code dev.lanehost.nativeloader} {@link System.Logger}; a
 * refused directory and a replaced copy at {@code WARNING}.
 *
 * <p>Libraries are loaded into the global arena and never unloaded; a library is loaded at most
 * once per JVM (later calls return the same {@link LoadedLibrary}).
 */
public final class NativeLibraryLoader {
    /** System property naming a directory that holds lanehost's libraries; overrides the bundled copy. */
    public static final String PATH_PROPERTY = "lanehost.native.path";

    /**
     * System property naming the directory bundled libraries are extracted into, instead of
     * {@code $XDG_RUNTIME_DIR/lanehost} or {@code <java.io.tmpdir>/lanehost-<user.name>} (for a
     * {@code /tmp} mounted {@code noexec}, say). It must be owned by this user and not group- or
     * world-writable; it is created {@code rwx------} if absent.
     */
    public static final String EXTRACT_DIR_PROPERTY = "lanehost.native.extractdir";

    /** Root of the bundled libraries inside a jar: {@code <root>/<platform>/<mapped name>}. */
    public static final String RESOURCE_ROOT = "dev/lanehost/native/";

    private static final System.Logger LOG = System.getLogger("dev.lanehost.nativeloader");
    private static final Map<String, LoadedLibrary> LOADED = new ConcurrentHashMap<>();
    private static final String VERSION = readVersion();

    private NativeLibraryLoader() {
    }

    /**
     * Loads a library once per JVM and checks its ABI version.
     *
     * @param owner       a class from the jar that bundles the library (its class loader finds the copy)
     * @param name        the library name without prefix or suffix, e.g. {@code "lanehost"}
     * @param abiSymbol   the exported {@code uint32_t fn(void)} that reports the library's ABI version
     * @param expectedAbi the ABI version this Java code was written against
     * @return the loaded library and the step that found it
     * @throws NativeLibraryException if no step produced a loadable library of the right ABI version
     */
    public static LoadedLibrary load(Class<?> owner, String name, String abiSymbol, int expectedAbi) {
        LoadedLibrary loaded = LOADED.get(name);
        if (loaded == null) {
            synchronized (NativeLibraryLoader.class) {
                loaded = LOADED.get(name);
                if (loaded == null) {
                    loaded = search(owner, name, abiSymbol, expectedAbi);
                    LOADED.put(name, loaded);
                }
            }
        }
        if (loaded.abiVersion() != expectedAbi) {
            throw new NativeLibraryException("lanehost's native library '" + name + "' is already loaded from " + loaded.path()
                    + " with ABI version " + loaded.abiVersion() + ", but a caller needs " + expectedAbi
                    + ": two lanehost releases are mixed on the class path");
        }
        return loaded;
    }

    /**
     * This lanehost's version, as the build wrote it into the loader's resources ({@code "unknown"} if that
     * resource is missing): the name of the directory bundled copies are extracted into starts with it.
     */
    public static String version() {
        return VERSION;
    }

    /** The platform directory name used for bundled libraries, e.g. {@code linux-x86_64}: this JVM's. */
    public static String platform() {
        return platform(System.getProperty("os.name", "unknown"), System.getProperty("os.arch", "unknown"));
    }

    /**
     * The platform directory name for a JVM's {@code os.name} and {@code os.arch}: {@code linux-x86_64} for
     * ("Linux", "amd64"), {@code linux-aarch64} for ("Linux", "aarch64"), the two the jars bundle.
     */
    public static String platform(String osName, String osArch) {
        String os = osName.toLowerCase(Locale.ROOT);
        String osPart = os.startsWith("linux") ? "linux"
                : os.startsWith("mac") ? "darwin"
                : os.startsWith("windows") ? "windows"
                : os.replaceAll("[^a-z0-9]", "");
        String arch = osArch.toLowerCase(Locale.ROOT);
        String archPart = switch (arch) {
            case "amd64", "x86_64" -> "x86_64";
            case "aarch64", "arm64" -> "aarch64";
            default -> arch;
        };
        return osPart + "-" + archPart;
    }

    /**
     * Where a jar bundles library {@code name} for {@code platform} (step 2 looks there for {@link #platform()}):
     * {@code dev/lanehost/native/<platform>/lib<name>.so} on Linux.
     */
    public static String bundledResource(String platform, String name) {
        return RESOURCE_ROOT + platform + "/" + System.mapLibraryName(name);
    }

    private static LoadedLibrary search(Class<?> owner, String name, String abiSymbol, int expectedAbi) {
        String fileName = System.mapLibraryName(name);
        List<String> tried = new ArrayList<>();

        // Step 1: the explicit directory. If set, it is the only place we look.
        String explicit = System.getProperty(PATH_PROPERTY);
        if (explicit != null && !explicit.isBlank()) {
            Path candidate = Path.of(explicit).resolve(fileName);
            LOG.log(System.Logger.Level.DEBUG, "lanehost native {0}: step 1, -D{1}={2}", name, PATH_PROPERTY, explicit);
            LoadedLibrary loaded = tryLoad(owner, name, candidate, "step 1: -D" + PATH_PROPERTY, abiSymbol, expectedAbi, tried);
            if (loaded != null) {
                return loaded;
            }
            throw failure(name, fileName, tried, "-D" + PATH_PROPERTY + " is set, so no other place was searched. "
                    + "Point it at the directory that holds " + fileName + " (a build's native/target/cmake), or unset it to use the copy bundled in the jar.");
        }
        tried.add("step 1: -D" + PATH_PROPERTY + " is not set");

        // Step 2: the copy bundled in the owner's jar, extracted into this user's private directory.
        String resource = bundledResource(platform(), name);
        LOG.log(System.Logger.Level.DEBUG, "lanehost native {0}: step 2, bundled resource {1}", name, resource);
        ClassLoader classLoader = owner.getClassLoader() != null ? owner.getClassLoader() : ClassLoader.getSystemClassLoader();
        String fix = "Build the project (bin/test or mvn install) so the jar bundles " + fileName
                + ", or pass -D" + PATH_PROPERTY + "=<directory holding " + fileName + ">.";
        try (InputStream in = classLoader.getResourceAsStream(resource)) {
            if (in == null) {
                tried.add("step 2: no bundled copy at " + resource + " on " + owner.getName() + "'s class path (platform " + platform() + ")");
            } else {
                Path extracted = extract(in.readAllBytes(), fileName);
                LoadedLibrary loaded = tryLoad(owner, name, extracted, "step 2: bundled copy", abiSymbol, expectedAbi, tried);
                if (loaded != null) {
                    return loaded;
                }
            }
        } catch (UnsafeDirectoryException e) {
            LOG.log(System.Logger.Level.WARNING, "lanehost native {0}: step 2 {1}", name, e.getMessage());
            tried.add("step 2: " + e.getMessage());
            fix = "The bundled copy was not extracted: " + e.fix();
        } catch (IOException | UncheckedIOException e) {
            tried.add("step 2: could not extract " + resource + ": " + e);
        }

        // Step 3: java.library.path.
        String libraryPath = System.getProperty("java.library.path", "");
        LOG.log(System.Logger.Level.DEBUG, "lanehost native {0}: step 3, java.library.path={1}", name, libraryPath);
        boolean anyDirectory = false;
        for (String directory : libraryPath.split(java.io.File.pathSeparator)) {
            if (directory.isBlank()) {
                continue;
            }
            anyDirectory = true;
            Path candidate = Path.of(directory).resolve(fileName);
            if (Files.isRegularFile(candidate)) {
                LoadedLibrary loaded = tryLoad(owner, name, candidate, "step 3: java.library.path", abiSymbol, expectedAbi, tried);
                if (loaded != null) {
                    return loaded;
                }
            }
        }
        tried.add(anyDirectory
                ? "step 3: " + fileName + " is in no directory of java.library.path (" + libraryPath + ")"
                : "step 3: java.library.path is empty");
        throw failure(name, fileName, tried, fix);
    }

    private static LoadedLibrary tryLoad(Class<?> owner, String name, Path candidate, String step, String abiSymbol, int expectedAbi, List<String> tried) {
        if (!Files.isRegularFile(candidate)) {
            tried.add(step + ": " + candidate + " does not exist");
            return null;
        }
        SymbolLookup lookup;
        try {
            lookup = SymbolLookup.libraryLookup(candidate, Arena.global());
        } catch (IllegalCallerException e) {
            // Native access denied: every other place would be refused the same way, and only a flag fixes it.
            throw new NativeLibraryException(NativeAccess.deniedMessage("loading " + candidate.getFileName(), e,
                    NativeLibraryLoader.class.getModule(), owner.getModule()));
        } catch (IllegalArgumentException e) {
            tried.add(step + ": " + candidate + " exists but could not be loaded: " + e.getMessage());
            return null;
        }
        int abi;
        try {
            MethodHandle version = Linker.nativeLinker().downcallHandle(
                    lookup.findOrThrow(abiSymbol), FunctionDescriptor.of(ValueLayout.JAVA_INT));
            abi = (int) version.invokeExact();
        } catch (Throwable e) {
            tried.add(step + ": " + candidate + " has no ABI version function " + abiSymbol + " (" + e.getMessage()
                    + "); it is not a lanehost library");
            return null;
        }
        if (abi != expectedAbi) {
            tried.add(step + ": " + candidate + " reports ABI version " + abi + " but this lanehost " + VERSION
                    + " needs " + expectedAbi + "; it comes from another release");
            return null;
        }
        LOG.log(System.Logger.Level.DEBUG, "lanehost native {0}: loaded {1} ({2}, ABI {3})", name, candidate, step, abi);
        return new LoadedLibrary(name, candidate, step, abi, lookup);
    }

    /**
     * Writes {@code bytes} to {@code <per-user directory>/<version>-<hash>/<fileName>} unless an identical
     * copy is already there. An existing file is trusted only by content: anything that does not hash
     * like the bundled copy (a planted library of the same size, a truncated write) is replaced.
     */
    private static Path extract(byte[] bytes, String fileName) throws IOException {
        byte[] digest = sha256(bytes);
        String hash = HexFormat.of().formatHex(digest, 0, 8);
        Path directory = PrivateDirectory.require(PrivateDirectory.forCurrentUser().resolve(VERSION + "-" + hash));
        Path target = directory.resolve(fileName);
        if (Files.isRegularFile(target, LinkOption.NOFOLLOW_LINKS)) {
            if (Files.size(target) == bytes.length && MessageDigest.isEqual(digest, sha256(Files.readAllBytes(target)))) {
                return target;
            }
            LOG.log(System.Logger.Level.WARNING, "lanehost native: {0} differs from the bundled copy; replacing it", target);
        }
        Path partial = Files.createTempFile(directory, fileName, ".partial");
        try {
            Files.write(partial, bytes);
            Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(partial);
        }
        return target;
    }

    private static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every JDK", e);
        }
    }

    private static NativeLibraryException failure(String name, String fileName, List<String> tried, String fix) {
        StringBuilder message = new StringBuilder("lanehost could not load the native library '")
                .append(name).append("' (").append(fileName).append(") for ").append(platform()).append(". Tried:");
        for (String attempt : tried) {
            message.append("\n  ").append(attempt);
        }
        message.append("\nFix: ").append(fix);
        return new NativeLibraryException(message.toString());
    }

    private static String readVersion() {
        try (InputStream in = NativeLibraryLoader.class.getResourceAsStream("version.properties")) {
            if (in == null) {
                return "unknown";
            }
            Properties properties = new Properties();
            properties.load(in);
            return properties.getProperty("version", "unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }
}

package dev.lanehost.nativeloader;

import com.sun.security.auth.module.UnixSystem;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * A directory that only the current user can write: where {@link NativeLibraryLoader} extracts bundled
 * libraries. A library is code that runs in this JVM, so a directory another local user can write is
 * a way for them to run code as us; it is refused, never used.
 *
 * <h2>Where</h2>
 * <ol>
 *   <li>{@value NativeLibraryLoader#EXTRACT_DIR_PROPERTY}, if set (for a {@code /tmp} mounted
 *       {@code noexec}, or a service account with a home of its own);</li>
 *   <li>else {@code $XDG_RUNTIME_DIR/lanehost}, if {@code XDG_RUNTIME_DIR} names a directory this user
 *       owns and nobody else can write (what systemd-logind creates for a login session);</li>
 *   <li>else {@code <java.io.tmpdir>/lanehost-<user.name>}.</li>
 * </ol>
 *
 * <h2>What is checked</h2>
 * The directory is created with permissions {@code rwx------} if absent. Whether created now or found,
 * it must then be a real directory (not a symbolic link), owned by this process's user, and neither
 * group- nor world-writable; otherwise {@link #require} throws an {@link UnsafeDirectoryException}
 * naming the directory, the problem and the fix. The check reads the directory itself, so a directory
 * another user planted at the predictable {@code /tmp} name before us is found out, not trusted.
 */
final class PrivateDirectory {
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rwx------");

    private PrivateDirectory() {
    }

    /** The per-user extraction root described above, created and checked. */
    static Path forCurrentUser() throws IOException {
        String explicit = System.getProperty(NativeLibraryLoader.EXTRACT_DIR_PROPERTY);
        if (explicit != null && !explicit.isBlank()) {
            Path directory = Path.of(explicit).toAbsolutePath();
            Path parent = directory.getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            return require(directory);
        }
        String runtime = System.getenv("XDG_RUNTIME_DIR");
        if (runtime != null && !runtime.isBlank() && isPrivate(Path.of(runtime))) {
            return require(Path.of(runtime, "lanehost"));
        }
        String user = System.getProperty("user.name", "unknown").replaceAll("[^A-Za-z0-9._-]", "_");
        return require(Path.of(System.getProperty("java.io.tmpdir"), "lanehost-" + user));
    }

    /**
     * Creates {@code directory} owner-only if it is absent, then checks it is ours alone.
     *
     * @throws UnsafeDirectoryException if another user owns it or could write into it
     */
    static Path require(Path directory) throws IOException {
        try {
            Files.createDirectory(directory, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
        } catch (FileAlreadyExistsException alreadyThere) {
            // Found rather than made: exactly the case the checks below are for.
        } catch (UnsupportedOperationException noPosix) {
            throw new IOException("the file system of " + directory + " has no POSIX permissions, so lanehost cannot make "
                    + "a directory only you can write; set -D" + NativeLibraryLoader.EXTRACT_DIR_PROPERTY
                    + " to a directory on a POSIX file system", noPosix);
        }
        String problem = problem(directory);
        if (problem != null) {
            throw new UnsafeDirectoryException(directory, problem, fix(directory, problem));
        }
        return directory;
    }

    /** Whether {@code XDG_RUNTIME_DIR} is what the XDG base directory spec promises; if not, it is passed over. */
    private static boolean isPrivate(Path runtime) {
        try {
            return runtime.isAbsolute() && problem(runtime) == null;
        } catch (IOException | UnsupportedOperationException unreadable) {
            return false;
        }
    }

    /** Why {@code directory} is not ours alone, or null if it is. */
    private static String problem(Path directory) throws IOException {
        if (!Files.exists(directory, LinkOption.NOFOLLOW_LINKS)) {
            return "it does not exist";
        }
        PosixFileAttributes attributes = Files.readAttributes(directory, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        if (attributes.isSymbolicLink()) {
            return "it is a symbolic link, which whoever made it can point anywhere";
        }
        if (!attributes.isDirectory()) {
            return "it is not a directory";
        }
        long owner = ((Number) Files.getAttribute(directory, "unix:uid", LinkOption.NOFOLLOW_LINKS)).longValue();
        long self = currentUid();
        if (owner != self) {
            return "it is owned by uid " + owner + ", not by this user (uid " + self + "), so its owner could swap the library";
        }
        Set<PosixFilePermission> permissions = attributes.permissions();
        if (permissions.contains(PosixFilePermission.GROUP_WRITE) || permissions.contains(PosixFilePermission.OTHERS_WRITE)) {
            return "it is group- or world-writable (" + PosixFilePermissions.toString(permissions)
                    + "), so another user could swap the library";
        }
        return null;
    }

    private static String fix(Path directory, String problem) {
        String elsewhere = "or set -D" + NativeLibraryLoader.EXTRACT_DIR_PROPERTY + "=<a directory only you can write>";
        if (problem.startsWith("it is group- or world-writable")) {
            return "run 'chmod 700 " + directory + "' if you made it, or remove it if you did not, " + elsewhere + ".";
        }
        return "remove " + directory + " (someone else made it; check what it holds first), " + elsewhere + ".";
    }

    /**
     * The user this process runs as. {@code UnixSystem} (module {@code jdk.security.auth}, present in
     * every full JDK) is the one portable way to ask without native code of our own.
     */
    private static long currentUid() {
        return new UnixSystem().getUid();
    }
}

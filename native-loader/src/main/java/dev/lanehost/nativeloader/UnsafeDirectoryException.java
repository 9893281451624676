package dev.lanehost.nativeloader;

import java.io.IOException;
import java.nio.file.Path;

/** An extraction directory that another user owns or could write: refused, with what to do about it. */
final class UnsafeDirectoryException extends IOException {
    private final String fix;

    UnsafeDirectoryException(Path directory, String problem, String fix) {
        super("refused to extract into " + directory + ": " + problem);
        this.fix = fix;
    }

    /** How the user makes the directory safe or points the loader elsewhere. */
    String fix() {
        return fix;
    }
}

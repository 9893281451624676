package dev.lanehost.nativeloader;

/** No search step produced a loadable library of the right ABI version; the message lists every attempt. */
public final class NativeLibraryException extends RuntimeException {
    public NativeLibraryException(String message) {
        super(message);
    }
}

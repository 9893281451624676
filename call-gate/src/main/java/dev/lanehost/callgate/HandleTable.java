package dev.lanehost.callgate;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Opaque 64-bit handles for objects C code refers to. A handle carries its kind in the top byte and a
 * never-reused serial below, so a stale handle, a handle of another kind, or a made-up number is
 * recognised (and answered with INVALID_ARGUMENT) instead of reaching the wrong object.
 */
final class HandleTable<T> {
    private final long kind;
    private final Map<Long, T> live = new ConcurrentHashMap<>();
    private final AtomicLong serial = new AtomicLong();

    HandleTable(int kind) {
        if (kind < 1 || kind > 0x7F) {
            throw new IllegalArgumentException("kind must be in 1..127, got " + kind);
        }
        this.kind = (long) kind << 56;
    }

    long register(T object) {
        long handle = kind | (serial.incrementAndGet() & 0x00FF_FFFF_FFFF_FFFFL);
        live.put(handle, object);
        return handle;
    }

    /** The object, or null if the handle is unknown, stale or of another kind. */
    T lookup(long handle) {
        return live.get(handle);
    }

    boolean unregister(long handle) {
        return live.remove(handle) != null;
    }
}

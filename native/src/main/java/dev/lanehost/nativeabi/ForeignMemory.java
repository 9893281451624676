package dev.lanehost.nativeabi;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * A host's memory as the entries read and write it: addresses arrive as {@code long}s and are reached
 * through one segment spanning the address space, so a write to {@code *out} allocates nothing. A NULL
 * address is refused here; any other address is trusted, as a C function trusts its pointers.
 */
final class ForeignMemory {
    private static final MemorySegment EVERYTHING = MemorySegment.NULL.reinterpret(Long.MAX_VALUE);

    /** A bad argument found while reading the host's memory; its message is the host's last error. */
    static final class InvalidArgument extends RuntimeException {
        InvalidArgument(String message) {
            super(message, null, false, false); // an answer to the host, not a bug: no stack trace
        }
    }

    private ForeignMemory() {
    }

    /** The segment spanning the address space: an address is its own offset in it. */
    static MemorySegment everything() {
        return EVERYTHING;
    }

    static void requireNonNull(long address, String what) {
        if (address == 0) {
            throw new InvalidArgument(what + " is NULL");
        }
    }

    /** A NUL-terminated UTF-8 name of at most {@link HostAbiDescriptor#MAX_NAME_BYTES} bytes. */
    static String name(long address) {
        requireNonNull(address, "the name");
        int length = 0;
        while (EVERYTHING.get(JAVA_BYTE, address + length) != 0) {
            if (++length > HostAbiDescriptor.MAX_NAME_BYTES) {
                throw new InvalidArgument("the name is longer than " + HostAbiDescriptor.MAX_NAME_BYTES
                        + " bytes (or not NUL-terminated)");
            }
        }
        byte[] bytes = copy(address, length);
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new InvalidArgument("the name is not valid UTF-8");
        }
    }

    /** A copy of {@code length} bytes at {@code address}; NULL is allowed for length 0. */
    static byte[] copy(long address, long length) {
        if (length == 0) {
            return new byte[0];
        }
        requireNonNull(address, "a buffer with a nonzero length");
        return EVERYTHING.asSlice(address, length).toArray(JAVA_BYTE);
    }

    static void copyOut(byte[] source, long address) {
        MemorySegment.copy(source, 0, EVERYTHING, JAVA_BYTE, address, source.length);
    }

    static void putInt(long address, int value) {
        EVERYTHING.set(JAVA_INT_UNALIGNED, address, value);
    }

    static void putLong(long address, long value) {
        EVERYTHING.set(JAVA_LONG_UNALIGNED, address, value);
    }

    static void putByte(long address, byte value) {
        EVERYTHING.set(JAVA_BYTE, address, value);
    }
}

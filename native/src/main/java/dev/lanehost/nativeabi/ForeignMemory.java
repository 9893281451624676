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
 * through one segment spanning the address space, so a write to {@code *out} allocates nothing. NULL and
 * addresses no Linux process maps memory at (below {@link HostAbiDescriptor#LOWEST_ADDRESS}, from
 * 2^{@link HostAbiDescriptor#ADDRESS_BITS} up, or a range that runs past it) are refused here, before any byte is
 * read or written; any other address is trusted, as a C function trusts its pointers.
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

    /** One past the highest address a process maps memory at. */
    private static final long ADDRESS_LIMIT = 1L << HostAbiDescriptor.ADDRESS_BITS;

    /** {@code what} at {@code address} is a pointer to {@code length} bytes a process could have mapped. */
    static void requireNonNull(long address, String what) {
        require(address, 1, what);
    }

    /** True if {@code length} bytes (at least 1) at {@code address} could be mapped: {@link #require} would pass. */
    static boolean plausible(long address, long length) {
        return address >= HostAbiDescriptor.LOWEST_ADDRESS && address < ADDRESS_LIMIT && length <= ADDRESS_LIMIT - address;
    }

    /** The {@code length} bytes at {@code address} (length at least 1) lie where a process can map memory. */
    static void require(long address, long length, String what) {
        if (address == 0) {
            throw new InvalidArgument(what + " is NULL");
        }
        if (!plausible(address, length)) {
            throw new InvalidArgument(what + " (0x" + Long.toHexString(address) + (length > 1 ? ", " + length + " bytes" : "")
                    + ") is not memory a process can map: addresses lie in " + HostAbiDescriptor.LOWEST_ADDRESS + "..2^"
                    + HostAbiDescriptor.ADDRESS_BITS);
        }
    }

    /** A UTF-8 name of 1..{@link HostAbiDescriptor#MAX_NAME_BYTES} bytes without NUL, of exactly {@code length} bytes. */
    static String name(long address, long length) {
        if (length < 1 || length > HostAbiDescriptor.MAX_NAME_BYTES) {
            throw new InvalidArgument("name_length must be 1.." + HostAbiDescriptor.MAX_NAME_BYTES + ", got "
                    + Long.toUnsignedString(length) + (length == 0 ? " (an export's name is never empty)" : ""));
        }
        require(address, length, "the name");
        byte[] bytes = copy(address, length);
        for (byte b : bytes) {
            if (b == 0) {
                throw new InvalidArgument("the name holds a NUL byte within its name_length of " + length);
            }
        }
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
        require(address, length, "a buffer with a nonzero length");
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

package dev.lanehost.callgate.value;

import java.io.IOException;
import java.math.BigInteger;

/**
 * Where {@link PlainValueWriter}'s walk of a value goes: CBOR bytes ({@link CborWriter}), or a plain copy built
 * directly ({@link CopySink}), which is what {@code decode(encode(v))} gives without the bytes in between. The
 * walk decides what is written (and every failure); a sink only writes it.
 */
interface PlainSink {
    void writeNull() throws IOException;

    void writeBoolean(boolean value) throws IOException;

    void writeInteger(long value) throws IOException;

    /** An integer outside 64-bit two's complement, of at most {@link PlainCodec#MAX_BIG_INTEGER_BITS} bits plus sign. */
    void writeBigInteger(BigInteger value) throws IOException;

    void writeFloat(float value) throws IOException;

    void writeDouble(double value) throws IOException;

    /** A string with no unpaired surrogate. */
    void writeText(String text) throws IOException;

    void writeBytes(byte[] bytes, int offset, int length) throws IOException;

    /** A map key: {@code encodedKey} is the same key as a CBOR text string item (a record's component name), or null. */
    void writeKey(String key, byte[] encodedKey) throws IOException;

    void startList(Object list, int size) throws IOException;

    void endList() throws IOException;

    void startMap(Object map, int size) throws IOException;

    void endMap() throws IOException;
}

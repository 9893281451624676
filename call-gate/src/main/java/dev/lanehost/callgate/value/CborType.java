package dev.lanehost.callgate.value;

/** What the next item of a {@link CborIn} is, without reading it. */
public enum CborType {
    /** Major types 0 and 1: {@link CborIn#readLong}, or {@link CborIn#readDouble} as a number. */
    INTEGER,
    /** Tag 2 or 3 on a byte string: an integer outside 64 bits, skipped or decoded by {@link PlainCodec}. */
    BIG_INTEGER,
    /** A half, single or double float: {@link CborIn#readDouble}. */
    FLOAT,
    BOOLEAN,
    NULL,
    /** A text string: {@link CborIn#readText}, {@link CborIn#nextTextIs}. */
    TEXT,
    /** A byte string: {@link CborIn#readBytes}. */
    BYTES,
    /** {@link CborIn#readArray}. */
    ARRAY,
    /** {@link CborIn#readMap}. */
    MAP,
    /** The break that ends an indefinite-length array or map: {@link CborIn#readBreak}. */
    BREAK,
    /** Anything else a plain value does not use (other tags and simple values, {@code undefined}). */
    OTHER,
    /** No bytes are left in the region. */
    END
}

package dev.lanehost.callgate.value;

import com.fasterxml.jackson.core.StreamWriteConstraints;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.dataformat.cbor.CBORFactory;
import com.fasterxml.jackson.dataformat.cbor.CBORGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A walk written as CBOR through Jackson's generator, configured as lanehost's codec used it before it wrote CBOR
 * itself: the independent implementation {@link CborWriter}'s bytes are compared with.
 */
final class JacksonCborSink implements PlainSink {
    private static final CBORFactory FACTORY = CBORFactory.builder()
            .enable(CBORGenerator.Feature.WRITE_MINIMAL_INTS)
            .streamWriteConstraints(StreamWriteConstraints.builder().maxNestingDepth(PlainCodec.MAX_DEPTH).build())
            .build();

    private final CBORGenerator out;
    private final ByteArrayOutputStream target;
    /** Where an 8-byte major type 0 head was written that stands for major type 1 (see writeBigInteger). */
    private final List<Integer> majorTypeOneHeads = new ArrayList<>();

    /** {@code value} as Jackson writes it, through the same walk as {@link PlainCodec#encode(Object)}. */
    static byte[] encode(Object value) throws IOException, PlainValueException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        JacksonCborSink sink;
        try (CBORGenerator generator = FACTORY.createGenerator(bytes)) {
            sink = new JacksonCborSink(generator, bytes);
            new PlainValueWriter(sink).write(value);
        }
        byte[] encoded = bytes.toByteArray();
        for (int i = 0; i < sink.majorTypeOneHeads.size(); i++) {
            encoded[sink.majorTypeOneHeads.get(i)] = 0x3b; // major type 1, 8-byte argument: 0x1b plus 0x20
        }
        return encoded;
    }

    private JacksonCborSink(CBORGenerator out, ByteArrayOutputStream target) {
        this.out = out;
        this.target = target;
    }

    @Override
    public void writeNull() throws IOException {
        out.writeNull();
    }

    @Override
    public void writeBoolean(boolean value) throws IOException {
        out.writeBoolean(value);
    }

    @Override
    public void writeInteger(long value) throws IOException {
        out.writeNumber(value);
    }

    @Override
    public void writeBigInteger(BigInteger value) throws IOException {
        if (value.bitLength() == Long.SIZE && value.signum() > 0) {
            out.writeNumberUnsigned(value.longValue()); // 2^63 .. 2^64-1: major type 0, what a C uint64_t sends
            return;
        }
        if (value.bitLength() == Long.SIZE) {
            // -2^64 .. -2^63-1: major type 1 over -1-n (RFC 8949 preferred serialization). Jackson has no call that
            // writes a 64-bit major type 1 argument, so it writes the same argument as major type 0 (counted as an
            // item by its container checks) and encode() turns that head's first byte into major type 1.
            majorTypeOneHeads.add(target.size() + out.getOutputBuffered());
            out.writeNumberUnsigned(value.not().longValue());
            return;
        }
        // Tag 2 over n, or tag 3 over −1 − n, with the magnitude in as few bytes as hold it (RFC 8949 preferred
        // serialization). Jackson's writeNumber(BigInteger) writes toByteArray(), which puts a 00 sign byte in
        // front of a magnitude whose top bit is set.
        boolean negative = value.signum() < 0;
        BigInteger magnitude = negative ? value.not() : value; // not() is -1 - n
        byte[] bytes = magnitude.toByteArray();
        int start = bytes[0] == 0 ? 1 : 0; // the sign byte; a bignum's magnitude is never 0, so one byte remains
        out.writeTag(negative ? 3 : 2);
        out.writeBinary(bytes, start, bytes.length - start);
    }

    @Override
    public void writeFloat(float value) throws IOException {
        out.writeNumber(value);
    }

    @Override
    public void writeDouble(double value) throws IOException {
        out.writeNumber(value);
    }

    @Override
    public void writeText(String text) throws IOException {
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        // Raw UTF-8 keeps every string definite-length; Jackson's writeString chunks long strings into
        // indefinite-length text, which some C decoders (QCBOR) only read with an allocator configured.
        out.writeRawUTF8String(utf8, 0, utf8.length);
    }

    @Override
    public void writeBytes(byte[] bytes, int offset, int length) throws IOException {
        out.writeBinary(bytes, offset, length);
    }

    @Override
    public void writeKey(String key, byte[] encodedKey) throws IOException {
        out.writeFieldName(new SerializedString(key)); // definite-length too, unlike writeFieldName(String)
    }

    @Override
    public void startList(Object list, int size) throws IOException {
        out.writeStartArray(list, size);
    }

    @Override
    public void endList() throws IOException {
        out.writeEndArray();
    }

    @Override
    public void startMap(Object map, int size) throws IOException {
        out.writeStartObject(map, size);
    }

    @Override
    public void endMap() throws IOException {
        out.writeEndObject();
    }
}

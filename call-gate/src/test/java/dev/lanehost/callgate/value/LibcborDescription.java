package dev.lanehost.callgate.value;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.random.RandomGenerator;

/**
 * Describes a plain value for {@code cbor_interop encode} (the grammar is at the top of
 * {@code src/test/c/cbor_interop.c}), choosing at random among the valid spellings libcbor's encoders can
 * write: integer heads wider than needed, bignums for small integers (with leading zero bytes), floats in
 * any width that holds them exactly, indefinite-length strings split into chunks, indefinite arrays and maps.
 * Decoding any of them must give the value back.
 */
final class LibcborDescription {

    private final RandomGenerator random;
    private final StringBuilder text = new StringBuilder();

    private LibcborDescription(RandomGenerator random) {
        this.random = random;
    }

    static String of(Object value, RandomGenerator random) {
        LibcborDescription description = new LibcborDescription(random);
        description.item(value);
        return description.text.toString().strip();
    }

    private void token(String token) {
        text.append(token).append(' ');
    }

    private void item(Object value) {
        switch (value) {
            case null -> token("null");
            case Boolean b -> token(b.toString());
            case Byte b -> integer(BigInteger.valueOf(b));
            case Short s -> integer(BigInteger.valueOf(s));
            case Integer i -> integer(BigInteger.valueOf(i));
            case Long l -> integer(BigInteger.valueOf(l));
            case BigInteger big -> integer(big);
            case Float f -> floating(f);
            case Double d -> floating(d);
            case String s -> string(s.getBytes(StandardCharsets.UTF_8), true);
            case byte[] bytes -> string(bytes, false);
            case List<?> list -> {
                boolean indefinite = random.nextInt(4) == 0;
                token(indefinite ? "iarray" : "array " + list.size());
                list.forEach(this::item);
                if (indefinite) {
                    token("end");
                }
            }
            case Map<?, ?> map -> {
                boolean indefinite = random.nextInt(4) == 0;
                token(indefinite ? "imap" : "map " + map.size());
                map.forEach((key, entry) -> {
                    item(key);
                    item(entry);
                });
                if (indefinite) {
                    token("end");
                }
            }
            default -> throw new IllegalArgumentException("not a plain value in these tests: " + value.getClass().getName());
        }
    }

    private void integer(BigInteger value) {
        boolean negative = value.signum() < 0;
        BigInteger argument = negative ? value.not() : value; // major type 1 and tag 3 both carry -1 - n
        if (argument.bitLength() > 64 || random.nextInt(8) == 0) {
            token("tag " + (negative ? 3 : 2));
            byte[] magnitude = argument.signum() == 0 ? new byte[0] : unsigned(argument);
            int zeros = Math.min(random.nextInt(3), PlainCodec.MAX_BIGNUM_BYTES - magnitude.length);
            token("h:" + "00".repeat(zeros) + PlainValues.hex(magnitude));
            return;
        }
        int needed = argument.compareTo(BigInteger.valueOf(24)) < 0 ? 0
                : argument.bitLength() <= 8 ? 8 : argument.bitLength() <= 16 ? 16 : argument.bitLength() <= 32 ? 32 : 64;
        int[] widths = {0, 8, 16, 32, 64};
        int width = widths[random.nextInt(widths.length)];
        if (width != 0 && width < needed) {
            width = needed;
        }
        token((negative ? "negint " : "uint ") + width + " " + argument);
    }

    private static byte[] unsigned(BigInteger magnitude) {
        byte[] bytes = magnitude.toByteArray();
        return bytes[0] == 0 ? Arrays.copyOfRange(bytes, 1, bytes.length) : bytes;
    }

    private void floating(double value) {
        float single = (float) value;
        boolean fitsSingle = Double.isNaN(value) || (double) single == value;
        if (fitsSingle && random.nextBoolean()) {
            floating(single);
        } else {
            token("double " + String.format("%016x", Double.doubleToRawLongBits(value)));
        }
    }

    private void floating(float value) {
        short half = Float.floatToFloat16(value);
        boolean fitsHalf = Float.isNaN(value) || Float.float16ToFloat(half) == value
                && Float.floatToRawIntBits(Float.float16ToFloat(half)) == Float.floatToRawIntBits(value);
        // libcbor 0.8's cbor_encode_half drops the low bits of a subnormal half (0x03ff comes out as f9 0200),
        // so subnormal halves are only checked on the decoding side (everyHalfDecodesAsLibcborDecodesIt).
        boolean subnormalHalf = (half & 0x7c00) == 0 && (half & 0x03ff) != 0;
        int choice = random.nextInt(3);
        if (fitsHalf && !subnormalHalf && choice == 0) {
            token("half " + String.format("%04x", half & 0xffff));
        } else if (choice == 1) {
            token("double " + String.format("%016x", Double.doubleToRawLongBits(value)));
        } else {
            token("single " + String.format("%08x", Float.floatToRawIntBits(value)));
        }
    }

    private void string(byte[] bytes, boolean utf8) {
        String prefix = utf8 ? "t:" : "h:";
        if (random.nextInt(4) != 0) {
            token(prefix + PlainValues.hex(bytes));
            return;
        }
        // Indefinite: chunks of random length, text split only between characters (RFC 8949 section 3.2.3).
        token(utf8 ? "itext" : "ibytes");
        int at = 0;
        while (at < bytes.length || random.nextInt(4) == 0) {
            int end = Math.min(bytes.length, at + random.nextInt(6));
            while (utf8 && end < bytes.length && (bytes[end] & 0xc0) == 0x80) {
                end++;
            }
            token(prefix + PlainValues.hex(Arrays.copyOfRange(bytes, at, end)));
            at = end;
            if (at == bytes.length && random.nextBoolean()) {
                break;
            }
        }
        token("end");
    }
}

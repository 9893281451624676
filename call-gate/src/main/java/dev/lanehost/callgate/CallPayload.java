package dev.lanehost.callgate;

import dev.lanehost.callgate.value.CborOut;
import dev.lanehost.callgate.value.PlainCodec;
import dev.lanehost.callgate.value.PlainValueException;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A call's payload ({@link GateCall}'s, the one subclass): its arguments, loaded and checked before the call is queued,
 * and an OK result's way back to a CBOR caller, the writer the turn wrote it into or, for a short one, two words of
 * the call. The turn that reads the one and writes the other is {@link GateCall}'s.
 */
abstract sealed class CallPayload extends CallRendezvous permits GateCall {
    /** An argument buffer a reused call keeps between calls; a call that grew past this gives it up. */
    static final int KEPT_ARGUMENT_BYTES = 64 << 10;
    /** The largest encoded result the turn hands over in the call's own words ({@code smallResultLow}, {@code smallResultHigh}). */
    static final int SMALL_RESULT_BYTES = 2 * Long.BYTES;
    /** The most CBOR argument bytes the call hands the turn in two words of its own ({@code smallArgumentsLow}, {@code High}). */
    static final int SMALL_ARGUMENT_BYTES = 2 * Long.BYTES;
    /** Eight bytes of an array as one word, byte i in bits 8i: how small arguments go into the call's words and out. */
    private static final VarHandle WORD = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    /** The most argument bytes a call takes: a Java array's bound. */
    static final long MAX_ARGUMENT_BYTES = Integer.MAX_VALUE - 8;

    /** The most elements of a flat list of arguments the call holds in its own fields ({@link #holdFlat}). */
    static final int FLAT_ELEMENTS = 4;
    /** The lists whose reading runs no code of the caller's, besides {@code ArrayList} (as the copy's own fast path takes). */
    private static final Class<?> LIST_OF_ONE_OR_TWO = List.of(1).getClass();
    private static final Class<?> LIST_OF_OTHER_SIZES = List.of().getClass();
    private static final Class<?> ARRAYS_AS_LIST = Arrays.asList().getClass();
    private static final Object NOT_A_LEAF = new Object();

    /** The arguments as plain values, for a {@link CallHandler}; unused while {@code flatSize >= 0}. */
    Object args;
    /**
     * A Java caller's short list of leaf arguments, held in the call's own words until the turn makes the handler's
     * list from them ({@link #plainArguments}): the size, or -1 (the copy is in {@code args}). The actor's thread reads
     * the call it is handed anyway; a list and its array made by the caller would be two more lines of the caller's
     * core, each fetched only once the one before has come: far, a line's trip each.
     */
    private int flatSize = -1;
    private Object flat0;
    private Object flat1;
    private Object flat2;
    private Object flat3;
    /** The arguments as CBOR, {@code argBytes[0, argLength)}, for a {@link CborCallHandler}; the array is the call's. */
    byte[] argBytes;
    /** {@code argBytes} as a segment, made with the array: a copy into a bare array wraps it anew each time (~56 B when the JIT does not remove it). */
    MemorySegment argSegment;
    int argLength;
    /**
     * CBOR arguments of up to {@value #SMALL_ARGUMENT_BYTES} bytes, also packed by the caller into these words (byte i
     * in bits 8i of word i / 8) once copied and checked, so the turn reads them from the call it is handed, not from
     * {@code argBytes}, which the caller's core wrote: far, a line's trip less. Unused unless {@code argumentsInWords}.
     */
    private long smallArgumentsLow;
    private long smallArgumentsHigh;
    private boolean argumentsInWords;
    /** The turn's own array for arguments held in words: made and written on the actor's thread only. */
    private byte[] turnArgumentBytes;
    /** A CBOR caller: the result stays encoded (in {@code out}); a Java caller gets a plain copy, no bytes. */
    boolean encodedResult;
    CborOut out;
    /**
     * An OK encoded result of up to {@value #SMALL_RESULT_BYTES} bytes, copied by the turn into these words (byte i in
     * bits 8i of word i / 8) just before the outcome's CAS publishes it, so the caller reads it from the call and not
     * from the writer, its writer and its array, which the actor's thread wrote: three lines, one after the other (a
     * blocking CBOR call spent a third of its time there). The length, or -1: the result is in {@code out}.
     */
    long smallResultLow;
    long smallResultHigh;
    int smallResultLength = -1;

    CallPayload(CallGate gate, boolean kept) {
        super(gate, kept);
    }

    // ---------------------------------------------------------------- the arguments, before the call is queued

    /**
     * A Java caller's arguments, copied before the call is queued. A short JDK list of leaves (null, {@code Boolean},
     * {@code Integer}, {@code Long}, {@code Double}, {@code String}: what {@link PlainCodec#copy} copies without its
     * walk) has its elements, as the copy would hold them, kept in the call's own words, and no list is made on this
     * thread; anything else is copied ({@code args}). Plain stores: the mailbox offer's release publishes them to the
     * actor's thread.
     */
    void loadPlainArguments(Object value) throws PlainValueException {
        if (!holdFlat(value)) {
            args = CallGate.CODEC.copy(value).value();
        }
    }

    /** Holds {@code value}'s elements if it is a short JDK list of leaves. @return true if it did */
    private boolean holdFlat(Object value) {
        if (!(value instanceof List<?> list)) {
            return false;
        }
        Class<?> type = list.getClass();
        if (type != ArrayList.class && type != LIST_OF_ONE_OR_TWO && type != LIST_OF_OTHER_SIZES && type != ARRAYS_AS_LIST) {
            return false;
        }
        try {
            int size = list.size();
            if (size > FLAT_ELEMENTS) {
                return false;
            }
            Object e0 = null, e1 = null, e2 = null, e3 = null;
            for (int i = 0; i < size; i++) {
                Object element = leaf(list.get(i));
                if (element == NOT_A_LEAF) {
                    return false;
                }
                switch (i) {
                    case 0 -> e0 = element;
                    case 1 -> e1 = element;
                    case 2 -> e2 = element;
                    default -> e3 = element;
                }
            }
            flat0 = e0;
            flat1 = e1;
            flat2 = e2;
            flat3 = e3;
            flatSize = size;
            return true;
        } catch (RuntimeException e) { // an ArrayList another thread changes meanwhile: the copy reports what it meets
            return false;
        }
    }

    /** {@code element} as the copy holds it, if the copy takes it as it is, else {@link #NOT_A_LEAF}. */
    private static Object leaf(Object element) {
        if (element == null || element instanceof Long || element instanceof Boolean || element instanceof Double) {
            return element;
        }
        if (element instanceof Integer number) {
            return number.longValue();
        }
        if (element instanceof String) {
            try {
                return CallGate.CODEC.copy(element).value(); // itself, unless the copy refuses it (an unpaired surrogate)
            } catch (PlainValueException refused) {
                return NOT_A_LEAF; // the whole copy names it, and where
            }
        }
        return NOT_A_LEAF;
    }

    /** The handler's arguments: the copy, or a new list of the held flat elements, made on the actor's thread. */
    Object plainArguments() {
        if (flatSize < 0) {
            return args;
        }
        ArrayList<Object> list = new ArrayList<>(flatSize);
        if (flatSize > 0) {
            list.add(flat0);
        }
        if (flatSize > 1) {
            list.add(flat1);
        }
        if (flatSize > 2) {
            list.add(flat2);
        }
        if (flatSize > 3) {
            list.add(flat3);
        }
        return list;
    }

    /** Whether the arguments are held in the call's own words (tests). */
    boolean holdsFlatArguments() {
        return flatSize >= 0;
    }

    /**
     * The caller's CBOR into the call, checked (a CBOR gate) or decoded (a plain gate) before anything is queued.
     *
     * @return null, or what is wrong with the region (nothing was loaded)
     */
    String loadArguments(MemorySegment source, long offset, long length, boolean cborGate) throws PlainValueException {
        if (length < 0 || length > MAX_ARGUMENT_BYTES) {
            return "the arguments' length must be 0.." + MAX_ARGUMENT_BYTES + ", got " + length;
        }
        if (length > 0 && (source == null || offset < 0 || offset > source.byteSize() - length)) {
            return "the arguments' region [" + offset + ", +" + length + ") is not inside "
                    + (source == null ? "a null segment" : "the " + source.byteSize() + "-byte segment");
        }
        try {
            copyArguments(source, offset, (int) length);
        } catch (IllegalStateException | WrongThreadException e) { // its arena closed, or it is confined elsewhere
            return "the arguments' segment cannot be read here: " + e.getMessage();
        }
        if (cborGate) {
            validateArguments();
            packSmallArguments();
        } else {
            decodeArguments();
        }
        return null;
    }

    /**
     * The caller's CBOR arguments, copied into the call's own array ({@code length} 0: none). A blocking caller may
     * time out and reuse its buffer while the turn still reads: the turn reads only the copy.
     */
    private void copyArguments(MemorySegment source, long offset, int length) {
        if (argSegment == null || argBytes.length < length || argBytes.length > KEPT_ARGUMENT_BYTES && length <= KEPT_ARGUMENT_BYTES) {
            argBytes = new byte[Math.max(length, 64)];
            argSegment = MemorySegment.ofArray(argBytes);
        }
        if (length > 0) {
            MemorySegment.copy(source, offset, argSegment, 0, length);
        }
        argLength = length;
    }

    /**
     * Checked CBOR arguments short enough into the call's words. The copy's array has at least 64 bytes, so both words
     * lie inside it; bytes past the arguments are never read from the turn's array.
     */
    private void packSmallArguments() {
        argumentsInWords = argLength <= SMALL_ARGUMENT_BYTES;
        if (argumentsInWords) {
            smallArgumentsLow = (long) WORD.get(argBytes, 0);
            smallArgumentsHigh = (long) WORD.get(argBytes, Long.BYTES);
        }
    }

    /** The turn's CBOR arguments, {@code [0, argLength)} of the array returned: the words unpacked, or {@code argBytes}. */
    byte[] turnArguments() {
        if (!argumentsInWords) {
            return argBytes;
        }
        if (turnArgumentBytes == null) {
            turnArgumentBytes = new byte[SMALL_ARGUMENT_BYTES];
        }
        byte[] bytes = turnArgumentBytes;
        WORD.set(bytes, 0, smallArgumentsLow);
        WORD.set(bytes, Long.BYTES, smallArgumentsHigh);
        return bytes;
    }

    /** Whether the arguments reach the turn in the call's words (tests). */
    boolean holdsArgumentsInWords() {
        return argumentsInWords;
    }

    /** A Java caller's plain arguments for a CBOR gate: encoded once, at the call. */
    void encodeArguments(Object plainArgs) throws PlainValueException {
        argumentsInWords = false; // a new call's own array, as long as the encoding
        argBytes = CallGate.CODEC.encode(plainArgs);
        argSegment = null; // not this array's: the next copy makes its own
        argLength = argBytes.length;
    }

    /** For a plain gate: the CBOR arguments as the handler's values, decoded (and refused if malformed) before queuing. */
    private void decodeArguments() throws PlainValueException {
        args = argLength == 0 ? null : CallGate.CODEC.decode(argBytes, 0, argLength);
    }

    /** For a CBOR gate: the arguments checked whole before queuing, so the handler meets well-formed input. */
    private void validateArguments() throws PlainValueException {
        if (argLength > 0) {
            PlainCodec.validate(argBytes, 0, argLength);
        }
    }

    /** An encoded result short enough into the call's own words, or -1 as its length: the caller reads {@code out}. */
    void packSmallResult() {
        int length = out.length();
        if (length > SMALL_RESULT_BYTES) {
            smallResultLength = -1;
            return;
        }
        byte[] bytes = out.array();
        long low = 0;
        long high = 0;
        for (int i = 0; i < length; i++) {
            long unsigned = bytes[i] & 0xffL;
            if (i < Long.BYTES) {
                low |= unsigned << (8 * i);
            } else {
                high |= unsigned << (8 * (i - Long.BYTES));
            }
        }
        smallResultLow = low;
        smallResultHigh = high;
        smallResultLength = length;
    }

    public int encodedLength() {
        if (!encodedResult) {
            return -1;
        }
        return smallResultLength >= 0 ? smallResultLength : out.length();
    }
}

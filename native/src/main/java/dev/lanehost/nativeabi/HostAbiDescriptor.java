package dev.lanehost.nativeabi;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.FunctionDescriptor;
import java.util.Map;

/**
 * The host function table, {@code lanehost_api} in {@code lanehost.h}, as Java lays it out. A test compares
 * every constant here with the C compiler's own {@code offsetof}/{@code sizeof}/{@code _Alignof}.
 *
 * <pre>
 *  0        4        8                                                   8 + 8 * 17 = 144
 * +--------+--------+--------------------------------------------------+
 * | abi    | size   | lane_lookup, lane_drive, lane_bind, lane_release, |
 * | version| (bytes)| thread_warm_up, gate_lookup, gate_call,           |
 * |        |        | gate_call_on_lane, signal_lookup, signal_fire,    |
 * |        |        | ring_lookup, ring_release, last_error,            |
 * |        |        | lane_lookup_n, gate_lookup_n, signal_lookup_n,    |
 * |        |        | ring_lookup_n                                     |
 * +--------+--------+--------------------------------------------------+
 * </pre>
 *
 * The table only grows: members are appended, {@code size} says how many bytes the runtime filled. Every
 * pointer argument is declared {@code JAVA_LONG} on the Java side (identical to a pointer in the LP64
 * calling conventions of Linux x86_64 and aarch64), because an {@code ADDRESS} parameter makes the upcall
 * allocate a {@code MemorySegment} per call.
 */
public final class HostAbiDescriptor {
    /** {@code LANEHOST_HOST_ABI_VERSION}: bumped when a member changes meaning; new members only grow {@code size}. */
    public static final int HOST_ABI_VERSION = 1;
    /** {@code LANEHOST_MAX_NAME_BYTES}: the longest lane, gate, signal or ring name in UTF-8 bytes. */
    public static final int MAX_NAME_BYTES = 256;
    public static final int POINTER_SIZE = 8;
    /** {@code LANEHOST_LOWEST_ADDRESS}: a pointer below it is refused (no Linux process maps memory there). */
    public static final int LOWEST_ADDRESS = 4096;
    /** {@code LANEHOST_ADDRESS_BITS}: a pointer at or above 2^56 is refused (no Linux process maps memory there). */
    public static final int ADDRESS_BITS = 56;

    public static final int ABI_VERSION_OFFSET = 0;
    public static final int SIZE_OFFSET = 4;
    public static final int LANE_LOOKUP_OFFSET = 8;
    public static final int LANE_DRIVE_OFFSET = LANE_LOOKUP_OFFSET + POINTER_SIZE;
    public static final int LANE_BIND_OFFSET = LANE_DRIVE_OFFSET + POINTER_SIZE;
    public static final int LANE_RELEASE_OFFSET = LANE_BIND_OFFSET + POINTER_SIZE;
    public static final int THREAD_WARM_UP_OFFSET = LANE_RELEASE_OFFSET + POINTER_SIZE;
    public static final int GATE_LOOKUP_OFFSET = THREAD_WARM_UP_OFFSET + POINTER_SIZE;
    public static final int GATE_CALL_OFFSET = GATE_LOOKUP_OFFSET + POINTER_SIZE;
    public static final int GATE_CALL_ON_LANE_OFFSET = GATE_CALL_OFFSET + POINTER_SIZE;
    public static final int SIGNAL_LOOKUP_OFFSET = GATE_CALL_ON_LANE_OFFSET + POINTER_SIZE;
    public static final int SIGNAL_FIRE_OFFSET = SIGNAL_LOOKUP_OFFSET + POINTER_SIZE;
    public static final int RING_LOOKUP_OFFSET = SIGNAL_FIRE_OFFSET + POINTER_SIZE;
    public static final int RING_RELEASE_OFFSET = RING_LOOKUP_OFFSET + POINTER_SIZE;
    public static final int LAST_ERROR_OFFSET = RING_RELEASE_OFFSET + POINTER_SIZE;
    public static final int LANE_LOOKUP_N_OFFSET = LAST_ERROR_OFFSET + POINTER_SIZE;
    public static final int GATE_LOOKUP_N_OFFSET = LANE_LOOKUP_N_OFFSET + POINTER_SIZE;
    public static final int SIGNAL_LOOKUP_N_OFFSET = GATE_LOOKUP_N_OFFSET + POINTER_SIZE;
    public static final int RING_LOOKUP_N_OFFSET = SIGNAL_LOOKUP_N_OFFSET + POINTER_SIZE;
    public static final int API_SIZE = RING_LOOKUP_N_OFFSET + POINTER_SIZE;
    public static final int API_ALIGNMENT = POINTER_SIZE;

    /** {@code lanehost_drive_counts}: {@code int32 turns; int32 reserved; int64 remaining}. */
    public static final int DRIVE_COUNTS_TURNS_OFFSET = 0;
    public static final int DRIVE_COUNTS_RESERVED_OFFSET = 4;
    public static final int DRIVE_COUNTS_REMAINING_OFFSET = 8;
    public static final int DRIVE_COUNTS_SIZE = 16;

    // One descriptor per member, in the table's order. Pointers are JAVA_LONG (see the class comment).
    static final FunctionDescriptor LANE_LOOKUP = FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG);
    static final FunctionDescriptor LANE_DRIVE = FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_INT, JAVA_LONG);
    static final FunctionDescriptor LANE_BIND = FunctionDescriptor.of(JAVA_INT, JAVA_LONG);
    static final FunctionDescriptor LANE_RELEASE = FunctionDescriptor.of(JAVA_INT, JAVA_LONG);
    static final FunctionDescriptor THREAD_WARM_UP = FunctionDescriptor.of(JAVA_INT);
    static final FunctionDescriptor GATE_LOOKUP = FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG);
    static final FunctionDescriptor GATE_CALL = FunctionDescriptor.of(JAVA_INT,
            JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG);
    static final FunctionDescriptor GATE_CALL_ON_LANE = FunctionDescriptor.of(JAVA_INT,
            JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_INT);
    static final FunctionDescriptor SIGNAL_LOOKUP = FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG);
    static final FunctionDescriptor SIGNAL_FIRE = FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG);
    static final FunctionDescriptor RING_LOOKUP = FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG);
    static final FunctionDescriptor RING_RELEASE = FunctionDescriptor.of(JAVA_INT, JAVA_LONG);
    static final FunctionDescriptor LAST_ERROR = FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG);
    static final FunctionDescriptor LOOKUP_N = FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG);
    static final FunctionDescriptor RING_LOOKUP_N = FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG);

    /** The descriptor of each entry Java implements, by its C name (host_tables.c's order is C's to keep). */
    static final Map<String, FunctionDescriptor> JAVA_ENTRIES = Map.ofEntries(
            Map.entry("lane_lookup_n", LOOKUP_N), Map.entry("lane_drive", LANE_DRIVE),
            Map.entry("lane_bind", LANE_BIND), Map.entry("lane_release", LANE_RELEASE),
            Map.entry("thread_warm_up", THREAD_WARM_UP), Map.entry("gate_lookup_n", LOOKUP_N),
            Map.entry("gate_call", GATE_CALL), Map.entry("gate_call_on_lane", GATE_CALL_ON_LANE),
            Map.entry("signal_lookup_n", LOOKUP_N), Map.entry("signal_fire", SIGNAL_FIRE),
            Map.entry("ring_lookup_n", RING_LOOKUP_N), Map.entry("ring_release", RING_RELEASE));

    private HostAbiDescriptor() {
    }
}

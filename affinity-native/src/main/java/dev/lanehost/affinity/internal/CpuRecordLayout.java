package dev.lanehost.affinity.internal;

import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;

/**
 * The layout of the C {@code lanehost_affinity_cpu} record: seven {@code int32_t}, no padding.
 *
 * <pre>
 *  0        4        8         12           16      20             24      28
 *  +--------+--------+---------+------------+-------+--------------+-------+
 *  | cpu    | online | core_id | package_id | l3_id | l3_first_cpu | node  |
 *  +--------+--------+---------+------------+-------+--------------+-------+
 * </pre>
 *
 * The constant names match the C constants report; a test compares every one.
 */
public final class CpuRecordLayout {
    public static final long CPU_OFFSET = 0;
    public static final long ONLINE_OFFSET = CPU_OFFSET + 4;
    public static final long CORE_ID_OFFSET = ONLINE_OFFSET + 4;
    public static final long PACKAGE_ID_OFFSET = CORE_ID_OFFSET + 4;
    public static final long L3_ID_OFFSET = PACKAGE_ID_OFFSET + 4;
    public static final long L3_FIRST_CPU_OFFSET = L3_ID_OFFSET + 4;
    public static final long NODE_OFFSET = L3_FIRST_CPU_OFFSET + 4;
    public static final long CPU_RECORD_SIZE = NODE_OFFSET + 4;

    public static final StructLayout LAYOUT = MemoryLayout.structLayout(
            JAVA_INT.withName("cpu"), JAVA_INT.withName("online"), JAVA_INT.withName("core_id"),
            JAVA_INT.withName("package_id"), JAVA_INT.withName("l3_id"), JAVA_INT.withName("l3_first_cpu"),
            JAVA_INT.withName("node"));

    private CpuRecordLayout() {
    }

    /** One decoded record. */
    public record CpuRecord(int cpu, boolean online, int coreId, int packageId, int l3Id, int l3FirstCpu, int node) {
    }

    public static CpuRecord read(MemorySegment records, int index) {
        long base = index * CPU_RECORD_SIZE;
        return new CpuRecord(
                records.get(JAVA_INT, base + CPU_OFFSET),
                records.get(JAVA_INT, base + ONLINE_OFFSET) != 0,
                records.get(JAVA_INT, base + CORE_ID_OFFSET),
                records.get(JAVA_INT, base + PACKAGE_ID_OFFSET),
                records.get(JAVA_INT, base + L3_ID_OFFSET),
                records.get(JAVA_INT, base + L3_FIRST_CPU_OFFSET),
                records.get(JAVA_INT, base + NODE_OFFSET));
    }
}

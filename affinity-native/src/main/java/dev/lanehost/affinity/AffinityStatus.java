package dev.lanehost.affinity;

/**
 * What a call into {@code liblanehost_affinity} reported: the C enum {@code lanehost_affinity_status} of
 * {@code lanehost_affinity.h}, number for number (a test compares the two by name).
 */
public enum AffinityStatus {
    OK(0, "ok"),
    UNSUPPORTED(-1, "this platform or kernel cannot do it"),
    INVALID_ARGUMENT(-2, "invalid argument"),
    EMPTY_SET(-3, "the CPU set is empty"),
    CPU_NOT_ALLOWED(-4, "a CPU is outside the set this process may use (cgroup cpuset or taskset)"),
    BUFFER_TOO_SMALL(-5, "the buffer is too small"),
    PERMISSION_DENIED(-6, "the kernel refused: permission denied (seccomp filter or missing capability)"),
    NOT_FOUND(-7, "a sysfs directory or file does not exist"),
    MALFORMED(-8, "a sysfs file does not hold what it should"),
    UNKNOWN_NODE(-9, "the NUMA node is not online on this machine"),
    MISALIGNED(-10, "the memory range does not start on a page boundary"),
    NOT_APPLIED(-11, "the kernel accepted the mask but the thread reads back another one"),
    OUT_OF_MEMORY(-12, "out of memory"),
    NOT_MAPPED(-13, "part of the memory range is not mapped"),
    OS_ERROR(-14, "a system call failed"),
    OUT_OF_RANGE(-15, "a priority or nice value outside what the kernel accepts");

    private final int code;
    private final String description;

    AffinityStatus(int code, String description) {
        this.code = code;
        this.description = description;
    }

    /** The C value. */
    public int code() {
        return code;
    }

    public String description() {
        return description;
    }

    /**
     * The status for a C value. A value this enum does not know (a newer library would be refused by the
     * loader's ABI check first) reads as {@link #OS_ERROR}, so a status is never lost to an exception.
     */
    public static AffinityStatus fromCode(int code) {
        for (AffinityStatus status : values()) {
            if (status.code == code) {
                return status;
            }
        }
        return OS_ERROR;
    }
}

package dev.lanehost.samples;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A thread's scheduling policy and real-time priority as the kernel has them, read back from
 * {@code /proc/<pid>/task/<tid>/stat} (fields 40 {@code rt_priority} and 41 {@code policy}, proc(5)): to check that a
 * JACK client's process thread really runs SCHED_FIFO, not just that it was asked to.
 *
 * @param policy   the policy's name ({@code SCHED_OTHER}, {@code SCHED_FIFO}, ...; {@code policy <n>} if unknown)
 * @param priority the real-time priority, 0 for the non-real-time policies
 */
public record ThreadScheduling(String policy, int priority) {
    private static final String[] POLICIES = {"SCHED_OTHER", "SCHED_FIFO", "SCHED_RR", "SCHED_BATCH", "policy 4", "SCHED_IDLE",
            "SCHED_DEADLINE"};
    /** Fields 40 and 41, counted from field 3, the first after the command name's closing parenthesis. */
    private static final int RT_PRIORITY = 40 - 3;
    private static final int POLICY = 41 - 3;

    /** The thread {@code tid} of process {@code pid}. @throws IOException if there is no such thread (any more) */
    public static ThreadScheduling of(long pid, long tid) throws IOException {
        return parse(Files.readString(Path.of("/proc", Long.toString(pid), "task", Long.toString(tid), "stat")));
    }

    /** A thread of this process. */
    public static ThreadScheduling ofOwnThread(long tid) throws IOException {
        return of(ProcessHandle.current().pid(), tid);
    }

    /** Parses one {@code stat} line; the command name may hold spaces and parentheses, so fields count from its last ')'. */
    public static ThreadScheduling parse(String stat) {
        int end = stat.lastIndexOf(')');
        if (end < 0) {
            throw new IllegalArgumentException("not a /proc stat line (no ')' after the command name): " + stat);
        }
        String[] fields = stat.substring(end + 1).strip().split(" +");
        if (fields.length <= POLICY) {
            throw new IllegalArgumentException("a /proc stat line with " + (fields.length + 2) + " fields, policy is field 41: " + stat);
        }
        int policy = Integer.parseInt(fields[POLICY]);
        String name = policy >= 0 && policy < POLICIES.length ? POLICIES[policy] : "policy " + policy;
        return new ThreadScheduling(name, Integer.parseInt(fields[RT_PRIORITY]));
    }

    /** True for SCHED_FIFO and SCHED_RR. */
    public boolean realtime() {
        return policy.equals("SCHED_FIFO") || policy.equals("SCHED_RR");
    }

    @Override
    public String toString() {
        return realtime() ? policy + " " + priority : policy;
    }
}

package dev.lanehost.affinity;

import dev.lanehost.affinity.internal.AffinityLibrary;
import dev.lanehost.affinity.internal.AffinityLibrary.Reading;
import java.util.Optional;

/**
 * The calling thread's scheduling through {@code liblanehost_affinity}: applies a {@link PriorityPolicy}
 * and words the kernel's refusals. Each errno is read right after its call, on the same thread.
 *
 * <p>Applying a real-time policy:
 * <ol>
 *   <li>Ask for the class and priority ({@code sched_setscheduler(0, ...)}; C reads it back).</li>
 *   <li>On a refusal, say which condition was missing ({@code CAP_SYS_NICE}, {@code RLIMIT_RTPRIO}, else a
 *       cgroup or filter), then set the fallback nice.</li>
 *   <li>Read the thread's class, priority and nice back from the kernel into the result, whatever happened.</li>
 * </ol>
 */
final class ThreadScheduling {
    private static final int EPERM = 1;
    private static final int EACCES = 13;

    private final Affinity affinity;
    private final AffinityLibrary library;

    private ThreadScheduling(Affinity affinity) {
        this.affinity = affinity;
        this.library = affinity.library();
    }

    static ThreadScheduling of(Affinity affinity) {
        if (affinity == null) {
            throw new NullPointerException("affinity");
        }
        return new ThreadScheduling(affinity);
    }

    PriorityResult applyRealtime(PriorityPolicy.Realtime policy) {
        if (!library.available()) {
            return fellBack(policy, AffinityStatus.UNSUPPORTED, affinity.notLoaded() + "; the thread keeps its scheduling"
                    + " (neither " + policy.schedClass() + " nor nice " + policy.fallbackNice() + " was set)");
        }
        AffinityStatus realtime = library.setRealtime(policy.schedClass().code(), policy.priority());
        int realtimeErrno = library.lastErrno();
        if (realtime == AffinityStatus.OK) {
            return new PriorityResult(policy, PriorityResult.Outcome.APPLIED, affinity.currentThreadPriority(), AffinityStatus.OK, "applied");
        }
        String refused = realtimeRefusal(realtime, realtimeErrno, policy.priority());
        AffinityStatus nice = library.setNice(policy.fallbackNice());
        int niceErrno = library.lastErrno();
        String fallback = nice == AffinityStatus.OK
                ? "; fell back to nice " + policy.fallbackNice()
                : "; nice " + policy.fallbackNice() + " refused too: " + niceRefusal(nice, niceErrno);
        return fellBack(policy, realtime, refused + fallback);
    }

    PriorityResult applyNice(PriorityPolicy.Nice policy) {
        if (!library.available()) {
            return fellBack(policy, AffinityStatus.UNSUPPORTED, affinity.notLoaded() + "; the thread keeps its nice value");
        }
        AffinityStatus nice = library.setNice(policy.nice());
        int errno = library.lastErrno();
        if (nice == AffinityStatus.OK) {
            return new PriorityResult(policy, PriorityResult.Outcome.APPLIED, affinity.currentThreadPriority(), AffinityStatus.OK, "applied");
        }
        return fellBack(policy, nice, "nice " + policy.nice() + " refused: " + niceRefusal(nice, errno));
    }

    private PriorityResult fellBack(PriorityPolicy policy, AffinityStatus status, String reason) {
        return new PriorityResult(policy, PriorityResult.Outcome.FELL_BACK, affinity.currentThreadPriority(), status, reason);
    }

    /** Which of the kernel's conditions for a real-time class was not met (sched(7), "Privileges and resource limits"). */
    private String realtimeRefusal(AffinityStatus status, int errno, int priority) {
        if (status != AffinityStatus.PERMISSION_DENIED) {
            return described(status, errno);
        }
        Reading<long[]> limits = library.realtimeLimits();
        if (!limits.ok()) {
            return errnoName(errno) + " (CAP_SYS_NICE and RLIMIT_RTPRIO could not be read)";
        }
        long rtprio = limits.value()[0];
        boolean capSysNice = limits.value()[1] != 0;
        String limit = "RLIMIT_RTPRIO " + (rtprio < 0 ? "unlimited" : String.valueOf(rtprio));
        if (!capSysNice && rtprio >= 0 && rtprio < priority) {
            return errnoName(errno) + ": no CAP_SYS_NICE and " + limit;
        }
        // Either condition is met, so something else refused: cgroup v1 with CONFIG_RT_GROUP_SCHED gives a
        // group no real-time time unless cpu.rt_runtime_us says so; a seccomp filter can return EPERM too.
        return errnoName(errno) + ": " + (capSysNice ? "CAP_SYS_NICE" : limit) + " allows it, yet the kernel refused"
                + " (a cgroup without real-time budget, cpu.rt_runtime_us 0, or a seccomp filter)";
    }

    private static String niceRefusal(AffinityStatus status, int errno) {
        if (status == AffinityStatus.PERMISSION_DENIED) {
            return errnoName(errno) + ": lowering nice needs CAP_SYS_NICE or RLIMIT_NICE";
        }
        return described(status, errno);
    }

    private static String described(AffinityStatus status, int errno) {
        return status.description() + (errno != 0 ? " (" + errnoName(errno) + ")" : "");
    }

    /** The errno names a scheduling call returns on Linux; others by number. */
    private static String errnoName(int errno) {
        return switch (errno) {
            case EPERM -> "EPERM";
            case 3 -> "ESRCH";
            case EACCES -> "EACCES";
            case 22 -> "EINVAL";
            case 38 -> "ENOSYS";
            default -> "errno " + errno;
        };
    }

    /** The calling thread's class, priority and nice from the kernel; empty without the library or if unreadable. */
    static Optional<ThreadPriority> read(AffinityLibrary library) {
        if (!library.available()) {
            return Optional.empty();
        }
        Reading<int[]> read = library.threadPriority();
        return read.ok() ? Optional.of(new ThreadPriority(SchedClass.fromCode(read.value()[0]), read.value()[1], read.value()[2]))
                : Optional.empty();
    }
}

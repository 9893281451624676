package dev.lanehost.affinity;

/** Run by {@link PriorityPolicyTest} in a child JVM the kernel will not let go real-time. */
public final class PriorityRefusedProgram {
    private PriorityRefusedProgram() {
    }

    public static void main(String[] args) throws Exception {
        PriorityResult result = PriorityPolicy.realtime(SchedClass.FIFO, 10, 5).applyToCurrentThread(Affinity.system());
        PriorityPolicyTest.KernelView kernel = PriorityPolicyTest.KernelView.ofThisThread();
        System.out.println("outcome=" + result.outcome());
        System.out.println("status=" + result.status());
        System.out.println("reason=" + result.reason());
        System.out.println("obtained=" + result.obtained());
        System.out.println("kernel: policy " + kernel.policy() + ", rt_priority " + kernel.rtPriority() + ", nice " + kernel.nice());
        // A negative fallback nice needs the same privilege (on a thread of its own).
        PriorityResult negative = PriorityPolicyTest.onThreadThatEnds(
                () -> PriorityPolicy.realtime(SchedClass.RR, 10, -5).applyToCurrentThread(Affinity.system()));
        System.out.println("negative reason=" + negative.reason());
        System.out.println("negative obtained=" + negative.obtained());
    }
}

package dev.lanehost.affinity;

import java.io.IOException;

/** Run by {@link PriorityPolicyTest} in a child JVM the kernel will not let go real-time. */
public final class PriorityRefusedProgram {
    private PriorityRefusedProgram() {
    }

    public static void main(String[] args) throws IOException {
        PriorityResult result = PriorityPolicy.realtime(SchedClass.FIFO, 10, 5).applyToCurrentThread(Affinity.system());
        PriorityPolicyTest.KernelView kernel = PriorityPolicyTest.KernelView.ofThisThread();
        System.out.println("outcome=" + result.outcome());
        System.out.println("status=" + result.status());
        System.out.println("reason=" + result.reason());
        System.out.println("obtained=" + result.obtained());
        System.out.println("kernel: policy " + kernel.policy() + ", rt_priority " + kernel.rtPriority() + ", nice " + kernel.nice());
    }
}

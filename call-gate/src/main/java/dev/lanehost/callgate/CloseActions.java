package dev.lanehost.callgate;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/** What a gate runs once when it closes (a host ABI unexporting it): each action once, whoever runs them. */
final class CloseActions {
    private final Queue<Runnable> actions = new ConcurrentLinkedQueue<>();

    void add(Runnable action) {
        actions.add(action);
    }

    /** Runs and drops every action added so far; one that throws is reported, and the rest still run. */
    void runAll() {
        Runnable action;
        while ((action = actions.poll()) != null) {
            try {
                action.run();
            } catch (Throwable failure) {
                InternalErrors.report("CallGate.close action", failure);
            }
        }
    }
}

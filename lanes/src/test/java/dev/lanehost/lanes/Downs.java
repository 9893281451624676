package dev.lanehost.lanes;

import java.util.concurrent.CountDownLatch;

/** Test help: a watcher actor that monitors another and counts a latch down when it halts. */
final class Downs {
    private Downs() {
    }

    /** A latch that reaches zero once {@code watched} has halted (its Down arrived at a watcher actor). */
    static CountDownLatch awaitable(ActorRuntime runtime, ActorRef watched) {
        CountDownLatch down = new CountDownLatch(1);
        runtime.spawn("watcher of " + watched.name(), () -> new Behavior() {
            @Override
            public void started(ActorContext context) {
                context.monitor(watched);
            }

            @Override
            public void receive(ActorContext context, Object message) {
                down.countDown();
            }
        });
        return down;
    }
}

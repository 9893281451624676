/** The actor runtime: actors whose turns run on execution lanes that native hosts drive, or on its own threads. */
module dev.lanehost.lanes {
    // The builder takes an AffinityPolicy and the runtime reports AffinityResults.
    requires transitive dev.lanehost.affinity;
    // The runtime's Flight Recorder events (RuntimeEvents).
    requires jdk.jfr;
    // The opt-in MBean (ActorRuntime.registerMBean) and the ObjectName it returns.
    requires transitive java.management;

    exports dev.lanehost.lanes;
    // A gate's copy of its handler's result is the runtime's work, kept off the actor's turn budget.
    exports dev.lanehost.lanes.budget to dev.lanehost.callgate;
    // The runtime behind the API (runtime, scheduler, lane, turn, cell, time, resource, mailbox, seam, observe, budget, idle, access, queue) stays inside.
}

/**
 * The actor runtime: actors whose turns run on named execution lanes that native hosts drive from their
 * own threads, or on the runtime's normal placement.
 *
 * <p>Words: an <em>actor</em> is a {@link dev.lanehost.lanes.Behavior} plus a mailbox; a <em>letter</em>
 * is what one <em>turn</em> handles (a message, a timer, a signal firing, a park completion, a
 * {@link dev.lanehost.lanes.Down}); a <em>placement</em> says where turns run; a <em>lane</em> is a run
 * queue only its host drains, by {@link dev.lanehost.lanes.ExecutionLane#drive}; a <em>profile</em> says
 * how the rest is scheduled; a <em>turn budget</em> ({@link dev.lanehost.lanes.TurnBudget}) bounds every turn.
 *
 * <h2>Layout</h2>
 * Public types are the API. The package-private ones are the runtime's parts, one concern per file, kept
 * package-private so no other module can reach them. Three seams keep dependencies pointing down: the API
 * handles see an actor only as an {@code Addressee} ({@link dev.lanehost.lanes.ActorRef}) or a
 * {@code ResourceOwner} (timers, signals, parks), and the cells and lanes see the runtime only as a
 * {@code RuntimeContext}, which the package-private {@code LiveRuntime} implements over {@link dev.lanehost.lanes.ActorRuntime}'s parts.
 * <ul>
 *   <li><b>runtime</b> — {@code ActorRuntime} (registry, spawning, lifecycle), {@link dev.lanehost.lanes.RuntimeBuilder} (its settings),
 *       {@link dev.lanehost.lanes.RuntimeMetrics} (its counters), {@code RuntimeContext} and {@code LiveRuntime}, {@code ActorRegistry},
 *       {@code LaneRegistry}, {@code RuntimeClose} (the close protocol),
 *       {@code ThreadWarmUp}.</li>
 *   <li><b>profiles</b> — the {@code Scheduler} seam and its implementations side by side:
 *       {@code HostedScheduler} (a {@code WorkerPool} of {@code Worker}s, a {@code BlockingPool}, a placement's
 *       {@code PlacedThreads}, the timer thread; the pool's parts that know nothing of actors are in
 *       {@code dev.lanehost.lanes.hosted}), {@code DrainScheduler} (SINGLE_THREAD),
 *       {@code SimulatedScheduler} with {@code SimulatedQueues} and {@code SimulatedSchedule}; all of them
 *       run turns through {@code RunQueue}. {@code TimerQueue} holds the timers they fire.</li>
 *   <li><b>actor</b> — {@code ActorCell} (run-once, halt) over {@code CellState} (the exit reason halting
 *       threads race on), {@code CellTeardown} (how a halted actor ends), {@code Mailbox},
 *       {@code Letter} (a sealed hierarchy, one class per kind), {@code TurnContext} (one turn, and the
 *       {@link dev.lanehost.lanes.ActorContext} it sees), {@code ActorResources} (with the teardown order),
 *       {@code Watchers} (monitors and links).</li>
 *   <li><b>turn budget</b> — {@link dev.lanehost.lanes.TurnBudget}, {@link dev.lanehost.lanes.SpawnOptions},
 *       {@link dev.lanehost.lanes.TurnDisrupted}; in {@code dev.lanehost.lanes.turn}, {@code BudgetLimits} (a budget in clock
 *       nanoseconds) and {@code ThreadCpu};
 *       {@code TurnClock} (one actor's turns against it), {@code BudgetWatch} (HOSTED's budget clock).</li>
 *   <li><b>lane</b> — {@link dev.lanehost.lanes.ExecutionLane} (the drive loop) over {@code LaneCounters},
 *       {@code LaneClose} (its part in the close), {@code LaneWatch} (what observers see), and from {@code internal} its {@code LaneBinding} (which thread drives)
 *       and {@code StallWatch}.</li>
 *   <li><b>observation</b> — {@link dev.lanehost.lanes.RuntimeMetrics}, {@link dev.lanehost.lanes.Snapshot},
 *       {@code HaltCounts} (halts by exit reason), {@code RuntimeEvents} (the Flight Recorder events, one call
 *       per hook site), {@link dev.lanehost.lanes.ActorRuntimeMXBean} and {@code RuntimeMBean} (the opt-in MBean); in
 *       {@code dev.lanehost.lanes.observe}, {@code RuntimeLog} (the runtime's own log lines) and
 *       {@code GuardedObserver} (a user's observer behind a guard).</li>
 * </ul>
 * {@code dev.lanehost.lanes.internal} holds the parts that know nothing of actors: the lock-free queue,
 * the resource counters, the virtual clock, a lane's binding and its stall watch.
 *
 * <p>Invariants:
 * <ol>
 *   <li>Turns of one actor never overlap and run to completion; an actor is queued at most once.</li>
 *   <li>Everything an actor runs — its factory, {@code started}, every turn, {@code stopped} and its halt
 *       teardown — runs on its own placement. A lane actor's code runs only on the lane's bound thread;
 *       at runtime close, only a lane no live thread drives within the grace is torn down on the closing
 *       thread, and {@link dev.lanehost.lanes.ActorRuntime#closeAndReport()} says which.</li>
 *   <li>An exception in a turn halts that actor only.</li>
 *   <li>The budget clock never runs on the thread of the turn it judges (SINGLE_THREAD, which has one
 *       thread, settles budgets after the turn).</li>
 *   <li>A halt is claimed once; teardown runs letters → signals → timers → parks → arena, each once, and
 *       every resource count returns to zero ({@link dev.lanehost.lanes.ActorRuntime#resources()}).</li>
 *   <li>Observation ({@link dev.lanehost.lanes.ActorRuntime#snapshot()}) never waits on a turn or takes
 *       a turn lock, and no runner waits on a user hook another thread is running.</li>
 * </ol>
 *
 * <p>The protocols are written out where they live: scheduling and halt on {@code ActorCell}, the worker's
 * park on {@code HostedScheduler}, the drain passes on {@code DrainScheduler}, the pick on
 * {@code SimulatedQueues}, the drive on {@link dev.lanehost.lanes.ExecutionLane}, the close on
 * {@code RuntimeClose}, the turn budget on {@code TurnClock}, the event hooks on {@code RuntimeEvents}, the queues on {@link dev.lanehost.lanes.internal.MpscQueue} (run queues) and
 * {@link dev.lanehost.lanes.internal.MpscChunkQueue} (mailboxes).
 */
package dev.lanehost.lanes;

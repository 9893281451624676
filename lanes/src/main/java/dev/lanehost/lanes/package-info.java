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
 * This package is the API: the types users touch. The runtime behind it is in packages by role, which the module
 * does not export: {@code seam} (what a handle sees of its actor), {@code cell} (the actor: scheduling, halt, run
 * step, teardown, resources, watchers, supervision), {@code mailbox} (the mailbox and its letters), {@code turn} (a
 * turn, its context and its budget clock), {@code lane} (a lane's counts, binding, close and watch; the drive loop
 * stays on {@link dev.lanehost.lanes.ExecutionLane}), {@code scheduler} (the profiles' schedulers, the run queue, the
 * blocking pool, placed threads, the budget watch, the warm-up) with {@code scheduler.hosted} (HOSTED's worker pool
 * and its threads), {@code time} (the timer heap, the virtual clock), {@code queue} (the MPSC queues and the work
 * flag), {@code observe} (log, events, counters, MBean), {@code runtime} (the context cells and lanes see, the
 * registries, spawning, the close) and {@code access} (the API's package-private parts as the runtime reaches them);
 * {@code budget} is the call-gate module's word on a turn's budget (a qualified export).
 * The handles see an actor only as an {@code Addressee} ({@link dev.lanehost.lanes.ActorRef}) or a
 * {@code ResourceOwner} (timers, signals, parks), and the cells and lanes see the runtime only as a
 * {@code RuntimeContext}.
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
 * park on {@code Worker} and {@code IdleWorkers}, the drain passes on {@code DrainScheduler}, the pick on
 * {@code SimulatedQueues}, the drive on {@link dev.lanehost.lanes.ExecutionLane}, the close on
 * {@code RuntimeClose}, the turn budget on {@code TurnClock}, the event hooks on {@code observe.RuntimeEvents}, the queues on {@code queue.MpscQueue} (run queues) and
 * {@code queue.MpscChunkQueue} (mailboxes).
 */
package dev.lanehost.lanes;

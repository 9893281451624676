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
 * does not export, each calling only those after it: {@code runtime} (the runtime context, the actor registry,
 * spawning, the close), {@code scheduler} (the profiles' schedulers, the blocking pool, placed threads, the budget
 * watch, the warm-up) with {@code scheduler.hosted} (HOSTED's worker pool and its threads), {@code lane} (the lane
 * behind {@link dev.lanehost.lanes.ExecutionLane} and its drive loop, binding, close and watch, the lane registry),
 * {@code turn} (a turn, its context, its budget clock), {@code cell} (the actor: scheduling, halt, run step,
 * teardown, resources, watchers, supervision; the run queue; the cell's view of the runtime and of its turns),
 * {@code time} (a timer's state, the timer heap, the virtual clock), {@code resource} (a signal's and a park's
 * state), {@code mailbox} (the mailbox, its letters and a
 * lane's counts), {@code seam} (what a handle sees of its actor), {@code observe} (log, events, halt counts),
 * {@code budget} (a turn budget's limits, the CPU clock; exported to the call-gate module for its uncharged work),
 * {@code idle} (an idle worker's rounds), {@code access} (the API's package-private parts as the runtime reaches
 * them) and {@code queue} (the MPSC queues, the work flag). The handles see an actor only as an {@code Addressee}
 * ({@link dev.lanehost.lanes.ActorRef}) or a {@code ResourceOwner} (timers, signals, parks), and the cells see the
 * runtime only as a {@code RuntimeContext}.
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

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
 * Public types are the API. Beside them, package-private, is the actor core the API's handles are tied to; the parts
 * that know nothing of it are in packages by role, which the module does not export:
 * <ul>
 *   <li>this package: the schedulers ({@code Scheduler} and {@code HostedScheduler}, {@code DrainScheduler},
 *       {@code SimulatedScheduler}), the run queue ({@code RunQueue}, {@code WorkFlag}), the mailbox
 *       ({@code Mailbox}, {@code Letter}), the cell ({@code ActorCell}, its run step {@code CellRun}), the turn
 *       ({@code TurnContext}, {@code TurnRunner}, {@code TurnClock}), the lane's drive
 *       ({@link dev.lanehost.lanes.ExecutionLane}, {@code LaneCounters}, {@code LaneClose}, {@code LaneWatch}), HOSTED's
 *       pool ({@code WorkerPool}, {@code Worker}, {@code IdleWorkers}) and the timers ({@code TimerQueue},
 *       {@code BudgetWatch}, {@code IdleReaper});</li>
 *   <li>{@code internal}: the queues ({@link dev.lanehost.lanes.queue.MpscQueue} for run queues,
 *       {@link dev.lanehost.lanes.queue.MpscChunkQueue} for mailboxes; accessors named for their memory order), the
 *       lane binding ({@code LaneBinding}, {@code StallWatch}), the live counters and the virtual clock;</li>
 *   <li>{@code hosted}: HOSTED's threads without actors (the door, sightings, spin budget, priorities, the placement
 *       check); {@code turn}: a turn's budget in clock nanoseconds; {@code observe}: the runtime's log, a guarded
 *       observer and the Flight Recorder events; {@code budget}: the call-gate module's word on a turn's budget.</li>
 * </ul>
 * Three seams keep dependencies pointing down: the API handles see an actor only as an {@code Addressee}
 * ({@link dev.lanehost.lanes.ActorRef}) or a {@code ResourceOwner} (timers, signals, parks), the cells and lanes see
 * the runtime only as a {@code RuntimeContext} ({@code LiveRuntime} implements it), and a cell sees HOSTED's pool only
 * as its {@code RoamingQueues}.
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
 * {@code RuntimeClose}, the turn budget on {@code TurnClock}, the event hooks on {@code observe.RuntimeEvents}, the queues on {@link dev.lanehost.lanes.queue.MpscQueue} (run queues) and
 * {@link dev.lanehost.lanes.queue.MpscChunkQueue} (mailboxes).
 */
package dev.lanehost.lanes;

import dev.lanehost.lanes.queue.MpscChunkQueue;
import dev.lanehost.lanes.queue.MpscQueue;

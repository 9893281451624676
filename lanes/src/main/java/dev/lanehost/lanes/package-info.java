/**
 * The actor runtime: actors whose turns run on named execution lanes that native hosts drive from their
 * own threads, or on the runtime's normal placement.
 *
 * <p>Words: an <em>actor</em> is a {@link dev.lanehost.lanes.Behavior} plus a mailbox; a <em>letter</em>
 * is what one <em>turn</em> handles (a message, a timer, a signal firing, a park completion, a
 * {@link dev.lanehost.lanes.Down}); a <em>placement</em> says where turns run; a <em>lane</em> is a run
 * queue only its host drains, by {@link dev.lanehost.lanes.ExecutionLane#drive}.
 *
 * <p>Invariants:
 * <ol>
 *   <li>Turns of one actor never overlap and run to completion; an actor is queued at most once.</li>
 *   <li>Everything an actor runs — its factory, {@code started}, every turn, {@code stopped} and its halt
 *       teardown — runs on its own placement. A lane actor's code runs only on the lane's bound thread;
 *       at runtime close, only a lane no live thread drives within the grace is torn down on the closing
 *       thread, and {@link dev.lanehost.lanes.ActorRuntime#closeAndReport()} says which.</li>
 *   <li>An exception in a turn halts that actor only.</li>
 *   <li>A halt is claimed once; teardown runs letters → signals → timers → parks → arena, each once, and
 *       every resource count returns to zero ({@link dev.lanehost.lanes.ActorRuntime#resources()}).</li>
 *   <li>Observation ({@link dev.lanehost.lanes.ActorRuntime#snapshot()}) never waits on a turn or takes
 *       a turn lock, and no runner waits on a user hook another thread is running.</li>
 * </ol>
 *
 * <p>The protocols (scheduling, halt, drive) are written out on {@code ActorCell} and
 * {@link dev.lanehost.lanes.ExecutionLane}. {@code dev.lanehost.lanes.internal} holds the lock-free
 * queue they are built on.
 */
package dev.lanehost.lanes;

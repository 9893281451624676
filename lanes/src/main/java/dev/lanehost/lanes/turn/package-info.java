/**
 * A turn: the runner that runs one letter against the actor's behaviour ({@link dev.lanehost.lanes.turn.TurnRunner},
 * the cell's {@code Turns} and the letters' {@code Recipient}), the context a turn sees
 * ({@link dev.lanehost.lanes.turn.TurnContext}), one actor's turns against its budget
 * ({@link dev.lanehost.lanes.turn.TurnClock}) and its idle timeout ({@link dev.lanehost.lanes.turn.IdleReaper}). Not
 * API; the module does not export it. It may call the cell, time, resource, the mailbox, budget, observe and the API's handles;
 * the schedulers and the runtime call it.
 */
package dev.lanehost.lanes.turn;

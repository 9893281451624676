/**
 * What the runtime lets the call-gate module say about a turn's budget, and no one else (a qualified export): that the
 * rest of a gate's turn — the copy of its handler's result — is the runtime's work, not the actor's
 * ({@link dev.lanehost.lanes.budget.UnchargedWork}).
 */
package dev.lanehost.lanes.budget;

/**
 * Call gates: calls into actors from Java and from C that return a {@link dev.lanehost.callgate.CallStatus}
 * instead of throwing, with arguments and results as plain values encoded as CBOR (RFC 8949).
 *
 * <p>Inside, every entry of {@link dev.lanehost.callgate.CallGate} takes one call path: the call made ready (a Java
 * caller's new {@code GateCall}, or one a {@link dev.lanehost.callgate.CallReply} keeps), its arguments loaded and
 * checked, the call admitted and queued, then waited for ({@code CallWaits}: blocking, or driving the caller's lane).
 * A call is two rooms: {@code CallRendezvous}, what the caller and the actor's turn race on (the state and outcome
 * words, the caller's park and its wake), and {@code GateCall}, its payload (arguments in, result out) and the turn
 * that fills it. An OK answer is the call itself: the caller reads the result where the turn wrote it.
 *
 * <p>Names in the rendezvous say the memory order of the access they make (the JCTools convention): {@code lv} a
 * volatile or acquire load, {@code lp} a plain load, {@code sp} plain stores, {@code so} an ordered (release) store,
 * {@code sv} a volatile store, {@code cas} a compare-and-set that decides a race. A method without a prefix makes
 * several accesses, each named where it is made.
 */
package dev.lanehost.callgate;

/**
 * Call gates: calls into actors from Java and from C that return a {@link dev.lanehost.callgate.CallStatus}
 * instead of throwing, with arguments and results as plain values encoded as CBOR (RFC 8949).
 */
package dev.lanehost.callgate;

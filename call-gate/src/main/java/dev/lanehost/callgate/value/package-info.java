/**
 * Plain values: what crosses a call gate as arguments and results, encoded as CBOR (RFC 8949) by
 * {@link dev.lanehost.callgate.value.PlainCodec}, with no CBOR library: {@code PlainValueWriter} walks the value
 * model into a sink — {@code CborWriter} (the bytes) or {@code CopySink} (a copy, no bytes) — and decoding is the
 * two passes below.
 *
 * <p>Invariants:
 * <ol>
 *   <li>Every failure is a {@link dev.lanehost.callgate.value.PlainValueException} carrying the gate's
 *       status: {@code NOT_SERIALIZABLE} (not a plain value), {@code OUT_OF_MEMORY} (larger than the
 *       caller's buffer, or memory ran out), {@code INVALID_ARGUMENT} (malformed input, bad buffer). No other
 *       exception leaves the codec, so a gate's upcall can turn any outcome into a status code.</li>
 *   <li>Encoding runs none of the value's code except record accessors and its collections' and maps'
 *       {@code size}/{@code iterator}/{@code entrySet}: no {@code toString}, {@code hashCode},
 *       {@code equals}, {@code writeObject}/{@code writeReplace} or other serialization hook. Cycles are
 *       found by identity.</li>
 *   <li>Encoding into a caller's region never writes past its end.</li>
 *   <li>Decoding allocates in proportion to the input's length, whatever a header claims, and never
 *       recurses deeper than {@link dev.lanehost.callgate.value.PlainCodec#MAX_DEPTH} levels.</li>
 *   <li>Whatever decoding returns, encoding accepts and gives back unchanged.</li>
 * </ol>
 *
 * <p>Decoding, step by step:
 * <ol>
 *   <li>Check the region's bounds (a C caller's pointer and length).</li>
 *   <li>{@code PlainCborValidator} reads every head once: declared lengths fit in what remains,
 *       indefinite lengths are closed, keys are text, text is well-formed UTF-8 (the error names the bad
 *       byte), tags are bignums, nesting is within the limit, and nothing follows the item.</li>
 *   <li>{@code PlainCborReader} builds the values in one pass over the checked bytes (a bignum per RFC 8949:
 *       tag 3 over n is −1 − n), and refuses duplicate keys and out-of-range bignums.</li>
 * </ol>
 */
package dev.lanehost.callgate.value;

/**
 * The FFM binding of {@code liblanehost_affinity}. Not for users: {@link dev.lanehost.affinity.Affinity}
 * is the API.
 *
 * <p>{@link dev.lanehost.affinity.internal.AffinityLibrary} holds one downcall handle per C function,
 * resolved once, and returns C statuses and values without interpreting them;
 * {@link dev.lanehost.affinity.internal.CpuRecordLayout} mirrors the C topology record.
 *
 * <p>Invariants:
 * <ol>
 *   <li>Loading never throws: a library that cannot be loaded or bound yields an unavailable binding that
 *       carries the loader's message.</li>
 *   <li>Every native buffer lives in a confined {@code Arena} closed before the method returns; nothing
 *       native outlives a call.</li>
 *   <li>A C buffer-too-small status is answered with exactly one retry at the size C reported.</li>
 * </ol>
 */
package dev.lanehost.affinity.internal;

/**
 * The Java half of the LV2 sample: a plugin ({@code samples/src/main/c/lv2/lanehost_biquad.c}) that unmodified LV2
 * hosts load, whose DSP is a Java actor. {@code lanehost_guest_instantiate} creates {@link
 * dev.lanehost.samples.lv2.BiquadSetup} once per plugin instance; everything it makes is the instance's and goes at
 * the instance's free.
 *
 * <h2>Invariants</h2>
 * <ul>
 *   <li>The plugin's {@code run()} never enters the JVM: it touches the rings {@code capture}, {@code controls} and
 *       {@code playback} only, except where waiting is allowed (a freewheeling or offline host).</li>
 *   <li>From activation on, the frames in flight (capture plus playback, less the late frames the plugin owes a
 *       drop) are the lead, which the plugin reports as its latency: every frame played is the effect of the input
 *       exactly one lead earlier, or silence counted as an underrun.</li>
 *   <li>One actor, pinned to a worker, owns Java's side of the three rings; the setup's warm-up runs the same code
 *       over rings of its own.</li>
 * </ul>
 *
 * <h2>Protocol</h2>
 * <ol>
 *   <li>{@code instantiate()}: the setup warms the effect's code, exports the rings and the gates {@code activate},
 *       {@code pump}, {@code stop}, and spawns the effect.</li>
 *   <li>{@code activate()}: the gate {@code stop}, the plugin empties the playback ring, the gate {@code activate}
 *       primes the lead ({@link dev.lanehost.samples.lv2.BiquadEffect}'s protocol has the rest).</li>
 *   <li>{@code run()}: control records, input, output; {@code pump} only where waiting is allowed.</li>
 *   <li>{@code cleanup()}: the gate {@code stop} (no turn touches the rings afterwards), the instance's free, then the
 *       plugin's ring references released.</li>
 * </ol>
 */
package dev.lanehost.samples.lv2;

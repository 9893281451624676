/**
 * The seams the API's handles see an actor through: an {@link dev.lanehost.lanes.seam.Addressee} (what an
 * {@code ActorRef} addresses), a {@link dev.lanehost.lanes.seam.ResourceOwner} (what a timer, signal or park knows of
 * its owner) and the runtime's {@link dev.lanehost.lanes.seam.LiveCounters} they report their lives to. Not API; the
 * module does not export it. It names only API value types in its signatures (the handles it passes through are its
 * type parameters) and calls nothing; {@code ActorCell} implements both seams.
 */
package dev.lanehost.lanes.seam;

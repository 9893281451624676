/**
 * An actor's mailbox ({@link dev.lanehost.lanes.mailbox.Mailbox}: its letters in an MPSC chunk queue, admitted
 * against its own and its lane's capacity, counted in the lane's {@link dev.lanehost.lanes.mailbox.LaneCounters}) and
 * the letters themselves ({@link dev.lanehost.lanes.mailbox.Letter}, a sealed class per kind, each delivering its own
 * turn body to a {@link dev.lanehost.lanes.mailbox.Recipient}, the turn running it). Not API; the module does not
 * export it. It may call the seams, budget, observe, the queues and the API's handles; everything above calls it.
 */
package dev.lanehost.lanes.mailbox;

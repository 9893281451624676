/**
 * An actor's mailbox ({@link dev.lanehost.lanes.mailbox.Mailbox}: its letters in an MPSC chunk queue, admitted
 * against its own and its lane's capacity) and the letters themselves ({@link dev.lanehost.lanes.mailbox.Letter}, a
 * sealed class per kind, each delivering its own turn body). Not API; the module does not export it. It may call the
 * queues, the lane's counters, the turn's runner (a letter delivers itself to it) and the API's handles.
 */
package dev.lanehost.lanes.mailbox;

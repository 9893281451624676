package dev.lanehost.lanes.idle;

/** What an idle worker does in one round of its idle spell ({@code IdleStrategy}'s rules). */
public enum IdleStep { SPIN, YIELD, PARK }

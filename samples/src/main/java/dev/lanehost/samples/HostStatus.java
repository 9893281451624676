package dev.lanehost.samples;

import dev.lanehost.callgate.CallStatus;

/** Names a status that a sample's C host returned: a lanehost status, or one of the host's own negative codes. */
final class HostStatus {
    private HostStatus() {
    }

    /** The status's name: a {@link CallStatus} name for a lanehost status, else the host's own name for it. */
    static String name(int status, String... hostOwn) {
        if (status >= 0) {
            for (CallStatus known : CallStatus.values()) {
                if (known.code() == status) {
                    return known.name();
                }
            }
            return "unknown status " + status;
        }
        int index = -status - 1;
        return index < hostOwn.length ? hostOwn[index] + " (" + status + ")" : "unknown host error " + status;
    }
}

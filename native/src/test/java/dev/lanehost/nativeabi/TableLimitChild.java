package dev.lanehost.nativeabi;

import dev.lanehost.lanes.ActorRuntime;
import dev.lanehost.lanes.Profile;

/**
 * Opens host ABIs until the process has none left, then prints how many it opened and the refusal's sentence: run
 * in a child JVM by {@link TableLimitTest}, since it uses up every table of its process.
 */
public final class TableLimitChild {
    static final String OPENED = "opened ";
    static final String REFUSED = "refused: ";

    private TableLimitChild() {
    }

    public static void main(String[] args) {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            int opened = 0;
            while (true) {
                try (HostAbi abi = HostAbi.open(runtime)) {
                    opened++;
                } catch (IllegalStateException refused) {
                    System.out.println(OPENED + opened);
                    System.out.println(REFUSED + refused.getMessage());
                    return;
                }
            }
        }
    }
}

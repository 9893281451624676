package dev.lanehost.benchmarks.actors;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.lanehost.lanes.ActorRuntime;
import dev.lanehost.lanes.Profile;
import org.apache.pekko.actor.ActorSystem;

/**
 * The three actor runtimes every scenario runs, in one JMH run: lanehost's HOSTED profile as built (today one
 * worker thread), and Apache Pekko classic actors twice — as shipped, and tuned for this 2-vCPU machine.
 */
public enum Contender {
    /** {@code ActorRuntime.create(Profile.HOSTED)}: the runtime under test, nothing tuned. */
    LANEHOST("lanehost"),
    /**
     * Pekko's default dispatcher as shipped: a fork-join pool of max(8, cores) threads, throughput 5 (an actor
     * gives its thread up after five messages).
     */
    PEKKO_DEFAULT("pekkoDefault"),
    /**
     * The best Pekko setting we found for two vCPUs: one thread per core, so no thread waits for a core, and
     * throughput 64, so a busy actor keeps its thread for 64 messages instead of going back through the pool
     * after every five.
     */
    PEKKO_TUNED("pekkoTuned");

    /** Pekko's own settings that only cut noise: no log lines about dead letters or start-up on stdout. */
    private static final String QUIET = """
            pekko.loglevel = WARNING
            pekko.stdout-loglevel = WARNING
            pekko.log-dead-letters = off
            pekko.log-dead-letters-during-shutdown = off
            """;

    private static final String TUNED = """
            pekko.actor.default-dispatcher {
              executor = "fork-join-executor"
              fork-join-executor {
                parallelism-min = 2
                parallelism-factor = 1.0
                parallelism-max = 2
              }
              throughput = 64
            }
            """;

    /** The name JMH's {@code contender} parameter uses. */
    public final String paramName;

    Contender(String paramName) {
        this.paramName = paramName;
    }

    /** The contender a JMH {@code @Param} value names. */
    public static Contender named(String paramName) {
        for (Contender contender : values()) {
            if (contender.paramName.equals(paramName)) {
                return contender;
            }
        }
        throw new IllegalArgumentException("unknown contender '" + paramName
                + "': expected lanehost, pekkoDefault or pekkoTuned");
    }

    public boolean isPekko() {
        return this != LANEHOST;
    }

    /** A fresh lanehost HOSTED runtime, as a user gets it. */
    public static ActorRuntime startLanehost() {
        return ActorRuntime.create(Profile.HOSTED);
    }

    /** A fresh Pekko actor system for this contender, configured in code (no file outside the jar). */
    public ActorSystem startPekko(String systemName) {
        if (!isPekko()) {
            throw new IllegalStateException(paramName + " is not a Pekko contender");
        }
        Config config = ConfigFactory.parseString(QUIET);
        if (this == PEKKO_TUNED) {
            config = ConfigFactory.parseString(TUNED).withFallback(config);
        }
        return ActorSystem.create(systemName, config.withFallback(ConfigFactory.load()));
    }
}

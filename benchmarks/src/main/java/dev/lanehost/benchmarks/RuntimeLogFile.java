package dev.lanehost.benchmarks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.logging.ConsoleHandler;
import java.util.logging.FileHandler;
import java.util.logging.Handler;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

/**
 * Sends a benchmark JVM's {@code java.util.logging} lines, the lanehost runtime's own warnings among them (a lane
 * left undriven between trials, a teardown off the lane's thread), to a file instead of the console, where they
 * would land between JMH's iteration lines. The run scripts start each fork with
 * {@code -Djava.util.logging.config.class=dev.lanehost.benchmarks.RuntimeLogFile -Dlanehost.benchmarks.log=FILE};
 * without the second property the lines go to standard error as by default.
 */
public final class RuntimeLogFile {
    /** The system property naming the file the log lines are appended to. */
    public static final String PROPERTY = "lanehost.benchmarks.log";

    /** Called by {@code java.util.logging.LogManager} when it reads its configuration. */
    public RuntimeLogFile() {
        Logger root = Logger.getLogger("");
        for (Handler handler : root.getHandlers()) {
            root.removeHandler(handler);
        }
        root.addHandler(handler(System.getProperty(PROPERTY)));
    }

    private static Handler handler(String file) {
        if (file == null || file.isBlank()) {
            return new ConsoleHandler();
        }
        try {
            FileHandler handler = new FileHandler(file, true);
            handler.setFormatter(new SimpleFormatter());
            return handler;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the runtime log to " + file + " (" + PROPERTY + ")", e);
        }
    }
}

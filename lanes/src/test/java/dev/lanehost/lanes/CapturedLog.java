package dev.lanehost.lanes;

import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * The runtime's log records while open. The default {@code System.LoggerFinder} routes
 * {@code System.getLogger("dev.lanehost.lanes")} to the java.util.logging logger of that name, so a handler
 * there sees every line the runtime writes.
 */
final class CapturedLog implements AutoCloseable {
    private final Logger logger = Logger.getLogger("dev.lanehost.lanes");
    private final Level previousLevel = logger.getLevel();
    private final List<LogRecord> records = new ArrayList<>();
    private final Handler handler = new Handler() {
        @Override
        public void publish(LogRecord record) {
            synchronized (records) {
                records.add(record);
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    CapturedLog() {
        handler.setLevel(Level.ALL);
        logger.setLevel(Level.ALL);
        logger.addHandler(handler);
    }

    /** Records at exactly this level whose message contains every fragment. */
    List<LogRecord> matching(Level level, String... fragments) {
        List<LogRecord> found = new ArrayList<>();
        synchronized (records) {
            for (LogRecord record : records) {
                if (record.getLevel() != level || record.getMessage() == null) {
                    continue;
                }
                boolean all = true;
                for (String fragment : fragments) {
                    all &= record.getMessage().contains(fragment);
                }
                if (all) {
                    found.add(record);
                }
            }
        }
        return found;
    }

    @Override
    public void close() {
        logger.removeHandler(handler);
        logger.setLevel(previousLevel);
    }
}

package dev.lanehost.nativeabi;

/**
 * One line naming a throwable and its causes by class and message, for a host that only gets text. The only
 * user code it runs is {@link Throwable#getMessage()} and {@link Throwable#getCause()}, each guarded: never
 * {@code toString()}, and nothing it calls can make it throw.
 */
final class ThrowableSummary {
    /** Enough to see through wrappers (reflection, initializers, executors) and stop on a cause cycle. */
    private static final int MAX_CAUSES = 4;

    private ThrowableSummary() {
    }

    static String of(Throwable thrown) {
        StringBuilder text = new StringBuilder();
        Throwable current = thrown;
        for (int depth = 0; current != null && depth <= MAX_CAUSES; depth++) {
            if (depth > 0) {
                text.append("; caused by ");
            }
            text.append(current.getClass().getName());
            String message = message(current);
            if (message != null) {
                text.append(": ").append(message);
            }
            Throwable cause = cause(current);
            current = cause == current ? null : cause;
        }
        return text.toString();
    }

    private static String message(Throwable thrown) {
        try {
            return thrown.getMessage();
        } catch (Throwable failure) {
            return "(its getMessage() threw " + failure.getClass().getName() + ")";
        }
    }

    private static Throwable cause(Throwable thrown) {
        try {
            return thrown.getCause();
        } catch (Throwable failure) {
            return null;
        }
    }
}

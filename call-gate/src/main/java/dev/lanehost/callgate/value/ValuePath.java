package dev.lanehost.callgate.value;

import java.util.Arrays;

/**
 * Where the encoder is in the value, as a stack of steps (a map key or record component name, or a list
 * index), rendered only when something fails: {@code $}, {@code $.users[3].name}, {@code $["two words"]}.
 *
 * <p>On failure the encoder does not pop, so the stack still says where the failure happened.
 */
final class ValuePath {

    /** Keys longer than this are cut in messages: a path is for finding the place, not for echoing data. */
    private static final int MAX_RENDERED_KEY_CHARS = 64;

    private String[] keys = new String[PlainCodec.INITIAL_DEPTH];
    private int[] indexes = new int[PlainCodec.INITIAL_DEPTH];
    private int length;

    void reset() {
        if (length != 0) { // a failed walk leaves its path behind
            Arrays.fill(keys, null);
            length = 0;
        }
    }

    int length() {
        return length;
    }

    void pushKey(String key) {
        makeRoom();
        keys[length] = key;
        length++;
    }

    void pushIndex(int index) {
        makeRoom();
        keys[length] = null;
        indexes[length] = index;
        length++;
    }

    private void makeRoom() {
        if (length == keys.length) {
            keys = Arrays.copyOf(keys, 2 * length);
            indexes = Arrays.copyOf(indexes, 2 * length);
        }
    }

    void pop() {
        length--;
        keys[length] = null; // drop the reference: the key belongs to the caller's value
    }

    /** The whole path. */
    String render() {
        return render(length);
    }

    /** The path of the ancestor {@code steps} steps below the top value. */
    String render(int steps) {
        StringBuilder text = new StringBuilder("$");
        for (int i = 0; i < steps; i++) {
            String key = keys[i];
            if (key == null) {
                text.append('[').append(indexes[i]).append(']');
            } else if (isPlainName(key)) {
                text.append('.').append(key);
            } else {
                appendQuoted(text, key);
            }
        }
        return text.toString();
    }

    /** ASCII identifiers print as {@code .name}; anything else is quoted, so a path never hides a character. */
    private static boolean isPlainName(String key) {
        if (key.isEmpty() || key.length() > MAX_RENDERED_KEY_CHARS || isDigit(key.charAt(0))) {
            return false;
        }
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || isDigit(c) || c == '_' || c == '$')) {
                return false;
            }
        }
        return true;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static void appendQuoted(StringBuilder text, String key) {
        text.append("[\"");
        int shown = Math.min(key.length(), MAX_RENDERED_KEY_CHARS);
        for (int i = 0; i < shown; i++) {
            char c = key.charAt(i);
            switch (c) {
                case '"' -> text.append("\\\"");
                case '\\' -> text.append("\\\\");
                default -> {
                    if (c < 0x20 || Character.isSurrogate(c) || c == 0x7f) {
                        text.append(String.format("\\u%04x", (int) c));
                    } else {
                        text.append(c);
                    }
                }
            }
        }
        if (shown < key.length()) {
            text.append("...");
        }
        text.append("\"]");
    }
}

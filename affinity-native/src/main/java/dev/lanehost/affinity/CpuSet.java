package dev.lanehost.affinity;

import java.util.BitSet;
import java.util.stream.IntStream;

/**
 * An immutable set of logical CPU numbers, as {@code sched_setaffinity} and {@code taskset} count them.
 *
 * <p>{@link #parse} reads both spellings a user meets: the kernel's list syntax ({@code 0-3,8,10-11},
 * as in {@code /proc/self/status} and sysfs, {@code -} inclusive) and the placement forms of the
 * configuration ({@code 4..8} excluding 8, {@code 4..=7} including 7, {@code {4, 5, 6, 7}}). Items of
 * both kinds may be mixed: {@code {0..2, 8-9}}. {@link #toString} prints the kernel's syntax, so a set
 * can be compared with {@code Cpus_allowed_list} as text; {@link #toRangeString} prints the placement form.
 */
public final class CpuSet {
    private static final CpuSet EMPTY = new CpuSet(new BitSet());

    private final BitSet bits;

    private CpuSet(BitSet bits) {
        this.bits = bits;
    }

    public static CpuSet empty() {
        return EMPTY;
    }

    /** @throws IllegalArgumentException naming the first negative CPU */
    public static CpuSet of(int... cpus) {
        BitSet bits = new BitSet();
        for (int cpu : cpus) {
            if (cpu < 0) {
                throw new IllegalArgumentException("CPU " + cpu + " is negative; CPUs are numbered from 0");
            }
            bits.set(cpu);
        }
        return new CpuSet(bits);
    }

    /** CPUs {@code from} (inclusive) to {@code to} (exclusive), like {@code from..to}. */
    public static CpuSet range(int from, int to) {
        checkRange(from, to, from + ".." + to);
        BitSet bits = new BitSet();
        bits.set(from, to);
        return new CpuSet(bits);
    }

    /** CPUs {@code from} to {@code to}, both inclusive, like {@code from..=to} or the kernel's {@code from-to}. */
    public static CpuSet rangeClosed(int from, int to) {
        checkRange(from, to + 1, from + "..=" + to);
        BitSet bits = new BitSet();
        bits.set(from, to + 1);
        return new CpuSet(bits);
    }

    /** The CPUs of a mask in {@link BitSet#toLongArray()} order, the order the C library uses. */
    public static CpuSet fromWords(long[] words) {
        return new CpuSet(BitSet.valueOf(words));
    }

    /**
     * Parses the kernel's list syntax or the placement forms (see the class comment). Blank text and
     * {@code {}} are the empty set.
     *
     * @throws IllegalArgumentException naming the text and the position of the problem
     */
    public static CpuSet parse(String text) {
        return new Parser(text).parse();
    }

    public boolean contains(int cpu) {
        return cpu >= 0 && bits.get(cpu);
    }

    public boolean containsAll(CpuSet other) {
        BitSet rest = (BitSet) other.bits.clone();
        rest.andNot(bits);
        return rest.isEmpty();
    }

    public boolean intersects(CpuSet other) {
        return bits.intersects(other.bits);
    }

    public int size() {
        return bits.cardinality();
    }

    public boolean isEmpty() {
        return bits.isEmpty();
    }

    /** The lowest CPU, or -1 if empty. */
    public int first() {
        return bits.nextSetBit(0);
    }

    /** The {@code index}-th CPU in ascending order. */
    public int get(int index) {
        if (index < 0 || index >= size()) {
            throw new IndexOutOfBoundsException("index " + index + " of a set of " + size() + " CPUs");
        }
        int cpu = bits.nextSetBit(0);
        for (int i = 0; i < index; i++) {
            cpu = bits.nextSetBit(cpu + 1);
        }
        return cpu;
    }

    public CpuSet union(CpuSet other) {
        BitSet result = (BitSet) bits.clone();
        result.or(other.bits);
        return new CpuSet(result);
    }

    public CpuSet intersection(CpuSet other) {
        BitSet result = (BitSet) bits.clone();
        result.and(other.bits);
        return new CpuSet(result);
    }

    public CpuSet minus(CpuSet other) {
        BitSet result = (BitSet) bits.clone();
        result.andNot(other.bits);
        return new CpuSet(result);
    }

    public IntStream stream() {
        return bits.stream();
    }

    public int[] toArray() {
        return bits.stream().toArray();
    }

    /** The mask in {@link BitSet#toLongArray()} order: CPU n is bit n % 64 of word n / 64. */
    public long[] toWords() {
        return bits.toLongArray();
    }

    /** The kernel's list syntax, e.g. {@code 0-3,8,10-11}; the empty set is the empty string, as sysfs writes it. */
    @Override
    public String toString() {
        return format("-", ",");
    }

    /** The placement form, e.g. {@code {0..=3, 8, 10..=11}}. */
    public String toRangeString() {
        return "{" + format("..=", ", ") + "}";
    }

    private String format(String through, String separator) {
        StringBuilder text = new StringBuilder();
        for (int start = bits.nextSetBit(0); start >= 0; ) {
            int end = bits.nextClearBit(start) - 1;
            if (!text.isEmpty()) {
                text.append(separator);
            }
            text.append(start);
            if (end > start) {
                text.append(through).append(end); // the kernel prints 0-1, not 0,1
            }
            start = bits.nextSetBit(end + 1);
        }
        return text.toString();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof CpuSet set && set.bits.equals(bits);
    }

    @Override
    public int hashCode() {
        return bits.hashCode();
    }

    private static void checkRange(int from, int toExclusive, String spelled) {
        if (from < 0) {
            throw new IllegalArgumentException("CPU range " + spelled + " starts below 0");
        }
        if (toExclusive <= from) {
            throw new IllegalArgumentException("CPU range " + spelled + " is empty (.. excludes its upper bound, ..= includes it)");
        }
    }

    /** item := N | N-M | N..M | N..=M ; set := '{' items? '}' | items? ; items := item (',' item)* */
    private static final class Parser {
        private final String text;
        private int position;

        Parser(String text) {
            if (text == null) {
                throw new IllegalArgumentException("CPU set text is null");
            }
            this.text = text;
        }

        CpuSet parse() {
            BitSet bits = new BitSet();
            skipSpaces();
            boolean braced = peek('{');
            if (braced) {
                position++;
                skipSpaces();
            }
            boolean closed = braced && peek('}');
            if (!closed && position < text.length()) {
                item(bits);
                skipSpaces();
                while (peek(',')) {
                    position++;
                    skipSpaces();
                    item(bits);
                    skipSpaces();
                }
            }
            if (braced) {
                if (!peek('}')) {
                    throw problem("expected ',' or '}'");
                }
                position++;
                skipSpaces();
            }
            if (position != text.length()) {
                throw problem(braced ? "unexpected text after '}'" : "expected ','");
            }
            return bits.isEmpty() ? EMPTY : new CpuSet(bits);
        }

        private void item(BitSet bits) {
            int start = position;
            int from = number();
            skipSpaces();
            int toExclusive;
            if (peek('-')) {
                position++;
                skipSpaces();
                toExclusive = number() + 1;
            } else if (text.startsWith("..=", position)) {
                position += 3;
                skipSpaces();
                toExclusive = number() + 1;
            } else if (text.startsWith("..", position)) {
                position += 2;
                skipSpaces();
                toExclusive = number();
            } else {
                toExclusive = from + 1;
            }
            if (toExclusive <= from) {
                throw new IllegalArgumentException("CPU set '" + text + "': range '" + text.substring(start, position).strip()
                        + "' is empty (.. excludes its upper bound, ..= and - include it)");
            }
            bits.set(from, toExclusive);
        }

        private int number() {
            int start = position;
            while (position < text.length() && Character.isDigit(text.charAt(position))) {
                position++;
            }
            if (start == position) {
                throw problem(peek('-') ? "negative CPU numbers do not exist" : "expected a CPU number");
            }
            try {
                return Integer.parseInt(text, start, position, 10);
            } catch (NumberFormatException e) {
                throw problem("CPU number " + text.substring(start, position) + " is too large");
            }
        }

        private boolean peek(char c) {
            return position < text.length() && text.charAt(position) == c;
        }

        private void skipSpaces() {
            while (position < text.length() && Character.isWhitespace(text.charAt(position))) {
                position++;
            }
        }

        private IllegalArgumentException problem(String what) {
            return new IllegalArgumentException("CPU set '" + text + "' at position " + position + ": " + what);
        }
    }
}

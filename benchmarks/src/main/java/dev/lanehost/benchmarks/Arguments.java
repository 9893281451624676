package dev.lanehost.benchmarks;

/** A plain main's positional arguments: a count, or a usage line and exit status 2. */
public final class Arguments {
    private Arguments() {
    }

    /** Argument {@code index} as a whole number of at least {@code least}, or {@code otherwise} if absent; exits with {@code usage} if bad. */
    public static int count(String[] args, int index, String name, int otherwise, int least, String usage) {
        if (args.length <= index) {
            return otherwise;
        }
        try {
            int value = Integer.parseInt(args[index]);
            if (value >= least) {
                return value;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        return refuse(name + " must be a whole number of at least " + least + ", got '" + args[index] + "'", usage);
    }

    /** Prints {@code problem} and the usage line, and exits with status 2. @return never */
    public static int refuse(String problem, String usage) {
        System.err.println(problem + "; usage: " + usage);
        System.exit(2);
        return 0;
    }
}

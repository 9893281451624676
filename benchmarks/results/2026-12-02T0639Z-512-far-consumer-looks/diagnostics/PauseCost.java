public class PauseCost {
    public static void main(String[] a) {
        for (int rep = 0; rep < 5; rep++) {
            long t = System.nanoTime(); int n = 200_000;
            for (int i = 0; i < n; i++) for (int p = 0; p < 128; p++) Thread.onSpinWait();
            System.out.printf("128 pauses: %.0f ns%n", (System.nanoTime() - t) / (double) n);
        }
    }
}

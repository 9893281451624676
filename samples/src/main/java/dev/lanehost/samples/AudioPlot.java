package dev.lanehost.samples;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Renders an audio run's timing records as one PNG with XChart: the time between consecutive callbacks (the
 * period as the callback saw it, against the nominal one) and the audio ring's fill over time.
 */
public final class AudioPlot {
    private static final int WIDTH = 1200;
    private static final int HEIGHT = 420;

    private AudioPlot() {
    }

    /**
     * Writes the plot to {@code png} (parent directories created).
     *
     * @throws IOException if the file cannot be written
     */
    public static void render(AudioTiming timing, int sampleRate, int periodFrames, String producer, Path png)
            throws IOException {
        // No display is needed to draw into an image; say so before AWT starts.
        System.setProperty("java.awt.headless", "true");
        int n = timing.count();
        List<Double> time = new ArrayList<>(n);
        List<Double> period = new ArrayList<>(n);
        List<Double> fillTime = new ArrayList<>(n);
        List<Double> fill = new ArrayList<>(n);
        long start = n == 0 ? 0 : timing.wakeNanos(0);
        for (int i = 0; i < n; i++) {
            double seconds = (timing.wakeNanos(i) - start) / 1e9;
            if (i > 0) {
                time.add(seconds);
                period.add((timing.wakeNanos(i) - timing.wakeNanos(i - 1)) / 1e6);
            }
            fillTime.add(seconds);
            fill.add(timing.fillBytes(i) / (double) Float.BYTES / sampleRate * 1e3);
        }
        double nominal = periodFrames * 1e3 / sampleRate;

        XYChart periods = new XYChartBuilder().width(WIDTH).height(HEIGHT)
                .title(String.format("Callback period: time between consecutive callbacks (%s, %d frames at %d Hz)",
                        producer, periodFrames, sampleRate))
                .xAxisTitle("time since the first callback (s)").yAxisTitle("period (ms)").build();
        line(periods, "measured period", time, period);
        if (!time.isEmpty()) {
            line(periods, String.format("nominal %.3f ms", nominal), List.of(time.getFirst(), time.getLast()),
                    List.of(nominal, nominal)).setLineColor(java.awt.Color.RED);
        }

        XYChart ring = new XYChartBuilder().width(WIDTH).height(HEIGHT)
                .title("Audio ring fill after each callback's write (the consumer plays " + AudioConsumer.LATENCY.toMillis()
                        + " ms behind)")
                .xAxisTitle("time since the first callback (s)").yAxisTitle("fill (ms of audio)").build();
        line(ring, "ring fill", fillTime, fill);

        for (XYChart chart : List.of(periods, ring)) {
            chart.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.InsideNE);
            chart.getStyler().setPlotGridLinesVisible(true);
            chart.getStyler().setYAxisMin(0.0);
            chart.getStyler().setChartTitleFont(new java.awt.Font(java.awt.Font.SANS_SERIF, java.awt.Font.BOLD, 15));
        }
        Path parent = png.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        BitmapEncoder.saveBitmap(List.of(periods, ring), 2, 1, png.toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    private static XYSeries line(XYChart chart, String name, List<Double> x, List<Double> y) {
        if (x.isEmpty()) {
            x = List.of(0.0);
            y = List.of(0.0);
        }
        XYSeries series = chart.addSeries(name, x, y);
        series.setMarker(SeriesMarkers.NONE);
        return series;
    }
}

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
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The duplex sample's plot (XChart, one PNG): the capture and playback rings' fill and the lead over time, in ms of
 * audio, as the demo's main thread sampled them. Frames in flight (capture + playback) sit at the lead; a stalled
 * effect shows as the capture fill rising while the playback fill falls.
 */
public final class DuplexPlot {
    private static final int WIDTH = 1200;
    private static final int HEIGHT = 480;

    private final int sampleRate;
    private final List<Double> seconds = new ArrayList<>();
    private final List<Double> capture = new ArrayList<>();
    private final List<Double> playback = new ArrayList<>();
    private final List<Double> lead = new ArrayList<>();

    public DuplexPlot(int sampleRate) {
        this.sampleRate = sampleRate;
    }

    /** One sample of the fills and the lead, in frames, at {@code secondsSinceStart}. */
    public void add(double secondsSinceStart, long captureFrames, long playbackFrames, long leadFrames) {
        seconds.add(secondsSinceStart);
        capture.add(captureFrames * 1e3 / sampleRate);
        playback.add(playbackFrames * 1e3 / sampleRate);
        lead.add(leadFrames * 1e3 / sampleRate);
    }

    /** Writes the plot to {@code png} (parent directories created). */
    public void render(String title, Path png) throws IOException {
        System.setProperty("java.awt.headless", "true"); // no display needed to draw into an image
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title)
                .xAxisTitle("time since the start (s)").yAxisTitle("ms of audio").build();
        line(chart, "capture ring fill", capture);
        line(chart, "playback ring fill", playback);
        line(chart, "lead", lead).setLineColor(java.awt.Color.RED);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNE);
        chart.getStyler().setPlotGridLinesVisible(true);
        chart.getStyler().setYAxisMin(0.0);
        chart.getStyler().setYAxisDecimalPattern("#0.0");
        chart.getStyler().setChartTitleFont(new java.awt.Font(java.awt.Font.SANS_SERIF, java.awt.Font.BOLD, 15));
        Path parent = png.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        BitmapEncoder.saveBitmap(chart, png.toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    private XYSeries line(XYChart chart, String name, List<Double> values) {
        List<Double> x = seconds.isEmpty() ? List.of(0.0) : seconds;
        List<Double> y = values.isEmpty() ? List.of(0.0) : values;
        XYSeries series = chart.addSeries(name, x, y);
        series.setMarker(SeriesMarkers.NONE);
        return series;
    }
}

package dev.tegula.cli.bench;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler;

import java.awt.Color;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/** The bar chart of {@code tegula bench --png}: GB/s of relayout and of copy per case (XChart). */
final class BenchChart {
    static {
        System.setProperty("java.awt.headless", "true");
    }

    private BenchChart() {
    }

    /** {@return the chart of {@code results}} */
    static CategoryChart chart(List<BenchCommand.Result> results, String title) {
        CategoryChart chart = new CategoryChartBuilder().width(Math.max(900, 90 * results.size() + 200)).height(620)
                .title(title).xAxisTitle("case (ratio: relayout / copy)").yAxisTitle("GB/s (median)").build();
        Styler s = chart.getStyler();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
        chart.getStyler().setLegendLayout(Styler.LegendLayout.Horizontal);
        chart.getStyler().setXAxisLabelRotation(35);
        chart.getStyler().setLabelsVisible(true);
        chart.getStyler().setDecimalPattern("0.0");
        chart.getStyler().setSeriesColors(new Color[] {new Color(0xc0392b), new Color(0x7f8c8d)});
        s.setChartBackgroundColor(Color.WHITE);
        chart.getStyler().setAvailableSpaceFill(0.8);
        // each case with its ratio to the copy, e.g. "f32_3d_102 (0.58x)"
        List<String> names = results.stream()
                .map(r -> r.benchCase().name() + String.format(Locale.ROOT, " (%.2fx)", r.ratio())).toList();
        chart.addSeries("relayout", names, results.stream().map(BenchCommand.Result::relayoutGBs).toList());
        chart.addSeries("MemorySegment.copy", names, results.stream().map(BenchCommand.Result::copyGBs).toList());
        return chart;
    }

    /** Writes the chart as PNG. */
    static void write(List<BenchCommand.Result> results, Path file, String title) throws IOException {
        // the OutputStream form: the file-name form would append ".png" to a name without it
        try (OutputStream out = Files.newOutputStream(file)) {
            BitmapEncoder.saveBitmap(chart(results, title), out, BitmapEncoder.BitmapFormat.PNG);
        }
    }
}

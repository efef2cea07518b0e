package dev.tegula.cli.bench;

import dev.tegula.io.internal.AtomicFile;
import dev.tegula.vector.PlanMeasurement;
import dev.tegula.vector.RelayoutPlan;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler;


import java.awt.Color;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The bar chart of {@code tegula plan --png}: GB/s of each timed candidate, by its number in the table (XChart). */
final class PlanChart {
    static {
        System.setProperty("java.awt.headless", "true");
    }

    private PlanChart() {
    }

    /** {@return the chart of the plan's measured candidates, the chosen one in its own colour} */
    static CategoryChart chart(RelayoutPlan plan) {
        List<PlanMeasurement> ms = plan.report().measurements();
        CategoryChart chart = new CategoryChartBuilder().width(Math.max(900, 18 * ms.size() + 200)).height(560)
                .title(plan.from() + " -> " + plan.to() + " (" + plan.planning() + ", " + plan.threads()
                        + (plan.threads() == 1 ? " thread)" : " threads)"))
                .xAxisTitle("candidate (# in the table)").yAxisTitle("GB/s read + written (fastest run of a part)").build();
        org.knowm.xchart.style.CategoryStyler s = chart.getStyler();
        s.setLegendPosition(Styler.LegendPosition.OutsideS);
        s.setLegendLayout(Styler.LegendLayout.Horizontal);
        s.setChartBackgroundColor(Color.WHITE);
        s.setSeriesColors(new Color[] {new Color(0x7f8c8d), new Color(0xc0392b)});
        s.setAvailableSpaceFill(0.9);
        s.setOverlapped(true);
        List<String> names = new ArrayList<>();
        List<Double> others = new ArrayList<>();
        List<Double> chosen = new ArrayList<>();
        for (int i = 0; i < ms.size(); i++) {
            PlanMeasurement m = ms.get(i);
            names.add(String.valueOf(i + 1));
            others.add(m.chosen() ? 0.0 : m.gigabytesPerSecond());
            chosen.add(m.chosen() ? m.gigabytesPerSecond() : 0.0);
        }
        chart.addSeries("candidates", names, others);
        chart.addSeries("chosen", names, chosen);
        return chart;
    }

    /** Writes the chart as PNG (whole or not at all: a failed write keeps an existing file as it was). */
    static void write(RelayoutPlan plan, Path file) throws IOException {
        try (AtomicFile out = AtomicFile.create(file); OutputStream s = out.outputStream()) {
            BitmapEncoder.saveBitmap(chart(plan), s, BitmapEncoder.BitmapFormat.PNG);
            s.flush();
            out.commit();
        }
    }
}

package dev.tegula.cli.bench;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** The byte progress bar shows a rate and the time left only once they mean something. */
class ProgressBarTest {
    private static final long MIB = 1L << 20;

    private static String draw(long done, long total, long nanos) {
        StringWriter s = new StringWriter();
        ProgressBar bar = new ProgressBar(new PrintWriter(s), total, false, 0);
        bar.bytes(done, "t", nanos);
        return s.toString();
    }

    @Test
    void aFirstIntervalOfMillisecondsShowsNoRateAndNoTimeLeft() {
        String line = draw(MIB, 4096 * MIB, 2_000_000);   // 1 MiB in 2 ms would read as 500 MiB/s, 4 GiB as 2 TiB/s
        assertTrue(line.contains("1.0 MiB / 4.0 GiB"), line);
        assertFalse(line.contains("/s"), line);
        assertFalse(line.contains("left"), line);
    }

    @Test
    void afterASecondTheRateAndTimeLeftAreShown() {
        String line = draw(2048 * MIB, 4096 * MIB, 2_000_000_000L);
        assertTrue(line.contains("2.0 GiB / 4.0 GiB  1.0 GiB/s  ~2 s left"), line);
    }

    @Test
    void aFinishedBarShowsTheTimeTakenAndTheRateOnlyIfItTookASecond() {
        String quick = draw(4 * MIB, 4 * MIB, 30_000_000);
        assertTrue(quick.contains("4.0 MiB / 4.0 MiB  0.0 s"), quick);
        assertFalse(quick.contains("/s"), quick);
        String slow = draw(4 * MIB, 4 * MIB, 4_000_000_000L);
        assertTrue(slow.contains("4.0 MiB / 4.0 MiB  1.0 MiB/s  4.0 s"), slow);
    }
}

package dev.tegula.io.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ByteCountsTest {
    @Test
    void exactCountsAddBinaryUnitsFromOneKibibyte() {
        assertEquals("0 B", ByteCounts.text(0));
        assertEquals("1023 B", ByteCounts.text(1023));
        assertEquals("1024 B (1 KiB)", ByteCounts.text(1024));
        assertEquals("1536 B (~1.50 KiB)", ByteCounts.text(1536));
        assertEquals("335544320 B (320 MiB)", ByteCounts.text(335544320L));
        assertEquals("4294967296 B (4 GiB)", ByteCounts.text(1L << 32));
        assertEquals("1048577 B (~1.00 MiB)", ByteCounts.text((1L << 20) + 1));
        assertEquals(Long.MAX_VALUE + " B (~8.00 EiB)", ByteCounts.text(Long.MAX_VALUE));
    }

    @Test
    void roundedCountsHaveOneDecimalInTheLargestUnitReached() {
        assertEquals("0 B", ByteCounts.rounded(0));
        assertEquals("1023 B", ByteCounts.rounded(1023));
        assertEquals("1.0 KiB", ByteCounts.rounded(1024));
        assertEquals("1.5 KiB", ByteCounts.rounded(1536));
        assertEquals("320.0 MiB", ByteCounts.rounded(335544320L));
        assertEquals("1.5 GiB", ByteCounts.rounded(3L << 29));
        assertEquals("1024.0 KiB", ByteCounts.rounded((1L << 20) - 1), "rounds up without changing unit");
        assertEquals("8.0 EiB", ByteCounts.rounded(Long.MAX_VALUE));
    }

    @Test
    void wholeCountsUseTheLargestUnitThatDividesThem() {
        assertEquals("0 B", ByteCounts.whole(0));
        assertEquals("1000 B", ByteCounts.whole(1000));
        assertEquals("40 KiB", ByteCounts.whole(40 << 10));
        assertEquals("1025 KiB", ByteCounts.whole((1L << 20) + 1024));
        assertEquals("16 MiB", ByteCounts.whole(16L << 20));
        assertEquals("1 GiB", ByteCounts.whole(1L << 30));
        assertEquals("4 EiB", ByteCounts.whole(1L << 62));
        assertEquals(Long.MAX_VALUE + " B", ByteCounts.whole(Long.MAX_VALUE));
        assertEquals("-2 KiB", ByteCounts.whole(-2048));
    }
}

package dev.tegula.ffm.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The CPU's facts are read from the operating system's files as those files say them. */
class CpuTest {
    @TempDir
    Path dir;

    @Test
    void cpuinfoFieldsAreTheFirstCoresValues() {
        List<String> cpuinfo = List.of("processor\t: 0", "vendor_id\t: AuthenticAMD",
                "model name\t: AMD EPYC 7B13 64-Core Processor", "", "processor\t: 1", "model name\t: other");
        assertEquals("AuthenticAMD", Cpu.field(cpuinfo, "vendor_id"));
        assertEquals("AMD EPYC 7B13 64-Core Processor", Cpu.field(cpuinfo, "model name"));
        assertNull(Cpu.field(cpuinfo, "flags"));
    }

    @Test
    void cacheSizesComeFromTheDataOrUnifiedCacheOfEachLevel() throws IOException {
        index(0, 1, "Data", "48K");
        index(1, 1, "Instruction", "32K");
        index(2, 2, "Unified", "2048K");
        index(3, 3, "Unified", "105M");
        assertEquals(48 << 10, Cpu.cacheBytes(dir, 1));
        assertEquals(2 << 20, Cpu.cacheBytes(dir, 2));
        assertEquals(105L << 20, Cpu.cacheBytes(dir, 3));
        assertEquals(0, Cpu.cacheBytes(dir, 4));
        assertEquals(0, Cpu.cacheBytes(dir.resolve("none"), 1));
    }

    @Test
    void sizesThatAreNotSizesReadAsUnknown() {
        assertEquals(512 << 10, Cpu.size(" 512K\n"));
        assertEquals(4096, Cpu.size("4096"));
        assertEquals(0, Cpu.size("lots"));
        assertEquals(0, Cpu.size(""));
        assertEquals(0, Cpu.size(null));
        assertEquals(0, Cpu.size("-4K"));
        assertEquals(0, Cpu.size("99999999999999999G"));
    }

    @Test
    void theHugePageModeIsTheBracketedOne() {
        assertEquals(Cpu.HugePageMode.MADVISE, Cpu.hugePageMode("always [madvise] never"));
        assertEquals(Cpu.HugePageMode.ALWAYS, Cpu.hugePageMode("[always] madvise never"));
        assertEquals(Cpu.HugePageMode.NEVER, Cpu.hugePageMode("always madvise [never]"));
        assertEquals(Cpu.HugePageMode.UNKNOWN, Cpu.hugePageMode("always madvise never"));
        assertEquals(Cpu.HugePageMode.UNKNOWN, Cpu.hugePageMode(null));
    }

    private void index(int i, int level, String type, String size) throws IOException {
        Path d = Files.createDirectories(dir.resolve("index" + i));
        Files.writeString(d.resolve("level"), level + "\n");
        Files.writeString(d.resolve("type"), type + "\n");
        Files.writeString(d.resolve("size"), size + "\n");
    }
}

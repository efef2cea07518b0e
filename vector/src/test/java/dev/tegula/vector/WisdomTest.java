package dev.tegula.vector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static dev.tegula.vector.PlannerFixtures.*;

import dev.tegula.core.ArrayShape;
import dev.tegula.ffm.Array;
import dev.tegula.vector.kernels.Bands;
import dev.tegula.vector.kernels.Elements;
import dev.tegula.vector.kernels.Kernel;
import dev.tegula.vector.kernels.Strips;
import dev.tegula.vector.kernels.Tuning;
import dev.tegula.vector.plan.CandidateFamilies;
import dev.tegula.vector.plan.CandidateTimer;
import dev.tegula.vector.plan.Estimate;
import dev.tegula.vector.plan.LoopNest;
import dev.tegula.vector.plan.MeasuredSearch;
import dev.tegula.vector.plan.Pages;
import dev.tegula.vector.plan.PlanRequest;
import dev.tegula.vector.plan.RelayoutStrategy;
import dev.tegula.vector.plan.Tasks;
import dev.tegula.vector.plan.Walk;
import dev.tegula.vector.plan.WalkRules;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Wisdom ({@link Wisdom}): it answers a later plan without timing; wisdom of another machine, a walk that does not fit or a corrupt file is ignored; it can be turned off or moved. */
class WisdomTest {

    @Test
    void wisdomAnswersALaterPlanWithoutTiming(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("w.txt");
        Wisdom w = Wisdom.at(file);
        RelayoutPlan measured = new PlanCache(8, w).plan(FROM, TO, Planning.MEASURE, 2);
        assertEquals(1, w.size());
        // version 3: the walks (a plan of 16 MiB never streams, so it took no probed facts to keep)
        assertTrue(Files.readString(file).startsWith("# Tegula relayout wisdom 3\nplan\t"), Files.readString(file));
        // a new process: the file read again
        RelayoutPlan again = new PlanCache(8, Wisdom.at(file)).plan(FROM, TO, Planning.MEASURE, 2);
        assertEquals(PlanOrigin.WISDOM, again.report().origin());
        assertTrue(again.report().measurements().isEmpty());
        assertEquals(measured.walks(), again.walks());
        assertTrue(again.describe().contains("from wisdom"), again.describe());
        // another thread count is another key: measured again
        assertEquals(PlanOrigin.MEASURED, new PlanCache(8, Wisdom.at(file)).plan(FROM, TO, Planning.MEASURE, 1).report().origin());
        // export and import
        Path out = dir.resolve("exported.txt");
        w.exportTo(out);
        Wisdom fresh = Wisdom.inMemory();
        assertEquals(1, fresh.importFrom(out));
        assertEquals(PlanOrigin.WISDOM, new PlanCache(8, fresh).plan(FROM, TO, Planning.EXHAUSTIVE, 2).report().origin());
        RelayoutProperties.checkPlan(FROM, TO, again);
    }

    @Test
    void wisdomOfAnotherMachineIsKeptButNotUsed(@TempDir Path dir) throws IOException {
        Wisdom w = Wisdom.inMemory();
        new PlanCache(8, w).plan(FROM, TO, Planning.MEASURE, 1);
        Path out = dir.resolve("w.txt");
        w.exportTo(out);
        String text = Files.readString(out);
        String cpu = Wisdom.cpuModel();
        Files.writeString(out, text.replace("plan\t" + cpu + "\t", "plan\tSome Other CPU 9000\t"));
        Wisdom other = Wisdom.inMemory();
        assertEquals(0, other.importFrom(out));
        assertEquals(1, other.size());
        assertEquals(PlanOrigin.MEASURED, new PlanCache(8, other).plan(FROM, TO, Planning.MEASURE, 1).report().origin());
    }

    @Test
    void wisdomWhoseWalkDoesNotFitIsIgnored(@TempDir Path dir) throws IOException {
        Wisdom w = Wisdom.inMemory();
        RelayoutPlan first = new PlanCache(8, w).plan(FROM, TO, Planning.MEASURE, 1);
        Path out = dir.resolve("w.txt");
        w.exportTo(out);
        String walk = first.walks().get(0);
        for (String bad : new String[] {"order=2,1,0 split=0", "order=0,0,2 split=0 tile=16 block=64x64 strips=source bands=source",
            "order=0,1,2 split=7 tile=16 block=64x64 strips=source bands=source",
            "order=0,1,2 split=0 tile=16 block=50x64 strips=source bands=source",
            "order=0,1,2 split=0 tile=16 block=512x512 strips=staged bands=source",
            "order=0,1,2 split=0 tile=12 block=64x64 strips=source bands=source",
            "order=0,1,2 split=0 tile=16 block=64x64 strips=sideways bands=source",
            "order=x split=0", "nonsense"}) {
            Files.writeString(out, Files.readString(dir.resolve("w.txt")).replace("0:" + walk, "0:" + bad));
            Wisdom edited = Wisdom.inMemory();
            edited.importFrom(out);
            RelayoutPlan p = new PlanCache(8, edited).plan(FROM, TO, Planning.MEASURE, 1);
            assertEquals(PlanOrigin.MEASURED, p.report().origin(), bad);
            w.exportTo(out);
        }
    }

    @Test
    void corruptWisdomFilesAreIgnored(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("w.txt");
        Files.writeString(file, "plan\tonly\tthree\n\u0000\u0001binary\nplan\ta\tb\tc\tnot-a-number\td\te\tf\tg\th\n"
                + "plan\tcpu\t512\tjdk\t1\tf32[2]{0}\tf32[2]{0}\t-\t-\t0:order=0 split=0\n");
        Wisdom w = Wisdom.at(file);
        assertEquals(1, w.size());   // the one well-formed line (of another machine)
        assertEquals(PlanOrigin.MEASURED, new PlanCache(8, w).plan(FROM, TO, Planning.MEASURE, 1).report().origin());
        // a file over the size limit is not read at all
        Path big = dir.resolve("big.txt");
        try (var ch = Files.newByteChannel(big, java.nio.file.StandardOpenOption.CREATE_NEW,
                java.nio.file.StandardOpenOption.WRITE)) {
            ch.position(Wisdom.MAX_FILE_BYTES);
            ch.write(java.nio.ByteBuffer.wrap(new byte[] {'\n'}));
        }
        assertEquals(0, Wisdom.at(big).size());
        assertThrows(IOException.class, () -> Wisdom.inMemory().importFrom(big));
    }

    @Test
    void aWalkIsKeptForThePagesItWasTimedOnAndOldLinesReadAsHugePages(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("w.txt");
        Wisdom w = Wisdom.at(file);
        // a plan of shapes times on buffers allocated as HostMemory allocates arrays now
        String timed = Pages.ofAllocation(FROM.bufferSize(), TO.bufferSize());
        String other = timed.equals(Pages.HUGE) ? Pages.SMALL : Pages.HUGE;
        new PlanCache(8, w).plan(FROM, TO, Planning.MEASURE, 1);
        String line = Files.readString(file).lines().filter(l -> l.startsWith("plan\t")).findFirst().orElseThrow();
        String[] f = line.split("\t", -1);
        assertEquals(11, f.length, line);
        assertEquals("1", f[4], line);
        assertEquals(timed, f[5], line);
        assertTrue(w.memory().recall(request(1, timed)) != null);
        assertEquals(null, w.memory().recall(request(1, other)), "other pages: another key");
        assertEquals(null, w.memory().recall(request(2, timed)), "another thread count: another key");
        // arrays on 4 KiB pages (on the heap) recall nothing timed on huge pages, and the other way round
        float[] a = new float[(int) FROM.elementCount()];
        float[] b = new float[(int) TO.elementCount()];
        Array heapSrc = Array.wrap(MemorySegment.ofArray(a), FROM);
        Array heapDst = Array.wrap(MemorySegment.ofArray(b), TO);
        PlanOrigin heap = new PlanCache(8, w).plan(heapSrc, heapDst, Planning.RECALL, 1, null).report().origin();
        assertEquals(timed.equals(Pages.SMALL) ? PlanOrigin.WISDOM : PlanOrigin.ESTIMATE, heap);
        // a plan line of version 2 (no pages field) was timed where tegula plan times: huge pages
        String[] old = new String[10];
        System.arraycopy(f, 0, old, 0, 5);
        System.arraycopy(f, 6, old, 5, 5);
        Path v2 = dir.resolve("v2.txt");
        Files.writeString(v2, "# Tegula relayout wisdom 2\n" + String.join("\t", old) + "\n");
        Wisdom read = Wisdom.at(v2);
        assertEquals(1, read.size());
        assertTrue(read.memory().recall(request(1, Pages.HUGE)) != null);
        assertEquals(null, read.memory().recall(request(1, Pages.SMALL)));
        // a pages field that names no pages makes the line malformed
        f[5] = "64k";
        Path bad = dir.resolve("bad.txt");
        Files.writeString(bad, String.join("\t", f) + "\n");
        assertEquals(0, Wisdom.at(bad).size());
        assertThrows(IllegalArgumentException.class, () -> request(1, "64k"));
    }

    private static PlanRequest request(int threads, String pages) {
        return new PlanRequest(FROM, TO, null, null, Planning.MEASURE, threads, null, null, null, null, null, pages);
    }

    @Test
    void machineFactsAreWrittenOnlyWithTheWalksAndALaterProcessTakesThem(@TempDir Path dir) throws IOException {
        MachineFacts other = new MachineFacts(256, 32 << 10, 512 << 10, false, 13.25, 20.5);
        assertEquals(other, MachineFacts.parse(other.toString()));
        Path file = dir.resolve("w.txt");
        Wisdom w = Wisdom.at(file);
        w.keepFacts(other);
        assertFalse(Files.exists(file), "facts alone are never written");
        new PlanCache(8, w).plan(FROM, TO, Planning.MEASURE, 1);
        assertTrue(Files.readString(file).contains("facts\t" + Wisdom.machine() + "\t" + other + "\n"),
                Files.readString(file));
        // a new process reads them, and its estimates plan by them: nothing probed
        assertEquals(other, Wisdom.at(file).facts());
        assertEquals(other, new PlanCache(8, Wisdom.at(file)).machineFacts());
        // a version 1 file (walks only) is read as before; a malformed facts line is one of the malformed lines
        Path v1 = dir.resolve("v1.txt");
        Files.writeString(v1, "# Tegula relayout wisdom 1\n" + Files.readString(file).lines()
                .filter(l -> l.startsWith("plan\t")).collect(java.util.stream.Collectors.joining("\n")) + "\n"
                + "facts\t" + Wisdom.machine() + "\tvector=lots\n");
        Wisdom old = Wisdom.at(v1);
        assertEquals(1, old.size());
        assertEquals(null, old.facts());
        assertEquals(PlanOrigin.WISDOM, new PlanCache(8, old).plan(FROM, TO, Planning.MEASURE, 1).report().origin());
        // a plan too small to stream reads the facts that need no probe, and keeps none
        Wisdom small = Wisdom.inMemory();
        new PlanCache(8, small).plan(FROM, TO, Planning.ESTIMATE, 1);
        assertEquals(null, small.facts());
        assertEquals(0.0, MachineFacts.unmeasured().plainStoreGBps());
        assertEquals(MachineFacts.unmeasured(), MachineFacts.here().withStores(0, 0));
        // an in-memory wisdom keeps the probed facts and writes nothing
        Wisdom mem = Wisdom.inMemory();
        assertEquals(MachineFacts.here(), new PlanCache(8, mem).machineFacts());
        assertEquals(MachineFacts.here(), mem.facts());
    }

    @Test
    void factsTextThatIsNotTheFormIsRefusedNamingTheField() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> MachineFacts.parse("vector=256 l1d=x"))
                .getMessage().contains("l1d 'x'"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> MachineFacts.parse("vector=256"))
                .getMessage().contains("lacks a field"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> MachineFacts.parse("cpu=intel"))
                .getMessage().contains("unknown field 'cpu'"));
        assertThrows(IllegalArgumentException.class, () -> new MachineFacts(256, 0, 0, false, Double.NaN, 0));
        assertThrows(IllegalArgumentException.class, () -> new MachineFacts(-1, 0, 0, false, 0, 0));
    }

    @Test
    void globalWisdomLivesInMemoryUnlessAFileIsNamed() {
        assertEquals(null, Wisdom.fileNamedBy(null));
        assertEquals(null, Wisdom.fileNamedBy("  "));
        assertEquals(null, Wisdom.fileNamedBy("off"));
        assertEquals(Path.of("/tmp/elsewhere/w.txt"), Wisdom.fileNamedBy(" /tmp/elsewhere/w.txt "));
        assertEquals(Wisdom.defaultFile(), Wisdom.fileNamedBy(Wisdom.DEFAULT_VALUE));
        assertTrue(Wisdom.defaultFile().endsWith(Path.of("tegula", "relayout-wisdom.txt")), Wisdom.defaultFile().toString());
        String old = System.getProperty(Wisdom.PROPERTY);
        try {
            System.clearProperty(Wisdom.PROPERTY);
            assertEquals(null, Wisdom.globalFile());
            System.setProperty(Wisdom.PROPERTY, "/tmp/elsewhere/w.txt");
            assertEquals(Path.of("/tmp/elsewhere/w.txt"), Wisdom.globalFile());
        } finally {
            if (old == null) {
                System.clearProperty(Wisdom.PROPERTY);
            } else {
                System.setProperty(Wisdom.PROPERTY, old);
            }
        }
    }
}

package dev.tegula.vector.kernels;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tegula.vector.plan.Walk;
import dev.tegula.vector.plan.Step;
import dev.tegula.vector.plan.WalkRunner;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Random;
import java.util.Set;

/** The kernel tests' harness: a transpose run by the kernel a walk would name, against an element loop. */
final class KernelChecks {
    private KernelChecks() {
    }

    /**
     * Runs {@code dst[dO + i·tI + j] = src[so + i + j·sJ]} ({@code i < nI}, {@code j < nJ}) with the
     * kernel a walk of the whole pair names for {@code form} (the kernels without tiles where no tile
     * kernel takes the pair), through the execution's switch, and checks that this kernel, and only
     * it, ran. {@return the kernel}
     */
    static Kernel transpose(MemorySegment src, long so, MemorySegment dst, long dO, int b, long nI, long tI, long nJ,
                            long sJ, Walk.Form form) {
        Case c = Case.transpose(Elements.same(b), nI, nJ, tI, sJ);
        Kernel k = form.tile() == 0 ? null : Kernel.choose(c.tiled(form.tile(), false));
        Walk.Form f = form;
        if (k == null) {
            k = Kernel.choose(c);
            f = Walk.Plain.PLAIN;
        }
        KernelTrace.start();
        Set<Kernel> ran;
        try {
            WalkRunner.kernel(Step.of(k, f, Elements.same(b), nI, nJ, tI, sJ), Elements.same(b), src, so, dst, dO, nI,
                    tI, nJ, sJ, 1);
        } finally {
            ran = KernelTrace.stop();
        }
        assertEquals(Set.of(k), ran, "the kernels that ran");
        return k;
    }

    /** {@return a tile edge this machine's kernels offer (0 where they offer none), picked by {@code choice}} */
    static int tile(int choice) {
        int[] tiles = Kernel.tileEdges();
        return tiles.length == 0 ? 0 : tiles[choice % tiles.length];
    }

    /** A transpose into {@code fast}: the kernel under test. */
    interface Run {
        void run(MemorySegment src, MemorySegment fast);
    }

    static void check(int b, int nI, int nJ, int sJ, int tI, int so, int dO, String what, Run kernel) {
        try (Arena arena = Arena.ofConfined()) {
            long srcElems = so + (long) nJ * sJ + nI;
            long dstElems = dO + (long) nI * tI + nJ;
            MemorySegment src = arena.allocate(srcElems * b);
            Random r = new Random(31L * nI + 7L * nJ + sJ + tI * 131L + so + dO * 17L + b);
            for (long k = 0; k < src.byteSize(); k++) {
                src.set(ValueLayout.JAVA_BYTE, k, (byte) r.nextInt());
            }
            MemorySegment fast = arena.allocate(dstElems * b);
            MemorySegment ref = arena.allocate(dstElems * b);
            fast.fill((byte) 0x5A);
            ref.fill((byte) 0x5A);
            for (long i = 0; i < nI; i++) {
                for (long j = 0; j < nJ; j++) {
                    MemorySegment.copy(src, (so + i + j * sJ) * b, ref, (dO + i * tI + j) * b, b);
                }
            }
            kernel.run(src, fast);
            assertEquals(-1, ref.mismatch(fast),
                    () -> what + " b=" + b + " nI=" + nI + " nJ=" + nJ + " sJ=" + sJ + " tI=" + tI + " so=" + so + " dO=" + dO);
        }
    }
}

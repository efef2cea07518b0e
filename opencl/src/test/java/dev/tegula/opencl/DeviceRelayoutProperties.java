package dev.tegula.opencl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.core.Layout;
import dev.tegula.core.PaddingValue;
import dev.tegula.ffm.Array;
import dev.tegula.ffm.MapMode;
import dev.tegula.ffm.MappedArray;
import dev.tegula.ffm.codec.ElementCodec;
import dev.tegula.vector.DeviceRoute;
import dev.tegula.vector.Relayout;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AddLifecycleHook;

/**
 * Relayouts into, out of and within device memory, bit for bit against a scalar reference: each
 * element's slot bits, found through {@link Array#slot} on both sides, converted by
 * {@link ElementCodec} where the types differ, in a buffer whose padding {@link Array#allocate}
 * wrote. Layouts: row-major, transposed, tiled (also nested tiles), legacy padding with a padding
 * value, and views.
 */
@AddLifecycleHook(RequiresOpenCL.class)
class DeviceRelayoutProperties {

    /** One case: element types and layouts of both sides, the dimensions, and the seed of the source bits. */
    record Case(ElementType from, ElementType to, long[] dims, Layout src, Layout dst, long seed) {
        @Override
        public String toString() {
            return ArrayShape.of(from, dims).withLayout(src) + " -> " + ArrayShape.of(to, dims).withLayout(dst)
                    + " seed " + seed;
        }
    }

    private static final List<ElementType[]> TYPES = List.of(
            new ElementType[] {ElementType.F32, ElementType.F32}, new ElementType[] {ElementType.BF16, ElementType.BF16},
            new ElementType[] {ElementType.S8, ElementType.S8}, new ElementType[] {ElementType.U64, ElementType.U64},
            new ElementType[] {ElementType.BF16, ElementType.F32}, new ElementType[] {ElementType.F16, ElementType.F32});

    static Layout layout(int kind, long[] dims, ElementType t) {
        int rank = dims.length;
        Layout rowMajor = Layout.rowMajor(rank);
        int[] transposed = new int[rank];
        for (int k = 0; k < rank; k++) {
            transposed[k] = k;             // minor_to_major {0, 1, ...}: the first dimension fastest
        }
        Layout l = switch (kind) {
            case 0 -> rowMajor;
            case 1 -> Layout.of(transposed);
            case 2 -> Layout.parse(rank == 2 ? "{1,0:T(2,4)}" : "{2,1,0:T(2,4)}");
            case 3 -> Layout.parse(rank == 2 ? "{0,1:T(4,2)}" : "{0,2,1:T(4,2)}");
            case 4 -> Layout.parse(rank == 2 ? (t.byteWidth() == 2 ? "{1,0:T(8,128)(2,1)}" : "{1,0:T(8,128)}")
                    : "{2,1,0:T(8,16)}");
            default -> {
                long[] padded = dims.clone();
                padded[rank - 1] += 3;
                padded[0] += 1;
                PaddingValue pv = PaddingValue.values()[kind % PaddingValue.values().length];
                yield Layout.of(kind % 2 == 0 ? rowMajor.minorToMajor() : transposed).withPaddedDimensions(pv, padded);
            }
        };
        return l;
    }

    @Provide
    Arbitrary<Case> cases() {
        return Combinators.combine(Arbitraries.integers().between(0, TYPES.size() - 1),
                Arbitraries.integers().between(2, 3),
                Arbitraries.longs().between(1, 19).array(long[].class).ofSize(3),
                Arbitraries.integers().between(0, 7), Arbitraries.integers().between(0, 7),
                Arbitraries.longs()).as((t, rank, d, a, b, seed) -> {
                    long[] dims = java.util.Arrays.copyOf(d, rank);
                    if (rank == 2) {
                        dims[1] = dims[1] * 9 % 150 + 1;
                    }
                    ElementType[] ts = TYPES.get(t);
                    return new Case(ts[0], ts[1], dims, layout(a, dims, ts[0]), layout(b, dims, ts[1]), seed);
                });
    }

    @Property(tries = 40)
    void deviceToDeviceRelayoutKernelsMatchTheReference(@ForAll("cases") Case c) {
        OpenCLMemory cl = RequiresOpenCL.provider();
        try (Arena arena = Arena.ofConfined()) {
            Array hostSrc = source(arena, c);
            Array devSrc = Array.allocate(arena, onDevice(hostSrc.shape()));
            hostSrc.copyTo(devSrc);
            Array devDst = Array.allocate(arena, onDevice(ArrayShape.of(c.to, c.dims).withLayout(c.dst)));
            long kernels = cl.transfers().relayoutKernels();
            Relayout.copy(devSrc, devDst);
            assertEquals(kernels + 1, cl.transfers().relayoutKernels(), "a device kernel ran: " + c);
            assertSameBits(reference(arena, hostSrc, c), devDst, c);
        }
    }

    @Provide
    Arbitrary<Case> largeCases() {
        return Combinators.combine(Arbitraries.integers().between(0, TYPES.size() - 1),
                Arbitraries.longs().between(128, 200), Arbitraries.longs().between(520, 700),
                Arbitraries.integers().between(0, 7), Arbitraries.integers().between(0, 7),
                Arbitraries.longs()).as((t, rows, cols, a, b, seed) -> {
                    long[] dims = {rows, cols};
                    ElementType[] ts = TYPES.get(t);
                    return new Case(ts[0], ts[1], dims, layout(a, dims, ts[0]), layout(b, dims, ts[1]), seed);
                });
    }

    /** Relayouts of {@link RelayoutKernels#SPECIALISE_FROM} elements and more run a program of their own pair. */
    @Property(tries = 4)
    void specialisedKernelsOfLargeRelayoutsMatchTheReference(@ForAll("largeCases") Case c) {
        deviceToDeviceRelayoutKernelsMatchTheReference(c);
    }

    @Property(tries = 25)
    void hostToDeviceAndBackThroughMappingsMatchTheReference(@ForAll("cases") Case c) {
        try (Arena arena = Arena.ofConfined()) {
            Array hostSrc = source(arena, c);
            ArrayShape dstShape = ArrayShape.of(c.to, c.dims).withLayout(c.dst);
            Array devDst = Array.allocate(arena, onDevice(dstShape));
            Relayout.copy(hostSrc, devDst);
            Array expected = reference(arena, hostSrc, c);
            assertSameBits(expected, devDst, c);
            Array back = Array.allocate(arena, dstShape.withLayout(c.src));
            Array devAgain = Array.allocate(arena, onDevice(dstShape));
            expected.copyTo(devAgain);
            Relayout.copy(devAgain, back);
            Array backRef = Array.allocate(arena, back.shape());
            copyBySlots(expected, backRef);
            assertEquals(-1, backRef.segment().asSlice(0, back.shape().bufferSize())
                    .mismatch(back.segment().asSlice(0, back.shape().bufferSize())), "device -> host: " + c);
        }
    }

    @Property(tries = 25)
    void bothRoutesBetweenHostAndDeviceMatchTheReference(@ForAll("cases") Case c) {
        OpenCLMemory cl = RequiresOpenCL.provider();
        ArrayShape dstShape = ArrayShape.of(c.to, c.dims).withLayout(c.dst);
        for (DeviceRoute route : new DeviceRoute[] {DeviceRoute.MAPPED, DeviceRoute.STAGED}) {
            try (Arena arena = Arena.ofConfined()) {
                Array hostSrc = source(arena, c);
                Array expected = reference(arena, hostSrc, c);
                Array devDst = Array.allocate(arena, onDevice(dstShape));
                long kernels = cl.transfers().relayoutKernels();
                Relayout.copy(hostSrc, devDst, route);
                if (route == DeviceRoute.MAPPED) {
                    assertEquals(kernels, cl.transfers().relayoutKernels(), "mapped: the engine ran on the host: " + c);
                } else {
                    assertTrue(cl.transfers().relayoutKernels() > kernels, "staged: a device kernel ran: " + c);
                }
                assertSameBits(expected, devDst, c + " host -> device " + route);

                Array devSrc = Array.allocate(arena, onDevice(expected.shape()));
                expected.copyTo(devSrc);
                Array back = Array.allocate(arena, dstShape.withLayout(c.src));
                Relayout.copy(devSrc, back, route);
                Array backRef = Array.allocate(arena, back.shape());
                copyBySlots(expected, backRef);
                assertEquals(-1, backRef.segment().asSlice(0, back.shape().bufferSize())
                        .mismatch(back.segment().asSlice(0, back.shape().bufferSize())), "device -> host " + route + ": " + c);
            }
        }
    }

    @Property(tries = 3)
    void measuringTimesBothRoutesThenKeepsOne(@ForAll("largeCases") Case c) {
        long[] dims = {c.dims[0] * 16, c.dims[1]};                 // at least 1 MiB, so both routes are timed
        Case big = new Case(c.from, c.to, dims, layout(0, dims, c.from), layout(4, dims, c.to), c.seed);
        OpenCLMemory cl = RequiresOpenCL.provider();
        try (Arena arena = Arena.ofConfined()) {
            Array hostSrc = source(arena, big);
            Array expected = reference(arena, hostSrc, big);
            Array devDst = Array.allocate(arena, onDevice(expected.shape()));
            assertTrue(Relayout.measuredDeviceRoute(hostSrc, devDst).isEmpty(), "nothing timed yet: " + big);
            long[] kernels = new long[5];
            for (int run = 0; run < 5; run++) {
                long before = cl.transfers().relayoutKernels();
                Relayout.copy(hostSrc, devDst, DeviceRoute.MEASURE);
                kernels[run] = cl.transfers().relayoutKernels() - before;
                assertSameBits(expected, devDst, big + " run " + run);
                assertEquals(run < 3, Relayout.measuredDeviceRoute(hostSrc, devDst).isEmpty(), "run " + run);
            }
            assertEquals(0, kernels[0] + kernels[1], "the first two runs are mapped");
            assertTrue(kernels[2] > 0 && kernels[3] > 0, "the next two are staged: " + java.util.Arrays.toString(kernels));
            DeviceRoute chosen = Relayout.measuredDeviceRoute(hostSrc, devDst).orElseThrow();
            assertEquals(chosen == DeviceRoute.STAGED, kernels[4] > 0, "the fifth run takes the chosen route " + chosen);
        }
    }

    @Property(tries = 5)
    void aPairTheDeviceCannotRelayoutRunsMappedOnEveryRoute(@ForAll("largeCases") Case c) {
        long[] dims = {c.dims[0] * 8, c.dims[1]};
        Case narrowing = new Case(ElementType.F32, ElementType.BF16, dims, layout(0, dims, ElementType.F32),
                layout(4, dims, ElementType.BF16), c.seed);
        try (Arena arena = Arena.ofConfined()) {
            Array hostSrc = source(arena, narrowing);
            ArrayShape dstShape = ArrayShape.of(ElementType.BF16, dims).withLayout(narrowing.dst);
            Array onHost = Array.allocate(arena, dstShape);
            Relayout.copy(hostSrc, onHost);
            for (int run = 0; run < 5; run++) {
                Array devDst = Array.allocate(arena, onDevice(dstShape));
                Relayout.copy(hostSrc, devDst, run == 0 ? DeviceRoute.STAGED : DeviceRoute.MEASURE);
                assertSameBits(onHost, devDst, narrowing + " run " + run);
            }
            assertEquals(java.util.Optional.of(DeviceRoute.MAPPED),
                    Relayout.measuredDeviceRoute(hostSrc, Array.allocate(arena, onDevice(dstShape))));
        }
    }

    @Property(tries = 10)
    void aRelayoutIntoAStridedDeviceViewWritesOnlyTheView(@ForAll("cases") Case c) {
        if (c.dims.length != 2 || c.from != c.to) {
            return;
        }
        OpenCLMemory cl = RequiresOpenCL.provider();
        try (Arena arena = Arena.ofConfined()) {
            Array hostSrc = source(arena, c);
            Array devSrc = Array.allocate(arena, onDevice(hostSrc.shape()));
            hostSrc.copyTo(devSrc);
            ArrayShape wide = ArrayShape.of(c.to, c.dims[0], 2 * c.dims[1] + 1).withLayout(Layout.parse("{1,0:S(1)}"));
            Array devWide = Array.allocate(arena, wide);
            Array view = devWide.slice(1, 1, 2 * c.dims[1] + 1, 2);
            long kernels = cl.transfers().relayoutKernels();
            Relayout.copy(devSrc, view);
            assertEquals(kernels + 1, cl.transfers().relayoutKernels());
            try (MappedArray m = devWide.map(MapMode.READ)) {
                Array w = m.array();
                for (long i = 0; i < c.dims[0]; i++) {
                    assertEquals(0, w.getLong(i, 0), "column 0 is not in the view");
                    for (long j = 0; j < c.dims[1]; j++) {
                        assertEquals(hostSrc.getDouble(i, j), w.getDouble(i, 2 * j + 1), 0.0, c + " at " + i + "," + j);
                    }
                }
            }
        }
    }

    private static ArrayShape onDevice(ArrayShape s) {
        return s.withLayout(s.layout().withMemorySpace(1));
    }

    /** A host source whose every element has random bits. */
    private static Array source(Arena arena, Case c) {
        Array a = Array.allocate(arena, ArrayShape.of(c.from, c.dims).withLayout(c.src));
        Random r = new Random(c.seed);
        int bytes = c.from.byteWidth();
        long[] idx = new long[c.dims.length];
        do {
            long off = a.slot(idx) * bytes;
            for (int b = 0; b < bytes; b++) {
                a.segment().set(ValueLayout.JAVA_BYTE, off + b, (byte) r.nextInt());
            }
        } while (next(idx, c.dims));
        return a;
    }

    /** The destination the scalar reference makes: allocation's padding, then each element's slot bits, converted. */
    private static Array reference(Arena arena, Array src, Case c) {
        Array ref = Array.allocate(arena, ArrayShape.of(c.to, c.dims).withLayout(c.dst));
        copyBySlots(src, ref);
        return ref;
    }

    private static void copyBySlots(Array src, Array dst) {
        ElementType from = src.shape().elementType();
        ElementType to = dst.shape().elementType();
        int sb = from.byteWidth();
        int db = to.byteWidth();
        long[] dims = src.shape().dimensions();
        long[] idx = new long[dims.length];
        do {
            MemorySegment s = src.segment().asSlice(src.slot(idx) * sb, sb);
            MemorySegment d = dst.segment().asSlice(dst.slot(idx) * db, db);
            if (from == to) {
                d.copyFrom(s);
            } else {
                long raw = Short.toUnsignedLong(s.get(ValueLayout.JAVA_SHORT_UNALIGNED, 0));
                d.set(ValueLayout.JAVA_INT_UNALIGNED, 0, Float.floatToRawIntBits(ElementCodec.toFloat(from, raw)));
            }
        } while (next(idx, dims));
    }

    private static void assertSameBits(Array expected, Array device, Object c) {
        long n = expected.shape().bufferSize();
        try (MappedArray m = device.map(MapMode.READ)) {
            MemorySegment got = m.array().segment().asSlice(0, n);
            long at = expected.segment().asSlice(0, n).mismatch(got);
            assertEquals(-1, at, c + ": first differing byte " + at);
        }
    }

    private static boolean next(long[] idx, long[] dims) {
        for (int d = idx.length - 1; d >= 0; d--) {
            if (++idx[d] < dims[d]) {
                return true;
            }
            idx[d] = 0;
        }
        return false;
    }
}

package dev.tegula.io;

import dev.tegula.ffm.Array;
import dev.tegula.ffm.Runs;
import dev.tegula.ffm.internal.LongMath;
import dev.tegula.io.internal.F16OverflowCheck;
import dev.tegula.io.internal.NativeFiles;
import dev.tegula.vector.Relayout;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.ExecutorService;
import java.util.function.LongConsumer;

/**
 * One tensor relayouted from a source array (usually a read-only file mapping) into a destination
 * array over a read-write file mapping, window by window over the destination, so that the pages the
 * sweep holds stay near a budget whatever the tensor's size. No anonymous buffer is allocated: the
 * relayout engine writes straight into the mapping.
 *
 * <p>A window is a slice of the destination along its physically most major dimension (tile-row
 * aligned for tiled layouts), as large as half the budget allows, rounded so that a source span
 * starts on a page where the source's stride allows it; where one index of that dimension is
 * already over the budget, each index is swept on its own along the next dimension. The same slice
 * of the source is its source span. Before a window, a contiguous source span is announced to the kernel
 * (sequential, will-need) and a scattered one marked random (no read-ahead of pages the window does
 * not use) with each of its runs of half a page or more asked for ahead (will-need); after it, the source span and the window are dropped from the process ({@code madvise}
 * don't-need, given only where they are file mappings: never to anonymous memory, such as a byte-swapped copy), the window's writeback is started, and the window before it waited for, so that dirty
 * pages stay within about two windows. Where a view cannot be cut (a tiling that does not allow the
 * slice), the rest of the tensor is one window.
 *
 * <p>A window written as f16 from a wider type is checked for values that became infinite
 * ({@link F16OverflowCheck}) right after it is written, while its pages are still resident.
 *
 * <p>The source passes of a sweep are the source pages its source spans touch, summed over the windows,
 * divided by the source's pages: 1.0 when every page is read once.
 */
final class WindowedCopy {
    /** What a sweep did. */
    record Result(int windows, double sourcePasses) {
    }

    private final long budget;
    private final ExecutorService executor;
    private final int parallelism;
    private final NativeFiles.Descriptor out;
    private final long outFileOffset;
    private final MemorySegment dstBase;
    private final Runnable beforeWindow;
    private final LongConsumer progress;
    private final F16OverflowCheck f16;
    private int windows;
    private long pagesTouched;
    private MemorySegment previousWindow;

    /**
     * @param budget        bytes of mapped pages a window and its source span may hold together
     * @param out           the destination file (for writeback; may be an empty descriptor)
     * @param outFileOffset where the destination array's segment starts in that file
     * @param dstBase       the destination array's whole segment
     * @param beforeWindow  run before each window reads its source (it may throw to stop the sweep)
     * @param progress      told the destination bytes done after each window
     * @param f16           the check of an f16 destination's overflows, or null
     */
    WindowedCopy(long budget, ExecutorService executor, int parallelism, NativeFiles.Descriptor out, long outFileOffset,
               MemorySegment dstBase, Runnable beforeWindow, LongConsumer progress, F16OverflowCheck f16) {
        this.budget = Math.max(budget, 2 * NativeFiles.PAGE);
        this.executor = executor;
        this.parallelism = parallelism;
        this.out = out;
        this.outFileOffset = outFileOffset;
        this.dstBase = dstBase;
        this.beforeWindow = beforeWindow;
        this.progress = progress;
        this.f16 = f16;
    }

    /** Relayouts {@code src} into {@code dst} (same dimensions; types may differ). */
    Result run(Array src, Array dst) {
        long srcPages = Math.max(1, pages(src.segment().byteSize()));
        sweep(src, dst);
        finishWindow(null);
        return new Result(windows, (double) pagesTouched / srcPages);
    }

    private void sweep(Array src, Array dst) {
        long bytes = bytes(dst);
        if (bytes <= budget / 2) {
            window(src, dst);
            return;
        }
        int m = dst.shape().majorDimension();
        if (m < 0) {
            window(src, dst);
            return;
        }
        long extent = dst.shape().dimension(m);
        long unit = Math.max(1, bytes / extent);
        long align = dst.shape().tileExtent(m);
        if (align * unit > budget) {
            if (align > 1) {
                chunked(src, dst, m, extent, align);
            } else {
                for (long i = 0; i < extent; i++) {
                    Array s = slice(src, m, i, i + 1);
                    Array d = slice(dst, m, i, i + 1);
                    if (s == null || d == null) {
                        rest(src, dst, m, i, extent);
                        return;
                    }
                    sweep(s, d);
                }
            }
            return;
        }
        long chunk = Math.max(align, (budget / 2 / unit) / align * align);
        long first = chunk;
        long pageRun = pageAlignment(src, m);
        if (pageRun > 1) {
            long both = LongMath.lcm(align, pageRun);
            if (both * unit <= budget) {
                chunk = Math.max(both, chunk / both * both);
                first = chunk;
                if (align == 1) {
                    // the source may start inside a page (an .npy's data at byte 128): cut the first
                    // window short so that every later source span starts on a page
                    long lead = pageLead(src, m, pageRun);
                    first = lead > 0 ? lead : chunk;
                }
            }
        }
        chunked(src, dst, m, extent, chunk, first);
    }

    /** {@return the indices of dimension {@code dim} before the first one whose source bytes start a page, or 0} */
    private static long pageLead(Array src, int dim, long pageRun) {
        long w = src.shape().slotBits() / 8;
        long stride = Math.abs(src.slotStrides()[dim]) * w;
        long misalign = Math.floorMod(src.segment().address() + src.slotOffset() * w, NativeFiles.PAGE);
        if (misalign % stride != 0) {
            return 0;
        }
        return Math.floorMod(pageRun - misalign / stride, pageRun);
    }

    private void chunked(Array src, Array dst, int m, long extent, long chunk) {
        chunked(src, dst, m, extent, chunk, chunk);
    }

    private void chunked(Array src, Array dst, int m, long extent, long chunk, long first) {
        for (long lo = 0; lo < extent; lo = lo == 0 ? Math.min(extent, first) : lo + chunk) {
            long hi = Math.min(extent, lo == 0 ? first : lo + chunk);
            Array s = slice(src, m, lo, hi);
            Array d = slice(dst, m, lo, hi);
            if (s == null || d == null) {
                rest(src, dst, m, lo, extent);
                return;
            }
            window(s, d);
        }
    }

    /** The rest of a dimension from {@code lo} as one window, where it cannot be cut finer. */
    private void rest(Array src, Array dst, int m, long lo, long extent) {
        Array s = lo == 0 ? src : slice(src, m, lo, extent);
        Array d = lo == 0 ? dst : slice(dst, m, lo, extent);
        if (s == null || d == null) {
            throw new IllegalStateException("cannot cut " + src.shape() + " -> " + dst.shape() + " at " + lo
                    + " of dimension " + m);
        }
        window(s, d);
    }

    private void window(Array src, Array dst) {
        beforeWindow.run();
        MemorySegment span = src.byteSpan();
        boolean contiguous = span.byteSize() <= 2 * Math.max(bytes(src), NativeFiles.PAGE);
        if (contiguous) {
            NativeFiles.advise(span, NativeFiles.SEQUENTIAL);
            NativeFiles.advise(span, NativeFiles.WILL_NEED);
            pagesTouched += pagesTouched(src, span, false);
        } else {
            // a scattered source span: no read-around of pages the window does not use, but each run asked for ahead
            NativeFiles.advise(span, NativeFiles.RANDOM);
            pagesTouched += pagesTouched(src, span, true);
        }
        if (src.shape().elementCount() > 0) {
            Relayout.plan(src, dst).execute(src, dst, executor, parallelism);
        }
        MemorySegment written = dst.byteSpan();
        if (f16 != null) {
            f16.check(written.address() - dstBase.address(), written.byteSize());
        }
        NativeFiles.advise(span, NativeFiles.DONT_NEED);
        windows++;
        finishWindow(written);
        progress.accept(written.byteSize());
    }

    /** Starts writeback of {@code window} (null: the end), waits for the window before it and drops it. */
    private void finishWindow(MemorySegment window) {
        if (window != null) {
            NativeFiles.startWriteback(out, fileOffset(window), window.byteSize());
        }
        MemorySegment prev = previousWindow;
        if (prev != null) {
            NativeFiles.waitWriteback(out, fileOffset(prev), prev.byteSize());
            NativeFiles.advise(prev, NativeFiles.DONT_NEED);
            NativeFiles.dropCache(out, fileOffset(prev), prev.byteSize());
        }
        previousWindow = window;
    }

    private long fileOffset(MemorySegment window) {
        return outFileOffset + (window.address() - dstBase.address());
    }

    /** {@return the view, or null where the layout does not allow this slice} */
    private static Array slice(Array a, int dim, long lo, long hi) {
        try {
            return a.slice(dim, lo, hi);
        } catch (IllegalArgumentException | UnsupportedOperationException e) {
            return null;
        }
    }

    /** {@return indices of dimension {@code dim} that make a whole number of pages of the source, or 1} */
    private static long pageAlignment(Array src, int dim) {
        long[] strides = src.slotStrides();
        long bits = src.shape().slotBits();
        if (strides == null || bits % 8 != 0) {
            return 1;
        }
        long stride = Math.abs(strides[dim]) * (bits / 8);
        if (stride == 0 || stride >= NativeFiles.PAGE || NativeFiles.PAGE % stride != 0) {
            return 1;
        }
        return NativeFiles.PAGE / stride;
    }

    /** {@return the bytes of the elements of {@code a} (its buffer for a tiled array)} */
    private static long bytes(Array a) {
        if (a.slotStrides() == null) {
            return a.shape().bufferSize();
        }
        return (a.shape().elementCount() * a.shape().slotBits() + 7) / 8;
    }

    private static long pages(long bytes) {
        return (bytes + NativeFiles.PAGE - 1) / NativeFiles.PAGE;
    }

    /** The most runs counted one by one; past it a source span counts as its whole span. */
    private static final long RUN_LIMIT = 1 << 22;

    /** {@return the source pages a source span touches: counted run by run for strided views, else its span} */
    private static long pagesTouched(Array src, MemorySegment span, boolean willNeed) {
        long[] strides = src.slotStrides();
        long bits = src.shape().slotBits();
        long spanPages = pagesOf(span.address(), span.byteSize());
        if (strides == null || bits % 8 != 0 || src.shape().elementCount() == 0) {
            return spanPages;
        }
        Runs runs = Runs.of(src);   // the view's runs of consecutive bytes, in memory order
        if (!runs.next() || src.shape().elementCount() / runs.length() > RUN_LIMIT) {
            return spanPages;
        }
        long w = bits / 8;
        long base = src.segment().address();
        long total = 0;
        long lastPage = Long.MIN_VALUE;
        do {
            long runBytes = runs.length() * w;
            long start = base + runs.offset(0);
            long first = Math.floorDiv(start, NativeFiles.PAGE);
            long last = Math.floorDiv(start + runBytes - 1, NativeFiles.PAGE);
            total += last - first + 1 - (first == lastPage ? 1 : 0);
            lastPage = last;
            if (willNeed && runBytes >= NativeFiles.PAGE / 2) {
                NativeFiles.advise(src.segment().asSlice(runs.offset(0), runBytes), NativeFiles.WILL_NEED);
            }
        } while (runs.next());
        return Math.min(total, spanPages);
    }

    private static long pagesOf(long address, long size) {
        if (size == 0) {
            return 0;
        }
        return Math.floorDiv(address + size - 1, NativeFiles.PAGE) - Math.floorDiv(address, NativeFiles.PAGE) + 1;
    }
}

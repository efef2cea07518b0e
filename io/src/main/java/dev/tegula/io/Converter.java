package dev.tegula.io;

import dev.tegula.io.internal.MappedFiles;
import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.core.Layout;
import dev.tegula.ffm.Array;
import dev.tegula.io.internal.AtomicFile;
import dev.tegula.io.internal.NativeFiles;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SequencedMap;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.ForkJoinPool;

/** The work of {@link TensorFiles#convert}: plan the output, check it fits, write it through mappings, commit. */
final class Converter {
    /** Extensions of formats convert does not write: refused rather than written as a raw buffer. */
    static final Set<String> REFUSED = Set.of("gguf", "npz", "pt", "pth", "ckpt", "h5", "hdf5", "onnx", "pb", "tflite",
            "pkl", "pickle", "json", "txt", "csv", "png", "svg", "zip", "tar", "gz", "msgpack");

    /** One tensor of the output: where its bytes go and in which shape they lie. */
    private record Planned(String name, TensorSource.Named source, ArrayShape to, String dtype, long[] fileDims, long offset,
                           long bytes) {
    }

    private Converter() {
    }

    /** {@return the output format for {@code target}: npy, npy-dir, safetensors or raw} */
    static String outputFormat(Path target) {
        if (Files.isDirectory(target) || target.toString().endsWith("/")) {
            return "npy-dir";
        }
        String ext = TensorSource.extension(target);
        return switch (ext) {
            case "npy" -> "npy";
            case "safetensors" -> "safetensors";
            default -> {
                if (REFUSED.contains(ext)) {
                    throw new IllegalArgumentException("target: convert does not write ." + ext + " files (" + target
                            + "); it writes .npy, .safetensors, a directory of .npy files, or a raw buffer (any other"
                            + " name, e.g. .bin)");
                }
                yield "raw";
            }
        };
    }

    static ConvertReport convert(Path source, Path target, ConvertRules rules, ConvertOptions options)
            throws IOException {
        String format = outputFormat(target);
        try (Arena mapping = Arena.ofShared()) {
            TensorSource in = TensorSource.open(source, options.rawShape(), mapping);
            List<TensorSource.Named> chosen = in.tensors().stream().filter(t -> rules.selects(t.name())).toList();
            if (chosen.isEmpty()) {
                throw new TensorFormatException(source + (rules.selected() == null ? ": has no tensor"
                        : ": no tensor '" + rules.selected() + "' (it has "
                        + in.tensors().stream().map(TensorSource.Named::name).toList() + ")"));
            }
            if ((format.equals("npy") || format.equals("raw")) && chosen.size() != 1) {
                throw new IllegalArgumentException("target: " + target + " (" + format + ") holds one tensor and "
                        + source + " has " + chosen.size() + ": choose one, or write .safetensors or a directory");
            }
            Map<String, String> metadata = new LinkedHashMap<>(in.metadata());
            List<Planned> plan = new ArrayList<>();
            long offset = 0;
            for (TensorSource.Named t : chosen) {
                Planned p = plan(format, t, rules, offset, metadata);
                plan.add(p);
                offset = Math.addExact(offset, p.bytes);
            }
            byte[] header = format.equals("safetensors") ? safetensorsHeader(plan, metadata) : new byte[0];
            if (format.equals("npy-dir")) {
                checkSpace(target, offset + 4096L * plan.size());
                return writeDirectory(target, plan, options);
            }
            if (format.equals("npy")) {
                Planned p = plan.getFirst();
                header = Npy.header(p.to);
            }
            long total = Math.addExact(header.length, offset);
            checkSpace(target, total);
            Progress progress = new Progress(options.progress(), offset);
            List<ConvertReport.Tensor> done = new ArrayList<>();
            try (AtomicFile out = AtomicFile.create(target);
                 NativeFiles.Descriptor fd = NativeFiles.open(out.temporary(), true)) {
                MappedFiles.writeFully(out.channel(), header);
                NativeFiles.reserve(fd, 0, total, target.toString());
                done.addAll(writeAll(out.channel(), fd, header.length, plan, options, progress));
                out.commit();
            }
            return new ConvertReport(target, format, done, offset);
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("target: the output would be larger than " + Long.MAX_VALUE + " bytes", e);
        }
    }

    private static ConvertReport writeDirectory(Path dir, List<Planned> plan, ConvertOptions options) throws IOException {
        Files.createDirectories(dir);
        List<AtomicFile> files = new ArrayList<>();
        List<ConvertReport.Tensor> done = new ArrayList<>();
        long total = plan.stream().mapToLong(Planned::bytes).sum();
        Progress progress = new Progress(options.progress(), total);
        try {
            for (Planned p : plan) {
                AtomicFile out = AtomicFile.create(dir.resolve(p.name + ".npy"));
                files.add(out);
                byte[] header = Npy.header(p.to);
                MappedFiles.writeFully(out.channel(), header);
                try (NativeFiles.Descriptor fd = NativeFiles.open(out.temporary(), true)) {
                    NativeFiles.reserve(fd, 0, header.length + p.bytes, out.temporary().toString());
                    done.add(write(out.channel(), fd, header.length, p, options, progress));
                }
            }
            for (AtomicFile f : files) {
                f.commit();
            }
        } finally {
            for (AtomicFile f : files) {
                f.close();
            }
        }
        return new ConvertReport(dir, "npy-dir", done, total);
    }

    /**
     * Writes the tensors of one file: large ones one after another (each band shared between
     * threads), those under {@link #SMALL_TENSOR} bytes several at once on the common pool when
     * parallelism allows; the report keeps the plan's order.
     */
    private static List<ConvertReport.Tensor> writeAll(FileChannel ch, NativeFiles.Descriptor fd, long dataStart,
                                                       List<Planned> plan, ConvertOptions options, Progress progress)
            throws IOException {
        ConvertReport.Tensor[] done = new ConvertReport.Tensor[plan.size()];
        Throwable[] failures = new Throwable[plan.size()];
        List<Future<?>> small = new ArrayList<>();
        boolean parallel = options.parallelism() > 1 && plan.size() > 1;
        try {
            for (int i = 0; i < plan.size(); i++) {
                Planned p = plan.get(i);
                int k = i;
                if (parallel && p.bytes < SMALL_TENSOR) {
                    ConvertOptions one = options.withParallelism(1);
                    small.add(ForkJoinPool.commonPool().submit(() -> {
                        try {
                            done[k] = write(ch, fd, dataStart + p.offset, p, one, progress);
                        } catch (IOException | RuntimeException | Error e) {
                            failures[k] = e;   // the original, not the pool's copy of it
                        }
                    }));
                } else {
                    done[k] = write(ch, fd, dataStart + p.offset, p, options, progress);
                }
            }
            for (Future<?> f : small) {
                f.get();
            }
            for (Throwable t : failures) {
                if (t instanceof IOException io) {
                    throw io;
                }
                if (t instanceof RuntimeException r) {
                    throw r;
                }
                if (t instanceof Error err) {
                    throw err;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("interrupted while converting");
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            if (c instanceof IOException io) {
                throw io;
            }
            if (c instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException(c);
        } finally {
            for (Future<?> f : small) {
                f.cancel(false);
                try {
                    f.get();
                } catch (Exception ignored) {
                    // waited for: no task may still write the file when it is closed or deleted
                }
            }
        }
        return List.of(done);
    }

    /** Tensors under this many bytes are written several at once (larger ones share each band instead). */
    static final long SMALL_TENSOR = 2L << 20;

    /** Writes one tensor into its region of the file through a read-write mapping, band by band. */
    private static ConvertReport.Tensor write(FileChannel ch, NativeFiles.Descriptor fd, long at, Planned p,
                                              ConvertOptions options, Progress progress) throws IOException {
        if (p.bytes == 0) {
            return new ConvertReport.Tensor(p.name, p.source.shape(), p.to, 0, 0);
        }
        if (p.source.quantized() != null) {
            return dequantize(ch, at, p, options, progress);
        }
        ExecutorService pool = options.parallelism() > 1 ? ForkJoinPool.commonPool() : null;
        long[] reported = {0};
        try (Arena arena = Arena.ofShared()) {
            MemorySegment region = ch.map(FileChannel.MapMode.READ_WRITE, at, p.bytes, arena);
            Array dst = Array.wrap(region, p.to);
            BandedCopy copy = new BandedCopy(options.memoryBytes(), pool, options.parallelism(), fd, at, region,
                    bytes -> {
                        long n = Math.min(bytes, p.bytes - reported[0]);
                        reported[0] += n;
                        progress.add(p.name, n);
                    });
            BandedCopy.Result r = copy.run(p.source.array(), dst);
            progress.add(p.name, p.bytes - reported[0]);
            return new ConvertReport.Tensor(p.name, p.source.shape(), p.to, r.bands(), r.sourcePasses());
        } catch (InternalError e) {
            throw new IOException("writing tensor '" + p.name + "' failed (is the disk full?): " + e.getMessage(), e);
        }
    }

    /**
     * Writes a block-quantized GGUF tensor: dequantized straight into a read-write mapping of its
     * region in one pass over the blocks (the dequantizer's scratch is a few rows; no band is needed).
     */
    private static ConvertReport.Tensor dequantize(FileChannel ch, long at, Planned p, ConvertOptions options,
                                                   Progress progress) throws IOException {
        ExecutorService pool = options.parallelism() > 1 ? ForkJoinPool.commonPool() : null;
        try (Arena arena = Arena.ofShared()) {
            MemorySegment region = ch.map(FileChannel.MapMode.READ_WRITE, at, p.bytes, arena);
            p.source.quantized().readInto(Array.wrap(region, p.to), pool, options.parallelism());
            progress.add(p.name, p.bytes);
            return new ConvertReport.Tensor(p.name, p.source.shape(), p.to, 1, 1);
        } catch (InternalError e) {
            throw new IOException("writing tensor '" + p.name + "' failed (is the disk full?): " + e.getMessage(), e);
        }
    }

    private static Planned plan(String format, TensorSource.Named t, ConvertRules rules, long offset,
                                Map<String, String> metadata) {
        if (t.quantized() != null && t.quantized().type().quantBlock() == null) {
            throw new IllegalArgumentException("tensor '" + t.name() + "' is GGUF " + t.quantized().type()
                    + ", which Tegula does not dequantize");
        }
        ArrayShape from = t.shape();
        ArrayShape to = rules.target(t.name(), from);
        long[] dims = to.dimensions();
        String dtype = null;
        long[] fileDims = dims;
        switch (format) {
            case "npy", "npy-dir" -> {
                checkNpy(t.name(), to);
                if (format.equals("npy-dir")) {
                    checkFileName(t.name());
                }
            }
            case "safetensors" -> {
                SafeTensorsDtype d = SafeTensorsDtype.of(to.elementType());
                if (to.equals(ArrayShape.of(to.elementType(), dims)) && d.wrapsDirectly()) {
                    to = d.fileShape(dims);
                }
                if (d.wrapsDirectly() && to.equals(d.fileShape(dims))) {
                    dtype = d.name();
                    metadata.remove(TensorSource.SHAPE_KEY + t.name());
                } else if (!d.wrapsDirectly()) {
                    throw new IllegalArgumentException("tensor '" + t.name() + "': convert does not write packed "
                            + d.name() + " tensors yet; choose another --type");
                } else {
                    dtype = SafeTensorsDtype.U8.name();
                    fileDims = new long[] {to.bufferSize()};
                    metadata.put(TensorSource.SHAPE_KEY + t.name(), to.toString());
                }
            }
            default -> {
            }
        }
        return new Planned(t.name(), t, to, dtype, fileDims, offset, to.bufferSize());
    }

    private static void checkNpy(String name, ArrayShape to) {
        try {
            Npy.header(to);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("tensor '" + name + "': " + e.getMessage()
                    + "; write a raw buffer or .safetensors instead", e);
        }
    }

    private static void checkFileName(String name) {
        if (name.isEmpty() || name.equals(".") || name.equals("..") || name.indexOf('/') >= 0 || name.indexOf('\\') >= 0
                || name.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("tensor '" + name + "' cannot be a file name in a directory of .npy files");
        }
    }

    /** Refuses an output larger than the free space of the target's file system, naming its size. */
    private static void checkSpace(Path target, long bytes) throws IOException {
        Path dir = target.toAbsolutePath().getParent();
        if (Files.isDirectory(target)) {
            dir = target.toAbsolutePath();
        }
        if (dir == null || !Files.isDirectory(dir)) {
            return;   // AtomicFile.create names the missing directory
        }
        long free = Files.getFileStore(dir).getUsableSpace();
        if (bytes > free) {
            throw new IOException(target + ": the output needs " + bytes + " bytes (" + human(bytes) + "), but "
                    + dir + " has " + free + " bytes (" + human(free) + ") free");
        }
    }

    static String human(long bytes) {
        String[] units = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
        double v = bytes;
        int u = 0;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return u == 0 ? bytes + " B" : String.format(java.util.Locale.ROOT, "%.1f %s", v, units[u]);
    }

    /** The safetensors header of the planned tensors: each as its dtype and file dimensions say. */
    private static byte[] safetensorsHeader(List<Planned> plan, Map<String, String> metadata) {
        SequencedMap<String, ArrayShape> stored = new LinkedHashMap<>();
        for (Planned p : plan) {
            stored.put(p.name, p.dtype.equals(SafeTensorsDtype.U8.name()) ? ArrayShape.of(ElementType.U8, p.fileDims) : p.to);
        }
        return SafeTensorsHeader.of(stored, metadata).toBytes();
    }

    /** Sums band bytes into the caller's listener, one call at a time whatever thread writes. */
    private static final class Progress {
        private final ConvertProgress listener;
        private final long total;
        private long done;

        Progress(ConvertProgress listener, long total) {
            this.listener = listener;
            this.total = total;
        }

        synchronized void add(String tensor, long bytes) {
            done += bytes;
            listener.update(tensor, Math.min(done, total), total);
        }
    }
}

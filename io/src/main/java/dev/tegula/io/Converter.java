package dev.tegula.io;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.ffm.Array;
import dev.tegula.io.internal.AtomicDirectory;
import dev.tegula.io.internal.ByteCounts;
import dev.tegula.io.internal.AtomicFile;
import dev.tegula.io.internal.F16OverflowCheck;
import dev.tegula.io.internal.HeaderText;
import dev.tegula.io.internal.MappedFiles;
import dev.tegula.io.gguf.GgufTensor;
import dev.tegula.io.internal.NativeFiles;
import dev.tegula.io.internal.Temporaries;
import dev.tegula.vector.quant.Dequantize;
import dev.tegula.vector.quant.QuantBlock;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.Future;
import java.util.function.UnaryOperator;

/**
 * The work of {@link TensorFiles#convert}: open the input, choose its tensors and their shapes by
 * the rules, let the output's {@link TensorFormat} lay them out, check it fits, write it through
 * mappings (several files at once where threads and memory allow), commit.
 */
final class Converter {
    private Converter() {
    }

    static ConvertReport convert(Path source, Path target, ConvertRules rules, ConvertOptions options)
            throws IOException {
        TensorFormat from = TensorFormat.ofSource(source, options.rawShape());
        TensorFormat format = TensorFormat.ofTarget(target, from);
        InputSizes inputs = InputSizes.of(source);
        try {
            return convert(source, target, rules, options, from, format, inputs);
        } catch (IOException | RuntimeException | Error e) {
            if (inputs.explain(e, target) instanceof IOException io) {
                throw io;
            }
            throw e;
        }
    }

    private static ConvertReport convert(Path source, Path target, ConvertRules rules, ConvertOptions options,
                                         TensorFormat from, TensorFormat format, InputSizes inputs) throws IOException {
        try (Arena mapping = Arena.ofShared()) {
            TensorSource in = from.open(source, options.rawShape(), mapping);
            List<TensorSource.Named> chosen = chosen(source, in, rules);
            if (format.holdsOneTensor() && chosen.size() != 1) {
                throw new IllegalArgumentException("target: " + target + " (" + format + ") holds one tensor and "
                        + source + " has " + chosen.size() + " "
                        + HeaderText.some(chosen.stream().map(TensorSource.Named::name).toList())
                        + ": choose one, or write .safetensors or a directory");
            }
            List<OutputFile.Planned> planned = new ArrayList<>();
            List<ConvertReport.Skipped> skipped = new ArrayList<>();
            for (TensorSource.Named t : chosen) {
                try {
                    planned.add(new OutputFile.Planned(t, format.stored(t.name(), target(t, rules))));
                } catch (IllegalArgumentException e) {
                    if (!options.skipUnsupported()) {
                        throw e;
                    }
                    skipped.add(new ConvertReport.Skipped(t.name(), e.getMessage()));
                }
            }
            if (planned.isEmpty()) {
                throw new IllegalArgumentException(source + ": no tensor can be written as the rules ask, so none"
                        + " is: " + skipped.getFirst().reason());
            }
            List<String> unused = rules.unused(in.tensors(), chosen);
            List<ConvertReport.StaleTemporary> stale = new ArrayList<>();
            if (format == TensorFormat.SAFETENSORS_CHECKPOINT) {
                try (AtomicDirectory dir = AtomicDirectory.create(target)) {
                    stale(dir.staleRemoved(), stale);
                    try {
                        List<OutputFile> files = format.plan(dir.temporary(), planned, in);
                        long copies = 0;
                        for (Path p : in.checkpoint().otherFiles()) {
                            copies = Math.addExact(copies, Files.size(p));
                        }
                        checkSpace(target, Math.addExact(total(files), copies));
                        List<ConvertReport.Tensor> written = write(files, dir::committedPath, options,
                                progress(files, options, inputs), stale);
                        List<Path> copied = new ArrayList<>();
                        String dtype = ConfigDtype.after(planned);
                        for (Path p : in.checkpoint().otherFiles()) {
                            String name = p.getFileName().toString();
                            byte[] config = dtype != null && name.equals(ConfigDtype.CONFIG)
                                    ? ConfigDtype.restated(p, dtype) : null;
                            copied.add(config == null ? dir.copy(p) : dir.write(name, config));
                        }
                        dir.commit();
                        return new ConvertReport(target, format, written, data(files), skipped, unused, copied, stale);
                    } catch (IOException e) {
                        throw dir.named(e);
                    }
                }
            }
            List<OutputFile> files = format.plan(target, planned, in);
            checkSpace(target, total(files));
            for (OutputFile f : files) {
                if (!f.path().equals(target)) {
                    Files.createDirectories(f.path().getParent());   // a format that writes files under the target
                }
            }
            List<ConvertReport.Tensor> written = write(files, p -> p, options, progress(files, options, inputs), stale);
            return new ConvertReport(target, format, written, data(files), skipped, unused, List.of(), stale);
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("target: the output would be larger than " + Long.MAX_VALUE + " bytes", e);
        }
    }

    /**
     * {@return the tensors of {@code in} that the rules select, in file order}
     *
     * @throws TensorFormatException if there is none, saying why
     */
    static List<TensorSource.Named> chosen(Path source, TensorSource in, ConvertRules rules) throws TensorFormatException {
        List<TensorSource.Named> chosen = in.tensors().stream().filter(t -> rules.selects(t.name(), t.shape())).toList();
        if (chosen.isEmpty()) {
            throw new TensorFormatException(source + (in.tensors().isEmpty() ? ": has no tensor"
                    : rules.selected() == null ? ": the rules exclude every tensor"
                    : ": no tensor '" + rules.selected() + "'" + (in.tensors().stream()
                    .anyMatch(t -> t.name().equals(rules.selected())) ? " that the rules do not exclude" : "")
                    + " (it has " + HeaderText.some(in.tensors().stream().map(TensorSource.Named::name).toList())
                    + ")"));
        }
        return chosen;
    }

    /** {@return the shape the rules give tensor {@code t}} @throws IllegalArgumentException if it cannot be read or the rules do not fit it */
    static ArrayShape target(TensorSource.Named t, ConvertRules rules) {
        if (t.quantized() != null && t.quantized().type().quantBlock() == null) {
            throw new UnsupportedTensorException(t.name(), "tensor '" + t.name() + "' is GGUF " + t.quantized().type()
                    + ", which Tegula does not dequantize");
        }
        return rules.target(t.name(), t.shape());
    }

    private static long data(List<OutputFile> files) {
        long n = 0;
        for (OutputFile f : files) {
            n = Math.addExact(n, f.dataBytes());
        }
        return n;
    }

    private static long total(List<OutputFile> files) {
        long n = 0;
        for (OutputFile f : files) {
            n = Math.addExact(n, Math.addExact(f.header().length, f.dataBytes()));
        }
        return n;
    }

    private static Progress progress(List<OutputFile> files, ConvertOptions options, InputSizes inputs) {
        return new Progress(options.progress(), data(files), inputs);
    }

    /** Bytes of the memory budget one file written beside others needs at least. */
    static final long FILE_MEMORY = 64L << 20;

    /**
     * Writes each file to a temporary next to it (reserved on disk first, its header, then its
     * tensors) and renames them all over their targets once every one is complete; on any failure
     * the temporaries are deleted and the targets left as they were. Several files (a checkpoint's
     * shards) are written at once where the threads and the memory budget allow, sharing both.
     */
    private static List<ConvertReport.Tensor> write(List<OutputFile> files, UnaryOperator<Path> shown,
                                                    ConvertOptions options, Progress progress,
                                                    List<ConvertReport.StaleTemporary> stale)
            throws IOException {
        long withData = files.stream().filter(f -> f.dataBytes() > 0).count();
        int atOnce = (int) Math.max(1, Math.min(Math.min(withData, options.parallelism()),
                options.memoryBytes() / FILE_MEMORY));
        ConvertOptions each = atOnce == 1 ? options : options.withMemory(options.memoryBytes() / atOnce)
                .withParallelism(Math.max(1, options.parallelism() / atOnce));
        AtomicFile[] out = new AtomicFile[files.size()];
        List<List<ConvertReport.Tensor>> done = new ArrayList<>(Collections.nCopies(files.size(), List.of()));
        try {
            if (atOnce == 1) {
                for (int i = 0; i < files.size(); i++) {
                    done.set(i, writeFile(files.get(i), shown, out, i, each, progress));
                }
            } else {
                writeAtOnce(files, shown, atOnce, out, done, each, progress);
            }
            for (AtomicFile f : out) {
                f.commit();
            }
        } finally {
            for (AtomicFile f : out) {
                if (f != null) {
                    stale(f.staleRemoved(), stale);
                }
            }
            for (AtomicFile f : out) {
                if (f != null) {
                    f.close();
                }
            }
        }
        return done.stream().flatMap(List::stream).toList();
    }

    /**
     * Writes one file to its temporary, which it puts in {@code out[i]} (closed or committed by the
     * caller); errors name the file as {@code shown} gives it (where it will be), never a temporary.
     */
    private static List<ConvertReport.Tensor> writeFile(OutputFile f, UnaryOperator<Path> shown, AtomicFile[] out,
                                                        int i, ConvertOptions options, Progress progress)
            throws IOException {
        Path name = shown.apply(f.path());
        AtomicFile file = AtomicFile.create(f.path(), name);
        out[i] = file;
        try (NativeFiles.Descriptor fd = NativeFiles.open(file.temporary(), true)) {
            MappedFiles.writeFully(file.channel(), f.header());
            NativeFiles.reserve(fd, 0, f.header().length + f.dataBytes(), name.toString());
            return writeAll(file.channel(), fd, f.header().length, f.tensors(), options, progress);
        } catch (IOException e) {
            throw file.named(e);
        }
    }

    /** Adds what an {@link AtomicFile} or {@link AtomicDirectory} removed to the report's list. */
    private static void stale(List<Temporaries.Stale> removed, List<ConvertReport.StaleTemporary> to) {
        for (Temporaries.Stale s : removed) {
            to.add(new ConvertReport.StaleTemporary(s.path(), s.bytes()));
        }
    }

    /**
     * Writes the files on {@code atOnce} threads of their own; the first failure stops the others
     * at their next window and is thrown once every thread has returned.
     */
    private static void writeAtOnce(List<OutputFile> files, UnaryOperator<Path> shown, int atOnce, AtomicFile[] out,
                                    List<List<ConvertReport.Tensor>> done, ConvertOptions each, Progress progress)
            throws IOException {
        Throwable failure = null;
        try (ExecutorService pool = Executors.newFixedThreadPool(atOnce, r -> {
            Thread t = new Thread(r, "tegula-convert-file");
            t.setDaemon(true);
            return t;
        })) {
            CompletionService<Integer> cs = new ExecutorCompletionService<>(pool);
            List<List<ConvertReport.Tensor>> results = Collections.synchronizedList(done);
            for (int i = 0; i < files.size(); i++) {
                int k = i;
                cs.submit(() -> {
                    results.set(k, writeFile(files.get(k), shown, out, k, each, progress));
                    return k;
                });
            }
            for (int i = 0; i < files.size(); i++) {
                try {
                    cs.take().get();
                } catch (ExecutionException e) {
                    if (failure == null) {
                        failure = e.getCause();
                        progress.stop();
                    } else if (!(e.getCause() instanceof CancellationException)) {
                        failure.addSuppressed(e.getCause());
                    }
                } catch (InterruptedException e) {
                    progress.stop();
                    Thread.currentThread().interrupt();
                    failure = new java.io.InterruptedIOException("interrupted while converting");
                    break;
                }
            }
        }
        switch (failure) {
            case null -> { }
            case IOException io -> throw io;
            case RuntimeException r -> throw r;
            case Error err -> throw err;
            default -> throw new IllegalStateException(failure);
        }
    }

    /**
     * Writes the tensors of one file: large ones one after another (each window shared between
     * threads), those under {@link #SMALL_TENSOR} bytes several at once on the common pool when
     * parallelism allows; the report keeps the plan's order.
     */
    private static List<ConvertReport.Tensor> writeAll(FileChannel ch, NativeFiles.Descriptor fd, long dataStart,
                                                       List<OutputFile.Region> plan, ConvertOptions options,
                                                       Progress progress)
            throws IOException {
        ConvertReport.Tensor[] done = new ConvertReport.Tensor[plan.size()];
        Throwable[] failures = new Throwable[plan.size()];
        List<Future<?>> small = new ArrayList<>();
        boolean parallel = options.parallelism() > 1 && plan.size() > 1;
        try {
            for (int i = 0; i < plan.size(); i++) {
                OutputFile.Region p = plan.get(i);
                int k = i;
                if (parallel && p.bytes() > 0 && p.bytes() < SMALL_TENSOR) {
                    ConvertOptions one = options.withParallelism(1);
                    small.add(ForkJoinPool.commonPool().submit(() -> {
                        try {
                            done[k] = write(ch, fd, dataStart + p.offset(), p, one, progress);
                        } catch (IOException | RuntimeException | Error e) {
                            failures[k] = e;   // the original, not the pool's copy of it
                        }
                    }));
                } else {
                    done[k] = write(ch, fd, dataStart + p.offset(), p, options, progress);
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

    /** Tensors under this many bytes are written several at once (larger ones share each window instead). */
    static final long SMALL_TENSOR = 2L << 20;

    /** Writes one tensor into its region of the file through a read-write mapping, window by window. */
    private static ConvertReport.Tensor write(FileChannel ch, NativeFiles.Descriptor fd, long at, OutputFile.Region p,
                                              ConvertOptions options, Progress progress) throws IOException {
        if (p.bytes() == 0) {
            return new ConvertReport.Tensor(p.name(), p.source().shape(), p.to(), 0, 0);
        }
        if (p.source().quantized() != null) {
            return dequantize(ch, at, p, options, progress);
        }
        ExecutorService pool = options.parallelism() > 1 ? ForkJoinPool.commonPool() : null;
        long[] reported = {0};
        try (Arena arena = Arena.ofShared()) {
            MemorySegment region = ch.map(FileChannel.MapMode.READ_WRITE, at, p.bytes(), arena);
            Array dst = Array.wrap(region, p.to());
            Array src = p.source().array();
            F16OverflowCheck f16 = F16OverflowCheck.of(p.name(), src.shape().elementType(), dst, src::getDouble,
                    options.f16Overflow());
            WindowedCopy copy = new WindowedCopy(options.memoryBytes(), pool, options.parallelism(), fd, at, region,
                    progress::checkInputs,
                    bytes -> {
                        long n = Math.min(bytes, p.bytes() - reported[0]);
                        reported[0] += n;
                        progress.add(p.name(), n);
                    }, f16);
            WindowedCopy.Result r = copy.run(src, dst);
            progress.add(p.name(), p.bytes() - reported[0]);
            return new ConvertReport.Tensor(p.name(), p.source().shape(), p.to(), r.windows(), r.sourcePasses());
        } catch (InternalError e) {
            throw new MappingFault(p.name(), e);
        }
    }

    /**
     * Writes a block-quantized GGUF tensor: dequantized straight into a read-write mapping of its
     * region in one pass over the blocks (the dequantizer's scratch is a few rows; no window is needed).
     */
    private static ConvertReport.Tensor dequantize(FileChannel ch, long at, OutputFile.Region p, ConvertOptions options,
                                                   Progress progress) throws IOException {
        ExecutorService pool = options.parallelism() > 1 ? ForkJoinPool.commonPool() : null;
        try (Arena arena = Arena.ofShared()) {
            MemorySegment region = ch.map(FileChannel.MapMode.READ_WRITE, at, p.bytes(), arena);
            Array dst = Array.wrap(region, p.to());
            p.source().quantized().readInto(dst, pool, options.parallelism());
            F16OverflowCheck f16 = F16OverflowCheck.of(p.name(), ElementType.F32, dst,
                    index -> dequantized(p.source().quantized(), index), options.f16Overflow());
            if (f16 != null) {
                f16.checkAll();
            }
            progress.add(p.name(), p.bytes());
            return new ConvertReport.Tensor(p.name(), p.source().shape(), p.to(), 1, 1);
        } catch (InternalError e) {
            throw new MappingFault(p.name(), e);
        }
    }

    /** {@return the f32 value of the element at {@code index} of a block-quantized tensor (its block dequantized alone)} */
    private static double dequantized(GgufTensor t, long[] index) {
        long[] dims = t.dimensions();
        long e = 0;
        for (int d = 0; d < dims.length; d++) {
            e = e * dims[d] + index[d];
        }
        QuantBlock q = t.type().quantBlock();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment block = arena.allocate(4L * q.blockSize());
            Dequantize.toFloats(q, t.data(), e / q.blockSize() * q.blockBytes(), block, 0, 1);
            return block.getAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, e % q.blockSize());
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
            throw new IOException(target + ": the output needs " + bytes + " bytes (" + ByteCounts.rounded(bytes) + "), but "
                    + dir + " has " + free + " bytes (" + ByteCounts.rounded(free) + ") free");
        }
    }

    /** Sums window bytes into the caller's listener, one call at a time whatever thread writes. */
    private static final class Progress {
        private final ConvertProgress listener;
        private final long total;
        private final InputSizes inputs;
        private long done;
        private volatile boolean stopped;

        Progress(ConvertProgress listener, long total, InputSizes inputs) {
            this.listener = listener;
            this.total = total;
            this.inputs = inputs;
        }

        /**
         * Refuses to go on where an input shrank since it was opened: checked before each window, so
         * that no window reads a page the file no longer has (a vector load there is a fault the JVM
         * does not turn into an exception).
         *
         * @throws InputShrank naming the file and both sizes
         */
        void checkInputs() {
            inputs.check();
        }

        /** Makes every later {@link #add} throw: another file of the conversion failed. */
        void stop() {
            stopped = true;
        }

        synchronized void add(String tensor, long bytes) {
            if (stopped) {
                throw new CancellationException("stopped: another file of the conversion failed");
            }
            done += bytes;
            listener.update(tensor, Math.min(done, total), total);
        }
    }

    /**
     * A fault in a mapping while tensor {@code tensor} was written: the JVM reports a {@code SIGBUS}
     * in mapped memory as an {@link InternalError}. Either an input file shrank under its mapping,
     * or the output's file system could not give a page (a full disk).
     */
    static final class MappingFault extends IOException {
        @java.io.Serial
        private static final long serialVersionUID = 1L;

        MappingFault(String tensor, InternalError cause) {
            super("writing tensor '" + tensor + "' failed (is the disk full?): " + cause.getMessage(), cause);
        }
    }

    /** An input that is smaller than when the conversion opened it: another program truncated or rewrote it. */
    static final class InputShrank extends RuntimeException {
        @java.io.Serial
        private static final long serialVersionUID = 1L;
        private final transient Path file;
        private final long was;
        private final long now;

        InputShrank(Path file, long was, long now) {
            super(file + ": the file shrank from " + was + " to " + now + " bytes while it was converted", null, false, false);
            this.file = file;
            this.was = was;
            this.now = now;
        }

        /** {@return the error the caller gets, naming the file, both sizes and the target left alone} */
        TensorFormatException refusal(Path target) {
            return new TensorFormatException(file + ": the file shrank from " + was + " to " + now + " bytes while it was"
                    + " converted (truncated or rewritten by another program); nothing was written to " + target);
        }
    }

    /**
     * The sizes of the files a conversion reads, taken before they are mapped, so that a fault in a
     * mapping can be told apart: an input that shrank meanwhile is named, with both sizes.
     */
    private record InputSizes(List<Path> files, long[] sizes) {
        /** {@return the sizes of {@code source}, or of the regular files directly in it for a directory} */
        static InputSizes of(Path source) {
            List<Path> files = new ArrayList<>();
            if (Files.isDirectory(source)) {
                try (var entries = Files.list(source)) {
                    entries.filter(Files::isRegularFile).sorted().forEach(files::add);
                } catch (IOException | RuntimeException e) {
                    // unreadable: the format's reader says why
                }
            } else {
                files.add(source);
            }
            long[] sizes = new long[files.size()];
            for (int i = 0; i < sizes.length; i++) {
                sizes[i] = sizeOf(files.get(i));
            }
            return new InputSizes(files, sizes);
        }

        /** @throws InputShrank if an input is now smaller than when it was opened */
        void check() {
            InputShrank shrank = shrank();
            if (shrank != null) {
                throw shrank;
            }
        }

        /** {@return the first input that is now smaller than when it was opened, or null} */
        private InputShrank shrank() {
            for (int i = 0; i < files.size(); i++) {
                long now = sizeOf(files.get(i));
                if (sizes[i] >= 0 && now < sizes[i]) {
                    return new InputShrank(files.get(i), sizes[i], Math.max(now, 0));
                }
            }
            return null;
        }

        private static long sizeOf(Path p) {
            try {
                return Files.size(p);
            } catch (IOException | RuntimeException e) {
                return -1;
            }
        }

        /**
         * {@return {@code e} as the caller sees it} A fault in a mapping ({@link MappingFault}, or an
         * {@link InternalError} anywhere in the chain of causes, as a thread of a parallel relayout reports it)
         * becomes a {@link TensorFormatException} naming the input that shrank, or an {@link IOException}
         * naming the output where none did; anything else comes back as it is.
         */
        Throwable explain(Throwable e, Path target) {
            InternalError fault = null;
            for (Throwable c = e; c != null && fault == null; c = c.getCause() == c ? null : c.getCause()) {
                if (c instanceof InputShrank shrank) {
                    return shrank.refusal(target);
                }
                if (c instanceof InternalError ie) {
                    fault = ie;
                }
            }
            if (fault == null) {
                return e;
            }
            InputShrank shrank = shrank();
            if (shrank != null) {
                TensorFormatException refusal = shrank.refusal(target);
                refusal.addSuppressed(fault);
                return refusal;
            }
            return e instanceof IOException ? e : new IOException(target + ": a fault in a file mapping while the output"
                    + " was written (is the disk full?): " + fault.getMessage(), fault);
        }
    }
}

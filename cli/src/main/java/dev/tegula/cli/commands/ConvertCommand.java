package dev.tegula.cli.commands;

import dev.tegula.cli.BadInputException;
import dev.tegula.io.internal.ByteCounts;
import dev.tegula.cli.FileErrors;
import dev.tegula.cli.ExitStatus;
import dev.tegula.cli.VersionProvider;
import dev.tegula.cli.TerminalText;
import dev.tegula.cli.bench.ProgressBar;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.core.Shape;
import dev.tegula.core.ShapeParseException;
import dev.tegula.io.ConvertOptions;
import dev.tegula.io.ConvertReport;
import dev.tegula.io.ConvertRules;
import dev.tegula.io.F16Overflow;
import dev.tegula.io.LoadReport;
import dev.tegula.io.F16OverflowException;
import dev.tegula.io.TensorFiles;
import dev.tegula.io.TensorFormat;
import dev.tegula.io.TensorFormatException;
import dev.tegula.io.UnsupportedTensorException;
import dev.tegula.opencl.OpenCLMemory;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.io.PrintWriter;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code tegula convert IN [--tensor NAME] [--layout [GLOB=]LAYOUT]... [--type [GLOB=]TYPE]...
 * [--exclude GLOB]... [--skip-unsupported] --out OUT}: tensors of a file or checkpoint relayouted
 * into another, through {@link TensorFiles#convert} (memory bounded, written whole or not at all).
 * This class adds only the options, the progress bar and the lines it prints.
 */
@Command(name = "convert",
        mixinStandardHelpOptions = true,
        customSynopsis = "tegula convert [-hV] IN [--tensor=NAME] [--layout=[GLOB=]LAYOUT]... [--type=[GLOB=]TYPE]..."
                + " [--exclude=GLOB]... [--skip-unsupported] [--shape=SHAPE] [--f16-overflow=RULE] [--memory=SIZE]"
                + " [--progress=WHEN] [--stats] (--out=OUT | --to-device)",   // IN first, as it is typed; HelpLayout wraps it
        versionProvider = VersionProvider.class,
        description = {"Convert tensor files and whole checkpoints into layouts and types, file to file.",
                "IN is a checkpoint (a directory of safetensors shards and their index, as Hugging Face tools save"
                        + " it, or the index), a safetensors, NumPy or GGUF file (block-quantized tensors dequantized),"
                        + " a directory of NumPy files or a raw buffer (--shape). Memory stays bounded: files larger"
                        + " than memory convert.",
                "From a checkpoint, OUT is a new (or empty) directory that gets every shard converted, a new index and"
                        + " the other files (config, tokenizer) copied unchanged, but for the config's dtype, which says"
                        + " the new type where --type changed it; OUT.safetensors or OUT.npy a single file.",
                "OUT picks the format: OUT.npy a NumPy file (one tensor, row- or column-major); OUT.safetensors every"
                        + " tensor (other layouts kept as U8 buffers, their shape in the metadata); a directory (existing,"
                        + " or OUT ending /) one NAME.npy per tensor; the names of other formats (.gguf, .pt, .npz,"
                        + " ...) are refused; any other OUT the raw device-ready buffer of one tensor (every tile and its"
                        + " padding, bufferSize bytes).",
                "OUT is written to a temporary file (a checkpoint: directory) next to it and renamed over it when"
                        + " complete: a failed or interrupted convert leaves an existing OUT as it was. Prints the full"
                        + " shape text of what was written (NAME SHAPE per line for several tensors); on stderr, a"
                        + " warning for each rule that decides nothing and each tensor --skip-unsupported left out.",
                "GLOB matches whole tensor names (* any run, ? one character); rankN:GLOB only those of rank N, e.g."
                        + " 'rank2:*.weight' (weight matrices, not 1-D norm weights)."},
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {"0:success", "1:internal error",
                "2:bad file, unknown tensor, a layout that does not fit, or an output larger than the disk"})
public final class ConvertCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "IN", description = "a .safetensors, .npy or .gguf file, a checkpoint"
            + " directory or its *.safetensors.index.json, a directory of .npy files, or a raw buffer (with --shape)")
    Path in;

    @Option(names = "--tensor", paramLabel = "NAME",
            description = "convert only this tensor (needed for an .npy or raw OUT when IN has several)")
    String tensor;

    @Option(names = "--layout", paramLabel = "[GLOB=]LAYOUT",
            description = {"the target layout in XLA text, e.g. '{1,0:T(8,128)(2,1)}', or the full shape text convert"
                    + " prints; GLOB= limits it to the tensors it selects, e.g. 'rank2:*.weight={1,0:T(8,128)}'."
                    + " Repeatable; the first match wins; default row-major."})
    List<String> layouts = new ArrayList<>();

    @Option(names = "--type", paramLabel = "[GLOB=]TYPE",
            description = "convert to this element type, e.g. bf16: every floating-point tensor (with --tensor: that"
                    + " tensor, whatever its type), or with GLOB= the tensors it selects. Repeatable; the first"
                    + " match wins")
    List<String> types = new ArrayList<>();

    @Option(names = "--exclude", paramLabel = "GLOB",
            description = "leave out the tensors GLOB selects (a checkpoint's index then does not list them)."
                    + " Repeatable")
    List<String> excludes = new ArrayList<>();

    @Option(names = "--skip-unsupported",
            description = "leave out, and name on stderr, each tensor that cannot be written as the rules ask (a GGUF"
                    + " type Tegula does not dequantize, a layout that does not fit it, a type the output cannot hold)"
                    + " instead of stopping")
    boolean skipUnsupported;

    @Option(names = "--shape", paramLabel = "SHAPE",
            description = "read IN as a raw buffer of this full shape, e.g. 'f32[1024,512]{1,0:T(8,128)}' (what"
                    + " convert printed when it wrote it)")
    String shape;

    @Option(names = "--f16-overflow", paramLabel = "RULE", defaultValue = "refuse",
            description = "what a tensor converted to f16 does with a finite value of magnitude 65520 or more, which"
                    + " IEEE rounding makes infinite: refuse (the default: exit 2 naming the tensor, the element and"
                    + " its value; OUT left as it was), saturate (write 65504 of its sign) or inf (write infinity)."
                    + " An infinity in IN stays an infinity")
    String f16Overflow;

    @Option(names = "--memory", paramLabel = "SIZE", defaultValue = "256M",
            description = "the pages one window of the output and its source span may hold together, e.g. 64M, 1G"
                    + " (default ${DEFAULT-VALUE}); larger reads a transposed source fewer times")
    String memory;

    @Option(names = "--progress", paramLabel = "WHEN", defaultValue = "auto",
            description = "the progress bar on stderr: auto (when stderr is a terminal), always, never")
    String progress;

    @Option(names = "--stats", description = "print per tensor on stderr: windows written, source passes (how many times"
            + " the source's pages were read: 1.0 is once), seconds")
    boolean stats;

    @Option(names = "--out", paramLabel = "OUT",
            description = "where to write: OUT.npy, OUT.safetensors, a directory (from a checkpoint: a checkpoint),"
                    + " or a raw buffer")
    String out;

    @Option(names = "--to-device",
            description = "instead of writing OUT, read the tensors into the memory of the OpenCL device that serves"
                    + " S(1) (-Dtegula.opencl.memorySpace=N: S(N)), each in the layout and type its rules give it and"
                    + " every layout without S(n) in the device's memory space; GGUF blocks are dequantized into the"
                    + " device buffers. Prints what was loaded, then the bytes, the device and the time")
    boolean toDevice;

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        Path made = null;
        try {
            if ((out == null) == !toDevice) {
                throw new BadInputException(out == null ? "give --out OUT (where to write) or --to-device"
                        : "--out and --to-device: give one of them, not both");
            }
            ArrayShape raw = rawShape();
            checkTensorOption(raw);
            ConvertRules rules = rules();
            if (toDevice) {
                return toDevice(rules, ConvertOptions.defaults().withRawShape(raw).withSkipUnsupported(skipUnsupported));
            }
            Path target = FileErrors.path("--out", out);
            if ((out.endsWith("/") || out.endsWith(java.io.File.separator)) && !Files.isDirectory(target)) {
                Files.createDirectories(target);
                made = target;
            }
            ConvertOptions options = ConvertOptions.defaults().withMemory(memoryBytes()).withRawShape(raw)
                    .withF16Overflow(f16Overflow())
                    .withSkipUnsupported(skipUnsupported);
            ProgressBar[] bar = {null};
            long[] last = {0};
            long start = System.nanoTime();
            if (showProgress()) {
                options = options.withProgress((name, done, total) -> {
                    long now = System.nanoTime();
                    if (bar[0] == null) {
                        bar[0] = new ProgressBar(err, total, true, start);
                    }
                    if (done >= total || now - last[0] > 100_000_000L) {
                        bar[0].bytes(done, name);
                        last[0] = now;
                    }
                });
            }
            ConvertReport report = TensorFiles.convert(in, target, rules, options);
            made = null;
            if (bar[0] != null) {
                bar[0].finish();
            }
            String self = spec.qualifiedName();
            if (!report.staleTemporaries().isEmpty()) {
                err.println(self + ": " + staleLine(report.staleTemporaries()));
            }
            warnings(err, self, report.unusedRules(), report.skipped());
            if (stats) {
                for (ConvertReport.Tensor t : report.tensors()) {
                    err.println(String.format(Locale.ROOT, "%s: %d windows, source passes %.2f", TerminalText.of(t.name()),
                            t.windows(), t.sourcePasses()));
                }
                err.println(String.format(Locale.ROOT, "%d bytes in %.2f s", report.bytes(),
                        (System.nanoTime() - start) / 1e9));
            }
            err.flush();
            PrintWriter o = spec.commandLine().getOut();
            if (report.tensors().size() == 1) {
                o.println(report.tensors().getFirst().to());   // shape text Tegula made: nothing to escape
            } else {
                for (ConvertReport.Tensor t : report.tensors()) {
                    o.println(TerminalText.of(t.name()) + " " + t.to());
                }
            }
            if (!report.copied().isEmpty()) {
                // config.json is copied with its dtype restated when the tensors' type changed
                Path from = Files.isDirectory(in) ? in : in.toAbsolutePath().getParent();
                List<String> same = new ArrayList<>();
                List<String> restated = new ArrayList<>();
                for (Path p : report.copied()) {
                    String name = p.getFileName().toString();
                    (Files.mismatch(from.resolve(name), p) == -1 ? same : restated).add(TerminalText.of(name));
                }
                if (!same.isEmpty()) {
                    o.println("copied unchanged: " + String.join(", ", same));
                }
                if (!restated.isEmpty()) {
                    o.println("copied, its dtype now the tensors' type: " + String.join(", ", restated));
                }
            }
            o.flush();
            return ExitStatus.OK;
        } catch (F16OverflowException e) {
            throw new BadInputException("tensor '" + TerminalText.of(e.tensor()) + "' element "
                    + java.util.Arrays.toString(e.index()) + " is " + e.value() + ", too large for f16 (largest finite"
                    + " 65504; " + TerminalText.of(out) + " not written): keep it in a wider type (a --type rule for it"
                    + " first, e.g. f32), or choose --f16-overflow saturate (65504 of its sign) or --f16-overflow inf"
                    + " (infinity)");
        } catch (TensorFormatException e) {
            throw new BadInputException("bad tensor file: " + TerminalText.message(e.getMessage()));
        } catch (NoSuchFileException e) {
            throw new BadInputException("no such file or directory: " + TerminalText.of(e.getFile())
                    + (e.getReason() != null ? " (" + TerminalText.message(e.getReason()) + ")" : ""));
        } catch (AccessDeniedException e) {
            throw new BadInputException("permission denied: " + TerminalText.of(e.getFile()));
        } catch (FileSystemException e) {
            throw new BadInputException("cannot read or write " + TerminalText.of(e.getFile()) + ": "
                    + TerminalText.message(e.getReason()));
        } catch (IOException e) {
            throw new BadInputException("cannot read or write: " + TerminalText.message(e.getMessage()));
        } catch (InvalidPathException e) {
            // a name the platform cannot encode: a shard an index names, under a locale that is not UTF-8
            throw new BadInputException(FileErrors.unnamable(e.getInput(), e));
        } catch (UnsupportedTensorException e) {
            throw new BadInputException(TerminalText.message(e.getMessage()) + " (--skip-unsupported converts the"
                    + " other tensors and names each one it leaves out)");
        } catch (IllegalArgumentException e) {
            throw new BadInputException(TerminalText.message(e.getMessage()));
        } finally {
            removeIfEmpty(made);
        }
    }

    /** Reads the tensors into device memory ({@code --to-device}) and says what was loaded, where and how fast. */
    private int toDevice(ConvertRules rules, ConvertOptions options) throws IOException {
        long space = Long.getLong(OpenCLMemory.MEMORY_SPACE_PROPERTY, 1);
        OpenCLMemory cl = OpenCLMemory.forMemorySpace(space);
        if (cl == null) {
            throw new BadInputException("--to-device: no OpenCL device serves S(" + space + "): "
                    + TerminalText.of(String.valueOf(new OpenCLMemory(space, null).unavailableReason())));
        }
        PrintWriter err = spec.commandLine().getErr();
        PrintWriter o = spec.commandLine().getOut();
        String self = spec.qualifiedName();
        long start = System.nanoTime();
        try (Arena arena = Arena.ofConfined()) {
            LoadReport report = TensorFiles.load(in, rules.memorySpace(space), options, arena);
            double seconds = (System.nanoTime() - start) / 1e9;
            warnings(err, self, report.unusedRules(), report.skipped());
            err.flush();
            for (var t : report.tensors().entrySet()) {
                o.println(TerminalText.of(t.getKey()) + " " + t.getValue().shape());
            }
            int n = report.tensors().size();
            o.println(String.format(Locale.ROOT, "loaded %d tensor%s (%s) into %s in %.3f s (%.3g GB/s)", n,
                    n == 1 ? "" : "s", ByteCounts.whole(report.bytes()), TerminalText.of(cl.device().info().label()),
                    seconds, report.bytes() / Math.max(seconds, 1e-9) / 1e9));
            o.flush();
        }
        return ExitStatus.OK;
    }

    /** Prints on stderr a warning for each rule that decided nothing and a line for each tensor left out. */
    private static void warnings(PrintWriter err, String self, List<String> unusedRules,
                                 List<ConvertReport.Skipped> skipped) {
        for (String rule : unusedRules) {
            err.println(self + ": warning: the rule " + TerminalText.message(rule));
        }
        for (ConvertReport.Skipped t : skipped) {
            err.println(self + ": skipped: " + TerminalText.message(t.reason()));
        }
    }

    /** {@return the one line that names the temporaries an interrupted convert left, which this one removed} */
    static String staleLine(List<ConvertReport.StaleTemporary> stale) {
        long bytes = stale.stream().mapToLong(ConvertReport.StaleTemporary::bytes).sum();
        // a temporary killed before its header was written holds nothing: say so rather than "0 B"
        String size = bytes == 0 ? (stale.size() == 1 ? "empty" : "all empty") : ByteCounts.rounded(bytes);
        return "removed " + (stale.size() == 1 ? "a temporary" : stale.size() + " temporaries") + " ("
                + size + ") that an interrupted convert of the same output left: "
                + String.join(", ", stale.stream().map(s -> TerminalText.of(s.path().toString())).toList());
    }

    /** Removes the directory this command made for OUT/ when the conversion left nothing in it. */
    private static void removeIfEmpty(Path dir) {
        if (dir == null) {
            return;
        }
        try {
            Files.deleteIfExists(dir);
        } catch (IOException e) {
            // not empty, or gone: nothing of ours to remove
        }
    }

    private F16Overflow f16Overflow() {
        return switch (f16Overflow.toLowerCase(Locale.ROOT)) {
            case "refuse" -> F16Overflow.REFUSE;
            case "saturate" -> F16Overflow.SATURATE;
            case "inf" -> F16Overflow.INFINITY;
            default -> throw new BadInputException("--f16-overflow: expected refuse, saturate or inf, got '"
                    + TerminalText.of(f16Overflow) + "'");
        };
    }

    private boolean showProgress() {
        return switch (progress.toLowerCase(Locale.ROOT)) {
            case "always" -> true;
            case "never" -> false;
            case "auto" -> ProgressBar.onTerminal();
            default -> throw new BadInputException("--progress: expected auto, always or never, got '"
                    + TerminalText.of(progress) + "'");
        };
    }

    private ArrayShape rawShape() {
        if (shape == null) {
            return null;
        }
        try {
            if (Shape.parse(shape.strip()) instanceof ArrayShape s) {
                return s;
            }
            throw new BadInputException("--shape: expected an array shape such as 'f32[8,128]{1,0:T(8,128)}', got '"
                    + TerminalText.of(shape) + "'");
        } catch (ShapeParseException e) {
            throw new BadInputException("--shape: '" + TerminalText.of(shape) + "' is not a shape: "
                    + TerminalText.message(e.expected()) + " (at offset " + e.offset() + ")");
        }
    }

    /** --tensor picks one tensor of a file that has several; an .npy or raw input has one, so it is refused there. */
    private void checkTensorOption(ArrayShape raw) {
        TensorFormat from;
        try {
            from = TensorFormat.ofSource(in, raw);
        } catch (TensorFormatException e) {
            throw new BadInputException("bad tensor file: " + TerminalText.message(e.getMessage()));
        }
        if (tensor != null && from.holdsOneTensor()) {
            throw new BadInputException("--tensor: " + TerminalText.of(in.toString()) + " is " + (from == TensorFormat.RAW ? "a raw buffer"
                    : "an .npy file") + ", which holds one array; leave --tensor out");
        }
    }

    private ConvertRules rules() {
        ConvertRules rules = ConvertRules.all();
        if (tensor != null) {
            rules = rules.only(tensor);
        }
        try {
            for (String x : excludes) {
                rules = rules.exclude(x);
            }
            return rules(rules);
        } catch (IllegalArgumentException e) {
            throw new BadInputException(TerminalText.message(e.getMessage()));
        }
    }

    private ConvertRules rules(ConvertRules start) {
        ConvertRules rules = start;
        for (String t : types) {
            int eq = t.lastIndexOf('=');
            String name = t.substring(eq + 1).strip();
            ElementType type;
            try {
                type = ElementType.fromName(name.toLowerCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new BadInputException("--type: '" + TerminalText.of(name)
                        + "' is not an element type (e.g. f32, bf16, f16, s8)");
            }
            // with --tensor, an unqualified type is for that one tensor, whatever its type
            rules = eq >= 0 ? rules.type(t.substring(0, eq), type) : tensor != null ? rules.type("*", type)
                    : rules.floatType(type);
        }
        for (String l : layouts) {
            int eq = l.lastIndexOf('=');
            String glob = eq < 0 ? "*" : l.substring(0, eq);
            String text = l.substring(eq + 1).strip();
            if (text.startsWith("{")) {
                rules = rules.layout(glob, text);
                continue;
            }
            try {
                if (!(Shape.parse(text) instanceof ArrayShape s)) {
                    throw new BadInputException("--layout: expected a layout in braces such as '{1,0:T(8,128)(2,1)}'"
                            + " or an array shape, got '" + TerminalText.of(text) + "'");
                }
                rules = rules.shape(glob, s);
            } catch (ShapeParseException e) {
                throw new BadInputException("--layout: expected a layout in braces such as '{1,0:T(8,128)(2,1)}' or"
                        + " the full shape text convert prints, got '" + TerminalText.of(text) + "' ("
                        + TerminalText.message(e.expected()) + " at offset "
                        + e.offset() + ")");
            }
        }
        return rules;
    }

    private static final Pattern SIZE = Pattern.compile("(\\d+)\\s*([kKmMgGtT]?)(i?[bB])?");

    private long memoryBytes() {
        Matcher m = SIZE.matcher(memory.strip());
        if (!m.matches()) {
            throw new BadInputException("--memory: expected a size such as 256M, 1G or 1048576, got '"
                    + TerminalText.of(memory) + "'");
        }
        int shift = switch (m.group(2).toUpperCase(Locale.ROOT)) {
            case "K" -> 10;
            case "M" -> 20;
            case "G" -> 30;
            case "T" -> 40;
            default -> 0;
        };
        try {
            long v = Math.multiplyExact(Long.parseLong(m.group(1)), 1L << shift);
            if (v < ConvertOptions.MIN_MEMORY) {
                throw new BadInputException("--memory: at least 1M, got '" + TerminalText.of(memory) + "'");
            }
            return v;
        } catch (ArithmeticException | NumberFormatException e) {
            throw new BadInputException("--memory: '" + TerminalText.of(memory) + "' is too large");
        }
    }
}

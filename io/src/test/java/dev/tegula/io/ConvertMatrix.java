package dev.tegula.io;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.core.Layout;
import dev.tegula.ffm.Array;
import dev.tegula.io.gguf.Gguf;
import dev.tegula.io.internal.MappedFiles;
import dev.tegula.io.safetensors.SafeTensorsCheckpoint;
import dev.tegula.io.safetensors.SafeTensorsHeader;
import dev.tegula.vector.Relayout;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Every input format converted to every output format, bit for bit: {@code .npy} in both byte orders
 * and both orders of dimensions, safetensors, GGUF and a sharded checkpoint, each written to
 * {@code .npy}, safetensors, a raw buffer (and a checkpoint to a checkpoint), in row-major,
 * column-major and tiled layouts, with the default memory budget and with the smallest one (which
 * cuts every tensor into windows). The inputs are made here byte by byte, independently of the
 * writers, and each output is read back and compared with the bytes the input's values have in
 * row-major order.
 *
 * <p>{@link #main} runs the same matrix in a child JVM whose C heap checks itself ({@link ConvertMatrixTest}).
 */
public final class ConvertMatrix {
    private ConvertMatrix() {
    }

    /** One generated input: its file, the tensor's name, type and dimensions, and its values in row-major order (little-endian). */
    record Input(String label, Path file, String tensor, ElementType type, long[] dims, byte[] rowMajor) {
    }

    /** An npy element type: its dtype letters, Tegula's type, its width and the width of one byte-swapped part. */
    private record NpyType(String code, ElementType type, int width, int part) {
    }

    private static final List<NpyType> NPY_TYPES = List.of(
            new NpyType("f4", ElementType.F32, 4, 4),
            new NpyType("i2", ElementType.S16, 2, 2),
            new NpyType("f8", ElementType.F64, 8, 8),
            new NpyType("u1", ElementType.U8, 1, 1),
            new NpyType("c8", ElementType.C64, 8, 4));

    /** Converts every input to every output and checks each; {@return the conversions checked} */
    static int run(Path dir) throws IOException {
        return run(dir, in -> true, true);
    }

    /**
     * Converts the inputs {@code which} selects to every output and checks each, and the checkpoint's
     * too where {@code checkpoints} is set; {@return the conversions checked}
     */
    static int run(Path dir, java.util.function.Predicate<Input> which, boolean checkpoints) throws IOException {
        int checked = 0;
        for (Input in : inputs(dir)) {
            if (!which.test(in)) {
                Files.delete(in.file());
                continue;
            }
            for (String out : outputs(in)) {
                for (long memory : new long[] {ConvertOptions.DEFAULT_MEMORY, ConvertOptions.MIN_MEMORY}) {
                    convertAndCheck(dir, in, out, memory);
                    checked++;
                }
            }
        }
        if (!checkpoints) {
            return checked;
        }
        Path checkpoint = IoFixtures.checkpoint("tiny-llama", dir);
        for (String out : List.of("ckpt-out", "ckpt.safetensors")) {
            for (long memory : new long[] {ConvertOptions.DEFAULT_MEMORY, ConvertOptions.MIN_MEMORY}) {
                Path target = dir.resolve(out + "-" + memory);
                TensorFiles.convert(checkpoint, target, ConvertRules.all().layout("rank2:*", "{0,1}"),
                        ConvertOptions.defaults().withMemory(memory));
                try (Arena arena = Arena.ofConfined()) {
                    for (SafeTensorsHeader shard : SafeTensorsCheckpoint.open(checkpoint).shards().values()) {
                        for (SafeTensorsHeader.Entry e : shard.tensors()) {
                            Layout rowMajor = Layout.rowMajor(e.shape().rank());
                            byte[] want = bytes(TensorFiles.readAs(checkpoint, e.name(), rowMajor, arena));
                            byte[] got = bytes(TensorFiles.readAs(target, e.name(), rowMajor, arena));
                            check(Arrays.equals(want, got), "checkpoint tensor " + e.name() + " -> " + target.getFileName()
                                    + " (memory " + memory + ")");
                        }
                    }
                }
                deleteTree(target);
                checked++;
            }
        }
        IoFixtures.assertNoTemporaries(dir);
        return checked;
    }

    /** The output names (format by extension) and layouts an input is written in: {@code NAME|LAYOUT}. */
    private static List<String> outputs(Input in) {
        List<String> outs = new ArrayList<>(List.of("o.bin|{1,0}", "o.bin|{0,1}"));
        if (in.type() != ElementType.BF16) {   // .npy has no bf16 dtype
            outs.addAll(List.of("o.npy|{1,0}", "o.npy|{0,1}"));
        }
        if (in.type() != ElementType.C64) {   // safetensors has no complex dtype
            outs.addAll(List.of("o.safetensors|{1,0}", "o.safetensors|{0,1}", "o.safetensors|" + tiled(in.type())));
        }
        return outs;
    }

    /** {@return the TPU-style tiled layout for a 2-D array of {@code type}} */
    private static String tiled(ElementType type) {
        return switch (type.byteWidth()) {
            case 4, 8 -> "{1,0:T(8,128)}";
            case 2 -> "{1,0:T(8,128)(2,1)}";
            default -> "{1,0:T(8,128)(4,1)}";
        };
    }

    private static void convertAndCheck(Path dir, Input in, String out, long memory) throws IOException {
        String[] parts = out.split("\\|");
        Path target = dir.resolve(parts[0]);
        Layout layout = ArrayShape.parse(in.type().hloName() + "[1,1]" + parts[1]).layout();
        ArrayShape to = ArrayShape.of(in.type(), in.dims()).withLayout(layout);
        ConvertOptions options = ConvertOptions.defaults().withMemory(memory);
        TensorFiles.convert(in.file(), target, ConvertRules.all().layout("*", layout), options);
        String what = in.label() + " -> " + parts[0] + " " + parts[1] + " (memory " + memory + ")";
        try (Arena arena = Arena.ofConfined()) {
            Array written;
            if (parts[0].endsWith(".bin")) {
                MemorySegment file = MappedFiles.map(target, arena);
                check(file.byteSize() == to.bufferSize(), what + ": " + file.byteSize() + " bytes, not " + to.bufferSize());
                written = Array.wrap(file, to);
            } else {
                written = TensorFiles.read(target, in.tensor(), arena);
                check(written.shape().equals(to), what + ": written as " + written.shape() + ", not " + to);
            }
            Array rowMajor = Array.allocate(arena, ArrayShape.of(in.type(), in.dims()));
            Relayout.copy(written, rowMajor);
            byte[] got = bytes(rowMajor);
            if (!Arrays.equals(in.rowMajor(), got)) {
                int at = Arrays.mismatch(in.rowMajor(), got);
                long zeros = 0;
                for (byte b : got) {
                    zeros += b == 0 ? 1 : 0;
                }
                throw new AssertionError(what + ": first differing byte " + at + " of " + got.length + " (" + zeros
                        + " zero bytes written)");
            }
        }
        Files.delete(target);
    }

    private static byte[] bytes(Array a) {
        return a.segment().asSlice(0, a.shape().bufferSize()).toArray(ValueLayout.JAVA_BYTE);
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            throw new AssertionError(what);
        }
    }

    /** The inputs: .npy of every type in both byte orders and both dimension orders, safetensors, GGUF. */
    static List<Input> inputs(Path dir) throws IOException {
        List<Input> inputs = new ArrayList<>();
        SplittableRandom random = new SplittableRandom(20261207);
        for (NpyType t : NPY_TYPES) {
            // over half the smallest budget: cut into windows there
            long cols = 256;
            long rows = (640L << 10) / (cols * t.width()) + 3;
            for (boolean big : new boolean[] {false, true}) {
                if (big && t.width() == 1) {
                    continue;   // one byte has no order
                }
                for (boolean fortran : new boolean[] {false, true}) {
                    byte[] rowMajor = randomBytes(random, rows * cols * t.width());
                    String label = (big ? ">" : t.width() == 1 ? "|" : "<") + t.code() + (fortran ? " fortran" : "");
                    Path file = dir.resolve("in-" + t.code() + (big ? "-be" : "-le") + (fortran ? "-f" : "-c") + ".npy");
                    Files.write(file, npy(t, big, fortran, rows, cols, rowMajor));
                    String stem = file.getFileName().toString().replace(".npy", "");   // an .npy tensor is named by its file
                    inputs.add(new Input(label + " .npy", file, stem, t.type(), new long[] {rows, cols}, rowMajor));
                }
            }
        }
        for (String[] st : new String[][] {{"F32", "f32"}, {"BF16", "bf16"}, {"I16", "s16"}}) {
            ElementType type = ElementType.fromName(st[1]);
            long rows = 517;
            long cols = 300;
            byte[] rowMajor = randomBytes(random, rows * cols * type.byteWidth());
            Path file = dir.resolve("in-" + st[1] + ".safetensors");
            Files.write(file, safetensors("w", st[0], rows, cols, rowMajor));
            inputs.add(new Input(st[1] + " .safetensors", file, "w", type, new long[] {rows, cols}, rowMajor));
        }
        for (ElementType type : List.of(ElementType.F32, ElementType.F16)) {
            long rows = 525;
            long cols = 320;
            byte[] rowMajor = randomBytes(random, rows * cols * type.byteWidth());
            if (type == ElementType.F16) {
                // finite halves only: the GGUF writer refuses an infinity or NaN that f16 data checks would reject
                ByteBuffer b = ByteBuffer.wrap(rowMajor).order(ByteOrder.LITTLE_ENDIAN);
                for (int i = 0; i < rowMajor.length; i += 2) {
                    b.putShort(i, (short) (b.getShort(i) & 0x3FFF));
                }
            }
            Path file = dir.resolve("in-" + type.hloName() + ".gguf");
            try (Arena arena = Arena.ofConfined()) {
                Array a = Array.allocate(arena, ArrayShape.of(type, rows, cols));
                MemorySegment.copy(MemorySegment.ofArray(rowMajor), 0, a.segment(), 0, rowMajor.length);
                Gguf.writer().tensor("w", a).write(file);
            }
            inputs.add(new Input(type.hloName() + " .gguf", file, "w", type, new long[] {rows, cols}, rowMajor));
        }
        return inputs;
    }

    private static byte[] randomBytes(SplittableRandom random, long n) {
        byte[] b = new byte[Math.toIntExact(n)];
        random.nextBytes(b);
        return b;
    }

    /**
     * {@return the bytes of an {@code .npy} file (format 1.0) holding {@code rowMajor}} Written here by
     * the format's definition: magic, version, header length, the padded dict, then the elements in C
     * or Fortran order, each part of each element in the file's byte order.
     */
    static byte[] npy(NpyType t, boolean big, boolean fortran, long rows, long cols, byte[] rowMajor) {
        String order = t.width() == 1 ? "|" : big ? ">" : "<";
        String dict = "{'descr': '" + order + t.code() + "', 'fortran_order': " + (fortran ? "True" : "False")
                + ", 'shape': (" + rows + ", " + cols + "), }";
        int unpadded = 10 + dict.length() + 1;
        String header = dict + " ".repeat((64 - unpadded % 64) % 64) + "\n";
        ByteBuffer out = ByteBuffer.allocate(10 + header.length() + rowMajor.length).order(ByteOrder.LITTLE_ENDIAN);
        out.put((byte) 0x93).put("NUMPY".getBytes(StandardCharsets.US_ASCII)).put((byte) 1).put((byte) 0);
        out.putShort((short) header.length()).put(header.getBytes(StandardCharsets.US_ASCII));
        int w = t.width();
        for (long k = 0; k < rows * cols; k++) {
            long i = fortran ? k % rows : k / cols;
            long j = fortran ? k / rows : k % cols;
            int at = Math.toIntExact((i * cols + j) * w);
            for (int p = 0; p < w; p += t.part()) {
                for (int b = 0; b < t.part(); b++) {
                    out.put(rowMajor[at + p + (big ? t.part() - 1 - b : b)]);
                }
            }
        }
        return out.array();
    }

    /** {@return the bytes of a safetensors file of one tensor {@code name}: the length, the JSON header, the data} */
    static byte[] safetensors(String name, String dtype, long rows, long cols, byte[] data) {
        String json = "{\"" + name + "\":{\"dtype\":\"" + dtype + "\",\"shape\":[" + rows + "," + cols
                + "],\"data_offsets\":[0," + data.length + "]}}";
        byte[] header = (json + " ".repeat((8 - json.length() % 8) % 8)).getBytes(StandardCharsets.US_ASCII);
        ByteBuffer out = ByteBuffer.allocate(8 + header.length + data.length).order(ByteOrder.LITTLE_ENDIAN);
        out.putLong(header.length).put(header).put(data);
        return out.array();
    }

    private static void deleteTree(Path p) throws IOException {
        if (Files.isDirectory(p)) {
            try (var s = Files.list(p)) {
                for (Path c : s.toList()) {
                    deleteTree(c);
                }
            }
        }
        Files.delete(p);
    }

    /** Runs the matrix in the directory {@code args[0]} and prints {@code checked N} when every conversion is right. */
    public static void main(String[] args) throws IOException {
        System.out.println("checked " + run(Path.of(args[0])));
    }

}

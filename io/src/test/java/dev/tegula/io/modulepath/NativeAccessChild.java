package dev.tegula.io.modulepath;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.core.Layout;
import dev.tegula.ffm.Array;
import dev.tegula.io.ConvertOptions;
import dev.tegula.io.ConvertRules;
import dev.tegula.io.TensorFiles;
import dev.tegula.io.dlpack.DLPack;
import dev.tegula.io.npy.Npy;
import dev.tegula.vector.Relayout;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;

/**
 * The child JVM of {@link dev.tegula.io.NativeAccessTest}, run with Tegula's modules on the module
 * path (so it lives in a package none of them has): runs the steps named in {@code args[1...]} in
 * order, in directory {@code args[0]}, and prints {@code STEP ok} or {@code STEP EXCEPTION-CLASS}
 * for each.
 */
public final class NativeAccessChild {
    private NativeAccessChild() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        for (int i = 1; i < args.length; i++) {
            String step = args[i];
            try (Arena arena = Arena.ofShared()) {
                switch (step) {
                    case "large" -> Array.allocate(arena, ArrayShape.of(ElementType.F32, 2048, 1024)).fill(1);   // 8 MiB
                    case "convert" -> {
                        Array a = Array.allocate(arena, ArrayShape.of(ElementType.F32, 64, 64));
                        Npy.write(a, dir.resolve("in.npy"));
                        TensorFiles.convert(dir.resolve("in.npy"), dir.resolve("out.bin"),
                                ConvertRules.all().layout("*", Layout.of(0, 1)), ConvertOptions.defaults());
                    }
                    case "wrapAddress" -> Array.wrapAddress(arena.allocate(64).address(),
                            ArrayShape.of(ElementType.F32, 16), arena, null);
                    case "dlpack" -> {
                        Array a = Array.allocate(arena, ArrayShape.of(ElementType.F32, 16));
                        MemorySegment m = DLPack.export(a, arena);
                        DLPack.importTensor(m, arena);
                    }
                    case "confinedRelayout" -> {
                        try (Arena confined = Arena.ofConfined()) {
                            Array a = Array.allocate(confined, ArrayShape.parse("f32[64,96]{1,0}"));
                            for (long k = 0; k < 64 * 96; k++) {
                                a.segment().setAtIndex(ValueLayout.JAVA_FLOAT, k, k);
                            }
                            Array t = Relayout.to(a, Layout.of(0, 1), confined);
                            // element (5, 7) of the source: slot 5 * 96 + 7; transposed, slot 7 * 64 + 5
                            float v = t.segment().getAtIndex(ValueLayout.JAVA_FLOAT, 7 * 64 + 5);
                            if (v != 5 * 96 + 7) {
                                throw new IllegalStateException("transposed element " + v);
                            }
                        }
                    }
                    default -> throw new IllegalArgumentException(step);
                }
                System.out.println(step + " ok");
            } catch (RuntimeException e) {
                System.out.println(step + " " + e.getClass().getName());
            }
        }
    }

}

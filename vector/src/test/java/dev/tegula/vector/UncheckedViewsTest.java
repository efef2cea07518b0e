package dev.tegula.vector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.core.ArrayShape;
import dev.tegula.ffm.internal.ThreadAccess;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Execution hands the kernels views of confined segments that check no arena
 * ({@code ThreadAccess.openCall}); they are safe only while none outlives its call. Here every
 * call's views end with it, so a view kept by a plan, a kernel or a per-thread buffer fails its
 * next access: every relayout runs twice on confined arrays (the second run would touch a view the
 * first kept), matches the reference, and afterwards nothing reachable from the plan or from the
 * engine's static fields (per-thread buffers included) is a segment whose arena is closed.
 */
class UncheckedViewsTest {
    private static final String[] CASES = {
        "f32[67,1041]{1,0}|f32[67,1041]{0,1}",
        "bf16[100,96]{1,0}|bf16[100,96]{0,1}",
        "f32[6,1000]{1,0}|f32[6,1000]{0,1}",
        "bf16[64,256]{1,0}|bf16[64,256]{1,0:T(8,128)(2,1)}",
        "f32[32,16,16,32]{3,2,1,0}|f32[32,16,16,32]{0,1,2,3}",
        "f32[64,256]{1,0}|f32[64,256]{1,0:T(8,128)}",
        "f32[96,80]{1,0}|bf16[96,80]{0,1}",
        "s4[300]{0}|s4[300]{0:E(4)}",
        "f16[30,40]{1,0}|f32[30,40]{0,1}",
    };

    @Test
    void noUncheckedViewOutlivesItsCall() throws IOException {
        ThreadAccess.endViewsWithTheirCall(true);
        try (Arena arena = Arena.ofConfined()) {
            List<RelayoutPlan> plans = new ArrayList<>();
            for (String c : CASES) {
                String[] p = c.split("\\|");
                plans.add(twice(arena, ArrayShape.parse(p[0]), ArrayShape.parse(p[1]), Planning.ESTIMATE));
            }
            // a measuring planner times candidates on views of the arrays it plans for
            plans.add(twice(arena, ArrayShape.parse("f32[512,1024]{1,0}"), ArrayShape.parse("f32[512,1024]{0,1}"),
                    Planning.MEASURE));
            List<String> closed = new ArrayList<>();
            Set<Object> seen = Collections.newSetFromMap(new IdentityHashMap<>());
            for (RelayoutPlan plan : plans) {
                scan(plan, "plan " + plan.from() + " -> " + plan.to(), seen, closed);
            }
            for (Class<?> k : engineClasses()) {
                for (Field f : k.getDeclaredFields()) {
                    if (Modifier.isStatic(f.getModifiers()) && !f.getType().isPrimitive()) {
                        f.setAccessible(true);
                        Object v = get(f, null);
                        scan(v instanceof ThreadLocal<?> t ? t.get() : v, k.getName() + "." + f.getName(), seen, closed);
                    }
                }
            }
            assertEquals(List.of(), closed, "segments of closed arenas kept past their call");
        } finally {
            ThreadAccess.endViewsWithTheirCall(false);
        }
    }

    /** {@return the plan of {@code planning} for confined arrays of the two shapes, run twice and checked} */
    private static RelayoutPlan twice(Arena arena, ArrayShape from, ArrayShape to, Planning planning) {
        dev.tegula.ffm.Array src = dev.tegula.ffm.Array.allocate(arena, from);
        dev.tegula.ffm.Array dst = dev.tegula.ffm.Array.allocate(arena, to);
        MemorySegment s = src.segment();
        Random r = new Random(from.hashCode());
        for (long i = 0; i + 4 <= s.byteSize(); i += 4) {
            s.set(ValueLayout.JAVA_INT_UNALIGNED, i, r.nextInt() & 0x3F7F_3F7F);   // no NaN codes in any 2- or 4-byte type
        }
        MemorySegment ref = arena.allocate(to.bufferSize());
        ReferenceRelayout.copy(from, s, to, ref);
        RelayoutPlan plan = new PlanCache(4, null).plan(src, dst, planning, 1, null);
        for (int run = 0; run < 2; run++) {
            dst.segment().fill((byte) 0xA5);
            plan.execute(src, dst);
            assertEquals(-1, ref.mismatch(dst.segment().asSlice(0, to.bufferSize())), plan::describe);
        }
        assertTrue(planning == Planning.ESTIMATE || plan.report().origin() == PlanOrigin.MEASURED, plan::describe);
        return plan;
    }

    /** Adds to {@code closed} every segment of a closed arena reachable from {@code o} through Tegula's objects, lists and arrays. */
    private static void scan(Object o, String path, Set<Object> seen, List<String> closed) {
        if (o == null || !seen.add(o)) {
            return;
        }
        if (o instanceof MemorySegment m) {
            if (!m.scope().isAlive()) {
                closed.add(path);
            }
            return;
        }
        if (o instanceof Iterable<?> it && !(o.getClass().getName().startsWith("dev.tegula."))) {
            int k = 0;
            for (Object x : it) {
                scan(x, path + "[" + k++ + "]", seen, closed);
            }
            return;
        }
        if (o.getClass().isArray() && !o.getClass().getComponentType().isPrimitive()) {
            for (int k = 0; k < Array.getLength(o); k++) {
                scan(Array.get(o, k), path + "[" + k + "]", seen, closed);
            }
            return;
        }
        if (!o.getClass().getName().startsWith("dev.tegula.")) {
            return;
        }
        for (Class<?> c = o.getClass(); c != null && c.getName().startsWith("dev.tegula."); c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (!Modifier.isStatic(f.getModifiers()) && !f.getType().isPrimitive()) {
                    f.setAccessible(true);
                    scan(get(f, o), path + "." + f.getName(), seen, closed);
                }
            }
        }
    }

    private static Object get(Field f, Object o) {
        try {
            return f.get(o);
        } catch (IllegalAccessException e) {
            throw new AssertionError(f + " not readable", e);
        }
    }

    /** {@return the engine's classes: every class of the vector module's packages} */
    private static List<Class<?>> engineClasses() throws IOException {
        Path dir;
        try {
            dir = Path.of(RelayoutPlan.class.getResource("RelayoutPlan.class").toURI()).getParent();
        } catch (URISyntaxException e) {
            throw new IOException(e);
        }
        List<Class<?>> out = new ArrayList<>();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".class")).toList()) {
                String rel = dir.relativize(f).toString().replace(java.io.File.separatorChar, '.');
                String name = "dev.tegula.vector." + rel.substring(0, rel.length() - ".class".length());
                if (name.endsWith("module-info") || name.endsWith("package-info")) {
                    continue;
                }
                try {
                    out.add(Class.forName(name));
                } catch (ClassNotFoundException e) {
                    throw new AssertionError(name, e);
                }
            }
        }
        assertTrue(out.size() > 20, out::toString);
        return out;
    }
}

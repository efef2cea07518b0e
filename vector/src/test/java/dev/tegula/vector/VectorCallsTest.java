package dev.tegula.vector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.lang.classfile.Attributes;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.CodeElement;
import java.lang.classfile.MethodModel;
import java.lang.classfile.attribute.CodeAttribute;
import java.lang.classfile.instruction.InvokeInstruction;
import java.lang.constant.ClassDesc;
import java.lang.constant.MethodTypeDesc;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The engine's own methods that take or return a Vector API vector are small enough for C2 to inline
 * at any call site. C2 inlines a method of more than {@value #MAX_INLINE_SIZE} bytes of bytecode
 * (its {@code MaxInlineSize}) only where the profile shows the call hot; elsewhere the call stays out
 * of line and every vector crossing it is boxed, which in a JVM that has run many shapes made the
 * fused f32 to bf16 relayout three to four times slower for the life of the process. Read from the
 * compiled classes with the ClassFile API.
 */
class VectorCallsTest {

    /** C2's default {@code MaxInlineSize}: bytecode bytes it inlines whether or not the call is hot. */
    private static final int MAX_INLINE_SIZE = 35;

    /** Vector helpers allowed to be larger: called only on rare paths, where a boxed call costs little. */
    private static final Set<String> RARE_PATH_HELPERS = Set.of("quant/DequantizeKernels.bf16Dequantized");

    private static final String VECTOR_TYPES = "Ljdk/incubator/vector/";
    private static final String PACKAGE = "dev/tegula/vector/";

    private record Call(String caller, String callee, int calleeBytes) {
    }

    @Test
    void everyVectorHelperCalledFromTheEngineFitsTheInliningLimitOfColdSites() throws IOException {
        Map<String, ClassModel> classes = engineClasses();
        List<Call> calls = vectorCalls(classes);
        assertTrue(calls.stream().anyMatch(c -> c.callee().equals("quant/DequantizeKernels.widen")),
                "the scan sees the vector helpers it checks: " + calls);
        List<Call> tooLarge = new ArrayList<>();
        for (Call c : calls) {
            if (c.calleeBytes() > MAX_INLINE_SIZE && !RARE_PATH_HELPERS.contains(c.callee())) {
                tooLarge.add(c);
            }
        }
        assertEquals(List.of(), tooLarge, "vector helpers over " + MAX_INLINE_SIZE + " bytes of bytecode");
    }

    @Test
    void aVectorHelperOverTheLimitIsReportedWithItsSize() {
        // a class built for the check: a 61-byte helper taking and returning an IntVector, and its caller
        ClassDesc probe = ClassDesc.of("dev.tegula.vector.Probe");
        ClassDesc vector = ClassDesc.of("jdk.incubator.vector.IntVector");
        MethodTypeDesc helperType = MethodTypeDesc.of(vector, vector);
        byte[] bytes = ClassFile.of().build(probe, cb -> {
            cb.withMethodBody("helper", helperType, ClassFile.ACC_STATIC, code -> {
                code.aload(0);
                for (int k = 0; k < 59; k++) {
                    code.nop();
                }
                code.areturn();
            });
            cb.withMethodBody("caller", helperType, ClassFile.ACC_STATIC, code -> code.aload(0)
                    .invokestatic(probe, "helper", helperType).areturn());
        });
        ClassModel model = ClassFile.of().parse(bytes);
        List<Call> calls = vectorCalls(Map.of("Probe", model));
        assertEquals(List.of(new Call("Probe.caller", "Probe.helper", 61)), calls);
    }

    /** Every call between the classes' methods (class initialisers aside) whose type names a vector. */
    private static List<Call> vectorCalls(Map<String, ClassModel> classes) {
        List<Call> calls = new ArrayList<>();
        for (var entry : classes.entrySet()) {
            for (MethodModel m : entry.getValue().methods()) {
                if (m.methodName().equalsString("<clinit>")) {
                    continue;
                }
                CodeAttribute code = m.findAttribute(Attributes.code()).orElse(null);
                if (code == null) {
                    continue;
                }
                for (CodeElement e : code) {
                    if (e instanceof InvokeInstruction call && call.type().stringValue().contains(VECTOR_TYPES)) {
                        String owner = call.owner().asInternalName();
                        if (!owner.startsWith(PACKAGE)) {
                            continue;
                        }
                        String simple = owner.substring(PACKAGE.length());
                        ClassModel target = classes.get(simple);
                        assertTrue(target != null, "class of a vector helper not scanned: " + owner);
                        calls.add(new Call(entry.getKey() + "." + m.methodName().stringValue(),
                                simple + "." + call.name().stringValue(),
                                codeLength(target, call.name().stringValue(), call.type().stringValue())));
                    }
                }
            }
        }
        return calls;
    }

    private static int codeLength(ClassModel owner, String name, String type) {
        for (MethodModel m : owner.methods()) {
            if (m.methodName().equalsString(name) && m.methodType().equalsString(type)) {
                return m.findAttribute(Attributes.code()).map(CodeAttribute::codeLength).orElse(0);
            }
        }
        throw new AssertionError("no method " + name + type + " in " + owner.thisClass().asInternalName());
    }

    /**
     * The compiled classes of the engine's packages, by name relative to {@code dev/tegula/vector/}
     * (e.g. {@code kernels/ConvertKernels}; nested classes as {@code Outer$Inner}).
     */
    private static Map<String, ClassModel> engineClasses() throws IOException {
        Path dir;
        try {
            dir = Path.of(RelayoutPlan.class.getResource("RelayoutPlan.class").toURI()).getParent();
        } catch (URISyntaxException | IllegalArgumentException | java.nio.file.FileSystemNotFoundException e) {
            throw new IOException("the engine's classes are not in a directory", e);
        }
        Map<String, ClassModel> classes = new TreeMap<>();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".class")).toList()) {
                try (InputStream in = Files.newInputStream(f)) {
                    String name = dir.relativize(f).toString().replace(java.io.File.separatorChar, '/');
                    classes.put(name.substring(0, name.length() - ".class".length()),
                            ClassFile.of().parse(in.readAllBytes()));
                }
            }
        }
        assertTrue(classes.containsKey("kernels/ConvertKernels") && classes.containsKey("quant/DequantizeKernels"),
                "engine classes found in " + dir);
        return classes;
    }
}

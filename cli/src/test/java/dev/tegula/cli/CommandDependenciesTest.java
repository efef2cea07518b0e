package dev.tegula.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.constantpool.ClassEntry;
import java.lang.classfile.constantpool.PoolEntry;
import java.lang.classfile.constantpool.Utf8Entry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The commands depend on the shared pieces of the command line (exit statuses, version, terminal
 * text), never on {@link Main}, which depends on every command: no class of the command packages
 * names {@code Main} (or a class nested in it) in its constant pool, so the two never form a circle.
 */
class CommandDependenciesTest {
    private static final Path CLASSES = Path.of("target/classes/dev/tegula/cli");

    @Test
    void noCommandClassReferencesMain() throws IOException {
        TreeSet<String> offenders = new TreeSet<>();
        int read = 0;
        for (String pkg : List.of("commands", "bench", "pictures")) {
            try (Stream<Path> files = Files.walk(CLASSES.resolve(pkg))) {
                for (Path f : files.filter(p -> p.toString().endsWith(".class")).toList()) {
                    read++;
                    ClassModel model = ClassFile.of().parse(f);
                    for (PoolEntry e : model.constantPool()) {
                        // a class constant, or a descriptor (an annotation's class value, a field's type)
                        String named = e instanceof ClassEntry c ? c.asInternalName()
                                : e instanceof Utf8Entry u ? u.stringValue() : "";
                        if (named.matches("(?s).*\\bdev/tegula/cli/Main(\\$.*|;.*)?")) {
                            offenders.add(model.thisClass().asInternalName() + " -> " + named);
                        }
                    }
                }
            }
        }
        assertFalse(read == 0, "no command classes found under " + CLASSES.toAbsolutePath());
        assertEquals(new TreeSet<String>(), offenders, "command classes that name Main");
    }
}

package dev.tegula.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleDescriptor.Exports;
import java.lang.module.ModuleDescriptor.Requires;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.net.URI;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The module rules of docs/architecture.md, checked on what the build made and on the sources: the
 * module descriptors of Tegula's modules, as {@link ModuleFinder} reads them from the jars and class
 * folders on this test's class path (cli's tests see every module but jmh, which has none), and the
 * Tegula packages each main source file names in its code (imports and qualified names; comments and
 * string literals do not count). Each test names one rule and lists every place that breaks it.
 */
class ModuleRulesTest {
    private static final Path ROOT = Path.of("..");
    /** The libraries, each after every library it may require. */
    private static final List<String> LIBRARIES =
            List.of("dev.tegula.core", "dev.tegula.ffm", "dev.tegula.vector", "dev.tegula.io", "dev.tegula.opencl");
    /** Tegula's tools that are named modules, each after every tool it may require. */
    private static final List<String> TOOLS = List.of("dev.tegula.bench", "dev.tegula.cli");
    /** The JMH benchmarks: on the class path (JMH's own way), so sources only, no descriptor. */
    private static final String JMH = "jmh";
    /** io's format packages. */
    private static final List<String> FORMATS = List.of("dev.tegula.io.npy", "dev.tegula.io.safetensors",
            "dev.tegula.io.gguf", "dev.tegula.io.dlpack");
    /** A Tegula package followed by a type name or {@code *}: in an import or a qualified name. */
    private static final Pattern PACKAGE = Pattern.compile("\\bdev\\.tegula(?:\\.[a-z][a-z0-9_]*)+(?=\\s*\\.\\s*[A-Z*])");

    /**
     * The places that break a rule today, each as the test reports it; docs/architecture.md lists them
     * with their reasons. Any other break fails, and so does an entry here that no longer breaks a rule.
     */
    private static final Set<String> STANDING_BREAKS = Set.of();

    /** Module name to descriptor. */
    private static Map<String, ModuleDescriptor> modules;
    /** Source unit (a module name, or {@link #JMH}) to its packages, each to the Tegula packages its code names. */
    private static Map<String, Map<String, Set<String>>> uses;

    @BeforeAll
    static void read() throws IOException {
        modules = new TreeMap<>();
        List<Path> locations = new ArrayList<>();
        for (URL url : Collections.list(ClassLoader.getSystemClassLoader().getResources("module-info.class"))) {
            // a jar (jar:file:/.../x.jar!/module-info.class) or a folder of classes (file:/.../classes/module-info.class)
            String u = url.toString();
            if (!u.startsWith("jar:file:") && !u.startsWith("file:")) {
                continue;
            }
            locations.add(u.startsWith("jar:") ? Path.of(URI.create(u.substring(4, u.indexOf("!/"))))
                    : Path.of(URI.create(u)).getParent());
        }
        // the finder reads each descriptor with every package of its module, not only the exported ones
        for (ModuleReference ref : ModuleFinder.of(locations.toArray(Path[]::new)).findAll()) {
            ModuleDescriptor d = ref.descriptor();
            if (d.name().startsWith("dev.tegula.")) {
                modules.put(d.name(), d);
            }
        }
        uses = new TreeMap<>();
        for (String m : modules.keySet()) {
            uses.put(m, packageUses(sourceRoot(m)));
        }
        uses.put(JMH, packageUses(ROOT.resolve(JMH).resolve("src/main/java")));
    }

    /** {@return the main source folder of module {@code name}: dev.tegula.io is io/src/main/java} */
    private static Path sourceRoot(String name) {
        return ROOT.resolve(name.substring("dev.tegula.".length())).resolve("src/main/java");
    }

    private static Map<String, Set<String>> packageUses(Path root) throws IOException {
        Map<String, Set<String>> out = new TreeMap<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                if (f.getFileName().toString().equals("module-info.java")) {
                    continue;
                }
                String pkg = root.relativize(f.getParent()).toString().replace(f.getFileSystem().getSeparator(), ".");
                Matcher m = PACKAGE.matcher(code(Files.readString(f)));
                Set<String> used = out.computeIfAbsent(pkg, k -> new TreeSet<>());
                while (m.find()) {
                    used.add(m.group().replaceAll("\\s", ""));
                }
            }
        }
        return out;
    }

    /** {@return Java source text with its comments and its string and character literals blanked out} */
    static String code(String java) {
        StringBuilder sb = new StringBuilder(java.length());
        int n = java.length();
        int i = 0;
        while (i < n) {
            char c = java.charAt(i);
            if (java.startsWith("//", i)) {
                while (i < n && java.charAt(i) != '\n') {
                    i++;
                }
            } else if (java.startsWith("/*", i)) {
                int end = java.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
                sb.append(' ');
            } else if (java.startsWith("\"\"\"", i)) {
                int end = i + 3;
                while (end < n && !java.startsWith("\"\"\"", end)) {
                    end += java.charAt(end) == '\\' ? 2 : 1;
                }
                i = Math.min(n, end + 3);
                sb.append("\"\"");
            } else if (c == '"' || c == '\'') {
                int end = i + 1;
                while (end < n && java.charAt(end) != c && java.charAt(end) != '\n') {
                    end += java.charAt(end) == '\\' ? 2 : 1;
                }
                i = Math.min(n, end + 1);
                sb.append(c).append(c);
            } else {
                sb.append(c);
                i++;
            }
        }
        return sb.toString();
    }

    /** {@return the module that holds {@code pkg}, or null} */
    private static String owner(String pkg) {
        for (ModuleDescriptor d : modules.values()) {
            if (d.packages().contains(pkg)) {
                return d.name();
            }
        }
        return null;
    }

    private static Set<String> tegulaRequires(ModuleDescriptor d) {
        Set<String> out = new TreeSet<>();
        for (Requires r : d.requires()) {
            if (r.name().startsWith("dev.tegula.")) {
                out.add(r.name());
            }
        }
        return out;
    }

    private static void assertNone(List<String> broken, String rule) {
        assertTrue(broken.isEmpty(), () -> rule + ":\n  " + String.join("\n  ", broken));
    }

    @Test
    void everyModuleWithCodeIsANamedModuleButTheBenchmarks() throws IOException {
        Set<String> expected = new TreeSet<>(LIBRARIES);
        expected.addAll(TOOLS);
        assertEquals(expected, modules.keySet(), "Tegula's module descriptors on cli's test class path");
        String pom = Files.readString(ROOT.resolve("pom.xml"));
        Set<String> withCode = new TreeSet<>();
        Matcher m = Pattern.compile("<module>([^<]+)</module>").matcher(pom);
        while (m.find()) {
            if (Files.isDirectory(ROOT.resolve(m.group(1)).resolve("src/main/java"))) {
                withCode.add(m.group(1));
            }
        }
        Set<String> named = new TreeSet<>();
        for (String name : expected) {
            named.add(name.substring("dev.tegula.".length()));
        }
        named.add(JMH);
        assertEquals(named, withCode, "Maven modules with main code: a module dev.tegula.<folder> each, and jmh");
        assertTrue(Files.notExists(ROOT.resolve(JMH).resolve("src/main/java/module-info.java")),
                "jmh runs on the class path; docs/architecture.md says why");
    }

    @Test
    void everyPackageIsNamedForItsModule() {
        List<String> broken = new ArrayList<>();
        modules.forEach((name, d) -> {
            for (String p : d.packages()) {
                if (!p.equals(name) && !p.startsWith(name + ".")) {
                    broken.add(p + " in " + name);
                }
            }
        });
        uses.get(JMH).keySet().stream().filter(p -> !p.equals("dev.tegula.jmh") && !p.startsWith("dev.tegula.jmh."))
                .forEach(p -> broken.add(p + " in jmh"));
        assertNone(broken, "a package outside its module's name");
    }

    @Test
    void dependenciesFlowFromTheLibrariesToTheTools() {
        List<String> broken = new ArrayList<>();
        for (int i = 0; i < LIBRARIES.size(); i++) {
            Set<String> allowed = Set.copyOf(LIBRARIES.subList(0, i));
            for (String r : tegulaRequires(modules.get(LIBRARIES.get(i)))) {
                if (!allowed.contains(r)) {
                    broken.add(LIBRARIES.get(i) + " requires " + r + " (a library requires only the libraries before it: "
                            + String.join(" <- ", LIBRARIES) + ")");
                }
            }
        }
        for (int i = 0; i < TOOLS.size(); i++) {
            Set<String> allowed = new TreeSet<>(LIBRARIES);
            allowed.addAll(TOOLS.subList(0, i));
            for (String r : tegulaRequires(modules.get(TOOLS.get(i)))) {
                if (!allowed.contains(r)) {
                    broken.add(TOOLS.get(i) + " requires " + r);
                }
            }
        }
        uses.get(JMH).forEach((pkg, used) -> {
            for (String u : used) {
                String owner = owner(u);
                if (owner != null && !LIBRARIES.contains(owner) && !owner.equals("dev.tegula.bench")) {
                    broken.add("jmh's " + pkg + " uses " + u + " of " + owner);
                }
            }
        });
        assertNone(broken, "a dependency against the flow");
    }

    /** Device memory is a plug-in of ffm's memory space SPI: opencl requires ffm alone, and no other library requires it. */
    @Test
    void openclRequiresOnlyFfmAndNoOtherLibraryRequiresIt() {
        List<String> broken = new ArrayList<>();
        Set<String> r = tegulaRequires(modules.get("dev.tegula.opencl"));
        if (!r.equals(Set.of("dev.tegula.ffm"))) {
            broken.add("dev.tegula.opencl requires " + r);
        }
        for (String library : LIBRARIES) {
            if (tegulaRequires(modules.get(library)).contains("dev.tegula.opencl")) {
                broken.add(library + " requires dev.tegula.opencl");
            }
        }
        assertNone(broken, "opencl against its place");
    }

    @Test
    void nothingDependsOnCliOrJmhAndNoLibraryOnTheBenchmarkCases() throws IOException {
        List<String> broken = new ArrayList<>();
        modules.forEach((name, d) -> {
            if (tegulaRequires(d).contains("dev.tegula.cli")) {
                broken.add(name + " requires dev.tegula.cli");
            }
        });
        Pattern dependency = Pattern.compile("<dependency>\\s*<groupId>dev\\.tegula</groupId>\\s*<artifactId>(tegula-[a-z]+)</artifactId>(.*?)</dependency>",
                Pattern.DOTALL);
        List<String> folders = new ArrayList<>();
        for (String name : modules.keySet()) {
            folders.add(name.substring("dev.tegula.".length()));
        }
        folders.add(JMH);
        for (String folder : folders) {
            String pom = Files.readString(ROOT.resolve(folder).resolve("pom.xml"));
            Matcher m = dependency.matcher(pom);
            while (m.find()) {
                String artifact = m.group(1);
                boolean library = LIBRARIES.contains("dev.tegula." + folder);
                // a library's tests may read the tools' helpers (bench): its artifact does not depend on them
                boolean testOnly = m.group(2).contains("<scope>test</scope>");
                if (artifact.equals("tegula-cli") || artifact.equals("tegula-jmh")
                        || library && artifact.equals("tegula-bench") && !testOnly) {
                    broken.add(folder + "/pom.xml depends on " + artifact);
                }
            }
        }
        for (String library : LIBRARIES) {
            if (tegulaRequires(modules.get(library)).contains("dev.tegula.bench")) {
                broken.add(library + " requires dev.tegula.bench");
            }
        }
        assertNone(broken, "a dependency on a tool");
    }

    @Test
    void internalPackagesAreExportedOnlyByNameToTegulasModules() {
        List<String> broken = new ArrayList<>();
        for (ModuleDescriptor d : modules.values()) {
            for (Exports e : d.exports()) {
                if (e.source().endsWith(".internal") || e.source().contains(".internal.")) {
                    if (!e.isQualified()) {
                        broken.add(d.name() + " exports " + e.source() + " to everyone");
                    } else {
                        e.targets().stream().filter(t -> !modules.containsKey(t))
                                .forEach(t -> broken.add(d.name() + " exports " + e.source() + " to " + t + ", not a Tegula module"));
                    }
                }
            }
        }
        assertNone(broken, "an internal package exported beyond Tegula's named modules");
    }

    /**
     * The relayout engine exports its API ({@code dev.tegula.vector}) and block quantization
     * ({@code dev.tegula.vector.quant}) to everyone; its planner ({@code plan}), kernels
     * ({@code kernels}) and the provider behind ffm's bulk methods ({@code bulk}) stay inside,
     * exported at most by name to a Tegula module.
     */
    @Test
    void vectorExportsItsApiAndKeepsItsPlannerAndKernelsInside() {
        ModuleDescriptor v = modules.get("dev.tegula.vector");
        Set<String> api = Set.of("dev.tegula.vector", "dev.tegula.vector.quant");
        Set<String> inside = Set.of("dev.tegula.vector.plan", "dev.tegula.vector.kernels", "dev.tegula.vector.bulk");
        List<String> broken = new ArrayList<>();
        for (String p : new TreeSet<>(v.packages())) {
            if (!api.contains(p) && !inside.contains(p)) {
                broken.add("a package " + p + " that is neither API nor planner, kernels or the bulk provider");
            }
        }
        for (String p : api) {
            if (v.exports().stream().noneMatch(e -> e.source().equals(p) && !e.isQualified())) {
                broken.add(p + " not exported to everyone");
            }
        }
        for (Exports e : v.exports()) {
            if (inside.contains(e.source()) && !e.isQualified()) {
                broken.add(e.source() + " exported to everyone");
            }
        }
        assertNone(broken, "dev.tegula.vector has");
    }

    /** {@return whether {@code reader} (a module name, or {@link #JMH} on the class path) may read {@code pkg}} */
    private static boolean exportedTo(String pkg, String reader) {
        ModuleDescriptor d = modules.get(owner(pkg));
        for (Exports e : d.exports()) {
            if (e.source().equals(pkg)) {
                return !e.isQualified() || e.targets().contains(reader);
            }
        }
        return false;
    }

    /** {@return every use of a package that its module does not export to the user} */
    private static List<String> usesOfPackagesNotExportedToThem() {
        List<String> broken = new ArrayList<>();
        uses.forEach((unit, packages) -> packages.forEach((pkg, used) -> {
            for (String u : used) {
                String owner = owner(u);
                if (owner == null) {
                    if (!u.startsWith("dev.tegula.jmh")) {
                        broken.add(unit + ": " + pkg + " uses " + u + ", a package of no module");
                    }
                } else if (!owner.equals(unit) && !exportedTo(u, unit)) {
                    broken.add(unit + ": " + pkg + " uses " + u + ", which " + owner + " does not export to "
                            + (unit.equals(JMH) ? "the class path (jmh)" : unit));
                }
            }
        }));
        return broken;
    }

    /** {@return every qualified export whose reader does not use the package} */
    private static List<String> qualifiedExportsNobodyUses() {
        List<String> broken = new ArrayList<>();
        for (ModuleDescriptor d : modules.values()) {
            for (Exports e : d.exports()) {
                for (String target : e.targets()) {
                    Map<String, Set<String>> reader = uses.get(target);
                    if (reader == null || reader.values().stream().noneMatch(s -> s.contains(e.source()))) {
                        broken.add(d.name() + " exports " + e.source() + " to " + target + ", which does not use it");
                    }
                }
            }
        }
        return broken;
    }

    /** {@return {@code broken} without the standing breaks that docs/architecture.md lists} */
    private static List<String> unlisted(List<String> broken) {
        return broken.stream().filter(b -> !STANDING_BREAKS.contains(b)).toList();
    }

    @Test
    void eachModuleUsesOnlyPackagesExportedToIt() {
        assertNone(unlisted(usesOfPackagesNotExportedToThem()), "a module uses a package not exported to it");
    }

    @Test
    void whatIsExportedByNameIsUsedByItsReader() {
        assertNone(unlisted(qualifiedExportsNobodyUses()), "a qualified export nobody needs");
    }

    @Test
    void theStandingBreaksStillStand() {
        List<String> found = new ArrayList<>(usesOfPackagesNotExportedToThem());
        found.addAll(qualifiedExportsNobodyUses());
        List<String> mended = STANDING_BREAKS.stream().filter(b -> !found.contains(b)).toList();
        assertNone(mended, "mended: take it off STANDING_BREAKS and off docs/architecture.md's list");
    }

    @Test
    void noFormatPackageOfIoUsesAnother() {
        List<String> broken = new ArrayList<>();
        uses.get("dev.tegula.io").forEach((pkg, used) -> {
            for (String u : used) {
                boolean otherFormat = FORMATS.contains(u) && !u.equals(pkg);
                if (otherFormat && (FORMATS.contains(pkg) || pkg.equals("dev.tegula.io.internal"))) {
                    broken.add(pkg + " uses " + u);
                }
            }
        });
        assertNone(broken, "a format package (or io.internal) uses a format package");
    }

    @Test
    void architectureDocNamesEveryPackageAndQualifiedExport() throws IOException {
        String doc = Files.readString(ROOT.resolve("docs/architecture.md"));
        List<String> broken = new ArrayList<>();
        for (ModuleDescriptor d : modules.values()) {
            for (String p : new TreeSet<>(d.packages())) {
                if (!doc.contains("`" + p + "`")) {
                    broken.add("package " + p + " of " + d.name());
                }
            }
            for (Exports e : d.exports()) {
                if (e.isQualified()) {
                    String line = doc.lines().filter(l -> l.contains("`" + e.source() + "` to ")).findFirst().orElse("");
                    for (String t : e.targets()) {
                        if (!line.contains("`" + t + "`")) {
                            broken.add("the export of " + e.source() + " to " + t);
                        }
                    }
                }
            }
        }
        assertNone(broken, "docs/architecture.md does not name");
    }

    @Test
    void codeIgnoresCommentsAndLiterals() {
        String java = """
                import dev.tegula.core.Shape; // dev.tegula.ffm.Array
                /* dev.tegula.io.internal.Json */ class A { String s = "dev.tegula.vector.Relayout";
                char c = '"'; Object o = dev.tegula.ffm.internal.RawSlots.class; }
                """;
        Matcher m = PACKAGE.matcher(code(java));
        List<String> found = new ArrayList<>();
        while (m.find()) {
            found.add(m.group());
        }
        assertEquals(List.of("dev.tegula.core", "dev.tegula.ffm.internal"), found);
    }
}

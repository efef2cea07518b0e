package dev.tegula.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.spi.ToolProvider;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./run} keeps the caller's working directory, starts the jar
 * without Maven when the jar is newer than every source and pom, builds when something changed,
 * and lets none of Maven's colour codes through. Runs the real script in a copy of the checkout's
 * skeleton, with a stand-in {@code mvn} (which prints the {@code ESC[0m} resets Maven 3.8 prints,
 * and records that it ran), for the choice of locale a stand-in {@code locale} (which reports a given
 * character set and list), and a stand-in tool: a module {@code dev.tegula.cli} whose
 * {@code dev.tegula.cli.Main} prints its working directory and arguments, which the script can only
 * start if it starts the tool as a module on the module path.
 */
@EnabledOnOs({OS.LINUX, OS.MAC})
class RunScriptTest {
    private static final List<String> MODULES = List.of("core", "ffm", "vector", "io", "bench", "cli");
    /** The stand-in tool's sources: file name, text. */
    private static final Map<String, String> PROBE = Map.of(
            "module-info.java", "module dev.tegula.cli { }",
            "dev/tegula/cli/Main.java", """
                    package dev.tegula.cli;

                    public final class Main {
                        public static void main(String[] args) {
                            if (args.length > 0 && args[0].equals("probe-files")) {
                                // how the JVM names files, and whether it finds each argument
                                System.out.println("jnu=" + System.getProperty("sun.jnu.encoding"));
                                for (int i = 1; i < args.length; i++) {
                                    String found;
                                    try {
                                        found = java.nio.file.Files.exists(java.nio.file.Path.of(args[i])) ? "found" : "missing";
                                    } catch (java.nio.file.InvalidPathException e) {
                                        found = "unnamable";
                                    }
                                    System.out.println(args[i] + ": " + found);
                                }
                                return;
                            }
                            if (args.length > 0 && args[0].equals("probe-locale")) {
                                System.out.println("LC_ALL=" + System.getenv("LC_ALL"));
                                return;
                            }
                            System.out.println("cwd=" + System.getProperty("user.dir"));
                            System.out.println("args=" + String.join("|", args));
                            System.out.println("module=" + Main.class.getModule().getName());
                        }
                    }
                    """);
    /** The stand-in's compiled classes, compiled once for all tests. */
    private static Path probeClasses;
    private static final FileTime PAST = FileTime.from(Instant.now().minusSeconds(3600));

    @TempDir
    Path tmp;
    Path checkout;
    Path jar;
    Path mvnLog;
    Path elsewhere;

    @BeforeAll
    static void compileProbe(@TempDir Path dir) throws IOException {
        Path src = dir.resolve("src");
        List<Path> files = new ArrayList<>();
        for (Map.Entry<String, String> e : PROBE.entrySet()) {
            Path f = src.resolve(e.getKey());
            Files.createDirectories(f.getParent());
            Files.writeString(f, e.getValue());
            files.add(f);
        }
        probeClasses = Files.createDirectories(dir.resolve("classes"));
        List<String> args = new ArrayList<>(List.of("-d", probeClasses.toString()));
        files.forEach(f -> args.add(f.toString()));
        StringWriter log = new StringWriter();
        int rc = ToolProvider.findFirst("javac").orElseThrow()
                .run(new PrintWriter(log), new PrintWriter(log), args.toArray(String[]::new));
        assertEquals(0, rc, () -> "the stand-in tool compiles: " + log);
    }

    @BeforeEach
    void skeleton() throws IOException {
        checkout = Files.createDirectories(tmp.resolve("check out"));   // a space in the path, too
        Path run = checkout.resolve("run");
        Files.copy(Path.of("..", "run"), run);
        run.toFile().setExecutable(true);
        Files.writeString(checkout.resolve("pom.xml"), "<project/>");
        for (String m : MODULES) {
            Path src = Files.createDirectories(checkout.resolve(m).resolve("src/main/java"));
            Files.writeString(checkout.resolve(m).resolve("pom.xml"), "<project/>");
            Files.writeString(src.resolve("A.java"), "class A {}");
        }
        jar = Files.createDirectories(checkout.resolve("cli/target")).resolve("tegula.jar");
        writeProbeJar(jar);
        Files.createDirectories(checkout.resolve("cli/target/lib"));
        try (var files = Files.walk(checkout)) {
            for (Path p : files.toList()) {
                if (!p.equals(jar)) {
                    Files.setLastModifiedTime(p, PAST);
                }
            }
        }
        // the jar a minute old, everything else an hour: a file written by a test is newer than the jar
        // whatever the clock's granularity
        Files.setLastModifiedTime(jar, FileTime.from(Instant.now().minusSeconds(60)));
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        mvnLog = tmp.resolve("mvn.log");
        Path mvn = bin.resolve("mvn");
        // like Maven 3.8 in batch mode: colour resets on both streams; then "builds" (touches the jar, makes lib)
        Files.writeString(mvn, "#!/bin/sh\n"
                + "echo \"$@\" >> '" + mvnLog + "'\n"
                + "printf '\\033[0m\\033[0m'\n"
                + "printf '\\033[0m\\033[0m' >&2\n"
                + "touch '" + jar + "'\n"
                + "mkdir -p '" + jar.resolveSibling("lib") + "'\n");
        Files.setPosixFilePermissions(mvn, PosixFilePermissions.fromString("rwxr-xr-x"));
        elsewhere = Files.createDirectories(tmp.resolve("elsewhere"));
    }

    /** Writes the stand-in tool as a modular jar: {@code module-info.class} and {@code dev/tegula/cli/Main.class}. */
    private static void writeProbeJar(Path jar) throws IOException {
        Manifest mf = new Manifest();
        mf.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        try (OutputStream out = Files.newOutputStream(jar);
             JarOutputStream j = new JarOutputStream(out, mf)) {
            for (String entry : List.of("module-info.class", "dev/tegula/cli/Main.class")) {
                j.putNextEntry(new JarEntry(entry));
                Files.copy(probeClasses.resolve(entry), j);
                j.closeEntry();
            }
        }
    }

    private record Result(int code, String out, String err) {
    }

    private Result run(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(checkout.resolve("run").toString()));
        cmd.addAll(List.of(args));
        return start(new ProcessBuilder(cmd));
    }

    /** Starts {@code pb} in the caller's directory with the stand-in mvn first on the PATH. */
    private Result start(ProcessBuilder pb) throws IOException, InterruptedException {
        pb.directory(elsewhere.toFile());
        pb.environment().put("PATH", tmp.resolve("bin") + ":" + System.getenv("PATH"));
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        pb.environment().remove("TEGULA_REBUILD");
        Path out = tmp.resolve("out.txt");
        Path err = tmp.resolve("err.txt");
        pb.redirectOutput(out.toFile()).redirectError(err.toFile());
        Process p = pb.start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "./run finished");
        return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }

    @Test
    void upToDateJarStartsDirectlyInTheCallersDirectory() throws Exception {
        Result r = run("inspect", "weights.npy", "--png", "rel.png");
        assertEquals(0, r.code(), r.err());
        assertEquals("cwd=" + elsewhere.toRealPath() + "\nargs=inspect|weights.npy|--png|rel.png\nmodule=dev.tegula.cli\n",
                r.out());
        assertFalse(Files.exists(mvnLog), "Maven was not started for an up-to-date jar");
        assertFalse(r.err().contains("\u001b"), r.err());
    }

    @Test
    void aChangedSourceBuildsFirstWithoutColourCodes() throws Exception {
        Files.writeString(checkout.resolve("io/src/main/java/A.java"), "class A { }");
        Result r = run("--version");
        assertEquals(0, r.code(), r.err());
        assertTrue(Files.readString(mvnLog).contains("-pl cli"), "Maven built the cli module");
        assertTrue(r.err().startsWith("run: sources changed since the last build: rebuilding tegula ...\n"),
                () -> "one line says what Maven is doing: " + r.err());
        assertEquals("cwd=" + elsewhere.toRealPath() + "\nargs=--version\nmodule=dev.tegula.cli\n", r.out(),
                "stdout is the job's alone");
        assertFalse(r.err().contains("\u001b"), () -> "no escape codes on stderr: " + r.err());
        // built once, the next run starts directly
        Files.delete(mvnLog);
        assertEquals(0, run("--version").code());
        assertFalse(Files.exists(mvnLog));
    }

    @Test
    void aChangedPomOrAMissingJarBuilds() throws Exception {
        Files.writeString(checkout.resolve("pom.xml"), "<project><!-- changed --></project>");
        assertEquals(0, run("x").code());
        assertTrue(Files.exists(mvnLog));
        Files.delete(mvnLog);
        Files.setLastModifiedTime(checkout.resolve("pom.xml"), PAST);
        Files.delete(jar);
        Files.delete(checkout.resolve("cli/target/lib"));
        // no jar: the first build (the stand-in mvn cannot build: it makes an empty jar, which the JVM refuses)
        Result first = run("x");
        assertTrue(first.err().startsWith("run: building tegula with Maven (first run: a minute or more, with the cores and ~/.m2 you have) ...\n"),
                first::err);
        Files.delete(mvnLog);
        Files.delete(jar);
        writeProbeJar(jar);   // "stale": make every source newer instead of deleting (mvn stand-in cannot build)
        Files.setLastModifiedTime(jar, FileTime.from(Instant.now().minusSeconds(7200)));
        assertEquals(0, run("x").code());
        assertTrue(Files.exists(mvnLog), "a jar older than the sources is rebuilt");
    }

    @Test
    void aChangedBenchCaseOrAMissingModulePathBuilds() throws Exception {
        Files.writeString(checkout.resolve("bench/src/main/java/A.java"), "class A { }");
        assertEquals(0, run("x").code());
        assertTrue(Files.exists(mvnLog), "the benchmark cases are part of the tool");
        Files.delete(mvnLog);
        Files.setLastModifiedTime(checkout.resolve("bench/src/main/java/A.java"), PAST);
        Files.delete(checkout.resolve("cli/target/lib"));
        assertEquals(0, run("x").code());
        assertTrue(Files.exists(mvnLog), "a tool without its module path is rebuilt");
    }

    @Test
    void underTheCLocaleTheToolGetsAUtf8LocaleSoANonAsciiFileNameOpens() throws Exception {
        // ü.npy as UTF-8 bytes, made and passed by sh so that this JVM's own locale does not matter
        ProcessBuilder pb = new ProcessBuilder("/bin/sh", "-c",
                "n=$(printf '\\303\\274.npy') && : > \"$n\" && exec \"$0\" probe-files \"$n\" plain.txt",
                checkout.resolve("run").toString());
        pb.environment().put("LC_ALL", "C");
        pb.environment().put("LANG", "C");
        Result r = start(pb);
        assertEquals(0, r.code(), r.err());
        Result locales = start(new ProcessBuilder("/bin/sh", "-c", "locale -a 2>/dev/null | grep -i '\\.utf-\\{0,1\\}8$'"));
        ProcessBuilder c = new ProcessBuilder(checkout.resolve("run").toString(), "probe-locale");
        c.environment().put("LC_ALL", "C");
        c.environment().put("LANG", "C");
        Result chosen = start(c);
        if (locales.code() == 0) {
            assertTrue(chosen.out().toLowerCase(java.util.Locale.ROOT).matches("lc_all=.*\\.utf-?8\n"), chosen.out());
            assertEquals("jnu=UTF-8\n\u00fc.npy: found\nplain.txt: missing\n", r.out());
        } else {
            // no UTF-8 locale to give the JVM: the C locale is left as it is, and the tool itself then
            // says how to start it (CLocaleTest)
            assertEquals("LC_ALL=C\n", chosen.out());
        }
    }

    /**
     * Runs {@code ./run probe-locale} under {@code LC_ALL=lcAll} with a stand-in {@code locale} that
     * reports {@code charmap} and lists {@code available} for {@code -a}; {@return the LC_ALL the tool got}
     */
    private String localeGiven(String lcAll, String charmap, String... available) throws Exception {
        Path locale = tmp.resolve("bin/locale");
        Files.writeString(locale, "#!/bin/sh\n"
                + "case \"$1\" in\n"
                + "  charmap) echo '" + charmap + "' ;;\n"
                + "  -a) printf '" + String.join("\\n", available) + "\\n' ;;\n"
                + "  *) exit 1 ;;\n"
                + "esac\n");
        Files.setPosixFilePermissions(locale, PosixFilePermissions.fromString("rwxr-xr-x"));
        ProcessBuilder pb = new ProcessBuilder(checkout.resolve("run").toString(), "probe-locale");
        pb.environment().put("LC_ALL", lcAll);
        pb.environment().put("LANG", "C");
        Result r = start(pb);
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().startsWith("LC_ALL="), r.out());
        return r.out().substring("LC_ALL=".length()).strip();
    }

    @Test
    void underAnAsciiLocaleTheToolGetsCUtf8ElseTheFirstUtf8LocaleListedElseTheLocaleAsItWas() throws Exception {
        assertEquals("C.utf8", localeGiven("C", "ANSI_X3.4-1968", "C", "en_US.UTF-8", "C.utf8", "POSIX"));
        assertEquals("C.UTF-8", localeGiven("POSIX", "ANSI_X3.4-1968", "C", "C.UTF-8", "POSIX"));
        assertEquals("de_DE.utf8", localeGiven("C", "US-ASCII", "C", "POSIX", "de_DE.utf8", "en_US.UTF-8"));
        assertEquals("C", localeGiven("C", "ANSI_X3.4-1968", "C", "POSIX", "de_DE.ISO-8859-1"));
        // a character set that carries every byte through is left alone
        assertEquals("de_DE.ISO-8859-1", localeGiven("de_DE.ISO-8859-1", "ISO-8859-1", "C", "C.utf8"));
        assertEquals("en_US.UTF-8", localeGiven("en_US.UTF-8", "UTF-8", "C", "C.utf8"));
    }
}

package dev.tegula.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The README's "Use it in your build" lines are the ones examples/consumer uses (its POM, its
 * module-info, the flags of its run script), and the BOM pins every published artifact at the
 * parent's version. The consumer itself is built and run against the installed artifacts by .ci/run.
 */
class BuildLinesTest {
    private static final Path ROOT = Path.of("..");

    private static String read(String path) throws IOException {
        return Files.readString(ROOT.resolve(path));
    }

    /** {@return the README's section "Use it in your build"} */
    private static String section() throws IOException {
        String readme = read("README.md");
        int from = readme.indexOf("## Use it in your build");
        assertTrue(from >= 0, "README.md has no section 'Use it in your build'");
        int to = readme.indexOf("\n## ", from + 3);
        return readme.substring(from, to < 0 ? readme.length() : to);
    }

    /** {@return the first fenced block of the section whose text contains {@code marker}} */
    private static String block(String section, String marker) {
        Matcher m = Pattern.compile("```[a-z]*\\n(.*?)```", Pattern.DOTALL).matcher(section);
        while (m.find()) {
            if (m.group(1).contains(marker)) {
                return m.group(1);
            }
        }
        throw new AssertionError("README 'Use it in your build' has no block containing " + marker);
    }

    private static List<String> all(String regex, String text) {
        List<String> out = new ArrayList<>();
        Matcher m = Pattern.compile(regex).matcher(text);
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    /** {@return the project's own version: the first version element after the parent POM's artifactId} */
    private static String parentVersion() throws IOException {
        String pom = read("pom.xml");
        Matcher m = Pattern.compile("<artifactId>tegula-parent</artifactId>\\s*<version>([^<]+)</version>").matcher(pom);
        assertTrue(m.find(), "pom.xml: no tegula-parent version");
        return m.group(1);
    }

    @Test
    void mavenLinesAreTheConsumers() throws IOException {
        String xml = block(section(), "<dependencyManagement>");
        String consumer = read("examples/consumer/pom.xml");
        List<String> readmeArtifacts = all("<artifactId>(tegula-[a-z]+)</artifactId>", xml);
        assertEquals(List.of("tegula-bom", "tegula-vector", "tegula-io"), readmeArtifacts);
        assertEquals(readmeArtifacts, all("<artifactId>(tegula-[a-z]+)</artifactId>", consumer));
        assertTrue(consumer.contains("<type>pom</type>") && consumer.contains("<scope>import</scope>"),
                "examples/consumer/pom.xml must import the BOM");
        assertEquals(List.of(parentVersion()), all("<version>([^<]+)</version>", xml), "README's BOM version");
        assertEquals(List.of(parentVersion()), all("<tegula.version>([^<]+)</tegula.version>", consumer),
                "examples/consumer's tegula.version");
    }

    /** {@return {@code xml} without comments, its whitespace between elements dropped} */
    private static String plainXml(String xml) {
        return xml.replaceAll("(?s)<!--.*?-->", "").replaceAll(">\\s+<", "><").strip();
    }

    @Test
    void toolchainLinesForMavenOnJava17AreTheConsumers() throws IOException {
        String readme = plainXml(block(section(), "maven-toolchains-plugin"));
        String consumer = plainXml(read("examples/consumer/pom.xml"));
        assertTrue(readme.contains("<goal>select-jdk-toolchain</goal>") && readme.contains("<version>[25,)</version>"),
                readme);
        assertTrue(consumer.contains(readme), "examples/consumer/pom.xml has the README's toolchains plugin: " + readme);
        assertTrue(section().contains("pin `maven-jar-plugin` to `3.0.2`"), "the README says to pin the jar plugin");
        assertTrue(consumer.contains("<artifactId>maven-jar-plugin</artifactId><version>3.0.2</version>"),
                "examples/consumer pins maven-jar-plugin 3.0.2");
    }

    @Test
    void aModularBuildOnJava17GetsACompilerPluginThatReadsJava25Modules() throws IOException {
        assertTrue(section().contains("`maven-compiler-plugin` **3.15.0 or later**"), "the README names the version");
        Matcher m = Pattern.compile("<artifactId>maven-compiler-plugin</artifactId><version>(\\d+)\\.(\\d+)")
                .matcher(plainXml(read("examples/consumer/pom.xml")));
        assertTrue(m.find(), "examples/consumer pins maven-compiler-plugin");
        int major = Integer.parseInt(m.group(1));
        int minor = Integer.parseInt(m.group(2));
        assertTrue(major > 3 || major == 3 && minor >= 15, "examples/consumer's compiler plugin is 3.15 or later: " + m.group());
        assertTrue(plainXml(block(section(), "maven-compiler-plugin")).contains(
                "<artifactId>maven-compiler-plugin</artifactId><version>" + m.group(1) + "." + m.group(2)),
                "the README's lines use the consumer's version");
    }

    @Test
    void gradleLinesNameTheSameArtifacts() throws IOException {
        String gradle = block(section(), "implementation(");
        assertEquals(List.of("dev.tegula:tegula-bom:" + parentVersion(), "dev.tegula:tegula-vector", "dev.tegula:tegula-io"),
                all("\"(dev\\.tegula:[^\"]+)\"", gradle));
    }

    @Test
    void moduleInfoLinesAreTheConsumers() throws IOException {
        String readme = block(section(), "module your.module");
        String consumer = read("examples/consumer/src/main/java/module-info.java");
        List<String> requires = all("(requires [a-z.]+;)", readme);
        assertEquals(List.of("requires dev.tegula.io;", "requires dev.tegula.vector;", "requires jdk.incubator.vector;"),
                requires);
        assertEquals(requires, all("(requires [a-z.]+;)", consumer));
    }

    @Test
    void jvmFlagsAreTheConsumers() throws IOException {
        String command = block(section(), "--enable-native-access");
        String run = read("examples/consumer/run");
        for (String flag : List.of("--add-modules jdk.incubator.vector", "--enable-native-access=dev.tegula.ffm,dev.tegula.io")) {
            assertTrue(command.contains(flag), "README's java command lacks " + flag);
            assertTrue(run.contains(flag), "examples/consumer/run lacks " + flag);
        }
    }

    @Test
    void bomPinsEveryPublishedArtifactAtTheParentsVersion() throws IOException {
        String bom = read("bom/pom.xml");
        assertEquals(List.of("tegula-bom"), all("<artifactId>(tegula-bom)</artifactId>", bom));
        assertEquals(List.of("tegula-core", "tegula-ffm", "tegula-opencl", "tegula-vector", "tegula-io", "tegula-cli",
                        "tegula-bench"),
                all("<groupId>dev\\.tegula</groupId><artifactId>(tegula-[a-z]+)</artifactId><version>\\$\\{project\\.version}</version>", bom));
        Matcher own = Pattern.compile("<artifactId>tegula-bom</artifactId>\\s*<version>([^<]+)</version>").matcher(bom);
        assertTrue(own.find(), "bom/pom.xml: no version");
        assertEquals(parentVersion(), own.group(1), "tegula-bom's version must be the parent's");
    }
}

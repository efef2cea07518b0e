package dev.tegula.cli;

import picocli.CommandLine;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** {@code --version} of every command: the project version (filtered into a resource at build time) and the Java runtime. */
public final class VersionProvider implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
        return new String[] {"tegula " + projectVersion(),
                "Java " + Runtime.version() + " (" + System.getProperty("java.vendor") + ")"};
    }

    /** {@return the project version of this build, or {@code unknown} where the build left none} */
    public static String projectVersion() {
        Properties p = new Properties();
        try (InputStream in = VersionProvider.class.getResourceAsStream("version.properties")) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException e) {
            return "unknown";
        }
        return p.getProperty("version", "unknown");
    }
}

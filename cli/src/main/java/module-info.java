/**
 * The {@code tegula} command: an application, not an API (it exports nothing). It reads the libraries
 * through their exported packages; what it needs beyond them is exported to it by name:
 * {@code dev.tegula.io.internal}, for {@code AtomicFile} (its pictures and charts are written whole
 * or not at all) and {@code ByteCounts} (byte counts printed as io's messages print them), and
 * {@code dev.tegula.ffm.internal}, for {@code LongMath}. picocli reads the annotated commands by
 * reflection, so their packages are opened to it.
 */
module dev.tegula.cli {
    requires dev.tegula.io;
    // tegula devices and tegula bench --device: the OpenCL devices and their memory
    requires dev.tegula.opencl;
    requires dev.tegula.bench;
    requires info.picocli;
    // the PNG charts of tegula bench and tegula plan; XChart has no module descriptor and no
    // Automatic-Module-Name, so the module path names it after its jar, xchart-<version>.jar
    requires xchart;
    // Java2D and ImageIO for the PNG pictures and charts
    requires java.desktop;

    opens dev.tegula.cli to info.picocli;
    opens dev.tegula.cli.commands to info.picocli;
    opens dev.tegula.cli.bench to info.picocli;
}

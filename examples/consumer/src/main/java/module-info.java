/**
 * A program that uses Tegula as a library would: from the installed artifacts, on the module path.
 * These three lines are the ones the README's "Use it in your build" section gives: Tegula's two
 * modules, and the Vector API for the kernel of this program's own ({@code ScaleKernel}), which
 * {@code dev.tegula.vector} requires for itself but does not pass on.
 */
module dev.tegula.example.consumer {
    requires dev.tegula.io;
    requires dev.tegula.vector;
    requires jdk.incubator.vector;
}

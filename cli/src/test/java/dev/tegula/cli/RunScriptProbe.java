package dev.tegula.cli;

/** Stands in for the tegula jar in {@link RunScriptTest}: prints its working directory and arguments. */
public final class RunScriptProbe {
    private RunScriptProbe() {
    }

    public static void main(String[] args) {
        System.out.println("cwd=" + System.getProperty("user.dir"));
        System.out.println("args=" + String.join("|", args));
    }
}
